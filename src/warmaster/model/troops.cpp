#include "referee/warmaster/model/troops.hpp"

namespace referee::warmaster {

double full_pace(TroopType t, double machine_pace) {
  switch (t) {
    case TroopType::Infantry: return 20;
    case TroopType::Cavalry: return 30;
    case TroopType::Chariot: return 30;
    case TroopType::Monster: return 20;
    case TroopType::Artillery: return 10;
    case TroopType::Machine: return machine_pace;
    case TroopType::Flyer: return 100;
  }
  return 0;
}

double full_pace(const Unit& u) { return full_pace(u.type, u.machine_pace); }

bool may_enter(TroopType t, TerrainKind k, const Settings& settings) {
  if (t == TroopType::Flyer) return true;  // flies over; where it ends is flyer_may_end_in()
  switch (k) {
    case TerrainKind::OpenHill:
    case TerrainKind::Bridge:
      return true;
    case TerrainKind::Village:
    case TerrainKind::BrokenGround:
    case TerrainKind::Marsh:
      // "Cavalry and monsters can't move into or over terrain features ...
      // except for hills, bridges, shallow fordable rivers, grown fields and
      // low obstacles", "unless players choose to agree otherwise before the
      // game"; chariots, artillery and machines never.
      return t == TroopType::Infantry ||
             (settings.open_villages_and_broken_ground && (t == TroopType::Cavalry || t == TroopType::Monster));
    case TerrainKind::ShallowRiver:
    case TerrainKind::Ford:
    case TerrainKind::GrownField:
    case TerrainKind::LowObstacle:
      return t == TroopType::Infantry || t == TroopType::Cavalry || t == TroopType::Monster;
    case TerrainKind::Wood:
    case TerrainKind::SteepHill:
    case TerrainKind::HighObstacle:
      return t == TroopType::Infantry;
    case TerrainKind::DeepRiver:
    case TerrainKind::Building:
    case TerrainKind::FortificationWall:
    case TerrainKind::Impassable:
      return false;
  }
  return false;
}

bool flyer_may_end_in(TerrainKind k, const Settings& settings) {
  // As cavalry and monsters may, which excludes woods (docs/rulings.md#warmaster-flyers) and
  // the infantry-only and impassable features.
  return may_enter(TroopType::Cavalry, k, settings);
}

bool is_dense(TerrainKind k) {
  return k == TerrainKind::Wood || k == TerrainKind::Village || k == TerrainKind::BrokenGround ||
         k == TerrainKind::Marsh;
}

bool blocks_sight(TerrainKind k) {
  switch (k) {
    case TerrainKind::LowObstacle:
    case TerrainKind::ShallowRiver:
    case TerrainKind::DeepRiver:
    case TerrainKind::Ford:
    case TerrainKind::Bridge:
    case TerrainKind::Marsh:
    case TerrainKind::BrokenGround:
    case TerrainKind::GrownField:
      return false;
    default:
      return true;
  }
}

bool blocks_sight(const TerrainFeature& f) { return f.blocks_sight.value_or(blocks_sight(f.kind)); }

}  // namespace referee::warmaster
