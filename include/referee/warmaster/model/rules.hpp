// The rule catalogue of warmaster: every rule id the engine can emit, the rule
// text it enforces and when it fires (docs/rules.md lists it; `referee
// warmaster rules` prints it).
#pragma once

#include <span>

#include "referee/core/rule_catalogue.hpp"

namespace referee::warmaster {

std::span<const RuleInfo> rule_catalogue();

}  // namespace referee::warmaster
