// The rule catalogue of blightmeer: every rule id the engine can emit, the rule
// text it enforces and when it fires (docs/rules.md lists it; `referee
// blightmeer rules` prints it).
#pragma once

#include <span>

#include "referee/core/rule_catalogue.hpp"

namespace referee::blightmeer {

std::span<const RuleInfo> rule_catalogue();

}  // namespace referee::blightmeer
