// The opponent's initiative moves (opponent_parts.hpp): a unit near an enemy
// charges or evades on its own initiative before orders are given.
#include "opponent/opponent_parts.hpp"

namespace referee::warmaster::opponent_detail {

std::optional<Candidate> next_initiative(const Ctx& c) {
  const Battlefield& bf = c.bf;
  // What unit i does by initiative, if anything, and a box holding all it
  // read (OpponentScratch::Idle), widened as it reads: its enemies in range
  // and the lines of sight to them (Ctx::candidates); for a charge at e1,
  // the enemies within its pace, the friends within range of e1 and their
  // own candidates (ally_dice), and what the charge's check reads (the
  // stands' sweep from the unit to e1, widened by half the longest route
  // searched and a stand's reach: check_move); for an evade, its check (a
  // move of at most a full pace, kept clear of enemies).
  auto act = [&](std::size_t i, Aabb& reads) -> std::optional<Candidate> {
    const Unit& u = bf.units[i];
    const Aabb box = stands_box(u);
    const double pace = full_pace(u), size = std::max(u.width, u.depth) + u.frontage() + 1.0;
    reads = box;
    for (const InitiativeCandidate& cand : c.candidates(i, true)) {
      if (!cand.visible) continue;
      Action shell;
      shell.type = ActionType::Initiative;
      shell.unit = u.id;
      if (auto ch = best_charge(c, u, shell, true, cand.enemy)) {
        ch->reason = "initiative: " + ch->reason;
        return ch;
      }
      const Aabb target = stands_box(*bf.find_unit(cand.enemy));
      reads = reads.merged(box.inflated(pace + 0.01))
                  .merged(target.inflated(kInitiativeRange + 1.01))
                  .merged(box.merged(target).inflated(pace + 2 * size + 10));
      for (std::size_t f : units_within(c, target, kInitiativeRange + 1.0, c.side))
        if (c.scratch.initiative[f].known[1]) reads = reads.merged(c.scratch.initiative[f].region);
      break;
    }
    // Evade the closest visible enemy when it would win a charge, or when
    // the unit should keep its distance from a fighting enemy.
    for (const InitiativeCandidate& cand : c.candidates(i, false)) {
      if (!cand.visible) continue;
      const Unit* e = bf.find_unit(cand.enemy);
      if (!e) break;
      const bool threat = e->attacks > 0 && !keeps_range(*e);
      const double v = threat ? c.value(*e, u) : -1;
      if (threat && (v >= c.o.evade_margin || keeps_range(u))) {
        Action a = initiative_action(c.bf, u, *e, false, c.settings);
        if (c.legal(a))
          return Candidate{a, v, "initiative: evades " + e->id + " (its charge would have P(win) - P(lose) " +
                                     std::to_string(v) + ")"};
        reads = reads.merged(box.inflated(2 * pace + 2 * size + kEvadeClearance + 10));
      }
      break;
    }
    const OpponentScratch::Candidates& own = c.scratch.initiative[i];
    if (own.known[0] || own.known[1]) reads = reads.merged(own.region);
    return std::nullopt;
  };
  for (std::size_t i = 0; i < bf.units.size(); ++i) {
    const Unit& u = bf.units[i];
    const UnitStatus& st = c.s.units()[i];
    if (u.side != c.side || !on_table(c.s, i) || !st.near_enemy_at_start || st.used_initiative || u.engaged ||
        u.confused || st.frozen)
      continue;
    OpponentScratch::Idle& idle = c.scratch.idle[i];
    if (idle.known) continue;
    Aabb reads;
    if (auto a = act(i, reads)) return a;
    idle.known = true;
    idle.region = reads.inflated(0.01);
  }
  return std::nullopt;
}

}  // namespace referee::warmaster::opponent_detail
