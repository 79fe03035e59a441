// The geometry of the stands in a fight (combat_phase.hpp): contact along an
// edge, the way directly away, which enemy stand each stand fights, the
// stands a unit loses first, a unit pushed straight back, and the group of
// units in contact.
#include "combat/combat_phase.hpp"

namespace referee::warmaster::combat_detail {

bool touching(const OrientedRect& a, const OrientedRect& b, double tol) {
  return a.bounds().inflated(tol).overlaps(b.bounds()) && distance(a, b) <= tol;
}

Aabb unit_box(const Unit& u) {
  Aabb b = u.footprint(0).bounds();
  for (std::size_t s = 1; s < u.stands.size(); ++s) b = b.merged(u.footprint(s).bounds());
  return b;
}

std::array<Segment, 4> edges(const OrientedRect& r) {
  const auto c = r.corners();  // front-left, front-right, rear-right, rear-left
  return {Segment{c[0], c[1]}, Segment{c[1], c[2]}, Segment{c[2], c[3]}, Segment{c[3], c[0]}};
}

double angle_between(double a, double b) {
  double d = std::fmod(std::abs(a - b), 360.0);
  return d > 180 ? 360 - d : d;
}

// How much of edge `e` lies within `tol` of rect `r` (cm): Liang-Barsky
// clipping of the edge against r's box grown by tol, in r's own frame. A
// corner touching gives about tol; an edge along an edge, their overlap.
double edge_contact(const Segment& e, const OrientedRect& r, double tol) {
  const Vec2 a = r.rot.apply_inverse(e.a - r.center), b = r.rot.apply_inverse(e.b - r.center);
  const Vec2 d = b - a;
  double t0 = 0, t1 = 1;
  const double lo[2] = {-r.half.x - tol, -r.half.y - tol}, hi[2] = {r.half.x + tol, r.half.y + tol};
  const double p[2] = {a.x, a.y}, q[2] = {d.x, d.y};
  for (int k = 0; k < 2; ++k) {
    if (std::abs(q[k]) < 1e-12) {
      if (p[k] < lo[k] || p[k] > hi[k]) return 0;
      continue;
    }
    double u0 = (lo[k] - p[k]) / q[k], u1 = (hi[k] - p[k]) / q[k];
    if (u0 > u1) std::swap(u0, u1);
    t0 = std::max(t0, u0);
    t1 = std::min(t1, u1);
    if (t0 > t1) return 0;
  }
  return (t1 - t0) * length(d);
}

// "Directly away" from an enemy stand it touches: the outward normal of the
// enemy stand's edge along which they touch most (docs/rulings.md#warmaster-combat-moves).
Vec2 away_from_stand(const OrientedRect& enemy, const OrientedRect& own, double tol) {
  const auto e = edges(enemy);
  int best = -1;
  double most = 0;
  for (int i = 0; i < 4; ++i) {
    const double c = edge_contact(e[static_cast<std::size_t>(i)], own, tol);
    if (c > most + 1e-9) {
      best = i;
      most = c;
    }
  }
  Vec2 n = best < 0 ? own.center - enemy.center
                    : (e[static_cast<std::size_t>(best)].a + e[static_cast<std::size_t>(best)].b) / 2 - enemy.center;
  return n / std::max(length(n), 1e-12);
}

// The enemy stand of the units in `foes` it touches along the longest edge
// (else the nearest), and the way directly away from it.
std::optional<Contact> contact_of(const Battlefield& bf, const Unit& u, const std::vector<std::string>& foes,
                                  double tol) {
  std::optional<Contact> out;
  double best = -1e18;
  for (const std::string& id : foes) {
    const Unit* e = bf.find_unit(id);
    if (!e || e->side == u.side) continue;
    for (std::size_t i = 0; i < u.stands.size(); ++i)
      for (std::size_t k = 0; k < e->stands.size(); ++k) {
        const OrientedRect own = u.footprint(i), er = e->footprint(k);
        double score = -distance(own, er);
        if (score >= -tol)
          for (const Segment& s : edges(er)) score = std::max(score, edge_contact(s, own, tol));
        if (score > best + 1e-9) {
          best = score;
          out = Contact{e->id, away_from_stand(er, own, tol)};
        }
      }
  }
  return out;
}

// Removes `n` stands of `u`, those nearest the units in `foes` first (to
// 0.01 cm); among those equally near, the one touching fewest stands of its
// own unit, so a line loses its ends and stays in formation
// (docs/rulings.md#warmaster-combat-casualties).
void remove_stands(const Battlefield& bf, Unit& u, int n, const std::vector<std::string>& foes, double tol) {
  for (int k = 0; k < n && !u.stands.empty(); ++k) {
    std::size_t best = 0;
    std::tuple<double, int, std::size_t> key{1e18, 0, 0};
    for (std::size_t s = 0; s < u.stands.size(); ++s) {
      const OrientedRect r = u.footprint(s);
      double d = 1e18;
      for (const std::string& e : foes)
        if (const Unit* eu = bf.find_unit(e))
          for (std::size_t i = 0; i < eu->stands.size(); ++i) d = std::min(d, distance(r, eu->footprint(i)));
      int neighbours = 0;
      for (std::size_t o = 0; o < u.stands.size(); ++o) neighbours += o != s && touching(r, u.footprint(o), tol);
      const std::tuple<double, int, std::size_t> mine{std::round(d * 100) / 100, neighbours, s};
      if (s == 0 || mine < key) {
        key = mine;
        best = s;
      }
    }
    u.stands.erase(u.stands.begin() + static_cast<std::ptrdiff_t>(best));
  }
}

// Moves unit `id` straight along `dir` by up to `dist` through the move
// checker (push_straight, as shooting's drive backs): whole, keeping formation
// and facing, never round what blocks it. Cut short: as far as it can go, to
// 0.01 cm. Over the table edge: not moved, left_table set (the caller decides).
Slide slide_unit(Battlefield& bf, const std::string& id, Vec2 dir, double dist, const Settings& settings) {
  Slide out;
  if (dist <= 0) return out;
  const MoveIndex index(bf);
  MoveScratch scratch;
  const StraightPush push = push_straight(bf, index, *bf.find_unit(id), dir, dist, settings, scratch);
  out.moved = push.moved;
  if (push.leaves_table) {
    out.left_table = true;
    return out;
  }
  out.blocked = push.blocked;
  out.why = push.why;
  out.shift = dir * push.moved;
  Unit& m = *bf.find_unit(id);
  for (Stand& s : m.stands) s.pose.position += out.shift;
  for (Character& c : bf.characters)
    if (c.joined_unit == id) {
      c.pose.position += out.shift;
      out.characters.push_back(c.id);
    }
  return out;
}

std::string with_characters(const std::vector<std::string>& chars, const char* verb) {
  if (chars.empty()) return {};
  return fmt::format("; {} {} with it", fmt::join(chars, ", "), verb);
}

// The stand of `u` fights an enemy stand along its front edge if there is
// one; else one along its side or rear edge, at -1; else one it touches only
// at a corner, as to its front (docs/rulings.md#warmaster-combat-modifiers).
std::optional<Fight> fight_of(const Battlefield& bf, const Unit& u, std::size_t s, const std::vector<std::string>& group,
                              double tol) {
  const OrientedRect r = u.footprint(s);
  const auto own = edges(r);
  // More than a corner's touch: longer than the tolerance either side of it.
  const double along = 2 * tol + 0.01;
  std::optional<Fight> side_fight, corner_fight;
  for (const std::string& id : group) {
    const Unit* e = bf.find_unit(id);
    if (!e || e->side == u.side) continue;
    for (std::size_t k = 0; k < e->stands.size(); ++k) {
      const OrientedRect er = e->footprint(k);
      if (!touching(r, er, tol)) continue;
      if (edge_contact(own[0], er, tol) > along) return Fight{s, e->id, true};
      bool side = false;
      for (int i = 1; i < 4; ++i) side = side || edge_contact(own[static_cast<std::size_t>(i)], er, tol) > along;
      if (side && !side_fight) side_fight = Fight{s, e->id, false};
      if (!side && !corner_fight) corner_fight = Fight{s, e->id, true};
    }
  }
  return side_fight ? side_fight : corner_fight;
}

const CombatDecision* decision_of(const CombatOptions& o, const std::string& unit) {
  for (const CombatDecision& d : o.decisions)
    if (d.unit == unit) return &d;
  return nullptr;
}

// The connected group of units in contact, grown from `seeds` over enemy
// contacts, in battlefield order.
std::vector<Aabb> unit_boxes(const Battlefield& bf) {
  std::vector<Aabb> out;
  for (const Unit& u : bf.units) out.push_back(u.stands.empty() ? Aabb{{0, 0}, {0, 0}} : unit_box(u));
  return out;
}

std::vector<std::string> contact_group(const Battlefield& bf, const std::vector<std::string>& seeds, double tol) {
  const std::vector<Aabb> boxes = unit_boxes(bf);
  std::vector<char> in(bf.units.size(), 0);
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < bf.units.size(); ++i)
    if (std::find(seeds.begin(), seeds.end(), bf.units[i].id) != seeds.end()) {
      in[i] = 1;
      todo.push_back(i);
    }
  while (!todo.empty()) {
    const std::size_t i = todo.back();
    todo.pop_back();
    for (std::size_t k = 0; k < bf.units.size(); ++k)
      if (!in[k] && bf.units[k].side != bf.units[i].side && boxes[i].inflated(tol).overlaps(boxes[k]) &&
          units_touch(bf.units[i], bf.units[k], tol)) {
        in[k] = 1;
        todo.push_back(k);
      }
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < bf.units.size(); ++i)
    if (in[i]) out.push_back(bf.units[i].id);
  return out;
}

}  // namespace referee::warmaster::combat_detail
