// The opponent's navigation (opponent_parts.hpp): a grid over the table, the
// cells a unit may cross, and a distance field to where it could fight its
// target, whose downhill way its moves follow.
#include "opponent/opponent_parts.hpp"

namespace referee::warmaster::opponent_detail {

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

}  // namespace referee::warmaster::opponent_detail
