// Command cards: what a card played from the hand lets a player order
// (ancients.card.*), and whether a chosen set of orders fits the card.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "referee/ancients/model.hpp"
#include "referee/ancients/movement.hpp"
#include "referee/ancients/position.hpp"
#include "referee/core/ruling.hpp"

namespace referee::ancients {

// One order: a unit (its attached leader moves with it for the same order),
// or a leader ordered on its own (a lone leader, or one detaching from its unit).
struct OrderItem {
  bool leader = false;
  int index = 0;
  bool operator==(const OrderItem&) const = default;
};

struct OrderPlan {
  int card = -1;
  int side = 0;
  int command = 0;                     // cards held, counting the one played
  int total = 0;                       // orders the card gives
  std::array<int, kSections> quota{};  // section cards: orders per board section (index 0 = side 0's left)
  bool fallback = false;               // "none of that kind": one unit of the player's choice
  std::vector<int> units;              // units the card may order
  std::vector<int> leaders;            // leaders the card may order on their own
  MoveOptions move;                    // how ordered units move under this card
  std::string rule;                    // the rule that fixed the count
  std::string reason;                  // why these units and this many
  bool operator==(const OrderPlan&) const = default;
};

// What `card` lets `side` order. `command` is the player's hand size,
// counting the card being played (docs/rulings.md#ancients-command).
OrderPlan plan_orders(const Battle& b, const Position& p, int side, int card, int command);
// Checks a whole set of orders against the plan: eligibility, counts, section
// quotas (a unit on a dotted line may fill either section's quota), the
// leadership chain, detaching.
Verdict check_orders(const Battle& b, const Position& p, const OrderPlan& plan, const std::vector<OrderItem>& chosen);

nlohmann::json plan_json(const Battle& b, const Position& p, const OrderPlan& plan);
// The plan's pieces where they stand (what its JSON says of them), so a
// plan can be described after the position has moved on.
struct PlannedUnit {
  int hex = -1;
  int leader = -1;  // attached, or -1
};
struct PlannedLeader {
  int hex = -1;
  int attached = -1;  // the unit he detaches from, or -1
};
struct PlanPieces {
  std::vector<PlannedUnit> units;      // one per plan.units
  std::vector<PlannedLeader> leaders;  // one per plan.leaders
};
PlanPieces plan_pieces(const Position& p, const OrderPlan& plan);
nlohmann::json plan_json(const Battle& b, const OrderPlan& plan, const PlanPieces& pieces);
std::string plan_text(const Battle& b, const Position& p, const OrderPlan& plan);

}  // namespace referee::ancients
