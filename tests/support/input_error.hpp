// The message of the InputError that `f` throws, or "no error": tests assert
// the whole message, so a user's error text cannot drift unnoticed.
#pragma once

#include <functional>
#include <string>

#include "referee/core/errors.hpp"

namespace referee::test_support {

inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace referee::test_support
