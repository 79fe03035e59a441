// serve_fault: the client side of the kill -9 test (serve_fault.sh): what a
// server that writes every change before answering (docs/api.md, "What the
// games may take") must still have after it was killed.
//   serve_fault single <port> <pid> <state>
//     creates a game (both seats: hot seat), applies one action, and once it
//     is answered kills the server (SIGKILL);
//   serve_fault burst <port> <pid> <state> [n]
//     creates a game; two clients, each with its own connection and both
//     seats, apply actions to it as fast as they can, racing (a refusal is an
//     answer too); when n (default 40) have been answered, the server is
//     killed while they still send;
//   serve_fault check <port> <state>
//     on the restarted server, for every game in <state>: its stored log
//     (GET .../entries/{from}, page by page) has every answered entry at its
//     seq, equal to what the client was told (action, rolls, result), no seq
//     twice, and at most one entry more per client that had an action in
//     flight; then one more action is applied and answered;
//   serve_fault leaks <state> <file>...
//     no seat token of the games in <state> appears in the files (the
//     server's output).
// <state> (JSON) carries the games, their tokens and the entries answered
// from one step to the next. Exits 1 naming the first thing wrong, 2 on bad
// arguments.
#include <signal.h>
#include <sys/types.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "http_client.hpp"

using referee::testing::HttpClient;
using Json = nlohmann::json;

