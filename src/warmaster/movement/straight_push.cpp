// A whole unit slid or pushed straight, keeping formation and facings:
// slide_move's request, and push_straight's drive back, cut short by halving.
#include "referee/warmaster/movement/movement.hpp"

namespace referee::warmaster {

MoveRequest slide_move(const Unit& u, Vec2 shift, MoveKind kind, std::optional<double> dice_distance) {
  MoveRequest req;
  req.mover = u.id;
  req.kind = kind;
  req.dice_distance = dice_distance;
  for (std::size_t i = 0; i < u.stands.size(); ++i) {
    StandPlan p;
    p.stand = StandIndex(i);
    p.final_pose = u.stands[i].pose;
    p.final_pose.position += shift;
    req.stands.push_back(p);
  }
  return req;
}

StraightPush push_straight(const Battlefield& bf, const MoveIndex& index, const Unit& u, Vec2 dir, double dist,
                           const Settings& settings, MoveScratch& scratch) {
  // One request for every distance tried (a dozen when cut short): the
  // poses slide_move(u, dir * d, MoveKind::Dice, d) gives, written in place.
  MoveRequest req = slide_move(u, {0, 0}, MoveKind::Dice, 0.0);
  for (StandPlan& p : req.stands) p.waypoints.resize(1);
  auto attempt = [&](double d) {
    const Vec2 shift = dir * d;
    req.dice_distance = d;
    for (StandPlan& p : req.stands) {
      const Pose& from = u.stands[p.stand.slot()].pose;
      p.final_pose = from;
      p.final_pose.position += shift;
      p.waypoints[0] = {(from.position + p.final_pose.position) / 2, from.facing_deg};
    }
    // Only whether it is legal is read, and a refusal's first reason.
    return check_move(bf, index, req, settings, scratch, CheckDepth::Whether);
  };
  StraightPush out;
  out.moved = dist;
  const MoveAnswer full = attempt(dist);
  if (full.leaves_table) {
    out.leaves_table = true;
  } else if (!full.verdict.legal()) {
    double lo = 0, hi = dist;
    while (hi - lo > 0.01) {
      const double mid = (lo + hi) / 2;
      const MoveAnswer a = attempt(mid);
      (a.verdict.legal() && !a.leaves_table ? lo : hi) = mid;
    }
    out.moved = lo;
    out.blocked = true;
    out.why = full.verdict.violations.empty() ? std::string("blocked") : full.verdict.violations.front().reason;
  }
  return out;
}

}  // namespace referee::warmaster
