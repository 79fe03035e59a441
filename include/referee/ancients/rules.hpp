// The rule catalogue of ancients: every rule id the engine can emit, the rule
// text it enforces and when it fires (docs/rules.md lists it; `referee
// ancients rules` prints it).
#pragma once

#include <span>

#include "referee/core/rule_catalogue.hpp"

namespace referee::ancients {

std::span<const RuleInfo> rule_catalogue();

}  // namespace referee::ancients
