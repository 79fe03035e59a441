// Geometry kernels behind the transit model (transit.hpp) and sight
// (sight.hpp). Polygons are simple, in either winding; a polygon is filled.
// Tested against Boost.Geometry on random inputs (tests/warmaster/*_vs_boost_test.cpp).
#pragma once

#include <optional>

#include "referee/core/geometry.hpp"

namespace referee::warmaster {

// A disc of radius `r` whose centre moves along `path` (t from 0 to 1): the
// first t at which it comes within `r` of the filled polygon, i.e. the first
// contact of the swept disc. 0 when it starts within `r`. nullopt when the
// whole sweep stays further than `r` away.
//
// Method: the disc meets the polygon exactly when its centre enters the
// polygon inflated by r, which is the union of the polygon and one capsule
// (a segment thickened by r) per edge. Entering the polygon itself means
// crossing an edge, so it is enough to find the first entry into each
// capsule: two offset lines and two end circles, each a linear or quadratic
// equation in t. A path whose bounds, inflated by r, miss the polygon's is
// rejected first, before any edge is looked at.
std::optional<double> first_contact(const Segment& path, double r, const Polygon& poly);

// Fast distances for the hot loops (no hypot; one square root per call).
// Same answers as core distance(Segment, Polygon) and distance(Vec2, Polygon):
// 0 inside the filled polygon.
double fast_distance(const Segment& s, const Polygon& poly);
double fast_distance(Vec2 p, const Polygon& poly);
// fast_distance(s, poly) < thr, stopping at the first edge that decides it.
// The planner and check_leg both decide clearance with it, so they agree.
bool fast_within(const Segment& s, const Polygon& poly, double thr);
// The same for a rectangle (a stand's footprint), in its own frame.
bool fast_within(const Segment& s, const OrientedRect& rect, double thr);
bool fast_inside(const Polygon& poly, Vec2 p);  // crossing number; boundary points may go either way

// Closest points between two filled polygons (distance 0 and a common point
// when they overlap or touch).
ClosestPoints closest_points(const Polygon& a, const Polygon& b);

// Does the segment pass through the polygon's interior (more than `tol`
// inside)? Grazing a vertex or running along an edge is not passing through:
// this is "touching is not overlapping" for lines of sight.
bool crosses_interior(const Segment& s, const Polygon& poly, double tol = 1e-7);

// Do the two segments cross properly (each has its ends strictly on both
// sides of the other)? Touching at an end is not crossing.
bool crosses_properly(const Segment& s, const Segment& t);

// Does a centre path pass a gate (a closed gap)? Any contact with the gate
// counts, so a route cannot cross it in two legs that meet on it, except
// contact at the path's start: a stand already on the gate line may leave it.
bool passes_gate(const Segment& path, const Segment& gate, double tol);

// A polygon in counter-clockwise order (reversed copy when clockwise).
Polygon ccw(Polygon p);

}  // namespace referee::warmaster
