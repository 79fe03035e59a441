#include "referee/warmaster/battle/queries.hpp"
#include "referee/warmaster/model/rule_ids.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "referee/core/errors.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/combat/combat.hpp"
#include "referee/warmaster/command/initiative.hpp"
#include "referee/warmaster/movement/formation_plans.hpp"
#include "referee/warmaster/movement/movement.hpp"
#include "referee/warmaster/movement/moving_chargers.hpp"
#include "referee/warmaster/command/orders.hpp"
#include "referee/warmaster/movement/reach.hpp"
#include "referee/warmaster/shooting/shooting.hpp"
#include "referee/warmaster/movement/sight.hpp"
#include "referee/warmaster/movement/transit.hpp"
#include "referee/warmaster/model/troops.hpp"

namespace referee::warmaster {

namespace {

// Answers carry coordinates to 0.001 cm, as the command line always printed them.
double milli(double v) { return std::round(v * 1000) / 1000; }
Json point(Vec2 p) { return {{"x", milli(p.x)}, {"y", milli(p.y)}}; }
Json pose(const Pose& p) {
  Json j = point(p.position);
  j["facing"] = milli(p.facing_deg);
  return j;
}
std::string pt(Vec2 p) { return fmt::format("({:.1f}, {:.1f})", p.x, p.y); }

// A unit or a character, by id.
struct Who {
  const Unit* unit = nullptr;
  const Character* character = nullptr;
};
Who find_who(const Battlefield& bf, const JsonReader& r, std::string_view key) {
  const std::string id = r.string(key);
  Who w{bf.find_unit(id), bf.find_character(id)};
  if (!w.unit && !w.character) r.fail(key, fmt::format("no unit or character \"{}\" on the battlefield", id));
  return w;
}

Json reach_query(const Battlefield& bf, const Settings& settings, const JsonReader& r, std::string* text) {
  r.allow_only({"unit", "kind", "cell", "facing"});
  const std::string unit = r.string("unit");
  const std::string kind_name = r.one_of_or("kind", {"ordered", "half_pace", "charge", "evade", "character"}, "ordered");
  const ReachKind kind = *reach_kind_from_string(kind_name);
  if (kind == ReachKind::Character ? !bf.find_character(unit) : !bf.find_unit(unit))
    r.fail("unit", fmt::format("no {} \"{}\" on the battlefield", kind == ReachKind::Character ? "character" : "unit", unit));
  const double cell = r.number_or("cell", 0.5, 0.1, 10);
  std::optional<double> facing;
  if (r.has("facing")) facing = r.number("facing", -360, 360);
  const ReachAnswer answer = reach(bf, {unit, kind, std::nullopt, cell, facing}, settings);
  if (text) *text = explain(answer);
  return answer;
}

Json los_query(const Battlefield& bf, const Settings& settings, const JsonReader& r, std::string* text) {
  r.allow_only({"from", "to", "all_round"});
  const Who from = find_who(bf, r, "from"), to = find_who(bf, r, "to");
  const bool all_round = r.boolean_or("all_round", false);
  SightAnswer s;
  if (from.unit && to.unit) s = line_of_sight(bf, *from.unit, *to.unit, settings, !all_round);
  else if (from.character && to.unit) s = line_of_sight(bf, *from.character, *to.unit, settings);
  else if (from.unit && to.character) s = line_of_sight(bf, *from.unit, *to.character, settings, !all_round);
  else r.fail("to", "line of sight is between units, or a character and a unit");
  Json j{{"rule", s.rule},          {"from", r.string("from")},     {"to", r.string("to")},
         {"visible", s.visible},    {"distance", milli(s.distance)}, {"reason", s.reason},
         {"front_edges_only", !all_round}};
  if (s.line) j["line"] = {point(s.line->a), point(s.line->b)};
  if (!s.visible) j["blocked_by"] = s.blocked_by;
  if (text) *text = s.rule + ": " + s.reason + "\n";
  return j;
}

Json distance_query(const Battlefield& bf, const JsonReader& r, std::string* text) {
  r.allow_only({"from", "to"});
  const Who from = find_who(bf, r, "from"), to = find_who(bf, r, "to");
  ClosestPoints cp;
  if (from.unit && to.unit) {
    cp = unit_distance(*from.unit, *to.unit);
  } else if (from.character && to.unit) {
    cp = character_distance(*from.character, *to.unit);
  } else if (from.unit && to.character) {
    const ClosestPoints c = character_distance(*to.character, *from.unit);
    cp = {c.on_b, c.on_a, c.distance};
  } else {
    // Two round bases (or stands), centre to centre less both radii.
    auto radius = [](const Character& c) {
      return c.stand_size ? std::min(c.stand_size->x, c.stand_size->y) / 2 : c.base_diameter / 2;
    };
    const Vec2 p = from.character->pose.position, q = to.character->pose.position;
    const double d = distance(p, q);
    const Vec2 u = d > 0 ? (q - p) / d : Vec2{0, 0};
    const double gap = std::max(0.0, d - radius(*from.character) - radius(*to.character));
    cp = {p + u * radius(*from.character), q - u * radius(*to.character), gap};
  }
  if (!std::isfinite(cp.distance)) r.fail("from", "one of them has no stands on the table");
  const std::string a = r.string("from"), b = r.string("to");
  if (text)
    *text = fmt::format("warmaster.distance: {} to {} is {} (closest points {} and {})\n", a, b,
                        format_measure(cp.distance, "cm"), pt(cp.on_a), pt(cp.on_b));
  return {{"rule", warmaster::rule_id::distance},
          {"from", a},
          {"to", b},
          {"distance", milli(cp.distance)},
          {"closest", {point(cp.on_a), point(cp.on_b)}}};
}

Json route_query(const Battlefield& bf, const Settings& settings, const JsonReader& r, std::string* text) {
  r.allow_only({"unit", "stand", "to", "max"});
  const std::string unit = r.string("unit");
  const Unit* u = bf.find_unit(unit);
  if (!u) r.fail("unit", fmt::format("no unit \"{}\" on the battlefield", unit));
  if (u->stands.empty()) r.fail("unit", fmt::format("unit \"{}\" has no stands on the table", unit));
  const int stand = r.integer_or("stand", 0, 0, static_cast<int>(u->stands.size()) - 1);
  JsonReader to_r = r.at("to");
  to_r.require_object();
  to_r.allow_only({"x", "y", "facing"});
  const Pose to{{to_r.number("x", -kCoordinateLimit, kCoordinateLimit), to_r.number("y", -kCoordinateLimit, kCoordinateLimit)},
                to_r.number_or("facing", u->stands[static_cast<std::size_t>(stand)].pose.facing_deg, -360, 360)};
  const double pace = full_pace(*u);
  const double max = r.number_or("max", 2 * std::max(pace, 1.0), 0.1, 1000);
  TransitScene scene(bf, *u, settings);
  const Pose from = u->stands[static_cast<std::size_t>(stand)].pose;
  const std::string label = "stand " + std::to_string(stand + 1);
  const std::vector<Ruling> direct = scene.check_leg(from, to, label);
  const auto route = scene.shortest_route(from, to, max);
  Json j{{"rule", warmaster::rule_id::movement_path}, {"unit", unit},          {"stand", stand},
         {"from", pose(from)},                {"to", pose(to)},        {"direct_clear", direct.empty()},
         {"direct_violations", direct},       {"max", max},            {"full_pace", pace}};
  std::string t;
  if (route) {
    const auto corners = corner_distances(*route, u->width, u->depth);
    const double d = route_distance(*route, u->width, u->depth);
    Json poses = Json::array();
    for (const Pose& p : *route) poses.push_back(pose(p));
    j["found"] = true;
    j["route"] = poses;
    j["distance"] = milli(d);
    j["corner_distances"] = {corners[0], corners[1], corners[2], corners[3]};
    j["within_full_pace"] = d <= pace + 1e-9;
    t = fmt::format("{} {}: {} route of {} leg(s), {} by the furthest corner (full pace {})\n", unit, label,
                    direct.empty() ? "the direct" : "a planned", route->size() - 1, format_measure(d, "cm"),
                    format_measure(pace, "cm"));
    for (const Pose& p : *route) t += fmt::format("  {} facing {:.0f}\n", pt(p.position), p.facing_deg);
  } else {
    j["found"] = false;
    t = fmt::format("{} {}: no route obeying the gap rule within {}\n", unit, label, format_measure(max, "cm"));
  }
  for (const Ruling& ru : direct) t += "  direct line: " + explain(ru) + "\n";
  if (text) *text = t;
  return j;
}

Json check_query(const Battlefield& bf, const Settings& settings, const JsonReader& r, std::string* text) {
  r.allow_only({"move"});
  const MoveRequest req = parse_move_request(r.at("move").json(), bf);
  const MoveAnswer answer = check_move(bf, req, settings);
  Json j = to_json(answer);
  j["mover"] = req.mover;
  j["kind"] = to_string(req.kind);
  if (text) *text = explain(answer, req);
  return j;
}


}  // namespace

std::vector<QueryInfo> query_catalogue() {
  return {
      {"reach", "Where a unit's stands (or a character) can get with one move: polygons of the centres' reach",
       {{"unit", "unit or character id"},
        {"kind", "ordered | half_pace | charge | evade | character (default ordered)"},
        {"cell", "grid cell in cm, 0.1 to 10 (default 0.5)"},
        {"facing", "the facing every stand ends with, in degrees (default: each keeps its own)"}}},
      {"route", "The shortest route of one stand that obeys the gap rule",
       {{"unit", "unit id"}, {"stand", "stand index (default 0)"}, {"to", "{x, y, facing}"}, {"max", "cm (default twice full pace)"}}},
      {"los", "Line of sight between two units, or a character and a unit",
       {{"from", "unit or character id"}, {"to", "unit or character id"}, {"all_round", "sight from every edge, not only the front (default false)"}}},
      {"distance", "Shortest distance between two units or characters",
       {{"from", "unit or character id"}, {"to", "unit or character id"}}},
      {"check", "Is this move legal for the movement rules alone (pace, formation, path, terrain, overlap)?",
       {{"move", "a move request: {unit, kind, stands: [{stand, to: {x, y, facing}}]}"}}},
      {"order_odds", "What an order needs now: penalties, the number needed on 2D6 and its exact chance",
       {{"character", "character id"}, {"units", "[unit id, ...] (one unit, or a brigade)"}}},
      {"shooting_odds", "Before the Shooting phase is rolled: each shooter's target (as the engine picks it) and, per "
                        "target, the exact odds of its unsaved hits, stands lost and drive back",
       {{"side", "0 or 1 (default: the side whose turn it is)"}}},
      {"combat_odds", "Before the Combat phase is rolled: each engagement's first-round attacks and support, and the "
                      "exact chance of each side winning, and of a draw",
       {}},
      {"target", "A unit's closest target, as its side's Shooting phase would pick it now, with the distance, the "
                 "stands that shoot and the reason; or why it has none",
       {{"unit", "unit id"}}},
      {"support", "The support a unit's combat would get now: the engagement holding it and each side's supporting "
                  "stands, as the Combat phase counts them",
       {{"unit", "unit id"}}},
      {"evade_plan", "Where the engine's evade would take a unit evading an enemy by initiative (nothing is moved)",
       {{"unit", "unit id"}, {"enemy", "the enemy unit evaded"}, {"burst_through", "[friendly unit id, ...] (default none)"}}},
      {"charge_plan", "The charge of a unit dragged next to an enemy: slid straight on from where it was dragged until it "
                      "touches the enemy, with the verdict applying it now would give (nothing is moved)",
       {{"unit", "unit id"}, {"target", "the enemy unit charged"},
        {"stands", "[{x, y, facing}, ...], one per stand: where it was dragged (default where it stands)"}}},
      {"formation_plan", "A unit re-formed for its move: in a line facing a point, or in a column along a path "
                         "drawn from it (the lead at its end), with the verdict applying it now would give and the "
                         "stands at fault (nothing is moved)",
       {{"unit", "unit id"}, {"shape", "\"line\" or \"column\""}, {"toward", "{x, y}: the point a line faces"},
        {"path", "[{x, y}, ...]: the way a column follows, from the unit"}}},
      {"deployment", "Units whose stands are in no formation (a stand touching none of its unit): one warning each, "
                     "with the gap; the bundled battles have none",
       {}},
      {"battlefield", "The battlefield now, in the battle file's format: terrain, and every unit with its type, "
                      "stand size and profile (troops resolved), and the characters",
       {}},
  };
}

Json answer_query(const Battlefield& bf, const Settings& settings, const std::string& name, const Json& args,
                  const std::string& path, std::string* text) {
  JsonReader r(args, path);
  r.require_object();
  if (name == "reach") return reach_query(bf, settings, r, text);
  if (name == "los") return los_query(bf, settings, r, text);
  if (name == "distance") return distance_query(bf, r, text);
  if (name == "route") return route_query(bf, settings, r, text);
  if (name == "check") return check_query(bf, settings, r, text);
  if (name == "deployment") {
    r.allow_only({});
    const std::vector<Ruling> warnings = formation_warnings(bf, settings);
    Json w = Json::array();
    for (const Ruling& x : warnings) w.push_back(x);
    if (text) {
      *text = warnings.empty() ? "every unit is in formation\n" : "";
      for (const Ruling& x : warnings) *text += fmt::format("{}: {}\n", x.rule, x.reason);
    }
    return Json{{"warnings", std::move(w)}};
  }
  if (name == "battlefield") {
    r.allow_only({});
    if (text) *text = fmt::format("{} units and {} characters on a {} x {} cm table\n", bf.units.size(),
                                  bf.characters.size(), bf.width, bf.height);
    return to_json(bf, &settings);
  }
  std::string known;
  for (const QueryInfo& q : query_catalogue()) known += (known.empty() ? "" : ", ") + q.name;
  throw InputError("query", fmt::format("unknown Warmaster query \"{}\" (known: {})", name, known));
}

Json order_target_json(const OrderTarget& t) {
  Json pen = Json::array();
  for (const CommandPenalty& p : t.penalties)
    pen.push_back({{"rule", p.rule}, {"name", p.name}, {"value", p.value}, {"reason", p.reason}});
  return Json{{"command", t.command},       {"effective_command", t.effective_command},
              {"penalties", pen},           {"total_penalty", t.total_penalty},
              {"needed", t.needed},         {"chance", t.chance}};
}

std::string order_target_text(const OrderTarget& t) {
  std::string s = fmt::format("Command {}", t.command);
  if (t.effective_command != t.command) s += fmt::format(" (+1 first order of the first turn: {})", t.effective_command);
  s += "\n";
  for (const CommandPenalty& p : t.penalties) s += fmt::format("  {:+d}  {}: {}  [{}]\n", p.value, p.name, p.reason, p.rule);
  if (t.penalties.empty()) s += "  no penalties\n";
  s += fmt::format("needs {} or less on 2D6: chance {} ({:.1f}%)\n", t.needed, t.chance.fraction(),
                   100.0 * t.chance.value());
  return s;
}


namespace {

// The side's Shooting phase before a die is rolled: shooting_targets picks
// each shooter's target as resolve_shooting will, and the hits of every
// shooter at one target are pooled, since casualties and drive backs count
// the hits a unit suffers over the whole phase (shooting.hpp). Each target's
// odds are shooting_odds over the pooled Attacks, so they are exact when the
// shooters fire in one go; the engine rolls them unit by unit, which gives
// the same distribution of the total.
// One shooter's target as the Shooting phase picks it: the closest enemy it
// can see in range, the distance, the stands that shoot and why.
Json shooter_json(const ShootingTarget& t, int attacks) {
  Json j{{"shooter", t.shooter}, {"target", t.target.empty() ? Json(nullptr) : Json(t.target)},
         {"distance", t.target.empty() ? Json(nullptr) : Json(milli(t.distance))}, {"range", milli(t.range)}, {"attacks", attacks},
         {"stands", values_of(t.stands)}, {"rule", t.rulings.back().rule}, {"reason", t.rulings.back().reason}};
  if (!t.choices.empty()) j["choices"] = t.choices;
  if (!t.passed_over.empty()) j["passed_over"] = t.passed_over;
  return j;
}

Json shooting_odds_query(const WarmasterState& s, const JsonReader& r, std::string* text) {
  r.allow_only({"side"});
  const int side = r.integer_or("side", s.side(), 0, 1);
  const Battlefield& bf = s.battlefield();
  const std::vector<ShootingTarget> targets = shooting_targets(bf, side, s.settings());
  Json shooters = Json::array();
  std::vector<std::string> order;
  std::map<std::string, std::pair<int, std::vector<std::string>>> pooled;  // target -> attacks, shooters
  for (const ShootingTarget& t : targets) {
    const Unit& u = *bf.find_unit(t.shooter);
    // Only the stands within range of the target and in sight roll
    // (docs/rulings.md#warmaster-shooting-range-per-stand).
    const int attacks = u.attacks * static_cast<int>(t.stands.size());
    shooters.push_back(shooter_json(t, attacks));
    if (t.target.empty()) continue;
    auto [it, fresh] = pooled.try_emplace(t.target);
    if (fresh) order.push_back(t.target);
    it->second.first += attacks;
    it->second.second.push_back(t.shooter);
  }
  Json out_targets = Json::array();
  std::string t = fmt::format("Side {} shooting: {} {}\n", side, targets.size(), targets.size() == 1 ? "shooter" : "shooters");
  for (const ShootingTarget& st : targets)
    for (const Ruling& x : st.rulings) t += "  " + x.reason + "\n";
  for (const std::string& id : order) {
    const Unit& e = *bf.find_unit(id);
    ShootingOddsRequest q;
    q.attacks = std::min(pooled[id].first, 60);
    q.position = position_of(bf, e, s.settings()).position;
    q.armour = e.armour;
    q.hits = e.hits > 0 ? e.hits : 1;
    q.stands = static_cast<int>(e.stands.size());
    q.pace = full_pace(e);
    const ShootingOdds o = shooting_odds(q);
    Json j = o;
    j["target"] = id;
    j["shooters"] = pooled[id].second;
    j["position_reason"] = position_of(bf, e, s.settings()).reason;
    out_targets.push_back(j);
    t += fmt::format("{} ({}, hit on {}+, save {}): {} dice; no unsaved hit {:.1f}%, a stand lost {:.1f}%, "
                     "confused {:.1f}%, routed {:.1f}%\n",
                     id, to_string(q.position), o.needed, q.armour > 0 ? fmt::format("{}+", q.armour) : "none",
                     q.attacks, 100 * o.rows[0].chance, 100 * o.any_stand_removed, 100 * o.confused, 100 * o.routed);
  }
  if (text) *text = t;
  return {{"side", side}, {"shooters", shooters}, {"targets", out_targets}};
}

// A Dice that always rolls 1: every attack misses, so resolve_combat lays
// out the first round's attacks and support without a hit changing them.
class OnesDice final : public Dice {
 protected:
  int draw(int, const std::string&) override { return 1; }
};

// The distribution of the sum of independent counts.
std::vector<double> convolve(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> c(a.size() + b.size() - 1, 0.0);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t k = 0; k < b.size(); ++k) c[i + k] += a[i] * b[k];
  return c;
}

// Unsaved hits of `dice` dice, each hitting on `needed`+ and saved on
// `armour`+ (0: no save): binomial, by repeated convolution.
std::vector<double> unsaved_hits(int dice, int needed, int armour) {
  const double p = (7.0 - needed) / 6.0 * (armour > 0 ? (armour - 1) / 6.0 : 1.0);
  std::vector<double> d{1.0};
  for (int k = 0; k < dice; ++k) d = convolve(d, {1 - p, p});
  return d;
}

// The side's Combat phase before a die is rolled: resolve_combat, with
// every die a 1, lays out each engagement's first round (attacks after their
// modifiers, each target's position and Armour, supporting stands) exactly as
// the phase will; the chance of each result follows from the dice alone.
// Pursuit rounds depend on the first round's outcome and are not included.
Json combat_odds_query(const WarmasterState& s, const JsonReader& r, std::string* text) {
  r.allow_only({});
  CombatOptions options;
  for (std::size_t i = 0; i < s.units().size(); ++i)
    if (s.units()[i].charged) options.charged.push_back(s.battlefield().units[i].id);
  OnesDice ones;
  const CombatReport rep = resolve_combat(s.battlefield(), s.side(), ones, options, s.settings());
  Json engagements = Json::array();
  std::string t;
  for (const CombatRound& round : rep.rounds) {
    if (round.round != 1) continue;
    std::array<std::vector<double>, 2> result;  // result (hits + support) of each side
    Json sides = Json::array();
    for (int side = 0; side < 2; ++side) {
      const CombatSideResult& sr = round.sides[static_cast<std::size_t>(side)];
      std::vector<double> hits{1.0};
      Json attacks = Json::array();
      int dice = 0;
      for (const CombatAttack& a : round.attacks) {
        const Unit* u = s.battlefield().find_unit(a.attacker);
        if (!u || u->side != side) continue;
        Json mods = Json::array();
        for (const AttackModifier& m : a.modifiers) mods.push_back(m);
        attacks.push_back({{"attacker", a.attacker}, {"target", a.target}, {"stands", a.stands}, {"dice", a.dice},
                           {"position", to_string(a.position)}, {"needed", a.needed}, {"armour", a.armour},
                           {"modifiers", mods}});
        dice += a.dice;
        hits = convolve(hits, unsaved_hits(a.dice, a.needed, a.armour));
      }
      std::vector<double>& res = result[static_cast<std::size_t>(side)];
      res.assign(static_cast<std::size_t>(sr.support), 0.0);
      res.insert(res.end(), hits.begin(), hits.end());
      double mean = 0;
      for (std::size_t k = 0; k < hits.size(); ++k) mean += static_cast<double>(k) * hits[k];
      sides.push_back({{"side", side}, {"units", sr.units}, {"dice", dice}, {"attacks", attacks},
                       {"support", sr.support}, {"supporting", sr.supporting}, {"hits", hits}, {"mean_hits", mean}});
    }
    double win0 = 0, draw = 0, win1 = 0;
    for (std::size_t a = 0; a < result[0].size(); ++a)
      for (std::size_t b = 0; b < result[1].size(); ++b) {
        const double p = result[0][a] * result[1][b];
        (a > b ? win0 : a == b ? draw : win1) += p;
      }
    engagements.push_back({{"engagement", round.engagement}, {"units", round.units}, {"sides", sides},
                           {"side_0_wins", win0}, {"draw", draw}, {"side_1_wins", win1}});
    t += fmt::format("Engagement {} ({}): side 0 wins {:.1f}%, draw {:.1f}%, side 1 wins {:.1f}%\n",
                     round.engagement + 1, fmt::join(round.units, ", "), 100 * win0, 100 * draw, 100 * win1);
  }
  if (engagements.empty()) t = "No engagement: nothing fights.\n";
  if (text) *text = t;
  return {{"side", s.side()}, {"rule", warmaster::rule_id::combat_hits}, {"engagements", engagements}};
}

// The verdict applying one planned move now would give (a move action of it alone).
Verdict verdict_of_move(const WarmasterState& s, const MoveRequest& req) {
  Action move;
  move.type = ActionType::Move;
  move.moves.push_back(req);
  return s.validate(move);
}

// The engine's own evade (WarmasterState::compute_evade, plan_evade), shown
// before a player chooses it: the stands' poses at its end, or why none.
// The charge a unit dragged next to an enemy makes (the board offers it when
// a drag of an ordered unit ends near one): the lined-up placement
// (plan_lined_up_charge, as the opponent's and initiative's charges) from
// where the unit stands, on the edge of `target` nearest the formation it was
// dragged to (`stands`, default where it stands now); where none is legal,
// the dragged formation slid straight into contact (plan_straight_charge),
// which the verdict then refuses with its reasons. The
// verdict is the one applying that move now would give (the movement rules
// and the Command phase's own: an order pending, contact with the target), so
// the board needs no second request to know whether it may charge.
Json charge_plan_query(const WarmasterState& s, const JsonReader& r, std::string* text) {
  r.allow_only({"unit", "target", "stands"});
  const Battlefield& bf = s.battlefield();
  const std::string unit = r.string("unit"), target = r.string("target");
  const Unit* u = bf.find_unit(unit);
  const Unit* e = bf.find_unit(target);
  if (!u) r.fail("unit", fmt::format("no unit \"{}\" on the battlefield", unit));
  if (!e) r.fail("target", fmt::format("no unit \"{}\" on the battlefield", target));
  if (e->side == u->side) r.fail("target", fmt::format("{} is on {}'s side", target, unit));
  Unit dragged = *u;
  if (r.has("stands")) {
    const JsonReader list = r.at("stands");
    const std::vector<JsonReader> items = list.items();
    if (items.size() != u->stands.size())
      list.fail(fmt::format("{} has {} stands, not {}", unit, u->stands.size(), items.size()));
    for (std::size_t k = 0; k < items.size(); ++k) {
      JsonReader p = items[k];
      p.require_object();
      p.allow_only({"x", "y", "facing"});
      dragged.stands[k].pose = {{p.number("x", -kCoordinateLimit, kCoordinateLimit), p.number("y", -kCoordinateLimit, kCoordinateLimit)},
                                normalize_degrees(p.number_or("facing", u->stands[k].pose.facing_deg, -3600, 3600))};
    }
  }
  // The lined-up placement from where the unit stands, the edge nearest the
  // dragged formation first (docs/rulings.md#warmaster-moving-chargers).
  MoveScratch scratch;
  std::optional<MoveRequest> planned =
      plan_lined_up_charge(bf, *u, *e, s.settings(), &s.move_index(), &scratch, &dragged);
  const bool lined_up = planned.has_value();
  const MoveRequest req = lined_up ? std::move(*planned) : plan_straight_charge(dragged, *e);
  double slide = 0;
  for (const StandPlan& sp : req.stands)
    slide = std::max(slide, distance(dragged.stands[sp.stand.slot()].pose.position, sp.final_pose.position));
  const Verdict v = verdict_of_move(s, req);
  Json j{{"rule", warmaster::rule_id::command_charge_contact}, {"unit", unit}, {"target", target},
         {"slide", milli(slide)}, {"lined_up", lined_up}, {"move", to_json(req)}, {"legal", v.legal()},
         {"violations", v.violations}};
  if (text)
    *text = fmt::format("{} charges {}: {}; {}\n", unit, target,
                        lined_up ? "lined up edge to edge" : fmt::format("slid {:.1f} cm further into contact", slide),
                        v.legal() ? "legal now" : "refused now:\n" + explain(v));
  return j;
}

// The stand a ruling names first: the move check begins a stand's rulings
// with its label ("stand 2, front-left corner moved ...", stand_label counts
// from 1), so the board can shade that stand. -1 when it names none.
int stand_named(const std::string& reason) {
  constexpr std::string_view kLead = "stand ";
  if (reason.compare(0, kLead.size(), kLead) != 0) return -1;
  int n = 0;
  std::size_t k = kLead.size();
  if (k >= reason.size() || !std::isdigit(static_cast<unsigned char>(reason[k]))) return -1;
  for (; k < reason.size() && std::isdigit(static_cast<unsigned char>(reason[k])) && n < 100000; ++k) n = n * 10 + (reason[k] - '0');
  return n - 1;
}

// A point given as {x, y}, within the table's coordinate limit.
Vec2 table_point(const JsonReader& p) {
  JsonReader o = p;
  o.require_object();
  o.allow_only({"x", "y"});
  return o.vec2(kCoordinateLimit);
}

// The board's formation helpers (formation_plans.hpp): a line facing a
// point (`toward`), or a column along a path drawn from the unit (`path`,
// the lead at its end), planned for the unit's pending move (an ordered move
// when none is pending), with the verdict applying it now would give and the
// stands at fault: those the rulings name, or every stand when a refusal
// names none. Nothing is moved.
Json formation_plan_query(const WarmasterState& s, const JsonReader& r, std::string* text) {
  r.allow_only({"unit", "shape", "toward", "path"});
  const Battlefield& bf = s.battlefield();
  const std::string unit = r.string("unit");
  const Unit* u = bf.find_unit(unit);
  if (!u) r.fail("unit", fmt::format("no unit \"{}\" on the battlefield", unit));
  if (u->stands.empty()) r.fail("unit", fmt::format("{} has no stands on the table", unit));
  const std::string shape = r.one_of("shape", {"line", "column"});
  const bool line = shape == "line";
  if (r.has(line ? "path" : "toward")) r.fail(line ? "path" : "toward", fmt::format("a {} takes {}", shape, line ? "\"toward\"" : "\"path\""));
  MoveKind kind = MoveKind::Ordered;
  const auto index = static_cast<int>(u - bf.units.data());
  if (const auto& p = s.pending(); p && p->kind && std::count(p->units.begin(), p->units.end(), index)) kind = *p->kind;
  std::optional<MoveRequest> req;
  Json j{{"unit", unit}, {"shape", shape}};
  std::vector<Vec2> path;
  std::string what;
  if (line) {
    const Vec2 toward = table_point(r.at("toward"));
    req = line_facing(*u, toward, kind);
    if (!req) r.fail("toward", fmt::format("{} is where {} stands: no way to face", pt(toward), unit));
    j["toward"] = point(toward);
    what = "line facing " + pt(toward);
  } else {
    const std::vector<JsonReader> items = r.items("path");
    if (items.size() > 1000) r.fail("path", fmt::format("{} points: at most 1000", items.size()));
    for (const JsonReader& p : items) {
      const Vec2 v = table_point(p);
      if (path.empty() || distance(path.back(), v) >= 0.05) path.push_back(v);
    }
    req = column_along(*u, path, kind);
    if (!req) r.fail("path", "a path needs two points at least 0.5 mm apart");
    j["length"] = milli(path_length(path));
    what = fmt::format("column along {:.1f} cm", path_length(path));
  }
  const Verdict v = verdict_of_move(s, *req);
  std::vector<int> faults;
  for (const Ruling& x : v.violations) {
    const int k = stand_named(x.reason);
    if (k >= 0 && k < static_cast<int>(u->stands.size()) && std::find(faults.begin(), faults.end(), k) == faults.end())
      faults.push_back(k);
  }
  if (!v.legal() && faults.empty())
    for (int k = 0; k < static_cast<int>(u->stands.size()); ++k) faults.push_back(k);
  std::sort(faults.begin(), faults.end());
  j["kind"] = to_string(kind);
  j["move"] = to_json(*req);
  j["legal"] = v.legal();
  j["violations"] = v.violations;
  j["faults"] = faults;
  if (text)
    *text = fmt::format("{} in {}: {}\n", unit, what, v.legal() ? "legal now" : "refused now:\n" + explain(v));
  return j;
}

Json evade_plan_query(const WarmasterState& s, const JsonReader& r, std::string* text) {
  r.allow_only({"unit", "enemy", "burst_through"});
  const Battlefield& bf = s.battlefield();
  const std::string unit = r.string("unit"), enemy = r.string("enemy");
  const Unit* u = bf.find_unit(unit);
  const Unit* e = bf.find_unit(enemy);
  if (!u) r.fail("unit", fmt::format("no unit \"{}\" on the battlefield", unit));
  if (!e) r.fail("enemy", fmt::format("no unit \"{}\" on the battlefield", enemy));
  if (e->side == u->side) r.fail("enemy", fmt::format("{} is on {}'s side", enemy, unit));
  std::vector<std::string> burst;
  if (r.has("burst_through"))
    for (const JsonReader& b : r.items("burst_through")) {
      burst.push_back(b.as_string());
      if (!bf.find_unit(burst.back())) b.fail(fmt::format("no unit \"{}\" on the battlefield", burst.back()));
    }
  const EvadeLine line = evade_line(*u, *e);
  const auto plan = s.compute_evade(unit, enemy, burst);
  Json j{{"rule", warmaster::rule_id::initiative_evade}, {"unit", unit}, {"enemy", enemy}, {"possible", plan.has_value()},
         {"line", {{"stand", line.stand.value()}, {"from", point(line.from)}, {"direction", point(line.direction)}}}};
  if (!plan) {
    if (text) *text = fmt::format("{} cannot evade {}: no legal slide along the evade line\n", unit, enemy);
    j["stands"] = Json::array();
    return j;
  }
  Json stands = Json::array();
  double moved = 0;
  for (const StandPlan& p : plan->stands) {
    const Pose& to = p.final_pose;
    stands.push_back({{"stand", p.stand.value()}, {"to", pose(to)}});
    if (p.stand.within(u->stands.size()))
      moved = std::max(moved, distance(u->stands[p.stand.slot()].pose.position, to.position));
  }
  j["stands"] = stands;
  j["distance"] = milli(moved);
  j["move"] = to_json(*plan);
  if (text) *text = fmt::format("{} evades {} by {:.1f} cm along the evade line\n", unit, enemy, moved);
  return j;
}

const Unit& unit_named(const Battlefield& bf, const JsonReader& r, std::string_view key) {
  const std::string id = r.string(key);
  const Unit* u = bf.find_unit(id);
  if (!u || u->stands.empty()) r.fail(key, fmt::format("no unit \"{}\" on the table", id));
  return *u;
}

// A unit's closest target, as its side's Shooting phase would pick it now
// (warmaster.shooting.target), or why it has none.
Json target_query(const WarmasterState& s, const JsonReader& r, std::string* text) {
  r.allow_only({"unit"});
  const Battlefield& bf = s.battlefield();
  const Unit& u = unit_named(bf, r, "unit");
  for (const ShootingTarget& t : shooting_targets(bf, u.side, s.settings()))
    if (t.shooter == u.id) {
      if (text) *text = t.rulings.back().rule + ": " + t.rulings.back().reason + "\n";
      return shooter_json(t, u.attacks * static_cast<int>(t.stands.size()));
    }
  const std::string why = fmt::format("{} has no missile weapon: it does not shoot", u.id);
  if (text) *text = std::string(warmaster::rule_id::shooting_no_target) + ": " + why + "\n";
  return {{"shooter", u.id}, {"target", nullptr}, {"rule", warmaster::rule_id::shooting_no_target}, {"reason", why}};
}

// The support a unit's combat would get now (warmaster.combat.support): the
// Combat phase laid out before a die is rolled, as combat_odds does, and for
// the engagement holding the unit, each side's supporting stands.
Json support_query(const WarmasterState& s, const JsonReader& r, std::string* text) {
  r.allow_only({"unit"});
  const Unit& u = unit_named(s.battlefield(), r, "unit");
  CombatOptions options;
  for (std::size_t i = 0; i < s.units().size(); ++i)
    if (s.units()[i].charged) options.charged.push_back(s.battlefield().units[i].id);
  OnesDice ones;
  const CombatReport rep = resolve_combat(s.battlefield(), s.side(), ones, options, s.settings());
  for (const CombatRound& round : rep.rounds) {
    if (round.round != 1 || std::find(round.units.begin(), round.units.end(), u.id) == round.units.end()) continue;
    Json sides = Json::array();
    std::string t = fmt::format("{} fights in engagement {} ({}):\n", u.id, round.engagement + 1, fmt::join(round.units, ", "));
    for (const CombatSideResult& side : round.sides) {
      sides.push_back({{"side", side.side}, {"units", side.units}, {"support", side.support}, {"supporting", side.supporting}});
      t += fmt::format("  side {}: {}{}\n", side.side, count_of(side.support, "supporting stand", "supporting stands"),
                       side.supporting.empty() ? std::string() : fmt::format(" ({})", fmt::join(side.supporting, ", ")));
    }
    if (text) *text = t;
    return {{"unit", u.id}, {"engaged", true}, {"engagement", round.units}, {"sides", sides},
            {"rule", warmaster::rule_id::combat_support}};
  }
  if (text) *text = u.id + " is in no engagement: no enemy stand touches it\n";
  return {{"unit", u.id}, {"engaged", false}, {"rule", warmaster::rule_id::combat_support},
          {"reason", u.id + " is in no engagement: no enemy stand touches it"}};
}

}  // namespace

