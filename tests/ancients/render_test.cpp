#include <gtest/gtest.h>

#include <regex>

#include "referee/ancients/render.hpp"
#include "referee/core/svg.hpp"
#include "test_support.hpp"

namespace referee::ancients {
namespace {

using namespace testing;

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string group(const std::string& svg, const std::string& id) {
  const std::size_t at = svg.find("<g id=\"" + id + "\">");
  if (at == std::string::npos) return {};
  // Groups nest: find the matching close.
  int depth = 0;
  for (std::size_t i = at; i < svg.size(); ++i) {
    if (svg.compare(i, 3, "<g ") == 0) ++depth;
    if (svg.compare(i, 4, "</g>") == 0 && --depth == 0) return svg.substr(at, i + 4 - at);
  }
  return svg.substr(at);
}

TEST(AncientsRender, DrawsEveryHexUnitLeaderAndDestination) {
  Battle b = load_scenario("centre_clash.json");
  Position p = Position::initial(b);
  RenderOptions o;
  o.destinations = destinations(b, p, "a_hc1");
  std::string svg = render_board(b, p, o);
  EXPECT_EQ(count(svg, "<g id=\"unit-"), 30);
  EXPECT_EQ(count(svg, "<g id=\"leader-"), 4);
  EXPECT_EQ(o.destinations.size(), 11u);
  EXPECT_EQ(count(group(svg, "hexes"), "<polygon"), 113);
  EXPECT_EQ(count(group(svg, "destinations"), "<polygon"), 11);
  EXPECT_EQ(count(group(svg, "units"), "<polygon"), 30);
  EXPECT_NE(svg.find(">7,5<"), std::string::npos);  // hexes carry their col,row
}

TEST(AncientsRender, UnitsShowTheIdActionsUseWithTheNameAsTooltip) {
  Battle b = load_scenario("centre_clash.json");
  std::string svg = render_board(b, Position::initial(b), {});
  for (const UnitSpec& u : b.units) {
    const std::string g = group(svg, "unit-" + u.id);
    ASSERT_FALSE(g.empty()) << u.id;
    EXPECT_NE(g.find(">" + u.id + "</text>"), std::string::npos) << u.id;
  }
  // a_hi1 is the legion labelled "Legio X": the name is its tooltip.
  EXPECT_NE(group(svg, "unit-a_hi1").find("<title>Legio X, heavy infantry (a_hi1, side 0, 4 blocks)</title>"), std::string::npos)
      << group(svg, "unit-a_hi1");
}

TEST(AncientsRender, LeaderNamesAreTagsThatKeepOffTheUnits) {
  Battle b = load_scenario("centre_clash.json");
  Position p = Position::initial(b);
  std::string svg = render_board(b, p, {});
  static const std::regex box_re(R"re(data-box="([-0-9.]+) ([-0-9.]+) ([-0-9.]+) ([-0-9.]+)")re");
  const std::string leaders = group(svg, "leaders");
  std::vector<Aabb> tags;
  for (auto it = std::sregex_iterator(leaders.begin(), leaders.end(), box_re); it != std::sregex_iterator(); ++it)
    tags.push_back({{std::stod((*it)[1]), std::stod((*it)[2])}, {std::stod((*it)[3]), std::stod((*it)[4])}});
  ASSERT_EQ(tags.size(), b.leaders.size());
  for (const LeaderSpec& l : b.leaders)
    EXPECT_NE(leaders.find(">" + (l.name.empty() ? l.id : l.name) + "</text>"), std::string::npos) << l.id;
  auto overlap = [](const Aabb& a, const Aabb& c) {
    return std::min(a.max.x, c.max.x) - std::max(a.min.x, c.min.x) > 1e-6 && std::min(a.max.y, c.max.y) - std::max(a.min.y, c.min.y) > 1e-6;
  };
  for (std::size_t i = 0; i < tags.size(); ++i) {
    for (std::size_t j = i + 1; j < tags.size(); ++j) EXPECT_FALSE(overlap(tags[i], tags[j]));
    for (const UnitState& u : p.units) {
      Vec2 c = b.board.centre(u.hex);
      EXPECT_FALSE(overlap(tags[i], {{c.x - 0.36, c.y - 0.22}, {c.x + 0.36, c.y + 0.22}})) << i;
    }
    // A tag stays within a hex's reach of its leader: a name under its unit.
    Vec2 c = b.board.centre(p.leaders[i].hex);
    EXPECT_LT(std::abs((tags[i].min.y + tags[i].max.y) / 2 - c.y), 0.5) << b.leaders[i].id;
  }
}

TEST(AncientsRender, TheLegendExplainsSidesAndDestinationMarks) {
  Battle b = load_scenario("centre_clash.json");
  Position p = Position::initial(b);
  RenderOptions o;
  o.destinations = destinations(b, p, "a_hc1");
  o.selected_hex = p.units[static_cast<std::size_t>(b.find_unit("a_hc1"))].hex;
  std::string legend = group(render_board(b, p, o), "legend");
  ASSERT_FALSE(legend.empty());
  for (const char* word : {"unit of side 0 (bottom, Rome)", "unit of side 1 (top, Gauls)", "&quot;2 B&quot;: 2 hexes moved, may battle",
                           "&quot;2 CC!&quot;: must close combat (warrior)", "&quot;1 no B&quot;: may move, may not battle",
                           "section line", "the piece asked about", ">forest<", ">hill<"})
    EXPECT_NE(legend.find(word), std::string::npos) << word;
}

TEST(AncientsRender, DestinationHexesKeepTheirCoordinatesOverTheHighlight) {
  Battle b = load_scenario("centre_clash.json");
  Position p = Position::initial(b);
  RenderOptions o;
  o.destinations = destinations(b, p, "a_hc1");
  std::string svg = render_board(b, p, o);
  const std::string labels = group(svg, "hex-labels");
  // Drawn after the highlights, in the dark colour: every destination's col,row and its mark.
  ASSERT_LT(svg.find("<g id=\"destinations\">"), svg.find("<g id=\"hex-labels\">"));
  for (const Destination& d : o.destinations) {
    const std::string cr = format_hex(b.board.col_row(d.hex));
    EXPECT_NE(labels.find("fill=\"#1d2b1a\">" + cr + "</text>"), std::string::npos) << cr;
  }
  EXPECT_NE(labels.find(">2 B</text>"), std::string::npos);
  EXPECT_NE(labels.find(">1 B</text>"), std::string::npos);
}

TEST(AncientsRender, SectionLinesStopShortOfEveryText) {
  Battle b = load_scenario("centre_clash.json");
  Position p = Position::initial(b);
  RenderOptions o;
  o.destinations = destinations(b, p, "a_hc1");
  std::string svg = render_board(b, p, o);
  static const std::regex line_re(R"re(<line x1="([-0-9.]+)" y1="([-0-9.]+)" x2="([-0-9.]+)" y2="([-0-9.]+)")re");
  static const std::regex text_re(R"re(<text x="([-0-9.]+)" y="([-0-9.]+)" font-size="([-0-9.]+)"[^>]*>([^<]*)</text>)re");
  const std::string sections = group(svg, "sections");
  struct Seg { double x, y0, y1; };
  std::vector<Seg> segs;
  for (auto it = std::sregex_iterator(sections.begin(), sections.end(), line_re); it != std::sregex_iterator(); ++it)
    segs.push_back({std::stod((*it)[1]), std::min(std::stod((*it)[2]), std::stod((*it)[4])), std::max(std::stod((*it)[2]), std::stod((*it)[4]))});
  ASSERT_GT(segs.size(), 2u);  // two lines, broken at the texts they meet
  const std::string texts = group(svg, "hex-labels") + group(svg, "units") + group(svg, "leaders");
  int near_a_line = 0;
  for (auto it = std::sregex_iterator(texts.begin(), texts.end(), text_re); it != std::sregex_iterator(); ++it) {
    const double x = std::stod((*it)[1]), y = std::stod((*it)[2]), size = std::stod((*it)[3]);
    // The text's box in pixels, as text_box estimates it.
    const Aabb box = text_box({x, y}, (*it)[4], size);
    for (const Seg& s : segs) {
      if (s.x < box.min.x || s.x > box.max.x) continue;
      ++near_a_line;
      EXPECT_TRUE(s.y1 <= box.min.y + 0.5 || s.y0 >= box.max.y - 0.5) << (*it)[4] << " crossed at x " << s.x;
    }
  }
  EXPECT_GT(near_a_line, 10);  // the coordinates of columns 4 and 8 on the full rows, at least
}

TEST(AncientsReasons, ACountOfOneHexIsSingular) {
  // Heavy infantry moves 1 hex: "moves at most 1 hex", figure "allowed 1 hex".
  Battle b = make_battle({unit("hi", "heavy_infantry", 0, 6, 6)});
  Verdict v = check_unit_move(b, Position::initial(b), 0, {6, 4}, {});
  ASSERT_FALSE(v.legal());
  EXPECT_EQ(explain(v.violations[0]),
            "ancients.movement.allowance: 6,4 is 2 hexes away; heavy infantry moves at most 1 hex (distance 2 hexes, allowed 1 hex)");
}

}  // namespace
}  // namespace referee::ancients
