#include "cli_support.hpp"

#include <cstdio>
#include <iostream>
#include <set>

#include "cli_values.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/files.hpp"

namespace referee::cli {

void OutputSet::add(const std::string& path, std::string content) { items_.push_back({path, std::move(content)}); }

void OutputSet::add_answer(const OutputOptions& o, const nlohmann::json& answer, const std::string& text) {
  add(o.out.empty() ? "-" : o.out, o.explain ? text : dump_answer(answer) + "\n");
}

void OutputSet::commit() {
  std::set<std::string> seen;
  for (const Item& i : items_) {
    if (i.path == "-") continue;
    if (!seen.insert(i.path).second) throw InputError(i.path, "is given for two outputs of one command");
    check_output_path(i.path);
  }
  std::vector<StagedFile> staged;
  staged.reserve(items_.size());
  for (const Item& i : items_)
    if (i.path != "-") staged.emplace_back(i.path, i.content);
  for (StagedFile& f : staged) f.commit();
  std::string out;
  for (const Item& i : items_)
    if (i.path == "-") out += i.content;
  if (!out.empty()) write_stdout(out);
  items_.clear();
}

void add_output_options(CLI::App* cmd, OutputOptions& o) {
  cmd->add_option("-o,--out", o.out, "Write the answer to this file instead of standard output");
  cmd->add_flag("--explain", o.explain, "Print the answer as readable text instead of JSON");
}

void emit(const OutputOptions& o, const nlohmann::json& answer, const std::string& text) {
  OutputSet s;
  s.add_answer(o, answer, text);
  s.commit();
}

void emit_file(const std::string& path, const std::string& content) {
  OutputSet s;
  s.add(path, content);
  s.commit();
}

void write_stdout(const std::string& content) {
  std::cout << content << std::flush;
  if (!std::cout || std::ferror(stdout)) throw OutputFailure("cannot write to standard output");
}

std::string dump_answer(const nlohmann::json& answer) {
  return answer.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

CLI::Validator finite_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        try {
          (void)parse_finite(text, "");
        } catch (const InputError& e) {
          return e.problem();
        }
        return {};
      },
      "NUMBER", "finite");
}

CLI::Validator seed_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        try {
          (void)parse_seed(text, "");
        } catch (const InputError& e) {
          return e.problem();
        }
        return {};
      },
      "SEED", "seed");
}

}  // namespace referee::cli
