#include "referee/warmaster/battle/battlefield_json.hpp"

#include <fmt/ranges.h>

#include "referee/warmaster/model/army_list.hpp"
#include "referee/warmaster/movement/contact.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "referee/core/files.hpp"

namespace referee::warmaster {

namespace {

constexpr double kMaxStandEdge = 100.0;   // cm: any larger "stand" is a typo
constexpr int kMaxStands = 100;           // per unit

Vec2 read_point(const JsonReader& r) { return r.vec2(kCoordinateLimit); }

std::vector<Vec2> read_points(const JsonReader& arr) {
  std::vector<Vec2> pts;
  for (const auto& p : arr.items()) pts.push_back(read_point(p));
  return pts;
}

Pose read_pose(const JsonReader& r) {
  JsonReader self = r;
  self.require_object();
  return {{r.number("x", -kCoordinateLimit, kCoordinateLimit), r.number("y", -kCoordinateLimit, kCoordinateLimit)},
          normalize_degrees(r.number_or("facing", 0.0, -3600, 3600))};
}

// A terrain polygon is a closed ring (GeoJSON style: first point repeated
// last) so that a truncated list is detectable; the stored polygon drops
// the repeated point.
Polygon read_ring(const JsonReader& r) {
  JsonReader arr = r;
  arr.require_array();
  std::vector<Vec2> pts = read_points(arr);
  if (pts.size() < 4) r.fail(fmt::format("a closed ring needs at least 4 points (3 corners and the first repeated), got {}", pts.size()));
  if (!(pts.front() == pts.back()))
    r.fail(fmt::format("not closed: the last point ({:g}, {:g}) must repeat the first ({:g}, {:g})", pts.back().x,
                       pts.back().y, pts.front().x, pts.front().y));
  pts.pop_back();
  Polygon poly{pts};
  if (!is_simple(poly)) r.fail("the polygon intersects itself (or repeats a point)");
  if (std::abs(poly.signed_area()) < 1e-9) r.fail("the polygon has no area");
  return poly;
}

TerrainFeature read_terrain(const JsonReader& t) {
  JsonReader self = t;
  self.require_object();
  t.allow_only({"id", "kind", "polygon", "line", "width", "gateways", "blocks_sight", "name"});
  TerrainFeature f;
  f.id = t.id("id");
  f.kind = *terrain_kind_from_string(t.one_of("kind", terrain_kind_names()));
  if (t.has("blocks_sight")) f.blocks_sight = t.boolean_or("blocks_sight", false);
  bool has_poly = t.has("polygon"), has_line = t.has("line");
  if (has_poly == has_line) t.fail("a terrain feature needs exactly one of \"polygon\" (an area) or \"line\" (a linear feature)");
  if (has_poly) {
    if (t.has("width")) t.fail("width", "only a linear feature (\"line\") has a width");
    if (t.has("gateways")) t.fail("gateways", "only a fortification_wall drawn as a \"line\" has gateways");
    f.pieces.push_back(read_ring(t.at("polygon")));
  } else {
    JsonReader line = t.at("line");
    line.require_array();
    f.line = read_points(line);
    if (f.line.size() < 2) line.fail("a line needs at least 2 points");
    double total = 0;
    for (std::size_t i = 0; i + 1 < f.line.size(); ++i) {
      double len = distance(f.line[i], f.line[i + 1]);
      if (len < 1e-6) line.fail(fmt::format("points {} and {} are the same point", i, i + 1));
      total += len;
    }
    f.width = t.number("width", 0.01, 1000);
    if (auto gws = t.find("gateways")) {
      if (f.kind != TerrainKind::FortificationWall)
        gws->fail("only a fortification_wall has gateways");
      for (const auto& g : gws->items()) {
        JsonReader gr = g;
        gr.require_object();
        g.allow_only({"at", "width"});
        TerrainFeature::Gateway gw{g.number("at", 0, total), g.number("width", 0.01, total)};
        f.gateways.push_back(gw);
      }
    }
    f.pieces = linear_pieces(f.line, f.width, f.gateways);
  }
  if (f.pieces.empty()) t.fail("the gateways leave nothing of the wall");
  f.bounds = f.pieces.front().bounds();
  for (const auto& p : f.pieces) f.bounds = f.bounds.merged(p.bounds());
  return f;
}

Unit read_unit(const JsonReader& u, int side, const ArmyList* list) {
  JsonReader self = u;
  self.require_object();
  u.allow_only({"id", "name", "type", "troop", "stands", "frontage", "depth", "pace", "stands_lost", "engaged",
                "confused", "fortified", "sees_all_round", "attacks", "hits", "armour", "missile", "terrifying"});
  Unit unit;
  unit.side = side;
  unit.id = u.id("id");
  // A unit names its troop in the army list, or gives its profile itself.
  const TroopProfile* troop = nullptr;
  if (u.has("troop")) {
    const std::string name = u.string("troop");
    if (!list) u.fail("troop", fmt::format("names troop \"{}\", but the battle gives no army_list", name));
    troop = list->find(name);
    if (!troop) u.fail("troop", fmt::format("no troop \"{}\" in army list \"{}\"", name, list->name));
    for (const char* key : {"type", "attacks", "hits", "armour", "missile", "terrifying", "sees_all_round"})
      if (u.has(key))
        u.fail(key, fmt::format("given by its troop \"{}\": a unit names a troop or gives its profile, not both", name));
  }
  unit.name = u.string_or("name", troop ? troop->name : unit.id);
  unit.type = troop ? troop->type : *troop_type_from_string(u.one_of("type", troop_type_names()));
  Vec2 size = default_stand_size(unit.type);
  unit.width = size.x;
  unit.depth = size.y;
  if (u.has("frontage")) {
    unit.width = u.number("frontage", 0.1, kMaxStandEdge);
    // The other edge of a 40 x 20 mm stand, unless given.
    if (std::abs(unit.width - 4.0) < 1e-9) unit.depth = 2.0;
    else if (std::abs(unit.width - 2.0) < 1e-9) unit.depth = 4.0;
  }
  unit.depth = u.number_or("depth", unit.depth, 0.1, kMaxStandEdge);
  if (unit.type == TroopType::Machine) {
    unit.machine_pace = u.number("pace", 0.1, 1000);
  } else if (u.has("pace")) {
    u.fail("pace", "only a machine has its own pace (the troop type sets everyone else's)");
  }
  unit.stands_lost = u.integer_or("stands_lost", 0, 0, kMaxStands);
  unit.engaged = u.boolean_or("engaged", false);
  unit.confused = u.boolean_or("confused", false);
  unit.fortified = u.boolean_or("fortified", false);
  unit.sees_all_round = u.boolean_or("sees_all_round", false);  // a troop's own is applied below
  if (troop) {
    apply_profile(unit, *troop);
  } else {
    unit.attacks = u.integer_or("attacks", 0, 0, 20);
    unit.hits = u.integer_or("hits", 0, 0, 20);
    if (unit.attacks > 0 && unit.hits == 0) u.fail("hits", "a unit with attacks needs its hits (1 or more)");
    unit.armour = u.integer_or("armour", 0, 0, 6);
    unit.missile = *missile_from_string(u.one_of_or("missile", missile_names(), "none"));
    unit.terrifying = u.boolean_or("terrifying", false);
  }
  JsonReader stands = u.at("stands");
  stands.require_array();
  if (stands.size() == 0) stands.fail("a unit needs at least one stand on the table");
  if (stands.size() > static_cast<std::size_t>(kMaxStands)) stands.fail(fmt::format("more than {} stands", kMaxStands));
  for (const auto& s : stands.items()) {
    s.allow_only({"x", "y", "facing"});
    unit.stands.push_back({read_pose(s)});
  }
  return unit;
}

// A character names its profile in the army list ("troop"), or gives its
// role, Command and Attacks bonus itself; Attacks defaults to 0
// (docs/rulings.md#warmaster-combat-characters).
Character read_character(const JsonReader& c, int side, const ArmyList* list) {
  JsonReader self = c;
  self.require_object();
  c.allow_only({"id", "name", "troop", "role", "command", "attacks", "flying", "x", "y", "facing", "base_diameter",
                "stand", "joined_unit"});
  Character ch;
  ch.side = side;
  ch.id = c.id("id");
  const CharacterProfile* profile = nullptr;
  if (c.has("troop")) {
    const std::string name = c.string("troop");
    if (!list) c.fail("troop", fmt::format("names troop \"{}\", but the battle gives no army_list", name));
    profile = list->find_character(name);
    if (!profile) c.fail("troop", fmt::format("no character \"{}\" in army list \"{}\"", name, list->name));
    for (const char* key : {"role", "command", "attacks"})
      if (c.has(key))
        c.fail(key,
               fmt::format("given by its troop \"{}\": a character names a troop or gives its profile, not both", name));
  }
  ch.name = c.string_or("name", profile ? profile->name : ch.id);
  if (profile) {
    ch.role = profile->role;
    ch.command = profile->command;
    ch.attacks = profile->attacks;
    ch.flying = c.boolean_or("flying", profile->flying);  // a mount is the battle's choice
  } else {
    ch.role = *character_role_from_string(c.one_of("role", character_role_names()));
    ch.command = c.integer("command", 1, 10);
    ch.attacks = c.integer_or("attacks", 0, 0, kMaxCharacterAttacks);
    ch.flying = c.boolean_or("flying", false);
  }
  ch.pose = read_pose(c);
  ch.base_diameter = c.number_or("base_diameter", 2.5, 0.1, kMaxStandEdge);
  if (auto st = c.find("stand")) {
    JsonReader s = *st;
    s.require_object();
    s.allow_only({"width", "depth"});
    ch.stand_size = Vec2{s.number("width", 0.1, kMaxStandEdge), s.number("depth", 0.1, kMaxStandEdge)};
  }
  ch.joined_unit = c.string_or("joined_unit", "");
  return ch;
}

// Stands may touch but not overlap at the start (movement text: a stand
// cannot be in another's base area). Checked with the spatial index so big
// battles stay cheap.
void check_no_overlaps(const Battlefield& bf, const Settings& settings) {
  struct Ref {
    std::size_t unit, stand;
    OrientedRect rect;
  };
  std::vector<Ref> refs;
  for (std::size_t u = 0; u < bf.units.size(); ++u)
    for (std::size_t s = 0; s < bf.units[u].stands.size(); ++s) refs.push_back({u, s, bf.units[u].footprint(s)});
  if (refs.empty()) return;
  Aabb world = refs.front().rect.bounds();
  for (const auto& r : refs) world = world.merged(r.rect.bounds());
  GridIndex index(world, 10.0);
  for (std::size_t i = 0; i < refs.size(); ++i) index.insert(static_cast<int>(i), refs[i].rect.bounds());
  index.lay_out();
  std::vector<int> near;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    near.clear();
    index.query(refs[i].rect.bounds(), near);
    for (int j : near) {
      if (static_cast<std::size_t>(j) <= i) continue;
      const Ref& a = refs[i];
      const Ref& b = refs[static_cast<std::size_t>(j)];
      if (!overlaps(a.rect, b.rect, settings.contact_tolerance)) continue;
      // Name the stand as the file does: armies[side].units[k].stands[s].
      std::size_t k = 0;
      for (std::size_t u = 0; u < b.unit; ++u) k += bf.units[u].side == bf.units[b.unit].side;
      throw InputError(fmt::format("armies[{}].units[{}].stands[{}]", bf.units[b.unit].side, k, b.stand),
                       fmt::format("stand {} of unit '{}' overlaps stand {} of unit '{}' by {} (touching is fine)",
                                   b.stand + 1, bf.units[b.unit].id, a.stand + 1, bf.units[a.unit].id,
                                   format_measure(penetration(a.rect, b.rect), "cm")));
    }
  }
}

Json pose_json(const Pose& p) {
  return Json{{"x", p.position.x}, {"y", p.position.y}, {"facing", p.facing_deg}};
}

Json points_json(const std::vector<Vec2>& pts) {
  Json a = Json::array();
  for (const auto& p : pts) a.push_back(Json::array({p.x, p.y}));
  return a;
}

}  // namespace

