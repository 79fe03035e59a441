// The case's rule catalogue: it makes "sys" a system whose ids the check
// looks for (a system it has never heard of, as a new one would be).
#pragma once

namespace sys::rule_id {
inline constexpr const char* movement_gap = "sys.movement.gap";
}
