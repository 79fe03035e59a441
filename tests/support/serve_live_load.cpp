// serve_live_load <port> [--pid P] [--games G] [--viewers V] [--seconds S]
//                 [--rate R] [--drivers D]
// A load test of live updates (docs/api.md, "Players, seats and live
// updates") against a running `referee serve` on loopback:
//   - creates G games (default 200) of warmaster/default, seeds 1..G, keeping
//     each one's seat tokens (every request that acts sends them all);
//   - opens V live-update streams per game (default 2: the first with the
//     game's seats, as its player's board, the others as spectators), all
//     read by one thread in one poll() loop, split into Server-Sent Events;
//   - for S seconds (default 20) applies actions at R a second in all
//     (default 100), spread over the games in turn, from D threads (default
//     4) each on its own keep-alive connection: the game's `end_phase` when
//     it is legal, else its first legal action (from the last answer's
//     view); a refused action is a change too;
//   - then checks that every viewer received every version from its first
//     to its game's last, consecutively and in order, each `play` event
//     carrying the log lines its action's answer was told.
// Prints the push latency (the action's request sent to each viewer's
// receipt of its event), the events, the CPU time the server (--pid) used
// while driven, and its resident memory (VmRSS) at the start, before the
// streams opened and at the end; then a
// one-line JSON summary. Exits 1 naming the first update lost or out of
// order (or any request that failed), 2 on bad arguments.
#include <fcntl.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "http_client.hpp"

using referee::testing::HttpClient;
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
  int port = 0;
  long pid = 0;
  int games = 200;
  int viewers = 2;
  double seconds = 20;
  double rate = 100;
  int drivers = 4;
};

// One change a driver made: the version its answer carried, when its request
// was sent, and the log lines it was told.
struct Change {
  Clock::time_point sent;
  Json entries;
};

struct Game {
  std::string id;
  std::string seats;  // "X-Referee-Seat: t0,t1\r\n"
  std::mutex mutex;   // one action at a time on a game
  Json legal;         // the legal actions of the last view
  std::uint64_t first_version = 0, last_version = 0;
  std::map<std::uint64_t, Change> changes;  // by version
};

struct Event {
  std::uint64_t version;
  Clock::time_point received;
  std::string data;
};

// One live-update stream: its socket, what has come and not yet been split,
// and the events split from it.
struct Viewer {
  int game = 0;
  int fd = -1;
  bool head_done = false;
  bool closed = false;
  std::string buffer;
  std::string problem;  // the first thing wrong with what came
  std::vector<Event> events;
  std::size_t presence = 0, pings = 0;
  std::string last_presence;  // the data of the last presence event
};

// The CPU time the process has used (user and system), in seconds.
double cpu_seconds(long pid) {
  if (pid <= 0) return -1;
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto paren = text.rfind(')');
  if (paren == std::string::npos) return -1;
  std::istringstream fields(text.substr(paren + 2));
  std::string field;
  double ticks = 0;
  for (int k = 3; k <= 15 && fields >> field; ++k)  // utime and stime are fields 14 and 15
    if (k >= 14) ticks += std::atof(field.c_str());
  return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

long rss_kib(long pid) {
  if (pid <= 0) return -1;
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return -1;
}

int open_stream(int port, const std::string& id, const std::string& extra) {
  // A plain non-blocking socket, for poll().
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    if (fd >= 0) ::close(fd);
    return -1;
  }
  const std::string request = HttpClient::request_text("GET", "/api/games/" + id + "/events", {}, extra, true, port);
  if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(request.size())) {
    ::close(fd);
    return -1;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  return fd;
}