namespace {

int fail(const std::string& why) {
  std::fprintf(stderr, "serve_fault: %s\n", why.c_str());
  return 1;
}

Json read_state(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Json{{"games", Json::array()}};
  return Json::parse(in);
}

void write_state(const std::string& path, const Json& state) { std::ofstream(path) << state.dump(1) << '\n'; }

std::string seat_header(const Json& game) {
  std::string tokens;
  for (const Json& t : game.at("tokens")) tokens += (tokens.empty() ? "" : ",") + t.get<std::string>();
  return "X-Referee-Seat: " + tokens + "\r\n";
}

// A new game of warmaster/default with both seats; its view in `view`.
std::optional<Json> create(int port, Json& view) {
  HttpClient c(port);
  auto r = c.request("POST", "/api/games", R"({"battle": "warmaster/default", "seed": 6})");
  if (!r || r->status != 201) return std::nullopt;
  view = Json::parse(r->body);
  Json game{{"id", view.at("id")}, {"tokens", Json::array()}, {"acked", Json::array()}, {"in_flight", 0}};
  for (const Json& t : view.at("seat_tokens")) game["tokens"].push_back(t.at("token"));
  return game;
}

// The first legal action other than ending the phase (an order: dice), else
// end_phase.
Json pick(const Json& legal) {
  for (const Json& a : legal)
    if (a.value("type", "") != "end_phase") return a;
  return Json{{"type", "end_phase"}};
}

int single(int port, pid_t pid, const std::string& state_path) {
  Json view;
  auto game = create(port, view);
  if (!game) return fail("could not create a game");
  HttpClient c(port);
  auto r = c.request("POST", "/api/games/" + (*game)["id"].get<std::string>() + "/apply",
                     Json{{"action", pick(view.at("legal_actions"))}}.dump(), seat_header(*game));
  if (!r || r->status != 200) return fail("the action was not answered 200: " + (r ? r->body : std::string("no answer")));
  const Json j = Json::parse(r->body);
  if (!j.at("applied").get<bool>()) return fail("the first legal action was refused: " + r->body);
  for (const Json& e : j.at("entries")) (*game)["acked"].push_back(e);
  ::kill(pid, SIGKILL);
  Json state = read_state(state_path);
  state["games"].push_back(*game);
  write_state(state_path, state);
  std::printf("serve_fault: one action answered (seq %d, %zu rolls), then the server killed\n",
              j.at("entries").back().at("seq").get<int>(), j.at("entries").back().at("rolls").size());
  return 0;
}

int burst(int port, pid_t pid, const std::string& state_path, int n) {
  Json view;
  auto game = create(port, view);
  if (!game) return fail("could not create a game");
  const std::string path = "/api/games/" + (*game)["id"].get<std::string>() + "/apply";
  const std::string seats = seat_header(*game);
  std::mutex mutex;
  Json acked = Json::array();
  std::map<int, long> statuses;
  std::atomic<int> answered = 0;
  std::atomic<bool> killed = false;
  std::vector<std::thread> clients;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  for (int k = 0; k < 2; ++k)
    clients.emplace_back([&, legal = view.at("legal_actions")]() mutable {
      HttpClient c(port, 5);
      while (std::chrono::steady_clock::now() < give_up) {
        auto r = c.request("POST", path, Json{{"action", pick(legal)}}.dump(), seats);
        if (!r) return;  // the server has gone: this client's last action was in flight
        std::lock_guard lock(mutex);
        ++statuses[r->status];
        if (r->status == 200) {
          const Json j = Json::parse(r->body);
          for (const Json& e : j.at("entries")) acked.push_back(e);
          legal = j.at("game").at("legal_actions");
          if (++answered == n && !killed.exchange(true)) ::kill(pid, SIGKILL);
        }
        if (r->header("connection") == "close") c.close();
      }
    });
  for (auto& t : clients) t.join();
  if (!killed) return fail("the burst ended before " + std::to_string(n) + " actions were answered");
  (*game)["acked"] = acked;
  (*game)["in_flight"] = 2;
  Json state = read_state(state_path);
  state["games"].push_back(*game);
  write_state(state_path, state);
  std::string told;
  for (const auto& [s, count] : statuses) told += " " + std::to_string(count) + " x " + std::to_string(s) + ";";
  std::printf("serve_fault: two clients racing, the server killed after %d answered actions; answers:%s %zu entries "
              "told\n",
              n, told.c_str(), acked.size());
  return 0;
}

int check(int port, const std::string& state_path) {
  Json state = read_state(state_path);
  HttpClient c(port);
  for (Json& game : state.at("games")) {
    const std::string id = game.at("id");
    // The stored log, page by page.
    std::vector<Json> stored;
    for (int from = 0;;) {
      auto r = c.request("GET", "/api/games/" + id + "/entries/" + std::to_string(from));
      if (!r || r->status != 200)
        return fail("game " + id + ": its entries from " + std::to_string(from) + " were not answered 200: " +
                    (r ? r->body.substr(0, 300) : std::string("no answer")));
      const Json j = Json::parse(r->body);
      for (const Json& e : j.at("entries")) stored.push_back(e);
      const int to = j.at("to"), position = j.at("position");
      if (j.at("entries").size() > 200) return fail("game " + id + ": a page of more than 200 entries");
      if (to >= position) break;
      if (to <= from) return fail("game " + id + ": a page that does not move on");
      from = to;
    }
    std::map<int, Json> by_seq;
    for (std::size_t k = 0; k < stored.size(); ++k) {
      const int seq = stored[k].at("seq");
      if (!by_seq.emplace(seq, stored[k]).second) return fail("game " + id + ": seq " + std::to_string(seq) + " is stored twice");
      if (seq != static_cast<int>(k) + 1)
        return fail("game " + id + ": stored entry " + std::to_string(k) + " has seq " + std::to_string(seq));
    }
    std::map<int, int> told;
    for (const Json& e : game.at("acked")) {
      const int seq = e.at("seq");
      if (++told[seq] > 1) return fail("game " + id + ": two answers told of seq " + std::to_string(seq) + " (applied twice)");
      const auto it = by_seq.find(seq);
      if (it == by_seq.end()) return fail("game " + id + ": the answered entry " + std::to_string(seq) + " was lost: " + e.dump());
      if (it->second != e)
        return fail("game " + id + ": stored entry " + std::to_string(seq) + " is not what its answer told:\n  told   " +
                    e.dump() + "\n  stored " + it->second.dump());
    }
    const std::size_t allowed = game.at("acked").size() + game.at("in_flight").get<std::size_t>();
    if (stored.size() > allowed)
      return fail("game " + id + ": " + std::to_string(stored.size()) + " entries stored, more than the " +
                  std::to_string(game.at("acked").size()) + " answered and " + game.at("in_flight").dump() + " in flight");
    // The game goes on: one more action is applied and answered.
    auto v = c.request("GET", "/api/games/" + id);
    if (!v || v->status != 200) return fail("game " + id + ": its view was not answered 200");
    auto r = c.request("POST", "/api/games/" + id + "/apply",
                       Json{{"action", pick(Json::parse(v->body).at("legal_actions"))}}.dump(), seat_header(game));
    if (!r || r->status != 200) return fail("game " + id + ": an action after the restart was not answered 200: " +
                                            (r ? r->body.substr(0, 300) : std::string("no answer")));
    const Json j = Json::parse(r->body);
    if (!j.at("applied").get<bool>() || j.at("entries").empty() ||
        j.at("entries").front().at("seq").get<std::size_t>() != stored.size() + 1)
      return fail("game " + id + ": the action after the restart was not applied after the stored log: " + r->body.substr(0, 300));
    std::printf("serve_fault: game %s: %zu entries stored, every one of the %zu answered among them, as told; one more "
                "applied at seq %zu\n",
                id.c_str(), stored.size(), game.at("acked").size(), stored.size() + 1);
    // What was stored is now known, and the next check holds to all of it.
    Json known(stored);
    for (const Json& e : j.at("entries")) known.push_back(e);
    game["acked"] = known;
    game["in_flight"] = 0;
  }
  write_state(state_path, state);
  return 0;
}

int leaks(const std::string& state_path, const std::vector<std::string>& files) {
  const Json state = read_state(state_path);
  std::size_t tokens = 0;
  for (const std::string& f : files) {
    std::ifstream in(f);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const Json& game : state.at("games"))
      for (const Json& t : game.at("tokens")) {
        ++tokens;
        if (text.find(t.get<std::string>()) != std::string::npos) return fail("a seat token is in " + f);
      }
  }
  if (tokens == 0) return fail("no tokens to look for");
  std::printf("serve_fault: none of the seat tokens is in the server's output (%zu files)\n", files.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> a(argv + 1, argv + argc);
  if (a.size() == 4 && a[0] == "single") return single(std::stoi(a[1]), static_cast<pid_t>(std::stol(a[2])), a[3]);
  if ((a.size() == 4 || a.size() == 5) && a[0] == "burst")
    return burst(std::stoi(a[1]), static_cast<pid_t>(std::stol(a[2])), a[3], a.size() == 5 ? std::stoi(a[4]) : 40);
  if (a.size() == 3 && a[0] == "check") return check(std::stoi(a[1]), a[2]);
  if (a.size() >= 3 && a[0] == "leaks") return leaks(a[1], std::vector<std::string>(a.begin() + 2, a.end()));
  std::fprintf(stderr,
               "usage: serve_fault single <port> <pid> <state> | burst <port> <pid> <state> [n] | check <port> <state> | "
               "leaks <state> <file>...\n");
  return 2;
}