Vec2 default_stand_size(TroopType t) { return t == TroopType::Infantry ? Vec2{4.0, 2.0} : Vec2{2.0, 4.0}; }

std::vector<Polygon> linear_pieces(const std::vector<Vec2>& line, double width,
                                   const std::vector<TerrainFeature::Gateway>& gateways) {
  std::vector<Polygon> out;
  double half = width / 2;
  double start = 0;
  for (std::size_t i = 0; i + 1 < line.size(); ++i) {
    Vec2 a = line[i], b = line[i + 1];
    double len = distance(a, b);
    if (len <= 0) continue;
    double end = start + len;
    // The parts of [start, end] not inside a gateway.
    std::vector<std::pair<double, double>> parts{{start, end}};
    for (const auto& g : gateways) {
      double g0 = g.at - g.width / 2, g1 = g.at + g.width / 2;
      std::vector<std::pair<double, double>> next;
      for (auto [p0, p1] : parts) {
        if (g1 <= p0 || g0 >= p1) {
          next.push_back({p0, p1});
          continue;
        }
        if (g0 > p0) next.push_back({p0, g0});
        if (g1 < p1) next.push_back({g1, p1});
      }
      parts = std::move(next);
    }
    Vec2 d = (b - a) / len;
    Vec2 n = perp(d) * half;
    for (auto [p0, p1] : parts) {
      // Close the joint with the neighbouring segment by overlapping it.
      double e0 = (p0 == start && i > 0) ? half : 0.0;
      double e1 = (p1 == end && i + 2 < line.size()) ? half : 0.0;
      Vec2 s = a + d * (p0 - start - e0);
      Vec2 e = a + d * (p1 - start + e1);
      if (distance(s, e) < 1e-9) continue;
      out.push_back(Polygon{{s - n, e - n, e + n, s + n}});
    }
    start = end;
  }
  return out;
}

