// serve_probe <port> <pid> [slow seconds] [probes]: probes a running `referee serve`
// as a hostile client on the same machine and a hostile page in the player's
// browser would (the probes of docs/architecture.md, "The web board"), and
// checks each is handled: refused with the right status, bounded, or
// answered as HTTP says. After each probe it prints the server's resident
// memory (from /proc/<pid>/status) and what it measured; at the end the
// peak. Exits 1 if any probe was mishandled. Timings are printed, never
// judged: the host may be busy.
#include <fcntl.h>
#include <poll.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "../../bench/blightmeer_field.hpp"
#include "../../bench/warmaster_field.hpp"
#include "http_client.hpp"
#include "referee/blightmeer/model.hpp"
#include "referee/warmaster/battle/battlefield_json.hpp"

using nlohmann::json;
using referee::testing::HttpClient;
using referee::testing::HttpReply;
using Clock = std::chrono::steady_clock;

namespace {

int port = 0, pid = 0;
bool all_ok = true;
long peak_rss_kb = 0;

long status_kb(const char* key) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) return std::atol(line.c_str() + std::string(key).size());
  return -1;
}

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

void report(const std::string& probe, bool ok, const std::string& what) {
  const long rss = status_kb("VmRSS:");
  peak_rss_kb = std::max(peak_rss_kb, rss);
  if (rss < 0) ok = false;  // the server is gone
  all_ok = all_ok && ok;
  std::printf("%-4s %-34s rss %6.1f MiB  %s\n", ok ? "ok" : "BAD", probe.c_str(), rss / 1024.0, what.c_str());
  std::fflush(stdout);
}

std::string host() { return "Host: 127.0.0.1:" + std::to_string(port) + "\r\n"; }
const std::string kJson = "Content-Type: application/json\r\n";

std::string request(const std::string& method, const std::string& path, const std::string& body = "",
                    const std::string& headers = "") {
  std::string r = method + " " + path + " HTTP/1.1\r\n" + host() + headers;
  if (!body.empty()) r += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  return r + "\r\n" + body;
}

std::optional<HttpReply> once(const std::string& bytes, bool head = false, double timeout = 30) {
  HttpClient c(port, timeout);
  if (!c.send(bytes)) return std::nullopt;
  return c.read_reply(head);
}

int status_of(const std::string& bytes) {
  auto r = once(bytes);
  return r ? r->status : 0;
}

// Each game's creator's seat header (docs/api.md, "Seats"), by game id.
std::map<std::string, std::string> seats;
std::string seat(const std::string& id) { return seats.count(id) ? seats[id] : ""; }

std::string new_game(const json& body = json::object()) {
  auto r = once(request("POST", "/api/games", body.dump(), kJson), false, 120);
  if (!r || r->status != 201) return "";
  const json g = json::parse(r->body);
  std::string header = "X-Referee-Seat: ";
  for (const json& t : g["seat_tokens"]) header += t["token"].get<std::string>() + ",";
  header.back() = '\r';
  seats[g["id"]] = header + "\n";
  return g["id"].get<std::string>();
}

// Sends `head`, then pieces from `next` until the server answers (or closes,
// or `max` bytes are sent); returns the answer's status (0: none) and the
// bytes it took before answering.
struct Flood {
  int status = 0;
  std::size_t sent = 0;
  bool closed = false;
};
Flood flood(const std::string& head, const std::function<std::string()>& next, std::size_t max) {
  Flood f;
  // A socket of our own, non-blocking, so that the answer is read while sending.
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) return f;
  ::fcntl(fd, F_SETFL, O_NONBLOCK);
  std::string pending = head, got;
  const auto deadline = Clock::now() + std::chrono::seconds(60);
  while (Clock::now() < deadline) {
    pollfd p{fd, static_cast<short>(POLLIN | (f.sent < max ? POLLOUT : 0)), 0};
    if (::poll(&p, 1, 1000) <= 0) continue;
    if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
      char buf[65536];
      const ssize_t k = ::recv(fd, buf, sizeof buf, 0);
      if (k <= 0) {
        f.closed = true;
        break;
      }
      got.append(buf, static_cast<std::size_t>(k));
      if (got.size() >= 12 && f.status == 0) f.status = std::atoi(got.substr(9, 3).c_str());
      continue;
    }
    if (p.revents & POLLOUT) {
      if (pending.empty()) pending = next();
      const ssize_t k = ::send(fd, pending.data(), pending.size(), MSG_NOSIGNAL);
      if (k < 0) {
        if (errno == EAGAIN) continue;
        f.closed = true;
        break;
      }
      pending.erase(0, static_cast<std::size_t>(k));
      f.sent += static_cast<std::size_t>(k);
    }
  }
  ::close(fd);
  if (f.status == 0 && got.size() >= 12) f.status = std::atoi(got.substr(9, 3).c_str());
  return f;
}

