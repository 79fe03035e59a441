// Army lists: troop profiles by name, so that a battle names a unit's troop
// ("troop": "halberdiers") instead of repeating its profile. A profile is
// the troop type and each stand's Attacks and Hits, the Armour save (a D6
// equal to or above it saves; 0: none), the missile weapon, whether it is
// terrifying, and whether it sees all round (docs/warmaster-format.md,
// "Army lists"). A list may also give character profiles: a role, a Command
// value and an Attacks bonus in combat (docs/rulings.md#warmaster-combat-characters).
//
// A battle file gives its list under "army_list": the name of a bundled list
// (scenarios/warmaster/army-lists/<name>.json, compiled into the library, so
// that loading a battle or replaying a log never opens a file), or the list
// itself, inline.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/warmaster/model/model.hpp"

namespace referee::warmaster {

inline constexpr std::size_t kMaxTroops = 500;  // profiles in one list

struct TroopProfile {
  std::string id;
  std::string army;   // which army's list it belongs to (for people)
  std::string name;   // the unit's name when the battle gives none
  TroopType type = TroopType::Infantry;
  int attacks = 0;
  int hits = 1;
  int armour = 0;
  Missile missile = Missile::None;
  bool terrifying = false;
  bool sees_all_round = false;
  bool operator==(const TroopProfile&) const = default;
};

// A General, Hero or Wizard of the list: "General Command 9, Attacks +2".
struct CharacterProfile {
  std::string id;
  std::string army;
  std::string name;
  CharacterRole role = CharacterRole::Hero;
  int command = 8;
  int attacks = 0;  // the bonus it adds to one stand of the unit it has joined
  bool flying = false;
  bool operator==(const CharacterProfile&) const = default;
};

struct ArmyList {
  std::string name;
  std::string description;
  std::vector<TroopProfile> troops;
  std::vector<CharacterProfile> characters;
  const TroopProfile* find(const std::string& id) const;
  const CharacterProfile* find_character(const std::string& id) const;
  bool operator==(const ArmyList&) const = default;
};

// Reads a list; a bad profile is an InputError naming the item and field
// under `path` ("army_list.troops[3].hits").
ArmyList parse_army_list(const nlohmann::json& j, const std::string& path = "army_list");
nlohmann::json to_json(const ArmyList& list);

// The bundled lists' names, and one by name (nullptr when there is none).
std::vector<std::string> bundled_army_list_names();
const ArmyList* bundled_army_list(const std::string& name);

// A unit naming `troop` takes its profile: type, attacks, hits, armour,
// missile, terrifying, sees all round, and its name when it has none.
void apply_profile(Unit& u, const TroopProfile& troop);

}  // namespace referee::warmaster
