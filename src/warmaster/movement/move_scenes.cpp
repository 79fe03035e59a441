// What the move checker keeps from one check to the next (MoveScenes): the
// transit scene of the unit last checked and its formation.
#include "referee/warmaster/movement/movement.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include "movement/move_check.hpp"

namespace referee::warmaster {

MoveScenes::MoveScenes(MoveScratch* scratch) : impl(std::make_unique<Impl>()) { impl->scratch = scratch; }
MoveScratch* MoveScenes::scratch() const { return impl->scratch; }
MoveScenes::~MoveScenes() = default;
void MoveScenesDelete::operator()(MoveScenes* s) const { delete s; }

}  // namespace referee::warmaster

namespace referee::warmaster::move_detail {

// The options a scene is built with: as asked, or with no region for
// MoveScenes::whole_battle.
TransitOptions scene_options(const TransitOptions& opts, const MoveScenes& scenes) {
  if (!scenes.whole_battle) return opts;
  TransitOptions whole = opts;
  whole.region.reset();
  return whole;
}

// The unit's formation at the start of the move (classify_formation): the
// one kept from the last check when its stands stood exactly as these do,
// were of the same size and were classified with the same contact
// tolerance, all it reads; otherwise worked out and kept. A unit checked
// again and again, as a drive back halving its distance, is classified once.
Formation kept_formation(MoveScenes& scenes, const Unit& u, const Settings& settings) {
  MoveScenes::Impl& kept = *scenes.impl;
  const bool same = kept.formation_known && kept.formation_width == u.width && kept.formation_depth == u.depth &&
                    kept.formation_tolerance == settings.contact_tolerance &&
                    std::equal(u.stands.begin(), u.stands.end(), kept.formation_poses.begin(),
                               kept.formation_poses.end(), [](const Stand& s, const Pose& p) {
                                 // Bit for bit: the same doubles give the same classification.
                                 return std::memcmp(&s.pose, &p, sizeof(Pose)) == 0;
                               });
  if (!same) {
    kept.formation = classify_formation(u, settings);
    kept.formation_known = true;
    kept.formation_poses.clear();
    for (const Stand& s : u.stands) kept.formation_poses.push_back(s.pose);
    kept.formation_width = u.width;
    kept.formation_depth = u.depth;
    kept.formation_tolerance = settings.contact_tolerance;
  }
  return kept.formation;
}

// The scene the straight lines are traced in: the one kept from the last
// check when it was built on the same battlefield (index), settings, unit
// and options, over a region holding this one; otherwise a new one, kept.
TransitScene& kept_scene(MoveScenes& scenes, const Battlefield& bf, const MoveIndex& index, const Unit& u,
                         const Settings& settings, const TransitOptions& opts) {
  MoveScenes::Impl& kept = *scenes.impl;
  const bool reuse = kept.scene && kept.state == index.serial() && kept.settings == settings && kept.unit == u.id &&
                     kept.flying == opts.flying && kept.evading == opts.evading &&
                     kept.ignore_units == opts.ignore_units && kept.region.min.x <= opts.region->min.x &&
                     kept.region.min.y <= opts.region->min.y && kept.region.max.x >= opts.region->max.x &&
                     kept.region.max.y >= opts.region->max.y;
  if (!reuse) {
    kept.state = index.serial();
    kept.settings = settings;
    kept.unit = u.id;
    kept.flying = opts.flying;
    kept.evading = opts.evading;
    kept.ignore_units = opts.ignore_units;
    kept.region = *opts.region;
    kept.scene.emplace(bf, u, settings, scene_options(opts, scenes), kept.transit());
  }
  return *kept.scene;
}

}  // namespace referee::warmaster::move_detail