std::string mib(std::size_t bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return b;
}

json big_warmaster() {
  json j = referee::warmaster::to_json(referee::warmaster::bench::make_tiled_field(100, 5, 2));
  j["armies"][0]["characters"] = json::array({{{"id", "s-general"}, {"name", "S"}, {"role", "general"}, {"command", 9}, {"x", 450}, {"y", 60}}});
  j["armies"][1]["characters"] = json::array({{{"id", "n-general"}, {"name", "N"}, {"role", "general"}, {"command", 9}, {"x", 450}, {"y", 180}}});
  return j;
}

void probe_hosts() {
  const int a = status_of("GET /api/systems HTTP/1.1\r\nHost: evil.example\r\n\r\n");
  const int b = status_of("POST /api/games HTTP/1.1\r\nHost: evil.example\r\n" + kJson + "Content-Length: 2\r\n\r\n{}");
  const int c = status_of("GET / HTTP/1.1\r\nHost: evil.example:" + std::to_string(port) + "\r\n\r\n");
  report("DNS rebinding (Host: evil.example)", a == 421 && b == 421 && c == 421,
         "GET /api/systems " + std::to_string(a) + ", POST /api/games " + std::to_string(b) + ", GET / " + std::to_string(c));
}

void probe_cross_site() {
  const std::string player = new_game();
  const int plain = status_of(request("POST", "/api/games", "{}", "Content-Type: text/plain;charset=UTF-8\r\nOrigin: null\r\n"));
  const int plain_no_origin = status_of(request("POST", "/api/games", "{}", "Content-Type: text/plain\r\n"));
  const int form = status_of(request("POST", "/api/games", "{\"a\":\"=\"}", "Content-Type: text/plain\r\nOrigin: http://evil.example\r\n"));
  const int import = status_of(request("POST", "/api/games/import", "{}", "Content-Type: text/plain\r\n"));
  const int origin = status_of(request("POST", "/api/games", "{}", kJson + "Origin: http://evil.example\r\n"));
  int accepted = 0;
  for (int i = 0; i < 500; ++i)
    accepted += status_of(request("POST", "/api/games", "{}", "Content-Type: text/plain\r\nOrigin: http://evil.example\r\n")) < 400;
  auto still = once(request("GET", "/api/games/" + player));
  report("cross-site posts", plain == 403 && plain_no_origin == 415 && form == 403 && import == 415 && origin == 403 &&
                                 accepted == 0 && still && still->status == 200,
         "text/plain " + std::to_string(plain_no_origin) + " (with Origin " + std::to_string(plain) + "), form " +
             std::to_string(form) + ", import " + std::to_string(import) + ", JSON from evil " + std::to_string(origin) +
             "; 500 more: " + std::to_string(accepted) + " taken; the player's game " + (still ? std::to_string(still->status) : "gone"));
}

void probe_uploads() {
  const std::string text = referee::blightmeer::bench::surfaces_field(static_cast<int>(referee::blightmeer::kMaxSurfaces),
                                                                      static_cast<int>(referee::blightmeer::kMaxUnits)).dump();
  const std::string body = R"({"system": "blightmeer", "scenario": )" + text + "}";
  int created = 0, limited = 0, other = 0;
  double slowest = 0;
  for (int i = 0; i < 40; ++i) {
    const auto t0 = Clock::now();
    auto r = once(request("POST", "/api/games", body, kJson), false, 120);
    slowest = std::max(slowest, since(t0));
    if (r && r->status == 201) ++created;
    else if (r && (r->status == 429 || r->status == 503) && !r->header("retry-after").empty()) ++limited;
    else ++other;
  }
  report("40 Blightmeer battles at the caps", other == 0,
         mib(body.size()) + " each: " + std::to_string(created) + " created, " + std::to_string(limited) +
             " refused for the client's engine time (429); slowest " + std::to_string(slowest) + " s");
}

