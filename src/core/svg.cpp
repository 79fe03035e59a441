#include "referee/core/svg.hpp"

#include <algorithm>
#include <array>
#include <cmath>

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

void SvgWriter::text_left(Vec2 at, const std::string& s, double size, const std::string& fill, bool bold) {
  Vec2 p = to_pixels(at);
  body_ += fmt::format(
      R"(<text x="{:.2f}" y="{:.2f}" font-size="{:.2f}" font-family="sans-serif"{} text-anchor="start" dominant-baseline="middle" fill="{}">{}</text>)",
      p.x, p.y, size * ppu_, bold ? R"( font-weight="bold")" : "", fill, xml_escape(s)) + "\n";
}

void SvgWriter::label(Vec2 at, const std::string& s, double size, const std::string& fill, const std::string& background,
                      double opacity) {
  Aabb b = text_box(at, s, size);
  body_ += fmt::format(R"(<g class="label" data-box="{:.3f} {:.3f} {:.3f} {:.3f}">)", b.min.x, b.min.y, b.max.x, b.max.y) + "\n";
  rect(b, {background, "none", 0.0, opacity, {}});
  text(at, s, size, fill);
  body_ += "</g>\n";
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

namespace {
std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  return n;
}

double overlap_area(const Aabb& a, const Aabb& b) {
  double w = std::min(a.max.x, b.max.x) - std::max(a.min.x, b.min.x);
  double h = std::min(a.max.y, b.max.y) - std::max(a.min.y, b.min.y);
  return w > 1e-9 && h > 1e-9 ? w * h : 0.0;
}
}  // namespace

Aabb text_box(Vec2 at, const std::string& s, double size) {
  const double half_w = (0.6 * static_cast<double>(code_points(s)) + 0.2) * size / 2;
  const double half_h = 0.55 * size + 0.05 * size;
  return {{at.x - half_w, at.y - half_h}, {at.x + half_w, at.y + half_h}};
}

std::vector<std::string> wrap_text(const std::string& s, double size, double width, double widen) {
  auto wide = [&](const std::string& t) {
    const Aabb b = text_box({0, 0}, t, size * widen);
    return b.max.x - b.min.x;
  };
  std::vector<std::string> lines;
  std::string line, word;
  auto add = [&] {
    if (word.empty()) return;
    if (line.empty() || wide(line + " " + word) <= width) {
      line = line.empty() ? word : line + " " + word;
    } else {
      lines.push_back(line);
      line = word;
    }
    word.clear();
  };
  for (char c : s) {
    if (c == ' ') add();
    else word += c;
  }
  add();
  if (!line.empty()) lines.push_back(line);
  return lines;
}

double LabelPlacer::overlap(const Aabb& b) const {
  double o = 0;
  for (const Aabb& p : placed_) o += overlap_area(b, p);
  for (const Aabb& c : clear_) o += overlap_area(b, c);
  // Outside the picture's bounds counts as overlap, so labels stay on it.
  const double inside = overlap_area(b, bounds_);
  const double area = (b.max.x - b.min.x) * (b.max.y - b.min.y);
  return o + 4 * (area - inside);
}

Vec2 LabelPlacer::place(Vec2 anchor, const std::string& s, double size, double gap) {
  const Aabb centred = text_box(anchor, s, size);
  const double hw = (centred.max.x - centred.min.x) / 2, hh = (centred.max.y - centred.min.y) / 2;
  const double step = 1.2 * size;
  // Below, above, right, left, then the diagonals, on rings moving outwards.
  static constexpr std::array<Vec2, 8> kDirs{Vec2{0, -1}, Vec2{0, 1},  Vec2{1, 0},  Vec2{-1, 0},
                                             Vec2{1, -1}, Vec2{-1, -1}, Vec2{1, 1}, Vec2{-1, 1}};
  std::vector<Vec2> tries;
  if (gap <= 0) tries.push_back(anchor);
  for (int ring = 0; ring < 6; ++ring) {
    const double d = gap + ring * step;
    for (Vec2 dir : kDirs) tries.push_back(anchor + Vec2{dir.x * (d + hw), dir.y * (d + hh)});
  }
  Vec2 best = tries.front();
  double best_overlap = 1e300;
  for (Vec2 t : tries) {
    double o = overlap(text_box(t, s, size));
    if (o < best_overlap - 1e-12) {
      best_overlap = o;
      best = t;
      if (o == 0) break;
    }
  }
  placed_.push_back(text_box(best, s, size));
  return best;
}

