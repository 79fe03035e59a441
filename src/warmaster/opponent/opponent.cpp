#include "referee/warmaster/opponent/opponent.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "referee/warmaster/combat/combat.hpp"
#include "referee/warmaster/command/initiative.hpp"
#include "referee/warmaster/command/orders.hpp"
#include "referee/warmaster/shooting/shooting.hpp"
#include "referee/warmaster/movement/moving_chargers.hpp"
#include "referee/warmaster/movement/formation_plans.hpp"
#include "referee/warmaster/movement/sight.hpp"
#include "referee/warmaster/model/troops.hpp"
#include "movement/stand_pairs.hpp"

namespace referee::warmaster {

namespace {

constexpr double kCell = 2.0;         // cm, the navigation grid
constexpr double kFar = 1e9;

double uniform01(Rng& rng) { return static_cast<double>(rng.next() >> 11) * (1.0 / 9007199254740992.0); }

// P(2D6 <= n).
double pass_chance(int needed) {
  static constexpr int kWays[13] = {0, 0, 1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36};
  if (needed < 2) return 0;
  if (needed >= 12) return 1;
  return kWays[needed] / 36.0;
}

bool on_table(const BattleState& s, std::size_t i) {
  return !s.battlefield().units[i].stands.empty() && !s.units()[i].off_table && !s.units()[i].destroyed;
}

bool is_shooter(const Unit& u) { return u.missile != Missile::None; }
// Units that should keep their distance: artillery and machines, and shooters
// too weak to fight (one Attack a stand).
bool keeps_range(const Unit& u) {
  return u.type == TroopType::Artillery || u.type == TroopType::Machine || (is_shooter(u) && u.attacks <= 1);
}

double pace_of(const Unit& u, MoveKind kind, const Settings& settings) {
  return move_pace(u, kind, classify_formation(u, settings)).allowance;
}

// --- Odds ----------------------------------------------------------------------

CombatOddsSide odds_side(const Unit& u, int dice, Position position) {
  CombatOddsSide o;
  o.dice = std::clamp(dice, 0, 40);
  o.position = position;
  o.armour = u.armour;
  return o;
}

}  // namespace

namespace {

// charge_value with the target's position given, and the odds' difference
// looked up in `memo` (the opponent's scratch: a pure function of a few
// numbers, asked again and again as units are weighed action after action)
// when there is one.
double charge_value_at(const Unit& charger, const Unit& target, Position pos, int fighting_charger,
                       int fighting_target, int ally_dice, OpponentScratch::OddsMemo* memo) {
  if (charger.stands.empty() || target.stands.empty()) return -1;
  const int sa = fighting_charger > 0 ? fighting_charger : static_cast<int>(charger.stands.size());
  const int sb = fighting_target > 0 ? fighting_target : static_cast<int>(target.stands.size());
  int a = charger.attacks * sa;
  if (pos == Position::Open) {
    a += sa;
    if (charger.type == TroopType::Monster || charger.type == TroopType::Chariot) a += sa;
  }
  if (target.terrifying) a -= sa;
  a += std::max(0, ally_dice);
  int b = target.attacks * sb;
  if (charger.terrifying) b -= sb;
  CombatOddsRequest r;
  r.a = odds_side(charger, a, Position::Open);
  r.b = odds_side(target, b, pos);
  const OpponentScratch::OddsKey key{r.a.dice, static_cast<int>(r.a.position), r.a.armour, r.a.support,
                                     r.b.dice, static_cast<int>(r.b.position), r.b.armour, r.b.support};
  double wins;
  if (auto it = memo ? memo->find(key) : OpponentScratch::OddsMemo::iterator{}; memo && it != memo->end()) {
    wins = it->second;
  } else {
    const CombatOdds o = combat_odds(r);
    wins = o.a_wins - o.b_wins;
    if (memo) {
      if (memo->size() >= 4096) memo->clear();
      memo->emplace(key, wins);
    }
  }
  // Stands are lost per full Hits of damage: a tough unit loses fewer.
  double v = wins;
  v += 0.05 * (charger.hits - target.hits) / 3.0;
  return v;
}

}  // namespace

double charge_value(const Battlefield& bf, const Unit& charger, const Unit& target, const Settings& settings,
                    int fighting_charger, int fighting_target, int ally_dice) {
  if (charger.stands.empty() || target.stands.empty()) return -1;
  return charge_value_at(charger, target, position_of(bf, target, settings).position, fighting_charger,
                         fighting_target, ally_dice, nullptr);
}

namespace {

// --- Navigation -----------------------------------------------------------------

struct Grid {
  int nx = 0, ny = 0;
  int index(Vec2 p) const {
    const int x = std::clamp(static_cast<int>(p.x / kCell), 0, nx - 1);
    const int y = std::clamp(static_cast<int>(p.y / kCell), 0, ny - 1);
    return y * nx + x;
  }
  Vec2 centre(int i) const { return {(i % nx + 0.5) * kCell, (i / nx + 0.5) * kCell}; }
};

Grid grid_of(const Battlefield& bf) {
  return {std::max(1, static_cast<int>(std::ceil(bf.width / kCell))),
          std::max(1, static_cast<int>(std::ceil(bf.height / kCell)))};
}

// Cells a tile (the unit of the lazy work below) is wide and high.
constexpr int kTile = 16;

// Where `type` may go, cell by cell, worked out for the cells a search
// reaches and kept for the battle (scratch.passable; the terrain never
// changes during a battle).
OpponentScratch::Passable& passable(const Battlefield& bf, TroopType type, double margin, OpponentScratch& scratch) {
  const void* key = &bf.terrain.get();
  const Grid g = grid_of(bf);
  const std::size_t cells = static_cast<std::size_t>(g.nx) * static_cast<std::size_t>(g.ny);
  for (OpponentScratch::Passable& p : scratch.passable)
    if (p.terrain == key && p.features == bf.terrain.size() && p.type == type && p.margin == margin &&
        p.state.size() == cells)
      return p;
  OpponentScratch::Passable& p = scratch.passable.emplace_back();
  p.terrain = key;
  p.features = bf.terrain.size();
  p.type = type;
  p.margin = margin;
  p.state.assign(cells, 0);
  return p;
}

// Is cell i open to a stand's centre? A stand's centre keeps `margin` (half
// its longest edge and a little more) from what it may not enter; crossings
// (fords, bridges) open the way again. A point is closed when inside terrain
// the type may not enter and not on a crossing; a cell is open when its
// centre and eight points around it at `margin` are not closed. Only the
// features near the cell are read (through the move index).
bool terrain_open(const Battlefield& bf, const MoveIndex& index, OpponentScratch::Passable& p, const Grid& g, int i,
                  const Settings& settings, std::vector<int>& near) {
  unsigned char& state = p.state[static_cast<std::size_t>(i)];
  if (state == 0) {
    const double margin = p.margin;
    const Vec2 c = g.centre(i);
    near.clear();
    index.terrain_near(Aabb{c, c}.inflated(margin + 1e-6), near);
    auto closed = [&](const TerrainFeature& f) { return !may_enter(p.type, f.kind, settings); };
    auto crossing = [&](const TerrainFeature& f) {
      return !closed(f) && (f.kind == TerrainKind::Ford || f.kind == TerrainKind::Bridge);
    };
    auto closed_at = [&](Vec2 q) {
      bool in = false;
      for (int k : near) {
        const TerrainFeature& f = bf.terrain[static_cast<std::size_t>(k)];
        if (closed(f) && f.bounds.contains(q))
          for (const Polygon& piece : f.pieces) in = in || contains(piece, q);
      }
      if (!in) return false;
      for (int k : near) {
        const TerrainFeature& f = bf.terrain[static_cast<std::size_t>(k)];
        if (crossing(f) && f.bounds.contains(q))
          for (const Polygon& piece : f.pieces)
            if (contains(piece, q)) return false;
      }
      return true;
    };
    bool is_near = false;
    for (int k : near) {
      const TerrainFeature& f = bf.terrain[static_cast<std::size_t>(k)];
      is_near = is_near || (closed(f) && f.bounds.inflated(margin).contains(c));
    }
    bool blocked = false;
    if (is_near) {
      const double r = margin / std::sqrt(2.0);
      const Vec2 around[9] = {{0, 0}, {margin, 0}, {-margin, 0}, {0, margin}, {0, -margin},
                              {r, r}, {r, -r},     {-r, r},     {-r, -r}};
      for (const Vec2& o : around) blocked = blocked || closed_at(c + o);
    }
    state = blocked ? 2 : 1;
  }
  return state == 1;
}

// Calls f(cell) for the cells the boxes of a stand's sweep meet: the points
// of a kCell lattice from b.min to b.max (and b.max itself), each in its cell.
template <typename F>
void for_cells_of(const Grid& g, const Aabb& b, F f) {
  for (double y = b.min.y; y <= b.max.y + kCell; y += kCell)
    for (double x = b.min.x; x <= b.max.x + kCell; x += kCell) f(g.index({std::min(x, b.max.x), std::min(y, b.max.y)}));
}

namespace distance_field_parts {

// The stamp of a new search: the field's cells are reset only when the
// table, its tiles or its units changed size, or the stamps ran out.
std::uint32_t next_field_stamp(OpponentScratch::Field& F, std::size_t cells, int tiles, std::size_t units) {
  if (F.seen.size() != cells || F.tile.size() != static_cast<std::size_t>(tiles) ||
      F.unit.size() != units || F.stamp == std::numeric_limits<std::uint32_t>::max()) {
    F.seen.assign(cells, 0);
    F.settled.assign(cells, 0);
    F.blocked.assign(cells, 0);
    F.reopened.assign(cells, 0);
    F.d.assign(cells, 0);
    F.tile.assign(static_cast<std::size_t>(tiles), 0);
    F.unit.assign(units, 0);
    F.stamp = 0;
  }
  return ++F.stamp;
}

// The search starts from the cells under the target's stands, at their
// distance from the nearest of them.
void seed_field_at_target(const Grid& g, const Unit& target, OpponentScratch::Field& F, std::uint32_t stamp,
                          std::vector<std::pair<float, int>>& heap) {
  using Item = std::pair<float, int>;
  heap.clear();
  for (std::size_t k = 0; k < target.stands.size(); ++k) {
    const OrientedRect r = target.footprint(k);
    for_cells_of(g, r.bounds(), [&](int i) {
      const float v = static_cast<float>(distance(g.centre(i), r));
      const std::size_t si = static_cast<std::size_t>(i);
      if (F.seen[si] != stamp || v < F.d[si]) {
        F.seen[si] = stamp;
        F.d[si] = v;
        heap.push_back({v, i});
      }
    });
  }
  std::make_heap(heap.begin(), heap.end(), std::greater<Item>{});
}

// The needed cells, each counted once.
void needed_cells(const Grid& g, const std::vector<Vec2>& needed, std::vector<int>& wanted) {
  wanted.clear();
  for (Vec2 p : needed) wanted.push_back(g.index(p));
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
}

}  // namespace distance_field_parts

// Distance (cm, along the grid) from cells to the target unit's stands,
// round what `mover` may not enter; read it with field_at. Other units'
// stands are in the way too (a file of men does not walk through a friendly
// unit on a bridge): the field goes round them, so a crowded crossing sends
// the next unit to another.
//
// The search (Dijkstra from the target) stops once the cells of `needed`
// are settled, so it reaches about as far from the target as the mover
// stands, whatever the table: every cell nearer than those has its final
// distance, and a cell further has an estimate no smaller than its
// distance (or none: kFar), so comparisons with a needed cell's distance go
// as over the whole table. What it reads is worked out as it goes, for the
// tiles of cells it reaches: the terrain (kept for the battle) and the units
// in the way (through the move index).
void distance_field(const Battlefield& bf, const MoveIndex& index, const Unit& mover, const Unit& target,
                    const Settings& settings, OpponentScratch& scratch, const std::vector<int>& movers,
                    bool units_block, const std::vector<Vec2>& needed) {
  const Grid g = grid_of(bf);
  const std::size_t cells = static_cast<std::size_t>(g.nx) * static_cast<std::size_t>(g.ny);
  const int tiles_x = (g.nx + kTile - 1) / kTile, tiles_y = (g.ny + kTile - 1) / kTile;
  const double margin = 0.5 * std::max(mover.width, mover.depth) + 0.5;
  OpponentScratch::Passable& terrain = passable(bf, mover.type, margin, scratch);
  OpponentScratch::Field& F = scratch.field;
  const std::uint32_t stamp = distance_field_parts::next_field_stamp(F, cells, tiles_x * tiles_y, bf.units.size());
  F.nx = g.nx;
  auto excluded = [&](std::size_t i) {
    const Unit& u = bf.units[i];
    return &u == &mover || &u == &target || std::find(movers.begin(), movers.end(), static_cast<int>(i)) != movers.end();
  };
  // The units in the way of a tile's cells: those with a stand whose centre
  // distance test can close one of them (its bounds within the margin).
  std::vector<int>& near = scratch.near;
  auto block_tile = [&](int t) {
    F.tile[static_cast<std::size_t>(t)] = stamp;
    const int tx = t % tiles_x, ty = t / tiles_x;
    const Aabb box{{tx * kTile * kCell, ty * kTile * kCell}, {(tx + 1) * kTile * kCell, (ty + 1) * kTile * kCell}};
    near.clear();
    index.units_near(box.inflated(margin + 1e-6), near);
    for (int k : near) {
      const std::size_t ui = static_cast<std::size_t>(k);
      if (F.unit[ui] == stamp || excluded(ui)) continue;
      F.unit[ui] = stamp;
      const Unit& u = bf.units[ui];
      for (std::size_t s = 0; s < u.stands.size(); ++s) {
        const OrientedRect r = u.footprint(s);
        for_cells_of(g, r.bounds().inflated(margin), [&](int i2) {
          if (distance(g.centre(i2), r) < margin * 0.8) F.blocked[static_cast<std::size_t>(i2)] = stamp;
        });
      }
    }
  };
  // Where the movers stand is open again (friends touching them must not
  // shut them in), as far as the terrain allows.
  auto reopen = [&](const Unit& u) {
    for (std::size_t k = 0; k < u.stands.size(); ++k)
      for_cells_of(g, u.footprint(k).bounds().inflated(margin + kCell),
                   [&](int i2) { F.reopened[static_cast<std::size_t>(i2)] = stamp; });
  };
  if (units_block) {
    reopen(mover);
    for (int m : movers) reopen(bf.units[static_cast<std::size_t>(m)]);
  }
  std::vector<int>& terrain_near = scratch.terrain_near;
  auto open = [&](int j) {
    const std::size_t sj = static_cast<std::size_t>(j);
    if (!terrain_open(bf, index, terrain, g, j, settings, terrain_near)) return false;
    if (!units_block || F.reopened[sj] == stamp) return true;
    const int t = (j / g.nx / kTile) * tiles_x + (j % g.nx) / kTile;
    if (F.tile[static_cast<std::size_t>(t)] != stamp) block_tile(t);
    return F.blocked[sj] != stamp;
  };
  auto value = [&](int i) -> float& { return F.d[static_cast<std::size_t>(i)]; };
  auto reached = [&](int i) { return F.seen[static_cast<std::size_t>(i)] == stamp; };
  using Item = std::pair<float, int>;
  std::vector<Item>& heap = scratch.heap;
  distance_field_parts::seed_field_at_target(g, target, F, stamp, heap);
  std::vector<int>& wanted = scratch.wanted;
  distance_field_parts::needed_cells(g, needed, wanted);
  std::size_t left = wanted.size();
  static constexpr int kDx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
  static constexpr int kDy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
  const float diag = static_cast<float>(kCell * std::sqrt(2.0));
  while (!heap.empty() && left > 0) {
    std::pop_heap(heap.begin(), heap.end(), std::greater<Item>{});
    const auto [di, i] = heap.back();
    heap.pop_back();
    if (F.settled[static_cast<std::size_t>(i)] == stamp || di != value(i)) continue;  // settled, or overtaken
    F.settled[static_cast<std::size_t>(i)] = stamp;
    if (std::binary_search(wanted.begin(), wanted.end(), i)) --left;
    const int x = i % g.nx, y = i / g.nx;
    for (int k = 0; k < 8; ++k) {
      const int xx = x + kDx[k], yy = y + kDy[k];
      if (xx < 0 || yy < 0 || xx >= g.nx || yy >= g.ny) continue;
      const int j = yy * g.nx + xx;
      const float nd = di + (k < 4 ? static_cast<float>(kCell) : diag);
      if (reached(j) && !(nd < value(j))) continue;
      if (!open(j)) continue;
      F.seen[static_cast<std::size_t>(j)] = stamp;
      value(j) = nd;
      heap.push_back({nd, j});
      std::push_heap(heap.begin(), heap.end(), std::greater<Item>{});
    }
  }
}

// The field's value in the cell at `p` (kFar where the search did not reach).
double field_value(const OpponentScratch& scratch, int i) {
  const OpponentScratch::Field& F = scratch.field;
  if (F.seen[static_cast<std::size_t>(i)] != F.stamp) return kFar;
  return F.d[static_cast<std::size_t>(i)];
}

double field_at(const Battlefield& bf, const OpponentScratch& scratch, Vec2 p) {
  return field_value(scratch, grid_of(bf).index(p));
}

// Points along the way downhill from `from`, every cell, up to `length` cm.
std::vector<Vec2> downhill(const Battlefield& bf, const OpponentScratch& scratch, Vec2 from, double length) {
  const Grid g = grid_of(bf);
  std::vector<Vec2> path{from};
  int i = g.index(from);
  double walked = 0;
  while (walked < length) {
    const int x = i % g.nx, y = i / g.nx;
    int best = -1;
    double bd = field_value(scratch, i);
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int xx = x + dx, yy = y + dy;
        if ((dx == 0 && dy == 0) || xx < 0 || yy < 0 || xx >= g.nx || yy >= g.ny) continue;
        const int j = yy * g.nx + xx;
        if (field_value(scratch, j) < bd) {
          bd = field_value(scratch, j);
          best = j;
        }
      }
    if (best < 0) break;
    const Vec2 next = g.centre(best);
    walked += distance(path.back(), next);
    path.push_back(next);
    i = best;
  }
  return path;
}

// --- Moves -----------------------------------------------------------------------

// The stands one behind another along the way, the lead `d` cm along it
// (formation_plans.hpp), when the way is long enough for the column.
std::optional<MoveRequest> column_at(const Unit& u, const std::vector<Vec2>& path, double d, MoveKind kind) {
  if (d < (static_cast<double>(u.stands.size()) - 1) * u.depth) return std::nullopt;
  return column_along(u, path, kind, d);
}

// A column that follows the way: the stand nearest the target (by the
// distance field in scratch.field) leads along the way from where it stands;
// each other stand, nearest first, goes through the places the stands ahead
// of it started from, then along the way, so that a column threads a ford or
// a bridge as a file of men would.
std::optional<MoveRequest> column_follow(const Battlefield& bf, const OpponentScratch& scratch, const Unit& u,
                                         double d, MoveKind kind, bool straight_tail) {
  const std::size_t n = u.stands.size();
  if (n == 0 || d < static_cast<double>(n - 1) * u.depth + 0.5) return std::nullopt;
  std::vector<std::size_t> order(n);
  for (std::size_t k = 0; k < n; ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return field_at(bf, scratch, u.stands[a].pose.position) < field_at(bf, scratch, u.stands[b].pose.position);
  });
  const std::vector<Vec2> raw = downhill(bf, scratch, u.stands[order[0]].pose.position, d + 2.0);
  // Every few cm is enough: a staircase of cells would only add turns.
  std::vector<Vec2> path{raw.front()};
  double since = 0;
  for (std::size_t k = 1; k < raw.size(); ++k) {
    since += distance(raw[k - 1], raw[k]);
    if (since >= 4.0 || k + 1 == raw.size()) {
      path.push_back(raw[k]);
      since = 0;
    }
  }
  if (path.size() < 2) return std::nullopt;
  MoveRequest req;
  req.mover = u.id;
  req.kind = kind;
  const auto [lead_end, lead_heading] = point_along(path, d);
  for (std::size_t k = 0; k < n; ++k) {
    const double t = d - static_cast<double>(k) * u.depth;
    auto [end, heading] = point_along(path, t);
    if (straight_tail) {
      // Touching front to back behind the lead, all facing its way: a column.
      heading = lead_heading;
      end = lead_end - lead_heading * ((u.depth + 0.01) * static_cast<double>(k));
    }
    if (length(heading) < 1e-9) return std::nullopt;
    std::vector<Vec2> via;
    for (std::size_t j = k; j-- > 0;) via.push_back(u.stands[order[j]].pose.position);
    double walked = 0;
    for (std::size_t j = 1; j < path.size(); ++j) {
      walked += distance(path[j - 1], path[j]);
      if (walked >= t - 0.5) break;
      via.push_back(path[j]);
    }
    StandPlan p;
    p.stand = static_cast<int>(order[k]);
    Vec2 from = u.stands[order[k]].pose.position;
    for (const Vec2& w : via) {
      if (distance(from, w) < 0.3) continue;
      p.waypoints.push_back(Pose{w, compass_of(w - from)});
      from = w;
    }
    p.final_pose = Pose{end, compass_of(heading)};
    req.stands.push_back(p);
    req.order.push_back(static_cast<int>(order[k]));
  }
  return req;
}