// 60 Blightmeer battles at the caps uploaded, then each read back twice:
// those pushed out of memory are reloaded from the store, and the server's
// resident memory must stay near the cap on games held (384 MiB by the
// estimate) rather than grow with every reload. Needs a server with --data.
void probe_reloads() {
  const std::string text = referee::blightmeer::bench::surfaces_field(static_cast<int>(referee::blightmeer::kMaxSurfaces),
                                                                      static_cast<int>(referee::blightmeer::kMaxUnits)).dump();
  const json body = {{"system", "blightmeer"}, {"scenario", json::parse(text)}, {"seed", 1}};
  std::vector<std::string> ids;
  for (int i = 0; i < 60; ++i) {
    const std::string id = new_game(body);
    if (!id.empty()) ids.push_back(id);
  }
  int read = 0;
  for (int round = 0; round < 2; ++round)
    for (const std::string& id : ids) {
      auto r = once(request("GET", "/api/games/" + id), false, 120);
      read += r && r->status == 200;
    }
  const long rss = status_kb("VmRSS:");
  report("60 Blightmeer uploads read back", ids.size() == 60 && read == 120 && rss < (640L << 10),
         std::to_string(ids.size()) + " made, " + std::to_string(read) + " of 120 reads answered; resident " +
             std::to_string(rss / 1024) + " MiB after the reloads");
}

