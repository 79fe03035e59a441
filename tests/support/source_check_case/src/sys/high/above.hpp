// A header of the room above (source_check_case/src/sys/low/broken.cpp includes it).
#pragma once
#include "low/below.hpp"
