// Pictures of a Warmaster battlefield (render.hpp): the key's title, a
// caption given by `play --svg-dir` and `arena --svg-dir`, is wrapped to the
// key's width, so a long one stays on the picture.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "referee/core/svg.hpp"
#include "referee/warmaster/battle/render.hpp"
#include "warmaster_test_fields.hpp"

namespace referee::warmaster {
namespace {

using namespace testing;

struct SvgText {
  double x = 0, y = 0, size = 0;
  std::string text;
};

// The bold texts of a picture: the key's title lines, in order.
std::vector<SvgText> bold_texts(const std::string& svg) {
  static const std::regex re(
      R"re(<text x="([0-9.]+)" y="([0-9.]+)" font-size="([0-9.]+)"[^>]*font-weight="bold"[^>]*>([^<]*)</text>)re");
  std::vector<SvgText> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back({std::stod((*it)[1]), std::stod((*it)[2]), std::stod((*it)[3]), (*it)[4]});
  return out;
}

double svg_width(const std::string& svg) {
  static const std::regex re(R"re(<svg [^>]*width="([0-9.]+)")re");
  std::smatch m;
  return std::regex_search(svg, m, re) ? std::stod(m[1]) : 0.0;
}

// The arena's caption, "seed 9, turn 9: turn limit (8 turns): units lost 0 to
// 0, a draw", used to be one line running past the picture's right edge.
// Now: several lines, which joined give the caption, each within the picture
// even at 0.7 em a letter (DejaVu Sans Bold's widest lowercase), and above
// the key's first entry.
TEST(WarmasterRender, ALongCaptionIsWrappedToTheKeysWidth) {
  Battlefield bf = empty_field();
  bf.units.push_back(infantry("emp-halberd-1", 0, {{{60, 20}, 0}, {{64, 20}, 0}}));
  bf.terrain.push_back(area("wood-1", TerrainKind::Wood, {{80, 30}, {95, 30}, {95, 40}, {80, 40}}));
  const std::string caption = "seed 9, turn 9: turn limit (8 turns): units lost 0 to 0, a draw";
  const std::string svg = render_svg(bf, RenderOptions{nullptr, {}, caption});
  const std::vector<SvgText> lines = bold_texts(svg);
  ASSERT_GE(lines.size(), 2u) << svg;
  std::string joined;
  for (const SvgText& l : lines) joined += (joined.empty() ? "" : " ") + l.text;
  EXPECT_EQ(joined, caption);
  const double width = svg_width(svg);
  ASSERT_GT(width, 0.0);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_LE(lines[i].x + 0.7 * lines[i].size * static_cast<double>(lines[i].text.size()), width) << lines[i].text;
    if (i > 0) {
      EXPECT_GT(lines[i].y, lines[i - 1].y + 0.9 * lines[i].size) << "lines overlap";
    }
  }
  // The first entry of the key ("side 0: South") is below the last line.
  const std::size_t entry = svg.find(">side 0: South<");
  ASSERT_NE(entry, std::string::npos);
  const std::size_t y = svg.rfind(" y=\"", entry);
  EXPECT_GT(std::stod(svg.substr(y + 4)), lines.back().y + 0.9 * lines.back().size);
  // The picture is no wider than with a short caption: the key keeps its width.
  EXPECT_EQ(width, svg_width(render_svg(bf, RenderOptions{nullptr, {}, "test"})));
}

}  // namespace
}  // namespace referee::warmaster
