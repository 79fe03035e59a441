#include "referee/warmaster/game_interface.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "referee/core/errors.hpp"
#include "referee/core/json_io.hpp"
#include "referee/warmaster/model/army_list.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"
#include "referee/warmaster/battle/command_json.hpp"
#include "referee/warmaster/opponent/command_sim.hpp"
#include "referee/warmaster/movement/moving_chargers.hpp"
#include "referee/warmaster/movement/contact.hpp"
#include "referee/warmaster/opponent/opponent.hpp"
#include "referee/warmaster/battle/queries.hpp"
#include "referee/warmaster/model/rules.hpp"

namespace referee::warmaster {

using WarmasterGame = SystemGame<System>;

std::vector<std::string> System::players(const BattleGame& g) {
  std::vector<std::string> out;
  for (const Army& a : g.start.armies) out.push_back(a.name);
  return out;
}
WarmasterState System::initial(const std::shared_ptr<const BattleGame>& g) { return WarmasterState(g); }
WarmasterState System::from_json(const std::shared_ptr<const BattleGame>& g, const Json& j, const std::string& path) {
  return warmaster::state_from_json(g, j, path);
}
Json System::to_json(const BattleGame&, const WarmasterState& s) { return state_to_json(s); }
std::string System::phase(const WarmasterState& s) {
  if (s.phase() == Phase::Command) return std::string("command: ") + to_string(s.step());
  return to_string(s.phase());
}
Json System::result(const BattleGame&, const WarmasterState& s) {
  return game_result(true, s.winner() < 0 ? std::nullopt : std::optional<int>(s.winner()), s.battle_over_reason());
}
Action System::parse(const BattleGame&, const WarmasterState& s, const Json& action, const std::string& path) {
  return parse_action(action, s, path);
}
System::Checked System::check(const BattleGame&, const WarmasterState& s, const Action& a, bool describe) {
  MoveScratch scratch;
  return s.check(a, scratch, describe ? WarmasterState::Describe::Yes : WarmasterState::Describe::No);
}
Json System::do_apply(const BattleGame&, WarmasterState& s, Checked&& c, Dice& dice, bool describe) {
  return s.do_apply(std::move(c), dice, describe ? WarmasterState::Describe::Yes : WarmasterState::Describe::No);
}
std::vector<Action> System::legal(const BattleGame&, const WarmasterState& s) { return s.legal_actions(); }
Json System::action_json(const BattleGame&, const Action& a) { return warmaster::to_json(a); }

std::optional<Json> System::sample(const BattleGame&, const WarmasterState& s, Rng& rng) {
  // A pending move is continuous: half the time a random slide, kept
  // when it is legal; else one of the listed actions.
  if (s.pending() && s.pending()->kind && (rng.next() & 1)) {
    const Action slide = sim::random_slide(s, rng);
    if (s.validate(slide).legal()) return warmaster::to_json(slide);
  }
  const std::vector<Action> legal = s.legal_actions();
  if (legal.empty()) return std::nullopt;
  return warmaster::to_json(legal[rng.below(legal.size())]);
}

Chances System::chances(const referee::GameState& self, const BattleGame&, const WarmasterState& s, const Action& a,
                        const Json& action, const std::string& path) {
  // A Shooting phase rolls a few dice per Attack of every shooting unit,
  // and a Combat phase's end_phase every fighting stand's, beyond counting
  // every face (enumerate_chance would clone and fight it some twenty-five
  // times before giving up); `referee warmaster odds --attacks` and the
  // shooting_odds and combat_odds queries give their exact odds instead.
  if (a.type == ActionType::Shoot)
    return Chances::not_enumerable(
        "a Shooting phase rolls dice for every Attack of every shooting unit, too many to list: the shooting_odds "
        "query gives their exact odds");
  if (a.type == ActionType::EndPhase && s.phase() == Phase::Combat)
    return Chances::not_enumerable(
        "a Combat phase rolls dice for every fighting stand, too many to list: the combat_odds query gives their "
        "exact odds");
  auto label = [](const Outcome& o) -> std::string {
    const Json& r = o.result;
    if (r.contains("passed"))
      return r.at("passed").get<bool>() ? fmt::format("passed: {} or less on 2D6", r.at("needed").get<int>())
                                        : fmt::format("failed: over {} on 2D6", r.at("needed").get<int>());
    if (r.contains("outcome")) return r.at("outcome").get<std::string>();
    std::string text = "rolled";
    for (const Roll& roll : o.rolls) text += fmt::format(" {}", roll.value);
    return text;
  };
  return enumerate_chance(self, action, label, path);
}

Json System::query(const BattleGame&, const WarmasterState& s, const std::string& name, const Json& args,
                   const std::string& path) {
  return answer_query(s, name, args, path);
}
std::vector<QueryInfo> System::queries() { return query_catalogue(); }
std::span<const RuleInfo> System::rules() { return rule_catalogue(); }

std::shared_ptr<const Game> load_game(const Json& battlefield, const std::string& source, const Json& overrides) {
  JsonReader(overrides, "settings").require_object();
  auto g = std::make_shared<BattleGame>();
  Settings file_settings;
  g->start = parse_battlefield(battlefield, &file_settings);
  // Overrides are read on their own first, so an unknown key is named.
  (void)settings_from_json(overrides, "settings");
  Json merged;
  to_json(merged, file_settings);
  merged.update(overrides);
  g->settings = settings_from_json(merged, "settings");
  g->scenario = source;
  Json scenario = battlefield;
  to_json(scenario["settings"], g->settings);
  // A bundled army list named by the battle travels with it, so a log
  // replays with the profiles it was played with.
  if (scenario.contains("army_list") && scenario["army_list"].is_string())
    scenario["army_list"] = to_json(*bundled_army_list(scenario["army_list"].get<std::string>()));
  return std::make_shared<WarmasterGame>(std::move(g), std::move(scenario));
}

namespace {
// The built-in opponent (opponent.hpp) through the interface: the typed
// state in, the chosen action out as JSON. Each call makes its own scratch:
// the interface keeps nothing between calls.
std::optional<Json> opponent_action(const GameState& state, Rng& rng) {
  const WarmasterState* s = typed_state<System>(state);
  if (!s || s->battle_over()) return std::nullopt;
  OpponentScratch scratch;
  return warmaster::to_json(choose_opponent_action(*s, rng, OpponentOptions{}, scratch).action);
}

// The arena's counts of characters at work: every round a unit with a
// joined character (Attacks above 0) fights, and those in which no attack of
// the unit carries the bonus (docs/rulings.md#warmaster-combat-characters);
// orders given by Heroes and Wizards, and their blunders
// (docs/rulings.md#warmaster-command-blunders).
struct CharacterCounts {
  int fights = 0, unbonused = 0, orders = 0, blunders = 0;
};
CharacterCounts count_characters(const WarmasterState& b, const WarmasterState& a, const Json& result) {
  CharacterCounts n;
  const Battlefield& bf = b.battlefield();
  if (const auto combats = result.find("combats"); combats != result.end() && combats->contains("rounds"))
    for (const Json& round : combats->at("rounds")) {
      std::map<std::string, bool> bonused;  // units that fought this round: did one attack carry the bonus?
      for (const Json& attack : round.at("attacks")) {
        bool& has = bonused[attack.at("attacker").get<std::string>()];
        for (const Json& m : attack.at("modifiers")) has = has || m.contains("character");
      }
      for (const auto& fought : bonused) {
        const bool joined = std::any_of(bf.characters.begin(), bf.characters.end(), [&](const Character& c) {
          return c.joined_unit == fought.first && c.attacks > 0;
        });
        n.fights += joined;
        n.unbonused += joined && !fought.second;
      }
    }
  for (std::size_t i = 0; i < bf.characters.size() && i < a.characters().size(); ++i)
    if (bf.characters[i].role != CharacterRole::General &&
        a.characters()[i].orders_issued > b.characters()[i].orders_issued) {
      ++n.orders;
      n.blunders += result.contains("blunder");
    }
  return n;
}

// The arena's checks over every action of a played game: shots at units
// that were engaged when the Shooting phase began (an enemy stand touching
// them: docs/rulings.md#warmaster-shooting-engaged), and units whose engaged
// flag disagrees with their stands after the action
// (docs/rulings.md#warmaster-engaged).
std::vector<std::pair<std::string, int>> audit(const GameState& before, const Outcome& outcome,
                                               const GameState& after) {
  const WarmasterState* b = typed_state<System>(before);
  const WarmasterState* a = typed_state<System>(after);
  if (!b || !a) return {};
  const double tol = b->settings().contact_tolerance;
  int into_combat = 0;
  if (const auto shots = outcome.result.find("shots"); shots != outcome.result.end() && shots->is_array())
    for (const Json& shot : *shots) {
      const Unit* target = b->battlefield().find_unit(shot.at("target").get<std::string>());
      into_combat += target && !enemies_in_contact(b->battlefield(), *target, tol).empty();
    }
  int wrong_flags = 0;
  const std::vector<char> engaged = engaged_now(a->battlefield(), tol);
  for (std::size_t i = 0; i < engaged.size(); ++i) wrong_flags += a->battlefield().units[i].engaged != (engaged[i] != 0);
  // Charges: in the Command phase, a unit that moved from out of contact into
  // contact with an enemy; each must end edge to edge
  // (docs/rulings.md#warmaster-moving-chargers). Not a unit put back on the
  // table at the point it left (docs/rulings.md#warmaster-command-off-the-table),
  // which may come back touching an enemy.
  std::set<std::string> came_back;
  if (const auto left = outcome.result.find("off_table"); left != outcome.result.end() && left->is_array())
    for (const Json& l : *left)
      if (l.contains("unit") && l["unit"].is_string()) came_back.insert(l["unit"].get<std::string>());
  int charges = 0, askew = 0;
  if (b->phase() == Phase::Command)
    for (const Unit& u : a->battlefield().units) {
      const Unit* was = b->battlefield().find_unit(u.id);
      if (!was || was->stands == u.stands || u.stands.empty() || came_back.count(u.id)) continue;
      if (enemies_in_contact(a->battlefield(), u, tol).empty() || !enemies_in_contact(b->battlefield(), *was, tol).empty())
        continue;
      ++charges;
      askew += measure_charge_alignment(a->battlefield(), u, "", tol).flush_stands == 0;
    }
  const CharacterCounts chars = count_characters(*b, *a, outcome.result);
  return {{"shots at engaged units", into_combat},
          {"engaged flags that disagree with the stands", wrong_flags},
          {"charges that ended in contact (a count)", charges},
          {"charges in contact not lined up edge to edge", askew},
          {"fights of units with a joined character (a count)", chars.fights},
          {"fights of units with a joined character without its bonus", chars.unbonused},
          {"Hero and Wizard orders (a count)", chars.orders},
          {"Hero and Wizard blunders (a count)", chars.blunders}};
}
}  // namespace

GameType game_type() {
  GameType t{"warmaster", "Warmaster", "command (initiative, orders, movement), shooting and the combat phase, to the end of the battle, in cm with 40 x 20 mm stands", &load_game, query_catalogue()};
  t.opponent = &opponent_action;
  t.audit = &audit;
  return t;
}

}  // namespace referee::warmaster
