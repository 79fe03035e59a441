// referee <system> simulate: N seeded games (or N first phases: a Warmaster
// Command phase) with chosen players, spread over worker processes, written
// as one JSON line per game in index order, with a summary and a bar chart.
//
// Game i plays with seed simulation_game_seed(S, i) (core/simulate.hpp), so the lines are the
// same bytes for any number of workers and any order in which they finish.
// Worker k of K plays games k, k + K, k + 2K... (strided, so slow games
// share out) in a forked copy of this process and sends its lines down a
// pipe; the parent puts them in order. With --scheduler the run goes to a
// Dask cluster through the Python module (python -m referee simulate), which
// plays the same lines.
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <thread>

#include <fmt/format.h>

#include "cli_support.hpp"
#include "commands.hpp"
#include "referee/core/errors.hpp"
#include "referee/core/files.hpp"
#include "referee/core/json_io.hpp"
#include "referee/core/simulate.hpp"

namespace referee::cli {

namespace {

struct SimOpts {
  std::string battle, side0 = "random", side1 = "random", mode = "game", lines_out, summary_out, plot, scheduler;
  long long games = 100;
  std::uint64_t seed = 1;
  int max_actions = 20000;
  int workers = 0;  // 0: one per core
  bool progress = false;
  OutputOptions out;
};

// Games done of total, games per second and the time left, on standard
// error: redrawn in place on a terminal, a plain line a second otherwise.
class Progress {
 public:
  Progress(long long total, bool forced)
      : total_(total), tty_(isatty(STDERR_FILENO) != 0), on_(tty_ || forced),
        start_(std::chrono::steady_clock::now()), last_(start_) {}
  void update(long long done) {
    if (!on_ || shown_ == total_) return;
    const auto now = std::chrono::steady_clock::now();
    if (done < total_ && now - last_ < std::chrono::milliseconds(tty_ ? 200 : 1000)) return;
    last_ = now;
    shown_ = done;
    const double secs = std::chrono::duration<double>(now - start_).count();
    const double rate = secs > 0 ? static_cast<double>(done) / secs : 0.0;
    const long long left = rate > 0 ? static_cast<long long>(static_cast<double>(total_ - done) / rate + 0.5) : 0;
    const int width = 30, filled = static_cast<int>(width * done / std::max(1LL, total_));
    const std::string line = fmt::format("[{}{}] {}/{} games  {:.1f} games/s  {}:{:02d} left", std::string(filled, '#'),
                                         std::string(width - filled, '.'), done, total_, rate, left / 60, left % 60);
    std::fputs(tty_ ? ("\r" + line + (done >= total_ ? "\n" : "")).c_str() : (line + "\n").c_str(), stderr);
    std::fflush(stderr);
  }