// Charges lining the charger's stands up on the edge of the target's nearest
// stand that faces it: centred on the edge, and from either end of it.
std::vector<MoveRequest> lined_up_charges(const Unit& u, const Unit& e) {
  std::vector<MoveRequest> out;
  if (u.stands.empty() || e.stands.empty()) return out;
  const Vec2 c = stands_centre(u);
  std::size_t best = 0;
  double bd = kFar;
  for (std::size_t k = 0; k < e.stands.size(); ++k) {
    const double d = distance(c, e.footprint(k));
    if (d < bd) bd = d, best = k;
  }
  const Pose& es = e.stands[best].pose;
  const Rot er = Rot::from_degrees(es.facing_deg);
  const Vec2 local = er.apply_inverse(c - es.position);
  Vec2 n, t;
  double half_n, edge;
  if (std::abs(local.y) / (e.depth / 2) >= std::abs(local.x) / (e.width / 2)) {
    n = local.y >= 0 ? er.forward() : -er.forward();
    half_n = e.depth / 2;
    t = er.right();
    edge = e.width;
  } else {
    n = local.x >= 0 ? er.right() : -er.right();
    half_n = e.width / 2;
    t = er.forward();
    edge = e.depth;
  }
  const double facing = compass_of(-n);
  const double k = static_cast<double>(u.stands.size());
  // Our stands in their order across the line, so that paths do not cross.
  std::vector<int> order(u.stands.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return dot(u.stands[static_cast<std::size_t>(a)].pose.position, t) <
           dot(u.stands[static_cast<std::size_t>(b)].pose.position, t);
  });
  const Vec2 mid = es.position + n * (half_n + u.depth / 2 + 0.01);
  const double span = u.width * k;
  for (double offset : {0.0, (span - edge) / 2, -(span - edge) / 2}) {
    MoveRequest req;
    req.mover = u.id;
    req.kind = MoveKind::Charge;
    req.charge_target = e.id;
    for (std::size_t i = 0; i < order.size(); ++i) {
      StandPlan p;
      p.stand = order[i];
      p.final_pose.position = mid + t * (offset + (static_cast<double>(i) - (k - 1) / 2) * u.width);
      p.final_pose.facing_deg = facing;
      req.stands.push_back(p);
    }
    // The stand nearest the enemy moves first.
    std::vector<int> first(order);
    std::sort(first.begin(), first.end(), [&](int a, int b) {
      return distance(u.stands[static_cast<std::size_t>(a)].pose.position, es.position) <
             distance(u.stands[static_cast<std::size_t>(b)].pose.position, es.position);
    });
    req.order = first;
    out.push_back(std::move(req));
    if (span <= edge) break;
  }
  return out;
}

