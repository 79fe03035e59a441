#include "referee/core/game_log.hpp"

#include <fmt/format.h>

#include "referee/core/errors.hpp"
#include "referee/core/json_io.hpp"

namespace referee {

LogEntry& GameLog::append(nlohmann::json action, std::vector<Roll> rolls, nlohmann::json result) {
  entries.push_back({static_cast<int>(entries.size()) + 1, std::move(action), std::move(rolls), std::move(result), nullptr});
  return entries.back();
}

nlohmann::json LogEntry::to_json() const {
  nlohmann::json line{{"seq", seq}, {"action", action}, {"rolls", rolls}};
  if (!result.is_null()) line["result"] = result;
  if (!refused.is_null()) line["refused"] = refused;
  return line;
}

std::string GameLog::to_jsonl() const {
  nlohmann::json header{{"format", kLogFormat}, {"system", system}, {"seed", nullptr}, {"scenario", scenario}};
  if (!seed_withheld) header["seed"] = seed;
  if (!seed_commitment.empty()) header["seed_commitment"] = seed_commitment;
  if (!seed_salt.empty() && !seed_withheld) header["seed_salt"] = seed_salt;
  if (!settings.empty()) header["settings"] = settings;
  if (scripted_dice) header["dice"] = "scripted";
  if (!battle.is_null()) header["battle"] = battle;
  if (start_rolls_withheld) header["start_rolls"] = nullptr;
  else if (!start_rolls.empty()) header["start_rolls"] = start_rolls;
  // The scenario is a path from the command line, which need not be valid
  // UTF-8; JSON text must be, so a stray byte is shown as U+FFFD.
  constexpr auto kReplace = nlohmann::json::error_handler_t::replace;
  std::string out = header.dump(-1, ' ', false, kReplace) + "\n";
  for (const LogEntry& e : entries) {
    out += e.to_json().dump(-1, ' ', false, kReplace) + "\n";
  }
  return out;
}

namespace {
// One roll of a log line: {"die": "d6", "value": 4, "for": "order test"}.
Roll read_roll(const JsonReader& roll) {
  Roll x;
  std::string die = roll.string("die");
  if (die.size() < 2 || die[0] != 'd' || die.find_first_not_of("0123456789", 1) != std::string::npos || die.size() > 4)
    roll.fail("die", "expected a die such as \"d6\", got \"" + die + "\"");
  x.sides = std::stoi(die.substr(1));
  if (x.sides < 2) roll.fail("die", "a die needs at least 2 sides");
  x.value = roll.integer("value", 1, x.sides);
  x.purpose = roll.string_or("for", "");
  return x;
}
}  // namespace

GameLog GameLog::parse_jsonl(std::string_view text, const std::string& source_name) {
  GameLog log;
  std::size_t line_no = 0, start = 0;
  bool have_header = false;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
      if (end == text.size()) break;
      continue;
    }
    std::string where = fmt::format("{} line {}", source_name, line_no);
    nlohmann::json j;
    try {
      j = parse_json_text(line, where);
    } catch (const InputError& e) {
      throw InputError(where, e.problem());
    }
    JsonReader r(j, where);
    try {
      if (!have_header) {
        r.require_object();
        if (r.string("format") != kLogFormat)
          r.fail("format", fmt::format("expected \"{}\"", kLogFormat));
        log.system = r.string("system");
        // Only a whole number in range: 11.5 or -1 must not quietly become another seed.
        const JsonReader seed = r.at("seed");
        auto hex = [&](const char* key, std::size_t digits) {
          std::string v;
          if (auto f = r.find(key)) {
            v = f->as_string();
            if (v.size() != digits || v.find_first_not_of("0123456789abcdef") != std::string::npos)
              f->fail(fmt::format("expected {} lowercase hex digits", digits));
          }
          return v;
        };
        log.seed_commitment = hex("seed_commitment", 64);
        log.seed_salt = hex("seed_salt", 32);
        // A seed withheld while the game is on: only beside its commitment.
        if (seed.json().is_null() && !log.seed_commitment.empty()) {
          log.seed_withheld = true;
        } else if (!seed.json().is_number_unsigned())
          seed.fail("expected a whole number from 0 to 18446744073709551615, got " +
                    (seed.json().is_number() ? seed.json().dump() : std::string("something else")));
        if (!log.seed_withheld) log.seed = seed.json().get<std::uint64_t>();
        log.scenario = r.string_or("scenario", "");
        if (auto s = r.find("settings")) log.settings = s->json();
        if (auto b = r.find("battle")) log.battle = b->require_object().json();
        log.scripted_dice = r.one_of_or("dice", {"seeded", "scripted"}, "seeded") == "scripted";
        // Present but null: withheld (a reader's find() treats null as absent).
        log.start_rolls_withheld = j.contains("start_rolls") && j["start_rolls"].is_null();
        if (auto f = r.find("start_rolls"))
          for (const JsonReader& roll : f->items()) log.start_rolls.push_back(read_roll(roll));
        have_header = true;
        continue;
      }
      r.require_object();
      LogEntry e;
      e.seq = r.integer("seq", 1);
      if (e.seq != static_cast<int>(log.entries.size()) + 1)
        r.fail("seq", fmt::format("expected {}, got {}", log.entries.size() + 1, e.seq));
      e.action = r.at("action").require_object().json();
      for (const JsonReader& roll : r.items("rolls")) e.rolls.push_back(read_roll(roll));
      if (auto res = r.find("result")) e.result = res->json();
      if (auto ref = r.find("refused")) e.refused = ref->require_array().json();
      log.entries.push_back(std::move(e));
    } catch (const nlohmann::json::exception& ex) {
      throw InputError(where, ex.what());
    }
  }
  if (!have_header) throw InputError(source_name, "the log is empty: expected a header line");
  return log;
}

std::vector<int> GameLog::all_roll_values() const {
  std::vector<int> v;
  for (const Roll& r : start_rolls) v.push_back(r.value);
  for (const LogEntry& e : entries)
    for (const Roll& r : e.rolls) v.push_back(r.value);
  return v;
}

}  // namespace referee
