// The sequence of one combat (combat.hpp), following the published close
// combat procedure: announce, evade (the defender's choice), roll, apply
// hits, retreat (the owner's choice of path), leader casualty check,
// momentum advance and bonus close combat, battle back. Each step fills its
// report (report.hpp); describe.cpp words it.
#include "combat.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "referee/ancients/battle.hpp"
#include "referee/ancients/rule_ids.hpp"

namespace referee::ancients {

namespace {

UnitState& unit_state(AncientsState& s, int u) { return s.position.units[static_cast<std::size_t>(u)]; }
int side_of(const Battle& b, int u) { return b.units[static_cast<std::size_t>(u)].side; }
const std::string& uid(const Battle& b, int u) { return b.units[static_cast<std::size_t>(u)].id; }

BannerReport banner(const Battle& b, AncientsState& s, int side, bool leader, int piece) {
  ++s.banners[static_cast<std::size_t>(side)];
  return {side, leader, piece, s.banners[static_cast<std::size_t>(side)], b.victory_banners[static_cast<std::size_t>(side)]};
}

// A leader left alone by his unit's elimination evades toward his own edge
// (docs/rulings.md#ancients-leader-casualty): to the nearest friendly unit
// without a leader within 3 hexes, else as far back as he can go, else off
// his own edge (no banner).
LeaderEvadeReport leader_evade(const Battle& b, AncientsState& s, int l) {
  Position& p = s.position;
  const int side = b.leaders[static_cast<std::size_t>(l)].side;
  const int start = p.leaders[static_cast<std::size_t>(l)].hex;
  const int dirs[2] = {side == 0 ? 4 : 1, side == 0 ? 5 : 2};
  std::vector<int> layer{start};
  int best = -1, join = -1;
  for (int k = 1; k <= kLeaderAllowance && join < 0; ++k) {
    std::vector<int> next;
    for (int h : layer)
      for (int d : dirs) {
        const int n = b.board.neighbour(h, d);
        if (n < 0 || std::find(next.begin(), next.end(), n) != next.end()) continue;
        const int u = p.unit_on(n), ol = p.leader_on(n);
        if ((u >= 0 && side_of(b, u) != side) || (ol >= 0 && b.leaders[static_cast<std::size_t>(ol)].side != side)) continue;
        if (const TerrainType* t = b.terrain_at(n); t && t->blocks_leaders) continue;
        next.push_back(n);
        if (u >= 0 && ol < 0 && join < 0) join = n;
        if (u < 0 && ol < 0) best = n;
      }
    if (next.empty()) break;
    layer = std::move(next);
  }
  LeaderEvadeReport r;
  r.leader = l;
  r.to = join >= 0 ? join : best;
  if (r.to < 0) {
    p.remove_leader(l);
    return r;
  }
  p.place_leader(l, r.to);
  const int u = p.unit_on(r.to);
  if (u >= 0) {
    p.leaders[static_cast<std::size_t>(l)].attached = u;
    r.attached_to = u;
  }
  return r;
}

// One leader casualty check per combat: 2 dice, both helmets, when his unit
// lost blocks and survives; 1 die, a helmet, when it was eliminated.
LeaderCheckReport leader_check(const Battle& b, AncientsState& s, int l, bool unit_eliminated, Dice& dice) {
  LeaderCheckReport r;
  r.leader = l;
  r.unit_eliminated = unit_eliminated;
  const int n = unit_eliminated ? 1 : 2;
  int helmets = 0;
  for (int i = 0; i < n; ++i) {
    r.dice.push_back(face_of(dice.d6("leader casualty")));
    helmets += r.dice.back() == Face::leader ? 1 : 0;
  }
  r.killed = helmets == n;
  const int side = b.leaders[static_cast<std::size_t>(l)].side;
  if (r.killed) {
    s.position.remove_leader(l);
    r.banner = banner(b, s, 1 - side, true, l);
  } else if (unit_eliminated) {
    r.evade = leader_evade(b, s, l);
  }
  return r;
}

// Blocks off; at 0 the unit leaves the board and the other side gains a banner.
BlocksLostReport lose_blocks(const Battle& b, AncientsState& s, int u, int n) {
  UnitState& st = unit_state(s, u);
  BlocksLostReport r;
  r.lost = std::min(n, st.blocks);
  st.blocks -= r.lost;
  r.left = st.blocks;
  r.eliminated = st.blocks == 0;
  if (r.eliminated) {
    const int l = s.position.leader_of(u);
    if (l >= 0) s.position.leaders[static_cast<std::size_t>(l)].attached = -1;
    s.position.remove_unit(u);
    r.banner = banner(b, s, 1 - side_of(b, u), false, u);
  }
  return r;
}

// Moves a unit (and its attached leader) to the end of a retreat or evasion.
PathReport move_back(AncientsState& s, int u, const RetreatOption& o) {
  Position& p = s.position;
  const int l = p.leader_of(u);
  if (o.end != p.units[static_cast<std::size_t>(u)].hex) {
    p.place_unit(u, o.end);
    if (l >= 0) p.place_leader(l, o.end);
  }
  if (o.attaches_leader >= 0) p.leaders[static_cast<std::size_t>(o.attaches_leader)].attached = u;
  return {o.path, o.hexes, o.attaches_leader};
}

// The retreat itself, then the leader check if the combat has not had one.
RetreatReport do_retreat(const Battle& b, AncientsState& s, int u, const RetreatOption& o, int hexes, int hit_losses,
                         Dice& dice) {
  const int l = s.position.leader_of(u);
  RetreatReport r;
  r.unit = u;
  r.demanded = hexes;
  r.moved = move_back(s, u, o);
  r.unretreated = o.lost;
  bool eliminated = false;
  if (o.lost > 0) {
    r.loss = lose_blocks(b, s, u, o.lost);
    eliminated = r.loss->eliminated;
  }
  // One leader check a combat: made already when hits took blocks; a leader
  // left alone then only evades.
  if (l >= 0 && o.lost > 0 && hit_losses == 0) r.leader_check = leader_check(b, s, l, eliminated, dice);
  else if (l >= 0 && eliminated) r.leader_evade = leader_evade(b, s, l);
  return r;
}

RollReport roll(const AttackPlan& plan, Dice& dice) {
  RollReport r;
  r.plan = plan;
  for (int i = 0; i < plan.dice; ++i) {
    const Face f = face_of(dice.d6("battle"));
    r.faces.push_back(f);
    if (plan.hits[static_cast<std::size_t>(f)]) ++r.hits;
    else if (f == Face::flag && !plan.evading) ++r.flags;
  }
  return r;
}

// The flags answered as the owner chose (or as the only choice has it): the
// ignored ones, support first, then the attached leader
// (ancients.flag.support, ancients.flag.leader); those it might have
// ignored and did not; and the retreat the rest demand.
FlagsAnswerReport answer_flags(const Battle& b, AncientsState& s, int u, const FlagChoice& c, int flags, int may_ignore,
                               int hit_losses, Dice& dice) {
  FlagsAnswerReport r;
  ignorable_flags(b, s.position, u, &r.supported);
  r.leader = s.position.leader_of(u);
  r.ignored = c.ignored;
  r.declined = std::max(0, std::min(flags, may_ignore) - c.ignored);
  if (c.hexes > 0) r.retreat = do_retreat(b, s, u, c.option, c.hexes, hit_losses, dice);
  return r;
}

AfterDefenderReport after_defender(const Battle& b, AncientsState& s, const Pending& ctx, int old_hex, Dice& dice);

// An evading target's move, or a war machine's removal, after the hits.
EvadeMoveReport evade_move(const Battle& b, AncientsState& s, int struck, int leader, int evade_to) {
  Position& p = s.position;
  EvadeMoveReport e;
  e.unit = struck;
  if (b.unit_class(struck).war_machine) {
    // An attached leader is left alone, as when his unit is eliminated
    // (docs/rulings.md#ancients-evade).
    if (leader >= 0) p.leaders[static_cast<std::size_t>(leader)].attached = -1;
    p.remove_unit(struck);
    e.removed = true;
    return e;
  }
  const std::vector<RetreatOption> opts = evade_options(b, p, struck);
  for (const RetreatOption& o : opts)
    if (o.end == evade_to) e.moved = move_back(s, struck, o);
  return e;
}

// One side's dice at the other: hits, then flags (a retreat the owner may
// have to choose), then the leader check; then what follows in the combat.
StrikeReport strike(const Battle& b, AncientsState& s, Pending ctx, int striker, int struck, int evade_to, Dice& dice) {
  Position& p = s.position;
  const bool evading = evade_to >= 0;
  StrikeReport r;
  r.roll = roll(plan_attack(b, p, striker, struck, ctx.close, ctx.battle_back, evading), dice);
  const int old_hex = p.units[static_cast<std::size_t>(struck)].hex;
  const int leader = p.leader_of(struck);
  bool eliminated = false;
  int lost = 0;
  if (r.roll.hits > 0) {
    r.result = lose_blocks(b, s, struck, r.roll.hits);
    eliminated = r.result->eliminated;
    lost = r.result->lost;
  }
  if (evading) {
    bool removed = false;
    if (!eliminated) {
      r.evade = evade_move(b, s, struck, leader, evade_to);
      removed = r.evade->removed;
    }
    if (leader >= 0 && lost > 0) r.leader_check = leader_check(b, s, leader, eliminated || removed, dice);
    else if (leader >= 0 && removed) r.leader_evade = leader_evade(b, s, leader);
    return r;  // no momentum advance and no battle back after an evasion
  }
  if (eliminated) {
    if (leader >= 0) r.leader_check = leader_check(b, s, leader, true, dice);
    r.after = after_defender(b, s, ctx, old_hex, dice);
    return r;
  }
  // The leader check comes once the hits are off, before the flags: a leader
  // killed there no longer lets the unit ignore a flag (docs/rulings.md#ancients-leader-casualty).
  int ignorable = r.roll.plan.ignorable_flags;
  if (leader >= 0 && lost > 0) {
    r.leader_check = leader_check(b, s, leader, false, dice);
    if (r.leader_check->killed) --ignorable;
  }
  if (r.roll.flags > 0) {
    std::vector<FlagChoice> choices = flag_choices(b, p, struck, r.roll.flags, ignorable);
    if (choices.size() > 1) {
      ctx.kind = Pending::Kind::retreat;
      ctx.unit = struck;
      ctx.flags = r.roll.flags;
      ctx.may_ignore = ignorable;
      ctx.lost = lost;
      s.pending = ctx;
      AwaitingReport& w = r.awaiting.emplace();
      w.decision = Decision::retreat;
      w.side = side_of(b, struck);
      w.unit = struck;
      w.flags = r.roll.flags;
      w.may_ignore = ignorable;
      w.retreat_options = std::move(choices);
      return r;
    }
    r.flags = answer_flags(b, s, struck, choices.front(), r.roll.flags, ignorable, lost, dice);
  }
  r.after = after_defender(b, s, ctx, old_hex, dice);
  return r;
}

// After the defender's (or, in a battle back, the attacker's) losses and
// retreat: momentum advance if its hex was vacated, battle back if it held.
AfterDefenderReport after_defender(const Battle& b, AncientsState& s, const Pending& ctx, int old_hex, Dice& dice) {
  AfterDefenderReport r;
  if (ctx.battle_back || !ctx.close) return r;
  Position& p = s.position;
  const int u = ctx.attacker, t = ctx.defender;
  if (p.units[static_cast<std::size_t>(u)].hex < 0) return r;
  if (p.unit_on(old_hex) < 0) {
    if (combat_profile(b.units[static_cast<std::size_t>(u)].cls).momentum == Momentum::none) return r;
    Pending m = ctx;
    m.flags = m.may_ignore = 0;  // the retreat's flags are answered
    m.kind = Pending::Kind::momentum;
    m.unit = u;
    m.vacated = old_hex;
    s.pending = m;
    AwaitingReport& w = r.awaiting.emplace();
    w.decision = Decision::momentum;
    w.side = side_of(b, u);
    w.unit = u;
    w.to = old_hex;
    return r;
  }
  if (p.unit_on(old_hex) != t) return r;
  // Battle back (docs/rulings.md#ancients-battle-back).
  BattleBackReport& back = r.battle_back.emplace();
  back.unit = t;
  if (plan_attack(b, p, t, u, true, true, false).dice == 0) return r;
  Pending bb = ctx;
  bb.flags = bb.may_ignore = 0;
  bb.battle_back = true;
  back.strike.push_back(strike(b, s, bb, t, u, -1, dice));
  return r;
}

const FlagChoice* find_choice(const std::vector<FlagChoice>& choices, int to) {
  for (const FlagChoice& c : choices)
    if (c.option.end == to) return &c;
  return nullptr;
}

}  // namespace

bool unit_may_battle(const Battle& b, const AncientsState& s, int u) {
  const UnitState& st = s.position.units[static_cast<std::size_t>(u)];
  return side_of(b, u) == s.side && st.hex >= 0 && st.ordered && (!st.battled || st.bonus) && st.may_battle;
}

std::string why_unit_cannot_battle(const Battle& b, const AncientsState& s, int u, const char** rule) {
  const UnitState& st = s.position.units[static_cast<std::size_t>(u)];
  *rule = ancients::rule_id::battle_eligible;
  if (unit_may_battle(b, s, u)) return {};
  if (side_of(b, u) != s.side) {
    *rule = ancients::rule_id::order_side;
    return fmt::format("unit {} belongs to {}; it is {}'s turn", uid(b, u), b.army(side_of(b, u)), b.army(s.side));
  }
  if (st.hex < 0) return fmt::format("unit {} has been eliminated", uid(b, u));
  if (!st.ordered) return fmt::format("unit {} was not ordered this turn; only ordered units battle", uid(b, u));
  if (st.battled && !st.bonus) {
    *rule = ancients::rule_id::battle_once;
    return fmt::format("unit {} has already battled this turn", uid(b, u));
  }
  return fmt::format("unit {} may not battle after its move this turn", uid(b, u));
}

int compulsory_unbattled(const Battle& b, const AncientsState& s) {
  for (std::size_t u = 0; u < b.units.size(); ++u) {
    const UnitState& st = s.position.units[u];
    if (st.hex < 0 || !st.close_combat_compulsory || st.battled || b.units[u].side != s.side) continue;
    for (const Target& t : battle_targets(b, s.position, static_cast<int>(u)))
      if (t.close) return static_cast<int>(u);
  }
  return -1;
}

DeclareReport declare_battle(const Battle& b, AncientsState& s, int unit, int target, Dice& dice) {
  Position& p = s.position;
  UnitState& a = unit_state(s, unit);
  DeclareReport r;
  r.unit = unit;
  r.target = target;
  r.bonus = a.battled && a.bonus;
  for (UnitState& st : p.units) st.bonus = false;  // a bonus close combat is taken at once or lost
  a.battled = true;
  r.close = b.board.adjacent(a.hex, p.units[static_cast<std::size_t>(target)].hex);
  Pending ctx;
  ctx.attacker = unit;
  ctx.defender = target;
  ctx.bonus = r.bonus;
  ctx.close = r.close;
  // why_not_evade's conditions, without wording a refusal: close combat, a
  // class that may evade this attacker, and a path to evade along.
  std::vector<RetreatOption> opts;
  if (r.close && may_evade(b, target, unit)) opts = evade_options(b, p, target);
  if (!opts.empty()) {
    ctx.kind = Pending::Kind::evade;
    ctx.unit = target;
    s.pending = ctx;
    AwaitingReport& w = r.awaiting.emplace();
    w.decision = Decision::evade;
    w.side = side_of(b, target);
    w.unit = target;
    w.evade_options = std::move(opts);
    return r;
  }
  r.attack = strike(b, s, ctx, unit, target, -1, dice);
  return r;
}

LeaderAttackReport attack_leader(const Battle& b, AncientsState& s, int unit, int leader, Dice& dice) {
  Position& p = s.position;
  UnitState& a = unit_state(s, unit);
  for (UnitState& st : p.units) st.bonus = false;
  a.battled = true;
  LeaderAttackReport r;
  r.unit = unit;
  r.leader = leader;
  const int n = dice_against_leader(b, p, unit, leader);
  r.close = b.board.adjacent(a.hex, p.leaders[static_cast<std::size_t>(leader)].hex);
  for (int i = 0; i < n; ++i) {
    r.faces.push_back(face_of(dice.d6("battle")));
    r.helmets += r.faces.back() == Face::leader ? 1 : 0;
  }
  if (r.helmets > 0) {
    p.remove_leader(leader);
    r.banner = banner(b, s, side_of(b, unit), true, leader);
  } else {
    r.evade = leader_evade(b, s, leader);
  }
  return r;
}

EvadeAnswerReport resolve_evade(const Battle& b, AncientsState& s, int to, Dice& dice) {
  const Pending ctx = s.pending;
  s.pending = Pending{};
  return {ctx.defender, to >= 0, strike(b, s, ctx, ctx.attacker, ctx.defender, to, dice)};
}

RetreatAnswerReport resolve_retreat(const Battle& b, AncientsState& s, int to, Dice& dice) {
  const Pending ctx = s.pending;
  s.pending = Pending{};
  const int old_hex = s.position.units[static_cast<std::size_t>(ctx.unit)].hex;
  const std::vector<FlagChoice> choices = flag_choices(b, s.position, ctx.unit, ctx.flags, ctx.may_ignore);
  RetreatAnswerReport r;
  r.unit = ctx.unit;
  r.flags = ctx.flags;
  r.answer = answer_flags(b, s, ctx.unit, *find_choice(choices, to), ctx.flags, ctx.may_ignore, ctx.lost, dice);
  r.after = after_defender(b, s, ctx, old_hex, dice);
  return r;
}

MomentumReport resolve_momentum(const Battle& b, AncientsState& s, bool advance, Dice& dice) {
  (void)dice;
  const Pending ctx = s.pending;
  s.pending = Pending{};
  MomentumReport r;
  r.unit = ctx.attacker;
  r.advance = advance;
  if (!advance) return r;
  const int u = ctx.attacker;
  Position& p = s.position;
  const int l = p.leader_of(u);
  r.from = p.units[static_cast<std::size_t>(u)].hex;
  r.to = ctx.vacated;
  p.place_unit(u, ctx.vacated);
  if (l >= 0) p.place_leader(l, ctx.vacated);
  const UnitClass& c = b.unit_class(u);
  const Momentum m = combat_profile(b.units[static_cast<std::size_t>(u)].cls).momentum;
  const TerrainType* t = b.terrain_at(ctx.vacated);
  if (ctx.bonus) r.no_bonus = NoBonus::made_already;
  else if (m != Momentum::advance_and_battle && !(c.category == Category::foot && l >= 0)) r.no_bonus = NoBonus::needs_leader;
  else if (t && in_mask(t->no_battle_on_entering, b.units[static_cast<std::size_t>(u)].cls)) r.no_bonus = NoBonus::terrain;
  unit_state(s, u).bonus = r.no_bonus == NoBonus::none;
  return r;
}

}  // namespace referee::ancients
