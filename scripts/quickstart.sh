#!/usr/bin/env bash
# Installs what is missing, builds gounki (Release) and runs the main job on the samples: import
# into the default database, validate, analyse, write an HTML report. Quick when nothing changed:
# games already imported and judged are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGOUNKI_TESTS=OFF >/dev/null
cmake --build build -j "$(nproc)"
gounki=build/cli/gounki
export GOUNKI_DB="${GOUNKI_DB:-$PWD/gounki.db}"

echo "== Validate the hand-written sample records (Gounki, Gomoku and Ninuki; GPN and SGF)"
$gounki validate samples/games/*.gpn samples/games/*.sgf
echo
echo "== Import the samples into $GOUNKI_DB (hand-written games, then the engine games)"
# Status 1 means findings worth reading (duplicates, prefixes, broken games), not a failure.
$gounki import samples/games/*.gpn samples/games/*.sgf samples/selfplay/*.gpn || [ $? -eq 1 ]
echo
echo "== Judge the hand-written games with the engine (stored; a rerun skips them)"
$gounki analyze --source samples/games --threads "$(nproc)"
echo
echo "== The opening tree of the start position over the whole collection (Gounki, then Ninuki)"
$gounki tree
$gounki tree --game ninuki
echo
echo "== Write the HTML report"
mkdir -p out
$gounki report --source samples/games --format html -o out/report.html
echo "Open out/report.html in a browser."
