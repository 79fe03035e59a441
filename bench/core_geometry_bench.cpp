#include <benchmark/benchmark.h>

#include <cmath>

#include "referee/core/geometry.hpp"

using namespace referee;

// One stand-against-stand overlap test (issue target: <= 20 ns).
static void BM_StandOverlap(benchmark::State& state) {
  OrientedRect a = OrientedRect::from_pose({{10, 10}, 30}, 4, 2);
  OrientedRect b = OrientedRect::from_pose({{13, 11}, 75}, 4, 2);
  for (auto _ : state) {
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
    benchmark::DoNotOptimize(overlaps(a, b));
  }
}
BENCHMARK(BM_StandOverlap);

static void BM_StandDistance(benchmark::State& state) {
  OrientedRect a = OrientedRect::from_pose({{10, 10}, 30}, 4, 2);
  OrientedRect b = OrientedRect::from_pose({{23, 17}, 75}, 4, 2);
  for (auto _ : state) {
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(distance(a, b));
  }
}
BENCHMARK(BM_StandDistance);

namespace {
// A 7-point outline about 6 cm across, as a bench field's wood or hill.
Polygon blob_at(Vec2 c) {
  Polygon p;
  for (int i = 0; i < 7; ++i) {
    const double a = 2 * kPi * i / 7, r = i % 2 == 0 ? 6.0 : 4.5;
    p.points.push_back(c + Vec2{std::cos(a), std::sin(a)} * r);
  }
  return p;
}
}  // namespace

// Segment against polygon, far apart (the usual pair in a scene: the
// segment's box is nowhere near the polygon's), then near but missing (the
// boxes meet at a corner; the segment passes 1.5 cm from the outline).
static void BM_SegmentPolygonIntersectsFar(benchmark::State& state) {
  const Polygon poly = blob_at({20, 20});
  const Segment s{{60, 45}, {72, 51}};
  for (auto _ : state) {
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(intersects(s, poly));
  }
}
BENCHMARK(BM_SegmentPolygonIntersectsFar);

static void BM_SegmentPolygonIntersectsNearMiss(benchmark::State& state) {
  const Polygon poly = blob_at({20, 20});
  const Segment s{{23, 25.5}, {27, 21.5}};
  for (auto _ : state) {
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(intersects(s, poly));
  }
}
BENCHMARK(BM_SegmentPolygonIntersectsNearMiss);
