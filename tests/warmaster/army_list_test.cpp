// Army lists (army_list.hpp): the bundled list of two armies' troop
// profiles, battles that name a troop instead of repeating its profile, and
// errors that name the bad item.
#include <gtest/gtest.h>

#include "referee/core/json_io.hpp"
#include "referee/warmaster/model/army_list.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/game_interface.hpp"
#include "support/input_error.hpp"

namespace referee::warmaster {
namespace {

using test_support::error_of;

const std::string kScenarios = std::string(REFEREE_SOURCE_DIR) + "/scenarios/warmaster/";

TEST(ArmyList, TheBundledListHoldsTwoArmiesProfiles) {
  EXPECT_EQ(bundled_army_list_names(), std::vector<std::string>{"empire-orcs"});
  const ArmyList* list = bundled_army_list("empire-orcs");
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(list->troops.size(), 14u);
  // The compiled-in copy is the file in scenarios/.
  EXPECT_EQ(*list, parse_army_list(load_json_file(kScenarios + "army-lists/empire-orcs.json")));
  const TroopProfile* h = list->find("halberdiers");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->type, TroopType::Infantry);
  EXPECT_EQ(h->attacks, 3);
  EXPECT_EQ(h->hits, 3);
  EXPECT_EQ(h->armour, 6);
  const TroopProfile* g = list->find("giant");
  ASSERT_NE(g, nullptr);
  EXPECT_TRUE(g->terrifying);
  EXPECT_EQ(g->hits, 8);
  EXPECT_EQ(list->find("wolf-riders")->missile, Missile::GoblinBow);
  // Handgunners shoot handguns, not crossbows (docs/rulings.md#warmaster-shooting-handguns).
  EXPECT_EQ(list->find("handgunners")->missile, Missile::Handgun);
  EXPECT_TRUE(list->find("wolf-riders")->sees_all_round);
  EXPECT_EQ(bundled_army_list("elves"), nullptr);
}

// default.json names each unit's troop; shooting.json is the same battle
// with every profile written out: the two give the same units.
TEST(ArmyList, ABattleNamingTroopsGetsTheirProfiles) {
  const Battlefield named = load_battlefield_file(kScenarios + "default.json").battlefield;
  const Battlefield written = load_battlefield_file(kScenarios + "shooting.json").battlefield;
  ASSERT_EQ(named.units.size(), written.units.size());
  for (std::size_t i = 0; i < named.units.size(); ++i) {
    const Unit &a = named.units[i], &b = written.units[i];
    EXPECT_EQ(a.id, b.id);
    EXPECT_EQ(a.name, b.name) << a.id;
    EXPECT_EQ(a.type, b.type) << a.id;
    EXPECT_EQ(a.attacks, b.attacks) << a.id;
    EXPECT_EQ(a.hits, b.hits) << a.id;
    EXPECT_EQ(a.armour, b.armour) << a.id;
    EXPECT_EQ(a.missile, b.missile) << a.id;
    EXPECT_EQ(a.terrifying, b.terrifying) << a.id;
    EXPECT_EQ(a.sees_all_round, b.sees_all_round) << a.id;
  }
}

TEST(ArmyList, AGameCarriesTheBundledListItUsed) {
  const Json battle = load_json_file(kScenarios + "default.json");
  const auto game = load_game(battle, "default.json", Json::object());
  const Json& carried = game->scenario().at("army_list");
  ASSERT_TRUE(carried.is_object()) << "the log's battle holds the list itself, not its name";
  EXPECT_EQ(parse_army_list(carried), *bundled_army_list("empire-orcs"));
  // And that battle loads again as it stands (a replay never opens a file).
  EXPECT_EQ(load_game(game->scenario(), "log", Json::object())->scenario(), game->scenario());
}

Json small_battle() {
  return Json::parse(R"({
    "army_list": {"name": "mine", "troops": [
      {"id": "spears", "type": "infantry", "attacks": 3, "hits": 3, "armour": 6},
      {"id": "bows", "type": "infantry", "attacks": 1, "hits": 3, "missile": "bow"}]},
    "armies": [
      {"name": "a", "units": [{"id": "u", "troop": "bows", "stands": [{"x": 50, "y": 20}]}]},
      {"name": "b", "units": [{"id": "v", "troop": "spears", "name": "Guard", "stands": [{"x": 50, "y": 90, "facing": 180}]}]}]})");
}

