#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "referee/blightmeer/io.hpp"
#include "referee/core/files.hpp"
#include "referee/core/json_io.hpp"

namespace referee::blightmeer {

namespace {

constexpr double kCoordLimit = 1000;

Polygon read_polygon(const JsonReader& r) {
  Polygon p;
  if (r.size() < 3) r.fail(fmt::format("a polygon needs at least 3 points, got {}", r.size()));
  if (r.size() > 256) r.fail("a polygon may have at most 256 points");
  for (const JsonReader& pt : r.items()) p.points.push_back(pt.vec2(kCoordLimit));
  if (!is_simple(p)) r.fail("the polygon intersects itself (or repeats a point)");
  if (std::abs(p.signed_area()) < 1e-6) r.fail("the polygon has no area");
  return p;
}

Vec3 read_vec3(const JsonReader& r) {
  if (r.json().is_array()) {
    if (r.size() != 3) r.fail(fmt::format("expected [x, y, z], got {} values", r.size()));
    return {r.at(std::size_t{0}).as_number(-kCoordLimit, kCoordLimit), r.at(std::size_t{1}).as_number(-kCoordLimit, kCoordLimit),
            r.at(std::size_t{2}).as_number(-kCoordLimit, kCoordLimit)};
  }
  JsonReader self = r;
  self.require_object();
  self.allow_only({"x", "y", "z"});
  return {r.number("x", -kCoordLimit, kCoordLimit), r.number("y", -kCoordLimit, kCoordLimit),
          r.number("z", -kCoordLimit, kCoordLimit)};
}


void check_id(const JsonReader& r, const std::string& id, std::set<std::string>& seen, const char* what) {
  if (id.empty()) r.fail("id", "must not be empty");
  if (!seen.insert(id).second) r.fail("id", fmt::format("another {} already has the id \"{}\"", what, id));
}

// A point where something stands: on the table, out of impassable ground,
// and exactly on the level there (lower is inside a wall, higher is mid-air).
void check_on_level(const Terrain& t, const JsonReader& r, Vec3 p, const std::string& what) {
  if (!t.on_table(p.xy())) r.fail(fmt::format("{} {} is off the {} x {} in table", what, position_words(p, 2), t.width, t.depth));
  double lvl = t.level_at(p.xy());
  if (p.z < lvl - kPlaceTolerance)
    r.fail(fmt::format("{} {} is inside a wall: the surface there is {:.2f} in high", what, position_words(p, 2), lvl));
  if (p.z > lvl + kPlaceTolerance)
    r.fail(fmt::format("{} {} is in mid-air: the level there is {:.2f} in", what, position_words(p, 2), lvl));
}

void read_unit(const JsonReader& r, Unit& u) {
  r.allow_only({"id", "name", "side", "position", "base", "move", "agility", "wounds", "armour", "animal", "large",
                "state", "traits"});
  u.id = r.id("id");
  u.name = r.string_or("name", u.id);
  u.side = r.string("side");
  u.pos = read_vec3(r.at("position"));
  u.base = r.number_or("base", 1.0, 0.25, 12);
  u.move = r.integer("move", 0, 40);
  u.agility = r.integer("agility", 1, 30);
  u.wounds = r.integer("wounds", 1, 50);
  std::string a = r.one_of_or("armour", {"none", "light", "heavy", "mithril"}, "none");
  u.armour = a == "light" ? Armour::light : a == "heavy" ? Armour::heavy : a == "mithril" ? Armour::mithril : Armour::none;
  u.animal = r.boolean_or("animal", false);
  u.large = r.boolean_or("large", false);
  if (auto st = r.find("state")) {
    st->allow_only({"dazed", "stunned", "staggered", "engaged_with", "tried_to_engage", "treasure", "incapacitated", "ran"});
    u.dazed = st->boolean_or("dazed", false);
    u.stunned = st->boolean_or("stunned", false);
    u.staggered = st->boolean_or("staggered", false);
    u.tried_to_engage = st->boolean_or("tried_to_engage", false);
    u.treasure = st->boolean_or("treasure", false);
    u.incapacitated = st->boolean_or("incapacitated", false);
    u.ran = st->boolean_or("ran", false);
    if (auto e = st->find("engaged_with"))
      for (const JsonReader& id : e->items()) u.engaged_with.push_back(id.as_string());
    if (u.treasure && (u.animal || u.large))
      st->fail("treasure", u.animal ? "an animal cannot carry Treasure" : "a large unit cannot carry Treasure");
  }
  if (auto tr = r.find("traits")) {
    tr->allow_only({"jump_across_reach", "fall_injury_modifier", "agility_advantage"});
    u.jump_across_reach = tr->number_or("jump_across_reach", 3.0, 0, 24);
    u.fall_injury_modifier = tr->integer_or("fall_injury_modifier", 0, -20, 20);
    u.agility_advantage = tr->boolean_or("agility_advantage", false);
  }
}

// docs/rulings.md#blightmeer-turn-order: "sides" fixes the play order; without
// it the sides play in the order units first name them. Every unit's side must
// be listed, and every listed side must have a unit (or the game would be over
// before it began).
void read_sides(const JsonReader& r, const std::vector<JsonReader>& units, Battle& b) {
  if (auto list = r.find("sides")) {
    for (const JsonReader& sr : list->items()) {
      std::string name = sr.as_string();
      if (name.empty()) sr.fail("a side name must not be empty");
      if (std::find(b.sides.begin(), b.sides.end(), name) != b.sides.end())
        sr.fail(fmt::format("the side \"{}\" is listed twice", name));
      b.sides.push_back(name);
    }
    for (std::size_t i = 0; i < b.sides.size(); ++i) {
      bool used = false;
      for (const Unit& u : b.state.units) used = used || u.side == b.sides[i];
      if (!used) list->at(i).fail(fmt::format("no unit is on the side \"{}\"", b.sides[i]));
    }
    for (std::size_t i = 0; i < b.state.units.size(); ++i) {
      const std::string& s = b.state.units[i].side;
      if (std::find(b.sides.begin(), b.sides.end(), s) == b.sides.end())
        units[i].fail("side", fmt::format("\"{}\" is not one of the sides listed in \"sides\"", s));
    }
  } else {
    for (const Unit& u : b.state.units)
      if (std::find(b.sides.begin(), b.sides.end(), u.side) == b.sides.end()) b.sides.push_back(u.side);
  }
}

void read_surfaces(const JsonReader& r, Terrain& t, std::set<std::string>& ids) {
  if (auto list = r.find("surfaces")) {
    for (const JsonReader& sr : list->items()) {
      sr.allow_only({"id", "height", "footprint", "climbable", "railing"});
      Surface s;
      s.id = sr.id("id");
      check_id(sr, s.id, ids, "surface");
      s.height = sr.number("height", 0.01, 100);
      s.footprint = read_polygon(sr.at("footprint"));
      s.climbable = sr.boolean_or("climbable", true);
      s.railing = sr.boolean_or("railing", false);
      s.box = s.footprint.bounds();
      t.surfaces.push_back(std::move(s));
    }
  }
}

// Regions lie on the ground or on a surface: `heights` are the surfaces', sorted.
void read_regions(const JsonReader& r, Terrain& t, std::set<std::string>& ids) {
  std::vector<double> heights;
  for (const Surface& s : t.surfaces) heights.push_back(s.height);
  std::sort(heights.begin(), heights.end());
  if (auto list = r.find("regions")) {
    for (const JsonReader& rr : list->items()) {
      rr.allow_only({"id", "kind", "area", "level"});
      Region g;
      g.id = rr.id("id");
      check_id(rr, g.id, ids, "region");
      std::string k = rr.one_of("kind", {"difficult", "impassable", "shallow_water", "deep_water"});
      g.kind = k == "impassable" ? RegionKind::impassable
               : k == "shallow_water" ? RegionKind::shallow_water
               : k == "deep_water" ? RegionKind::deep_water
                                   : RegionKind::difficult;
      g.area = read_polygon(rr.at("area"));
      g.level = rr.number_or("level", 0, 0, 100);
      // Some surface within kEps of the level: the first height above level - kEps decides.
      auto above = std::upper_bound(heights.begin(), heights.end(), g.level - kEps);
      bool known = g.level < kEps || (above != heights.end() && *above < g.level + kEps);
      if (!known) rr.fail("level", fmt::format("no surface is {:.2f} in high: a region lies on the ground (0) or on a surface", g.level));
      g.box = g.area.bounds();
      t.regions.push_back(std::move(g));
    }
  }
}

void read_low_terrain(const JsonReader& r, Terrain& t, std::set<std::string>& ids) {
  if (auto list = r.find("low_terrain")) {
    for (const JsonReader& lr : list->items()) {
      lr.allow_only({"id", "area", "height"});
      LowTerrain l;
      l.id = lr.id("id");
      check_id(lr, l.id, ids, "low terrain");
      l.height = lr.number_or("height", 1, 0, 100);
      if (l.height > 1 + kEps)
        lr.fail("height", fmt::format("{:.2f} in is more than 1 in: describe it as a surface", l.height));
      l.area = read_polygon(lr.at("area"));
      l.box = l.area.bounds();
      t.low_terrain.push_back(std::move(l));
    }
  }
}

// A ladder joins two surfaces (or a surface and the ground), its ends at most 3 in apart seen from above.
void read_ladders(const JsonReader& r, Terrain& t, std::set<std::string>& ids) {
  if (auto list = r.find("ladders")) {
    for (const JsonReader& lr : list->items()) {
      lr.allow_only({"id", "bottom", "top"});
      Ladder l;
      l.id = lr.id("id");
      check_id(lr, l.id, ids, "ladder");
      l.bottom = read_vec3(lr.at("bottom"));
      l.top = read_vec3(lr.at("top"));
      const char* ends[2] = {"bottom", "top"};
      for (int k = 0; k < 2; ++k) {
        Vec3 p = k ? l.top : l.bottom;
        JsonReader er = lr.at(ends[k]);
        if (!t.on_table(p.xy())) er.fail(fmt::format("{} is off the table", position_words(p, 2)));
        double lvl = t.level_at(p.xy());
        if (std::abs(lvl - p.z) > kPlaceTolerance)
          er.fail(fmt::format("the ladder does not join two surfaces: its {} {} is not on a surface or the ground "
                              "(the level there is {:.2f} in)",
                              ends[k], position_words(p, 2), lvl));
        if (t.in_impassable(p.xy())) er.fail("the ladder ends in impassable terrain");
      }
      if (l.top.z <= l.bottom.z + 0.1)
        lr.fail("top", fmt::format("the ladder does not join two surfaces: its top ({:.2f} in) must be higher than its "
                                   "bottom ({:.2f} in)",
                                   l.top.z, l.bottom.z));
      if (distance(l.bottom.xy(), l.top.xy()) > 3)
        lr.fail("top", "a ladder's ends may be at most 3 in apart seen from above");
      t.ladders.push_back(l);
    }
  }
}

void read_table_and_settings(const JsonReader& r, Terrain& t) {
  if (auto tb = r.find("table")) {
    tb->allow_only({"width", "depth"});
    t.width = tb->number_or("width", 36, 6, 120);
    t.depth = tb->number_or("depth", 36, 6, 120);
  }
  if (auto s = r.find("settings")) {
    s->allow_only({"climb_leeway", "mithril_sinks", "fall_clear_gap", "jump_down_range", "jump_across_reach",
                   "free_jump_gap", "disadvantage_drop"});
    Settings& st = t.settings;
    st.climb_leeway = s->number_or("climb_leeway", st.climb_leeway, 0, 6);
    st.mithril_sinks = s->boolean_or("mithril_sinks", st.mithril_sinks);
    st.fall_clear_gap = s->number_or("fall_clear_gap", st.fall_clear_gap, 0, 3);
    st.jump_down_range = s->number_or("jump_down_range", st.jump_down_range, 0, 12);
    st.jump_across_reach = s->number_or("jump_across_reach", st.jump_across_reach, 0, 12);
    st.free_jump_gap = s->number_or("free_jump_gap", st.free_jump_gap, 0, 6);
    st.disadvantage_drop = s->number_or("disadvantage_drop", st.disadvantage_drop, 0, 100);
  }
}

}  // namespace

Battle parse_battle(const nlohmann::json& j, const std::string& source) {
  JsonReader r(j, "");
  r.require_object();
  r.allow_only({"name", "table", "settings", "surfaces", "ladders", "regions", "low_terrain", "units", "sides", "turn_limit"});
  auto t = std::make_shared<Terrain>();
  t->name = r.string_or("name", source);
  t->turn_limit = r.integer_or("turn_limit", kDefaultTurnLimit, 1, 1000);
  read_table_and_settings(r, *t);
  // Caps first, before any work on the items (docs/rulings.md#blightmeer-caps).
  auto cap = [&](const char* field, std::size_t most) {
    if (auto list = r.find(field))
      if (list->json().is_array() && list->size() > most)
        list->fail(fmt::format("{} items: at most {} are allowed", list->size(), most));
  };
  cap("surfaces", kMaxSurfaces);
  cap("regions", kMaxRegions);
  cap("low_terrain", kMaxLowTerrain);
  cap("ladders", kMaxLadders);
  cap("units", kMaxUnits);
  std::set<std::string> ids;
  read_surfaces(r, *t, ids);
  // Ladders and units are placed on levels: the index keeps that quick.
  t->index_surfaces();
  read_regions(r, *t, ids);
  read_low_terrain(r, *t, ids);
  read_ladders(r, *t, ids);
  Battle b;
  b.source = source;
  std::set<std::string> unit_ids;
  auto units = r.items("units");
  for (const JsonReader& ur : units) {
    Unit u;
    read_unit(ur, u);
    check_id(ur, u.id, unit_ids, "unit");
    if (!u.incapacitated) {
      check_on_level(*t, ur.at("position"), u.pos, "the unit at");
      if (t->in_impassable(u.pos.xy())) ur.at("position").fail("the unit stands in impassable terrain");
    }
    b.state.units.push_back(std::move(u));
  }
  double reach = 6;
  for (std::size_t i = 0; i < b.state.units.size(); ++i) {
    const Unit& u = b.state.units[i];
    JsonReader ur = units[i];
    reach = std::max(reach, u.jump_across_reach);
    int o = overlapping_unit(b.state, static_cast<int>(i), u.pos, u.radius());
    if (!u.incapacitated && o >= 0 && o < static_cast<int>(i))
      ur.at("position").fail(fmt::format("the unit overlaps unit \"{}\"", b.state.units[static_cast<std::size_t>(o)].id));
    for (const std::string& e : u.engaged_with) {
      int k = b.state.find(e);
      if (k < 0) ur.at("state").fail("engaged_with", fmt::format("no unit \"{}\"", e));
      if (b.state.units[static_cast<std::size_t>(k)].side == u.side)
        ur.at("state").fail("engaged_with", fmt::format("\"{}\" is on the same side", e));
    }
  }
  read_sides(r, units, b);
  t->compile(reach);
  b.terrain = t;
  return b;
}

Battle parse_battle_text(std::string_view text, const std::string& source) {
  const Json j = parse_json_text(text, source);
  return naming_source(source, [&] { return parse_battle(j, source); });
}

Battle load_battle(const std::string& path, std::uint64_t max_bytes) {
  const Json j = load_json_file(path, max_bytes);
  return naming_source(path, [&] { return parse_battle(j, path); });
}

MoveRequest parse_move(const nlohmann::json& j, const std::string& path) {
  JsonReader r(j, path);
  r.require_object();
  r.allow_only({"unit", "mode", "path"});
  MoveRequest m;
  m.unit = r.string("unit");
  m.run = r.one_of_or("mode", {"move", "run"}, "move") == "run";
  auto steps = r.items("path");
  if (steps.empty()) r.fail("path", "a move needs at least one step");
  if (steps.size() > 100) r.fail("path", "at most 100 steps");
  for (const JsonReader& sr : steps) {
    sr.allow_only({"type", "to", "from", "ladder"});
    Step s;
    std::string type = sr.one_of("type", {"walk", "climb", "ladder", "jump_down", "jump_across"});
    s.type = type == "climb" ? StepType::climb
             : type == "ladder" ? StepType::ladder
             : type == "jump_down" ? StepType::jump_down
             : type == "jump_across" ? StepType::jump_across
                                     : StepType::walk;
    auto to = sr.find("to");
    if (s.type == StepType::ladder) {
      s.ladder = sr.string("ladder");
    } else if (sr.has("ladder")) {
      sr.fail("ladder", "only a ladder step names a ladder");
    }
    if (!to && s.type != StepType::ladder) sr.fail("to", "missing field");
    s.has_to = to.has_value();
    if (to) {
      if (to->json().is_array() && to->size() == 2) {
        s.to = to->vec2(kCoordLimit);
      } else if (to->json().is_object() && !to->has("z")) {
        s.to = to->vec2(kCoordLimit);
      } else {
        Vec3 p = read_vec3(*to);
        s.to = p.xy();
        s.to_z = p.z;
      }
    }
    if (auto f = sr.find("from")) s.from = read_vec3(*f);
    m.path.push_back(std::move(s));
  }
  return m;
}

std::vector<MoveRequest> parse_moves(const nlohmann::json& j) {
  std::vector<MoveRequest> out;
  if (j.is_object() && j.contains("moves")) {
    JsonReader r(j, "");
    r.allow_only({"moves"});
    auto items = r.items("moves");
    if (items.empty()) r.fail("moves", "no moves");
    for (const JsonReader& m : items) out.push_back(parse_move(m.json(), m.path()));
  } else {
    out.push_back(parse_move(j));
  }
  return out;
}

nlohmann::json vec3_json(Vec3 p) {
  auto r = [](double v) { return std::round(v * 1000) / 1000; };
  return nlohmann::json::array({r(p.x), r(p.y), r(p.z)});
}

nlohmann::json move_to_json(const MoveRequest& m) {
  nlohmann::json path = nlohmann::json::array();
  for (const Step& s : m.path) {
    nlohmann::json j{{"type", to_string(s.type)}};
    if (s.type == StepType::ladder) j["ladder"] = s.ladder;
    if (s.has_to) {
      // Exact values: a logged action must parse back to the same request.
      if (s.to_z) j["to"] = nlohmann::json::array({s.to.x, s.to.y, *s.to_z});
      else j["to"] = nlohmann::json::array({s.to.x, s.to.y});
    }
    if (s.from) j["from"] = nlohmann::json::array({s.from->x, s.from->y, s.from->z});
    path.push_back(j);
  }
  return {{"unit", m.unit}, {"mode", m.run ? "run" : "move"}, {"path", path}};
}

}  // namespace referee::blightmeer
