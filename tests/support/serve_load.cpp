// serve_load <port> [requests] [check|create] [connections]: sends that many
// requests to a running `referee serve` on loopback, one connection each.
//   check (the default): move checks, all at once, each answer compared with
//     the one a single request got first;
//   create: new games (POST /api/games), at most `connections` (default
//     500) at a time, each answered 201 with a game's view, or 429 or 503
//     with Retry-After (a limit, documented in docs/api.md), and the server
//     still answering afterwards.
// Prints the median and the 99th percentile latency; exits 1 if any request
// failed or was answered wrongly.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <nlohmann/json.hpp>

#include "http_client.hpp"

using referee::testing::HttpClient;

// One request on its own connection (Connection: close), read to the end.
// A plain socket rather than an HTTP library, so the client adds nothing of
// its own to what is measured.
std::string exchange(int port, const std::string& request, std::string& problem) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) {
    problem = std::string("socket: ") + std::strerror(errno);
    return {};
  }
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string response;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    problem = std::string("connect: ") + std::strerror(errno);
  } else {
    std::size_t sent = 0;
    while (sent < request.size()) {
      const ssize_t k = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
      if (k <= 0) {
        problem = std::string("send: ") + std::strerror(errno);
        break;
      }
      sent += static_cast<std::size_t>(k);
    }
    char buf[16384];
    while (problem.empty()) {
      const ssize_t k = ::recv(fd, buf, sizeof buf, 0);
      if (k < 0) problem = std::string("recv: ") + std::strerror(errno);
      if (k <= 0) break;
      response.append(buf, static_cast<std::size_t>(k));
    }
  }
  ::close(fd);
  return response;
}

// `n` new games, `width` connections at a time.
int create_storm(int port, int n, int width) {
  std::atomic<int> next = 0, created = 0, limited = 0, failed = 0;
  std::vector<double> ms(static_cast<std::size_t>(n), 0);
  const std::string request = "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                              "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";
  std::vector<std::thread> threads;
  for (int t = 0; t < width; ++t)
    threads.emplace_back([&] {
      for (int i = next++; i < n; i = next++) {
        const auto t0 = std::chrono::steady_clock::now();
        std::string problem;
        const std::string response = exchange(port, request, problem);
        ms[static_cast<std::size_t>(i)] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        const auto head_end = response.find("\r\n\r\n");
        const bool answered = problem.empty() && head_end != std::string::npos;
        if (answered && response.rfind("HTTP/1.1 201", 0) == 0 &&
            nlohmann::json::parse(response.substr(head_end + 4), nullptr, false).contains("id")) {
          ++created;
        } else if (answered && (response.rfind("HTTP/1.1 429", 0) == 0 || response.rfind("HTTP/1.1 503", 0) == 0) &&
                   response.find("Retry-After: ") < head_end) {
          ++limited;
        } else if (failed++ == 0) {
          std::fprintf(stderr, "serve_load: first failure: %s%s\n", problem.c_str(), response.substr(0, 60).c_str());
        }
      }
    });
  for (auto& t : threads) t.join();
  HttpClient after(port);
  auto alive = after.request("GET", "/api/battles");
  // A client that has spent its engine time (a slow build, such as the
  // sanitizers', spends it sooner) is told to wait: that is an answer too.
  const bool answers = alive && (alive->status == 200 || (alive->status == 429 && !alive->header("retry-after").empty()));
  std::sort(ms.begin(), ms.end());
  std::printf("serve_load: %d new games, %d at a time: %d created, %d refused for a limit (429/503), %d failed; "
              "latency median %.1f ms, 99th percentile %.1f ms, max %.1f ms; afterwards the server %s\n",
              n, width, created.load(), limited.load(), failed.load(), ms[ms.size() / 2], ms[ms.size() * 99 / 100],
              ms.back(),
              !answers ? "does not answer"
              : alive->status == 200 ? "answers"
                                     : "answers 429 (this client's engine time is spent; Retry-After given)");
  return failed == 0 && answers ? 0 : 1;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: serve_load <port> [requests] [check|create] [connections]\n");
    return 2;
  }
  const int port = std::atoi(argv[1]);
  const int n = argc > 2 ? std::atoi(argv[2]) : 1000;
  const std::string mode = argc > 3 ? argv[3] : "check";
  if (mode == "create") return create_storm(port, n, argc > 4 ? std::atoi(argv[4]) : 500);
  HttpClient setup(port);
  auto created = setup.request("POST", "/api/games", "{}");
  if (!created || created->status != 201) {
    std::fprintf(stderr, "serve_load: could not create a game\n");
    return 1;
  }
  const std::string id = nlohmann::json::parse(created->body)["id"];
  // A legal move and an illegal one (through the river), alternately.
  const std::string legal = R"({"name":"check","args":{"move":{"unit":"emp-halberd-1","stands":[{"stand":0,"to":{"x":56,"y":30}},{"stand":1,"to":{"x":60,"y":30}},{"stand":2,"to":{"x":64,"y":30}}]}}})";
  const std::string illegal = R"({"name":"check","args":{"move":{"unit":"emp-halberd-1","stands":[{"stand":0,"to":{"x":56,"y":80}},{"stand":1,"to":{"x":60,"y":80}},{"stand":2,"to":{"x":64,"y":80}}]}}})";
  const std::string path = "/api/games/" + id + "/query";
  auto a = setup.request("POST", path, legal);
  auto b = setup.request("POST", path, illegal);
  if (!a || !b || a->status != 200 || b->status != 200) {
    std::fprintf(stderr, "serve_load: the first checks failed\n");
    return 1;
  }
  const std::string expect_legal = a->body, expect_illegal = b->body;
  if (nlohmann::json::parse(expect_legal)["legal"] != true || nlohmann::json::parse(expect_illegal)["legal"] != false) {
    std::fprintf(stderr, "serve_load: the sample moves are not the legal and illegal moves expected:\n%s\n%s\n",
                 expect_legal.c_str(), expect_illegal.c_str());
    return 1;
  }

  std::vector<double> ms(static_cast<std::size_t>(n), -1);
  std::atomic<int> wrong = 0, failed = 0, ready = 0;
  std::atomic<bool> go = false;
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    threads.emplace_back([&, i] {
      const std::string& body = i % 2 ? illegal : legal;
      const std::string request = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                                  "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
                                  "\r\n\r\n" + body;
      ++ready;
      while (!go) std::this_thread::yield();
      const auto t0 = std::chrono::steady_clock::now();
      std::string problem;
      const std::string response = exchange(port, request, problem);
      ms[static_cast<std::size_t>(i)] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      const auto head_end = response.find("\r\n\r\n");
      if (!problem.empty() || response.rfind("HTTP/1.1 200", 0) != 0 || head_end == std::string::npos) {
        if (failed++ == 0) std::fprintf(stderr, "serve_load: first failure: %s%s\n", problem.c_str(), response.substr(0, 40).c_str());
      } else if (response.substr(head_end + 4) != (i % 2 ? expect_illegal : expect_legal)) {
        ++wrong;
      }
    });
  while (ready < n) std::this_thread::yield();
  go = true;
  for (auto& t : threads) t.join();
  std::sort(ms.begin(), ms.end());
  std::printf("serve_load: %d concurrent move checks: %d failed, %d wrong; latency median %.1f ms, 99th percentile %.1f ms, max %.1f ms\n",
              n, failed.load(), wrong.load(), ms[ms.size() / 2], ms[ms.size() * 99 / 100], ms.back());
  return failed == 0 && wrong == 0 ? 0 : 1;
}
