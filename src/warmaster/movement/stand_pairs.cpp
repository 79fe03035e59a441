#include "movement/stand_pairs.hpp"

namespace referee::warmaster {

// The pair with the nearest centres is measured first, so that the best
// distance is small from the start and the disc bound skips most pairs. A
// pair measured out of order replaces the best when strictly nearer, or as
// near and earlier in stand order: the same pair a plain in-order scan keeps.
NearestStands nearest_stands(const Unit& a, const StandRects& ra, const Unit& b, const StandRects& rb) {
  NearestStands best;
  const std::size_t n = ra.size(), m = rb.size();
  if (n == 0 || m == 0) return best;
  std::size_t si = 0, sj = 0;
  double seed = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      const double d2 = length_squared(a.stands[i].pose.position - b.stands[j].pose.position);
      if (d2 < seed) {
        seed = d2;
        si = i;
        sj = j;
      }
    }
  auto measure = [&](std::size_t i, std::size_t j) {
    const ClosestPoints c = closest_points(ra[i], rb[j]);
    const StandIndex ii(i), jj(j);
    const bool earlier = !best.a.is_none() && (ii < best.a || (ii == best.a && jj < best.b));
    if (c.distance < best.points.distance || (c.distance == best.points.distance && earlier)) {
      best.a = ii;
      best.b = jj;
      best.points = c;
    }
  };
  measure(si, sj);
  const double reach = stand_circumradius(a) + stand_circumradius(b) + kDiscSlack;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      if (i == si && j == sj) continue;
      const double bound = best.points.distance + reach;  // centres further apart than this: no nearer pair
      if (length_squared(a.stands[i].pose.position - b.stands[j].pose.position) > bound * bound) continue;
      measure(i, j);
    }
  return best;
}

}  // namespace referee::warmaster