std::vector<Segment> segment_outside(Vec2 a, Vec2 b, std::span<const Aabb> boxes) {
  // Liang-Barsky: the parameter interval of a-b inside each box, then the
  // complement of their union.
  std::vector<std::pair<double, double>> inside;
  const Vec2 d = b - a;
  for (const Aabb& box : boxes) {
    double t0 = 0, t1 = 1;
    bool hit = true;
    const double p[4] = {-d.x, d.x, -d.y, d.y};
    const double q[4] = {a.x - box.min.x, box.max.x - a.x, a.y - box.min.y, box.max.y - a.y};
    for (int k = 0; k < 4 && hit; ++k) {
      if (std::fabs(p[k]) < 1e-12) {
        if (q[k] < 0) hit = false;
      } else {
        double t = q[k] / p[k];
        if (p[k] < 0) t0 = std::max(t0, t);
        else t1 = std::min(t1, t);
      }
    }
    if (hit && t0 < t1) inside.push_back({t0, t1});
  }
  std::sort(inside.begin(), inside.end());
  std::vector<Segment> out;
  double from = 0;
  for (auto [t0, t1] : inside) {
    if (t0 > from + 1e-9) out.push_back({a + d * from, a + d * t0});
    from = std::max(from, t1);
  }
  if (from < 1 - 1e-9) out.push_back({a + d * from, b});
  return out;
}

namespace {
constexpr double kMarkWidth = 1.6, kPad = 0.6, kRow = 1.6;  // in text sizes
constexpr double kTitleLine = 1.3;                           // between a title's lines, in text sizes
constexpr double kBold = 1.05;                               // the title is bold: a little wider
// fit_legend_title: DejaVu Sans Bold (the usual sans-serif) has lowercase
// letters up to about 0.7 em wide against text_box's 0.6 em average, so a
// wrapped line is allowed 10% less than the estimate says it may take.
constexpr double kBoldMargin = 1.1;

std::vector<std::string> title_lines(const std::string& title) {
  std::vector<std::string> lines;
  std::size_t from = 0;
  for (std::size_t at; (at = title.find('\n', from)) != std::string::npos; from = at + 1)
    lines.push_back(title.substr(from, at - from));
  lines.push_back(title.substr(from));
  return lines;
}

double column_width_of(std::span<const LegendEntry> entries, double size, double column_width) {
  if (column_width > 0) return column_width;
  double widest = 0;
  for (const LegendEntry& e : entries) {
    Aabb b = text_box({0, 0}, e.label, size);
    widest = std::max(widest, b.max.x - b.min.x);
  }
  return (kMarkWidth + 2 * kPad) * size + widest;
}
}  // namespace

std::string fit_legend_title(const std::string& title, std::span<const LegendEntry> entries, double size,
                             int columns, double column_width) {
  const double inner = std::max(1, columns) * column_width_of(entries, size, column_width);
  std::string out;
  for (const std::string& given : title_lines(title))
    for (const std::string& l : wrap_text(given, size, inner, kBold * kBoldMargin)) out += (out.empty() ? "" : "\n") + l;
  return out;
}

Vec2 legend_size(const std::string& title, std::span<const LegendEntry> entries, double size, int columns,
                 double column_width) {
  columns = std::max(1, columns);
  const std::size_t cols = static_cast<std::size_t>(columns);
  const std::size_t rows = (entries.size() + cols - 1) / cols;
  const std::vector<std::string> lines = title_lines(title);
  double title_width = 0;
  for (const std::string& l : lines) {
    const Aabb t = text_box({0, 0}, l, size * kBold);
    title_width = std::max(title_width, t.max.x - t.min.x);
  }
  const double width = std::max(2 * kPad * size + columns * column_width_of(entries, size, column_width),
                                title_width + 2 * kPad * size);
  return {width, (2.6 + kTitleLine * static_cast<double>(lines.size() - 1) + kRow * static_cast<double>(rows)) * size};
}

