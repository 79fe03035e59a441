#include "cli_support.hpp"
#include "commands.hpp"

namespace referee::cli {

void add_blightmeer_commands(CLI::App& blightmeer) { (void)blightmeer; }

}  // namespace referee::cli
