// The sequence of one combat (combat.hpp), following the published close
// combat procedure: announce, evade (the defender's choice), roll, apply
// hits, retreat (the owner's choice of path), leader casualty check,
// momentum advance and bonus close combat, battle back.
#include "combat.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "referee/ancients/battle.hpp"
#include "referee/ancients/rule_ids.hpp"

namespace referee::ancients {

namespace {

UnitState& unit_state(BattleState& s, int u) { return s.position.units[static_cast<std::size_t>(u)]; }
int side_of(const Battle& b, int u) { return b.units[static_cast<std::size_t>(u)].side; }
const std::string& uid(const Battle& b, int u) { return b.units[static_cast<std::size_t>(u)].id; }
const std::string& lid(const Battle& b, int l) { return b.leaders[static_cast<std::size_t>(l)].id; }

nlohmann::json faces_json(const std::vector<Face>& faces) {
  nlohmann::json j = nlohmann::json::array();
  for (Face f : faces) j.push_back(face_name(f));
  return j;
}

nlohmann::json banner(const Battle& b, BattleState& s, int side, const std::string& what) {
  ++s.banners[static_cast<std::size_t>(side)];
  return {{"side", side}, {"for", what}, {"banners", s.banners[static_cast<std::size_t>(side)]},
          {"needed", b.victory_banners[static_cast<std::size_t>(side)]}, {"rule", ancients::rule_id::victory_banners}};
}

// A leader left alone by his unit's elimination evades toward his own edge
// (docs/rulings.md#ancients-leader-casualty): to the nearest friendly unit
// without a leader within 3 hexes, else as far back as he can go, else off
// his own edge (no banner).
nlohmann::json leader_evade(const Battle& b, BattleState& s, int l) {
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
  const int to = join >= 0 ? join : best;
  nlohmann::json j{{"leader", lid(b, l)}, {"rule", ancients::rule_id::leader_evade}};
  if (to < 0) {
    p.remove_leader(l);
    j["escaped_off_the_board"] = true;
    j["reason"] = "no hex toward his own edge is open: he leaves the battle by his own edge, giving no banner";
    return j;
  }
  p.place_leader(l, to);
  j["to"] = hex_json(b.board, to);
  const int u = p.unit_on(to);
  if (u >= 0) {
    p.leaders[static_cast<std::size_t>(l)].attached = u;
    j["attached_to"] = uid(b, u);
  }
  return j;
}

// One leader casualty check per combat: 2 dice, both helmets, when his unit
// lost blocks and survives; 1 die, a helmet, when it was eliminated.
nlohmann::json leader_check(const Battle& b, BattleState& s, int l, bool unit_eliminated, Dice& dice) {
  const int n = unit_eliminated ? 1 : 2;
  std::vector<Face> faces;
  int helmets = 0;
  for (int i = 0; i < n; ++i) {
    faces.push_back(face_of(dice.d6("leader casualty")));
    helmets += faces.back() == Face::leader ? 1 : 0;
  }
  const bool killed = helmets == n;
  nlohmann::json j{{"leader", lid(b, l)}, {"dice", faces_json(faces)}, {"killed", killed},
                   {"rule", ancients::rule_id::leader_casualty},
                   {"reason", unit_eliminated ? "his unit was eliminated: 1 die, killed on a leader helmet"
                                              : "his unit lost blocks: 2 dice, killed on two leader helmets"}};
  const int side = b.leaders[static_cast<std::size_t>(l)].side;
  if (killed) {
    s.position.remove_leader(l);
    j["banner"] = banner(b, s, 1 - side, "leader " + lid(b, l));
  } else if (unit_eliminated) {
    j["evade"] = leader_evade(b, s, l);
  }
  return j;
}

// Blocks off; at 0 the unit leaves the board and the other side gains a banner.
nlohmann::json lose_blocks(const Battle& b, BattleState& s, int u, int n, bool* eliminated) {
  UnitState& st = unit_state(s, u);
  const int lost = std::min(n, st.blocks);
  st.blocks -= lost;
  nlohmann::json j{{"blocks_lost", lost}, {"blocks_left", st.blocks}};
  *eliminated = st.blocks == 0;
  if (*eliminated) {
    const int l = s.position.leader_of(u);
    if (l >= 0) s.position.leaders[static_cast<std::size_t>(l)].attached = -1;
    s.position.remove_unit(u);
    j["eliminated"] = true;
    j["banner"] = banner(b, s, 1 - side_of(b, u), "unit " + uid(b, u));
  }
  return j;
}

// Moves a unit (and its attached leader) to the end of a retreat or evasion.
void move_back(const Battle& b, BattleState& s, int u, const RetreatOption& o, nlohmann::json& j) {
  Position& p = s.position;
  const int l = p.leader_of(u);
  if (o.end != p.units[static_cast<std::size_t>(u)].hex) {
    p.place_unit(u, o.end);
    if (l >= 0) p.place_leader(l, o.end);
  }
  nlohmann::json path = nlohmann::json::array();
  for (int h : o.path) path.push_back(hex_json(b.board, h));
  j["path"] = path;
  j["hexes"] = o.hexes;
  if (o.attaches_leader >= 0) {
    p.leaders[static_cast<std::size_t>(o.attaches_leader)].attached = u;
    j["leader_attached"] = lid(b, o.attaches_leader);
  }
}

// The retreat itself, then the leader check if the combat has not had one.
nlohmann::json do_retreat(const Battle& b, BattleState& s, int u, const RetreatOption& o, int hexes, int hit_losses,
                          Dice& dice) {
  const int l = s.position.leader_of(u);
  nlohmann::json j{{"unit", uid(b, u)}, {"demanded", hexes}, {"rule", ancients::rule_id::flag_retreat}};
  move_back(b, s, u, o, j);
  bool eliminated = false;
  if (o.lost > 0) {
    nlohmann::json loss = lose_blocks(b, s, u, o.lost, &eliminated);
    loss["rule"] = ancients::rule_id::flag_blocked;
    loss["reason"] = fmt::format("{} of {} could not be retreated: a block lost for each", count_of(o.lost, "hex", "hexes"),
                                 count_of(hexes, "hex", "hexes"));
    j["loss"] = loss;
  }
  // One leader check a combat: made already when hits took blocks; a leader
  // left alone then only evades.
  if (l >= 0 && o.lost > 0 && hit_losses == 0) j["leader_check"] = leader_check(b, s, l, eliminated, dice);
  else if (l >= 0 && eliminated) j["leader_evade"] = leader_evade(b, s, l);
  return j;
}

struct Rolled {
  std::vector<Face> faces;
  int hits = 0;
  int flags = 0;
};

Rolled roll(const AttackPlan& plan, Dice& dice) {
  Rolled r;
  for (int i = 0; i < plan.dice; ++i) {
    const Face f = face_of(dice.d6("battle"));
    r.faces.push_back(f);
    if (plan.hits[static_cast<std::size_t>(f)]) ++r.hits;
    else if (f == Face::flag && !plan.evading) ++r.flags;
  }
  return r;
}

nlohmann::json roll_json(const Battle& b, const AttackPlan& plan, const Rolled& r) {
  nlohmann::json j{{"attacker", uid(b, plan.attacker)}, {"target", uid(b, plan.target)}, {"dice", plan.dice},
                   {"rolled", faces_json(r.faces)}, {"dice_rule", ancients::rule_id::battle_dice}, {"hits", r.hits},
                   {"hits_reason", plan.hits_reason},
                   {"rule", plan.battle_back ? ancients::rule_id::battle_back
                            : plan.evading ? ancients::rule_id::evade_hits
                            : plan.close   ? ancients::rule_id::battle_hits
                                           : ancients::rule_id::battle_ranged}};
  if (!plan.evading) j["flags"] = r.flags;
  if (plan.limited_by >= 0)
    j["terrain_dice"] = {{"terrain", b.terrain_types[static_cast<std::size_t>(plan.limited_by)].id},
                         {"dice_before", plan.dice_before_terrain}, {"rule", ancients::rule_id::battle_terrain_dice}};
  if (plan.hits[static_cast<std::size_t>(Face::leader)]) j["leader_hits_rule"] = ancients::rule_id::battle_leader_hits;
  return j;
}

nlohmann::json options_json(const Battle& b, const std::vector<RetreatOption>& opts) {
  nlohmann::json j = nlohmann::json::array();
  for (const RetreatOption& o : opts) {
    nlohmann::json e{{"to", hex_json(b.board, o.end)}, {"hexes", o.hexes}, {"blocks_lost", o.lost}};
    if (o.attaches_leader >= 0) e["leader_attaches"] = lid(b, o.attaches_leader);
    j.push_back(e);
  }
  return j;
}

// The owner's choices for a unit's flags: each end hex, the hexes it
// retreats and the flags it ignores to get there (its own hex: it holds).
nlohmann::json choices_json(const Battle& b, const std::vector<FlagChoice>& choices) {
  nlohmann::json j = nlohmann::json::array();
  for (const FlagChoice& c : choices) {
    const RetreatOption& o = c.option;
    nlohmann::json e{{"to", hex_json(b.board, o.end)}, {"hexes", o.hexes}, {"blocks_lost", o.lost}, {"flags_ignored", c.ignored}};
    if (c.hexes == 0) e["holds"] = true;
    if (o.attaches_leader >= 0) e["leader_attaches"] = lid(b, o.attaches_leader);
    j.push_back(e);
  }
  return j;
}

// The flags answered as the owner chose (or as the only choice has it): the
// ignored ones with their reasons, support first, then the attached leader
// (ancients.flag.support, ancients.flag.leader); those it might have
// ignored and did not; and the retreat the rest demand.
nlohmann::json answer_flags(const Battle& b, BattleState& s, int u, const FlagChoice& c, int flags, int may_ignore,
                            int hit_losses, Dice& dice) {
  nlohmann::json j = nlohmann::json::object();
  bool supported = false;
  ignorable_flags(b, s.position, u, &supported);
  const int leader = s.position.leader_of(u);
  if (c.ignored > 0) {
    nlohmann::json ig = nlohmann::json::array();
    int left = c.ignored;
    if (supported) {
      ig.push_back({{"why", "supported by two adjacent friendly units"}, {"rule", ancients::rule_id::flag_support}});
      --left;
    }
    if (left > 0 && leader >= 0)
      ig.push_back({{"why", "leader " + lid(b, leader) + " is attached"}, {"rule", ancients::rule_id::flag_leader}});
    j["flags_ignored"] = ig;
  }
  if (const int declined = std::min(flags, may_ignore) - c.ignored; declined > 0)
    j["flags_not_ignored"] = {{"flags", declined},
                              {"why", fmt::format("its owner chose to retreat rather than ignore {}",
                                                  count_of(declined, "flag", "flags"))},
                              {"rule", supported ? ancients::rule_id::flag_support : ancients::rule_id::flag_leader}};
  if (c.hexes > 0) j["retreat"] = do_retreat(b, s, u, c.option, c.hexes, hit_losses, dice);
  return j;
}

nlohmann::json after_defender(const Battle& b, BattleState& s, const Pending& ctx, int old_hex, Dice& dice);

// One side's dice at the other: hits, then flags (a retreat the owner may
// have to choose), then the leader check; then what follows in the combat.
nlohmann::json strike(const Battle& b, BattleState& s, Pending ctx, int striker, int struck, int evade_to, Dice& dice) {
  Position& p = s.position;
  const bool evading = evade_to >= 0;
  const AttackPlan plan = plan_attack(b, p, striker, struck, ctx.close, ctx.battle_back, evading);
  const Rolled r = roll(plan, dice);
  nlohmann::json j = roll_json(b, plan, r);
  const int old_hex = p.units[static_cast<std::size_t>(struck)].hex;
  const int leader = p.leader_of(struck);
  bool eliminated = false;
  int lost = 0;
  if (r.hits > 0) {
    j["result"] = lose_blocks(b, s, struck, r.hits, &eliminated);
    lost = j["result"]["blocks_lost"].get<int>();
  }
  if (evading) {
    bool removed = false;
    if (!eliminated) {
      nlohmann::json e{{"unit", uid(b, struck)}, {"rule", ancients::rule_id::evade_move}};
      if (b.unit_class(struck).war_machine) {
        // An attached leader is left alone, as when his unit is eliminated
        // (docs/rulings.md#ancients-evade).
        if (leader >= 0) p.leaders[static_cast<std::size_t>(leader)].attached = -1;
        p.remove_unit(struck);
        removed = true;
        e["removed"] = true;
        e["reason"] = "an evading war machine is removed from the battlefield; its crew escapes, giving no banner";
      } else {
        const std::vector<RetreatOption> opts = evade_options(b, p, struck);
        for (const RetreatOption& o : opts)
          if (o.end == evade_to) move_back(b, s, struck, o, e);
      }
      j["evade"] = e;
    }
    if (leader >= 0 && lost > 0) j["leader_check"] = leader_check(b, s, leader, eliminated || removed, dice);
    else if (leader >= 0 && removed) j["leader_evade"] = leader_evade(b, s, leader);
    return j;  // no momentum advance and no battle back after an evasion
  }
  if (eliminated) {
    if (leader >= 0) j["leader_check"] = leader_check(b, s, leader, true, dice);
    j.update(after_defender(b, s, ctx, old_hex, dice));
    return j;
  }
  // The leader check comes once the hits are off, before the flags: a leader
  // killed there no longer lets the unit ignore a flag (docs/rulings.md#ancients-leader-casualty).
  int ignorable = plan.ignorable_flags;
  if (leader >= 0 && lost > 0) {
    j["leader_check"] = leader_check(b, s, leader, false, dice);
    if (j["leader_check"]["killed"].get<bool>()) --ignorable;
  }
  if (r.flags > 0) {
    const std::vector<FlagChoice> choices = flag_choices(b, p, struck, r.flags, ignorable);
    if (choices.size() > 1) {
      ctx.kind = Pending::Kind::retreat;
      ctx.unit = struck;
      ctx.flags = r.flags;
      ctx.may_ignore = ignorable;
      ctx.lost = lost;
      s.pending = ctx;
      j["awaiting"] = {{"decision", "retreat"}, {"side", side_of(b, struck)}, {"unit", uid(b, struck)},
                       {"flags", r.flags}, {"may_ignore", ignorable}, {"options", choices_json(b, choices)},
                       {"rule", ancients::rule_id::flag_path}};
      return j;
    }
    j.update(answer_flags(b, s, struck, choices.front(), r.flags, ignorable, lost, dice));
  }
  j.update(after_defender(b, s, ctx, old_hex, dice));
  return j;
}

// After the defender's (or, in a battle back, the attacker's) losses and
// retreat: momentum advance if its hex was vacated, battle back if it held.
nlohmann::json after_defender(const Battle& b, BattleState& s, const Pending& ctx, int old_hex, Dice& dice) {
  nlohmann::json j = nlohmann::json::object();
  if (ctx.battle_back || !ctx.close) return j;
  Position& p = s.position;
  const int u = ctx.attacker, t = ctx.defender;
  if (p.units[static_cast<std::size_t>(u)].hex < 0) return j;
  if (p.unit_on(old_hex) < 0) {
    if (combat_profile(b.units[static_cast<std::size_t>(u)].cls).momentum == Momentum::none) return j;
    Pending m = ctx;
    m.flags = m.may_ignore = 0;  // the retreat's flags are answered
    m.kind = Pending::Kind::momentum;
    m.unit = u;
    m.vacated = old_hex;
    s.pending = m;
    j["awaiting"] = {{"decision", "momentum"}, {"side", side_of(b, u)}, {"unit", uid(b, u)}, {"to", hex_json(b.board, old_hex)},
                     {"rule", ancients::rule_id::momentum_advance}};
    return j;
  }
  if (p.unit_on(old_hex) != t) return j;
  // Battle back (docs/rulings.md#ancients-battle-back).
  const AttackPlan back = plan_attack(b, p, t, u, true, true, false);
  if (back.dice == 0) {
    j["battle_back"] = {{"unit", uid(b, t)}, {"dice", 0}, {"reason", fmt::format("a {} cannot battle back", b.unit_class(t).name)},
                        {"rule", ancients::rule_id::battle_back}};
    return j;
  }
  Pending bb = ctx;
  bb.flags = bb.may_ignore = 0;
  bb.battle_back = true;
  j["battle_back"] = strike(b, s, bb, t, u, -1, dice);
  return j;
}

const FlagChoice* find_choice(const std::vector<FlagChoice>& choices, int to) {
  for (const FlagChoice& c : choices)
    if (c.option.end == to) return &c;
  return nullptr;
}

}  // namespace

std::string why_unit_cannot_battle(const Battle& b, const BattleState& s, int u, const char** rule) {
  const UnitState& st = s.position.units[static_cast<std::size_t>(u)];
  *rule = ancients::rule_id::battle_eligible;
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
  if (!st.may_battle) return fmt::format("unit {} may not battle after its move this turn", uid(b, u));
  return {};
}

int compulsory_unbattled(const Battle& b, const BattleState& s) {
  for (std::size_t u = 0; u < b.units.size(); ++u) {
    const UnitState& st = s.position.units[u];
    if (st.hex < 0 || !st.close_combat_compulsory || st.battled || b.units[u].side != s.side) continue;
    for (const Target& t : battle_targets(b, s.position, static_cast<int>(u)))
      if (t.close) return static_cast<int>(u);
  }
  return -1;
}

nlohmann::json declare_battle(const Battle& b, BattleState& s, int unit, int target, Dice& dice) {
  Position& p = s.position;
  UnitState& a = unit_state(s, unit);
  const bool bonus = a.battled && a.bonus;
  for (UnitState& st : p.units) st.bonus = false;  // a bonus close combat is taken at once or lost
  a.battled = true;
  const bool close = b.board.adjacent(a.hex, p.units[static_cast<std::size_t>(target)].hex);
  nlohmann::json j{{"unit", uid(b, unit)}, {"target", uid(b, target)}, {"combat", close ? "close" : "ranged"},
                   {"rule", close ? ancients::rule_id::battle_close : ancients::rule_id::battle_ranged}};
  if (bonus) j["bonus_close_combat"] = ancients::rule_id::momentum_bonus;
  Pending ctx;
  ctx.attacker = unit;
  ctx.defender = target;
  ctx.bonus = bonus;
  ctx.close = close;
  const char* no_evade_rule = nullptr;
  if (std::vector<RetreatOption> opts; why_not_evade(b, p, unit, target, &no_evade_rule, &opts).empty()) {
    ctx.kind = Pending::Kind::evade;
    ctx.unit = target;
    s.pending = ctx;
    j["awaiting"] = {{"decision", "evade"}, {"side", side_of(b, target)}, {"unit", uid(b, target)},
                     {"options", options_json(b, opts)}, {"rule", ancients::rule_id::evade_eligible}};
    return j;
  }
  j["attack"] = strike(b, s, ctx, unit, target, -1, dice);
  return j;
}

nlohmann::json attack_leader(const Battle& b, BattleState& s, int unit, int leader, Dice& dice) {
  Position& p = s.position;
  UnitState& a = unit_state(s, unit);
  for (UnitState& st : p.units) st.bonus = false;
  a.battled = true;
  const int n = dice_against_leader(b, p, unit, leader);
  const bool close = b.board.adjacent(a.hex, p.leaders[static_cast<std::size_t>(leader)].hex);
  std::vector<Face> faces;
  int helmets = 0;
  for (int i = 0; i < n; ++i) {
    faces.push_back(face_of(dice.d6("battle")));
    helmets += faces.back() == Face::leader ? 1 : 0;
  }
  nlohmann::json j{{"unit", uid(b, unit)}, {"target", lid(b, leader)}, {"combat", close ? "close" : "ranged"},
                   {"dice", n}, {"rolled", faces_json(faces)}, {"dice_rule", ancients::rule_id::battle_dice},
                   {"hits", helmets}, {"hits_reason", "only leader helmets hit a lone leader"},
                   {"rule", ancients::rule_id::battle_target}};
  if (helmets > 0) {
    p.remove_leader(leader);
    j["killed"] = true;
    j["banner"] = banner(b, s, side_of(b, unit), "leader " + lid(b, leader));
  } else {
    j["killed"] = false;
    j["evade"] = leader_evade(b, s, leader);
  }
  return j;
}

nlohmann::json resolve_evade(const Battle& b, BattleState& s, int to, Dice& dice) {
  const Pending ctx = s.pending;
  s.pending = Pending{};
  nlohmann::json j{{"unit", uid(b, ctx.defender)}, {"evades", to >= 0}};
  if (to >= 0) j["rule"] = ancients::rule_id::evade_move;
  j["attack"] = strike(b, s, ctx, ctx.attacker, ctx.defender, to, dice);
  return j;
}

nlohmann::json resolve_retreat(const Battle& b, BattleState& s, int to, Dice& dice) {
  const Pending ctx = s.pending;
  s.pending = Pending{};
  const int old_hex = s.position.units[static_cast<std::size_t>(ctx.unit)].hex;
  const std::vector<FlagChoice> choices = flag_choices(b, s.position, ctx.unit, ctx.flags, ctx.may_ignore);
  nlohmann::json answer = answer_flags(b, s, ctx.unit, *find_choice(choices, to), ctx.flags, ctx.may_ignore, ctx.lost, dice);
  // A retreat reads as before; a unit that held says so.
  nlohmann::json j = answer.contains("retreat")
                         ? std::move(answer["retreat"])
                         : nlohmann::json{{"unit", uid(b, ctx.unit)}, {"holds", true}, {"flags", ctx.flags},
                                          {"rule", answer["flags_ignored"][0]["rule"]}};
  for (const char* k : {"flags_ignored", "flags_not_ignored"})
    if (answer.contains(k)) j[k] = std::move(answer[k]);
  j["chosen_by"] = side_of(b, ctx.unit);
  j.update(after_defender(b, s, ctx, old_hex, dice));
  return j;
}

nlohmann::json resolve_momentum(const Battle& b, BattleState& s, bool advance, Dice& dice) {
  (void)dice;
  const Pending ctx = s.pending;
  s.pending = Pending{};
  const int u = ctx.attacker;
  nlohmann::json j{{"unit", uid(b, u)}, {"advance", advance}, {"rule", ancients::rule_id::momentum_advance}};
  if (!advance) return j;
  Position& p = s.position;
  const int l = p.leader_of(u);
  const int from = p.units[static_cast<std::size_t>(u)].hex;
  p.place_unit(u, ctx.vacated);
  if (l >= 0) p.place_leader(l, ctx.vacated);
  j["from"] = hex_json(b.board, from);
  j["to"] = hex_json(b.board, ctx.vacated);
  const UnitClass& c = b.unit_class(u);
  const Momentum m = combat_profile(b.units[static_cast<std::size_t>(u)].cls).momentum;
  const TerrainType* t = b.terrain_at(ctx.vacated);
  std::string why;
  if (ctx.bonus) why = "it has made its bonus close combat this turn";
  else if (m != Momentum::advance_and_battle && !(c.category == Category::foot && l >= 0))
    why = fmt::format("a {} advances but makes no bonus close combat without an attached leader", c.name);
  else if (t && in_mask(t->no_battle_on_entering, b.units[static_cast<std::size_t>(u)].cls))
    why = fmt::format("it entered {}, where a {} may not battle on entering", t->name, c.name);
  UnitState& st = unit_state(s, u);
  st.bonus = why.empty();
  j["bonus_close_combat"] = st.bonus;
  j["bonus_rule"] = ancients::rule_id::momentum_bonus;
  if (!why.empty()) j["no_bonus_reason"] = why;
  return j;
}

}  // namespace referee::ancients
