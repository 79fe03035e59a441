// Contact between units, and who is engaged in combat, worked out from the
// stands (docs/rulings.md#warmaster-engaged).
//
// Two units touch when a stand of one lies within the contact tolerance of a
// stand of the other, edge or corner (the setting contact_tolerance, 0.5 mm:
// docs/rulings.md#warmaster-move-formation-at-the-start). A unit is engaged in combat exactly while a
// stand of an enemy unit touches one of its stands: there is no other way
// into combat and no other way out. Unit::engaged is this answer written
// down, set by mark_engaged wherever stands move (a battle file, the start
// of every phase, every charge, the end of the Shooting and Combat phases);
// a battle file or a saved state whose flag says otherwise is refused
// (check_engaged_flags).
//
// Cost: the units' boxes are swept along x, so only units whose boxes meet
// are measured stand by stand: O(n log n) plus the pairs that are close.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "referee/warmaster/model/model.hpp"

namespace referee::warmaster {

// Do two units touch (within the tolerance)? Units with no stands touch nothing.
bool units_touch(const Unit& a, const Unit& b, double tolerance);
// Enemy units (the other side) touching `u` on `bf`, in battlefield order.
std::vector<std::string> enemies_in_contact(const Battlefield& bf, const Unit& u, double tolerance);
// Every pair of enemy units (both with stands) whose stand boxes (stands_box)
// come within `reach` of each other on both axes, as indices into bf.units
// (first < second), in no particular order: the candidates a closer test
// needs, found by sweeping the boxes along x, so the cost follows the pairs
// that are near rather than the square of the battle. `boxes`, if given, gets
// each unit's stand box (parallel to bf.units; empty units' are left zero).
std::vector<std::pair<std::size_t, std::size_t>> near_enemy_pairs(const Battlefield& bf, double reach,
                                                                  std::vector<Aabb>* boxes = nullptr);
// Every pair of enemy units in contact, as indices into bf.units (first < second), sorted.
std::vector<std::pair<std::size_t, std::size_t>> enemy_contacts(const Battlefield& bf, double tolerance);
// For each unit of `bf` (parallel to bf.units): is an enemy stand touching it now?
std::vector<char> engaged_now(const Battlefield& bf, double tolerance);
// Sets every unit's `engaged` to engaged_now.
void mark_engaged(Battlefield& bf, double tolerance);

// The first unit whose `engaged` flag, as given, contradicts its stands:
// its index, and the reason in words ("marked engaged, but no enemy stand
// touches it: the nearest, orc-boyz-1, is 3.2 cm away").
struct EngagedMismatch {
  std::size_t unit = 0;
  std::string reason;
};
// `given[i]` is the flag a file gave unit i, or nullopt where it gave none.
std::optional<EngagedMismatch> check_engaged_flags(const Battlefield& bf, const std::vector<std::optional<bool>>& given,
                                                   double tolerance);

// Cheap test that two units could be within `gap` of each other: some pair of
// stand centres is closer than both half-diagonals plus the gap.
bool units_may_touch(const Unit& a, const Unit& b, double gap);
// Is the set `group` one body in the neighbour lists `adj` (indices into
// Battlefield::units)?
bool connected(const std::vector<int>& group, const std::vector<std::vector<int>>& adj);
// Neighbour lists for the units in `group` only, measured on `bf`.
std::vector<std::vector<int>> touching_between(const Battlefield& bf, const std::vector<int>& group, double tolerance);

}  // namespace referee::warmaster
