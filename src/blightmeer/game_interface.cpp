#include "referee/blightmeer/game_interface.hpp"

#include "referee/blightmeer/io.hpp"
#include "referee/blightmeer/queries.hpp"
#include "referee/blightmeer/rules.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/json_io.hpp"

namespace referee::blightmeer {

Json System::result(const Battle& b, const State& s) {
  // The side left with units standing wins when the other has none.
  std::optional<int> winner;
  std::vector<int> standing(s.sides.size(), 0);
  for (const Unit& u : s.state.units)
    for (std::size_t i = 0; i < s.sides.size(); ++i)
      if (u.side == s.sides[i] && !u.incapacitated) ++standing[i];
  if (standing.size() == 2 && (standing[0] == 0) != (standing[1] == 0)) winner = standing[0] ? 0 : 1;
  return game_result(true, winner, game_over_reason(b, s));
}

std::optional<Json> System::sample(const Battle& b, const State& s, Rng& rng) {
  std::vector<MoveKindOption> kinds;
  for (MoveKindOption& k : move_kinds(*b.terrain, s))
    if (k.why_not.legal()) kinds.push_back(std::move(k));
  // Mostly moves, now and then the end of the turn, so games progress.
  if (!kinds.empty() && rng.below(5) != 0) {
    const MoveKindOption& k = kinds[rng.below(kinds.size())];
    if (std::optional<Action> a = sample_move(*b.terrain, s, k.unit, k.run, rng)) return blightmeer::action_json(*a);
  }
  return blightmeer::action_json(Action{});
}

Chances System::chances(const referee::GameState&, const Battle& b, const State& s, const Action& a, const Json&,
                        const std::string&) {
  if (a.type != Action::Type::move) return Chances::no_dice();
  const Checked c = blightmeer::check(*b.terrain, s, a);
  if (!c.verdict.legal() || c.report.checks.empty()) return Chances::no_dice();
  std::vector<ChanceOutcome> out;
  for (MoveOutcome& m : move_outcomes(c.report)) out.push_back({std::move(m.label), m.chance, std::move(m.detail)});
  return Chances::of(std::move(out));
}

Json System::query(const Battle& b, const State& s, const std::string& name, const Json& args,
                   const std::string& path) {
  return answer_query(*b.terrain, s.state, name, args, path);
}
std::vector<QueryInfo> System::queries() { return query_catalogue(); }
std::span<const RuleInfo> System::rules() { return rule_catalogue(); }

std::shared_ptr<const Game> load_game(const Json& battle, const std::string& source, const Json& settings) {
  JsonReader(settings, "settings").require_object();
  Json merged = battle;
  if (!settings.empty()) {
    if (!merged.is_object()) throw InputError(source, "expected an object");
    Json& s = merged["settings"];
    if (s.is_null()) s = Json::object();
    if (!s.is_object()) throw InputError(source + ": settings", "expected an object");
    s.update(settings);
  }
  auto b = std::make_shared<const Battle>(parse_battle(merged, source));
  return std::make_shared<SystemGame<System>>(std::move(b), std::move(merged));
}

GameType game_type() { return {"blightmeer", "Blightmeer", "3D skirmish movement in inches", &load_game, query_catalogue()}; }

}  // namespace referee::blightmeer
