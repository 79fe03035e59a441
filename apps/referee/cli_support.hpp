// Shared plumbing for the subcommands: output options, JSON/explain output,
// and the convention that a bad request is an InputError (exit 2, nothing written).
#pragma once

#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace referee::cli {

struct OutputOptions {
  std::string out;       // write here instead of stdout
  bool explain = false;  // readable text instead of JSON
};

void add_output_options(CLI::App* cmd, OutputOptions& o);
// Writes `answer` as pretty JSON, or `text` when --explain was given.
void emit(const OutputOptions& o, const nlohmann::json& answer, const std::string& text);
// Writes a whole file (SVG, log) atomically, or to stdout for "-".
void emit_file(const std::string& path, const std::string& content);

}  // namespace referee::cli
