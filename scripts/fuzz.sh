#!/usr/bin/env bash
# Builds the whole of gounki with clang (a second compiler: what GCC accepts and clang refuses fails
# here) and the four libFuzzer targets (fuzz/), then runs each target for SECONDS (default 60),
# seeded from tests/data/. A crash, a sanitizer report or a leak stops with the target's output and
# the input that did it (build-fuzz/crash-*, to be added to tests/data/regressions/).
#   bash scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "usage: scripts/fuzz.sh [SECONDS] (a whole number of seconds, 1 or more)" >&2; exit 2; }
# libclang-rt-14-dev holds libFuzzer and clang's sanitizer runtimes (only recommended by clang).
bash scripts/deps.sh clang libclang-rt-14-dev
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
  -DGOUNKI_FUZZ=ON -DGOUNKI_TESTS=OFF >/dev/null
cmake --build build-fuzz -j "$(nproc)"

fuzz() { # fuzz NAME SEED_FOLDER...
  local name="$1" log="build-fuzz/fuzz_$1.log"
  shift
  mkdir -p "build-fuzz/corpus/$name"
  echo "fuzz_$name: $seconds s"
  if ! "build-fuzz/fuzz/fuzz_$name" "build-fuzz/corpus/$name" "$@" -max_total_time="$seconds" \
      -artifact_prefix=build-fuzz/ >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "fuzz_$name failed: $log" >&2
    return 1
  fi
  grep -E '^Done [0-9]+ runs' "$log" || true
}
fuzz records tests/data/records tests/data/sgf
fuzz position fuzz/position_seeds
fuzz psq tests/data/psq fuzz/list_seeds
fuzz renju tests/data/renju