Aabb draw_legend(SvgWriter& svg, Vec2 top_left, const std::string& title, std::span<const LegendEntry> entries,
                 double size, int columns, double column_width) {
  columns = std::max(1, columns);
  const double mark_w = kMarkWidth * size, pad = kPad * size, row = kRow * size;
  column_width = column_width_of(entries, size, column_width);
  const Vec2 dims = legend_size(title, entries, size, columns, column_width);
  const double width = dims.x, height = dims.y;
  const Aabb frame{{top_left.x, top_left.y - height}, {top_left.x + width, top_left.y}};
  svg.begin_group("legend");
  svg.rect(frame, {"#ffffff", "#555555", 0.03 * size / 0.5, 0.92, {}});
  const std::vector<std::string> lines = title_lines(title);
  for (std::size_t k = 0; k < lines.size(); ++k)
    svg.text_left({top_left.x + pad, top_left.y - (1.2 + kTitleLine * static_cast<double>(k)) * size}, lines[k], size,
                  "#222222", true);
  // The entries start below the title's last line.
  const double below = kTitleLine * static_cast<double>(lines.size() - 1) * size;
  const std::size_t rows = (entries.size() + static_cast<std::size_t>(columns) - 1) / static_cast<std::size_t>(columns);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const LegendEntry& e = entries[i];
    const double x = top_left.x + pad + static_cast<double>(i / rows) * column_width;
    const double y = top_left.y - 2.6 * size - below - static_cast<double>(i % rows) * row;
    svg.begin_group(fmt::format("legend-{}", i), "legend-entry");
    const Vec2 m{x + mark_w / 2, y};
    switch (e.mark) {
      case LegendEntry::Mark::box:
        svg.rect({{x, y - 0.45 * size}, {x + mark_w, y + 0.45 * size}}, e.style);
        break;
      case LegendEntry::Mark::circle: svg.circle(m, 0.45 * size, e.style); break;
      case LegendEntry::Mark::line: svg.line({x, y}, {x + mark_w, y}, e.style); break;
      case LegendEntry::Mark::glyph: svg.text(m, e.glyph, size, e.style.fill); break;
    }
    svg.text_left({x + mark_w + pad, y}, e.label, size, "#222222");
    svg.end_group();
  }
  svg.end_group();
  return frame;
}

void draw_grid(SvgWriter& svg, const Aabb& area, double step, int major, const std::string& unit, double text_size) {
  svg.begin_group("grid");
  const int nx = static_cast<int>(std::floor((area.max.x - area.min.x) / step + 1e-9));
  const int ny = static_cast<int>(std::floor((area.max.y - area.min.y) / step + 1e-9));
  const SvgStyle minor{"none", "#000000", 0.02, 0.18, {}};
  const SvgStyle strong{"none", "#000000", 0.05, 0.35, {}};
  for (int i = 0; i <= nx; ++i) {
    const double x = area.min.x + i * step;
    svg.line({x, area.min.y}, {x, area.max.y}, i % major == 0 ? strong : minor);
    if (i % major == 0) {
      const std::string n = fmt::format("{:g}{}", i * step, unit);
      svg.text({x, area.min.y - 0.9 * text_size}, n, text_size, "#333333");
      svg.text({x, area.max.y + 0.9 * text_size}, n, text_size, "#333333");
    }
  }
  for (int j = 0; j <= ny; ++j) {
    const double y = area.min.y + j * step;
    svg.line({area.min.x, y}, {area.max.x, y}, j % major == 0 ? strong : minor);
    if (j % major == 0) {
      const std::string n = fmt::format("{:g}{}", j * step, unit);
      Aabb b = text_box({0, 0}, n, text_size);
      svg.text({area.min.x - 0.3 * text_size - b.max.x, y}, n, text_size, "#333333");
    }
  }
  svg.end_group();
}

}  // namespace referee
