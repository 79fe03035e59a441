// A small SVG writer shared by the rule systems' pictures. World coordinates
// are table units with y pointing away from the "south" player; the writer
// flips y so the picture looks like the table seen from above.
#pragma once

#include <span>
#include <string>

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

// Text for an XML attribute or element: markup characters escaped, and any
// control character XML forbids (all below U+0020 but tab, newline and carriage
// return) shown as U+FFFD, so every picture is well-formed XML.
std::string xml_escape(const std::string& s);

}  // namespace referee
