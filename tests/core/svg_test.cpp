// The shared picture helpers: labels placed clear of each other, lines that
// stop at labels, the legend and the measuring grid.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "referee/core/ruling.hpp"
#include "referee/core/svg.hpp"

namespace referee {
namespace {

double overlap_area(const Aabb& a, const Aabb& b) {
  double w = std::min(a.max.x, b.max.x) - std::max(a.min.x, b.min.x);
  double h = std::min(a.max.y, b.max.y) - std::max(a.min.y, b.min.y);
  return w > 1e-9 && h > 1e-9 ? w * h : 0.0;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(SvgLabels, TextBoxGrowsWithTheTextAndCountsCharactersNotBytes) {
  Aabb a = text_box({0, 0}, "abcd", 1.0);
  // 0.6 em a glyph plus 0.1 em padding a side; 1.1 em tall plus padding.
  EXPECT_NEAR(a.max.x - a.min.x, 0.6 * 4 + 0.2, 1e-12);
  EXPECT_NEAR(a.max.y - a.min.y, 1.2, 1e-12);
  EXPECT_NEAR(text_box({0, 0}, "\xC3\xA9t\xC3\xA9", 1.0).max.x, text_box({0, 0}, "abc", 1.0).max.x, 1e-12);
}

TEST(SvgLabels, LabelsAtOneAnchorAreSpreadSoNoneOverlaps) {
  LabelPlacer placer({{0, 0}, {40, 40}});
  placer.keep_clear({{19.5, 19.5}, {20.5, 20.5}});  // a unit's base at the anchor
  for (int i = 0; i < 9; ++i) placer.place({20, 20}, "label " + std::to_string(i), 0.5, 0.6);
  const auto& boxes = placer.placed();
  ASSERT_EQ(boxes.size(), 9u);
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    EXPECT_EQ(overlap_area(boxes[i], placer.kept_clear()[0]), 0.0) << i;
    for (std::size_t j = i + 1; j < boxes.size(); ++j) EXPECT_EQ(overlap_area(boxes[i], boxes[j]), 0.0) << i << " " << j;
  }
  // The first goes right under the anchor, 0.6 below the base's centre.
  EXPECT_NEAR(boxes[0].max.y, 20 - 0.6, 1e-9);
}

TEST(SvgLabels, ALabelStaysOnThePictureNearAnEdge) {
  LabelPlacer placer({{0, 0}, {10, 10}});
  placer.place({0.2, 0.2}, "corner label", 0.5, 0.3);
  const Aabb& b = placer.placed()[0];
  EXPECT_GE(b.min.x, 0.0);
  EXPECT_GE(b.min.y, 0.0);
}

TEST(SvgLines, ASegmentStopsShortOfTheBoxesItCrosses) {
  std::vector<Aabb> boxes{{{-1, 2}, {1, 3}}, {{-1, 5}, {1, 6}}, {{5, 0}, {6, 10}}};
  auto parts = segment_outside({0, 0}, {0, 10}, boxes);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_NEAR(parts[0].b.y, 2, 1e-12);
  EXPECT_NEAR(parts[1].a.y, 3, 1e-12);
  EXPECT_NEAR(parts[1].b.y, 5, 1e-12);
  EXPECT_NEAR(parts[2].a.y, 6, 1e-12);
  EXPECT_NEAR(parts[2].b.y, 10, 1e-12);
  // Overlapping boxes merge; a segment wholly inside one leaves nothing.
  std::vector<Aabb> merged{{{-1, 2}, {1, 4}}, {{-1, 3}, {1, 5}}};
  EXPECT_EQ(segment_outside({0, 0}, {0, 10}, merged).size(), 2u);
  std::vector<Aabb> all{{{-1, -1}, {1, 11}}};
  EXPECT_TRUE(segment_outside({0, 0}, {0, 10}, all).empty());
}

TEST(SvgLegend, EveryEntryIsDrawnWithItsLabelInsideTheFrame) {
  SvgWriter svg({{0, 0}, {20, 20}}, 10.0);
  std::vector<LegendEntry> entries{{LegendEntry::Mark::box, {"#f00", "none", 0, 1, {}}, "red thing", {}},
                                   {LegendEntry::Mark::glyph, {"#000", "none", 0, 1, {}}, "Stunned", "St"},
                                   {LegendEntry::Mark::line, {"none", "#00f", 0.1, 1, {}}, "border", {}}};
  Aabb frame = draw_legend(svg, {1, 19}, "Key", entries, 0.5);
  Vec2 size = legend_size("Key", entries, 0.5);
  EXPECT_NEAR(frame.max.x - frame.min.x, size.x, 1e-12);
  EXPECT_NEAR(frame.max.y - frame.min.y, size.y, 1e-12);
  std::string out = svg.finish();
  EXPECT_EQ(count(out, "class=\"legend-entry\""), 3);
  EXPECT_NE(out.find(">red thing<"), std::string::npos);
  EXPECT_NE(out.find(">St<"), std::string::npos);
  EXPECT_NE(out.find(">Stunned<"), std::string::npos);
}

// wrap_text breaks at spaces only, each line within the width (text_box's
// estimate), a word too long for it alone on its line, never cut.
TEST(SvgLegend, WrapTextBreaksAtSpacesWithinTheWidth) {
  const double size = 1.0;
  auto wide = [&](const std::string& t) { return text_box({0, 0}, t, size).max.x * 2; };
  const std::string text = "seed 9, turn 9: turn limit (8 turns): units lost 0 to 0, a draw";
  const double width = wide("turn limit (8 turns):");
  const std::vector<std::string> lines = wrap_text(text, size, width);
  ASSERT_GT(lines.size(), 2u);
  std::string joined;
  for (const std::string& l : lines) {
    EXPECT_LE(wide(l), width + 1e-9) << l;
    EXPECT_NE(l.front(), ' ');
    EXPECT_NE(l.back(), ' ');
    joined += (joined.empty() ? "" : " ") + l;
  }
  EXPECT_EQ(joined, text);
  EXPECT_EQ(wrap_text("a unbreakable-word-longer-than-the-width b", size, wide("a b")),
            (std::vector<std::string>{"a", "unbreakable-word-longer-than-the-width", "b"}));
  EXPECT_TRUE(wrap_text("", size, 10).empty());
  EXPECT_EQ(wrap_text("short", size, 100), std::vector<std::string>{"short"});
}

// A long title is fitted to the entries' width: several bold lines, the frame
// no wider than the entries make it, and the entries below the last line.
TEST(SvgLegend, ALongTitleWrapsToTheEntriesWidthAboveThem) {
  std::vector<LegendEntry> entries{{LegendEntry::Mark::box, {"#f00", "none", 0, 1, {}}, "red thing", {}},
                                   {LegendEntry::Mark::line, {"none", "#00f", 0.1, 1, {}}, "border", {}}};
  const std::string caption = "seed 9, turn 9: turn limit (8 turns): units lost 0 to 0, a draw";
  const std::string title = fit_legend_title(caption, entries, 0.5);
  const std::size_t lines = static_cast<std::size_t>(std::count(title.begin(), title.end(), '\n')) + 1;
  ASSERT_GT(lines, 3u) << title;
  std::string joined = title;
  std::replace(joined.begin(), joined.end(), '\n', ' ');
  EXPECT_EQ(joined, caption);
  EXPECT_NEAR(legend_size(title, entries, 0.5).x, legend_size("", entries, 0.5).x, 1e-12);
  EXPECT_GT(legend_size(title, entries, 0.5).y, legend_size("Key", entries, 0.5).y);
  // A short title is left as it is.
  EXPECT_EQ(fit_legend_title("Key", entries, 0.5), "Key");

  SvgWriter svg({{0, 0}, {40, 40}}, 10.0);
  const Aabb frame = draw_legend(svg, {1, 39}, title, entries, 0.5);
  EXPECT_NEAR(frame.max.y - frame.min.y, legend_size(title, entries, 0.5).y, 1e-12);
  const std::string out = svg.finish();
  EXPECT_EQ(count(out, "font-weight=\"bold\""), static_cast<int>(lines));
  // SVG y grows downwards: the last title line is above the first entry.
  auto y_of = [&](const std::string& text) {
    const std::size_t at = out.find(">" + text + "<");
    const std::size_t y = out.rfind(" y=\"", at);
    return std::stod(out.substr(y + 4));
  };
  const std::string last = title.substr(title.rfind('\n') + 1);
  EXPECT_LT(y_of(last), y_of("red thing"));
}

TEST(SvgGrid, AOneInchGridOnA36InchTableHas37LinesEachWayAndMarksEverySix) {
  SvgWriter svg({{-2, -2}, {38, 38}}, 10.0);
  draw_grid(svg, {{0, 0}, {36, 36}}, 1.0, 6, "\"", 0.5);
  std::string out = svg.finish();
  EXPECT_EQ(count(out, "<line"), 2 * 37);
  // Marks at 0, 6, ... 36 along the bottom, the top and the left.
  for (int in = 0; in <= 36; in += 6) EXPECT_EQ(count(out, ">" + std::to_string(in) + "&quot;</text>"), 3) << in;
  EXPECT_EQ(count(out, ">1&quot;</text>"), 0);
}

TEST(RulingCounts, ACountOfOneTakesTheSingularNoun) {
  EXPECT_EQ(count_of(1, "hex", "hexes"), "1 hex");
  EXPECT_EQ(count_of(2, "hex", "hexes"), "2 hexes");
  EXPECT_EQ(count_of(0, "hex", "hexes"), "0 hexes");
  Ruling r{"ancients.movement.allowance", "too far", {{"distance", 2, "hexes"}, {"allowed", 1, "hexes"}}};
  EXPECT_EQ(explain(r), "ancients.movement.allowance: too far (distance 2 hexes, allowed 1 hex)");
  Ruling in{"x", "y", {{"allowed", 1, "in"}}};
  EXPECT_EQ(explain(in), "x: y (allowed 1 in)");
}

}  // namespace
}  // namespace referee
