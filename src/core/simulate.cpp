#include "referee/core/simulate.hpp"

#include <cmath>
#include <iterator>

#include <fmt/format.h>

#include "referee/core/errors.hpp"
#include "referee/core/svg.hpp"

namespace referee {

GameSeeds game_seeds(std::uint64_t seed) {
  return {mix_seed(seed), {mix_seed(seed ^ 0xA5A5A5A5ull), mix_seed(seed ^ 0x5A5A5A5A00ull)}};
}

Player named_player(const GameType& type, const std::string& name, const std::string& field) {
  if (name == "random") return [](const GameState& s, Rng& rng) { return s.sample_action(rng); };
  if (name == "opponent") {
    if (!type.opponent) throw InputError(field, type.title + " has no built-in opponent: expected random");
    return type.opponent;
  }
  throw InputError(field, "\"" + name + "\": expected opponent or random");
}

SimulationMode simulation_mode(const std::string& name, const std::string& field) {
  if (name == "game") return SimulationMode::Game;
  if (name == "phase") return SimulationMode::Phase;
  throw InputError(field, "\"" + name + "\": expected game or phase");
}

std::string to_string(SimulationMode m) { return m == SimulationMode::Game ? "game" : "phase"; }

namespace {

// The phase without its step: "command: orders" is the phase "command".
std::string phase_of(const GameState& s) {
  const std::string p = s.phase();
  return p.substr(0, p.find(':'));
}

void count_outcome(const Json& action, const Outcome& out, PlayedGame& g) {
  const auto type = action.is_object() ? action.find("type") : action.end();
  ++g.by_type[type != action.end() && type->is_string() ? type->get<std::string>() : std::string("action")];
  if (!out.result.is_object()) return;
  const auto passed = out.result.find("passed");
  if (passed != out.result.end() && passed->is_boolean()) ++(passed->get<bool>() ? g.passed : g.failed);
}

}  // namespace

PlayedGame play_seeded(const GameType& type, const Game& game, const Player (&players)[2], std::uint64_t seed,
                       int max_actions, SimulationMode mode, bool audit) {
  const GameSeeds seeds = game_seeds(seed);
  SeededDice dice(seeds.dice);
  Rng rng[2] = {Rng(seeds.player[0]), Rng(seeds.player[1])};
  PlayedGame g;
  g.state = game.new_initial_state();
  GameState& s = *g.state;
  const bool auditing = audit && type.audit;
  const std::string first_phase = phase_of(s);
  const int first_player = s.current_player();
  while (!s.is_terminal() && g.actions < max_actions) {
    if (mode == SimulationMode::Phase && (s.current_player() != first_player || phase_of(s) != first_phase)) break;
    const int p = s.current_player();
    const std::optional<Json> a = players[p](s, rng[p]);
    if (!a) break;
    const std::unique_ptr<GameState> before = auditing ? s.clone() : nullptr;
    const Outcome out = s.apply(*a, dice, "action", true);  // described: count_outcome reads the result
    if (!out.applied()) {
      // Never expected of the built-in players: each returns only legal actions.
      g.refusal = {{"action", *a}, {"player", p}, {"turn", s.turn()}, {"phase", s.phase()},
                   {"violations", out.verdict.violations}};
      break;
    }
    ++g.actions;
    count_outcome(*a, out, g);
    if (before)
      for (const auto& [check, times] : type.audit(*before, out, s)) g.audits[check] += times;
  }
  return g;
}

// Mixed twice, so that no two (master, index) pairs that a run of any
// length could meet give one game: master seeds 1 and 2 have no game in
// common, as they would if game i played master + i.
std::uint64_t simulation_game_seed(std::uint64_t master, std::uint64_t index) {
  return mix_seed(mix_seed(master) + index);
}

Json simulate_one(const GameType& type, const Game& game, const Player (&players)[2], const SimulationSpec& spec,
                  std::uint64_t index) {
  const std::uint64_t seed = simulation_game_seed(spec.seed, index);
  const PlayedGame g = play_seeded(type, game, players, seed, spec.max_actions, spec.mode);
  const GameState& s = *g.state;
  const bool over = s.is_terminal();
  const Json r = s.result();
  Json line = {{"index", index},
               {"seed", seed},
               {"winner", over ? r.at("winner") : Json(nullptr)},
               {"over", over},
               {"reason", over ? r.at("reason") : Json("")},
               {"turn", s.turn()},
               {"phase", s.phase()},
               {"actions", g.actions},
               {"by_type", g.by_type},
               {"passed", g.passed},
               {"failed", g.failed}};
  if (!g.refusal.is_null()) line["refused"] = g.refusal;
  return line;
}

std::pair<double, double> wilson_interval(long long successes, long long n) {
  if (n <= 0) return {0.0, 1.0};
  const double z = 1.959963984540054, p = static_cast<double>(successes) / static_cast<double>(n);
  const double nn = static_cast<double>(n), z2 = z * z;
  const double centre = (p + z2 / (2 * nn)) / (1 + z2 / nn);
  const double half = z * std::sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / (1 + z2 / nn);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

void SimulationTally::add(const Json& l) {
  ++games;
  if (l.contains("refused")) ++refused;
  if (!l.at("over").get<bool>()) ++unfinished;
  else if (l.at("winner").is_null()) ++draws;
  else ++wins[l.at("winner").get<int>() == 0 ? 0 : 1];
  turns += l.at("turn").get<long long>();
  actions += l.at("actions").get<long long>();
  passed += l.at("passed").get<long long>();
  failed += l.at("failed").get<long long>();
}

void SimulationTally::merge(const SimulationTally& o) {
  games += o.games;
  wins[0] += o.wins[0];
  wins[1] += o.wins[1];
  draws += o.draws;
  unfinished += o.unfinished;
  refused += o.refused;
  turns += o.turns;
  actions += o.actions;
  passed += o.passed;
  failed += o.failed;
}

Json SimulationTally::to_json() const {
  return Json::array({games, wins[0], wins[1], draws, unfinished, refused, turns, actions, passed, failed});
}

SimulationTally SimulationTally::from_json(const Json& j) {
  SimulationTally t;
  long long* fields[] = {&t.games,   &t.wins[0], &t.wins[1], &t.draws,  &t.unfinished,
                         &t.refused, &t.turns,   &t.actions, &t.passed, &t.failed};
  if (!j.is_array() || j.size() != std::size(fields)) throw InputError("tally", "expected an array of 10 counts");
  for (std::size_t i = 0; i < std::size(fields); ++i) *fields[i] = j.at(i).get<long long>();
  return t;
}

Json simulation_summary(const SimulationTally& t, const std::vector<std::string>& names) {
  const long long n = t.games;
  const double dn = n > 0 ? static_cast<double>(n) : 1.0;
  Json sides = Json::array();
  for (int side = 0; side < 2; ++side) {
    const auto [lo, hi] = wilson_interval(t.wins[side], n);
    sides.push_back({{"army", side < static_cast<int>(names.size()) ? names[static_cast<std::size_t>(side)] : ""},
                     {"wins", t.wins[side]},
                     {"win_rate", static_cast<double>(t.wins[side]) / dn},
                     {"interval95", {lo, hi}}});
  }
  return {{"games", n},           {"sides", sides},
          {"draws", t.draws},     {"unfinished", t.unfinished},
          {"refused", t.refused}, {"mean_turns", static_cast<double>(t.turns) / dn},
          {"mean_actions", static_cast<double>(t.actions) / dn},
          {"passed", t.passed},   {"failed", t.failed}};
}

Json simulation_summary(const std::vector<Json>& lines, const std::vector<std::string>& names) {
  SimulationTally t;
  for (const Json& l : lines) t.add(l);
  return simulation_summary(t, names);
}

std::string summary_svg(const Json& summary, const std::string& title) {
  // Four bars in a 100 x 60 world: each side's wins (with its interval), draws, unfinished.
  const double n = std::max(1.0, summary.at("games").get<double>());
  struct Bar {
    std::string label, second_line;
    double share;
    std::optional<std::pair<double, double>> interval;
    std::string colour;
  };
  std::vector<Bar> bars;
  const char* colours[2] = {"#3b6fb6", "#b6493b"};
  for (std::size_t side = 0; side < 2; ++side) {
    const Json& s = summary.at("sides").at(side);
    // The army's name over "wins", cut to what a bar's width holds, so
    // that neighbouring labels never run into each other.
    std::string army = s.at("army").get<std::string>();
    if (army.size() > 22) {
      std::size_t cut = 21;  // never inside a UTF-8 character
      while (cut > 0 && (static_cast<unsigned char>(army[cut]) & 0xC0) == 0x80) --cut;
      army = army.substr(0, cut) + "…";
    }
    bars.push_back({army, "wins", s.at("win_rate").get<double>(),
                    std::pair{s.at("interval95").at(0).get<double>(), s.at("interval95").at(1).get<double>()},
                    colours[side]});
  }
  bars.push_back({"draws", "", summary.at("draws").get<double>() / n, std::nullopt, "#888888"});
  bars.push_back({"unfinished", "", summary.at("unfinished").get<double>() / n, std::nullopt, "#cccccc"});
  SvgWriter w(Aabb{{0, 0}, {100, 62}}, 8.0);
  w.text_left({4, 58}, title, 2.6, "black", true);
  w.text_left({4, 54.5}, fmt::format("{} games; whiskers: 95% Wilson interval", summary.at("games").get<long long>()),
              2.0);
  const double base = 10, height = 38;
  const auto stroke = [](const char* colour, double width) { return SvgStyle{"none", colour, width, 1.0, ""}; };
  for (int t = 0; t <= 4; ++t) {
    const double y = base + height * t / 4.0;
    w.line({10, y}, {96, y}, stroke("#dddddd", 0.15));
    w.text({6, y - 0.7}, fmt::format("{}%", t * 25), 1.8);
  }
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const double x = 14 + 21.0 * static_cast<double>(i);
    const Bar& b = bars[i];
    w.rect(Aabb{{x, base}, {x + 14, base + height * b.share}}, SvgStyle{b.colour, "none", 0.0, 1.0, ""});
    // Above the whisker, where the whisker would cross it.
    const double top = b.interval ? std::max(b.share, b.interval->second) : b.share;
    w.text({x + 7, base + height * top + 1.5}, fmt::format("{:.1f}%", 100 * b.share), 1.8);
    if (b.interval) {
      const double lo = base + height * b.interval->first, hi = base + height * b.interval->second;
      w.line({x + 7, lo}, {x + 7, hi}, stroke("black", 0.25));
      w.line({x + 5.5, lo}, {x + 8.5, lo}, stroke("black", 0.25));
      w.line({x + 5.5, hi}, {x + 8.5, hi}, stroke("black", 0.25));
    }
    w.text({x + 7, base - 3.2}, b.label, 1.8);
    if (!b.second_line.empty()) w.text({x + 7, base - 5.6}, b.second_line, 1.8);
  }
  return w.finish();
}

}  // namespace referee
