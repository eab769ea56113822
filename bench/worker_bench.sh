#!/usr/bin/env bash
# Analysis throughput of `gounki worker`: the first GAMES self-play Gounki games
# (samples/selfplay/selfplay-1000.gpn) queued at the default setting, then judged by 1, 2 and 4
# workers of one thread each; prints each run's jobs and plies per second of wall time.
#   bench/worker_bench.sh build-rel/cli/gounki DB [GAMES]
# DB: an SQLite file to create, or an empty PostgreSQL database (postgresql://...); under
# scripts/with-postgres.sh give "\$GOUNKI_TEST_PG" for a server of its own.
set -euo pipefail
gounki=$1 db=$2 games=${3:-60}
here=$(cd "$(dirname "$0")/.." && pwd)
"$gounki" import --quiet --db "$db" "$here/samples/selfplay/selfplay-1000.gpn"
for workers in 1 2 4; do
  "$gounki" jobs --quiet --clear-done --db "$db" >/dev/null
  "$gounki" analyze --quiet --db "$db" "1-$games" --queue --force
  start=$(date +%s.%N)
  pids=()
  for ((w = 0; w < workers; ++w)); do
    "$gounki" worker --quiet --db "$db" --exit-when-empty --poll 0.2 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  end=$(date +%s.%N)
  "$gounki" jobs --json --db "$db" | /usr/bin/python3 -c '
import json, sys
j = json.load(sys.stdin); workers, seconds = sys.argv[1], float(sys.argv[3]) - float(sys.argv[2])
done, plies = j["done"], j["plies_done"]
print(f"{workers} worker(s): {done} jobs, {plies} plies in {seconds:.1f} s: {done / seconds:.2f} jobs/s, {plies / seconds:.1f} plies/s")' "$workers" "$start" "$end"
done
