// Shared by the *_vs_boost_test.cpp property tests: Boost.Geometry types and
// conversions from ours, and a uniform draw from our own generator so the
// random cases are the same on every machine.
#pragma once

#include <boost/geometry.hpp>
#include <boost/geometry/geometries/linestring.hpp>
#include <boost/geometry/geometries/point_xy.hpp>
#include <boost/geometry/geometries/polygon.hpp>
#include <boost/geometry/geometries/segment.hpp>

#include "referee/core/dice.hpp"
#include "referee/core/geometry.hpp"

namespace referee::test_support {

namespace bg = boost::geometry;
using BPoint = bg::model::d2::point_xy<double>;
using BPoly = bg::model::polygon<BPoint, false>;  // counter-clockwise
using BSeg = bg::model::segment<BPoint>;
using BLine = bg::model::linestring<BPoint>;

inline double uniform(Rng& rng, double lo, double hi) {
  return lo + (hi - lo) * static_cast<double>(rng.below(1u << 30)) / static_cast<double>(1u << 30);
}

inline BPoly to_boost(const Polygon& p) {
  BPoly out;
  for (Vec2 v : p.points) bg::append(out.outer(), BPoint(v.x, v.y));
  bg::correct(out);
  return out;
}

}  // namespace referee::test_support
