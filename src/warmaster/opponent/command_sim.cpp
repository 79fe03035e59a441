#include "referee/warmaster/opponent/command_sim.hpp"

#include <algorithm>
#include <cmath>

#include "referee/warmaster/command/initiative.hpp"

namespace referee::warmaster::sim {

namespace {

double uniform01(Rng& rng) { return static_cast<double>(rng.next() >> 11) * (1.0 / 9007199254740992.0); }

// apply() validates first and changes nothing when the action is illegal.
// Nobody reads the outcome's JSON unless there is an observer.
bool try_apply(WarmasterState& s, const Action& a, Dice& dice, const Observer* observer, int& applied,
               MoveScratch& scratch) {
  if (observer) {
    const WarmasterState before = s;
    const ActionOutcome o = s.apply(a, dice, WarmasterState::Describe::Yes, scratch);
    if (!o.verdict.legal()) return false;
    (*observer)(before, a, o, s);
  } else if (!s.apply(a, dice, WarmasterState::Describe::No, scratch).verdict.legal()) {
    return false;
  }
  ++applied;
  return true;
}

}  // namespace

Action random_slide(const WarmasterState& s, Rng& rng) {
  Action a;
  a.type = ActionType::Move;
  const PendingMove& p = *s.pending();
  const Battlefield& bf = s.battlefield();
  double allowance = 1e9;
  for (int ui : p.units) {
    const Unit& u = bf.units[static_cast<std::size_t>(ui)];
    const Pace pace = move_pace(u, *p.kind, classify_formation(u, s.settings()),
                                p.kind == MoveKind::Dice ? std::optional<double>(p.dice_distance) : std::nullopt);
    allowance = std::min(allowance, pace.allowance);
  }
  const Unit& lead = bf.units[static_cast<std::size_t>(p.units.front())];
  if (lead.stands.empty()) return a;
  const double facing = lead.stands[0].pose.facing_deg + (uniform01(rng) - 0.5) * 60.0;
  const Vec2 shift = Rot::from_degrees(facing).forward() * std::max(0.0, allowance * (0.2 + 0.8 * uniform01(rng)) - 0.01);
  for (int ui : p.units)
    a.moves.push_back(slide_move(bf.units[static_cast<std::size_t>(ui)], shift, *p.kind,
                                 *p.kind == MoveKind::Dice ? std::optional<double>(p.dice_distance) : std::nullopt));
  return a;
}

namespace {

// After an order or a home back: a random move if it is legal, else hold.
void move_or_hold(WarmasterState& s, Dice& dice, Rng& rng, const Observer* observer, int& applied,
                  MoveScratch& scratch) {
  if (!s.pending() || !s.pending()->kind) return;
  if (try_apply(s, random_slide(s, rng), dice, observer, applied, scratch)) return;
  Action hold;
  hold.type = ActionType::Move;
  try_apply(s, hold, dice, observer, applied, scratch);
}

}  // namespace

namespace random_command_parts {

// Initiative: about half the units that may use it try to; then each
// flyer tries to home back on a friendly character.
void random_initiative(WarmasterState& s, Dice& dice, Rng& rng, const Observer* observer, int side, int& applied,
                       MoveScratch& scratch) {
  for (std::size_t i = 0; i < s.units().size(); ++i) {
    const Battlefield* bf = &s.battlefield();
    const Unit& u = bf->units[i];
    if (u.side != side || !s.units()[i].near_enemy_at_start || (rng.next() & 1)) continue;
    const bool charge = (rng.next() & 1) != 0;
    // A copy: applying the move replaces the battlefield the list belongs to.
    const std::vector<InitiativeCandidate> targets = s.initiative_targets(u.id, charge, scratch);
    for (const InitiativeCandidate& c : targets) {
      if (!c.visible) continue;
      try_apply(s, initiative_action(*bf, u, *bf->find_unit(c.enemy), charge, s.settings(), &s.move_index(), &scratch),
                dice, observer, applied, scratch);
      break;
    }
  }
  for (std::size_t i = 0; i < s.units().size(); ++i) {
    const Unit& u = s.battlefield().units[i];
    if (u.side != side || u.type != TroopType::Flyer) continue;
    for (const Character& c : s.battlefield().characters) {
      if (c.side != side) continue;
      Action a;
      a.type = ActionType::HomeBack;
      a.unit = u.id;
      a.character = c.id;
      if (try_apply(s, a, dice, observer, applied, scratch)) {
        move_or_hold(s, dice, rng, observer, applied, scratch);
        break;
      }
    }
  }
}

// Orders: each character of the side in turn, units in a random order.
void random_orders(WarmasterState& s, Dice& dice, Rng& rng, const Observer* observer, int side, int& applied,
                   MoveScratch& scratch) {
  std::vector<std::size_t> order_units;
  for (std::size_t i = 0; i < s.battlefield().units.size(); ++i)
    if (s.battlefield().units[i].side == side) order_units.push_back(i);
  for (std::size_t ci = 0; ci < s.battlefield().characters.size() && s.step() != CommandStep::Characters; ++ci) {
    // Copies: applying a move replaces the battlefield, so no references into it.
    const std::string cid = s.battlefield().characters[ci].id;
    if (s.battlefield().characters[ci].side != side) continue;
    for (std::size_t k = order_units.size(); k > 1; --k) std::swap(order_units[k - 1], order_units[rng.below(k)]);
    const std::size_t tries = 1 + rng.below(order_units.size());
    for (std::size_t k = 0; k < tries; ++k) {
      if (s.characters()[ci].failed || s.general_failed()) break;
      Action a;
      a.type = ActionType::Order;
      a.character = cid;
      a.units = {s.battlefield().units[order_units[k]].id};
      // Now and then, the unit's brigade (its touching neighbours).
      if (rng.below(4) == 0) {
        for (const auto& ids = s.touching_now(scratch); const int n : ids[order_units[k]])
          if (a.units.size() < 4) a.units.push_back(s.battlefield().units[static_cast<std::size_t>(n)].id);
      }
      // Up to three orders in a row to the same unit or brigade.
      for (int again = 0; again < 3; ++again) {
        if (!try_apply(s, a, dice, observer, applied, scratch)) break;
        move_or_hold(s, dice, rng, observer, applied, scratch);
        if (rng.below(3) != 0) break;
      }
    }
  }
}

}  // namespace random_command_parts

int random_command_phase(WarmasterState& s, Dice& dice, Rng& rng, const Observer* observer) {
  MoveScratch scratch;
  return random_command_phase(s, dice, rng, observer, scratch);
}

int random_command_phase(WarmasterState& s, Dice& dice, Rng& rng, const Observer* observer, MoveScratch& scratch) {
  int applied = 0;
  if (s.battle_over() || s.phase() != Phase::Command) return 0;
  const int side = s.side();
  for (std::size_t i = 0; i < s.units().size(); ++i)
    if (s.units()[i].returns_next_turn) {
      Action a;
      a.type = ActionType::OffTableReturn;
      a.unit = s.battlefield().units[i].id;
      try_apply(s, a, dice, observer, applied, scratch);
    }
  for (std::size_t i = 0; i < s.characters().size(); ++i)
    if (s.characters()[i].returns_next_turn) {
      Action a;
      a.type = ActionType::OffTableReturn;
      a.character = s.battlefield().characters[i].id;
      try_apply(s, a, dice, observer, applied, scratch);
    }

  // Initiative: about half the units that may use it try to.
  if (s.step() == CommandStep::Initiative)
    random_command_parts::random_initiative(s, dice, rng, observer, side, applied, scratch);

  // Orders: each character of the side in turn, units in a random order.
  random_command_parts::random_orders(s, dice, rng, observer, side, applied, scratch);

  Action end_orders;
  end_orders.type = ActionType::EndOrders;
  try_apply(s, end_orders, dice, observer, applied, scratch);
  for (std::size_t ci = 0; ci < s.battlefield().characters.size(); ++ci) {
    const Character& c = s.battlefield().characters[ci];
    if (c.side != side || rng.below(2)) continue;
    // Two statements: the order of the draws must not be left to the compiler.
    const double turn = (uniform01(rng) - 0.5) * 90;
    const double how_far = 60.0 * uniform01(rng);
    Pose to = c.pose;
    to.position += Rot::from_degrees(c.pose.facing_deg + turn).forward() * how_far;
    try_apply(s, character_move(c, to), dice, observer, applied, scratch);
  }
  Action end_phase;
  end_phase.type = ActionType::EndPhase;
  try_apply(s, end_phase, dice, observer, applied, scratch);
  return applied;
}

int random_turn(WarmasterState& s, Dice& dice, Rng& rng, const Observer* observer) {
  MoveScratch scratch;
  return random_turn(s, dice, rng, observer, scratch);
}

int random_turn(WarmasterState& s, Dice& dice, Rng& rng, const Observer* observer, MoveScratch& scratch) {
  int applied = random_command_phase(s, dice, rng, observer, scratch);
  Action shoot;
  shoot.type = ActionType::Shoot;
  if (!s.battle_over() && s.phase() == Phase::Shooting) try_apply(s, shoot, dice, observer, applied, scratch);
  Action end_phase;
  end_phase.type = ActionType::EndPhase;
  if (!s.battle_over() && s.phase() == Phase::Combat) try_apply(s, end_phase, dice, observer, applied, scratch);
  return applied;
}

int random_battle(WarmasterState& s, Dice& dice, Rng& rng, const Observer* observer, MoveScratch& scratch,
                  int max_turns) {
  int applied = 0;
  for (int t = 0; t < max_turns && !s.battle_over(); ++t) applied += random_turn(s, dice, rng, observer, scratch);
  return applied;
}

bool random_legal_action(WarmasterState& s, Dice& dice, Rng& rng, const Observer* observer) {
  MoveScratch scratch;
  return random_legal_action(s, dice, rng, observer, scratch);
}

bool random_legal_action(WarmasterState& s, Dice& dice, Rng& rng, const Observer* observer, MoveScratch& scratch) {
  const std::vector<Action> legal = s.legal_actions(scratch);
  if (legal.empty()) return false;
  const Action& a = legal[rng.below(legal.size())];
  int applied = 0;
  return try_apply(s, a, dice, observer, applied, scratch);
}

}  // namespace referee::warmaster::sim
