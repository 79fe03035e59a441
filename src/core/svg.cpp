#include "referee/core/svg.hpp"

#include <fmt/format.h>

namespace referee {

std::string xml_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default:
        // XML 1.0 allows no control character but tab, newline and carriage
        // return, not even as a character reference: show U+FFFD instead.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') out += "\xEF\xBF\xBD";
        else out += c;
    }
  }
  return out;
}

SvgWriter::SvgWriter(Aabb world, double pixels_per_unit, double margin)
    : world_(world), ppu_(pixels_per_unit), margin_(margin) {}

Vec2 SvgWriter::to_pixels(Vec2 w) const {
  return {(w.x - world_.min.x + margin_) * ppu_, (world_.max.y - w.y + margin_) * ppu_};
}

std::string SvgWriter::style_attrs(const SvgStyle& s) const {
  std::string a = fmt::format(R"(fill="{}" stroke="{}" stroke-width="{:.2f}")", s.fill, s.stroke, s.stroke_width * ppu_);
  if (s.opacity < 1.0) a += fmt::format(R"( opacity="{:.2f}")", s.opacity);
  if (!s.extra.empty()) a += " " + s.extra;
  return a;
}

std::string SvgWriter::points_attr(std::span<const Vec2> pts) const {
  std::string a;
  for (Vec2 p : pts) {
    Vec2 q = to_pixels(p);
    a += fmt::format("{:.2f},{:.2f} ", q.x, q.y);
  }
  if (!a.empty()) a.pop_back();
  return a;
}

void SvgWriter::begin_group(const std::string& id, const std::string& css_class) {
  body_ += fmt::format(R"(<g id="{}")", xml_escape(id));
  if (!css_class.empty()) body_ += fmt::format(R"( class="{}")", xml_escape(css_class));
  body_ += ">\n";
  ++depth_;
}

void SvgWriter::end_group() {
  if (depth_ == 0) return;
  body_ += "</g>\n";
  --depth_;
}

void SvgWriter::title(const std::string& text) { body_ += "<title>" + xml_escape(text) + "</title>\n"; }

void SvgWriter::rect(const Aabb& box, const SvgStyle& s) {
  std::array<Vec2, 4> pts{box.min, Vec2{box.max.x, box.min.y}, box.max, Vec2{box.min.x, box.max.y}};
  polygon(pts, s);
}

void SvgWriter::polygon(std::span<const Vec2> pts, const SvgStyle& s) {
  body_ += fmt::format(R"(<polygon points="{}" {}/>)", points_attr(pts), style_attrs(s)) + "\n";
}

void SvgWriter::oriented_rect(const OrientedRect& r, const SvgStyle& s) {
  auto c = r.corners();
  polygon(c, s);
}

void SvgWriter::polyline(std::span<const Vec2> pts, const SvgStyle& s) {
  body_ += fmt::format(R"(<polyline points="{}" {}/>)", points_attr(pts), style_attrs(s)) + "\n";
}

void SvgWriter::line(Vec2 a, Vec2 b, const SvgStyle& s) {
  Vec2 p = to_pixels(a), q = to_pixels(b);
  body_ += fmt::format(R"(<line x1="{:.2f}" y1="{:.2f}" x2="{:.2f}" y2="{:.2f}" {}/>)", p.x, p.y, q.x, q.y,
                       style_attrs(s)) + "\n";
}

void SvgWriter::circle(Vec2 c, double r, const SvgStyle& s) {
  Vec2 p = to_pixels(c);
  body_ += fmt::format(R"(<circle cx="{:.2f}" cy="{:.2f}" r="{:.2f}" {}/>)", p.x, p.y, r * ppu_, style_attrs(s)) + "\n";
}

void SvgWriter::text(Vec2 at, const std::string& s, double size, const std::string& fill) {
  Vec2 p = to_pixels(at);
  body_ += fmt::format(
      R"(<text x="{:.2f}" y="{:.2f}" font-size="{:.2f}" font-family="sans-serif" text-anchor="middle" dominant-baseline="middle" fill="{}">{}</text>)",
      p.x, p.y, size * ppu_, fill, xml_escape(s)) + "\n";
}

void SvgWriter::raw(const std::string& element) { body_ += element + "\n"; }

std::string SvgWriter::finish() {
  while (depth_ > 0) end_group();
  double w = (world_.max.x - world_.min.x + 2 * margin_) * ppu_;
  double h = (world_.max.y - world_.min.y + 2 * margin_) * ppu_;
  return fmt::format(
             R"(<svg xmlns="http://www.w3.org/2000/svg" width="{:.0f}" height="{:.0f}" viewBox="0 0 {:.2f} {:.2f}">)",
             w, h, w, h) + "\n" + body_ + "</svg>\n";
}

}  // namespace referee
