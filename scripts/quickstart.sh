#!/usr/bin/env bash
# Installs what is missing, builds gounki (Release) and runs the main job on the samples.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGOUNKI_TESTS=OFF >/dev/null
cmake --build build -j "$(nproc)"
gounki=build/cli/gounki

echo "== The start position and its moves"
$gounki position start
echo "== perft 5 from the start position (reference: 100248353)"
$gounki perft --stats 5
