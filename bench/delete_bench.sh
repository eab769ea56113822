#!/usr/bin/env bash
# Deleting games from a big collection: a database of GAMES random 40-ply games (`gounki dbbench`,
# kept as DIR/delete-bench-GAMES.db and reused by later runs), then for each case a fresh copy of
# it and the whole `gounki delete ... --yes` command timed (choosing the games included): 100 games
# by a range, 10,000 by a range, a season by a date filter (3 months of the 26 years: about 1/104
# of the games, scattered over the ids), half by a date filter (13 of the 26 years) and half by a
# range. Prints each case's games deleted, wall seconds and games per second.
#   bench/delete_bench.sh build-rel/cli/gounki [GAMES] [DIR]
set -euo pipefail
gounki=$1 games=${2:-1000000} dir=${3:-.}
big=$dir/delete-bench-$games.db work=$dir/delete-bench-work.db
if [ ! -f "$big" ]; then
  "$gounki" dbbench --games "$games" --db "$big" --keep --searches 0 | sed -n 1,3p
fi
half=$((games / 2))
run() {
  local label=$1
  shift
  rm -f "$work" "$work-wal" "$work-shm"
  cp "$big" "$work"
  local start end
  start=$(date +%s.%N)
  "$gounki" delete --db "$work" --yes --json "$@" >"$work.json"
  end=$(date +%s.%N)
  /usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[2]))["deleted"]; s = float(sys.argv[4]) - float(sys.argv[3])
print(f"{sys.argv[1]:<44} {d:>8} games {s:7.2f} s {d / s:10.0f} games/s")' \
    "$label" "$work.json" "$start" "$end"
}
run "100 games by a range" "$((half + 1))-$((half + 100))"
run "10,000 games by a range" "$((half + 1))-$((half + 10000))"
run "a season (--from 2024.01 --to 2024.03)" --from 2024.01 --to 2024.03
run "half by a filter (--from 2013 --to 2025)" --from 2013 --to 2025
run "half by a range" "1-$half"
rm -f "$work" "$work-wal" "$work-shm" "$work.json"