TEST(ArmyList, AnInlineListServesTheBattle) {
  const Battlefield bf = parse_battlefield(small_battle());
  EXPECT_EQ(bf.units[0].missile, Missile::Bow);
  EXPECT_EQ(bf.units[0].name, "bows");
  EXPECT_EQ(bf.units[1].name, "Guard");
  EXPECT_EQ(bf.units[1].armour, 6);
}

TEST(ArmyList, BadProfilesAndReferencesNameTheItem) {
  auto with = [](auto edit) {
    Json j = small_battle();
    edit(j);
    return error_of([&] { parse_battlefield(j); });
  };
  EXPECT_EQ(with([](Json& j) { j["army_list"]["troops"][1]["hits"] = 0; }),
            "army_list.troops[1].hits: 0 is out of range [1, 20]");
  EXPECT_EQ(with([](Json& j) { j["army_list"]["troops"][0]["armour"] = 7; }),
            "army_list.troops[0].armour: 7 is out of range [0, 6]");
  EXPECT_EQ(with([](Json& j) { j["army_list"]["troops"][1]["id"] = "spears"; }),
            "army_list.troops[1].id: duplicate troop \"spears\"");
  EXPECT_EQ(with([](Json& j) { j["army_list"]["troops"][0].erase("attacks"); }),
            "army_list.troops[0].attacks: missing field");
  EXPECT_EQ(with([](Json& j) { j["armies"][0]["units"][0]["troop"] = "archers"; }),
            "armies[0].units[0].troop: no troop \"archers\" in army list \"mine\"");
  EXPECT_EQ(with([](Json& j) { j["armies"][0]["units"][0]["attacks"] = 2; }),
            "armies[0].units[0].attacks: given by its troop \"bows\": a unit names a troop or gives its profile, not both");
  EXPECT_EQ(with([](Json& j) { j["army_list"] = "elves"; }),
            "army_list: no bundled army list \"elves\" (bundled: empire-orcs)");
  EXPECT_EQ(with([](Json& j) { j.erase("army_list"); }),
            "armies[0].units[0].troop: names troop \"bows\", but the battle gives no army_list");
  // Character profiles (docs/rulings.md#warmaster-combat-characters).
  const Json hero = {{"id", "hero"}, {"role", "hero"}, {"command", 8}, {"attacks", 1}};
  EXPECT_EQ(with([&](Json& j) { j["army_list"]["characters"] = Json::array({hero, hero}); }),
            "army_list.characters[1].id: duplicate troop or character \"hero\"");
  EXPECT_EQ(with([&](Json& j) {
              Json h = hero;
              h["attacks"] = -1;
              j["army_list"]["characters"] = Json::array({h});
            }),
            "army_list.characters[0].attacks: -1 is out of range [0, 10]");
  EXPECT_EQ(with([&](Json& j) {
              Json h = hero;
              h["role"] = "emperor";
              j["army_list"]["characters"] = Json::array({h});
            }).rfind("army_list.characters[0].role: ", 0),
            0u);
}

// The bundled list's characters: the rulebook's General (Command 9, +2),
// Hero (8, +1) and Wizard (7, +0) for each army; a list written out and read
// back is the same list.
TEST(ArmyList, TheBundledListGivesEachArmysCharacters) {
  const ArmyList* list = bundled_army_list("empire-orcs");
  ASSERT_NE(list, nullptr);
  ASSERT_EQ(list->characters.size(), 6u);
  const CharacterProfile* general = list->find_character("orc-general");
  ASSERT_NE(general, nullptr);
  EXPECT_EQ(general->role, CharacterRole::General);
  EXPECT_EQ(general->command, 9);
  EXPECT_EQ(general->attacks, 2);
  EXPECT_EQ(list->find_character("empire-hero")->attacks, 1);
  EXPECT_EQ(list->find_character("empire-wizard")->attacks, 0);
  EXPECT_EQ(list->find_character("orc-shaman")->role, CharacterRole::Wizard);
  EXPECT_EQ(list->find_character("halberdiers"), nullptr);
  EXPECT_EQ(parse_army_list(to_json(*list)), *list);
}

}  // namespace
}  // namespace referee::warmaster
