#!/usr/bin/python3
"""Latency of `gounki serve` on a large database (run it on a Release build).

  build-release/cli/gounki dbbench --games 1000000 --db big.db --keep
  /usr/bin/python3 bench/serve_bench.py build-release/cli/gounki big.db [--clients 50] [--rounds 40] [--threads N]

Starts the server on a free port, times each request kind alone (median and worst of --rounds),
then with --clients clients at once (each running the same mix), and prints one table. The server
keeps explorer trees and game counts while the database is unchanged, so a request asked again is
answered from memory: the first requests after the start are timed apart (cold), and two rows ask
a different position or page each time, which nothing kept can answer.
"""
import http.client
import json
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse


def timed(host, port, path):
    c = http.client.HTTPConnection(host, port, timeout=120)
    start = time.perf_counter()
    c.request("GET", path)
    r = c.getresponse()
    r.read()
    elapsed = time.perf_counter() - start
    c.close()
    if r.status != 200:
        raise SystemExit("%s answered %d" % (path, r.status))
    return elapsed * 1000


def main():
    gounki, db = sys.argv[1], sys.argv[2]
    clients = int(sys.argv[sys.argv.index("--clients") + 1]) if "--clients" in sys.argv else 50
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 40
    threads = ["--threads", sys.argv[sys.argv.index("--threads") + 1]] if "--threads" in sys.argv else []
    server = subprocess.Popen([gounki, "serve", "--db", db, "--port", "0", "--read-only", *threads], stdout=subprocess.PIPE,
                              text=True)
    host, port = server.stdout.readline().split("//")[1].rstrip("/\n").rsplit(":", 1)
    port = int(port)
    try:
        cold = [(name, timed(host, port, path)) for name, path in
                [("explorer at the start", "/api/tree"), ("the first page", "/api/games?limit=50"),
                 ("page 101", "/api/games?limit=50&page=101")]]
        first = json.loads(timed_get(host, port, "/api/tree"))["moves"][0]["move"]
        reply = json.loads(timed_get(host, port, "/api/tree?moves=" + urllib.parse.quote(first)))["moves"][0]["move"]
        line = first + " " + reply
        total = json.loads(timed_get(host, port, "/api/games?limit=1"))["total"]
        # Lines of two plies, each a position the explorer has not been asked for.
        lines = []
        for m in json.loads(timed_get(host, port, "/api/tree"))["moves"]:
            replies = json.loads(timed_get(host, port, "/api/tree?moves=" + urllib.parse.quote(m["move"])))["moves"]
            lines += [m["move"] + " " + r["move"] for r in replies]
        counter = iter(range(10 ** 9))
        count_lock = threading.Lock()

        def varied(make):
            def path():
                with count_lock:
                    return make(next(counter))
            return path
        kinds = [
            ("the first page of 50 games (API)", "/api/games?limit=50"),
            ("the first page of 50 games (HTML)", "/"),
            ("page 101 of 50 games (API)", "/api/games?limit=50&page=101"),
            ("a page of 50 games half-way (API)", "/api/games?limit=50&offset=%d" % (total // 2)),
            ("a page of 50 games half-way, after=ID (API)", "/api/games?limit=50&after=%d" % (total // 2)),
            ("position search, 2 plies (API)", "/api/search?moves=" + urllib.parse.quote(line)),
            ("explorer at the start (API)", "/api/tree"),
            ("explorer at the start (HTML)", "/explorer"),
            ("the explorer at a different 2-ply position each request (API)",
             varied(lambda i: "/api/tree?moves=" + urllib.parse.quote(lines[i % len(lines)]))),
            ("a different page of 50 each request, pages 2-2000 by offset (API)",
             varied(lambda i: "/api/games?limit=50&page=%d" % (2 + (i * 7919) % 1999))),
            ("a game with its judgement (API)", "/api/games/%d" % (total // 3)),
            ("the game viewer (HTML)", "/game/%d" % (total // 3)),
        ]
        print("%d games; %d rounds alone, then %d clients at once; server threads: %s" %
          (total, rounds, clients, threads[1] if threads else "one per core"))
        print("cold, the first requests after the start: " + ", ".join("%s %.1f ms" % c for c in cold))
        print("| request | alone: median, worst (ms) | %d clients: median, worst (ms) |" % clients)
        print("|---|---|---|")
        for name, path in kinds:
            ask = path if callable(path) else (lambda p=path: p)
            alone = [timed(host, port, ask()) for _ in range(rounds)]
            together = []
            lock = threading.Lock()

            def client():
                for _ in range(max(1, rounds // 10)):
                    t = timed(host, port, ask())
                    with lock:
                        together.append(t)
            threads = [threading.Thread(target=client) for _ in range(clients)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            print("| %s | %.1f, %.1f | %.1f, %.1f |" % (name, statistics.median(alone), max(alone),
                                                         statistics.median(together), max(together)))
    finally:
        server.terminate()
        server.wait()


def timed_get(host, port, path):
    c = http.client.HTTPConnection(host, port)
    c.request("GET", path)
    return c.getresponse().read()


if __name__ == "__main__":
    main()