Json answer_query(const WarmasterState& s, const std::string& name, const Json& args, const std::string& path,
                  std::string* text) {
  if (name == "shooting_odds" || name == "combat_odds" || name == "evade_plan" || name == "charge_plan" ||
      name == "formation_plan" || name == "target" || name == "support") {
    JsonReader r(args, path);
    r.require_object();
    if (name == "target") return target_query(s, r, text);
    if (name == "support") return support_query(s, r, text);
    if (name == "shooting_odds") return shooting_odds_query(s, r, text);
    if (name == "combat_odds") return combat_odds_query(s, r, text);
    if (name == "charge_plan") return charge_plan_query(s, r, text);
    if (name == "formation_plan") return formation_plan_query(s, r, text);
    return evade_plan_query(s, r, text);
  }
  if (name != "order_odds") return answer_query(s.battlefield(), s.settings(), name, args, path, text);
  JsonReader r(args, path);
  r.require_object();
  r.allow_only({"character", "units"});
  const std::string character = r.string("character");
  if (!s.battlefield().find_character(character)) r.fail("character", fmt::format("no character \"{}\" on the battlefield", character));
  std::vector<std::string> units;
  for (const JsonReader& u : r.items("units")) {
    units.push_back(u.as_string());
    if (!s.battlefield().find_unit(units.back())) u.fail(fmt::format("no unit \"{}\" on the battlefield", units.back()));
  }
  if (units.empty() || units.size() > 4) r.fail("units", "one unit, or a brigade of up to four");
  const WarmasterState::OrderQuestion q = s.ask_order(character, units);
  Json j = order_target_json(q.target);
  j["distance"] = q.factors.distance;
  j["legal"] = q.verdict.legal();
  j["violations"] = q.verdict.violations;
  // docs/rulings.md#warmaster-command-blunders: a Hero or Wizard blunders on a 12 (1 in 36).
  const bool can_blunder = s.settings().blunders &&
                           s.battlefield().find_character(character)->role != CharacterRole::General;
  j["blunder_chance"] = can_blunder ? Chance{1, 36} : Chance{0, 36};
  if (text) {
    *text = order_target_text(q.target);
    if (can_blunder) *text += "a 12 is a blunder: chance 1/36 (2.8%)\n";
    if (!q.verdict.legal()) *text += "but the order is not allowed now:\n" + explain(q.verdict) + "\n";
  }
  return j;
}

}  // namespace referee::warmaster
