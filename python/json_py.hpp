// JSON between Python and the engine: the game interface speaks
// nlohmann::json at its edges, Python code speaks dicts, lists, strings,
// numbers, booleans and None. Both directions copy; both need the GIL.
#pragma once

#include <string>

#include <nlohmann/json.hpp>
#include <pybind11/pybind11.h>

namespace referee::py {

namespace pb = pybind11;
using Json = nlohmann::json;

// A Python value as JSON: dict (string keys), list or tuple, str, int, float,
// bool, None. Anything else is an InputError naming `path` ("action.unit").
Json to_json(pb::handle h, const std::string& path);

// JSON as the Python value json.loads would give.
pb::object from_json(const Json& j);

}  // namespace referee::py
