#include "referee/ancients/hidden_cards.hpp"

#include <string>

namespace referee::ancients {

nlohmann::json state_view(const Battle& b, const AncientsState& s, int viewer) {
  nlohmann::json j = state_json(b, s);
  nlohmann::json hidden = nlohmann::json::array();
  nlohmann::json hand_sizes = nlohmann::json::array(), deck_sizes = nlohmann::json::array();
  for (int side = 0; side < 2; ++side) {
    const auto k = static_cast<std::size_t>(side);
    hand_sizes.push_back(s.hands[k].size());
    deck_sizes.push_back(s.decks[k].size());
    if (side != viewer) {
      j["hands"][k] = nullptr;
      hidden.push_back("hands[" + std::to_string(side) + "]");
    }
  }
  for (int side = 0; side < 2; ++side) {
    j["decks"][static_cast<std::size_t>(side)] = nullptr;
    hidden.push_back("decks[" + std::to_string(side) + "]");
  }
  j["hand_sizes"] = std::move(hand_sizes);
  j["deck_sizes"] = std::move(deck_sizes);
  j["hidden"] = std::move(hidden);
  return j;
}

namespace {
// A draw's answer is {"side": drawer, "drew": card, ...}, at the top of an
// end of turn's result or under a card's "turn_skipped": every object is
// looked at, so a draw nested anywhere is hidden too.
void hide_draws(nlohmann::json& j, int viewer) {
  if (j.is_object()) {
    if (j.contains("drew") && j.contains("side") && j["side"].is_number_integer() && j["side"].get<int>() != viewer) {
      j["drew"] = nullptr;
      j["drew_hidden"] = true;
    }
    for (auto it = j.begin(); it != j.end(); ++it) hide_draws(it.value(), viewer);
  } else if (j.is_array()) {
    for (auto& value : j) hide_draws(value, viewer);
  }
}
}  // namespace

nlohmann::json entry_view(const Battle&, const nlohmann::json& entry, int viewer) {
  nlohmann::json e = entry;
  if (e.contains("result")) hide_draws(e["result"], viewer);
  if (e.contains("rolls") && e["rolls"].is_array())
    for (auto& roll : e["rolls"])
      if (roll.is_object() && roll.contains("for") && roll["for"] == "reshuffle") roll["value"] = nullptr;
  return e;
}

}  // namespace referee::ancients
