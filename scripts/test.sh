#!/usr/bin/env bash
# Installs what is missing, builds the test build (AddressSanitizer + UndefinedBehaviorSanitizer)
# and runs the whole test suite; then builds everything again with clang and runs each fuzz target
# for 30 s (scripts/fuzz.sh). Quick when nothing changed (but for the 2 minutes of fuzzing).
set -euo pipefail
cd "$(dirname "$0")/.."
# Tools some tests need (a missing one fails its test; GOUNKI_ALLOW_MISSING_TOOLS=1 reports the test
# as skipped instead): chromium renders the HTML report (and with chromium-driver and python3-selenium
# drives the browser tests of the interactive report and of gounki serve), script(1) from bsdutils
# gives the --quiet test a terminal, chattr from e2fsprogs makes a read-only database file for root,
# postgresql is the server scripts/with-postgres.sh starts for the [postgres] tests, groff-base
# renders the manual page as man(1) does.
bash scripts/deps.sh chromium chromium-driver python3-selenium bsdutils e2fsprogs postgresql groff-base
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=Debug -DGOUNKI_SANITIZE=ON \
  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" >/dev/null
cmake --build build-test -j "$(nproc)"
(cd build-test && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j 1)
bash scripts/fuzz.sh 30