// Splits what has come on a stream into its answer's head and its events
// (`id: N` / `event: game|presence` / `data: ...` / a blank line; `: ping`
// comments; `retry: N`).
void split(Viewer& v, Clock::time_point now) {
  if (!v.head_done) {
    const auto end = v.buffer.find("\r\n\r\n");
    if (end == std::string::npos) return;
    const std::string head = v.buffer.substr(0, end);
    if (head.rfind("HTTP/1.1 200", 0) != 0 || head.find("text/event-stream") == std::string::npos) {
      if (v.problem.empty()) v.problem = "the stream was answered: " + head.substr(0, head.find("\r\n"));
      v.buffer.clear();
      return;
    }
    v.head_done = true;
    v.buffer.erase(0, end + 4);
  }
  std::size_t end;
  while ((end = v.buffer.find("\n\n")) != std::string::npos) {
    const std::string frame = v.buffer.substr(0, end + 1);
    v.buffer.erase(0, end + 2);
    std::string id, event, data;
    bool comment = false, retry = false;
    for (std::size_t at = 0; at < frame.size();) {
      const std::size_t nl = frame.find('\n', at);
      const std::string line = frame.substr(at, nl - at);
      at = nl + 1;
      if (line.rfind(":", 0) == 0) comment = true;
      else if (line.rfind("id: ", 0) == 0) id = line.substr(4);
      else if (line.rfind("event: ", 0) == 0) event = line.substr(7);
      else if (line.rfind("data: ", 0) == 0) data += line.substr(6);
      else if (line.rfind("retry: ", 0) == 0) retry = true;
      else if (v.problem.empty()) v.problem = "a line no event has: " + line;
    }
    if (event == "game") {
      if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
        if (v.problem.empty()) v.problem = "an event: game without its id: " + frame;
        continue;
      }
      v.events.push_back({std::stoull(id), now, std::move(data)});
    } else if (event == "presence") {
      ++v.presence;
      v.last_presence = std::move(data);
    } else if (event.empty() && comment) {
      ++v.pings;
    } else if (!(event.empty() && retry) && v.problem.empty()) {
      v.problem = "an unexpected frame: " + frame;
    }
  }
}

// Reads every stream until `stop`, in one poll() loop.
void read_streams(std::vector<Viewer>& viewers, const std::atomic<bool>& stop, std::mutex& mutex) {
  std::vector<pollfd> fds(viewers.size());
  char buf[65536];
  while (!stop) {
    for (std::size_t k = 0; k < viewers.size(); ++k) fds[k] = {viewers[k].closed ? -1 : viewers[k].fd, POLLIN, 0};
    if (::poll(fds.data(), fds.size(), 50) <= 0) continue;
    const auto now = Clock::now();
    std::lock_guard lock(mutex);
    for (std::size_t k = 0; k < viewers.size(); ++k) {
      if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      Viewer& v = viewers[k];
      for (;;) {
        const ssize_t n = ::recv(v.fd, buf, sizeof buf, 0);
        if (n > 0) {
          v.buffer.append(buf, static_cast<std::size_t>(n));
          continue;
        }
        if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) v.closed = true;
        break;
      }
      split(v, now);
    }
  }
}

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto k = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(k, sorted.size() - 1)];
}

