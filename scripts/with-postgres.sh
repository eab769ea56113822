#!/usr/bin/env bash
# Runs a command against a PostgreSQL 15 server of its own: a new cluster in a temporary folder,
# listening only on a Unix socket in that folder, stopped and removed when the command ends
# (however it ends). The command finds the server in $GOUNKI_TEST_PG (a postgresql:// URL).
#   scripts/with-postgres.sh build-test/tests/gounki_tests "[postgres]"
# Needs Debian's postgresql package (scripts/test.sh installs it). PostgreSQL refuses to run as
# root, so as root the server runs as the `postgres` user the package creates.
set -euo pipefail
(($#)) || { echo "usage: $0 COMMAND [ARGS...]" >&2; exit 2; }
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "with-postgres: no PostgreSQL server found (Debian package postgresql)" >&2; exit 1; }

dir=$(mktemp -d /tmp/gounki-pg.XXXXXX)
as=()
if [ "$(id -u)" -eq 0 ]; then
  chown postgres: "$dir"
  as=(runuser -u postgres --)
  user=postgres
else
  user=$(id -un)
fi
stop() {
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

"${as[@]}" "$bin/initdb" -D "$dir/data" -A trust -U "$user" -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
  { cat "$dir/initdb.log" >&2; exit 1; }
"${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
  -o "-k $dir -c listen_addresses='' -c fsync=off -c full_page_writes=off" start >/dev/null ||
  { cat "$dir/server.log" >&2; exit 1; }
"${as[@]}" "$bin/createdb" -h "$dir" -U "$user" gounki_test

export GOUNKI_TEST_PG="postgresql:///gounki_test?host=$dir&user=$user"
status=0
"$@" || status=$?
exit $status