namespace parse_battlefield_parts {

// The army list: a bundled one by name, or the list itself (kept in
// `inline_list`); null when the file names none.
const ArmyList* read_army_list(const JsonReader& root, std::optional<ArmyList>& inline_list) {
  const ArmyList* list = nullptr;
  if (auto al = root.find("army_list")) {
    if (al->json().is_string()) {
      list = bundled_army_list(al->as_string());
      if (!list)
        al->fail(fmt::format("no bundled army list \"{}\" (bundled: {})", al->as_string(),
                             fmt::join(bundled_army_list_names(), ", ")));
    } else {
      inline_list = parse_army_list(al->json(), al->path());
      list = &*inline_list;
    }
  }
  return list;
}

// Caps before any work on the items: both armies' lists together.
void check_army_caps(const JsonReader& armies) {
  std::size_t units = 0, characters = 0;
  for (std::size_t side = 0; side < 2; ++side) {
    JsonReader a = armies.at(side);
    a.require_object();
    if (auto us = a.find("units"); us && us->json().is_array()) {
      units += us->size();
      if (units > kMaxUnits)
        us->fail(fmt::format("{} units in the two armies: at most {} are allowed", units, kMaxUnits));
    }
    if (auto cs = a.find("characters"); cs && cs->json().is_array()) {
      characters += cs->size();
      if (characters > kMaxCharacters)
        cs->fail(fmt::format("{} characters in the two armies: at most {} are allowed", characters, kMaxCharacters));
    }
  }
}

// A joined character joins a unit of its own army.
void check_joined_units(const Battlefield& bf) {
  for (std::size_t i = 0; i < bf.characters.size(); ++i) {
    const Character& ch = bf.characters[i];
    if (ch.joined_unit.empty()) continue;
    const Unit* u = bf.find_unit(ch.joined_unit);
    if (!u || u->side != ch.side)
      throw InputError(fmt::format("characters[{}].joined_unit", i),
                       fmt::format("\"{}\" is not a unit of the character's own army", ch.joined_unit));
  }
}

}  // namespace parse_battlefield_parts