 private:
  long long total_, shown_ = -1;
  bool tty_, on_;
  std::chrono::steady_clock::time_point start_, last_;
};

// Writes all of `text` to `fd`.
void write_all(int fd, const std::string& text) {
  for (std::size_t sent = 0; sent < text.size();) {
    const ssize_t n = ::write(fd, text.data() + sent, text.size() - sent);
    if (n <= 0) throw std::runtime_error("the pipe to the parent closed");
    sent += static_cast<std::size_t>(n);
  }
}

// The worker's part: games k, k + K, ... as lines down `fd`, sent in
// batches (every 64 KiB or fifth of a second), so that the parent wakes
// rarely and leaves the cores to the workers; then a last line, "#" and the
// tally of its games, so the parent need not read the lines again for the
// summary. Never returns.
[[noreturn]] void worker(const GameType& type, const Game& game, const Player (&players)[2], const SimulationSpec& spec,
                         long long games, int k, int workers, int fd) {
  int code = 0;
  try {
    std::string batch;
    SimulationTally tally;
    auto sent = std::chrono::steady_clock::now();
    for (long long i = k; i < games; i += workers) {
      const Json line = simulate_one(type, game, players, spec, static_cast<std::uint64_t>(i));
      tally.add(line);
      batch += line.dump();
      batch += '\n';
      const auto now = std::chrono::steady_clock::now();
      if (batch.size() >= 65536 || now - sent >= std::chrono::milliseconds(200)) {
        write_all(fd, batch);
        batch.clear();
        sent = now;
      }
    }
    write_all(fd, batch + "#" + tally.to_json().dump() + "\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "referee: worker %d: %s\n", k, e.what());
    code = 1;
  }
  ::close(fd);
  std::_Exit(code);
}

// Plays every game, over `workers` forked processes (or here, for one):
// the lines in index order, and their tally.
std::vector<std::string> play_all(const GameType& type, const Game& game, const Player (&players)[2],
                                  const SimulationSpec& spec, long long games, int workers, Progress& progress,
                                  SimulationTally& tally) {
  std::vector<std::string> lines(static_cast<std::size_t>(games));
  if (workers <= 1) {
    for (long long i = 0; i < games; ++i) {
      const Json line = simulate_one(type, game, players, spec, static_cast<std::uint64_t>(i));
      tally.add(line);
      lines[static_cast<std::size_t>(i)] = line.dump();
      progress.update(i + 1);
    }
    return lines;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  struct Child {
    pid_t pid;
    int fd;
    long long next;  // the index of its next line
    std::string buffer;
  };
  std::vector<Child> children;
  for (int k = 0; k < workers; ++k) {
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error("cannot make a pipe for a worker");
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error("cannot start a worker process");
    if (pid == 0) {
      ::close(fds[0]);
      for (const Child& c : children) ::close(c.fd);
      worker(type, game, players, spec, games, k, workers, fds[1]);
    }
    ::close(fds[1]);
    children.push_back({pid, fds[0], k, {}});
  }
  long long done = 0;
  std::vector<pollfd> polls;
  char chunk[65536];
  for (;;) {
    polls.clear();
    for (const Child& c : children)
      if (c.fd >= 0) polls.push_back({c.fd, POLLIN, 0});
    if (polls.empty()) break;
    if (::poll(polls.data(), polls.size(), -1) < 0) continue;
    for (const pollfd& ready : polls) {
      if (ready.revents == 0) continue;
      Child& c = *std::find_if(children.begin(), children.end(), [&](const Child& ch) { return ch.fd == ready.fd; });
      const ssize_t n = ::read(c.fd, chunk, sizeof chunk);
      if (n < 0) continue;  // interrupted: poll again
      if (n == 0) {
        ::close(c.fd);
        c.fd = -1;
        continue;
      }
      c.buffer.append(chunk, static_cast<std::size_t>(n));
      std::size_t begin = 0;
      for (std::size_t end; (end = c.buffer.find('\n', begin)) != std::string::npos; begin = end + 1) {
        if (c.buffer[begin] == '#') {
          tally.merge(SimulationTally::from_json(Json::parse(c.buffer.begin() + static_cast<std::ptrdiff_t>(begin) + 1,
                                                             c.buffer.begin() + static_cast<std::ptrdiff_t>(end))));
          continue;
        }
        if (c.next < games) lines[static_cast<std::size_t>(c.next)] = c.buffer.substr(begin, end - begin);
        c.next += workers;
        ++done;
      }
      c.buffer.erase(0, begin);
    }
    progress.update(done);
  }
  bool failed = done != games;
  for (const Child& c : children) {
    int status = 0;
    ::waitpid(c.pid, &status, 0);
    failed = failed || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
  }
  if (failed) throw std::runtime_error("a worker process failed (its error is above)");
  return lines;
}

// --scheduler: the same run on a Dask cluster, by the Python module.
[[noreturn]] void run_on_dask(const SimOpts& o, const GameType& type) {
#if defined(REFEREE_PYTHON_EXECUTABLE) && defined(REFEREE_PYTHON_PATH) && defined(REFEREE_PYTHON_INSTALL_DIR)
  // An installed referee has the package beside it (cmake --install); one in
  // the build tree, the build's.
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::filesystem::path installed = exe.parent_path().parent_path() / REFEREE_PYTHON_INSTALL_DIR;
  const std::string package = !ec && std::filesystem::exists(installed / "referee" / "__init__.py", ec)
                                  ? installed.string()
                                  : std::string(REFEREE_PYTHON_PATH);
  const char* old = std::getenv("PYTHONPATH");
  const std::string path = package + (old && *old ? std::string(":") + old : "");
  ::setenv("PYTHONPATH", path.c_str(), 1);
  std::vector<std::string> args = {REFEREE_PYTHON_EXECUTABLE, "-m", "referee", "simulate", type.name,
                                   "--battle", o.battle, "--games", std::to_string(o.games),
                                   "--seed", std::to_string(o.seed), "--mode", o.mode,
                                   "--side0", o.side0, "--side1", o.side1,
                                   "--max-actions", std::to_string(o.max_actions), "--scheduler", o.scheduler};
  const std::pair<const char*, const std::string*> files[] = {
      {"--results", &o.lines_out}, {"--summary", &o.summary_out}, {"--plot", &o.plot}, {"-o", &o.out.out}};
  for (const auto& [flag, value] : files)
    if (!value->empty()) args.insert(args.end(), {flag, *value});
  if (o.progress) args.push_back("--progress");
  if (o.out.explain) args.push_back("--explain");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  ::execv(argv[0], argv.data());
  throw InputError("--scheduler", fmt::format("cannot run {} for the Dask client", REFEREE_PYTHON_EXECUTABLE));
#else
  (void)o;
  (void)type;
  throw InputError("--scheduler", "this build has no Python module (python -m referee simulate), which talks to Dask");
#endif
}

std::string summary_text(const Json& summary, const SimOpts& o, double seconds) {
  const long long n = summary.at("games").get<long long>();
  std::string text =
      fmt::format("{} {}s on {}, master seed {}, {} against {}\n", n, o.mode, o.battle, o.seed, o.side0, o.side1);
  for (std::size_t side = 0; side < 2; ++side) {
    const Json& s = summary.at("sides").at(side);
    text += fmt::format("side {} ({}): {} wins, {:.1f}% (95% interval {:.1f}% to {:.1f}%)\n", side,
                        s.at("army").get<std::string>(), s.at("wins").get<long long>(),
                        100 * s.at("win_rate").get<double>(), 100 * s.at("interval95").at(0).get<double>(),
                        100 * s.at("interval95").at(1).get<double>());
  }
  text += fmt::format("draws {}, unfinished {}, refused {}; mean turns {:.2f}, mean actions {:.1f}; rolls passed {}, "
                      "failed {}; {:.1f} s, {:.1f} games/s\n",
                      summary.at("draws").get<long long>(), summary.at("unfinished").get<long long>(),
                      summary.at("refused").get<long long>(), summary.at("mean_turns").get<double>(),
                      summary.at("mean_actions").get<double>(), summary.at("passed").get<long long>(),
                      summary.at("failed").get<long long>(), seconds, seconds > 0 ? n / seconds : 0.0);
  return text;
}

void run_simulation(const SimOpts& o, const GameType& type, std::uint64_t max_input_bytes) {
  SimulationSpec spec;
  spec.mode = simulation_mode(o.mode, "--mode");
  spec.seed = o.seed;
  spec.max_actions = o.max_actions;
  const Player players[2] = {named_player(type, o.side0, "--side0"), named_player(type, o.side1, "--side1")};
  const Json battle = load_json_file(o.battle, max_input_bytes);
  const std::shared_ptr<const Game> game = type.load(battle, o.battle, Json::object());
  if (!o.scheduler.empty()) run_on_dask(o, type);
  const int workers = o.workers > 0 ? o.workers : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  Progress progress(o.games, o.progress);
  const auto t0 = std::chrono::steady_clock::now();
  SimulationTally tally;
  const std::vector<std::string> lines = play_all(
      type, *game, players, spec, o.games, static_cast<int>(std::min<long long>(workers, o.games)), progress, tally);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (tally.games != o.games) throw std::runtime_error("the workers' tallies do not count every game");
  std::string text_lines;
  if (!o.lines_out.empty())
    for (const std::string& l : lines) (text_lines += l) += '\n';
  Json summary = simulation_summary(tally, game->players());
  summary["system"] = type.name;
  summary["battle"] = o.battle;
  summary["mode"] = o.mode;
  summary["seed"] = o.seed;
  summary["players"] = {o.side0, o.side1};
  OutputSet outputs;
  if (!o.lines_out.empty()) outputs.add(o.lines_out, std::move(text_lines));
  if (!o.plot.empty())
    outputs.add(o.plot, summary_svg(summary, fmt::format("{}: {} against {}",
                                                         std::filesystem::path(o.battle).filename().string(),
                                                         o.side0, o.side1)));
  if (!o.summary_out.empty()) outputs.add(o.summary_out, dump_answer(summary) + "\n");
  Json answer = summary;
  answer["seconds"] = seconds;  // only on standard output: the files are the same bytes on every run
  answer["workers"] = workers;
  outputs.add_answer(o.out, answer, summary_text(summary, o, seconds));
  outputs.commit();
}

}  // namespace

void add_simulate_command(CLI::App& system, const GameType& type, std::uint64_t max_input_bytes) {
  auto o = std::make_shared<SimOpts>();
  auto* cmd = system.add_subcommand(
      "simulate", "Play N seeded games (or first phases) over worker processes; JSON lines, a summary and a chart");
  cmd->add_option("--battle", o->battle, "Battle file (JSON)")->required();
  cmd->add_option("--games", o->games, "Number of games (default 100)")->check(CLI::Range(1LL, 100000000LL));
  cmd->add_option("--seed", o->seed,
                  "Master seed (default 1): game i plays with a seed mixed from it and i, its line's \"seed\" "
                  "(arena --seed that number replays it)")
      ->check(seed_number());
  cmd->add_option("--mode", o->mode, "game: whole battles; phase: each the battle's first phase only (default game)");
  const std::string who = type.opponent ? "random or opponent" : "random";
  cmd->add_option("--side0", o->side0, "Who plays side 0: " + who + " (default random)");
  cmd->add_option("--side1", o->side1, "Who plays side 1: " + who + " (default random)");
  cmd->add_option("--max-actions", o->max_actions, "Actions after which a game is abandoned (default 20000)")
      ->check(CLI::Range(1, 10000000));
  cmd->add_option("--workers", o->workers, "Worker processes (default: one per core)")->check(CLI::Range(1, 1024));
  cmd->add_option("--results", o->lines_out, "Write one JSON line per game here, in index order");
  cmd->add_option("--summary", o->summary_out, "Write the summary (JSON) here");
  cmd->add_option("--plot", o->plot, "Write a bar chart of the results (SVG) here");
  cmd->add_flag("--progress", o->progress, "Show the progress on standard error even when it is not a terminal");
  cmd->add_option("--scheduler", o->scheduler,
                  "Run on a Dask cluster (tcp://HOST:8786) through the Python module instead of local processes");
  add_output_options(cmd, o->out);
  cmd->callback([o, &type, max_input_bytes] { run_simulation(*o, type, max_input_bytes); });
}

}  // namespace referee::cli
