// A sample of the legal actions (OpenSpiel's legal_actions). Orders, steps
// and off-table rolls are listed exhaustively; moves are continuous, so each
// pending move is offered as holding plus straight slides at full and half
// the allowance, kept only when they validate.
#include <algorithm>
#include <cmath>

#include "battle/command_internal.hpp"
#include "referee/warmaster/battle/battle_state.hpp"
#include "referee/warmaster/command/initiative.hpp"
#include "referee/warmaster/movement/moving_chargers.hpp"
#include "referee/warmaster/shooting/shooting.hpp"
#include "referee/warmaster/movement/sight.hpp"

namespace referee::warmaster {

namespace legal_actions_parts {

void push_legal_action(const WarmasterState& st, MoveScratch& scratch, std::vector<Action>& out, Action a) {
  if (st.validate(a, scratch).legal()) out.push_back(std::move(a));
}

// The pending move: holding, and straight slides at full and half the
// allowance (towards the character for a home back).
void legal_pending_moves(const WarmasterState& st, MoveScratch& scratch, std::vector<Action>& out) {
  const Battlefield& bf = st.battlefield();
  Action hold;
  hold.type = ActionType::Move;
  out.push_back(hold);
  const PendingMove& p = *st.pending();
  const Unit& lead = bf.units[static_cast<std::size_t>(p.units.front())];
  Vec2 dir = Rot::from_degrees(lead.stands.empty() ? 0 : lead.stands[0].pose.facing_deg).forward();
  if (p.source == "home back") {
    if (const Character* c = bf.find_character(p.homing_on)) {
      const ClosestPoints cp = character_distance(*c, lead);
      dir = normalized(cp.on_b - cp.on_a);
      // character_distance's points run from the character to the unit.
      dir = -dir;
    }
  }
  double allowance = 1e9;
  for (int ui : p.units) {
    const Unit& u = bf.units[static_cast<std::size_t>(ui)];
    const Pace pace = move_pace(u, *p.kind, classify_formation(u, st.settings()),
                                p.kind == MoveKind::Dice ? std::optional<double>(p.dice_distance) : std::nullopt);
    allowance = std::min(allowance, pace.allowance);
  }
  for (double f : {1.0, 0.5}) {
    const double d = allowance * f - 0.01;
    if (d <= 0.05) continue;
    Action a;
    a.type = ActionType::Move;
    for (int ui : p.units) {
      const Unit& u = bf.units[static_cast<std::size_t>(ui)];
      a.moves.push_back(slide_move(u, dir * d, *p.kind,
                                   p.kind == MoveKind::Dice ? std::optional<double>(p.dice_distance) : std::nullopt));
    }
    push_legal_action(st, scratch, out, a);
  }
}

// Before the first order: homing back on each friendly character, and
// initiative against the closest visible enemy, charging or evading.
void legal_initiative_actions(const WarmasterState& st, MoveScratch& scratch, std::vector<Action>& out) {
  const Battlefield& bf = st.battlefield();
  for (std::size_t i = 0; i < bf.units.size(); ++i) {
    const Unit& u = bf.units[i];
    const UnitStatus& s = st.units()[i];
    if (u.side != st.side() || u.stands.empty()) continue;
    if (u.type == TroopType::Flyer && !s.homed_back)
      for (const Character& c : bf.characters)
        if (c.side == st.side()) {
          Action a;
          a.type = ActionType::HomeBack;
          a.unit = u.id;
          a.character = c.id;
          push_legal_action(st, scratch, out, a);
        }
    if (!s.near_enemy_at_start || s.used_initiative || u.engaged || u.confused) continue;
    for (bool charge : {true, false}) {
      const std::vector<InitiativeCandidate>& cands = st.initiative_targets(u.id, charge, scratch);
      for (const InitiativeCandidate& c : cands) {
        if (!c.visible) continue;
        push_legal_action(st, scratch, out,
                          initiative_action(bf, u, *bf.find_unit(c.enemy), charge, st.settings(), &st.move_index(),
                                            &scratch));
        break;  // only the closest visible enemy
      }
    }
  }
}

// Orders from each friendly character to each unit alone and to its
// brigade, then ending ordered movement.
void legal_order_actions(const WarmasterState& st, MoveScratch& scratch, std::vector<Action>& out) {
  const Battlefield& bf = st.battlefield();
  const CommandPhaseState& cmd = st.command_phase();
  const std::vector<std::vector<int>>& adj = cmd.orders_begun ? cmd.brigade_touching : st.touching_now(scratch);
  for (const Character& c : bf.characters) {
    if (c.side != st.side()) continue;
    for (std::size_t i = 0; i < bf.units.size(); ++i) {
      if (bf.units[i].side != st.side() || bf.units[i].stands.empty()) continue;
      Action a;
      a.type = ActionType::Order;
      a.character = c.id;
      a.units = {bf.units[i].id};
      push_legal_action(st, scratch, out, a);
      // The brigade of this unit and its touching neighbours (up to four),
      // listed once, from its lowest-numbered unit.
      std::vector<int> brigade{static_cast<int>(i)};
      for (std::size_t k = 0; k < brigade.size() && brigade.size() < 4; ++k)
        for (int n : adj[static_cast<std::size_t>(brigade[k])])
          if (brigade.size() < 4 && std::find(brigade.begin(), brigade.end(), n) == brigade.end())
            brigade.push_back(n);
      if (brigade.size() > 1 && *std::min_element(brigade.begin(), brigade.end()) == static_cast<int>(i)) {
        Action b = a;
        b.units.clear();
        for (int n : brigade) b.units.push_back(bf.units[static_cast<std::size_t>(n)].id);
        push_legal_action(st, scratch, out, b);
      }
    }
  }
  Action end;
  end.type = ActionType::EndOrders;
  push_legal_action(st, scratch, out, end);
}

}  // namespace legal_actions_parts

std::vector<Action> WarmasterState::legal_actions() const {
  MoveScratch scratch;
  return legal_actions(scratch);
}

std::vector<Action> WarmasterState::legal_actions(MoveScratch& scratch) const {
  std::vector<Action> out;
  if (battle_over()) return out;
  if (phase_ == Phase::Shooting) {
    // Shoot, once for each way the player may choose between equally close
    // enemies (docs/rulings.md#warmaster-shooting-ties).
    for (std::vector<TargetChoice>& choices : target_choice_sets(shooting_targets(*bf_, side_, settings()))) {
      Action a;
      a.type = ActionType::Shoot;
      a.targets = std::move(choices);
      out.push_back(std::move(a));
    }
    return out;
  }
  if (phase_ == Phase::Combat) {
    // End_phase, which fights the engagements.
    Action a;
    a.type = ActionType::EndPhase;
    if (validate(a, scratch).legal()) out.push_back(a);
    return out;
  }
  auto push_if_legal = [&](Action a) {
    if (validate(a, scratch).legal()) out.push_back(std::move(a));
  };

  for (std::size_t i = 0; i < units_.size(); ++i)
    if (units_[i].returns_next_turn && bf_->units[i].side == side_) {
      Action a;
      a.type = ActionType::OffTableReturn;
      a.unit = bf_->units[i].id;
      out.push_back(a);
    }
  for (std::size_t i = 0; i < chars_.size(); ++i)
    if (chars_[i].returns_next_turn && bf_->characters[i].side == side_) {
      Action a;
      a.type = ActionType::OffTableReturn;
      a.character = bf_->characters[i].id;
      out.push_back(a);
    }
  if (!out.empty()) return out;

  if (command_.pending && command_.pending->kind) legal_actions_parts::legal_pending_moves(*this, scratch, out);

  if (command_.step == CommandStep::Initiative && !command_.orders_begun)
    legal_actions_parts::legal_initiative_actions(*this, scratch, out);

  if (command_.step != CommandStep::Characters) {
    legal_actions_parts::legal_order_actions(*this, scratch, out);
  } else {
    for (std::size_t i = 0; i < bf_->characters.size(); ++i) {
      const Character& c = bf_->characters[i];
      if (c.side != side_ || chars_[i].moved) continue;
      Pose to = c.pose;
      to.position += Rot::from_degrees(c.pose.facing_deg).forward() * 10.0;
      push_if_legal(character_move(c, to));
    }
  }
  Action end_phase;
  end_phase.type = ActionType::EndPhase;
  push_if_legal(end_phase);
  return out;
}

Action initiative_action(const Battlefield& bf, const Unit& u, const Unit& enemy, bool charge,
                         const Settings& settings, const MoveIndex* index, MoveScratch* scratch) {
  Action a;
  a.type = ActionType::Initiative;
  a.unit = u.id;
  a.charge = charge;
  a.target = enemy.id;
  if (charge) {
    std::optional<MoveRequest> lined_up = plan_lined_up_charge(bf, u, enemy, settings, index, scratch);
    a.moves.push_back(lined_up ? std::move(*lined_up) : plan_straight_charge(u, enemy));
  }
  return a;
}

Action character_move(const Character& c, const Pose& to) {
  Action a;
  a.type = ActionType::CharacterMove;
  a.character = c.id;
  MoveRequest req;
  req.mover = c.id;
  req.kind = MoveKind::Character;
  StandPlan p;
  p.final_pose = to;
  req.stands.push_back(p);
  a.moves.push_back(req);
  return a;
}

}  // namespace referee::warmaster
