// Builders for command-phase tests: units in line, characters, moves that
// slide a whole unit, and a one-call way to apply an action with scripted dice.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "referee/core/dice.hpp"
#include "referee/warmaster/battle/command_json.hpp"
#include "referee/warmaster/battle/battle_state.hpp"
#include "warmaster_test_fields.hpp"

namespace referee::warmaster::testing {

// Three stands in a line, centred on (x, y), all facing `facing` (0 = +y).
inline Unit line_unit(const std::string& id, int side, double x, double y, double facing = 0,
                      TroopType type = TroopType::Infantry) {
  Unit u;
  u.id = id;
  u.name = id;
  u.side = side;
  u.type = type;
  if (type != TroopType::Infantry) {
    u.width = 2;
    u.depth = 4;
  }
  const Vec2 right = Rot::from_degrees(facing).right();
  for (int k = -1; k <= 1; ++k) u.stands.push_back({Pose{Vec2{x, y} + right * (k * u.width), facing}});
  return u;
}

inline Character character(const std::string& id, int side, CharacterRole role, int command, double x, double y) {
  Character c;
  c.id = id;
  c.name = id;
  c.side = side;
  c.role = role;
  c.command = command;
  c.pose = Pose{{x, y}, side == 0 ? 0.0 : 180.0};
  return c;
}

// Every stand of `u` slid by `shift`, facings kept.
inline MoveRequest slide(const Unit& u, Vec2 shift, MoveKind kind = MoveKind::Ordered) {
  return slide_move(u, shift, kind);
}

inline std::shared_ptr<const BattleGame> make_game(Battlefield bf, Settings settings = {}) {
  auto g = std::make_shared<BattleGame>();
  g->start = std::move(bf);
  g->settings = settings;
  g->scenario = "test";
  return g;
}

inline Action order(const std::string& character, std::vector<std::string> units) {
  Action a;
  a.type = ActionType::Order;
  a.character = character;
  a.units = std::move(units);
  return a;
}

inline Action move(std::vector<MoveRequest> moves) {
  Action a;
  a.type = ActionType::Move;
  a.moves = std::move(moves);
  return a;
}

inline Action simple(ActionType t) {
  Action a;
  a.type = t;
  return a;
}

inline Action initiative(const std::string& unit, bool charge, const std::string& target,
                         std::vector<MoveRequest> moves = {}) {
  Action a;
  a.type = ActionType::Initiative;
  a.unit = unit;
  a.charge = charge;
  a.target = target;
  a.moves = std::move(moves);
  return a;
}

// Applies with the given dice; fails the test if the dice are not all used.
inline ActionOutcome play(WarmasterState& s, const Action& a, std::vector<int> dice = {}) {
  ScriptedDice d(std::move(dice));
  ActionOutcome o = s.apply(a, d);
  EXPECT_EQ(d.remaining(), 0u) << "unused dice";
  return o;
}

// A refused action: the rule, and the state left exactly as it was.
inline void expect_refused(WarmasterState& s, const Action& a, const std::string& rule) {
  const Json before = state_to_json(s);
  ScriptedDice d({});
  const ActionOutcome o = s.apply(a, d);
  EXPECT_FALSE(o.verdict.legal());
  EXPECT_TRUE(o.verdict.has(rule)) << "expected " << rule << ", got: " << explain(o.verdict);
  EXPECT_TRUE(o.rolls.empty());
  EXPECT_EQ(state_to_json(s), before) << "a refused action changed the state";
}

// Ends the side's turn from its Command phase (play sheet, "SEQUENCE: 1.
// Command 2. Shoot 3. Combat"): end_phase, shoot (no unit of these fields
// shoots, so no dice), end_phase of the Combat phase.
inline void end_turn(WarmasterState& s) {
  for (ActionType t : {ActionType::EndPhase, ActionType::Shoot, ActionType::EndPhase}) {
    const ActionOutcome o = play(s, simple(t));
    ASSERT_TRUE(o.verdict.legal()) << to_string(t) << ": " << explain(o.verdict);
  }
}

inline const UnitStatus& status(const WarmasterState& s, const std::string& id) {
  for (std::size_t i = 0; i < s.battlefield().units.size(); ++i)
    if (s.battlefield().units[i].id == id) return s.units()[i];
  throw std::runtime_error("no unit " + id);
}

inline const Unit& unit(const WarmasterState& s, const std::string& id) { return *s.battlefield().find_unit(id); }

}  // namespace referee::warmaster::testing