struct Ctx {
  const BattleState& s;
  const Battlefield& bf;
  const Settings& settings;
  Rng& rng;
  const OpponentOptions& o;
  OpponentScratch& scratch;
  int side;
  const MoveIndex& index;  // of bf: what is near a place
  double enemy_reach;      // the longest charge of an enemy unit on the table (cm)
  double charge_value_bound;  // no charge_value is further from 0

  bool legal(const Action& a) const { return s.validate(a, scratch.move).legal(); }
  // Where `u` is in the state's units; none for a unit as a move would leave it.
  std::optional<std::size_t> index_of(const Unit& u) const {
    const std::less<const Unit*> before;
    if (before(&u, bf.units.data()) || !before(&u, bf.units.data() + bf.units.size())) return std::nullopt;
    return static_cast<std::size_t>(&u - bf.units.data());
  }
  // A unit's position (open, defended, fortified), kept in the scratch (OpponentScratch::positions).
  Position position(const Unit& u) const {
    const std::optional<std::size_t> i = index_of(u);
    if (!i) return position_of(bf, u, settings).position;  // a unit as a move would leave it
    int& p = scratch.positions[*i];
    if (p < 0) p = static_cast<int>(position_of(bf, u, settings).position);
    return static_cast<Position>(p);
  }
  // BattleState::initiative_targets of unit i, kept in the scratch from
  // call to call (OpponentScratch::Candidates; note_changes forgets them).
  const std::vector<InitiativeCandidate>& candidates(std::size_t i, bool charge) const {
    OpponentScratch::Candidates& k = scratch.initiative[i];
    const Unit& u = bf.units[i];
    const int w = charge ? 1 : 0;
    if (k.known[w]) return k.list[w];
    k.list[w] = s.initiative_targets(u.id, charge, scratch.move);
    if (u.stands.empty()) return k.list[w];  // none, until it has stands again: not kept
    // The box initiative_candidates searches for enemies (it holds the
    // unit), and the units met there: every enemy measured and every line
    // of sight drawn (sight_area: between the unit and an enemy) lies
    // within those.
    Aabb region = stands_box(u).inflated(index.max_stand_radius() + kInitiativeRange + 0.01);
    std::vector<int>& met = scratch.near;
    met.clear();
    index.units_near(region, met);
    for (int m : met)
      if (const Unit& e = bf.units[static_cast<std::size_t>(m)]; !e.stands.empty()) region = region.merged(stands_box(e));
    k.region = k.known[1 - w] ? k.region.merged(region) : region;
    k.known[w] = true;
    return k.list[w];
  }
  // charge_value, with the positions and odds kept in the scratch.
  double value(const Unit& charger, const Unit& target, int fighting_charger = 0, int fighting_target = 0,
               int ally_dice = 0) const {
    if (charger.stands.empty() || target.stands.empty()) return -1;
    return charge_value_at(charger, target, position(target), fighting_charger, fighting_target, ally_dice,
                           &scratch.odds);
  }
};

