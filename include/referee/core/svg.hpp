// A small SVG writer shared by the rule systems' pictures. World coordinates
// are table units with y pointing away from the "south" player; the writer
// flips y so the picture looks like the table seen from above.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "referee/core/geometry.hpp"

namespace referee {

struct SvgStyle {
  std::string fill = "none";
  std::string stroke = "black";
  double stroke_width = 0.1;  // world units
  double opacity = 1.0;
  std::string extra;          // raw attributes, e.g. stroke-dasharray
};

class SvgWriter {
 public:
  // `world` is the visible area; `pixels_per_unit` sets the picture's size.
  SvgWriter(Aabb world, double pixels_per_unit, double margin = 2.0);

  void begin_group(const std::string& id, const std::string& css_class = {});
  void end_group();
  void title(const std::string& text);  // tooltip for the enclosing group
  void rect(const Aabb& box, const SvgStyle& s);
  void polygon(std::span<const Vec2> pts, const SvgStyle& s);
  void polygon(const Polygon& p, const SvgStyle& s) { polygon(p.points, s); }
  void oriented_rect(const OrientedRect& r, const SvgStyle& s);
  void polyline(std::span<const Vec2> pts, const SvgStyle& s);
  void line(Vec2 a, Vec2 b, const SvgStyle& s);
  void circle(Vec2 c, double r, const SvgStyle& s);
  // `size` in world units; text is anchored at its middle.
  void text(Vec2 at, const std::string& s, double size, const std::string& fill = "black");
  // Text starting at `at` (left-aligned), for keys and lists.
  void text_left(Vec2 at, const std::string& s, double size, const std::string& fill = "black", bool bold = false);
  // Text on a pale box (text_box's), so it reads over lines and fills; the
  // group carries class "label" and the box's world corners as data-box, so
  // tests can check that no two labels overlap.
  void label(Vec2 at, const std::string& s, double size, const std::string& fill = "black",
             const std::string& background = "#ffffff", double opacity = 0.8);
  void raw(const std::string& element);  // already in pixel space

  std::string finish();  // closes the document and returns it

  Vec2 to_pixels(Vec2 world) const;
  double scale() const { return ppu_; }

 private:
  std::string style_attrs(const SvgStyle& s) const;
  std::string points_attr(std::span<const Vec2> pts) const;

  Aabb world_;
  double ppu_;
  double margin_;
  std::string body_;
  int depth_ = 0;
};

// The box a line of text takes, centred on `at`, in world units. Estimated,
// not measured (there is no font engine): sans-serif glyphs average 0.6 em
// wide and a line is 1.1 em tall; real widths differ by up to about 20%, which
// the padding of 0.1 em a side absorbs for the short labels pictures use.
Aabb text_box(Vec2 at, const std::string& s, double size);

// `s` broken at spaces into lines each no wider than `width` (text_box's
// estimate at `size`, widened by `widen` for bold text); a word longer than
// the width is a line of its own, never cut. Empty for an empty string.
std::vector<std::string> wrap_text(const std::string& s, double size, double width, double widen = 1.0);

// Places labels so that none overlaps another or an area kept clear (a unit's
// base, a legend). Each label tries positions round its anchor, nearest first;
// when every one is taken it goes where it overlaps least (and `placed()`
// then shows the overlap, which tests check for). Caller owns it per picture.
class LabelPlacer {
 public:
  explicit LabelPlacer(Aabb bounds) : bounds_(bounds) {}
  void keep_clear(const Aabb& box) { clear_.push_back(box); }
  // `gap` is the distance from the anchor to the nearest edge of the label
  // for the first ring of positions (0: the first try is centred on it).
  Vec2 place(Vec2 anchor, const std::string& s, double size, double gap = 0.0);
  const std::vector<Aabb>& placed() const { return placed_; }
  const std::vector<Aabb>& kept_clear() const { return clear_; }

 private:
  double overlap(const Aabb& b) const;
  Aabb bounds_;
  std::vector<Aabb> clear_;
  std::vector<Aabb> placed_;
};

// The parts of segment a-b outside every box (so a line can stop short of
// labels instead of striking through them).
std::vector<Segment> segment_outside(Vec2 a, Vec2 b, std::span<const Aabb> boxes);

// A key to the picture's marks, drawn in a framed box with its top-left
// corner at `top_left` and entries in `columns` columns. Group id "legend";
// every entry is a group of class "legend-entry" holding its label. The
// title is bold, one line per '\n' in it (wrap_text, joined, fits a long
// caption to the key's width), the entries below its last line.
struct LegendEntry {
  enum class Mark { box, circle, line, glyph };
  Mark mark = Mark::box;
  SvgStyle style;
  std::string label;
  std::string glyph;  // Mark::glyph: the text drawn as the mark (style.fill colours it)
};
Aabb draw_legend(SvgWriter& svg, Vec2 top_left, const std::string& title, std::span<const LegendEntry> entries,
                 double size, int columns = 1, double column_width = 0.0);
// `title` broken into lines ('\n') that fit the width the entries take, so a
// long caption wraps instead of widening the key past the picture's edge. The
// width a bold line is allowed is estimated with room to spare (DejaVu Sans
// Bold, the usual sans-serif, has letters up to 0.7 em wide).
std::string fit_legend_title(const std::string& title, std::span<const LegendEntry> entries, double size,
                             int columns = 1, double column_width = 0.0);
// The width and height draw_legend will take, to make room for it.
Vec2 legend_size(const std::string& title, std::span<const LegendEntry> entries, double size, int columns = 1,
                 double column_width = 0.0);

// A measuring grid over `area`: thin lines every `step`, stronger ones every
// `major` steps, and the distance from the area's corner in `unit` at each
// major line along the bottom and left edges (outside the area). Group id "grid".
void draw_grid(SvgWriter& svg, const Aabb& area, double step, int major, const std::string& unit, double text_size);

// Text for an XML attribute or element: markup characters escaped, and any
// control character XML forbids (all below U+0020 but tab, newline and carriage
// return) shown as U+FFFD, so every picture is well-formed XML.
std::string xml_escape(const std::string& s);

}  // namespace referee
