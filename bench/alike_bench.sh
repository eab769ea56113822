#!/usr/bin/env bash
# Importing many games that end alike, the case that once made an import quadratic: for each size
# N, three record files of N games each, written by awk into DIR, imported into a new database by
# the whole `gounki import` command (wall seconds, peak resident set):
#   one-move   N games of the one move 1. a1-a2+, every one with other players (forfeits after
#              a move, or one game uploaded under many names);
#   prefixes   N/3 games of 12 plies that start 1. h8 h7, then 2N/3 Gomoku games of just those two
#              moves, other players each (every short game is a prefix of the long ones);
#   copies     N games of the one move, all by the same players: every game after the first is a
#              duplicate.
# One transaction for the whole file as well (`--batch` larger than N), as `gounki serve` imports an
# upload. The time per game should not grow with N.
#   bench/alike_bench.sh build-rel/cli/gounki [N...] [-- DIR]
set -euo pipefail
gounki=$1
shift
sizes=()
dir=.
while (($#)); do
  if [ "$1" = -- ]; then
    dir=$2
    break
  fi
  sizes+=("$1")
  shift
done
((${#sizes[@]})) || sizes=(10000 40000 400000)

write() { # KIND N FILE
  awk -v kind="$1" -v n="$2" 'BEGIN {
    srand(7)
    cols = "abcdefghijklmno"
    for (i = 0; i < n; i++) {
      if (kind == "one-move") { printf "[White \"w%d\"]\n[Black \"b%d\"]\n[Result \"*\"]\n\n1. a1-a2+ *\n\n", i, i; continue }
      if (kind == "copies") { printf "[White \"w\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. a1-a2+ *\n\n"; continue }
      # prefixes: long games first (a third), then the two-move games
      printf "[Game \"Gomoku\"]\n[White \"w%d\"]\n[Black \"b%d\"]\n[Result \"*\"]\n\n1. h8 h7", i, i
      if (i < n / 3) {
        delete used; used["h8"] = 1; used["h7"] = 1
        for (ply = 2; ply < 12; ) {
          p = substr(cols, int(rand() * 15) + 1, 1) (int(rand() * 15) + 1)
          if (p in used) continue
          used[p] = 1
          if (ply % 2 == 0) printf " %d. %s", ply / 2 + 1, p
          else printf " %s", p
          ply++
        }
      }
      printf " *\n\n"
    }
  }' >"$3"
}

printf '%-10s %8s %-12s %9s %12s %10s\n' kind games batch seconds games/s "peak MB"
for n in "${sizes[@]}"; do
  for kind in one-move prefixes copies; do
    file=$dir/alike-$kind-$n.gpn
    [ -f "$file" ] || write "$kind" "$n" "$file"
    for batch in 50000 $((n + 1)); do
      ((batch != 50000 || n > 50000)) || continue # one batch anyway
      db=$dir/alike-bench.db
      rm -f "$db" "$db-wal" "$db-shm"
      start=$(date +%s.%N)
      # Random games can hold a five before their end: those are stored as broken (exit status 1).
      status=0
      /usr/bin/time -f %M -o "$dir/alike-bench.mem" "$gounki" import --quiet --batch "$batch" --db "$db" "$file" \
        >/dev/null 2>"$dir/alike-bench.err" || status=$?
      ((status <= 1)) || { tail -3 "$dir/alike-bench.err" >&2; exit 1; }
      end=$(date +%s.%N)
      /usr/bin/python3 -c '
import sys
kind, n, batch, start, end, mem = sys.argv[1:]
s = float(end) - float(start)
label = "whole file" if int(batch) > int(n) else batch
print(f"{kind:<10} {int(n):>8} {label:<12} {s:9.2f} {int(n) / s:12.0f} {int(open(mem).read().split()[-1]) / 1024:10.0f}")' \
        "$kind" "$n" "$batch" "$start" "$end" "$dir/alike-bench.mem"
    done
  done
done
rm -f "$dir"/alike-bench.{db,db-wal,db-shm,mem,err}
