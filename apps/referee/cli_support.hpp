// Shared plumbing for the subcommands: output options, JSON/explain output,
// and the convention that a bad request is an InputError (exit 2, nothing written).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace referee::cli {

struct OutputOptions {
  std::string out;       // write here instead of stdout
  bool explain = false;  // readable text instead of JSON
};

// Standard output could not be written (a full disk, a closed pipe): main
// exits 1, since the request itself was fine (docs/input-limits.md).
class OutputFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Every output of one command, written together by commit(): each target is
// checked first, then every file is staged to a temporary beside it, then all
// are renamed into place, and standard output ("-") comes last. A bad target
// (a symbolic link, device, directory, missing folder, or one path given for
// two outputs) is an InputError before any output is written.
class OutputSet {
 public:
  void add(const std::string& path, std::string content);  // "-" is standard output
  // The answer as pretty JSON, or `text` with --explain; to -o or standard output.
  void add_answer(const OutputOptions& o, const nlohmann::json& answer, const std::string& text);
  void commit();

 private:
  struct Item {
    std::string path, content;
  };
  std::vector<Item> items_;
};

void add_output_options(CLI::App* cmd, OutputOptions& o);
// Writes `answer` as pretty JSON, or `text` when --explain was given.
void emit(const OutputOptions& o, const nlohmann::json& answer, const std::string& text);
// Writes a whole file (SVG, log) atomically, or to stdout for "-".
void emit_file(const std::string& path, const std::string& content);
// Writes to standard output and checks that it arrived (OutputFailure if not).
void write_stdout(const std::string& content);
// JSON text of an answer; any byte that is not UTF-8 (from a path on the
// command line) is shown as U+FFFD instead of failing.
std::string dump_answer(const nlohmann::json& answer);

// Option checks for CLI11: a finite number (no nan or inf), and a dice seed
// (a whole number from 0 to 2^64-1: no sign, fraction or exponent).
CLI::Validator finite_number();
CLI::Validator seed_number();

}  // namespace referee::cli