Battlefield parse_battlefield(const Json& j, Settings* settings) {
  JsonReader root(j, "");
  root.require_object();
  root.allow_only({"name", "description", "table", "settings", "army_list", "terrain", "armies"});
  Battlefield bf;
  bf.name = root.string_or("name", "");
  root.string_or("description", "");
  if (auto t = root.find("table")) {
    JsonReader tr = *t;
    tr.require_object();
    tr.allow_only({"width", "height"});
    bf.width = tr.number_or("width", 180.0, 1.0, kCoordinateLimit);
    bf.height = tr.number_or("height", 120.0, 1.0, kCoordinateLimit);
  }
  Settings local;
  if (auto s = root.find("settings")) local = settings_from_json(s->json(), "settings");
  if (settings) *settings = local;

  // The army list: a bundled one by name, or the list itself.
  std::optional<ArmyList> inline_list;
  const ArmyList* list = parse_battlefield_parts::read_army_list(root, inline_list);
  std::set<std::string> ids;
  auto claim = [&](const JsonReader& item, const std::string& id) {
    if (!ids.insert(id).second) item.fail("id", fmt::format("duplicate id \"{}\"", id));
  };
  if (auto terrain = root.find("terrain")) {
    if (terrain->json().is_array() && terrain->size() > kMaxTerrainFeatures)
      terrain->fail(fmt::format("{} features: at most {} are allowed", terrain->size(), kMaxTerrainFeatures));
    for (const auto& t : terrain->items()) {
      bf.terrain.push_back(read_terrain(t));
      claim(t, bf.terrain.back().id);
    }
  }
  JsonReader armies = root.at("armies");
  armies.require_array();
  if (armies.size() != 2) armies.fail(fmt::format("expected exactly two armies, got {}", armies.size()));
  parse_battlefield_parts::check_army_caps(armies);
  std::vector<std::optional<bool>> engaged_given;  // per unit, the file's "engaged" if it gave one
  for (int side = 0; side < 2; ++side) {
    JsonReader a = armies.at(static_cast<std::size_t>(side));
    a.require_object();
    a.allow_only({"name", "units", "characters", "break_point"});
    bf.armies.push_back({a.string_or("name", side == 0 ? "army 0" : "army 1"),
                         a.integer_or("break_point", 0, 1, static_cast<int>(kMaxUnits))});
    for (const auto& u : a.items("units")) {
      bf.units.push_back(read_unit(u, side, list));
      claim(u, bf.units.back().id);
      engaged_given.push_back(u.has("engaged") ? std::optional<bool>(bf.units.back().engaged) : std::nullopt);
    }
    int generals = 0;
    if (auto cs = a.find("characters")) {
      for (const auto& c : cs->items()) {
        bf.characters.push_back(read_character(c, side, list));
        const Character& ch = bf.characters.back();
        claim(c, ch.id);
        if (ch.role == CharacterRole::General && ++generals > 1)
          c.fail("role", "an army has at most one General");
      }
    }
  }
  parse_battlefield_parts::check_joined_units(bf);
  check_no_overlaps(bf, local);
  // Engaged is contact, worked out from the stands; a flag that says
  // otherwise is a mistake in the file (docs/rulings.md#warmaster-engaged).
  if (const auto wrong = check_engaged_flags(bf, engaged_given, local.contact_tolerance)) {
    const Unit& u = bf.units[wrong->unit];
    std::size_t k = 0;
    for (std::size_t i = 0; i < wrong->unit; ++i) k += bf.units[i].side == u.side;
    throw InputError(fmt::format("armies[{}].units[{}].engaged", u.side, k), wrong->reason);
  }
  mark_engaged(bf, local.contact_tolerance);
  return bf;
}

