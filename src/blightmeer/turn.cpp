#include "referee/blightmeer/turn.hpp"
#include "referee/blightmeer/rule_ids.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "referee/blightmeer/io.hpp"
#include "referee/blightmeer/resolve.hpp"
#include "referee/blightmeer/route.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/json_io.hpp"

namespace referee::blightmeer {

namespace {

constexpr double kCoordLimit = 1000;


const std::string& side_to_move(const BlightmeerState& s) { return s.sides[static_cast<std::size_t>(s.side)]; }

// The turn rules that come before check_move: the game is still on, it is the
// unit's side's turn, and the unit has not moved yet this turn.
void turn_rules(const Terrain& t, const BlightmeerState& s, const Action& a, Verdict& v) {
  std::string over = game_over_reason(t, s);
  if (!over.empty()) {
    v.add(blightmeer::rule_id::game_over, "the game is over: " + over);
    return;
  }
  if (a.type != Action::Type::move) return;
  int k = s.state.find(a.move.unit);
  if (k < 0) {
    v.add(blightmeer::rule_id::move_unknown_unit, fmt::format("no unit \"{}\" on the battlefield", a.move.unit));
    return;
  }
  const Unit& u = s.state.units[static_cast<std::size_t>(k)];
  // docs/rulings.md#blightmeer-turn-order
  if (u.side != side_to_move(s))
    v.add(blightmeer::rule_id::turn_not_your_turn,
          fmt::format("{} is on side \"{}\": it is side \"{}\"'s turn", u.id, u.side, side_to_move(s)));
  // docs/rulings.md#blightmeer-once-per-turn
  if (s.moved[static_cast<std::size_t>(k)])
    v.add(blightmeer::rule_id::move_once_per_turn, fmt::format("{} has already moved this turn", u.id));
}

// docs/rulings.md#blightmeer-path-disconnected: check_move reports a path that
// does not join up with where the unit is as bad input; in a game, where the
// unit stands depends on the state, so it is a refusal like any other.
MoveReport check_in_game(const Terrain& t, const BlightmeerState& s, const MoveRequest& m, Verdict& v) {
  try {
    return check_move(t, s.state, m);
  } catch (const InputError& e) {
    v.add(blightmeer::rule_id::path_disconnected, e.what());
    MoveReport r;
    r.unit = m.unit;
    return r;
  }
}

nlohmann::json refusal_json(const Verdict& v, const Unit* u) {
  nlohmann::json violations = nlohmann::json::array();
  for (const Ruling& r : v.violations) violations.push_back(r);
  nlohmann::json j{{"legal", false}, {"applied", false}, {"violations", violations},
                   {"events", nlohmann::json::array()}, {"rolls", nlohmann::json::array()}};
  if (u) j["unit"] = unit_json(*u);
  return j;
}

// docs/rulings.md#blightmeer-turn-end and docs/rulings.md#blightmeer-upkeep
TurnEnd end_turn(const Terrain& t, BlightmeerState& s) {
  TurnEnd end{s.side, s.turn, {}, {}};
  std::vector<Ruling>& events = end.events;
  const std::string ending = side_to_move(s);
  for (Unit& u : s.state.units) {
    if (u.side != ending || u.incapacitated) continue;
    if (u.staggered) {
      u.staggered = false;
      events.push_back({blightmeer::rule_id::state_staggered, u.id + " is no longer Staggered: its turn has ended", {}});
    }
    if (u.ran) {
      u.ran = false;
      events.push_back({blightmeer::rule_id::run_after, u.id + " ran this turn; that turn has ended", {}});
    }
    if (u.tried_to_engage) {
      u.tried_to_engage = false;
      events.push_back({blightmeer::rule_id::move_engage_attempted, u.id + " attempted to Engage this turn; that turn has ended", {}});
    }
  }
  std::fill(s.moved.begin(), s.moved.end(), false);
  s.side = (s.side + 1) % static_cast<int>(s.sides.size());
  if (s.side == 0) ++s.turn;
  end.over = game_over_reason(t, s);
  if (end.over.empty()) {
    // The next side's Upkeep: Stunned -> Dazed, Dazed -> Staggered, from the
    // states as they were, so no unit recovers two steps at once.
    for (Unit& u : s.state.units) {
      if (u.side != side_to_move(s) || u.incapacitated) continue;
      bool was_dazed = u.dazed, was_stunned = u.stunned;
      if (was_dazed) {
        u.staggered = true;
        events.push_back({blightmeer::rule_id::state_dazed, u.id + " was Dazed: at its Upkeep it becomes Staggered", {}});
      }
      if (was_stunned)
        events.push_back({blightmeer::rule_id::state_stunned, u.id + " was Stunned: at its Upkeep it becomes Dazed", {}});
      u.dazed = was_stunned;
      u.stunned = false;
    }
  }
  return end;
}

Vec3 read_point(const JsonReader& r) {
  if (!r.json().is_array()) r.fail("expected [x, y, z]");
  if (r.size() != 3) r.fail(fmt::format("expected [x, y, z], got {} values", r.size()));
  return {r.at(std::size_t{0}).as_number(-kCoordLimit, kCoordLimit), r.at(std::size_t{1}).as_number(-kCoordLimit, kCoordLimit),
          r.at(std::size_t{2}).as_number(-kCoordLimit, kCoordLimit)};
}

// The mutable part of one unit: where it is, its Wounds and its states.
void read_unit_state(const JsonReader& r, const Battle& b, Unit& u) {
  r.allow_only({"id", "side", "position", "wounds", "state"});
  if (auto sd = r.find("side"))
    if (sd->as_string() != u.side) sd->fail(fmt::format("unit \"{}\" is on side \"{}\" in the battle", u.id, u.side));
  u.pos = read_point(r.at("position"));
  u.wounds = r.integer("wounds", 1, 50);
  JsonReader st = r.at("state");
  st.require_object();
  st.allow_only({"dazed", "stunned", "staggered", "engaged_with", "tried_to_engage", "treasure", "incapacitated", "ran"});
  u.dazed = st.boolean_or("dazed", false);
  u.stunned = st.boolean_or("stunned", false);
  u.staggered = st.boolean_or("staggered", false);
  u.tried_to_engage = st.boolean_or("tried_to_engage", false);
  u.treasure = st.boolean_or("treasure", false);
  u.incapacitated = st.boolean_or("incapacitated", false);
  u.ran = st.boolean_or("ran", false);
  u.engaged_with.clear();
  if (auto e = st.find("engaged_with")) {
    for (const JsonReader& id : e->items()) {
      std::string other = id.as_string();
      int k = b.state.find(other);
      if (k < 0) id.fail(fmt::format("no unit \"{}\"", other));
      if (b.state.units[static_cast<std::size_t>(k)].side == u.side) id.fail(fmt::format("\"{}\" is on the same side", other));
      u.engaged_with.push_back(other);
    }
  }
  if (u.treasure && (u.animal || u.large))
    st.fail("treasure", u.animal ? "an animal cannot carry Treasure" : "a large unit cannot carry Treasure");
}

void check_standing(const Terrain& t, const JsonReader& r, const Unit& u) {
  if (u.incapacitated) return;
  if (!t.on_table(u.pos.xy())) r.fail(fmt::format("{} is off the {} x {} in table", position_words(u.pos, 2), t.width, t.depth));
  double lvl = t.level_at(u.pos.xy());
  if (u.pos.z < lvl - kPlaceTolerance)
    r.fail(fmt::format("{} is inside a wall: the surface there is {:.2f} in high", position_words(u.pos, 2), lvl));
  if (u.pos.z > lvl + kPlaceTolerance)
    r.fail(fmt::format("{} is in mid-air: the level there is {:.2f} in", position_words(u.pos, 2), lvl));
  if (t.in_impassable(u.pos.xy())) r.fail("the unit stands in impassable terrain");
}

const char* short_failure(OnFailure f) {
  switch (f) {
    case OnFailure::fall_at_landing: return "falls where it landed";
    case OnFailure::fall_from_takeoff: return "falls from where it jumped";
    default: return "stops at the foot";
  }
}

// Exact products of independent checks. Denominators are kept unreduced (they
// show the dice counted) unless the product would overflow.
Chance times(Chance a, Chance b) {
  constexpr std::int64_t kLimit = std::int64_t{1} << 31;
  if (a.outcomes > kLimit || b.outcomes > kLimit) {
    auto reduce = [](Chance& c) {
      std::int64_t g = std::gcd(c.successes, c.outcomes);
      if (g > 1) c = {c.successes / g, c.outcomes / g};
    };
    reduce(a);
    reduce(b);
  }
  return a * b;
}

}  // namespace

BlightmeerState BlightmeerState::initial(const Battle& b) {
  BlightmeerState g;
  g.state = b.state;
  g.sides = b.sides;
  g.moved.assign(b.state.units.size(), false);
  return g;
}

std::string game_over_reason(const Terrain& t, const BlightmeerState& s) {
  if (s.sides.empty()) return "there are no sides: the battle has no units";
  if (s.turn > t.turn_limit) return fmt::format("the turn limit is reached: {} rounds played", t.turn_limit);
  for (const std::string& side : s.sides) {
    bool standing = false;
    for (const Unit& u : s.state.units) standing = standing || (u.side == side && !u.incapacitated);
    if (!standing) return fmt::format("side \"{}\" has no unit left standing", side);
  }
  return {};
}

std::string game_over_reason(const Battle& b, const BlightmeerState& s) { return game_over_reason(*b.terrain, s); }
bool game_over(const Battle& b, const BlightmeerState& s) { return !game_over_reason(b, s).empty(); }

Checked check(const Terrain& t, const BlightmeerState& s, const Action& a) {
  Checked c;
  c.action = a;
  turn_rules(t, s, a, c.verdict);
  const bool moves = a.type == Action::Type::move && !c.verdict.has(blightmeer::rule_id::game_over) &&
                     !c.verdict.has(blightmeer::rule_id::move_unknown_unit);
  if (!moves || !c.verdict.legal()) c.refusal = c.verdict;
  if (!moves) return c;
  c.report = check_in_game(t, s, a.move, c.verdict);
  if (c.refusal.legal()) c.refusal = c.verdict;  // the turn rules allow it: a disconnected path, if any
  for (const Ruling& x : c.report.verdict.violations) c.verdict.add(x);
  return c;
}

Verdict validate(const Terrain& t, const BlightmeerState& s, const Action& a) { return check(t, s, a).verdict; }

Applied do_apply(const Terrain& t, BlightmeerState& s, Checked&& c, Dice& dice) {
  const Action& a = c.action;
  Applied out;
  if (a.type == Action::Type::end_turn) {
    out.turn_end = end_turn(t, s);
    return out;
  }
  out.move = resolve_checked_move(t, s.state, a.move, std::move(c.report), dice);
  if (out.move.applied) s.moved[static_cast<std::size_t>(s.state.find(a.move.unit))] = true;
  return out;
}

nlohmann::json applied_json(const BlightmeerState& after, const Applied& a) {
  if (!a.turn_end) return resolution_json(a.move);
  const TurnEnd& end = *a.turn_end;
  nlohmann::json ev = nlohmann::json::array();
  for (const Ruling& r : end.events) ev.push_back(r);
  nlohmann::json j{{"ended", {{"side", after.sides[static_cast<std::size_t>(end.ending_side)]}, {"turn", end.ending_turn}}},
                   {"events", ev},
                   {"game_over", end.over.empty() ? nlohmann::json(nullptr) : nlohmann::json(end.over)}};
  if (end.over.empty()) j["next"] = {{"side", side_to_move(after)}, {"turn", after.turn}};
  j["type"] = "end_turn";
  return j;
}

nlohmann::json apply(const Terrain& t, BlightmeerState& s, const Action& a, Dice& dice) {
  Checked c = check(t, s, a);
  if (c.verdict.legal()) {
    const Applied done = do_apply(t, s, std::move(c), dice);
    return applied_json(s, done);
  }
  const int k = a.type == Action::Type::move ? s.state.find(a.move.unit) : -1;
  const Unit* u = k >= 0 ? &s.state.units[static_cast<std::size_t>(k)] : nullptr;
  if (!c.refusal.legal()) return refusal_json(c.refusal, u);
  // The turn rules allow it and the move is not legal: the move's own report.
  Resolution r;
  r.report = std::move(c.report);
  r.before = r.after = *u;
  return resolution_json(r);
}

Action parse_action(const nlohmann::json& j, const Battle& b, const std::string& path) {
  JsonReader r(j, path);
  r.require_object();
  Action a;
  std::string type = r.one_of("type", {"move", "end_turn"});
  if (type == "end_turn") {
    r.allow_only({"type"});
    a.type = Action::Type::end_turn;
    return a;
  }
  r.allow_only({"type", "unit", "mode", "path"});
  nlohmann::json request = j;
  request.erase("type");
  a.type = Action::Type::move;
  a.move = parse_move(request, path);
  if (b.state.find(a.move.unit) < 0) r.fail("unit", fmt::format("no unit \"{}\" on the battlefield", a.move.unit));
  std::vector<JsonReader> steps = r.items("path");
  for (std::size_t i = 0; i < a.move.path.size(); ++i) {
    const Step& st = a.move.path[i];
    if (st.type == StepType::ladder && b.terrain->ladder_index(st.ladder) < 0)
      steps[i].fail("ladder", fmt::format("no ladder \"{}\" on the battlefield", st.ladder));
  }
  return a;
}

nlohmann::json action_json(const Action& a) {
  if (a.type == Action::Type::end_turn) return {{"type", "end_turn"}};
  nlohmann::json j = move_to_json(a.move);
  j["type"] = "move";
  return j;
}

nlohmann::json battle_state_json(const BlightmeerState& s) {
  nlohmann::json units = nlohmann::json::array();
  nlohmann::json moved = nlohmann::json::array();
  for (std::size_t i = 0; i < s.state.units.size(); ++i) {
    const Unit& u = s.state.units[i];
    nlohmann::json j = unit_json(u);
    // Exact, so that a resumed game plays on from the very same position.
    j["position"] = nlohmann::json::array({u.pos.x, u.pos.y, u.pos.z});
    units.push_back(j);
    if (i < s.moved.size() && s.moved[i]) moved.push_back(u.id);
  }
  nlohmann::json side = s.sides.empty() ? nlohmann::json(nullptr) : nlohmann::json(side_to_move(s));
  return {{"turn", s.turn}, {"side", side}, {"sides", s.sides}, {"moved", moved}, {"units", units}};
}

BlightmeerState battle_state_from_json(const nlohmann::json& j, const Battle& b, const std::string& path) {
  JsonReader r(j, path);
  r.require_object();
  r.allow_only({"turn", "side", "sides", "moved", "units"});
  BlightmeerState g = BlightmeerState::initial(b);
  if (auto sd = r.find("sides")) {
    std::vector<std::string> names;
    for (const JsonReader& x : sd->items()) names.push_back(x.as_string());
    if (names != b.sides)
      sd->fail(fmt::format("the battle's sides in play order are [{}]", fmt::join(b.sides, ", ")));
  }
  const Terrain& t = *b.terrain;
  g.turn = r.integer("turn", 1, t.turn_limit + 1);
  if (b.sides.empty()) {
    if (r.has("side")) r.fail("side", "the battle has no sides");
  } else {
    std::string side = r.one_of("side", b.sides);
    g.side = static_cast<int>(std::find(b.sides.begin(), b.sides.end(), side) - b.sides.begin());
  }
  std::vector<JsonReader> items = r.items("units");
  std::vector<int> where(b.state.units.size(), -1);
  for (std::size_t i = 0; i < items.size(); ++i) {
    std::string id = items[i].string("id");
    int k = b.state.find(id);
    if (k < 0) items[i].fail("id", fmt::format("no unit \"{}\" in the battle", id));
    if (where[static_cast<std::size_t>(k)] >= 0) items[i].fail("id", fmt::format("unit \"{}\" is listed twice", id));
    where[static_cast<std::size_t>(k)] = static_cast<int>(i);
    read_unit_state(items[i], b, g.state.units[static_cast<std::size_t>(k)]);
  }
  for (std::size_t k = 0; k < where.size(); ++k)
    if (where[k] < 0) r.fail("units", fmt::format("unit \"{}\" of the battle is missing", b.state.units[k].id));
  for (std::size_t k = 0; k < where.size(); ++k) {
    const Unit& u = g.state.units[k];
    JsonReader ur = items[static_cast<std::size_t>(where[k])];
    check_standing(t, ur.at("position"), u);
    int o = overlapping_unit(g.state, static_cast<int>(k), u.pos, u.radius());
    if (!u.incapacitated && o >= 0 && o < static_cast<int>(k))
      ur.at("position").fail(fmt::format("the unit overlaps unit \"{}\"", g.state.units[static_cast<std::size_t>(o)].id));
  }
  if (auto mv = r.find("moved")) {
    for (const JsonReader& x : mv->items()) {
      std::string id = x.as_string();
      int k = g.state.find(id);
      if (k < 0) x.fail(fmt::format("no unit \"{}\" in the battle", id));
      if (g.moved[static_cast<std::size_t>(k)]) x.fail(fmt::format("unit \"{}\" is listed twice", id));
      if (g.state.units[static_cast<std::size_t>(k)].side != side_to_move(g))
        x.fail(fmt::format("unit \"{}\" is not on side \"{}\", whose turn it is", id, side_to_move(g)));
      g.moved[static_cast<std::size_t>(k)] = true;
    }
  }
  return g;
}

std::vector<MoveKindOption> move_kinds(const Terrain& t, const BlightmeerState& s) {
  std::vector<MoveKindOption> out;
  if (!game_over_reason(t, s).empty()) return out;
  for (std::size_t i = 0; i < s.state.units.size(); ++i) {
    const Unit& u = s.state.units[i];
    if (u.side != side_to_move(s) || u.incapacitated) continue;
    for (bool run : {false, true}) {
      MoveKindOption o;
      o.unit = u.id;
      o.run = run;
      if (s.moved[i]) o.why_not.add(blightmeer::rule_id::move_once_per_turn, fmt::format("{} has already moved this turn", u.id));
      for (Ruling& r : may_move(s.state, static_cast<int>(i), run).violations) o.why_not.add(std::move(r));
      out.push_back(std::move(o));
    }
  }
  return out;
}

std::optional<Action> sample_move(const Terrain& t, const BlightmeerState& s, const std::string& unit, bool run, Rng& rng) {
  int k = s.state.find(unit);
  if (k < 0) return std::nullopt;
  {
    Action probe;
    probe.type = Action::Type::move;
    probe.move.unit = unit;
    Verdict v;
    turn_rules(t, s, probe, v);
    if (!v.legal() || !may_move(s.state, k, run).legal()) return std::nullopt;
  }
  const Unit& u = s.state.units[static_cast<std::size_t>(k)];
  ReachAnswer reach = unit_reach(t, s.state, unit, run);
  std::vector<Vec3> cells;
  for (const ReachCell& c : reach.cells)
    if (distance(c.p.xy(), u.pos.xy()) > 0.25 || std::abs(c.p.z - u.pos.z) > kPlaceTolerance) cells.push_back(c.p);
  // Cells in a seeded random order; in each, first a point jittered within the
  // cell (so samples are not tied to the grid), then the centre.
  for (std::size_t i = 0; i < cells.size(); ++i) {
    std::size_t j = i + static_cast<std::size_t>(rng.below(cells.size() - i));
    std::swap(cells[i], cells[j]);
    Vec3 centre = cells[i];
    Vec2 jitter{centre.x + (static_cast<double>(rng.below(901)) / 1000.0 - 0.45),
                centre.y + (static_cast<double>(rng.below(901)) / 1000.0 - 0.45)};
    std::vector<Vec3> targets;
    if (t.on_table(jitter) && std::abs(t.level_at(jitter) - centre.z) < kEps) targets.push_back({jitter.x, jitter.y, centre.z});
    targets.push_back(centre);
    for (Vec3 p : targets) {
      RouteAnswer ra;
      try {
        ra = best_route(t, s.state, unit, p, run);
      } catch (const InputError&) {
        continue;
      }
      std::vector<const RouteOption*> options;
      for (const RouteOption* o : {&ra.safe, &ra.risky})
        if (o->found && o->report.verdict.legal()) options.push_back(o);
      if (options.empty()) continue;
      const RouteOption* pick = options[static_cast<std::size_t>(rng.below(options.size()))];
      Action a;
      a.type = Action::Type::move;
      a.move = pick->request;
      a.move.run = run;
      if (validate(t, s, a).legal()) return a;
    }
  }
  return std::nullopt;
}

std::vector<MoveOutcome> move_outcomes(const MoveReport& r) {
  std::vector<MoveOutcome> out;
  Chance reached{1, 1};  // every earlier check passed
  int number = 0;
  for (const CheckNeed& c : r.checks) {
    if (r.drown_step >= 0 && c.step > r.drown_step) break;  // never rolled: the move ended in the water
    ++number;
    Chance fails = times(reached, c.chance.complement());
    if (fails.successes > 0) {
      MoveOutcome o;
      o.label = fmt::format("check {} ({} at step {}) fails{}: {}", number, c.kind, c.step,
                            c.automatic_failure ? " automatically" : "", short_failure(c.on_failure));
      o.chance = fails;
      o.detail = {{"check", number},
                  {"step", c.step},
                  {"kind", c.kind},
                  {"rule", c.rule},
                  {"target", c.target},
                  {"edge", to_string(c.edge)},
                  {"check_chance", c.chance},
                  {"on_failure", to_string(c.on_failure)},
                  {"position", vec3_json(c.failure_spot)},
                  {"falls", c.on_failure != OnFailure::stop_at_foot}};
      if (c.on_failure != OnFailure::stop_at_foot) o.detail["fall_height"] = std::round(c.fall_height * 1000) / 1000;
      if (c.automatic_failure) o.detail["automatic_failure"] = c.automatic_reason;
      out.push_back(std::move(o));
    }
    reached = times(reached, c.chance);
  }
  if (reached.successes > 0) {
    MoveOutcome o;
    o.label = number == 0 ? "no check: the move is made" : "all checks pass";
    o.chance = reached;
    Vec3 end = r.drown_step >= 0 ? r.drown_at : r.final_pos;
    o.detail = {{"checks", number}, {"position", vec3_json(end)}, {"drowns", r.drown_step >= 0}};
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace referee::blightmeer
