// Errors that reach a user. Each names what was wrong and where, so the
// command line can print it and exit 2 without writing anything.
#pragma once

#include <stdexcept>
#include <string>

namespace referee {

// Bad input: a scenario, request or log that cannot be used. `field` is a
// JSON-pointer-like path such as "armies[0].units[2].stands[1].x".
class InputError : public std::runtime_error {
 public:
  InputError(std::string field, std::string problem)
      : std::runtime_error(field.empty() ? problem : field + ": " + problem),
        field_(std::move(field)),
        problem_(std::move(problem)) {}
  const std::string& field() const { return field_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string field_;
  std::string problem_;
};

// A scripted dice sequence did not match what the engine asked for.
class ScriptError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace referee
