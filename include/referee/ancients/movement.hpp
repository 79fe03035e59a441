// Unit and leader movement on the hex board: legal destinations and route
// checks. Pure functions of (battle, position); the search writes into a
// caller-owned scratch so the hot path never allocates (Wesnoth's flat-array
// pathfinder: costs and predecessors per hex, no global state).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "referee/ancients/model.hpp"
#include "referee/ancients/position.hpp"
#include "referee/core/ruling.hpp"

namespace referee::ancients {

struct MoveOptions {
  bool light_pass_through = false;  // the card lets light foot pass through friendly units
  bool operator==(const MoveOptions&) const = default;
};

// Why a unit that ends on a hex may not battle (kNone: it may).
enum class NoBattle : std::uint8_t { none, war_machine_moved, auxilia_two_hexes, terrain };

struct Destination {
  int hex = 0;
  int hexes = 0;                     // hexes moved by the shortest legal route
  bool may_battle = true;
  bool close_combat_compulsory = false;
  NoBattle no_battle = NoBattle::none;
  int attaches_leader = -1;          // a lone friendly leader on the hex attaches
  bool stops = false;                // the move must end here (terrain or a leader)
};

// Breadth-first search state over the flat per-hex arrays. Reused between
// searches: a generation stamp marks the hexes visited by the current one.
struct PathScratch {
  std::vector<std::uint32_t> stamp;
  std::vector<std::int8_t> dist;
  std::vector<std::int16_t> pred;
  std::vector<std::uint8_t> flags;   // kEndable | kExpand
  std::vector<std::int16_t> queue;
  std::uint32_t generation = 0;
  int visited = 0;                   // queue[0, visited) holds the hexes reached, start first
  void prepare(int cells);  // also empties the queue
  bool seen(int hex) const { return stamp[static_cast<std::size_t>(hex)] == generation; }
  // Marks `hex` reached at `dist` from `pred` and queues it (breadth first).
  void reach(int hex, int d, int from, std::uint8_t f) {
    auto h = static_cast<std::size_t>(hex);
    stamp[h] = generation;
    dist[h] = static_cast<std::int8_t>(d);
    pred[h] = static_cast<std::int16_t>(from);
    flags[h] = f;
    queue[static_cast<std::size_t>(visited++)] = static_cast<std::int16_t>(hex);
  }
};

// How far this unit may move now: its class allowance, reduced by terrain it
// starts in (marsh), 0 once it has moved or been stopped by a joining leader.
int unit_allowance(const Battle& b, const Position& p, int unit, const TerrainType** limited_by = nullptr);

// Fills `out` (cleared first) with every legal destination of `unit`.
// Ordering and turn state (ordered? already moved?) are checked by the game,
// not here; this answers "where can this unit go".
void unit_destinations(const Battle& b, const Position& p, int unit, const MoveOptions& o, PathScratch& s,
                       std::vector<Destination>& out);
// The shortest legal route to `to` (start first), or empty when there is none.
std::vector<int> unit_route(const Battle& b, const Position& p, int unit, int to, const MoveOptions& o,
                            PathScratch& s);
// The destination `to` of `unit` (as unit_destinations lists it), and its
// route into `route` when given (as unit_route gives it), from one search:
// what applying a checked move needs. Nullopt when `to` is no destination.
std::optional<Destination> unit_destination(const Battle& b, const Position& p, int unit, int to, const MoveOptions& o,
                                            PathScratch& s, std::vector<int>* route = nullptr);
// Legal or not, with a ruling for each reason the destination is refused.
Verdict check_unit_move(const Battle& b, const Position& p, int unit, ColRow to, const MoveOptions& o);
// A readable reason for a destination's battle flag.
std::string battle_reason(const Battle& b, const Position& p, int unit, const Destination& d);

// A lone (or detaching) leader: 1-3 hexes, through friendly units and leaders,
// never through or onto enemies, never ending on another friendly leader.
inline constexpr int kLeaderAllowance = 3;
void leader_destinations(const Battle& b, const Position& p, int leader, PathScratch& s, std::vector<Destination>& out);
std::vector<int> leader_route(const Battle& b, const Position& p, int leader, int to, PathScratch& s);
Verdict check_leader_move(const Battle& b, const Position& p, int leader, ColRow to);

nlohmann::json destination_json(const Battle& b, const Position& p, int unit, const Destination& d);

}  // namespace referee::ancients
