// Army lists: parsing, the bundled lists, and a troop's profile on a unit.
#include "referee/warmaster/model/army_list.hpp"

#include <set>

#include <fmt/format.h>

#include "referee/core/errors.hpp"
#include "referee/core/json_io.hpp"

namespace referee::warmaster {

namespace detail {
const std::vector<std::pair<std::string_view, std::string_view>>& bundled_army_list_texts();
}

const TroopProfile* ArmyList::find(const std::string& id) const {
  for (const TroopProfile& t : troops)
    if (t.id == id) return &t;
  return nullptr;
}

const CharacterProfile* ArmyList::find_character(const std::string& id) const {
  for (const CharacterProfile& c : characters)
    if (c.id == id) return &c;
  return nullptr;
}

namespace {

// A list's "characters": each a role, Command and Attacks bonus
// (docs/rulings.md#warmaster-combat-characters).
void read_character_profiles(const JsonReader& r, ArmyList& list, std::set<std::string>& ids) {
  JsonReader chars = r.at("characters");
  chars.require_array();
  if (chars.size() > kMaxTroops) chars.fail(fmt::format("{} characters: at most {} are allowed", chars.size(), kMaxTroops));
  for (const JsonReader& c : chars.items()) {
    JsonReader item = c;
    item.require_object();
    item.allow_only({"id", "army", "name", "role", "command", "attacks", "flying"});
    CharacterProfile p;
    p.id = item.id("id");
    if (!ids.insert(p.id).second) item.fail("id", fmt::format("duplicate troop or character \"{}\"", p.id));
    p.army = item.string_or("army", "");
    p.name = item.string_or("name", p.id);
    p.role = *character_role_from_string(item.one_of("role", character_role_names()));
    p.command = item.integer("command", 1, 10);
    p.attacks = item.integer_or("attacks", 0, 0, kMaxCharacterAttacks);
    p.flying = item.boolean_or("flying", false);
    list.characters.push_back(std::move(p));
  }
}

}  // namespace

ArmyList parse_army_list(const nlohmann::json& j, const std::string& path) {
  JsonReader r(j, path);
  r.require_object();
  r.allow_only({"name", "description", "troops", "characters"});
  ArmyList list;
  list.name = r.string_or("name", "");
  list.description = r.string_or("description", "");
  JsonReader troops = r.at("troops");
  troops.require_array();
  if (troops.size() > kMaxTroops) troops.fail(fmt::format("{} troops: at most {} are allowed", troops.size(), kMaxTroops));
  std::set<std::string> ids;
  for (const JsonReader& t : troops.items()) {
    JsonReader item = t;
    item.require_object();
    item.allow_only({"id", "army", "name", "type", "attacks", "hits", "armour", "missile", "terrifying", "sees_all_round"});
    TroopProfile p;
    p.id = item.id("id");
    if (!ids.insert(p.id).second) item.fail("id", fmt::format("duplicate troop \"{}\"", p.id));
    p.army = item.string_or("army", "");
    p.name = item.string_or("name", p.id);
    p.type = *troop_type_from_string(item.one_of("type", troop_type_names()));
    p.attacks = item.integer("attacks", 0, 20);
    p.hits = item.integer("hits", 1, 20);
    p.armour = item.integer_or("armour", 0, 0, 6);
    p.missile = *missile_from_string(item.one_of_or("missile", missile_names(), "none"));
    p.terrifying = item.boolean_or("terrifying", false);
    p.sees_all_round = item.boolean_or("sees_all_round", false);
    list.troops.push_back(std::move(p));
  }
  if (r.has("characters")) read_character_profiles(r, list, ids);
  return list;
}

nlohmann::json to_json(const ArmyList& list) {
  nlohmann::json troops = nlohmann::json::array();
  for (const TroopProfile& p : list.troops) {
    nlohmann::json t{{"id", p.id},           {"name", p.name}, {"type", to_string(p.type)}, {"attacks", p.attacks},
                     {"hits", p.hits},       {"armour", p.armour}};
    if (!p.army.empty()) t["army"] = p.army;
    if (p.missile != Missile::None) t["missile"] = to_string(p.missile);
    if (p.terrifying) t["terrifying"] = true;
    if (p.sees_all_round) t["sees_all_round"] = true;
    troops.push_back(std::move(t));
  }
  nlohmann::json j{{"name", list.name}, {"troops", troops}};
  if (!list.description.empty()) j["description"] = list.description;
  if (!list.characters.empty()) {
    nlohmann::json chars = nlohmann::json::array();
    for (const CharacterProfile& c : list.characters) {
      nlohmann::json x{{"id", c.id}, {"name", c.name}, {"role", to_string(c.role)}, {"command", c.command},
                       {"attacks", c.attacks}};
      if (!c.army.empty()) x["army"] = c.army;
      if (c.flying) x["flying"] = true;
      chars.push_back(std::move(x));
    }
    j["characters"] = chars;
  }
  return j;
}

std::vector<std::string> bundled_army_list_names() {
  std::vector<std::string> out;
  for (const auto& [name, text] : detail::bundled_army_list_texts()) out.emplace_back(name);
  return out;
}

const ArmyList* bundled_army_list(const std::string& name) {
  // Parsed once: the bundled texts are part of the build and cannot change.
  static const std::vector<std::pair<std::string, ArmyList>> lists = [] {
    std::vector<std::pair<std::string, ArmyList>> out;
    for (const auto& [n, text] : detail::bundled_army_list_texts())
      out.emplace_back(std::string(n), parse_army_list(parse_json_text(std::string(text), std::string(n)),
                                                       std::string(n)));
    return out;
  }();
  for (const auto& [n, list] : lists)
    if (n == name) return &list;
  return nullptr;
}

void apply_profile(Unit& u, const TroopProfile& troop) {
  u.type = troop.type;
  u.attacks = troop.attacks;
  u.hits = troop.hits;
  u.armour = troop.armour;
  u.missile = troop.missile;
  u.terrifying = troop.terrifying;
  u.sees_all_round = troop.sees_all_round;
}

}  // namespace referee::warmaster