// Units of side `side` on the table whose stands may lie within `d` cm of
// the box `near` (a stands_box), by index, ascending: the move index's boxes
// hold each unit's footprints, so no unit within d is left out, and the
// order is that of a pass over all units. Questions about what is near a
// unit read only what is near it, whatever the size of the battle.
std::vector<std::size_t> units_within(const Ctx& c, const Aabb& near, double d, int side) {
  std::vector<int> found;
  c.index.units_near(near.inflated(d + 1e-6), found);
  std::vector<std::size_t> out;
  for (int k : found) {
    const std::size_t i = static_cast<std::size_t>(k);
    if (c.bf.units[i].side == side && on_table(c.s, i)) out.push_back(i);
  }
  return out;
}
std::vector<std::size_t> enemies_within(const Ctx& c, const Unit& u, double d) {
  return units_within(c, stands_box(u), d, 1 - c.side);
}

// Enemies on the table, by index.
std::vector<std::size_t> enemies(const Ctx& c) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < c.bf.units.size(); ++i)
    if (c.bf.units[i].side != c.side && on_table(c.s, i)) out.push_back(i);
  return out;
}

// closest_enemy_distance (any enemy unit with stands), read through the
// move index in widening rings: an enemy within the ring's distance has its
// stands' box within it, so the nearest found there is the nearest of all.
double nearest_enemy(const Ctx& c, const Unit& u) {
  const Aabb box = stands_box(u);
  const double table = std::hypot(c.bf.width, c.bf.height);
  std::vector<int>& found = c.scratch.near;
  for (double ring = 30.0; ring <= table; ring *= 2) {
    found.clear();
    c.index.units_near(box.inflated(ring + 1e-6), found);
    double nearest = std::numeric_limits<double>::infinity();
    for (int k : found) {
      const Unit& e = c.bf.units[static_cast<std::size_t>(k)];
      if (e.side != u.side && !e.stands.empty()) nearest = std::min(nearest, unit_distance(u, e).distance);
    }
    if (nearest <= ring) return nearest;
  }
  return closest_enemy_distance(c.bf, u);
}

// The same, kept in the scratch for units of the state (OpponentScratch::Nearest).
double closest_enemy(const Ctx& c, const Unit& u) {
  const std::optional<std::size_t> i = c.index_of(u);
  if (u.stands.empty() || !i) return closest_enemy_distance(c.bf, u);
  OpponentScratch::Nearest& k = c.scratch.nearest[*i];
  if (!k.known) {
    k.distance = nearest_enemy(c, u);
    k.region = stands_box(u).inflated(std::min(k.distance, 1e6) + 0.01);
    k.known = true;
  }
  return k.distance;
}

// Is an enemy within the shooter's range? Kept in the scratch for units of
// the state (OpponentScratch::InRange): only units in the range's box are read.
bool enemy_in_range(const Ctx& c, const Unit& u) {
  if (!is_shooter(u)) return false;
  const double range = missile_range(u.missile);
  auto measure = [&] {
    for (std::size_t e : enemies_within(c, u, range))
      if (unit_distance(u, c.bf.units[e]).distance <= range) return true;
    return false;
  };
  const std::optional<std::size_t> i = c.index_of(u);
  if (u.stands.empty() || !i) return measure();
  OpponentScratch::InRange& k = c.scratch.in_range[*i];
  if (k.known < 0 || k.side != c.side) {
    k.known = measure() ? 1 : 0;
    k.side = c.side;
    k.region = stands_box(u).inflated(range + 0.01);
  }
  return k.known == 1;
}

// The enemy a unit goes for: near, and one it would beat. The score is the
// distance less 25 times the charge's value, which lies within
// charge_value_bound of 0, so only enemies within 50 times that of the
// nearest can score best: the search reads those, nearest first found by
// widening rings.
const Unit* choose_target(const Ctx& c, const Unit& u) {
  if (u.stands.empty()) return nullptr;
  const Aabb box = stands_box(u);
  const double table = std::hypot(c.bf.width, c.bf.height);
  double nearest = kFar;
  for (double ring = 30.0; nearest == kFar; ring *= 2) {
    for (std::size_t e : units_within(c, box, ring, 1 - c.side))
      nearest = std::min(nearest, unit_distance(u, c.bf.units[e]).distance);
    if (nearest > ring) nearest = kFar;  // a nearer one may lie beyond this ring
    if (ring > table && nearest == kFar) {
      // Every enemy is within the last ring: the nearest is its nearest.
      for (std::size_t e : enemies(c)) nearest = std::min(nearest, unit_distance(u, c.bf.units[e]).distance);
      break;
    }
  }
  if (nearest >= kFar) return nullptr;
  const double spread = keeps_range(u) ? 0.0 : 50.0 * c.charge_value_bound;
  const Unit* best = nullptr;
  double bs = kFar;
  for (std::size_t e : units_within(c, box, nearest + spread + 1.0, 1 - c.side)) {
    const Unit& en = c.bf.units[e];
    const double d = unit_distance(u, en).distance;
    double score = d;
    if (!keeps_range(u)) score -= 25.0 * c.value(u, en);
    if (score < bs) bs = score, best = &en;
  }
  return best;
}

struct Candidate {
  Action action;
  double score = 0;
  std::string reason;
};

// The odds a charge needs. Late in a battle that is not being won (no more
// enemy units lost than our own), a draw is no better than a loss, so the
// opponent takes fights it would otherwise refuse.
double charge_margin(const Ctx& c) {
  const int left = c.settings.turn_limit - c.s.turn();  // full turns after this one
  const bool winning = c.s.units_lost(1 - c.side) > c.s.units_lost(c.side);
  if (!winning && left < c.o.press_turns) return c.o.press_charge_margin;
  return c.o.charge_margin;
}

// Stands of `f` touching any stand of `e`.
int stands_touching(const Ctx& c, const Unit& f, const Unit& e) {
  const double touch = c.settings.contact_tolerance + 0.02;
  int k = 0;
  for (std::size_t i = 0; i < f.stands.size(); ++i)
    for (std::size_t j = 0; j < e.stands.size(); ++j)
      if (distance(f.footprint(i), e.footprint(j)) <= touch) {
        ++k;
        break;
      }
  return k;
}

// The dice friends of `u` will add against `en` in the same engagement: those
// already touching it (a charge made earlier this phase), and, by initiative,
// those that may still charge it by initiative because it is their closest
// visible enemy (each is expected to bring two stands into contact). Ganging
// up is how a weaker army wins fights: the combat result is the sum of hits.
int ally_dice(const Ctx& c, const Unit& u, const Unit& en, bool initiative) {
  const bool open = c.position(en) == Position::Open;
  int dice = 0;
  // Friends touching it, or within initiative range of it: the others add nothing.
  for (std::size_t i : units_within(c, stands_box(en), kInitiativeRange + 1.0, c.side)) {
    const Unit& f = c.bf.units[i];
    if (f.side != c.side || f.id == u.id || !on_table(c.s, i) || f.attacks <= 0 || keeps_range(f)) continue;
    const UnitStatus& st = c.s.units()[i];
    const int per = f.attacks - (f.confused ? 1 : 0) - (en.terrifying ? 1 : 0);
    if (const int k = stands_touching(c, f, en); k > 0) {
      dice += k * (per + (st.charged && open ? 1 : 0));
      continue;
    }
    if (!initiative || !st.near_enemy_at_start || st.used_initiative || st.moved || f.engaged || f.confused ||
        st.frozen)
      continue;
    for (const InitiativeCandidate& cand : c.candidates(i, true)) {
      if (!cand.visible) continue;
      if (cand.enemy == en.id) dice += std::min<int>(2, static_cast<int>(f.stands.size())) * (per + (open ? 1 : 0));
      break;
    }
  }
  return dice;
}