void probe_opponent_and_history() {
  // A fixed seed: the same battle every run, and undoable from its end.
  const std::string id = new_game({{"system", "warmaster"}, {"scenario", big_warmaster()}, {"seed", 1}});
  if (id.empty()) return report("1,000-unit Warmaster battle", false, "not created");
  const std::string base = "/api/games/" + id;
  const long before = status_kb("VmRSS:");
  std::atomic<bool> done = false;
  std::atomic<double> worst_get = 0;
  std::thread reader([&] {
    while (!done) {
      const auto t0 = Clock::now();
      auto r = once(request("GET", base));
      if (!r || r->status != 200) break;
      worst_get = std::max(worst_get.load(), since(t0));
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  double worst = 0;
  std::size_t entries = 0;
  // Memory per entry is the slope after the first requests, which also
  // build what the opponent and the move checks keep for the battle.
  long warm_kb = 0;
  std::size_t warm_entries = 0;
  bool ok = true;
  const auto t0 = Clock::now();
  for (int i = 0; i < 40 && ok; ++i) {
    if (i == 8) {
      warm_kb = status_kb("VmRSS:");
      warm_entries = entries;
    }
    const auto t1 = Clock::now();
    auto r = once(request("POST", base + "/opponent", R"({"until": "player"})", kJson + seat(id)), false, 120);
    worst = std::max(worst, since(t1));
    ok = r && (r->status == 200 || r->status == 409);  // 409: the battle is over
    if (!ok) std::printf("opponent: %s\n", r ? r->body.substr(0, 200).c_str() : "no answer");
    if (r && r->status == 409) break;
    if (ok) entries = json::parse(r->body)["game"]["position"].get<std::size_t>();
  }
  const double total = since(t0);
  done = true;
  reader.join();
  const long after = status_kb("VmRSS:");
  char what[300];
  std::snprintf(what, sizeof what,
                "40 requests until the player changes: %zu entries in %.1f s, the longest request %.2f s, "
                "a GET of the game meanwhile at most %.2f s; %+.1f MiB resident in all, %+.1f kB per entry after the first %zu",
                entries, total, worst, worst_get.load(), static_cast<double>(after - before) / 1024.0,
                entries > warm_entries ? static_cast<double>(after - warm_kb) / static_cast<double>(entries - warm_entries) : 0.0,
                warm_entries);
  report("opponent and history, 1,000 units", ok, what);
  // Undo all the way back: replayed in bounded steps.
  const auto t2 = Clock::now();
  int undone = 0;
  for (; undone < 400; ++undone) {
    auto r = once(request("POST", base + "/undo", "{}", kJson + seat(id)));
    if (!r || r->status != 200) break;
  }
  report("undo over a sparse history", undone > 0, std::to_string(undone) + " undos in " + std::to_string(since(t2)) + " s");
}

void probe_http_limits() {
  // Range: 300 overlapping ranges of a game's view.
  const std::string id = new_game({{"battle", "warmaster/pitched-battle"}});
  std::string ranges = "Range: bytes=0-";
  for (int i = 0; i < 299; ++i) ranges += ",0-";
  auto whole = once(request("GET", "/api/games/" + id));
  auto ranged = once(request("GET", "/api/games/" + id, "", ranges + "\r\n"));
  report("Range: 300 x 0-", whole && ranged && ranged->status == 200 && ranged->body.size() == whole->body.size(),
         "answered " + (ranged ? std::to_string(ranged->status) + " with " + std::to_string(ranged->body.size()) + " bytes" : "nothing") +
             " (the view is " + (whole ? std::to_string(whole->body.size()) : "?") + ")");

  const std::size_t big = std::size_t{256} << 20;
  const std::string chunk = "10000\r\n" + std::string(0x10000, ' ') + "\r\n";
  Flood f = flood(request("POST", "/api/games", "", kJson + "Transfer-Encoding: chunked\r\n"), [&] { return chunk; }, big);
  report("chunked POST of 256 MiB", f.status == 413, "answered " + std::to_string(f.status) + " after " + mib(f.sent) + " sent");

  f = flood("POST /api/games HTTP/1.1\r\n" + host() + kJson + "\r\n", [] { return std::string(65536, 'x'); }, big);
  report("POST, no Content-Length, 256 MiB", f.status == 201,
         "answered " + std::to_string(f.status) + " (a body-less create), then closed after " + mib(f.sent));

  f = flood("GET /api/systems HTTP/1.1\r\n" + host() + "X-Long: ", [] { return std::string(65536, 'a'); }, big);
  report("header line with no end, 256 MiB", f.status == 431, "answered " + std::to_string(f.status) + " after " + mib(f.sent));
  f = flood("GET /", [] { return std::string(65536, 'a'); }, std::size_t{64} << 20);
  report("request line with no end, 64 MiB", f.status == 414, "answered " + std::to_string(f.status) + " after " + mib(f.sent));
  std::size_t headers = 0;
  f = flood("GET /api/systems HTTP/1.1\r\n" + host(), [&] {
    std::string s;
    for (int i = 0; i < 4096; ++i, ++headers) s += "a: b\r\n";
    return s;
  }, 1000000 * 6);
  report("1,000,000 headers", f.status == 431, "answered " + std::to_string(f.status) + " after " + mib(f.sent));
}

void probe_slow_clients(double seconds) {
  std::atomic<bool> stop = false;
  std::atomic<int> cut = 0;
  std::vector<std::thread> slow;
  for (int t = 0; t < 4; ++t)
    slow.emplace_back([&, t] {
      std::vector<std::unique_ptr<HttpClient>> conns;
      for (int i = 0; i < 50; ++i) {
        conns.push_back(std::make_unique<HttpClient>(port, 0.01));
        conns.back()->connect();
      }
      const std::string text = "POST /api/games HTTP/1.1\r\n" + host() + kJson + "Content-Length: 2\r\n\r\n{}";
      for (std::size_t at = 0; !stop; ++at) {
        for (auto& c : conns)
          if (c->connected() && !c->send(std::string(1, text[at % text.size()]))) c->close();
        for (int w = 0; w < 50 && !stop; ++w) std::this_thread::sleep_for(std::chrono::milliseconds(100));  // a byte every 5 s
      }
      for (auto& c : conns) cut += !c->connected() || c->closed_by_server();
      (void)t;
    });
  std::vector<double> ms;
  int unanswered = 0;
  const auto t0 = Clock::now();
  while (since(t0) < seconds) {
    const auto t1 = Clock::now();
    auto r = once(request("GET", "/api/battles"), false, 20);
    if (!r || r->status != 200) ++unanswered;
    ms.push_back(since(t1) * 1000);
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  stop = true;
  for (auto& t : slow) t.join();
  std::sort(ms.begin(), ms.end());
  char what[200];
  std::snprintf(what, sizeof what, "%zu normal requests over %.0f s: %d unanswered, median %.1f ms, max %.1f ms; %d of 200 cut off",
                ms.size(), seconds, unanswered, ms[ms.size() / 2], ms.back(), cut.load());
  report("200 slow connections", unanswered == 0, what);
}

void probe_deviations() {
  const std::string id = new_game();
  const auto t0 = Clock::now();
  auto undo = once("POST /api/games/" + id + "/undo HTTP/1.1\r\n" + host() + seat(id) + "\r\n", false, 20);
  const double took = since(t0);
  HttpClient c(port, 20);
  c.send(request("GET", "/api/games/" + id) + request("HEAD", "/api/systems") + request("GET", "/api/battles"));
  auto a = c.read_reply(), b = c.read_reply(true), d = c.read_reply();
  int bad_lengths = 0;
  for (const std::string v : {"abc", "0x10", " 2", "+2", "2, 2"})
    bad_lengths += status_of("POST /api/games HTTP/1.1\r\n" + host() + kJson + "Content-Length: " + v + "\r\n\r\n{}") == 400;
  bad_lengths += status_of("POST /api/games HTTP/1.1\r\n" + host() + kJson + "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}") == 400;
  auto head = once(request("HEAD", "/api/games/" + id), true);
  auto options = once(request("OPTIONS", "/api/games/" + id));
  auto trace = once(request("TRACE", "/"));
  auto error = once("GET /api/systems HTTP/1.1\r\n" + host() + "Content-Length: abc\r\n\r\n");
  const bool headers = error && error->header("x-content-type-options") == "nosniff" && !error->header("content-security-policy").empty();
  report("HTTP deviations",
         undo && undo->status == 409 && a && b && d && bad_lengths == 6 && head && head->status == 200 && options &&
             options->status == 405 && options->header("allow") == "GET, HEAD, DELETE" && trace && trace->status == 405 &&
             trace->header("allow") == "GET, HEAD" && headers,
         "body-less POST /undo: " + (undo ? std::to_string(undo->status) : "none") + " in " + std::to_string(took) +
             " s; 3 pipelined: " + std::to_string(static_cast<bool>(a) + static_cast<bool>(b) + static_cast<bool>(d)) +
             " answered; bad Content-Lengths refused: " + std::to_string(bad_lengths) + "/6; HEAD " +
             (head ? std::to_string(head->status) : "-") + ", OPTIONS " + (options ? std::to_string(options->status) + " Allow: " + options->header("allow") : "-") +
             ", TRACE " + (trace ? std::to_string(trace->status) : "-") + "; a parse error carries nosniff and CSP: " + (headers ? "yes" : "no"));
}

// Fair play (docs/api.md, "The dice" and "What each viewer sees"), as a
// player who wants the other's secrets would try: two games made without a
// seed share no dice and no viewer is told a seed; in an Ancients game
// between two seats, neither the other seat nor a spectator receives a hand
// or a deck's order, and neither may ask a question that reads the whole
// state out of turn; a player's token cannot act for a side the built-in
// opponent plays.
void probe_fair_play() {
  auto get = [](const std::string& path, const std::string& headers = "") {
    auto r = once(request("GET", path, "", headers));
    return r && r->status == 200 ? json::parse(r->body, nullptr, false) : json();
  };
  const std::string g1 = new_game({{"battle", "warmaster/default"}}), g2 = new_game({{"battle", "warmaster/default"}});
  const json v1 = get("/api/games/" + g1), v2 = get("/api/games/" + g2);
  const bool dice_apart = v1.is_object() && v2.is_object() && v1["dice"]["seed"].is_null() &&
                          v1["dice"]["commitment"] != v2["dice"]["commitment"];
  auto log1 = once(request("GET", "/api/games/" + g1 + "/log"));
  const bool no_seed = log1 && log1->body.find("\"seed\":null") != std::string::npos && log1->body.find("\"seed\":1") == std::string::npos;

  // Two seats: A creates, B joins with the invitation, C watches.
  auto made = once(request("POST", "/api/games", json{{"battle", "ancients/centre_clash"}, {"seats", {0}}}.dump(), kJson));
  bool hidden = false, questions = false;
  if (made && made->status == 201) {
    const json g = json::parse(made->body);
    const std::string base = "/api/games/" + g["id"].get<std::string>();
    const std::string a = "X-Referee-Seat: " + g["seat_tokens"][0]["token"].get<std::string>() + "\r\n";
    auto joined = once(request("POST", base + "/join", "{}", kJson + "X-Referee-Invite: " + g["invitations"][0]["token"].get<std::string>() + "\r\n"));
    if (joined && joined->status == 200) {
      const std::string b = "X-Referee-Seat: " + json::parse(joined->body)["seat_tokens"][0]["token"].get<std::string>() + "\r\n";
      const json seen_b = get(base, b), seen_c = get(base), seen_a = get(base, a);
      hidden = seen_b.is_object() && seen_c.is_object() && seen_a.is_object() && seen_b["state"]["hands"][0].is_null() &&
               seen_b["state"]["decks"] == json::array({nullptr, nullptr}) && seen_c["state"]["hands"] == json::array({nullptr, nullptr}) &&
               seen_a["state"]["hands"][0].is_array() && seen_b["legal_actions"].empty();
      const std::string q = json{{"action", seen_a["legal_actions"][0]}}.dump();
      questions = status_of(request("POST", base + "/validate", q, kJson + b)) == 403 &&
                  status_of(request("POST", base + "/chance", q, kJson)) == 403 &&
                  status_of(request("GET", base + "/legal-actions", "", b)) == 403 &&
                  status_of(request("POST", base + "/query", R"({"name": "orders", "args": {"card": "order-three-center"}})", kJson + b)) == 403 &&
                  status_of(request("POST", base + "/validate", q, kJson + a)) == 200;
    }
  }
  // Against the built-in opponent, which plays side 0 (it moves first): the player's token acts for it.
  const std::string o = new_game({{"battle", "ancients/centre_clash"}, {"opponent_sides", {0}}});
  const json ov = get("/api/games/" + o, seat(o));
  const bool opponent_alone = ov.is_object() && !ov["state"]["hands"][1].is_null() && ov["state"]["hands"][0].is_null() &&
                              status_of(request("POST", "/api/games/" + o + "/apply",
                                                json{{"action", {{"type", "end_movement"}}}}.dump(), kJson + seat(o))) == 403;
  report("fair play", dice_apart && no_seed && hidden && questions && opponent_alone,
         std::string("two unseeded games' dice apart: ") + (dice_apart ? "yes" : "NO") + "; no seed in a log: " + (no_seed ? "yes" : "NO") +
             "; the other seat and a spectator see no hand or deck: " + (hidden ? "yes" : "NO") +
             "; whole-state questions out of turn refused: " + (questions ? "yes" : "NO") +
             "; the player cannot act for the opponent's side: " + (opponent_alone ? "yes" : "NO"));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: serve_probe <port> <pid> [slow seconds]\n");
    return 2;
  }
  port = std::atoi(argv[1]);
  pid = std::atoi(argv[2]);
  const double slow_seconds = argc > 3 ? std::atof(argv[3]) : 25;
  const std::string only = argc > 4 ? argv[4] : "";  // "hosts,uploads": these probes alone
  auto run = [&](const char* name) { return only.empty() || ("," + only + ",").find(std::string(",") + name + ",") != std::string::npos; };
  report("start", true, "");
  if (run("hosts")) probe_hosts();
  if (run("cross-site")) probe_cross_site();
  if (run("deviations")) probe_deviations();
  if (run("limits")) probe_http_limits();
  if (run("slow")) probe_slow_clients(slow_seconds);
  if (run("uploads")) probe_uploads();
  if (run("opponent")) probe_opponent_and_history();
  if (run("fair")) probe_fair_play();
  if (!only.empty() && run("reloads")) probe_reloads();  // needs a server with --data: asked by name only
  const long hwm = status_kb("VmHWM:");
  report("end", hwm > 0 && hwm < (1 << 20), "peak resident memory " + std::to_string(hwm / 1024) + " MiB");
  return all_ok ? 0 : 1;
}
