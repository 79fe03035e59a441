// What each client address may spend (docs/api.md, "Safety"), the API's
// budgets in one place, each a bucket that refills at a rate up to a burst:
//   - engine time: CPU seconds of the engine, charged after each request;
//     an address that has spent its burst is refused until it refills;
//   - new games: one per game made or imported;
//   - the store: the bytes its games have written since the server started
//     (no refill: the store is shared and kept).
// One mutex, one map entry per address; an address whose buckets are full
// again and whose games wrote nothing is forgotten once many are held, so
// the map stays as small as the set of recent clients. No HTTP here: a
// refusal is a problem in words and how long to wait, which the API answers
// as 429 naming `client`.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace referee::server {

class ClientBudgets {
 public:
  struct Rates {
    double engine_seconds_burst = 30;
    double engine_seconds_per_second = 1;
    double games_burst = 30;
    double games_per_second = 0.5;
    std::uint64_t max_stored_bytes = 0;  // 0: no bound
  };
  struct Refusal {
    std::string problem;
    int retry_after = 1;  // seconds
  };

  explicit ClientBudgets(Rates rates) : rates_(rates) {}

  // Refused while the address has spent its engine time (charge_engine).
  std::optional<Refusal> admit(const std::string& client);
  void charge_engine(const std::string& client, double seconds);
  // Takes one new game from the address's bucket, or refuses.
  std::optional<Refusal> take_new_game(const std::string& client);
  // Charges `bytes` written to the store, or refuses when they would take
  // the address past Rates::max_stored_bytes (nothing is charged then).
  std::optional<Refusal> charge_store(const std::string& client, std::uint64_t bytes);

 private:
  using Clock = std::chrono::steady_clock;
  // A level that refills at `rate` a second up to `burst`.
  struct Bucket {
    double level = 0;
    Clock::time_point at;
    double now_level(Clock::time_point now, double burst, double rate) const;
  };
  struct Account {
    Bucket engine, games;
    std::uint64_t stored = 0;
  };
  // The address's account, refilled to `now`; a new one starts full. Under mutex_.
  Account& account(const std::string& client, Clock::time_point now);

  Rates rates_;
  std::mutex mutex_;
  std::map<std::string, Account> accounts_;
};

}  // namespace referee::server