BattlefieldFile load_battlefield_file(const std::string& path, std::uint64_t max_bytes) {
  const Json j = load_json_file(path, max_bytes);
  BattlefieldFile f;
  f.battlefield = naming_source(path, [&] { return parse_battlefield(j, &f.settings); });
  f.warnings = formation_warnings(f.battlefield, f.settings);
  return f;
}

Json to_json(const Battlefield& bf, const Settings* settings) {
  Json j;
  j["name"] = bf.name;
  j["table"] = {{"width", bf.width}, {"height", bf.height}};
  if (settings) {
    Json s;
    to_json(s, *settings);
    j["settings"] = s;
  }
  Json terrain = Json::array();
  for (const auto& f : bf.terrain) {
    Json t{{"id", f.id}, {"kind", to_string(f.kind)}};
    if (!f.line.empty()) {
      t["line"] = points_json(f.line);
      t["width"] = f.width;
      if (!f.gateways.empty()) {
        Json g = Json::array();
        for (const auto& gw : f.gateways) g.push_back({{"at", gw.at}, {"width", gw.width}});
        t["gateways"] = g;
      }
    } else if (!f.pieces.empty()) {
      std::vector<Vec2> ring = f.pieces.front().points;
      if (!ring.empty()) ring.push_back(ring.front());
      t["polygon"] = points_json(ring);
    }
    if (f.blocks_sight) t["blocks_sight"] = *f.blocks_sight;
    terrain.push_back(t);
  }
  j["terrain"] = terrain;
  Json armies = Json::array();
  for (int side = 0; side < 2; ++side) {
    Json a{{"name", side < static_cast<int>(bf.armies.size()) ? bf.armies[static_cast<std::size_t>(side)].name : ""}};
    if (side < static_cast<int>(bf.armies.size()) && bf.armies[static_cast<std::size_t>(side)].break_point > 0)
      a["break_point"] = bf.armies[static_cast<std::size_t>(side)].break_point;
    Json units = Json::array();
    for (const auto& u : bf.units) {
      if (u.side != side) continue;
      Json ju{{"id", u.id}, {"name", u.name}, {"type", to_string(u.type)}, {"frontage", u.width}, {"depth", u.depth}};
      if (u.type == TroopType::Machine) ju["pace"] = u.machine_pace;
      if (u.stands_lost) ju["stands_lost"] = u.stands_lost;
      if (u.engaged) ju["engaged"] = true;
      if (u.confused) ju["confused"] = true;
      if (u.fortified) ju["fortified"] = true;
      if (u.sees_all_round) ju["sees_all_round"] = true;
      if (u.attacks) ju["attacks"] = u.attacks;
      if (u.hits) ju["hits"] = u.hits;
      if (u.armour) ju["armour"] = u.armour;
      if (u.missile != Missile::None) ju["missile"] = to_string(u.missile);
      if (u.terrifying) ju["terrifying"] = true;
      Json st = Json::array();
      for (const auto& s : u.stands) st.push_back(pose_json(s.pose));
      ju["stands"] = st;
      units.push_back(ju);
    }
    a["units"] = units;
    Json chars = Json::array();
    for (const auto& c : bf.characters) {
      if (c.side != side) continue;
      Json jc = pose_json(c.pose);
      jc["id"] = c.id;
      jc["name"] = c.name;
      jc["role"] = to_string(c.role);
      jc["command"] = c.command;
      if (c.attacks != 0) jc["attacks"] = c.attacks;
      if (c.flying) jc["flying"] = true;
      if (c.base_diameter != 2.5) jc["base_diameter"] = c.base_diameter;
      if (c.stand_size) jc["stand"] = {{"width", c.stand_size->x}, {"depth", c.stand_size->y}};
      if (!c.joined_unit.empty()) jc["joined_unit"] = c.joined_unit;
      chars.push_back(jc);
    }
    a["characters"] = chars;
    armies.push_back(a);
  }
  j["armies"] = armies;
  return j;
}

}  // namespace referee::warmaster
