#include "referee/warmaster/model/model.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "referee/warmaster/model/rule_ids.hpp"

namespace referee::warmaster {

namespace {
constexpr std::array<std::pair<TroopType, const char*>, 7> kTroopNames{{
    {TroopType::Infantry, "infantry"},
    {TroopType::Cavalry, "cavalry"},
    {TroopType::Chariot, "chariot"},
    {TroopType::Monster, "monster"},
    {TroopType::Artillery, "artillery"},
    {TroopType::Machine, "machine"},
    {TroopType::Flyer, "flyer"},
}};
constexpr std::array<std::pair<TerrainKind, const char*>, 16> kTerrainNames{{
    {TerrainKind::OpenHill, "open_hill"},
    {TerrainKind::SteepHill, "steep_hill"},
    {TerrainKind::Wood, "wood"},
    {TerrainKind::Village, "village"},
    {TerrainKind::BrokenGround, "broken_ground"},
    {TerrainKind::Marsh, "marsh"},
    {TerrainKind::GrownField, "grown_field"},
    {TerrainKind::ShallowRiver, "shallow_river"},
    {TerrainKind::DeepRiver, "deep_river"},
    {TerrainKind::Ford, "ford"},
    {TerrainKind::Bridge, "bridge"},
    {TerrainKind::LowObstacle, "low_obstacle"},
    {TerrainKind::HighObstacle, "high_obstacle"},
    {TerrainKind::Building, "building"},
    {TerrainKind::FortificationWall, "fortification_wall"},
    {TerrainKind::Impassable, "impassable"},
}};
constexpr std::array<std::pair<CharacterRole, const char*>, 3> kRoleNames{{
    {CharacterRole::General, "general"},
    {CharacterRole::Hero, "hero"},
    {CharacterRole::Wizard, "wizard"},
}};

constexpr std::array<std::pair<Missile, const char*>, 9> kMissileNames{{
    {Missile::None, "none"},
    {Missile::Bow, "bow"},
    {Missile::Crossbow, "crossbow"},
    {Missile::StoneThrower, "stone_thrower"},
    {Missile::Cannon, "cannon"},
    {Missile::BoltThrower, "bolt_thrower"},
    {Missile::Pistol, "pistol"},
    {Missile::GoblinBow, "goblin_bow"},
    {Missile::Handgun, "handgun"},
}};

template <typename E, std::size_t N>
const char* name_of(const std::array<std::pair<E, const char*>, N>& table, E e) {
  for (const auto& [k, n] : table)
    if (k == e) return n;
  return "?";
}
template <typename E, std::size_t N>
std::optional<E> parse(const std::array<std::pair<E, const char*>, N>& table, const std::string& s) {
  for (const auto& [k, n] : table)
    if (s == n) return k;
  return std::nullopt;
}
template <typename E, std::size_t N>
std::vector<std::string> names(const std::array<std::pair<E, const char*>, N>& table) {
  std::vector<std::string> out;
  for (const auto& [k, n] : table) out.emplace_back(n);
  return out;
}

template <typename T>
auto* find_by_id(T& items, const std::string& id) {
  auto it = std::find_if(items.begin(), items.end(), [&](const auto& x) { return x.id == id; });
  return it == items.end() ? nullptr : &*it;
}
}  // namespace

const Unit* Battlefield::find_unit(const std::string& id) const { return find_by_id(units, id); }
Unit* Battlefield::find_unit(const std::string& id) { return find_by_id(units, id); }
const Character* Battlefield::find_character(const std::string& id) const { return find_by_id(characters, id); }
Character* Battlefield::find_character(const std::string& id) { return find_by_id(characters, id); }

std::vector<std::string> remove_unit_and_characters(Battlefield& bf, const std::string& id) {
  std::vector<std::string> chars;
  for (const Character& c : bf.characters)
    if (c.joined_unit == id) chars.push_back(c.id);
  std::erase_if(bf.characters, [&](const Character& c) { return c.joined_unit == id; });
  std::erase_if(bf.units, [&](const Unit& u) { return u.id == id; });
  return chars;
}

Ruling characters_slain(const std::vector<std::string>& characters, const std::string& unit) {
  return {warmaster::rule_id::combat_characters,
          fmt::format("{} {} slain with {}: characters are slain if their unit is destroyed", fmt::join(characters, ", "),
                      characters.size() == 1 ? "is" : "are", unit),
          {{"slain", static_cast<double>(characters.size()), ""}}};
}

const char* to_string(TroopType t) { return name_of(kTroopNames, t); }
const char* to_string(TerrainKind k) { return name_of(kTerrainNames, k); }
const char* to_string(CharacterRole r) { return name_of(kRoleNames, r); }
std::optional<TroopType> troop_type_from_string(const std::string& s) { return parse(kTroopNames, s); }
std::optional<TerrainKind> terrain_kind_from_string(const std::string& s) { return parse(kTerrainNames, s); }
std::optional<CharacterRole> character_role_from_string(const std::string& s) { return parse(kRoleNames, s); }
std::vector<std::string> troop_type_names() { return names(kTroopNames); }
const char* to_string(Missile m) { return name_of(kMissileNames, m); }
std::optional<Missile> missile_from_string(const std::string& s) { return parse(kMissileNames, s); }
std::vector<std::string> missile_names() { return names(kMissileNames); }

double missile_range(Missile m) {
  switch (m) {
    case Missile::None: return 0;
    case Missile::Bow:
    case Missile::Crossbow:
    // Not in the play sheet's range table: 30 cm, as crossbows
    // (docs/rulings.md#warmaster-shooting-handguns).
    case Missile::Handgun: return 30;
    case Missile::StoneThrower:
    case Missile::Cannon: return 60;
    case Missile::BoltThrower: return 40;
    case Missile::Pistol:
    case Missile::GoblinBow: return 15;
  }
  return 0;
}
std::vector<std::string> terrain_kind_names() { return names(kTerrainNames); }
std::vector<std::string> character_role_names() { return names(kRoleNames); }

}  // namespace referee::warmaster