// The best favourable charge by `u` (ordered or by initiative), validated.
std::optional<Candidate> best_charge(const Ctx& c, const Unit& u, const Action& shell, bool initiative,
                                     const std::string& only_target = {}) {
  if (keeps_range(u) || u.attacks <= 0) return std::nullopt;
  const double allowance = pace_of(u, MoveKind::Charge, c.settings);
  const double margin = charge_margin(c);
  struct Target {
    double value;
    const Unit* unit;
    int allies;  // ally_dice: worked out once, it asks each friend's initiative targets
  };
  std::vector<Target> targets;
  for (std::size_t e : enemies_within(c, u, allowance)) {
    const Unit& en = c.bf.units[e];
    if (!only_target.empty() && en.id != only_target) continue;
    if (unit_distance(u, en).distance > allowance) continue;
    const int allies = ally_dice(c, u, en, initiative);
    const double v = c.value(u, en, 0, 0, allies);
    if (v >= margin) targets.push_back({v, &en, allies});
  }
  std::sort(targets.begin(), targets.end(), [](const Target& a, const Target& b) { return a.value > b.value; });
  for (const auto& [whole, en, allies] : targets) {
    (void)whole;
    // The engine's lined-up placement first (docs/rulings.md#warmaster-moving-chargers),
    // then the opponent's own lines across the edge, which the move check
    // takes where they too line up.
    std::vector<MoveRequest> moves;
    if (std::optional<MoveRequest> planned = plan_lined_up_charge(c.bf, u, *en, c.settings, &c.index, &c.scratch.move))
      moves.push_back(std::move(*planned));
    for (MoveRequest& m : lined_up_charges(u, *en)) moves.push_back(std::move(m));
    // The odds of each move with the stands that will touch: a column
    // charging fights with its first stand only.
    std::vector<std::pair<double, std::size_t>> ranked;
    for (std::size_t k = 0; k < moves.size(); ++k) {
      const Unit after = unit_after(u, moves[k]);
      const int fa = stands_touching(c, after, *en);
      if (fa == 0) continue;
      const int fb = stands_touching(c, *en, after);
      const double mv = c.value(u, *en, fa, std::max(fb, 1), allies);
      if (mv >= margin) ranked.push_back({mv, k});
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [mv, k] : ranked) {
      const MoveRequest& m = moves[k];
      const double v = mv;
      Action a = shell;
      if (initiative) {
        a.charge = true;
        a.target = en->id;
      }
      a.moves = {m};
      if (c.legal(a))
        return Candidate{a, v, "charges " + en->id + " (odds favour it: P(win) - P(lose) " + std::to_string(v) + ")"};
    }
  }
  return std::nullopt;
}

// The distance from the unit to its target along the way, and the way.
struct Way {
  const Unit* target = nullptr;
  double distance = kFar;     // cm along the grid from the unit's centre
  std::vector<Vec2> path;
};

// How far a unit wants to go toward `target` this move.
double wanted_distance(const Ctx& c, const Unit& u, const Unit& target, double along_way) {
  if (is_shooter(u) && keeps_range(u)) {
    const double range = missile_range(u.missile);
    const double straight = unit_distance(u, target).distance;
    if (straight <= range) return 0;
    // Close to a little inside range; the way may be longer than the line.
    return std::max(0.0, along_way - (range - 3.0) - (along_way - straight));
  }
  return std::max(0.0, along_way - c.o.stop_short - u.depth);
}

// A move ending here leaves `u` within a short charge of an enemy that would
// beat it.
double danger(const Ctx& c, const Unit& moved) {
  double worst = 0;
  for (std::size_t e : enemies_within(c, moved, c.enemy_reach)) {
    const Unit& en = c.bf.units[e];
    if (en.attacks <= 0 || keeps_range(en)) continue;
    const double d = unit_distance(moved, en).distance;
    if (d > pace_of(en, MoveKind::Charge, c.settings)) continue;
    worst = std::max(worst, c.value(en, moved));
  }
  return worst;
}

