// Small battles written inline as JSON, so each test shows its whole setup.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/ancients/turn.hpp"
#include "referee/ancients/model.hpp"
#include "referee/ancients/movement.hpp"
#include "referee/core/json_io.hpp"

namespace referee::ancients::testing {

// Units and leaders are lists, not json: `nlohmann::json units = {unit(...)}` is an
// array of one unit under g++ but a copy of the unit under clang (a json
// initialised from a one-element braced list of json).
inline nlohmann::json battle_json(std::vector<nlohmann::json> units, std::vector<nlohmann::json> leaders = {},
                                  nlohmann::json terrain = nlohmann::json::array()) {
  return {{"units", nlohmann::json(std::move(units))},
          {"leaders", nlohmann::json(std::move(leaders))},
          {"terrain", std::move(terrain)},
          {"players",
           {{{"hand", {"order-three-center", "order-light-troops", "leadership-any-section", "order-mounted-troops"}}},
            {{"hand", {"order-two-left", "order-medium-troops"}}}}}};
}

inline Battle make_battle(std::vector<nlohmann::json> units, std::vector<nlohmann::json> leaders = {},
                          nlohmann::json terrain = nlohmann::json::array()) {
  return parse_battle(battle_json(std::move(units), std::move(leaders), std::move(terrain)), "test");
}

inline nlohmann::json unit(const std::string& id, const std::string& cls, int side, int col, int row) {
  return {{"id", id}, {"class", cls}, {"side", side}, {"at", {col, row}}};
}

// A bundled battle as its file lists the hands and decks, for a test that
// pins a worked example's hand: the bundled battles deal at random
// (docs/rulings.md#ancients-deal), and as_listed is the default.
inline nlohmann::json listed_deal(nlohmann::json battle) {
  battle.erase("deal");
  return battle;
}

// The battle phase of side `side`'s turn with `ordered` units ordered, as
// the movement leaves it (the card played: Order Three Units Center).
inline AncientsState battle_phase(const Battle& b, const std::vector<std::string>& ordered, int side = 0) {
  AncientsState s = AncientsState::initial(b);
  s.side = side;
  s.phase = Phase::battle;
  s.card = b.find_card("order-three-center");
  for (const std::string& id : ordered) {
    const int u = b.find_unit(id);
    s.orders.push_back({false, u});
    s.position.units[static_cast<std::size_t>(u)].ordered = true;
  }
  return s;
}

inline int hex(const Battle& b, int col, int row) { return b.board.index(ColRow{col, row}); }

inline std::vector<Destination> destinations(const Battle& b, const Position& p, const std::string& id,
                                             MoveOptions o = {}) {
  PathScratch s;
  std::vector<Destination> out;
  unit_destinations(b, p, b.find_unit(id), o, s, out);
  return out;
}

inline std::vector<Destination> destinations(const Battle& b, const std::string& id, MoveOptions o = {}) {
  return destinations(b, Position::initial(b), id, o);
}

// A copy, so it is safe on a temporary list.
inline std::optional<Destination> find_dest(const std::vector<Destination>& ds, int hex) {
  auto it = std::find_if(ds.begin(), ds.end(), [&](const Destination& d) { return d.hex == hex; });
  return it == ds.end() ? std::nullopt : std::optional<Destination>(*it);
}

inline std::vector<std::string> rules_of(const Verdict& v) {
  std::vector<std::string> r;
  for (const auto& x : v.violations) r.push_back(x.rule);
  return r;
}

inline Battle load_scenario(const std::string& name) {
  return load_battle(std::string(REFEREE_SOURCE_DIR) + "/scenarios/ancients/" + name);
}

}  // namespace referee::ancients::testing
