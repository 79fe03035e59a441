// Contact and engagement from the stands (contact.hpp).
#include "referee/warmaster/movement/contact.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "referee/core/ruling.hpp"
#include "referee/warmaster/movement/sight.hpp"
#include "movement/stand_pairs.hpp"

namespace referee::warmaster {

// Stand by stand, and only pairs whose circumscribed discs come within the
// tolerance: the first pair found touching settles it.
bool units_touch(const Unit& a, const Unit& b, double tolerance) {
  if (a.stands.empty() || b.stands.empty()) return false;
  const double reach = stand_circumradius(a) + stand_circumradius(b) + tolerance;
  RotMemo rot_a, rot_b;  // each unit's stands nearly always share a facing
  for (std::size_t i = 0; i < a.stands.size(); ++i)
    for (std::size_t j = 0; j < b.stands.size(); ++j) {
      if (length_squared(a.stands[i].pose.position - b.stands[j].pose.position) > reach * reach) continue;
      if (within_distance(a.footprint(i, rot_a), b.footprint(j, rot_b), tolerance)) return true;
    }
  return false;
}

std::vector<std::string> enemies_in_contact(const Battlefield& bf, const Unit& u, double tolerance) {
  std::vector<std::string> out;
  for (const Unit& e : bf.units)
    if (e.side != u.side && units_touch(u, e, tolerance)) out.push_back(e.id);
  return out;
}

std::vector<std::pair<std::size_t, std::size_t>> near_enemy_pairs(const Battlefield& bf, double reach,
                                                                  std::vector<Aabb>* boxes) {
  // Each box widened by half the reach: two widened boxes overlap when the
  // boxes come within the reach. Swept in order of their left edges, each is
  // compared only with those whose boxes reach it along x.
  struct Entry {
    Aabb box;
    std::size_t unit;
  };
  if (boxes) boxes->assign(bf.units.size(), Aabb{});
  std::vector<Entry> present;
  present.reserve(bf.units.size());
  for (std::size_t i = 0; i < bf.units.size(); ++i) {
    if (bf.units[i].stands.empty()) continue;
    const Aabb box = stands_box(bf.units[i]);
    if (boxes) (*boxes)[i] = box;
    present.push_back({box.inflated(reach / 2), i});
  }
  std::sort(present.begin(), present.end(), [](const Entry& a, const Entry& b) {
    return a.box.min.x < b.box.min.x || (a.box.min.x == b.box.min.x && a.unit < b.unit);
  });
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t pi = 0; pi < present.size(); ++pi)
    for (std::size_t pj = pi + 1; pj < present.size() && present[pj].box.min.x <= present[pi].box.max.x; ++pj)
      if (bf.units[present[pi].unit].side != bf.units[present[pj].unit].side &&
          present[pi].box.overlaps(present[pj].box))
        out.push_back(std::minmax(present[pi].unit, present[pj].unit));
  return out;
}

std::vector<std::pair<std::size_t, std::size_t>> enemy_contacts(const Battlefield& bf, double tolerance) {
  std::vector<std::pair<std::size_t, std::size_t>> out = near_enemy_pairs(bf, 2 * tolerance);
  std::erase_if(out, [&](const auto& p) { return !units_touch(bf.units[p.first], bf.units[p.second], tolerance); });
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<char> engaged_now(const Battlefield& bf, double tolerance) {
  std::vector<char> engaged(bf.units.size(), 0);
  for (const auto& [i, j] : enemy_contacts(bf, tolerance)) engaged[i] = engaged[j] = 1;
  return engaged;
}

void mark_engaged(Battlefield& bf, double tolerance) {
  const std::vector<char> engaged = engaged_now(bf, tolerance);
  for (std::size_t i = 0; i < bf.units.size(); ++i) bf.units[i].engaged = engaged[i] != 0;
}

std::optional<EngagedMismatch> check_engaged_flags(const Battlefield& bf, const std::vector<std::optional<bool>>& given,
                                                   double tolerance) {
  const std::vector<char> engaged = engaged_now(bf, tolerance);
  for (std::size_t i = 0; i < bf.units.size() && i < given.size(); ++i) {
    if (!given[i] || *given[i] == (engaged[i] != 0)) continue;
    const Unit& u = bf.units[i];
    if (*given[i]) {
      // Marked engaged, touching no enemy: say how far the nearest one is.
      const Unit* nearest = nullptr;
      double best = 0;
      for (const Unit& e : bf.units)
        if (e.side != u.side && !e.stands.empty() && !u.stands.empty()) {
          const double d = unit_distance(u, e).distance;
          if (!nearest || d < best) nearest = &e, best = d;
        }
      return EngagedMismatch{
          i, u.stands.empty()
                 ? fmt::format("{} is marked engaged but has no stands on the table", u.id)
                 : fmt::format("{} is marked engaged, but no enemy stand touches it within the contact tolerance of "
                               "{}{}",
                               u.id, fmt::format("{:g} cm", tolerance),
                               nearest ? fmt::format(": the nearest enemy, {}, is {} away", nearest->id,
                                                     format_measure(best, "cm"))
                                       : std::string(": it has no enemy on the table"))};
    }
    const std::vector<std::string> foes = enemies_in_contact(bf, u, tolerance);
    return EngagedMismatch{i, fmt::format("{} is marked not engaged, but {} touches it: units in contact with an "
                                          "enemy are engaged in combat",
                                          u.id, foes.empty() ? std::string("an enemy") : foes.front())};
  }
  return std::nullopt;
}

bool units_may_touch(const Unit& a, const Unit& b, double gap) {
  const double reach = stand_circumradius(a) + stand_circumradius(b) + gap;
  for (const Stand& s : a.stands)
    for (const Stand& t : b.stands)
      if (length_squared(s.pose.position - t.pose.position) <= reach * reach) return true;
  return false;
}

bool connected(const std::vector<int>& group, const std::vector<std::vector<int>>& adj) {
  if (group.empty()) return false;
  std::vector<int> seen{group.front()};
  for (std::size_t k = 0; k < seen.size(); ++k) {
    const auto& next = adj[static_cast<std::size_t>(seen[k])];
    for (int n : next)
      if (std::find(group.begin(), group.end(), n) != group.end() &&
          std::find(seen.begin(), seen.end(), n) == seen.end())
        seen.push_back(n);
  }
  return seen.size() == group.size();
}

std::vector<std::vector<int>> touching_between(const Battlefield& bf, const std::vector<int>& group, double tolerance) {
  std::vector<std::vector<int>> adj(bf.units.size());
  for (std::size_t i = 0; i < group.size(); ++i)
    for (std::size_t j = i + 1; j < group.size(); ++j) {
      const int a = group[i], b = group[j];
      if (units_touch(bf.units[static_cast<std::size_t>(a)], bf.units[static_cast<std::size_t>(b)], tolerance)) {
        adj[static_cast<std::size_t>(a)].push_back(b);
        adj[static_cast<std::size_t>(b)].push_back(a);
      }
    }
  return adj;
}

}  // namespace referee::warmaster
