// Pictures and answers a player can read: the battlefield picture (grid,
// legend, states, labels that do not overlap, the level of each reach cell),
// where reachable cells are, and a route longer than one turn split by turn
// (docs/rulings.md#blightmeer-route-turns).
#include <gtest/gtest.h>

#include <regex>

#include <fmt/format.h>

#include "fixture.hpp"
#include "referee/blightmeer/route.hpp"
#include "referee/core/svg.hpp"

namespace referee::blightmeer {
namespace {
using namespace testing;

Battle picture_town() { return load_battle(std::string(REFEREE_SOURCE_DIR) + "/scenarios/blightmeer/town.json"); }

int occurrences(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

struct PictureLabel {
  Aabb box;
  std::string text;
};

// The labels of a picture: their boxes (world inches, from data-box) and text.
std::vector<PictureLabel> picture_labels(const std::string& svg) {
  static const std::regex re(R"re(<g class="label" data-box="([-0-9.]+) ([-0-9.]+) ([-0-9.]+) ([-0-9.]+)">\n<polygon[^\n]*\n<text[^>]*>([^<]*)</text>)re");
  std::vector<PictureLabel> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back({{{std::stod((*it)[1]), std::stod((*it)[2])}, {std::stod((*it)[3]), std::stod((*it)[4])}},
                   std::regex_replace(std::string((*it)[5]), std::regex("&quot;"), "\"")});
  return out;
}

bool boxes_overlap(const Aabb& a, const Aabb& b) {
  return std::min(a.max.x, b.max.x) - std::max(a.min.x, b.min.x) > 1e-6 &&
         std::min(a.max.y, b.max.y) - std::max(a.min.y, b.min.y) > 1e-6;
}

const PictureLabel* find_label(const std::vector<PictureLabel>& ls, const std::string& text) {
  for (const PictureLabel& l : ls)
    if (l.text == text) return &l;
  return nullptr;
}

TEST(BlightmeerPicture, EveryLabelIsDrawnAndNoTwoOverlapNorCoverAUnit) {
  Battle b = picture_town();
  const std::string svg = render_svg(*b.terrain, b.state);
  const std::vector<PictureLabel> ls = picture_labels(svg);
  // 8 standing units, 3 ladders, 5 surfaces, 1 low terrain, 5 regions.
  ASSERT_EQ(ls.size(), 9u + 3 + 5 + 1 + 5);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    for (std::size_t j = i + 1; j < ls.size(); ++j)
      EXPECT_FALSE(boxes_overlap(ls[i].box, ls[j].box)) << ls[i].text << " / " << ls[j].text;
    for (const Unit& u : b.state.units) {
      Aabb base{{u.pos.x - u.radius(), u.pos.y - u.radius()}, {u.pos.x + u.radius(), u.pos.y + u.radius()}};
      EXPECT_FALSE(boxes_overlap(ls[i].box, base)) << ls[i].text << " covers " << u.id;
    }
    EXPECT_TRUE(boxes_overlap(ls[i].box, b.terrain->table())) << ls[i].text;
  }
  // The issue's case: the watchtower's ladder label no longer lies over the watchtower's.
  const PictureLabel* ladder = find_label(ls, "tower-ladder 0\"-6\"");
  const PictureLabel* tower = find_label(ls, "watchtower 6\"");
  ASSERT_TRUE(ladder && tower);
  EXPECT_FALSE(boxes_overlap(ladder->box, tower->box));
}

TEST(BlightmeerPicture, UnitStatesAreMarkedAndExplainedInTheLegend) {
  Battle b = picture_town();
  const std::string svg = render_svg(*b.terrain, b.state);
  const std::vector<PictureLabel> ls = picture_labels(svg);
  // thug: Stunned and engaged with the sergeant; bandit: Staggered with the Treasure; elf on the inn roof (3 in).
  EXPECT_TRUE(find_label(ls, "thug St"));
  EXPECT_TRUE(find_label(ls, "bandit Sg T"));
  EXPECT_TRUE(find_label(ls, "elf on 3\""));
  EXPECT_TRUE(find_label(ls, "sergeant"));
  EXPECT_EQ(occurrences(svg, "<g id=\"engaged\">\n<line"), 1);  // one melee, drawn once
  for (const char* word : {">Stunned<", ">Dazed<", ">Staggered<", ">carrying Treasure (gold mark)<", ">engaged (in a melee)<",
                           ">edge that may not be climbed<", ">edge with a railing<", ">surface 7&quot; up<",
                           ">deep water<", ">ladder (dot at its foot)<"})
    EXPECT_NE(svg.find(word), std::string::npos) << word;
  EXPECT_NE(svg.find("<title>Bandit Thug 'thug' (blue, at 2.5, 15.5, 0.0, engaged, Stunned)</title>"), std::string::npos);
}

TEST(BlightmeerPicture, AOneInchGridWithInchMarksEverySixInches) {
  Battle b = picture_town();
  const std::string svg = render_svg(*b.terrain, b.state);
  const std::size_t grid = svg.find("<g id=\"grid\">");
  ASSERT_NE(grid, std::string::npos);
  const std::string g = svg.substr(grid, svg.find("</g>", grid) - grid);
  EXPECT_EQ(occurrences(g, "<line"), 2 * 37);  // the table is 36 in by 36 in
  for (int in = 0; in <= 36; in += 6) EXPECT_EQ(occurrences(g, ">" + std::to_string(in) + "&quot;</text>"), 3) << in;
}

TEST(BlightmeerPicture, ReachCellsShowTheLevelTheyAreOn) {
  Battle b = picture_town();
  ReachAnswer a = unit_reach(*b.terrain, b.state, "elf", false);
  const std::string svg = render_svg(*b.terrain, b.state, &a);
  int raised = 0;
  for (const ReachCell& c : a.cells) raised += c.p.z > kEps;
  ASSERT_GT(raised, 0);
  const std::size_t at = svg.find("<g id=\"reach-levels\">");
  ASSERT_NE(at, std::string::npos);
  const std::string g = svg.substr(at, svg.find("</g>", at) - at);
  EXPECT_EQ(occurrences(g, "<text"), raised);
  EXPECT_EQ(occurrences(g, ">3</text>") + occurrences(g, ">4</text>"), raised);  // the inn (3 in) and the warehouse (4 in)
  for (const char* word : {">reachable, no check<", ">1 check on the way<", ">reachable cell on a level 3&quot; up<"})
    EXPECT_NE(svg.find(word), std::string::npos) << word;
  const std::vector<PictureLabel> ls = picture_labels(svg);
  for (std::size_t i = 0; i < ls.size(); ++i)
    for (std::size_t j = i + 1; j < ls.size(); ++j) EXPECT_FALSE(boxes_overlap(ls[i].box, ls[j].box)) << ls[i].text << " / " << ls[j].text;
}

TEST(BlightmeerReach, ExplainSaysOnWhichSurfaceAndWhereTheCellsAre) {
  Battle b = picture_town();
  ReachAnswer a = unit_reach(*b.terrain, b.state, "elf", false);
  const std::string text = explain_reach(a);
  // Every cell on the inn roof lies within the inn's footprint, and the answer gives their span.
  Aabb inn{{1e9, 1e9}, {-1e9, -1e9}};
  int on_inn = 0;
  for (const ReachCell& c : a.cells)
    if (c.checks == 0 && c.surface >= 0 && a.surface_ids[static_cast<std::size_t>(c.surface)] == "inn") {
      inn = inn.merged({c.p.xy(), c.p.xy()});
      ++on_inn;
      EXPECT_NEAR(c.p.z, 3.0, 1e-9);
    }
  ASSERT_GT(on_inn, 0);
  const std::string line = fmt::format("    {} cells on inn (3.0 in up): x {:.1f} to {:.1f}, y {:.1f} to {:.1f}\n", on_inn,
                                       inn.min.x, inn.max.x, inn.min.y, inn.max.y);
  EXPECT_NE(text.find("  with no check:\n"), std::string::npos) << text;
  EXPECT_NE(text.find(line), std::string::npos) << text;
  EXPECT_NE(text.find(" on the ground: x "), std::string::npos) << text;
}

TEST(BlightmeerRouteTurns, AWalkThreeTurnsLongStopsWhereEachTurnsSixInchesRunOut) {
  // Move 6: a 15 in walk is 6 + 6 + 3, stopping 6 and 12 in along it.
  Battle b = battle({unit("a", 7, 8, 0)});
  MoveReport r = check(b, move("a", {walk(22, 8)}));
  EXPECT_NEAR(r.spent, 15.0, 1e-9);
  TurnSplit s = split_by_turn(r);
  ASSERT_TRUE(s.possible);
  ASSERT_EQ(s.legs.size(), 3u);
  EXPECT_NEAR(s.legs[0].spent, 6.0, 1e-9);
  EXPECT_NEAR(s.legs[0].stop.x, 13.0, 1e-9);
  EXPECT_TRUE(s.legs[0].mid_step);
  EXPECT_NEAR(s.legs[1].stop.x, 19.0, 1e-9);
  EXPECT_NEAR(s.legs[2].spent, 3.0, 1e-9);
  EXPECT_NEAR(s.legs[2].stop.x, 22.0, 1e-9);
  EXPECT_FALSE(s.legs[2].mid_step);
}

TEST(BlightmeerRouteTurns, DifficultGroundCostsTheTurnTwoInches) {
  // "a unit that has a base Move of 6" could normally move 4" through difficult terrain during their turn":
  // 4 in through the mud fits the first turn exactly.
  Battle b = battle({unit("a", 1, 1, 0)});
  MoveReport r = check(b, move("a", {walk(1, 5), walk(1, 12)}));
  TurnSplit s = split_by_turn(r);
  ASSERT_GE(s.legs.size(), 2u);
  EXPECT_NEAR(s.legs[0].allowance, 4.0, 1e-9);
  EXPECT_NEAR(s.legs[0].spent, 4.0, 1e-9);
  EXPECT_NEAR(s.legs[0].stop.y, 5.0, 1e-9);
  EXPECT_FALSE(s.legs[0].mid_step);
}

TEST(BlightmeerRouteTurns, AClimbIsTakenWholeInTheNextTurn) {
  // 5 in of walk to the house wall, then a climb of 3 in up: the climb does
  // not fit the 1 in left, so the first turn stops at its foot.
  Battle b = battle({unit("a", 9.5, 8, 0)});
  MoveReport r = check(b, move("a", {walk(9.5, 13), climb(10.5, 13, 3)}));
  ASSERT_EQ(r.steps.size(), 2u);
  ASSERT_GT(r.steps[1].cost, 1.0);
  TurnSplit s = split_by_turn(r);
  ASSERT_EQ(s.legs.size(), 2u);
  EXPECT_NEAR(s.legs[0].spent, 5.0, 1e-9);
  EXPECT_NEAR(s.legs[0].stop.y, 13.0, 1e-9);
  EXPECT_NEAR(s.legs[0].stop.z, 0.0, 1e-9);
  EXPECT_FALSE(s.legs[0].mid_step);
  EXPECT_EQ(s.legs[1].first_step, r.steps[1].index);
  EXPECT_NEAR(s.legs[1].spent, r.steps[1].cost, 1e-9);
  EXPECT_NEAR(s.legs[1].stop.z, 3.0, 1e-9);
}

TEST(BlightmeerRouteTurns, ExplainedRouteNamesEachTurnAndWhereItStops) {
  Battle b = picture_town();
  RouteAnswer a = best_route(*b.terrain, b.state, "captain", {18, 20, 0}, false);
  ASSERT_TRUE(a.safe.found);
  const std::string text = explain_route(a);
  EXPECT_NE(text.find("longer than one turn's move: 4 turns"), std::string::npos) << text;
  // Walk 3.0 in, then part of the long walk: the first turn stops part-way along step 1.
  EXPECT_NE(text.find("turn 1: steps 0-1, 6.0 in of 6.0 in; stops at (6.3, 11.9, 0.0), part-way along step 1"),
            std::string::npos) << text;
  EXPECT_NE(text.find("turn 4: step 2, 2.4 in of 6.0 in"), std::string::npos) << text;
  EXPECT_NE(text.find("; ends at (18.0, 20.0, 0.0)"), std::string::npos) << text;
  const nlohmann::json j = route_json(a);
  EXPECT_EQ(j["risk_free"]["turns"].size(), 4u);
}

TEST(BlightmeerPicture, ARouteIsDrawnTurnByTurnWithWhereEachTurnStops) {
  Battle b = picture_town();
  RouteAnswer a = best_route(*b.terrain, b.state, "captain", {18, 20, 0}, false);
  ASSERT_TRUE(a.safe.found);
  const std::string svg = render_svg(*b.terrain, b.state, nullptr, &a.safe);
  const std::size_t at = svg.find("<g id=\"route\">");
  ASSERT_NE(at, std::string::npos);
  const std::string g = svg.substr(at, svg.find("</g>", at) - at);
  EXPECT_EQ(occurrences(g, "<circle"), 4);  // three stops and the end
  EXPECT_EQ(occurrences(g, "stroke-dasharray"), occurrences(g, "<line") - 2);  // turn 1 (step 0 and part of 1) is solid
  const std::vector<PictureLabel> ls = picture_labels(svg);
  for (const char* text : {"T1 stops", "T2 stops", "T3 stops", "end, turn 4"}) EXPECT_TRUE(find_label(ls, text)) << text;
  for (std::size_t i = 0; i < ls.size(); ++i)
    for (std::size_t j = i + 1; j < ls.size(); ++j) EXPECT_FALSE(boxes_overlap(ls[i].box, ls[j].box)) << ls[i].text << " / " << ls[j].text;
  EXPECT_NE(svg.find(">route, turn 1<"), std::string::npos);
  EXPECT_NE(svg.find("route of captain (moving 20.4&quot; in 4 turns)"), std::string::npos);
}

}  // namespace
}  // namespace referee::blightmeer
