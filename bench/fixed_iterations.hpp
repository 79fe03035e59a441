// Included before every benchmark source (bench/CMakeLists.txt, -include):
// with REFEREE_BENCH_ITERATIONS=N in the environment, every benchmark
// registered with BENCHMARK(...) runs exactly N iterations, once, instead of
// as many as its minimum time takes. scripts/bench-compare.sh runs a
// benchmark under callgrind with two such counts and divides the difference
// in instructions by the difference in iterations: instructions per
// iteration, without the set-up, whatever the host's load. (This Google
// Benchmark, 1.7, has no --benchmark_min_time=Nx.) Without the variable
// nothing changes.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdlib>

namespace referee::bench_support {

inline void iterations_from_environment(::benchmark::internal::Benchmark* b) {
  const char* n = std::getenv("REFEREE_BENCH_ITERATIONS");
  if (!n || !*n) return;
  const long long count = std::strtoll(n, nullptr, 10);
  if (count > 0) b->Iterations(count);
}

}  // namespace referee::bench_support

#undef BENCHMARK
#define BENCHMARK(...)                                                                             \
  BENCHMARK_PRIVATE_DECLARE(_benchmark_) =                                                         \
      (::benchmark::internal::RegisterBenchmarkInternal(                                           \
           new ::benchmark::internal::FunctionBenchmark(#__VA_ARGS__, &__VA_ARGS__))              \
           ->Apply(::referee::bench_support::iterations_from_environment))
