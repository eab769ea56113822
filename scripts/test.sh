#!/usr/bin/env bash
# Installs what is missing, builds the test build (AddressSanitizer + UndefinedBehaviorSanitizer)
# and runs the whole test suite. Quick when nothing changed.
set -euo pipefail
cd "$(dirname "$0")/.."
# chromium renders the HTML report in a test (the test is skipped where it is missing).
bash scripts/deps.sh chromium
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=Debug -DGOUNKI_SANITIZE=ON \
  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" >/dev/null
cmake --build build-test -j "$(nproc)"
cd build-test
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j 1
