// Applying a move: the stands (or the character) put at their final poses.
#include "referee/warmaster/movement/movement.hpp"

#include <fmt/format.h>

#include "referee/core/errors.hpp"

namespace referee::warmaster {

Battlefield apply_move(const Battlefield& bf, const MoveRequest& req) {
  Battlefield out = bf;
  place_move(out, req);
  return out;
}

void place_move(Battlefield& bf, const MoveRequest& req) {
  if (req.kind == MoveKind::Character) {
    if (Character* c = bf.find_character(req.mover); c && !req.stands.empty()) c->pose = req.stands.front().final_pose;
    return;
  }
  Unit* u = bf.find_unit(req.mover);
  if (!u) throw InputError("unit", fmt::format("no unit \"{}\" on the battlefield", req.mover));
  // Checked before anything moves, so a bad plan leaves `bf` as it was.
  for (const auto& plan : req.stands)
    if (!plan.stand.within(u->stands.size()))
      throw InputError("stands", fmt::format("unit \"{}\" has no stand {}", u->id, plan.stand.value()));
  for (const auto& plan : req.stands) u->stands[plan.stand.slot()].pose = plan.final_pose;
}

Unit unit_after(const Unit& u, const MoveRequest& req) {
  Unit out = u;
  for (const StandPlan& plan : req.stands) out.stands[plan.stand.slot()].pose = plan.final_pose;
  return out;
}

}  // namespace referee::warmaster
