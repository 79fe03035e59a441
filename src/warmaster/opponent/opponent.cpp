// The built-in Warmaster opponent (opponent.hpp): what it does next, chosen
// among its parts' proposals (opponent_parts.hpp) by the step of the turn:
// a pending move, shooting, initiative, orders, the characters' moves; and
// what it remembers between calls, forgotten where the state has changed.
#include "opponent/opponent_parts.hpp"

namespace referee::warmaster {

namespace opponent_detail {

namespace {

CombatOddsSide odds_side(const Unit& u, int dice, Position position) {
  CombatOddsSide o;
  o.dice = std::clamp(dice, 0, 40);
  o.position = position;
  o.armour = u.armour;
  return o;
}

}  // namespace

// charge_value with the target's position given, and the odds' difference
// looked up in `memo` (the opponent's scratch: a pure function of a few
// numbers, asked again and again as units are weighed action after action)
// when there is one.
double charge_value_at(const Unit& charger, const Unit& target, Position pos, int fighting_charger,
                       int fighting_target, int ally_dice, OpponentScratch::OddsMemo* memo) {
  if (charger.stands.empty() || target.stands.empty()) return -1;
  const int sa = fighting_charger > 0 ? fighting_charger : static_cast<int>(charger.stands.size());
  const int sb = fighting_target > 0 ? fighting_target : static_cast<int>(target.stands.size());
  int a = charger.attacks * sa;
  if (pos == Position::Open) {
    a += sa;
    if (charger.type == TroopType::Monster || charger.type == TroopType::Chariot) a += sa;
  }
  if (target.terrifying) a -= sa;
  a += std::max(0, ally_dice);
  int b = target.attacks * sb;
  if (charger.terrifying) b -= sb;
  CombatOddsRequest r;
  r.a = odds_side(charger, a, Position::Open);
  r.b = odds_side(target, b, pos);
  const OpponentScratch::OddsKey key{r.a.dice, static_cast<int>(r.a.position), r.a.armour, r.a.support,
                                     r.b.dice, static_cast<int>(r.b.position), r.b.armour, r.b.support};
  double wins;
  if (auto it = memo ? memo->find(key) : OpponentScratch::OddsMemo::iterator{}; memo && it != memo->end()) {
    wins = it->second;
  } else {
    const CombatOdds o = combat_odds(r);
    wins = o.a_wins - o.b_wins;
    if (memo) {
      if (memo->size() >= 4096) memo->clear();
      memo->emplace(key, wins);
    }
  }
  // Stands are lost per full Hits of damage: a tough unit loses fewer.
  double v = wins;
  v += 0.05 * (charger.hits - target.hits) / 3.0;
  return v;
}

}  // namespace opponent_detail

double charge_value(const Battlefield& bf, const Unit& charger, const Unit& target, const Settings& settings,
                    int fighting_charger, int fighting_target, int ally_dice) {
  if (charger.stands.empty() || target.stands.empty()) return -1;
  return opponent_detail::charge_value_at(charger, target, position_of(bf, target, settings).position,
                                          fighting_charger, fighting_target, ally_dice, nullptr);
}

namespace opponent_detail {

namespace {

// --- The pending move -------------------------------------------------------------

Candidate pending_move(const Ctx& c) {
  const PendingMove& p = *c.s.pending();
  Action hold;
  hold.type = ActionType::Move;
  if (!p.kind) return {hold, 0, "no move allowed"};
  if (p.source != "order") {
    // A home back: the first listed slide that validates, else hold.
    for (const Action& a : c.s.legal_actions(c.scratch.move))
      if (a.type == ActionType::Move && !a.moves.empty()) return {a, 0, "homes back"};
    return {hold, 0, "holds"};
  }
  if (p.units.size() == 1 && *p.kind == MoveKind::Ordered) {
    const Unit& u = c.bf.units[static_cast<std::size_t>(p.units.front())];
    Action shell;
    shell.type = ActionType::Move;
    if (auto ch = best_charge(c, u, shell, false)) return *ch;
  }
  std::string reason;
  Action a = plan_advance(c, p.units, *p.kind, reason);
  return {a, 0, reason};
}

// Where a shooter has enemies equally close, the shooting player chooses
// (docs/rulings.md#warmaster-shooting-ties). Ours: the one each die hurts
// most (hit and not saved), then the one with fewest stands left, then the
// closest (docs/warmaster-opponent.md, "Shooting").
Action shoot_action(const Ctx& c) {
  Action a;
  a.type = ActionType::Shoot;
  for (const ShootingTarget& t : shooting_targets(c.bf, c.side, c.settings)) {
    if (t.choices.size() < 2) continue;
    auto worth = [&](const std::string& id) {
      const Unit& e = *c.bf.find_unit(id);
      const double per_die = (7.0 - to_hit(c.position(e))) / 6.0 *
                             (e.armour > 0 ? (e.armour - 1) / 6.0 : 1.0);
      return std::pair<double, double>{per_die, -static_cast<double>(e.stands.size())};
    };
    std::string best = t.choices.front();
    for (const std::string& id : t.choices)
      if (worth(id) > worth(best)) best = id;
    if (best != t.choices.front()) a.targets.push_back({t.shooter, best});
  }
  return a;
}

Candidate choose(const Ctx& c) {
  const WarmasterState& s = c.s;
  Action end_phase;
  end_phase.type = ActionType::EndPhase;
  if (s.phase() == Phase::Shooting)
    return {shoot_action(c), 0, "shoots: every unit at the closest enemy in range that it sees and that is not engaged"};
  if (s.phase() == Phase::Combat) return {end_phase, 0, "fights the engagements"};

  // Units and characters off the table roll to return before anything else.
  for (std::size_t i = 0; i < s.units().size(); ++i)
    if (s.units()[i].returns_next_turn && c.bf.units[i].side == c.side) {
      Action a;
      a.type = ActionType::OffTableReturn;
      a.unit = c.bf.units[i].id;
      return {a, 0, "rolls for its return"};
    }
  for (std::size_t i = 0; i < s.characters().size(); ++i)
    if (s.characters()[i].returns_next_turn && c.bf.characters[i].side == c.side) {
      Action a;
      a.type = ActionType::OffTableReturn;
      a.character = c.bf.characters[i].id;
      return {a, 0, "rolls for its return"};
    }
  // A failed further order leaves nothing to move: the next order may follow.
  if (s.pending() && s.pending()->kind) return pending_move(c);
  if (s.step() == CommandStep::Initiative && !s.orders_begun())
    if (auto a = next_initiative(c)) return *a;
  if (s.step() != CommandStep::Characters) {
    if (auto a = next_order(c)) return *a;
    Action end;
    end.type = ActionType::EndOrders;
    return {end, 0, "ends its orders"};
  }
  if (auto a = next_character_move(c)) return *a;
  return {end_phase, 0, "ends the Command phase"};
}

// Brings scratch.seen up to `s`, and forgets the initiative candidates kept
// for units whose region a changed unit's stands meet, where they were or
// where they are now (a unit that did not change reads the same).
void note_changes(const WarmasterState& s, const OpponentOptions& options, OpponentScratch& scratch) {
  const Battlefield& bf = s.battlefield();
  OpponentScratch::Seen& seen = scratch.seen;
  std::vector<Pose> characters;
  for (const Character& ch : bf.characters) characters.push_back(ch.pose);
  if (seen.terrain != &bf.terrain.get() || seen.features != bf.terrain.size() || !(seen.settings == s.settings()) ||
      seen.units.size() != bf.units.size()) {
    seen.terrain = &bf.terrain.get();
    seen.features = bf.terrain.size();
    seen.settings = s.settings();
    seen.units = bf.units;
    seen.status = s.units();
    seen.on_table.resize(bf.units.size());
    for (std::size_t i = 0; i < bf.units.size(); ++i) seen.on_table[i] = on_table(s, i);
    seen.characters = characters;
    scratch.initiative.assign(bf.units.size(), {});
    scratch.in_range.assign(bf.units.size(), {});
    scratch.nearest.assign(bf.units.size(), {});
    scratch.positions.assign(bf.units.size(), -1);
    scratch.idle.assign(bf.units.size(), {});
    return;
  }
  // Where units changed (their stands, flags or being on the table), and
  // where units changed or only their status did.
  std::vector<Aabb> changed, touched;
  for (std::size_t i = 0; i < bf.units.size(); ++i) {
    const char on = on_table(s, i);
    const bool same = seen.units[i] == bf.units[i] && seen.on_table[i] == on;
    if (same && seen.status[i] == s.units()[i]) continue;
    for (const Unit* u : {static_cast<const Unit*>(&seen.units[i]), &bf.units[i]})
      if (!u->stands.empty()) {
        touched.push_back(stands_box(*u));
        if (!same) changed.push_back(stands_box(*u));
      }
    seen.units[i] = bf.units[i];
    seen.status[i] = s.units()[i];
    seen.on_table[i] = on;
    scratch.positions[i] = -1;
  }
  auto meets = [](const std::vector<Aabb>& boxes, const Aabb& region) {
    return std::any_of(boxes.begin(), boxes.end(), [&](const Aabb& b) { return b.overlaps(region); });
  };
  for (OpponentScratch::Candidates& k : scratch.initiative)
    if ((k.known[0] || k.known[1]) && meets(changed, k.region)) k.known[0] = k.known[1] = false;
  for (OpponentScratch::InRange& k : scratch.in_range)
    if (k.known >= 0 && meets(changed, k.region)) k.known = -1;
  for (OpponentScratch::Nearest& k : scratch.nearest)
    if (k.known && meets(changed, k.region)) k.known = false;
  const std::array<int, 7> key{s.turn(), s.side(), static_cast<int>(s.phase()), static_cast<int>(s.step()),
                               s.orders_begun() ? 1 : 0, s.units_lost(0), s.units_lost(1)};
  const bool same_key = key == scratch.idle_key && options == scratch.idle_options && characters == seen.characters;
  scratch.idle_key = key;
  scratch.idle_options = options;
  seen.characters = characters;
  for (OpponentScratch::Idle& k : scratch.idle)
    if (k.known && (!same_key || meets(touched, k.region))) k.known = false;
}


}  // namespace

}  // namespace opponent_detail

OpponentChoice choose_opponent_action(const WarmasterState& s, Rng& rng, const OpponentOptions& options,
                                      OpponentScratch& scratch) {
  using namespace opponent_detail;
  // Bounds that let questions read only what is near: the enemies' longest
  // charge, and how far a charge's value (charge_value) can lie from 0: the
  // chances' difference, and 0.05 per 3 Hits between the units.
  const Battlefield& bf = s.battlefield();
  double reach = 0;
  int most_hits = bf.units.empty() ? 0 : bf.units.front().hits, least_hits = most_hits;
  for (std::size_t i = 0; i < bf.units.size(); ++i) {
    const Unit& u = bf.units[i];
    most_hits = std::max(most_hits, u.hits);
    least_hits = std::min(least_hits, u.hits);
    if (u.side != s.side() && on_table(s, i)) reach = std::max(reach, full_pace(u));
  }
  const double value_bound = 1.0 + 0.05 * (most_hits - least_hits) / 3.0;
  note_changes(s, options, scratch);
  const Ctx c{s, bf, s.settings(), rng, options, scratch, s.side(), s.move_index(), reach, value_bound};
  Candidate pick = choose(c);
  if (c.legal(pick.action)) return {pick.action, pick.reason};
  // Never an illegal action: the best of the listed ones (holding a move,
  // ending the step or phase, else the first listed).
  const std::vector<Action> legal = s.legal_actions(scratch.move);
  for (ActionType t : {ActionType::Shoot, ActionType::OffTableReturn, ActionType::Move, ActionType::EndOrders,
                       ActionType::EndPhase})
    for (const Action& a : legal)
      if (a.type == t) return {a, "falls back to a listed action (" + pick.reason + " was refused)"};
  if (!legal.empty()) return {legal.front(), "falls back to the first listed action"};
  return {pick.action, pick.reason};
}

}  // namespace referee::warmaster
