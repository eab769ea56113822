#!/usr/bin/env bash
# PostgreSQL beside SQLite on the same generated games (the same seed): import (games/s, bytes per
# game), exact position searches, the tree of the start and a pattern search through `gounki
# dbbench`, then a few whole commands on each; the server is a temporary one of
# scripts/with-postgres.sh (fsync off, on this machine), removed at the end.
#   bench/postgres_bench.sh [GAMES] [GOUNKI]     defaults: 1000000 and build-rel/cli/gounki
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-1000000}
gounki=$(realpath "${2:-build-rel/cli/gounki}")
work=$(mktemp -d /tmp/gounki-pgbench.XXXXXX)
trap 'rm -rf "$work"' EXIT

# Whole commands on one database, each timed (wall clock).
commands() {
  local db=$1
  for c in "tree" "search --position start --limit 50" "search --moves c2-d3 --limit 50" \
           "games --limit 50 --player 'Player 7'" "tree --moves 'c2-d3 f7-e6'"; do
    local start end
    start=$(date +%s.%N)
    eval "\"$gounki\" $c --db \"$db\"" >/dev/null
    end=$(date +%s.%N)
    printf '  %-40s %6.3f s\n' "$c" "$(echo "$end - $start" | bc)"
  done
}

echo "== SQLite: $games games"
"$gounki" dbbench --games "$games" --db "$work/bench.db" --keep
commands "$work/bench.db"
rm -f "$work"/bench.db*

echo "== PostgreSQL: the same $games games"
export -f commands
export gounki
scripts/with-postgres.sh bash -c '
  set -euo pipefail
  "$gounki" dbbench --games "$0" --db "$GOUNKI_TEST_PG"
  commands "$GOUNKI_TEST_PG"' "$games"
