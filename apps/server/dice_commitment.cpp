#include "dice_commitment.hpp"

#include <sys/random.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>
#include <openssl/evp.h>

#include "referee/core/errors.hpp"

namespace referee::server {

namespace {

// Fills `out` from getrandom(2), which blocks only until the kernel's pool
// is first seeded and never returns predictable bytes.
void os_random(void* out, std::size_t n) {
  auto* p = static_cast<unsigned char*>(out);
  while (n > 0) {
    const ssize_t got = ::getrandom(p, n, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("the operating system's random source failed: ") + std::strerror(errno));
    }
    p += got;
    n -= static_cast<std::size_t>(got);
  }
}

}  // namespace

std::uint64_t random_seed() {
  std::uint64_t seed = 0;
  os_random(&seed, sizeof seed);
  return seed;
}

std::string random_salt() {
  std::array<unsigned char, 16> bytes{};
  os_random(bytes.data(), bytes.size());
  std::string out;
  for (unsigned char b : bytes) out += fmt::format("{:02x}", b);
  return out;
}

std::string dice_commitment(std::uint64_t seed, std::string_view salt) {
  const std::string text = fmt::format("referee-dice/1:{}:{}", salt, seed);
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (EVP_Digest(text.data(), text.size(), digest.data(), &size, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("OpenSSL's SHA-256 failed");
  std::string out;
  for (unsigned int i = 0; i < size; ++i) out += fmt::format("{:02x}", digest[i]);
  return out;
}

void commit_log_header(GameLog& log, std::string_view salt, bool secret) {
  log.seed_commitment = dice_commitment(log.seed, salt);
  log.seed_withheld = secret;
  log.seed_salt = secret ? std::string() : std::string(salt);
  if (secret) log.seed = 0;
  // A deal's rolls give every hand: kept back with the seed.
  if (secret && !log.start_rolls.empty()) {
    log.start_rolls.clear();
    log.start_rolls_withheld = true;
  }
}

bool check_dice_commitment(const GameLog& log, const std::string& source_name) {
  if (log.seed_commitment.empty()) return false;
  const std::string where = source_name + " line 1";
  if (log.seed_withheld)
    throw InputError(where + ".seed", "the seed is withheld while the game is on (the server reveals it when the game "
                                      "ends); this log can be read but not replayed");
  if (log.seed_salt.empty())
    throw InputError(where + ".seed_salt", "a log with a seed_commitment needs the game's salt to check it");
  const std::string expected = dice_commitment(log.seed, log.seed_salt);
  if (expected != log.seed_commitment)
    throw InputError(where + ".seed", fmt::format("seed {} and salt {} give the commitment {}, not the {} the game "
                                                  "showed: these are not the dice the game committed to",
                                                  log.seed, log.seed_salt, expected, log.seed_commitment));
  return true;
}

}  // namespace referee::server
