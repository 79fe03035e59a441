#include "client_budgets.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace referee::server {

namespace {

constexpr std::size_t kForgetAbove = 4096;  // accounts held before idle ones are forgotten

int wait_seconds(double missing, double rate) {
  return static_cast<int>(std::clamp(std::ceil(missing / std::max(1e-9, rate)), 1.0, 3600.0));
}

}  // namespace

double ClientBudgets::Bucket::now_level(Clock::time_point now, double burst, double rate) const {
  return std::min(burst, level + rate * std::chrono::duration<double>(now - at).count());
}

ClientBudgets::Account& ClientBudgets::account(const std::string& client, Clock::time_point now) {
  auto [it, fresh] = accounts_.try_emplace(
      client, Account{{rates_.engine_seconds_burst, now}, {rates_.games_burst, now}, 0});
  if (fresh && accounts_.size() > kForgetAbove)
    for (auto i = accounts_.begin(); i != accounts_.end();) {
      const Account& a = i->second;
      const bool idle = a.stored == 0 &&
                        a.engine.now_level(now, rates_.engine_seconds_burst, rates_.engine_seconds_per_second) >=
                            rates_.engine_seconds_burst &&
                        a.games.now_level(now, rates_.games_burst, rates_.games_per_second) >= rates_.games_burst;
      if (i != it && idle) i = accounts_.erase(i);
      else ++i;
    }
  Account& a = it->second;
  a.engine = {a.engine.now_level(now, rates_.engine_seconds_burst, rates_.engine_seconds_per_second), now};
  a.games = {a.games.now_level(now, rates_.games_burst, rates_.games_per_second), now};
  return a;
}

std::optional<ClientBudgets::Refusal> ClientBudgets::admit(const std::string& client) {
  std::lock_guard lock(mutex_);
  // An address with no account has spent nothing.
  if (accounts_.find(client) == accounts_.end()) return std::nullopt;
  const Account& a = account(client, Clock::now());
  if (a.engine.level > 0) return std::nullopt;
  return Refusal{fmt::format("this address has used the engine time it may use for now ({:.0f} s at most, refilled at "
                             "{} s a second); ask again later",
                             rates_.engine_seconds_burst, rates_.engine_seconds_per_second),
                 wait_seconds(-a.engine.level + 1, rates_.engine_seconds_per_second)};
}

void ClientBudgets::charge_engine(const std::string& client, double seconds) {
  std::lock_guard lock(mutex_);
  account(client, Clock::now()).engine.level -= seconds;
}

std::optional<ClientBudgets::Refusal> ClientBudgets::take_new_game(const std::string& client) {
  std::lock_guard lock(mutex_);
  Account& a = account(client, Clock::now());
  if (a.games.level >= 1) {
    a.games.level -= 1;
    return std::nullopt;
  }
  return Refusal{fmt::format("this address has made the {:.0f} new games it may make at once (one more every {:.0f} s); "
                             "ask again later",
                             rates_.games_burst, 1 / std::max(1e-9, rates_.games_per_second)),
                 wait_seconds(1 - a.games.level, rates_.games_per_second)};
}

std::optional<ClientBudgets::Refusal> ClientBudgets::charge_store(const std::string& client, std::uint64_t bytes) {
  if (rates_.max_stored_bytes == 0) return std::nullopt;
  std::lock_guard lock(mutex_);
  Account& a = account(client, Clock::now());
  if (a.stored + bytes > rates_.max_stored_bytes)
    return Refusal{fmt::format("this address's games have written {:.1f} MiB to the store, the most one address may "
                               "({:.1f} MiB): the store is shared",
                               static_cast<double>(a.stored) / (1 << 20),
                               static_cast<double>(rates_.max_stored_bytes) / (1 << 20)),
                   3600};
  a.stored += bytes;
  return std::nullopt;
}

}  // namespace referee::server
