#include "cli_support.hpp"

#include <iostream>

#include "referee/core/files.hpp"

namespace referee::cli {

void add_output_options(CLI::App* cmd, OutputOptions& o) {
  cmd->add_option("-o,--out", o.out, "Write the answer to this file instead of standard output");
  cmd->add_flag("--explain", o.explain, "Print the answer as readable text instead of JSON");
}

void emit(const OutputOptions& o, const nlohmann::json& answer, const std::string& text) {
  emit_file(o.out.empty() ? "-" : o.out, o.explain ? text : answer.dump(2) + "\n");
}

void emit_file(const std::string& path, const std::string& content) {
  if (path == "-") {
    std::cout << content << std::flush;
  } else {
    write_file_atomic(path, content);
  }
}

}  // namespace referee::cli