namespace plan_advance_parts {

// The moves tried to go `d` along the path to `point`: a single unit
// placed there facing along the way or as it faces, or following the path
// as a column; a brigade slid there as one body.
std::vector<Action> advance_tries(const Ctx& c, const std::vector<int>& units, const Unit& lead, MoveKind kind,
                                  const std::vector<Vec2>& path, double d, Vec2 start, Vec2 point, Vec2 heading) {
  std::vector<Action> tries;
  if (units.size() == 1) {
    Action a;
    a.type = ActionType::Move;
    // Straight-line distance may be shorter than the way: cap the wheel's
    // centre shift at the allowance less what turning costs the corners.
    a.moves = {place_unit(lead, point, compass_of(heading), kind)};
    tries.push_back(a);
    a.moves = {place_unit(lead, point, std::nullopt, kind)};
    tries.push_back(a);
    for (bool straight : {true, false})
      if (auto col = column_follow(c.bf, c.scratch, lead, d, kind, straight)) {
        a.moves = {*col};
        tries.push_back(a);
      }
    if (auto col = column_at(lead, path, d, kind)) {
      a.moves = {*col};
      tries.push_back(a);
    }
  } else {
    // A brigade slides as one body, keeping its shape.
    const Vec2 shift = point - start;
    Action a;
    a.type = ActionType::Move;
    for (int ui : units) a.moves.push_back(slide_move(c.bf.units[static_cast<std::size_t>(ui)], shift, kind));
    tries.push_back(a);
  }
  return tries;
}

// Last: straight slides in sixteen directions, kept when they bring the
// units nearer along the way (round a friend in the way, off a bank).
std::optional<Action> slide_toward(const Ctx& c, const std::vector<int>& units, const Unit& lead, MoveKind kind,
                                   const Unit& target, Vec2 start, double allowance, double jitter, bool guarded,
                                   std::string& reason) {
  std::vector<std::pair<double, Vec2>> slides;
  const double before = field_at(c.bf, c.scratch, start);
  for (int k = 0; k < 16; ++k)
    for (double f : {1.0, 0.5}) {
      const Vec2 shift = Rot::from_degrees(22.5 * k + jitter).forward() * ((allowance - 0.05) * f);
      const double after = field_at(c.bf, c.scratch, start + shift);
      if (after < before - 1.0) slides.push_back({after, shift});
    }
  std::sort(slides.begin(), slides.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  if (slides.size() > 10) slides.resize(10);
  for (const auto& [after, shift] : slides) {
    Action a;
    a.type = ActionType::Move;
    for (int ui : units) a.moves.push_back(slide_move(c.bf.units[static_cast<std::size_t>(ui)], shift, kind));
    if (guarded && danger(c, unit_after(lead, a.moves.front())) >= c.o.evade_margin) continue;
    if (c.legal(a)) {
      reason = "slides " + std::to_string(static_cast<int>(length(shift))) + " cm toward " + target.id;
      return a;
    }
  }
  return std::nullopt;
}

}  // namespace plan_advance_parts

// Advance of the pending units (one unit or a brigade) toward their targets.
Action plan_advance(const Ctx& c, const std::vector<int>& units, MoveKind kind, std::string& reason) {
  Action hold;
  hold.type = ActionType::Move;
  const Unit& lead = c.bf.units[static_cast<std::size_t>(units.front())];
  double allowance = kFar;
  for (int ui : units) allowance = std::min(allowance, pace_of(c.bf.units[static_cast<std::size_t>(ui)], kind, c.settings));
  const Unit* target = choose_target(c, lead);
  if (!target || allowance <= 0.1) {
    reason = "holds: nothing to go for";
    return hold;
  }
  // The field is needed as far as the lead's centre, and for a single unit
  // its stands (column_follow orders them by it).
  const Vec2 start = stands_centre(lead);
  std::vector<Vec2> needed{start};
  if (units.size() == 1)
    for (const Stand& st : lead.stands) needed.push_back(st.pose.position);
  const MoveIndex& index = c.s.move_index();
  distance_field(c.bf, index, lead, *target, c.settings, c.scratch, units, true, needed);
  double way = field_at(c.bf, c.scratch, start);
  if (way >= kFar) {
    // Every way is shut by units for now: go by the terrain alone.
    distance_field(c.bf, index, lead, *target, c.settings, c.scratch, units, false, needed);
    way = field_at(c.bf, c.scratch, start);
  }
  if (way >= kFar) {
    reason = "holds: no way to " + target->id;
    return hold;
  }
  const double want = std::min(allowance - 0.05, wanted_distance(c, lead, *target, way));
  if (want < 1.0) {
    reason = "holds: already where it wants to be against " + target->id;
    return hold;
  }
  const std::vector<Vec2> path = downhill(c.bf, c.scratch, start, want + 8.0);
  const double jitter = (uniform01(c.rng) - 0.5) * 6.0;
  const bool guarded = keeps_range(lead);
  std::string first_refusal;
  for (double f : {1.0, 0.8, 0.6, 0.4, 0.25}) {
    const double d = want * f;
    if (d < 0.5) continue;
    auto [point, heading] = point_along(path, d);
    if (length(heading) < 1e-9) continue;
    heading = Rot::from_degrees(jitter).apply(heading);
    const std::vector<Action> tries =
        plan_advance_parts::advance_tries(c, units, lead, kind, path, d, start, point, heading);
    for (const Action& a : tries) {
      if (guarded) {
        // Shooters and artillery: not into the open in front of stronger enemies.
        const Unit after = unit_after(lead, a.moves.front());
        if (danger(c, after) >= c.o.evade_margin && f > 0.3) continue;
      }
      const Verdict v = c.s.validate(a, c.scratch.move);
      if (v.legal()) {
        reason = "advances " + std::to_string(static_cast<int>(d)) + " cm toward " + target->id;
        return a;
      }
      if (first_refusal.empty() && !v.violations.empty()) first_refusal = v.violations.front().reason;
    }
  }
  // Last: straight slides, kept when they bring the units nearer along the way.
  if (auto a =
          plan_advance_parts::slide_toward(c, units, lead, kind, *target, start, allowance, jitter, guarded, reason))
    return *a;
  reason = "holds: no legal advance toward " + target->id + (first_refusal.empty() ? "" : " (" + first_refusal + ")");
  return hold;
}

// --- Orders ---------------------------------------------------------------------

bool orderable(const BattleState& s, std::size_t i) {
  const Unit& u = s.battlefield().units[i];
  const UnitStatus& st = s.units()[i];
  return u.side == s.side() && on_table(s, i) && !st.frozen && !u.engaged && !u.confused && !st.used_initiative &&
         !st.charged && st.orders < 3;
}

// Does a unit want to move this turn?
bool wants_to_move(const Ctx& c, const Unit& u) {
  if (u.attacks <= 0 && !is_shooter(u)) return false;
  if (keeps_range(u) && enemy_in_range(c, u)) return false;
  if (u.type == TroopType::Artillery && is_shooter(u)) {
    // Artillery move little: only when no enemy is within reach of its guns.
    return !enemy_in_range(c, u);
  }
  return true;
}

bool first_turn_bonus(const Ctx& c) { return c.settings.first_turn_command_bonus && c.s.turn() == 1; }

int needed_for(const Ctx& c, const Character& ch, const std::vector<const Unit*>& group, int previous) {
  return order_needed(order_factors(c.bf, c.index, ch, group, previous, first_turn_bonus(c)));
}

bool character_can_order(const BattleState& s, std::size_t ci) {
  const CharacterStatus& cs = s.characters()[ci];
  return s.battlefield().characters[ci].side == s.side() && !cs.failed && !cs.finished && !cs.lost &&
         !s.general_failed();
}

namespace next_order_parts {

// Further orders to the units being ordered by `active`.
std::optional<Candidate> further_order(const Ctx& c, const std::string& active) {
  const Battlefield& bf = c.bf;
  std::vector<std::string> family;
  std::vector<const Unit*> group;
  int previous = 0;
  bool ok = true;
  for (std::size_t i = 0; i < bf.units.size(); ++i) {
    const UnitStatus& st = c.s.units()[i];
    if (st.orders > 0 && !st.finished && st.ordered_by == active) {
      family.push_back(bf.units[i].id);
      group.push_back(&bf.units[i]);
      previous = std::max(previous, st.orders);
      ok = ok && orderable(c.s, i) && wants_to_move(c, bf.units[i]);
    }
  }
  const Character* ch = bf.find_character(active);
  if (ok && !family.empty() && ch) {
    const std::size_t ci = static_cast<std::size_t>(ch - bf.characters.data());
    // A unit that charged cannot be ordered again; one that got where it
    // wanted (in range, or short of its target) needs no more.
    bool progress = true;
    if (family.size() == 1) {
      const Unit& u = *group.front();
      if (closest_enemy(c, u) < 8.0 && !best_charge(c, u, Action{}, false)) progress = false;
      if (keeps_range(u) && enemy_in_range(c, u)) progress = false;
    }
    if (progress && character_can_order(c.s, ci) &&
        pass_chance(needed_for(c, *ch, group, previous)) >= c.o.min_further_order) {
      Action a;
      a.type = ActionType::Order;
      a.character = active;
      a.units = family;
      if (c.legal(a)) return Candidate{a, 0, "a further order to " + family.front()};
    }
  }
  return std::nullopt;
}

// What each character needs to order each unit alone (order_needed): the
// unit's own penalties (enemy near, dense terrain, stands lost) are the
// same whoever gives the order, so they are worked out once per unit, and
// only the character's Command and distance vary.
// The table is by unit, then character (units.size() rows of chars.size()).
std::vector<int> first_order_needs(const Ctx& c, const std::vector<std::size_t>& chars,
                                   const std::vector<std::pair<double, std::size_t>>& units) {
  const Battlefield& bf = c.bf;
  const std::size_t nc = chars.size();
  std::vector<int> needed(units.size() * nc);
  for (std::size_t k = 0; k < units.size(); ++k) {
    const Unit& u = bf.units[units[k].second];
    const Unit* const one[] = {&u};
    OrderFactors f = order_factors(bf, c.index, bf.characters[chars.front()], one, 0, first_turn_bonus(c));
    for (std::size_t j = 0; j < nc; ++j) {
      const Character& ch = bf.characters[chars[j]];
      f.command = ch.command;
      f.distance = std::max(0.0, character_distance(ch, u).distance);
      needed[k * nc + j] = order_needed(f);
    }
  }
  return needed;
}

}  // namespace next_order_parts

std::optional<Candidate> next_order(const Ctx& c) {
  const Battlefield& bf = c.bf;
  // Further orders to the units being ordered.
  const std::string& active = c.s.active_character();
  if (!active.empty()) {
    if (std::optional<Candidate> further = next_order_parts::further_order(c, active)) return further;
  }

  // Characters in sequence: the one ordering now, then Heroes and Wizards, the General last.
  std::vector<std::size_t> chars;
  for (std::size_t ci = 0; ci < bf.characters.size(); ++ci)
    if (character_can_order(c.s, ci)) chars.push_back(ci);
  std::stable_sort(chars.begin(), chars.end(), [&](std::size_t a, std::size_t b) {
    auto rank = [&](std::size_t ci) {
      if (bf.characters[ci].id == active) return 0;
      return bf.characters[ci].role == CharacterRole::General ? 2 : 1;
    };
    return rank(a) < rank(b);
  });
  if (chars.empty()) return std::nullopt;

  // Units that may take a first order and want one, closest to the enemy first.
  std::vector<std::pair<double, std::size_t>> units;
  for (std::size_t i = 0; i < bf.units.size(); ++i) {
    if (!orderable(c.s, i) || c.s.units()[i].orders > 0) continue;
    if (!wants_to_move(c, bf.units[i])) continue;
    units.push_back({closest_enemy(c, bf.units[i]), i});
  }
  std::sort(units.begin(), units.end());
  // What each character needs to order each unit alone (order_needed): the
  // unit's own penalties are worked out once per unit (first_order_needs).
  const std::size_t nc = chars.size();
  const std::vector<int> needed = next_order_parts::first_order_needs(c, chars, units);
  for (std::size_t j = 0; j < nc; ++j) {
    const Character& ch = bf.characters[chars[j]];
    // The units this character is best placed to order (ties: each of the best).
    std::vector<std::size_t> mine;
    for (std::size_t k = 0; k < units.size(); ++k) {
      const int* row = &needed[k * nc];
      if (row[j] == *std::max_element(row, row + nc)) mine.push_back(units[k].second);
    }
    for (std::size_t k = 0; k < mine.size(); ++k) {
      const std::size_t i = mine[k];
      const Unit& u = bf.units[i];
      std::vector<const Unit*> group{&u};
      std::vector<std::string> ids{u.id};
      // A brigade of touching units for the march, far from the enemy.
      if (closest_enemy(c, u) > c.o.brigade_distance && !keeps_range(u)) {
        const std::vector<std::vector<int>>& touch = c.s.touching_now(c.scratch.move);
        for (int n : touch[i]) {
          const std::size_t ni = static_cast<std::size_t>(n);
          if (group.size() >= 4 || !orderable(c.s, ni) || c.s.units()[ni].orders > 0) continue;
          if (keeps_range(bf.units[ni]) || closest_enemy(c, bf.units[ni]) <= c.o.brigade_distance) continue;
          group.push_back(&bf.units[ni]);
          ids.push_back(bf.units[ni].id);
        }
      }
      const double p = pass_chance(needed_for(c, ch, group, 0));
      // The last unit a character has is worth a poorer chance: failing costs nothing more.
      const double need = k + 1 == mine.size() ? c.o.min_first_order - 0.17 : c.o.min_first_order;
      if (p < need) continue;
      Action a;
      a.type = ActionType::Order;
      a.character = ch.id;
      a.units = ids;
      if (c.legal(a)) return Candidate{a, p, "orders " + ids.front()};
      if (ids.size() > 1) {
        a.units = {u.id};
        if (c.legal(a)) return Candidate{a, p, "orders " + u.id};
      }
    }
  }
  return std::nullopt;
}

// --- Initiative -----------------------------------------------------------------

std::optional<Candidate> next_initiative(const Ctx& c) {
  const Battlefield& bf = c.bf;
  // What unit i does by initiative, if anything, and a box holding all it
  // read (OpponentScratch::Idle), widened as it reads: its enemies in range
  // and the lines of sight to them (Ctx::candidates); for a charge at e1,
  // the enemies within its pace, the friends within range of e1 and their
  // own candidates (ally_dice), and what the charge's check reads (the
  // stands' sweep from the unit to e1, widened by half the longest route
  // searched and a stand's reach: check_move); for an evade, its check (a
  // move of at most a full pace, kept clear of enemies).
  auto act = [&](std::size_t i, Aabb& reads) -> std::optional<Candidate> {
    const Unit& u = bf.units[i];
    const Aabb box = stands_box(u);
    const double pace = full_pace(u), size = std::max(u.width, u.depth) + u.frontage() + 1.0;
    reads = box;
    for (const InitiativeCandidate& cand : c.candidates(i, true)) {
      if (!cand.visible) continue;
      Action shell;
      shell.type = ActionType::Initiative;
      shell.unit = u.id;
      if (auto ch = best_charge(c, u, shell, true, cand.enemy)) {
        ch->reason = "initiative: " + ch->reason;
        return ch;
      }
      const Aabb target = stands_box(*bf.find_unit(cand.enemy));
      reads = reads.merged(box.inflated(pace + 0.01))
                  .merged(target.inflated(kInitiativeRange + 1.01))
                  .merged(box.merged(target).inflated(pace + 2 * size + 10));
      for (std::size_t f : units_within(c, target, kInitiativeRange + 1.0, c.side))
        if (c.scratch.initiative[f].known[1]) reads = reads.merged(c.scratch.initiative[f].region);
      break;
    }
    // Evade the closest visible enemy when it would win a charge, or when
    // the unit should keep its distance from a fighting enemy.
    for (const InitiativeCandidate& cand : c.candidates(i, false)) {
      if (!cand.visible) continue;
      const Unit* e = bf.find_unit(cand.enemy);
      if (!e) break;
      const bool threat = e->attacks > 0 && !keeps_range(*e);
      const double v = threat ? c.value(*e, u) : -1;
      if (threat && (v >= c.o.evade_margin || keeps_range(u))) {
        Action a = initiative_action(c.bf, u, *e, false, c.settings);
        if (c.legal(a))
          return Candidate{a, v, "initiative: evades " + e->id + " (its charge would have P(win) - P(lose) " +
                                     std::to_string(v) + ")"};
        reads = reads.merged(box.inflated(2 * pace + 2 * size + kEvadeClearance + 10));
      }
      break;
    }
    const OpponentScratch::Candidates& own = c.scratch.initiative[i];
    if (own.known[0] || own.known[1]) reads = reads.merged(own.region);
    return std::nullopt;
  };
  for (std::size_t i = 0; i < bf.units.size(); ++i) {
    const Unit& u = bf.units[i];
    const UnitStatus& st = c.s.units()[i];
    if (u.side != c.side || !on_table(c.s, i) || !st.near_enemy_at_start || st.used_initiative || u.engaged ||
        u.confused || st.frozen)
      continue;
    OpponentScratch::Idle& idle = c.scratch.idle[i];
    if (idle.known) continue;
    Aabb reads;
    if (auto a = act(i, reads)) return a;
    idle.known = true;
    idle.region = reads.inflated(0.01);
  }
  return std::nullopt;
}

// --- Characters -----------------------------------------------------------------

bool wants_to_move(const Ctx& c, const Unit& u);

// The units a character stays near. Each Hero or Wizard, in order, takes
// the unit furthest from the General that no one has taken yet and the two
// units nearest that one; the General keeps the rest (all of them when he
// is alone). Characters that stand by the same units waste their orders on
// the units nearest them, and a flank far from the General is never
// ordered.
std::vector<std::size_t> character_group(const Ctx& c, std::size_t who) {
  const Battlefield& bf = c.bf;
  // Units that will want orders (not guns already in range): the others
  // need no character near them.
  std::vector<std::size_t> own, all;
  for (std::size_t i = 0; i < bf.units.size(); ++i)
    if (bf.units[i].side == c.side && on_table(c.s, i)) {
      all.push_back(i);
      if (wants_to_move(c, bf.units[i])) own.push_back(i);
    }
  if (own.empty()) own = all;
  const Character* general = nullptr;
  std::vector<std::size_t> helpers;  // characters, by index
  for (std::size_t ci = 0; ci < bf.characters.size(); ++ci) {
    const Character& ch = bf.characters[ci];
    if (ch.side != c.side || c.s.characters()[ci].lost) continue;
    if (ch.role == CharacterRole::General) general = &ch;
    else helpers.push_back(ci);
  }
  const Character& me = bf.characters[who];
  // A small army, or one whose General is gone: everyone stays by all of it.
  if (general == nullptr || own.size() <= 3) return own;
  std::vector<char> taken(bf.units.size(), 0);
  std::vector<std::size_t> mine;
  const Vec2 from = general->pose.position;
  std::vector<Vec2> centre(bf.units.size());
  for (std::size_t i : own) centre[i] = stands_centre(bf.units[i]);
  for (std::size_t h : helpers) {
    std::size_t far = bf.units.size();
    double fd = -1;
    for (std::size_t i : own)
      if (!taken[i] && distance(centre[i], from) > fd) fd = distance(centre[i], from), far = i;
    if (far == bf.units.size()) break;
    std::vector<std::pair<double, std::size_t>> near;
    for (std::size_t i : own)
      if (!taken[i]) near.push_back({distance(centre[i], centre[far]), i});
    std::sort(near.begin(), near.end());
    if (near.size() > 3) near.resize(3);
    for (const auto& [d, i] : near) {
      (void)d;
      taken[i] = 1;
      if (h == who) mine.push_back(i);
    }
    if (h == who) break;  // the later helpers take only what is left: not this one's
  }
  if (me.role != CharacterRole::General) return mine.empty() ? own : mine;
  for (std::size_t i : own)
    if (!taken[i]) mine.push_back(i);
  return mine.empty() ? own : mine;
}

// A Hero or Wizard with an Attacks bonus joins a unit of its own that will
// fight this turn (engaged at the end of the Command phase), touching the
// middle of a stand's rear edge: the unit with most stands, so the least
// likely to be destroyed with it (docs/rulings.md#warmaster-combat-characters).
// The General never does: if he is slain the army withdraws, which no +2 is
// worth (over the arena's games, a General who joined fights lost the
// opponent more battles than his dice won).
std::optional<Candidate> join_a_fight(const Ctx& c, const Character& ch) {
  if (ch.attacks <= 0 || ch.role == CharacterRole::General) return std::nullopt;
  const Battlefield& bf = c.bf;
  const double reach = ch.flying ? kFlyingCharacterPace : kCharacterPace;
  std::vector<std::pair<int, std::size_t>> fights;  // (-stands, unit)
  for (std::size_t i = 0; i < bf.units.size(); ++i) {
    const Unit& u = bf.units[i];
    if (u.side != c.side || !u.engaged || !on_table(c.s, i) || u.stands.empty()) continue;
    if (distance(stands_centre(u), ch.pose.position) > reach) continue;
    fights.push_back({-static_cast<int>(u.stands.size()), i});
  }
  std::sort(fights.begin(), fights.end());
  const double radius = ch.stand_size ? ch.stand_size->y / 2 : ch.base_diameter / 2;
  for (const auto& [minus_stands, i] : fights) {
    (void)minus_stands;
    const Unit& u = bf.units[i];
    for (std::size_t st = 0; st < u.stands.size(); ++st) {
      const std::array<Vec2, 4> k = u.footprint(st).corners();
      const Vec2 rear = (k[2] + k[3]) * 0.5;
      Pose to = ch.pose;
      to.position = rear + normalized(rear - u.stands[st].pose.position) * radius;
      Action a = character_move(ch, to);
      a.join = u.id;
      if (c.legal(a)) return Candidate{a, 0, fmt::format("{} joins {}, which will fight: +{} Attacks", ch.id, u.id, ch.attacks)};
    }
  }
  return std::nullopt;
}

std::optional<Candidate> next_character_move(const Ctx& c) {
  const Battlefield& bf = c.bf;
  for (std::size_t ci = 0; ci < bf.characters.size(); ++ci) {
    const Character& ch = bf.characters[ci];
    const CharacterStatus& cs = c.s.characters()[ci];
    if (ch.side != c.side || cs.moved || cs.lost || cs.frozen || !ch.joined_unit.empty()) continue;
    if (auto join = join_a_fight(c, ch)) return join;
    const std::vector<std::size_t> group = character_group(c, ci);
    if (group.empty()) continue;
    Vec2 centre{0, 0};
    for (std::size_t i : group) centre += stands_centre(bf.units[i]);
    centre = centre * (1.0 / static_cast<double>(group.size()));
    // Behind them: away from the nearest enemy.
    Vec2 away{0, c.side == 0 ? -1.0 : 1.0};
    double nearest = kFar;
    for (std::size_t e : enemies(c)) {
      const Vec2 ec = stands_centre(bf.units[e]);
      if (distance(ec, centre) < nearest) {
        nearest = distance(ec, centre);
        if (nearest > 1e-9) away = normalized(centre - ec);
      }
    }
    Vec2 goal = centre + away * 10.0;
    goal.x = std::clamp(goal.x, 2.0, bf.width - 2.0);
    goal.y = std::clamp(goal.y, 2.0, bf.height - 2.0);
    const double reach = ch.flying ? kFlyingCharacterPace : kCharacterPace;
    Vec2 step = goal - ch.pose.position;
    if (length(step) < 3.0) continue;
    if (length(step) > reach - 0.5) step = normalized(step) * (reach - 0.5);
    for (double f : {1.0, 0.7, 0.45, 0.25}) {
      Pose to = ch.pose;
      to.position += step * f;
      bool near_enemy = false;
      const double size = ch.stand_size ? length(*ch.stand_size) : ch.base_diameter;
      for (std::size_t e : units_within(c, Aabb{to.position, to.position}.inflated(size), 8.0, 1 - c.side)) {
        Character probe = ch;
        probe.pose = to;
        if (character_distance(probe, bf.units[e]).distance < 8.0) near_enemy = true;
      }
      if (near_enemy) continue;
      const Action a = character_move(ch, to);
      if (c.legal(a)) return Candidate{a, 0, ch.id + " moves behind its units"};
    }
  }
  return std::nullopt;
}

// --- The pending move -------------------------------------------------------------

Candidate pending_move(const Ctx& c) {
  const PendingMove& p = *c.s.pending();
  Action hold;
  hold.type = ActionType::Move;
  if (!p.kind) return {hold, 0, "no move allowed"};
  if (p.source != "order") {
    // A home back: the first listed slide that validates, else hold.
    for (const Action& a : c.s.legal_actions(c.scratch.move))
      if (a.type == ActionType::Move && !a.moves.empty()) return {a, 0, "homes back"};
    return {hold, 0, "holds"};
  }
  if (p.units.size() == 1 && *p.kind == MoveKind::Ordered) {
    const Unit& u = c.bf.units[static_cast<std::size_t>(p.units.front())];
    Action shell;
    shell.type = ActionType::Move;
    if (auto ch = best_charge(c, u, shell, false)) return *ch;
  }
  std::string reason;
  Action a = plan_advance(c, p.units, *p.kind, reason);
  return {a, 0, reason};
}

// Where a shooter has enemies equally close, the shooting player chooses
// (docs/rulings.md#warmaster-shooting-ties). Ours: the one each die hurts
// most (hit and not saved), then the one with fewest stands left, then the
// closest (docs/warmaster-opponent.md, "Shooting").
Action shoot_action(const Ctx& c) {
  Action a;
  a.type = ActionType::Shoot;
  for (const ShootingTarget& t : shooting_targets(c.bf, c.side, c.settings)) {
    if (t.choices.size() < 2) continue;
    auto worth = [&](const std::string& id) {
      const Unit& e = *c.bf.find_unit(id);
      const double per_die = (7.0 - to_hit(c.position(e))) / 6.0 *
                             (e.armour > 0 ? (e.armour - 1) / 6.0 : 1.0);
      return std::pair<double, double>{per_die, -static_cast<double>(e.stands.size())};
    };
    std::string best = t.choices.front();
    for (const std::string& id : t.choices)
      if (worth(id) > worth(best)) best = id;
    if (best != t.choices.front()) a.targets.push_back({t.shooter, best});
  }
  return a;
}

Candidate choose(const Ctx& c) {
  const BattleState& s = c.s;
  Action end_phase;
  end_phase.type = ActionType::EndPhase;
  if (s.phase() == Phase::Shooting)
    return {shoot_action(c), 0, "shoots: every unit at the closest enemy in range that it sees and that is not engaged"};
  if (s.phase() == Phase::Combat) return {end_phase, 0, "fights the engagements"};

  // Units and characters off the table roll to return before anything else.
  for (std::size_t i = 0; i < s.units().size(); ++i)
    if (s.units()[i].returns_next_turn && c.bf.units[i].side == c.side) {
      Action a;
      a.type = ActionType::OffTableReturn;
      a.unit = c.bf.units[i].id;
      return {a, 0, "rolls for its return"};
    }
  for (std::size_t i = 0; i < s.characters().size(); ++i)
    if (s.characters()[i].returns_next_turn && c.bf.characters[i].side == c.side) {
      Action a;
      a.type = ActionType::OffTableReturn;
      a.character = c.bf.characters[i].id;
      return {a, 0, "rolls for its return"};
    }
  // A failed further order leaves nothing to move: the next order may follow.
  if (s.pending() && s.pending()->kind) return pending_move(c);
  if (s.step() == CommandStep::Initiative && !s.orders_begun())
    if (auto a = next_initiative(c)) return *a;
  if (s.step() != CommandStep::Characters) {
    if (auto a = next_order(c)) return *a;
    Action end;
    end.type = ActionType::EndOrders;
    return {end, 0, "ends its orders"};
  }
  if (auto a = next_character_move(c)) return *a;
  return {end_phase, 0, "ends the Command phase"};
}

// Brings scratch.seen up to `s`, and forgets the initiative candidates kept
// for units whose region a changed unit's stands meet, where they were or
// where they are now (a unit that did not change reads the same).
void note_changes(const BattleState& s, const OpponentOptions& options, OpponentScratch& scratch) {
  const Battlefield& bf = s.battlefield();
  OpponentScratch::Seen& seen = scratch.seen;
  std::vector<Pose> characters;
  for (const Character& ch : bf.characters) characters.push_back(ch.pose);
  if (seen.terrain != &bf.terrain.get() || seen.features != bf.terrain.size() || !(seen.settings == s.settings()) ||
      seen.units.size() != bf.units.size()) {
    seen.terrain = &bf.terrain.get();
    seen.features = bf.terrain.size();
    seen.settings = s.settings();
    seen.units = bf.units;
    seen.status = s.units();
    seen.on_table.resize(bf.units.size());
    for (std::size_t i = 0; i < bf.units.size(); ++i) seen.on_table[i] = on_table(s, i);
    seen.characters = characters;
    scratch.initiative.assign(bf.units.size(), {});
    scratch.in_range.assign(bf.units.size(), {});
    scratch.nearest.assign(bf.units.size(), {});
    scratch.positions.assign(bf.units.size(), -1);
    scratch.idle.assign(bf.units.size(), {});
    return;
  }
  // Where units changed (their stands, flags or being on the table), and
  // where units changed or only their status did.
  std::vector<Aabb> changed, touched;
  for (std::size_t i = 0; i < bf.units.size(); ++i) {
    const char on = on_table(s, i);
    const bool same = seen.units[i] == bf.units[i] && seen.on_table[i] == on;
    if (same && seen.status[i] == s.units()[i]) continue;
    for (const Unit* u : {static_cast<const Unit*>(&seen.units[i]), &bf.units[i]})
      if (!u->stands.empty()) {
        touched.push_back(stands_box(*u));
        if (!same) changed.push_back(stands_box(*u));
      }
    seen.units[i] = bf.units[i];
    seen.status[i] = s.units()[i];
    seen.on_table[i] = on;
    scratch.positions[i] = -1;
  }
  auto meets = [](const std::vector<Aabb>& boxes, const Aabb& region) {
    return std::any_of(boxes.begin(), boxes.end(), [&](const Aabb& b) { return b.overlaps(region); });
  };
  for (OpponentScratch::Candidates& k : scratch.initiative)
    if ((k.known[0] || k.known[1]) && meets(changed, k.region)) k.known[0] = k.known[1] = false;
  for (OpponentScratch::InRange& k : scratch.in_range)
    if (k.known >= 0 && meets(changed, k.region)) k.known = -1;
  for (OpponentScratch::Nearest& k : scratch.nearest)
    if (k.known && meets(changed, k.region)) k.known = false;
  const std::array<int, 7> key{s.turn(), s.side(), static_cast<int>(s.phase()), static_cast<int>(s.step()),
                               s.orders_begun() ? 1 : 0, s.units_lost(0), s.units_lost(1)};
  const bool same_key = key == scratch.idle_key && options == scratch.idle_options && characters == seen.characters;
  scratch.idle_key = key;
  scratch.idle_options = options;
  seen.characters = characters;
  for (OpponentScratch::Idle& k : scratch.idle)
    if (k.known && (!same_key || meets(touched, k.region))) k.known = false;
}

}  // namespace

