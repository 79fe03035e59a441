// The web board's API (docs/api.md), driven directly: every route, the
// errors a hostile or careless client gets, and that the board's answers
// are the game interface's own (the same rolls and rulings as the command
// line for the same seed and actions).
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <regex>
#include <thread>

#include "api.hpp"
#include "http_server.hpp"
#include "seats.hpp"
#include "referee/core/game_log.hpp"
#include "referee/core/match.hpp"
#include "referee/games/builtin.hpp"

namespace referee::server {
namespace {

Api make_api(Limits limits = {}) { return Api(builtin_games(), bundled_battle_list(builtin_games()), limits); }

// Every test acts as its games' creator (seats.hpp) unless it says otherwise.
SeatBook book;

Request as_creator(const std::string& method, const std::string& path, const std::string& body) {
  Request r{method, path, body};
  r.seat = book.header_for(path);
  return r;
}

Response handled(Api& api, const Request& request) {
  Response r = api.handle(request);
  if (r.content_type == "application/json") book.remember(Json::parse(r.body, nullptr, false));
  return r;
}

Json call(Api& api, const std::string& method, const std::string& path, const Json& body, int expect_status) {
  const Response r = handled(api, as_creator(method, path, body.is_null() ? "" : body.dump()));
  EXPECT_EQ(r.status, expect_status) << method << " " << path << " -> " << r.body;
  return r.content_type == "application/json" ? Json::parse(r.body) : Json(r.body);
}

Json json_of(const Response& r, int expect_status) {
  EXPECT_EQ(r.status, expect_status) << r.body;
  return Json::parse(r.body);
}

Json create(Api& api, const Json& body = Json::object()) { return call(api, "POST", "/api/games", body, 201); }

// The default battle's first order: the Empire General (Command 9, at
// (90, 5)) orders the Halberdiers, whose nearest stand is 26.5 cm away:
// "-1 for each full 20cm distance" (warmaster-play-sheet), so 8 or less.
const Json kOrder = {{"type", "order"}, {"character", "emp-general"}, {"unit", "emp-halberd-1"}};

TEST(ServerApi, BattlesListEverySystemDefaultWarmasterFirst) {
  Api api = make_api();
  const Json b = call(api, "GET", "/api/battles", nullptr, 200);
  EXPECT_EQ(b["default"], "warmaster/default");
  std::set<std::string> systems;
  for (const Json& x : b["battles"]) systems.insert(x["system"].get<std::string>());
  EXPECT_EQ(systems, (std::set<std::string>{"warmaster", "ancients", "blightmeer"}));
  EXPECT_EQ(b["battles"].size(), bundled_battles().size());
  const Json scenario = call(api, "GET", "/api/battles/blightmeer/town", nullptr, 200);
  EXPECT_EQ(scenario["name"], "Riverside town");
  call(api, "GET", "/api/battles/blightmeer/nowhere", nullptr, 404);
}

// The fair battle names the side the board gives the built-in opponent (the
// Orcs, side 1); the default battle names none (both sides at the board).
// So do Ancients' battles to the banners.
TEST(ServerApi, TheFairBattleNamesTheSideTheBuiltInOpponentPlays) {
  Api api = make_api();
  const Json b = call(api, "GET", "/api/battles", nullptr, 200);
  std::map<std::string, Json> sides;
  for (const Json& x : b["battles"]) sides[x["id"].get<std::string>()] = x["opponent_sides"];
  EXPECT_EQ(sides.at("warmaster/pitched-battle"), Json::array({1}));
  EXPECT_EQ(sides.at("warmaster/default"), Json::array());
  EXPECT_EQ(sides.at("ancients/centre_clash"), Json::array());
  // Ancients against the computer: it plays the side that does not move first.
  EXPECT_EQ(sides.at("ancients/lines_engaged"), Json::array({1}));
  EXPECT_EQ(sides.at("ancients/river_crossing"), Json::array({0}));
}

// Who plays each side is the game's: made with the game, changed by POST
// .../players, and in every view of it, so a second browser (or a reload
// with no storage) plays the Orcs by the built-in opponent too.
TEST(ServerApi, TheSidesTheBuiltInOpponentPlaysAreTheGames) {
  Api api = make_api();
  const Json g = create(api, {{"battle", "warmaster/pitched-battle"}, {"opponent_sides", {1}}});
  EXPECT_EQ(g["opponent_sides"], Json::array({1}));
  const std::string base = "/api/games/" + g["id"].get<std::string>();
  EXPECT_EQ(call(api, "GET", base, nullptr, 200)["opponent_sides"], Json::array({1}));
  EXPECT_EQ(call(api, "POST", base + "/players", {{"opponent_sides", {1, 0}}}, 200)["opponent_sides"], Json::array({0, 1}));
  EXPECT_EQ(call(api, "GET", base, nullptr, 200)["opponent_sides"], Json::array({0, 1}));
  EXPECT_EQ(call(api, "POST", base + "/players", {{"opponent_sides", Json::array()}}, 200)["opponent_sides"], Json::array());
  EXPECT_EQ(create(api)["opponent_sides"], Json::array());
  // Bad input names the field, and changes nothing.
  call(api, "POST", base + "/players", {{"opponent_sides", {1}}}, 200);
  EXPECT_EQ(call(api, "POST", base + "/players", {{"opponent_sides", {2}}}, 400)["error"]["field"], "opponent_sides[0]");
  EXPECT_EQ(call(api, "POST", base + "/players", {{"opponent_sides", {1, 1}}}, 400)["error"]["field"], "opponent_sides[1]");
  EXPECT_EQ(call(api, "POST", base + "/players", {{"opponent_sides", 1}}, 400)["error"]["field"], "opponent_sides");
  EXPECT_EQ(call(api, "POST", base + "/players", {{"sides", {1}}}, 400)["error"]["field"], "sides");
  EXPECT_EQ(call(api, "GET", base, nullptr, 200)["opponent_sides"], Json::array({1}));
  EXPECT_EQ(call(api, "POST", "/api/games", {{"battle", "warmaster/default"}, {"opponent_sides", {-1}}}, 400)["error"]["field"],
            "opponent_sides[0]");
  // Blightmeer has no built-in opponent: only [] is accepted.
  const Json a = create(api, {{"battle", "blightmeer/town"}, {"opponent_sides", Json::array()}});
  EXPECT_EQ(call(api, "POST", "/api/games/" + a["id"].get<std::string>() + "/players", {{"opponent_sides", {1}}}, 400)["error"]["field"],
            "opponent_sides");
  // Ancients has one.
  const Json c = create(api, {{"battle", "ancients/centre_clash"}, {"opponent_sides", Json::array()}});
  EXPECT_EQ(call(api, "POST", "/api/games/" + c["id"].get<std::string>() + "/players", {{"opponent_sides", {1}}}, 200)["opponent_sides"],
            Json::array({1}));
  EXPECT_EQ(call(api, "GET", base + "/players", nullptr, 405)["error"]["field"], "method");
}

TEST(ServerApi, ANewGameHasAnUnguessableIdAndTheWholeView) {
  Api api = make_api();
  const Json g = create(api);
  EXPECT_TRUE(std::regex_match(g["id"].get<std::string>(), std::regex("[0-9a-f]{32}")));
  EXPECT_EQ(g["system"], "warmaster");
  EXPECT_EQ(g["battle"], "warmaster/default");
  EXPECT_EQ(g["players"].size(), 2u);
  EXPECT_EQ(g["turn"], 1);
  EXPECT_EQ(g["position"], 0);
  EXPECT_FALSE(g["can_undo"].get<bool>());
  EXPECT_TRUE(g["scenario"].contains("terrain"));
  EXPECT_TRUE(g["state"].contains("units"));
  EXPECT_NE(create(api)["id"], g["id"]);
  EXPECT_EQ(api.game_count(), 2u);
}

TEST(ServerApi, OrderOddsAndTheRollAreTheEngines) {
  Api api = make_api();
  const Json g = create(api, {{"seed", 42}});
  const std::string base = "/api/games/" + g["id"].get<std::string>();
  const Json odds = call(api, "POST", base + "/query",
                         {{"name", "order_odds"}, {"args", {{"character", "emp-general"}, {"units", {"emp-halberd-1"}}}}}, 200);
  EXPECT_EQ(odds["command"], 9);
  EXPECT_EQ(odds["needed"], 8);
  EXPECT_EQ(odds["chance"]["fraction"], "26/36");
  EXPECT_NEAR(odds["chance"]["value"].get<double>(), 26.0 / 36.0, 1e-6);

  // The battlefield with troops resolved: the board draws each stand at its size.
  const Json bf = call(api, "POST", base + "/query", {{"name", "battlefield"}}, 200);
  bool knights = false;
  for (const Json& army : bf["armies"])
    for (const Json& u : army["units"])
      if (u["id"] == "emp-knights") {
        knights = true;
        EXPECT_EQ(u["type"], "cavalry");
        EXPECT_EQ(u["frontage"], 2.0);
        EXPECT_EQ(u["depth"], 4.0);
      }
  EXPECT_TRUE(knights) << bf.dump();

  const Json chance = call(api, "POST", base + "/chance", {{"action", kOrder}}, 200);
  double total = 0;
  for (const Json& o : chance["outcomes"]) total += o["chance"]["value"].get<double>();
  EXPECT_NEAR(total, 1.0, 1e-12);

  // The same seed and action through a Match gives the same dice.
  Match local(builtin_games().at("warmaster").load(bundled_battle_list(builtin_games())[0].scenario, "default", Json::object()),
              DiceSource{42, std::nullopt}, "default");
  const Outcome expected = local.play(kOrder);
  const Json out = call(api, "POST", base + "/apply", {{"action", kOrder}}, 200);
  ASSERT_TRUE(out["applied"].get<bool>()) << out.dump();
  ASSERT_EQ(out["rolls"].size(), expected.rolls.size());
  for (std::size_t i = 0; i < expected.rolls.size(); ++i) EXPECT_EQ(out["rolls"][i]["value"], expected.rolls[i].value);
  EXPECT_EQ(out["game"]["state"], local.state().to_json());
  EXPECT_EQ(out["game"]["position"], 1);
}

// The board's formation helpers (formation_plan): a column along a path
// is planned with the verdict; a field of the wrong kind is a 400 naming it.
TEST(ServerApi, FormationPlanAnswersWithTheVerdictAndRefusesBadFields) {
  Api api = make_api();
  const Json g = create(api, {{"dice", {1, 1}}});
  const std::string base = "/api/games/" + g["id"].get<std::string>();
  ASSERT_TRUE(call(api, "POST", base + "/apply", {{"action", kOrder}}, 200)["applied"].get<bool>());
  const Json path = Json::array({{{"x", 60}, {"y", 20}}, {{"x", 60}, {"y", 30}}});
  const Json plan = call(api, "POST", base + "/query",
                         {{"name", "formation_plan"}, {"args", {{"unit", "emp-halberd-1"}, {"shape", "column"}, {"path", path}}}}, 200);
  EXPECT_TRUE(plan["legal"].get<bool>()) << plan.dump();
  EXPECT_EQ(plan["move"]["stands"].size(), 3u);
  const auto field = [&](const Json& args) {
    return call(api, "POST", base + "/query", {{"name", "formation_plan"}, {"args", args}}, 400)["error"]["field"];
  };
  EXPECT_EQ(field({{"unit", "emp-halberd-1"}, {"shape", "square"}, {"path", path}}), "args.shape");
  EXPECT_EQ(field({{"unit", "emp-halberd-1"}, {"shape", "line"}}), "args.toward");
  EXPECT_EQ(field({{"unit", "emp-halberd-1"}, {"shape", "column"}, {"path", "north"}}), "args.path");
}

TEST(ServerApi, AnIllegalActionIsRefusedWithItsRuleAndTheStateIsUnchanged) {
  Api api = make_api();
  const Json g = create(api);
  const std::string base = "/api/games/" + g["id"].get<std::string>();
  // An Orc character cannot order in the Empire's turn.
  const Json bad = {{"type", "order"}, {"character", "orc-warboss"}, {"unit", "orc-boyz-1"}};
  const Json v = call(api, "POST", base + "/validate", {{"action", bad}}, 200);
  EXPECT_FALSE(v["legal"].get<bool>());
  ASSERT_FALSE(v["violations"].empty());
  EXPECT_FALSE(v["violations"][0]["rule"].get<std::string>().empty());
  EXPECT_FALSE(v["violations"][0]["reason"].get<std::string>().empty());
  const Json out = call(api, "POST", base + "/apply", {{"action", bad}}, 200);
  EXPECT_FALSE(out["applied"].get<bool>());
  EXPECT_EQ(out["violations"], v["violations"]);
  EXPECT_EQ(out["game"]["state"], g["state"]);
  EXPECT_TRUE(out["rolls"].empty());
}

TEST(ServerApi, UndoRedoLogImportAndReplay) {
  Api api = make_api();
  const Json g = create(api, {{"seed", 7}});
  const std::string base = "/api/games/" + g["id"].get<std::string>();
  const Json after = call(api, "POST", base + "/apply", {{"action", kOrder}}, 200)["game"];
  call(api, "POST", base + "/redo", nullptr, 409);
  const Json undone = call(api, "POST", base + "/undo", nullptr, 200);
  EXPECT_EQ(undone["state"], g["state"]);
  EXPECT_TRUE(undone["can_redo"].get<bool>());
  const Json redone = call(api, "POST", base + "/redo", nullptr, 200);
  EXPECT_EQ(redone["state"], after["state"]);

  const Response log = api.handle({"GET", base + "/log", ""});
  ASSERT_EQ(log.status, 200);
  EXPECT_EQ(log.content_type, "application/x-ndjson");
  const GameLog parsed = GameLog::parse_jsonl(log.body, "log");
  ASSERT_EQ(parsed.entries.size(), 1u);
  EXPECT_EQ(parsed.seed, 7u);

  const Json imported = json_of(handled(api, as_creator("POST", "/api/games/import", log.body)), 201);
  EXPECT_NE(imported["id"], g["id"]);
  EXPECT_EQ(imported["state"], after["state"]);
  EXPECT_EQ(imported["position"], 1);

  const Json r0 = call(api, "GET", base + "/replay/0", nullptr, 200);
  EXPECT_EQ(r0["state"], g["state"]);
  EXPECT_TRUE(r0["action"].is_null());
  const Json r1 = call(api, "GET", base + "/replay/1", nullptr, 200);
  EXPECT_EQ(r1["state"], after["state"]);
  EXPECT_EQ(r1["action"], kOrder);
  const Json bad_step = call(api, "GET", base + "/replay/2", nullptr, 400);
  EXPECT_EQ(bad_step["error"]["field"], "step");
  call(api, "GET", base + "/replay/-1", nullptr, 400);
  // Replaying does not move the game.
  EXPECT_EQ(call(api, "GET", base, nullptr, 200)["position"], 1);
}

// One round trip per action (docs/api.md): the answer to /apply carries the
// log lines it added and the legal actions next, never the whole log, so its
// size does not grow with the game; the board reads the last lines of a game
// it opens from /entries/{from}.
TEST(ServerApi, AnActionIsOneRoundTripWhoseAnswerDoesNotGrowWithTheGame) {
  Api api = make_api();
  const Json g = create(api, {{"battle", "ancients/centre_clash"}, {"seed", 3}});
  const std::string base = "/api/games/" + g["id"].get<std::string>();
  EXPECT_EQ(g["legal_actions"], call(api, "GET", base + "/legal-actions", nullptr, 200)["actions"]);

  // Play the first legal action, over and over, and keep every answer.
  std::vector<Json> answers;
  for (int k = 0; k < 60; ++k) {
    const Json view = call(api, "GET", base, nullptr, 200);
    if (view["terminal"].get<bool>()) break;
    const Json out = call(api, "POST", base + "/apply", {{"action", view["legal_actions"][0]}}, 200);
    ASSERT_TRUE(out["applied"].get<bool>()) << out.dump();
    // Exactly the line the log gained, and what is legal now.
    const GameLog log = GameLog::parse_jsonl(call(api, "GET", base + "/log", nullptr, 200).get<std::string>(), "log");
    ASSERT_EQ(out["entries"].size(), 1u);
    EXPECT_EQ(out["entries"][0], log.entries.back().to_json());
    EXPECT_EQ(out["entries"][0]["seq"], static_cast<int>(log.entries.size()));
    EXPECT_EQ(out["game"]["legal_actions"], call(api, "GET", base + "/legal-actions", nullptr, 200)["actions"]);
    answers.push_back(out);
  }
  ASSERT_GE(answers.size(), 40u);
  // The log grew by every action; an answer's log lines stayed one line.
  const std::size_t first_entries = answers.front()["entries"].dump().size();
  const std::size_t last_entries = answers.back()["entries"].dump().size();
  EXPECT_LT(last_entries, 4 * first_entries + 400) << answers.back()["entries"].dump();
  const std::size_t log_bytes = call(api, "GET", base + "/log", nullptr, 200).get<std::string>().size();
  EXPECT_LT(answers.back().dump().size() - answers.back()["game"]["scenario"].dump().size(), log_bytes);

  // /entries/{from}: the lines from a step on, as the log has them, bounded.
  const std::size_t position = answers.size();
  const Json tail = call(api, "GET", base + "/entries/" + std::to_string(position - 5), nullptr, 200);
  EXPECT_EQ(tail["from"], position - 5);
  EXPECT_EQ(tail["to"], position);
  ASSERT_EQ(tail["entries"].size(), 5u);
  EXPECT_EQ(tail["entries"][4], answers.back()["entries"][0]);
  EXPECT_TRUE(call(api, "GET", base + "/entries/" + std::to_string(position), nullptr, 200)["entries"].empty());
  EXPECT_EQ(call(api, "GET", base + "/entries/" + std::to_string(position + 1), nullptr, 400)["error"]["field"], "from");
  EXPECT_EQ(call(api, "GET", base + "/entries/-1", nullptr, 400)["error"]["field"], "from");
  EXPECT_EQ(call(api, "GET", base + "/entries/1e3", nullptr, 400)["error"]["field"], "from");
  EXPECT_EQ(call(api, "POST", base + "/entries/0", Json::object(), 405)["error"]["field"], "method");
}

TEST(ServerApi, ATamperedLogIsRefusedNamingItsLine) {
  Api api = make_api();
  const Json g = create(api, {{"seed", 7}});
  const std::string base = "/api/games/" + g["id"].get<std::string>();
  call(api, "POST", base + "/apply", {{"action", kOrder}}, 200);
  std::string log = api.handle({"GET", base + "/log", ""}).body;
  // Change the rolled value: the replay must notice.
  const auto at = log.find("\"value\":");
  ASSERT_NE(at, std::string::npos);
  log[at + 8] = log[at + 8] == '6' ? '1' : static_cast<char>(log[at + 8] + 1);
  const Json e = json_of(api.handle({"POST", "/api/games/import", log}), 400);
  EXPECT_NE(e["error"]["message"].get<std::string>().find("line 2"), std::string::npos) << e.dump();
  EXPECT_EQ(api.game_count(), 1u);
}

TEST(ServerApi, LegalActionsSampleQueriesAndEverySystem) {
  Api api = make_api();
  for (const char* battle : {"warmaster/default", "ancients/centre_clash", "blightmeer/town"}) {
    const Json g = create(api, {{"battle", battle}});
    const std::string base = "/api/games/" + g["id"].get<std::string>();
    const Json legal = call(api, "GET", base + "/legal-actions", nullptr, 200);
    EXPECT_FALSE(legal["actions"].empty()) << battle;
    const Json sample = call(api, "POST", base + "/sample", {{"seed", 3}}, 200);
    ASSERT_FALSE(sample["action"].is_null()) << battle;
    EXPECT_TRUE(call(api, "POST", base + "/validate", {{"action", sample["action"]}}, 200)["legal"].get<bool>()) << battle;
    const Json queries = call(api, "GET", base + "/queries", nullptr, 200);
    EXPECT_FALSE(queries.empty()) << battle;
    const Json rules = call(api, "GET", std::string("/api/rules/") + g["system"].get<std::string>(), nullptr, 200);
    EXPECT_FALSE(rules.empty());
  }
  const Json gap = call(api, "GET", "/api/rules/warmaster/warmaster.movement.gap", nullptr, 200);
  EXPECT_NE(gap["text"].get<std::string>().find("gap"), std::string::npos);
  call(api, "GET", "/api/rules/warmaster/warmaster.no.such.rule", nullptr, 404);
  call(api, "GET", "/api/rules/chess", nullptr, 400);
  const Json systems = call(api, "GET", "/api/systems", nullptr, 200);
  EXPECT_EQ(systems.size(), 3u);
}

TEST(ServerApi, AnUploadedBattleGoesThroughTheStrictParser) {
  Api api = make_api();
  Json scenario = bundled_battle_list(builtin_games())[0].scenario;
  const Json g = create(api, {{"system", "warmaster"}, {"scenario", scenario}});
  EXPECT_EQ(g["battle"], "uploaded battle");
  scenario["armies"][0]["units"][0]["stands"][0]["x"] = "far";
  const Json e = call(api, "POST", "/api/games", {{"system", "warmaster"}, {"scenario", scenario}}, 400);
  EXPECT_EQ(e["error"]["field"], "scenario: armies[0].units[0].stands[0].x") << e.dump();
  scenario["surprise"] = 1;
  call(api, "POST", "/api/games", {{"system", "warmaster"}, {"scenario", scenario}}, 400);
  EXPECT_EQ(api.game_count(), 1u);
}

TEST(ServerApi, BadRequestsNameTheFieldAndTheProblem) {
  Api api = make_api({10, 4096, 20000});
  const Json g = create(api);
  const std::string base = "/api/games/" + g["id"].get<std::string>();
  auto raw = [&](const std::string& m, const std::string& path, const std::string& body) {
    return handled(api, as_creator(m, path, body));
  };

  Response r = raw("POST", "/api/games", "{\"battle\": ");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(Json::parse(r.body)["error"]["field"].get<std::string>().find("body"), std::string::npos);
  EXPECT_EQ(raw("POST", "/api/games", "[1, 2]").status, 400);
  const Json unknown = call(api, "POST", "/api/games", {{"batle", "warmaster/default"}}, 400);
  EXPECT_EQ(unknown["error"]["field"], "batle");
  EXPECT_EQ(call(api, "POST", "/api/games", {{"seed", -1}}, 400)["error"]["field"], "seed");
  EXPECT_EQ(call(api, "POST", "/api/games", {{"battle", "warmaster/nowhere"}}, 400)["error"]["field"], "battle");
  EXPECT_EQ(call(api, "POST", "/api/games", {{"dice", {1, "six"}}}, 400)["error"]["field"], "dice[1]");
  EXPECT_EQ(call(api, "POST", base + "/apply", {{"actoin", kOrder}}, 400)["error"]["field"], "actoin");
  const Json malformed = call(api, "POST", base + "/apply", {{"action", {{"type", "teleport"}}}}, 400);
  EXPECT_EQ(malformed["error"]["field"], "action.type");
  // Combat decisions belong to the Combat phase's end_phase
  // (docs/rulings.md#warmaster-combat-decisions): bad input here, with the game as it was.
  const Json before = call(api, "GET", base, Json(), 200)["state"];
  const Json decide = {{"type", "end_phase"}, {"decisions", Json::array({{{"unit", "emp-knights"}, {"choice", "stand"}}})}};
  EXPECT_EQ(call(api, "POST", base + "/apply", {{"action", decide}}, 400)["error"]["field"], "action.decisions");
  EXPECT_EQ(call(api, "GET", base, Json(), 200)["state"], before);
  EXPECT_EQ(call(api, "POST", base + "/query", {{"name", "nothing"}}, 400)["error"]["field"].get<std::string>().empty(), false);

  EXPECT_EQ(raw("POST", base + "/apply", std::string(5000, ' ')).status, 413);
  // Found by fuzz/server_api_fuzz.cpp: an error that echoes bytes that are not UTF-8 is still JSON.
  r = raw("POST", "/api/games", "{\"battle\": \"ancien\xcb\xcb\"}");
  EXPECT_EQ(r.status, 400);
  EXPECT_TRUE(Json::accept(r.body)) << r.body;
  r = raw("GET", "/api/no\xff", "");
  EXPECT_EQ(r.status, 404);
  EXPECT_TRUE(Json::accept(r.body)) << r.body;
  EXPECT_EQ(raw("GET", "/api/games/0123456789abcdef0123456789abcdef", "").status, 404);
  EXPECT_EQ(raw("GET", "/api/games/../battles", "").status, 404);
  EXPECT_EQ(raw("GET", "/api/nothing", "").status, 404);
  EXPECT_EQ(raw("GET", "/api//battles", "").status, 404);
  EXPECT_EQ(raw("PUT", "/api/games", "").status, 405);
  EXPECT_EQ(raw("GET", base + "/apply", "").status, 405);
  EXPECT_EQ(raw("GET", base + "/nothing", "").status, 404);
  // None of that touched the game.
  EXPECT_EQ(call(api, "GET", base, nullptr, 200)["state"], g["state"]);
}

TEST(ServerApi, ScriptedDiceThatRunOutAreBadInputAndRecordNothing) {
  Api api = make_api();
  const Json g = create(api, {{"dice", {3}}});  // an order rolls 2D6
  const std::string base = "/api/games/" + g["id"].get<std::string>();
  const Json e = call(api, "POST", base + "/apply", {{"action", kOrder}}, 400);
  EXPECT_EQ(e["error"]["field"], "dice");
  EXPECT_EQ(call(api, "GET", base, nullptr, 200)["position"], 0);
  const Json g2 = create(api, {{"dice", {3, 4}}});
  const Json out = call(api, "POST", "/api/games/" + g2["id"].get<std::string>() + "/apply", {{"action", kOrder}}, 200);
  ASSERT_EQ(out["rolls"].size(), 2u);
  EXPECT_EQ(out["rolls"][0]["value"], 3);
  EXPECT_EQ(out["rolls"][1]["value"], 4);
}

TEST(ServerApi, AGameHoldsAtMostTheLimitsActions) {
  Limits limits;
  limits.max_log_entries = 2;
  Api api = make_api(limits);
  const Json g = create(api);
  const std::string base = "/api/games/" + g["id"].get<std::string>();
  const Json bad = {{"type", "order"}, {"character", "orc-warboss"}, {"unit", "orc-boyz-1"}};
  call(api, "POST", base + "/apply", {{"action", bad}}, 200);  // refusals are logged too
  call(api, "POST", base + "/apply", {{"action", bad}}, 200);
  const Json full = call(api, "POST", base + "/apply", {{"action", kOrder}}, 409);
  EXPECT_EQ(full["error"]["field"], "game");
  EXPECT_EQ(call(api, "GET", base, nullptr, 200)["position"], 2);
}

TEST(ServerApi, TheLeastRecentlyUsedGameMakesRoomAndDeleteForgets) {
  Api api = make_api({3, 1 << 20, 20000});
  const std::string a = create(api)["id"], b = create(api)["id"], c = create(api)["id"];
  call(api, "GET", "/api/games/" + a, nullptr, 200);  // a is used again: b is now the oldest
  create(api);
  EXPECT_EQ(api.game_count(), 3u);
  call(api, "GET", "/api/games/" + b, nullptr, 404);
  call(api, "GET", "/api/games/" + a, nullptr, 200);
  call(api, "DELETE", "/api/games/" + c, nullptr, 200);
  call(api, "GET", "/api/games/" + c, nullptr, 404);
}

TEST(ServerApi, ConcurrentRequestsOnOneGameAndOnManyAgree) {
  Api api = make_api();
  const std::string id = create(api)["id"];
  const Json expected = call(api, "POST", "/api/games/" + id + "/query",
                             {{"name", "order_odds"}, {"args", {{"character", "emp-general"}, {"units", {"emp-halberd-1"}}}}}, 200);
  std::atomic<int> wrong = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      const std::string mine = t % 2 == 0 ? id : create(api)["id"].get<std::string>();
      for (int i = 0; i < 25; ++i) {
        const Response r = api.handle({"POST", "/api/games/" + mine + "/query",
                                       Json{{"name", "order_odds"}, {"args", {{"character", "emp-general"}, {"units", {"emp-halberd-1"}}}}}.dump()});
        if (r.status != 200 || Json::parse(r.body) != expected) ++wrong;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

// A registry for the built-in opponent's route: Ancients given a random
// opponent in place of its own (GameState::sample_action, whose actions always validate: a
// legitimate opponent for a test), Blightmeer explicitly none, Warmaster as
// built in.
GameRegistry opponent_registry() {
  GameRegistry reg;
  for (GameType t : builtin_games().types()) {
    if (t.name == "ancients") t.opponent = [](const GameState& s, Rng& rng) { return s.sample_action(rng); };
    if (t.name == "blightmeer") t.opponent = {};
    reg.add(std::move(t));
  }
  return reg;
}

TEST(ServerApiOpponent, SystemsAndBattlesSayWhichHaveAnOpponent) {
  const GameRegistry reg = opponent_registry();
  Api api(reg, bundled_battle_list(reg));
  std::map<std::string, bool> has;
  for (const Json& t : call(api, "GET", "/api/systems", nullptr, 200)) has[t["name"]] = t["opponent"];
  EXPECT_TRUE(has.at("ancients"));
  EXPECT_FALSE(has.at("blightmeer"));
  // Kept: a range-for over a member of a temporary would outlive it.
  const Json battles = call(api, "GET", "/api/battles", nullptr, 200);
  for (const Json& b : battles["battles"]) EXPECT_EQ(b["opponent"].get<bool>(), has.at(b["system"])) << b["id"];
}

TEST(ServerApiOpponent, PlaysTheCurrentPlayersTurnThroughTheMatchLoggedAndUndoable) {
  const GameRegistry reg = opponent_registry();
  Api api(reg, bundled_battle_list(reg));
  const Json g = create(api, {{"battle", "ancients/centre_clash"}, {"seed", 7}});
  const std::string base = "/api/games/" + g["id"].get<std::string>();
  const int first = g["current_player"];

  // One action: exactly one log entry, applied, by the current player.
  const Json one = call(api, "POST", base + "/opponent", {{"until", "action"}}, 200);
  ASSERT_EQ(one["actions"].size(), 1u);
  EXPECT_TRUE(one["actions"][0]["applied"].get<bool>());
  EXPECT_EQ(one["stopped"], "one action");
  EXPECT_EQ(one["game"]["position"], 1);

  // The rest of the player's turn: every action applied, until the other player is to play.
  const Json rest = call(api, "POST", base + "/opponent", nullptr, 200);
  EXPECT_EQ(rest["player"], first);
  ASSERT_FALSE(rest["actions"].empty());
  for (const Json& a : rest["actions"]) EXPECT_TRUE(a["applied"].get<bool>()) << a.dump();
  EXPECT_EQ(rest["stopped"], "player changed");
  EXPECT_NE(rest["game"]["current_player"], first);
  const std::size_t played = 1 + rest["actions"].size();
  EXPECT_EQ(rest["game"]["position"], played);

  // The log holds them with their rolls, as /apply would have written them.
  const std::string log = call(api, "GET", base + "/log", nullptr, 200).get<std::string>();
  const GameLog parsed = GameLog::parse_jsonl(log, "log");
  ASSERT_EQ(parsed.entries.size(), played);
  EXPECT_EQ(parsed.entries[0].action, one["actions"][0]["action"]);
  for (std::size_t i = 0; i < rest["actions"].size(); ++i) {
    EXPECT_EQ(parsed.entries[i + 1].action, rest["actions"][i]["action"]);
    EXPECT_EQ(Json(parsed.entries[i + 1].rolls), rest["actions"][i]["rolls"]);
  }

  // Undo goes back over them one by one; asked again at the same position,
  // the opponent chooses the same (its Rng is the game's seed and the position).
  call(api, "POST", base + "/undo", nullptr, 200);
  const Json again = call(api, "POST", base + "/opponent", {{"until", "action"}}, 200);
  EXPECT_EQ(again["actions"][0]["action"], rest["actions"].back()["action"]);

  // Another game with the same seed plays the same actions.
  const Json h = create(api, {{"battle", "ancients/centre_clash"}, {"seed", 7}});
  const std::string base2 = "/api/games/" + h["id"].get<std::string>();
  call(api, "POST", base2 + "/opponent", {{"until", "action"}}, 200);
  const Json rest2 = call(api, "POST", base2 + "/opponent", nullptr, 200);
  EXPECT_EQ(rest2["actions"], rest["actions"]);
}

TEST(ServerApiOpponent, NoOpponentOrAGameOverOrABadBodyIsAClearError) {
  const GameRegistry reg = opponent_registry();
  Api api(reg, bundled_battle_list(reg));
  const Json g = create(api, {{"battle", "blightmeer/town"}});
  const Json none = call(api, "POST", "/api/games/" + g["id"].get<std::string>() + "/opponent", nullptr, 409);
  EXPECT_EQ(none["error"]["field"], "system");
  EXPECT_NE(none["error"]["message"].get<std::string>().find("no built-in opponent"), std::string::npos);

  const std::string base = "/api/games/" + create(api, {{"battle", "ancients/centre_clash"}})["id"].get<std::string>();
  EXPECT_EQ(call(api, "POST", base + "/opponent", {{"until", "turn"}}, 400)["error"]["field"], "until");
  EXPECT_EQ(call(api, "POST", base + "/opponent", {{"untill", "player"}}, 400)["error"]["status"], 400);
  call(api, "GET", base + "/opponent", nullptr, 405);

  // Played to the end by the opponent on both sides: then 409 naming the game.
  Limits small;
  small.max_opponent_actions = 3;
  Api capped(reg, bundled_battle_list(reg), small);
  const std::string c = "/api/games/" + create(capped, {{"battle", "ancients/centre_clash"}})["id"].get<std::string>();
  const Json three = call(capped, "POST", c + "/opponent", nullptr, 200);
  EXPECT_LE(three["actions"].size(), 3u);
  bool over = false;
  for (int i = 0; i < 2000 && !over; ++i) over = call(capped, "POST", c + "/opponent", nullptr, 200)["game"]["terminal"].get<bool>();
  ASSERT_TRUE(over);
  const Json done = call(capped, "POST", c + "/opponent", nullptr, 409);
  EXPECT_EQ(done["error"]["field"], "game");
  EXPECT_NE(done["error"]["message"].get<std::string>().find("game is over"), std::string::npos);
}

}  // namespace
}  // namespace referee::server
