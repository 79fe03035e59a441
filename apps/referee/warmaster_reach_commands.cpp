#include "cli_support.hpp"
#include "commands.hpp"

namespace referee::cli {

void add_warmaster_reach_commands(CLI::App& warmaster) { (void)warmaster; }

}  // namespace referee::cli