OpponentChoice choose_opponent_action(const BattleState& s, Rng& rng, const OpponentOptions& options,
                                      OpponentScratch& scratch) {
  // Bounds that let questions read only what is near: the enemies' longest
  // charge, and how far a charge's value (charge_value) can lie from 0: the
  // chances' difference, and 0.05 per 3 Hits between the units.
  const Battlefield& bf = s.battlefield();
  double reach = 0;
  int most_hits = bf.units.empty() ? 0 : bf.units.front().hits, least_hits = most_hits;
  for (std::size_t i = 0; i < bf.units.size(); ++i) {
    const Unit& u = bf.units[i];
    most_hits = std::max(most_hits, u.hits);
    least_hits = std::min(least_hits, u.hits);
    if (u.side != s.side() && on_table(s, i)) reach = std::max(reach, full_pace(u));
  }
  const double value_bound = 1.0 + 0.05 * (most_hits - least_hits) / 3.0;
  note_changes(s, options, scratch);
  const Ctx c{s, bf, s.settings(), rng, options, scratch, s.side(), s.move_index(), reach, value_bound};
  Candidate pick = choose(c);
  if (c.legal(pick.action)) return {pick.action, pick.reason};
  // Never an illegal action: the best of the listed ones (holding a move,
  // ending the step or phase, else the first listed).
  const std::vector<Action> legal = s.legal_actions(scratch.move);
  for (ActionType t : {ActionType::Shoot, ActionType::OffTableReturn, ActionType::Move, ActionType::EndOrders,
                       ActionType::EndPhase})
    for (const Action& a : legal)
      if (a.type == t) return {a, "falls back to a listed action (" + pick.reason + " was refused)"};
  if (!legal.empty()) return {legal.front(), "falls back to the first listed action"};
  return {pick.action, pick.reason};
}

}  // namespace referee::warmaster