bool parse(int argc, char** argv, Options& o) {
  if (argc < 2) return false;
  o.port = std::atoi(argv[1]);
  for (int k = 2; k + 1 < argc; k += 2) {
    const std::string name = argv[k];
    const double value = std::atof(argv[k + 1]);
    if (name == "--pid") o.pid = static_cast<long>(value);
    else if (name == "--games") o.games = static_cast<int>(value);
    else if (name == "--viewers") o.viewers = static_cast<int>(value);
    else if (name == "--seconds") o.seconds = value;
    else if (name == "--rate") o.rate = value;
    else if (name == "--drivers") o.drivers = static_cast<int>(value);
    else return false;
  }
  return argc % 2 == 0 && o.port > 0 && o.games > 0 && o.viewers > 0 && o.seconds > 0 && o.rate > 0 && o.drivers > 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, o)) {
    std::fprintf(stderr, "usage: serve_live_load <port> [--pid P] [--games G] [--viewers V] [--seconds S] [--rate R] "
                         "[--drivers D]\n");
    return 2;
  }
  const long rss_start = rss_kib(o.pid);

  // The games, each with its seats' tokens.
  std::vector<std::unique_ptr<Game>> games;
  HttpClient setup(o.port, 60);
  for (int k = 0; k < o.games; ++k) {
    auto created = setup.request("POST", "/api/games", R"({"battle": "warmaster/default", "seed": )" + std::to_string(k + 1) + "}");
    if (!created || created->status != 201) {
      std::fprintf(stderr, "serve_live_load: game %d was not created: %s\n", k,
                   created ? created->body.substr(0, 200).c_str() : "no answer");
      return 1;
    }
    const Json j = Json::parse(created->body);
    auto g = std::make_unique<Game>();
    g->id = j.at("id");
    std::string tokens;
    for (const Json& t : j.at("seat_tokens")) tokens += (tokens.empty() ? "" : ",") + t.at("token").get<std::string>();
    g->seats = "X-Referee-Seat: " + tokens + "\r\n";
    g->legal = j.at("legal_actions");
    g->first_version = g->last_version = j.at("version");
    games.push_back(std::move(g));
  }
  const long rss_before_streams = rss_kib(o.pid);

  // The streams: the first of each game with its seats (its player's board),
  // the others as spectators.
  std::vector<Viewer> viewers;
  for (int k = 0; k < o.games; ++k)
    for (int v = 0; v < o.viewers; ++v) {
      Viewer viewer;
      viewer.game = k;
      viewer.fd = open_stream(o.port, games[static_cast<std::size_t>(k)]->id, v == 0 ? games[static_cast<std::size_t>(k)]->seats : "");
      if (viewer.fd < 0) {
        std::fprintf(stderr, "serve_live_load: stream %d of game %d could not be opened\n", v, k);
        return 1;
      }
      viewers.push_back(std::move(viewer));
    }
  std::atomic<bool> stop_reading = false;
  std::mutex viewers_mutex;
  std::thread reader([&] { read_streams(viewers, stop_reading, viewers_mutex); });
  auto every_viewer = [&](auto&& done, double seconds) {
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    for (;;) {
      {
        std::lock_guard lock(viewers_mutex);
        if (std::all_of(viewers.begin(), viewers.end(), done)) return true;
      }
      if (Clock::now() > deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  };
  auto stop = [&](int code) {
    stop_reading = true;
    reader.join();
    for (Viewer& v : viewers) ::close(v.fd);
    return code;
  };
  // Every stream has its first event (the sync) before the actions start.
  if (!every_viewer([](const Viewer& v) { return !v.events.empty() || !v.problem.empty() || v.closed; }, 60)) {
    std::fprintf(stderr, "serve_live_load: not every stream had its first event within 60 s\n");
    return stop(1);
  }

  // The actions: number i is due at start + i / rate, on game i mod G.
  std::atomic<long> next = 0, failed = 0;
  std::mutex status_mutex;
  std::map<int, long> statuses;
  long applied_count = 0, refused_count = 0;
  std::string first_failure;
  const auto start = Clock::now() + std::chrono::milliseconds(100);
  const auto due = [&](long i) {
    return start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(static_cast<double>(i) / o.rate));
  };
  const auto end = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.seconds));
  const double cpu_before = cpu_seconds(o.pid);
  std::vector<std::thread> drivers;
  for (int d = 0; d < o.drivers; ++d)
    drivers.emplace_back([&] {
      HttpClient client(o.port, 60);
      for (long i = next++; due(i) < end; i = next++) {
        std::this_thread::sleep_until(due(i));
        Game& g = *games[static_cast<std::size_t>(i % o.games)];
        std::lock_guard lock(g.mutex);
        Json action = g.legal.empty() ? Json{{"type", "end_phase"}} : g.legal.front();
        for (const Json& a : g.legal)
          if (a.value("type", "") == "end_phase") action = a;
        const std::string body = Json{{"action", action}}.dump();
        const auto sent = Clock::now();
        auto answer = client.request("POST", "/api/games/" + g.id + "/apply", body, g.seats);
        std::lock_guard status_lock(status_mutex);
        if (!answer) {
          client.close();
          if (failed++ == 0) first_failure = "no answer to an action on game " + g.id;
          continue;
        }
        ++statuses[answer->status];
        if (answer->status != 200) {
          if (failed++ == 0) first_failure = "an action on game " + g.id + " was answered " + answer->body.substr(0, 300);
          if (answer->header("connection") == "close") client.close();
          continue;
        }
        const Json j = Json::parse(answer->body);
        const std::uint64_t version = j.at("game").at("version");
        if (g.changes.count(version) || version != g.last_version + 1) {
          if (failed++ == 0)
            first_failure = "game " + g.id + ": an answer's version " + std::to_string(version) + " after version " +
                            std::to_string(g.last_version);
        }
        g.last_version = std::max(g.last_version, version);
        g.changes[version] = {sent, j.at("entries")};
        g.legal = j.at("game").at("legal_actions");
        ++(j.at("applied").get<bool>() ? applied_count : refused_count);
      }
    });
  for (auto& t : drivers) t.join();
  const double driven = std::chrono::duration<double>(Clock::now() - start).count();
  const double server_cpu = cpu_before < 0 ? -1 : std::round((cpu_seconds(o.pid) - cpu_before) * 100) / 100;

  // Every viewer has had time to hear its game's last version.
  every_viewer(
      [&](const Viewer& v) {
        return v.closed || !v.problem.empty() ||
               (!v.events.empty() && v.events.back().version >= games[static_cast<std::size_t>(v.game)]->last_version);
      },
      10);
  const long rss_end = rss_kib(o.pid);
  stop(0);

  // Every version from the first each viewer had to its game's last, in
  // order, each play event with its action's log lines.
  std::vector<double> ms;
  std::size_t events = 0, presence = 0, stale = 0;
  // Every stream stays open: the last presence each viewer heard has the
  // player's board (both seats) and the spectators.
  const Json present{{"connected", {1, 1}}, {"spectators", o.viewers - 1}};
  std::string first_stale;
  for (const Viewer& v : viewers) {
    events += v.events.size();
    presence += v.presence;
    if (Json::parse(v.last_presence, nullptr, false) != present && stale++ == 0)
      first_stale = games[static_cast<std::size_t>(v.game)]->id + ": " + v.last_presence;
  }
  std::string violation;
  for (std::size_t k = 0; k < viewers.size() && violation.empty(); ++k) {
    const Viewer& v = viewers[k];
    const Game& g = *games[static_cast<std::size_t>(v.game)];
    const std::string who = "viewer " + std::to_string(k % static_cast<std::size_t>(o.viewers)) + " of game " +
                            std::to_string(v.game) + " (" + g.id + ")";
    if (!v.problem.empty()) {
      violation = who + ": " + v.problem;
      break;
    }
    if (v.events.empty()) {
      violation = who + ": no event came";
      break;
    }
    if (v.events.front().version != g.first_version) {
      violation = who + ": its first event is version " + std::to_string(v.events.front().version) + ", the game was at " +
                  std::to_string(g.first_version);
      break;
    }
    for (std::size_t e = 0; e < v.events.size(); ++e) {
      const Event& ev = v.events[e];
      const Json data = Json::parse(ev.data, nullptr, false);
      if (data.is_discarded() || data.value("version", std::uint64_t{0}) != ev.version) {
        violation = who + ": event " + std::to_string(ev.version) + "'s data is not its version's: " + ev.data.substr(0, 200);
        break;
      }
      if (e == 0) continue;
      const std::uint64_t expected = v.events[e - 1].version + 1;
      if (ev.version != expected) {
        const bool later = std::any_of(v.events.begin() + static_cast<std::ptrdiff_t>(e), v.events.end(),
                                       [&](const Event& x) { return x.version == expected; });
        violation = who + ": version " + std::to_string(ev.version) + " came after version " +
                    std::to_string(v.events[e - 1].version) + " (version " + std::to_string(expected) +
                    (later ? " came later: out of order)" : " lost)");
        break;
      }
      const auto change = g.changes.find(ev.version);
      if (change == g.changes.end()) {
        violation = who + ": version " + std::to_string(ev.version) + " is no change a driver made";
        break;
      }
      if (data.value("kind", "") != "play" || data.value("entries", Json()) != change->second.entries) {
        violation = who + ": event " + std::to_string(ev.version) + " is not the play its action's answer told: " +
                    ev.data.substr(0, 200);
        break;
      }
      ms.push_back(std::chrono::duration<double, std::milli>(ev.received - change->second.sent).count());
    }
    if (violation.empty() && v.events.back().version != g.last_version)
      violation = who + ": its last event is version " + std::to_string(v.events.back().version) + ", the game's last " +
                  std::to_string(g.last_version) + (v.closed ? " (the server closed the stream)" : "");
  }
  std::sort(ms.begin(), ms.end());
  const long actions = applied_count + refused_count;
  std::printf("serve_live_load: %d games x %d viewers, %.0f s at %.0f actions/s (%d drivers): %ld actions answered "
              "(%.1f/s; %ld applied, %ld refused), %ld failed; %zu game events and %zu presence events received (%zu viewers' last presence stale); "
              "push latency median %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms over %zu receipts; "
              "server CPU %.2f s while driven; server VmRSS %ld KiB at the start, %ld KiB before the streams, "
              "%ld KiB at the end\n",
              o.games, o.viewers, o.seconds, o.rate, o.drivers, actions, static_cast<double>(actions) / driven,
              applied_count, refused_count, failed.load(), events, presence, stale, percentile(ms, 0.5), percentile(ms, 0.9),
              percentile(ms, 0.99), ms.empty() ? 0 : ms.back(), ms.size(), server_cpu, rss_start, rss_before_streams, rss_end);
  Json status_json = Json::object();
  for (const auto& [s, n] : statuses) status_json[std::to_string(s)] = n;
  std::printf("%s\n", Json{{"games", o.games},
                           {"viewers_per_game", o.viewers},
                           {"seconds", o.seconds},
                           {"target_rate", o.rate},
                           {"actions", actions},
                           {"rate", static_cast<double>(actions) / driven},
                           {"applied", applied_count},
                           {"refused", refused_count},
                           {"failed", failed.load()},
                           {"statuses", status_json},
                           {"game_events", events},
                           {"presence_events", presence},
                           {"stale_presence", stale},
                           {"latency_ms",
                            {{"median", percentile(ms, 0.5)},
                             {"p90", percentile(ms, 0.9)},
                             {"p99", percentile(ms, 0.99)},
                             {"max", ms.empty() ? 0 : ms.back()},
                             {"receipts", ms.size()}}},
                           {"server_cpu_seconds", server_cpu},
                           {"rss_kib", {{"start", rss_start}, {"before_streams", rss_before_streams}, {"end", rss_end}}},
                           {"ok", violation.empty() && failed == 0 && stale == 0}}
                          .dump()
                          .c_str());
  if (!violation.empty()) std::fprintf(stderr, "serve_live_load: an update lost or out of order: %s\n", violation.c_str());
  // Presence is what a board shows of the others: its last word must be true.
  if (stale > 0)
    std::fprintf(stderr, "serve_live_load: %zu viewers' last presence is not everyone connected; the first, game %s\n", stale,
                 first_stale.c_str());
  if (failed > 0) std::fprintf(stderr, "serve_live_load: %ld actions failed; the first: %s\n", failed.load(), first_failure.c_str());
  return violation.empty() && failed == 0 && stale == 0 ? 0 : 1;
}
