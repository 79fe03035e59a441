// The move request file and the answer of `referee warmaster check`.
#include <set>

#include <fmt/format.h>

#include "referee/warmaster/movement/move_json.hpp"

namespace referee::warmaster {

namespace {

// A pose in a request; the facing defaults to the stand's facing before the move.
Pose read_request_pose(const JsonReader& r, double default_facing) {
  JsonReader self = r;
  self.require_object();
  r.allow_only({"x", "y", "facing"});
  return {{r.number("x", -kCoordinateLimit, kCoordinateLimit), r.number("y", -kCoordinateLimit, kCoordinateLimit)},
          normalize_degrees(r.number_or("facing", default_facing, -3600, 3600))};
}

std::vector<std::string> move_kind_names() {
  return {"ordered", "half_pace", "charge", "evade", "dice", "character"};
}

// Built key by key and moved into place: nlohmann's initializer lists copy
// every element, and every applied command action writes its moves here.
Json pose_json(const Pose& p) {
  Json j = Json::object();
  j["x"] = p.position.x;
  j["y"] = p.position.y;
  j["facing"] = p.facing_deg;
  return j;
}

std::string pose_text(const Pose& p) {
  return fmt::format("({:.2f}, {:.2f}) facing {:.1f}", p.position.x, p.position.y, p.facing_deg);
}

}  // namespace

MoveRequest parse_move_request(const Json& j, const Battlefield& bf) {
  JsonReader root(j, "");
  root.require_object();
  root.allow_only({"unit", "character", "kind", "stands", "order", "dice_distance", "target", "description"});
  root.string_or("description", "");
  MoveRequest req;
  bool is_unit = root.has("unit"), is_character = root.has("character");
  if (is_unit == is_character) root.fail("a move request names exactly one \"unit\" or one \"character\"");
  std::vector<Pose> starts;
  if (is_unit) {
    req.mover = root.string("unit");
    const Unit* u = bf.find_unit(req.mover);
    if (!u) root.fail("unit", fmt::format("no unit \"{}\" on the battlefield", req.mover));
    for (const auto& s : u->stands) starts.push_back(s.pose);
    req.kind = *move_kind_from_string(root.one_of_or("kind", move_kind_names(), "ordered"));
    if (req.kind == MoveKind::Character) root.fail("kind", "\"character\" moves name a \"character\", not a \"unit\"");
  } else {
    req.mover = root.string("character");
    const Character* c = bf.find_character(req.mover);
    if (!c) root.fail("character", fmt::format("no character \"{}\" on the battlefield", req.mover));
    starts.push_back(c->pose);
    req.kind = *move_kind_from_string(root.one_of_or("kind", move_kind_names(), "character"));
    if (req.kind != MoveKind::Character) root.fail("kind", "a character's own move has kind \"character\"");
  }
  std::set<int> listed;
  JsonReader stands = root.at("stands");
  stands.require_array();
  if (stands.size() == 0) stands.fail("list at least one stand that moves");
  for (const auto& s : stands.items()) {
    JsonReader sr = s;
    sr.require_object();
    s.allow_only({"stand", "waypoints", "to"});
    StandPlan plan;
    plan.stand = StandIndex(s.integer_or("stand", 0, 0, static_cast<int>(starts.size()) - 1));
    if (!listed.insert(plan.stand.value()).second)
      s.fail("stand", fmt::format("stand {} is listed twice", plan.stand.value()));
    double facing = starts[plan.stand.slot()].facing_deg;
    if (auto w = s.find("waypoints")) {
      if (w->size() > 64) w->fail("at most 64 waypoints");
      for (const auto& p : w->items()) {
        plan.waypoints.push_back(read_request_pose(p, facing));
        facing = plan.waypoints.back().facing_deg;
      }
    }
    plan.final_pose = read_request_pose(s.at("to"), facing);
    req.stands.push_back(std::move(plan));
  }
  if (auto o = root.find("order")) {
    std::set<int> seen;
    for (const auto& e : o->items()) {
      int i = e.as_integer(0, static_cast<int>(starts.size()) - 1);
      if (!listed.count(i)) e.fail(fmt::format("stand {} does not move in this request", i));
      if (!seen.insert(i).second) e.fail(fmt::format("stand {} is listed twice", i));
      req.order.push_back(StandIndex(i));
    }
    if (seen.size() != listed.size()) o->fail("the order must list every stand that moves, once each");
  }
  if (req.kind == MoveKind::Dice) {
    req.dice_distance = root.number("dice_distance", 0, 1000);
  } else if (root.has("dice_distance")) {
    root.fail("dice_distance", "only a \"dice\" move has a dice distance");
  }
  if (root.has("target")) {
    if (req.kind != MoveKind::Charge) root.fail("target", "only a \"charge\" names the unit it charges");
    req.charge_target = root.string("target");
    const Unit* t = bf.find_unit(req.charge_target);
    const Unit* self = bf.find_unit(req.mover);
    if (!t || (self && t->side == self->side))
      root.fail("target", fmt::format("\"{}\" is not an enemy unit", req.charge_target));
  }
  return req;
}

MoveRequest load_move_request_file(const std::string& path, const Battlefield& bf, std::uint64_t max_bytes) {
  const Json j = load_json_file(path, max_bytes);
  return naming_source(path, [&] { return parse_move_request(j, bf); });
}

Json to_json(const MoveRequest& req) {
  Json j;
  j[req.kind == MoveKind::Character ? "character" : "unit"] = req.mover;
  j["kind"] = to_string(req.kind);
  Json& stands = j["stands"] = Json::array();
  for (const auto& s : req.stands) {
    Json& js = stands.emplace_back(Json::object());
    js["stand"] = s.stand.value();
    js["to"] = pose_json(s.final_pose);
    if (!s.waypoints.empty()) {
      Json& w = js["waypoints"] = Json::array();
      for (const auto& p : s.waypoints) w.push_back(pose_json(p));
    }
  }
  if (!req.order.empty()) j["order"] = values_of(req.order);
  if (req.dice_distance) j["dice_distance"] = *req.dice_distance;
  if (!req.charge_target.empty()) j["target"] = req.charge_target;
  return j;
}

Json to_json(const MoveAnswer& a) {
  Json j;
  j["legal"] = a.verdict.legal();
  Json v = Json::array();
  for (const auto& r : a.verdict.violations) v.push_back(r);
  j["violations"] = v;
  j["formation"] = to_string(a.formation);
  j["pace"] = a.pace;
  j["allowance"] = a.allowance;
  j["order"] = values_of(a.order);
  Json routes = Json::array();
  for (const auto& r : a.routes) {
    Json poses = Json::array();
    for (const auto& p : r.poses) poses.push_back(pose_json(p));
    routes.push_back({{"stand", r.stand.value()}, {"poses", poses}, {"used", r.used}, {"planned", r.planned}});
  }
  j["routes"] = routes;
  j["leaves_table"] = a.leaves_table;
  return j;
}

std::string explain(const MoveAnswer& a, const MoveRequest& req) {
  std::string s = fmt::format("{} move of {} '{}': {}\n", to_string(req.kind),
                              req.kind == MoveKind::Character ? "character" : "unit", req.mover,
                              a.verdict.legal() ? "LEGAL" : "ILLEGAL");
  s += fmt::format("  formation at the start: {}; {}; each stand may move {}\n", to_string(a.formation), a.pace,
                   format_measure(a.allowance, "cm"));
  if (!a.order.empty()) {
    s += "  stands moved in the order (counted from 1):";
    for (StandIndex i : a.order) s += fmt::format(" {}", i.value() + 1);
    s += "\n";
  }
  for (const auto& r : a.routes) {
    if (r.poses.size() < 2) continue;
    s += fmt::format("  stand {}: {}{} over {} leg{}\n", r.stand.value() + 1, format_measure(r.used, "cm"),
                     r.planned ? " along a route the engine planned" : "", r.poses.size() - 1,
                     r.poses.size() == 2 ? "" : "s");
    for (const auto& p : r.poses) s += "      " + pose_text(p) + "\n";
  }
  if (a.leaves_table) s += "  the unit leaves the table: roll on the off-table chart (referee warmaster leave-table)\n";
  for (const auto& v : a.verdict.violations) s += "  - " + explain(v) + "\n";
  return s;
}

}  // namespace referee::warmaster
