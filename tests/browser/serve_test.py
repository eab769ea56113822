#!/usr/bin/python3
"""Tests of `gounki serve`: HTTP tests of bad input and of the API against the command line's --json,
then browser tests in headless Chromium (Debian's chromium, chromium-driver and python3-selenium).

Run: /usr/bin/python3 tests/browser/serve_test.py GOUNKI [-k PATTERN]
A missing tool fails the browser tests, naming the package (scripts/test.sh installs them all);
with GOUNKI_ALLOW_MISSING_TOOLS=1 they are skipped instead, with a warning.
"""
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse
import zlib

GOUNKI = None  # set from the command line

# Hand-written records: four Gounki games of a small club and one game with an illegal move.
CLUB = """[Game "Gounki"]
[Event "Spring Open"]
[Date "2020.05.01"]
[White "Ann Smith"]
[Black "Bob"]
[Result "1-0"]

1. c2-d3 f7-e6 2. g2-f3 b7-a6 3. b2-c2 1-0

[Game "Gounki"]
[Event "Winter Cup"]
[Date "2021.01.10"]
[White "Bob"]
[Black "Cy"]
[Result "0-1"]

1. g2-f3 b7-a6 2. c2-d3 f7-e6 0-1

[Game "Gounki"]
[Event "Winter Cup"]
[Date "2019.12.31"]
[White "Cy"]
[Black "Ann Smith"]
[Result "1/2-1/2"]

1. c2-d3 b7-a6 1/2-1/2

[Game "Gounki"]
[Event "Spring Open"]
[White "Dee"]
[Black "Eve"]
[Result "*"]

1. e2-f3 *
"""

# The illegal move f7-f6 is on line 7.
BROKEN = """[Game "Gounki"]
[Event "Upload"]
[White "Err"]
[Black "Or"]
[Result "*"]

1. c2-d3 f7-f6 *
"""

AFTER_C2_D3 = "rsrsrsrs/srsrsrsr/8/8/8/3R4/RS1SRSRS/SRSRSRSR b"


def cli_json(db, *args):
    out = subprocess.run([GOUNKI, *args, "--db", db, "--json"], capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def imported(folder, name, text):
    """The records of `text` written to NAME.gpn in `folder` and imported into NAME.db there: its path."""
    db = os.path.join(folder, name + ".db")
    record = os.path.join(folder, name + ".gpn")
    with open(record, "w") as f:
        f.write(text)
    subprocess.run([GOUNKI, "import", "--db", db, "--quiet", record], check=True)
    return db


def club_database(prefix):
    """A new temporary folder (its name starting with `prefix`) holding club.db, the games of CLUB
    imported: the folder and the database."""
    folder = tempfile.mkdtemp(prefix=prefix)
    return folder, imported(folder, "club", CLUB)


class Server:
    """`gounki serve --port 0` on a database; the URL it prints; stopped with SIGTERM."""

    def __init__(self, db, *extra):
        self.proc = subprocess.Popen([GOUNKI, "serve", "--db", db, "--port", "0", *extra], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("listening on http://"):
            self.proc.kill()
            raise AssertionError("no 'listening on' line: %r %r" % (line, self.proc.stderr.read()))
        self.url = line.split()[-1]
        hostport = self.url[len("http://"):].rstrip("/")
        self.host, self.port = hostport.rsplit(":", 1)
        self.port = int(self.port)

    def request(self, method, path, body=None, headers=None):
        c = http.client.HTTPConnection(self.host, self.port, timeout=30)
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, dict((k.lower(), v) for k, v in r.getheaders()), data

    def page(self, path):
        """The body of a GET of `path`, as text, whatever the status."""
        return self.request("GET", path)[2].decode()

    def get_json(self, path):
        status, _, data = self.request("GET", path)
        return status, json.loads(data)

    def token(self):
        _, _, page = self.request("GET", "/")
        page = page.decode()
        start = page.index('name="gounki-token" content="') + len('name="gounki-token" content="')
        return page[start:page.index('"', start)]

    def raw(self, data, read=True):
        """Sends bytes as they are (no client-side normalisation) and returns the answer's bytes."""
        s = socket.create_connection((self.host, self.port), timeout=30)
        s.sendall(data)
        if not read:
            return s
        s.shutdown(socket.SHUT_WR)
        out = b""
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            out += chunk
        s.close()
        return out

    def total(self):
        return self.get_json("/api/games")[1]["total"]

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout=30)
        finally:
            self.proc.stdout.close()
            self.proc.stderr.close()
        return code


class Fixture(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir, cls.db = club_database("gounki-serve-")
        subprocess.run([GOUNKI, "analyze", "--db", cls.db, "--quiet", "--depth", "2", "1"], check=True)  # game 1 judged
        cls.broken = os.path.join(cls.dir, "broken.gpn")
        with open(cls.broken, "w") as f:
            f.write(BROKEN)
        cls.server = Server(cls.db)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        shutil.rmtree(cls.dir)


class HttpTest(Fixture):
    def test_api_answers_equal_the_command_line(self):
        s, q = self.server, urllib.parse.quote
        cases = [
            ("/api/games?limit=2", ["games", "--limit", "2"]),
            ("/api/games?player=ann&sort=date&desc=1", ["games", "--player", "ann", "--sort", "date", "--desc", "--limit", "50"]),
            ("/api/games?event=winter&result=0-1", ["games", "--event", "winter", "--result", "0-1", "--limit", "50"]),
            ("/api/games?offset=1&limit=2&from=2020", ["games", "--offset", "1", "--limit", "2", "--from", "2020"]),
            ("/api/search?moves=c2-d3", ["search", "--moves", "c2-d3", "--limit", "50"]),
            ("/api/search?position=" + q(AFTER_C2_D3), ["search", "--position", AFTER_C2_D3, "--limit", "50"]),
            ("/api/search?pattern=" + q("d3=R b"), ["search", "--pattern", "d3=R b", "--limit", "50"]),
            ("/api/tree", ["tree"]),
            ("/api/tree?moves=" + q("c2-d3 f7-e6"), ["tree", "--moves", "c2-d3 f7-e6"]),
        ]
        for path, args in cases:
            with self.subTest(path=path):
                status, api = s.get_json(path)
                self.assertEqual(status, 200, api)
                self.assertEqual(api, cli_json(self.db, *args))
        self.assertEqual(s.get_json("/api/search?moves=c2-d3")[1]["total"], 2)
        status, game = s.get_json("/api/games/2")
        self.assertEqual(status, 200)
        self.assertIsNone(game["judgement"])
        self.assertEqual(game, cli_json(self.db, "show", "2"))
        status, game = s.get_json("/api/games/1")
        judgement = game["judgement"]
        self.assertEqual(game, cli_json(self.db, "show", "1"))
        self.assertEqual(game["moves"], ["c2-d3", "f7-e6", "g2-f3", "b7-a6", "b2-c2"])
        # The stored judgement: one entry per ply, the played moves those of the game.
        self.assertEqual([p["played"] for p in judgement["plies"]], game["moves"])
        self.assertIn("depth", judgement["settings"])
        self.assertTrue(all(p["verdict"] in ("best", "inaccuracy", "mistake", "blunder", "missed-win", "allows-loss", "book")
                            for p in judgement["plies"]), judgement)

    def test_keyset_paging_after_a_game(self):
        s = self.server
        total = s.total()
        by_offset = s.get_json("/api/games?offset=2&limit=2")[1]
        status, by_id = s.get_json("/api/games?after=2&limit=2")
        self.assertEqual(status, 200, by_id)
        self.assertEqual(by_id["games"], by_offset["games"])
        self.assertEqual((by_id["after"], by_id["total"]), (2, total - 2))  # the games after game 2
        down = s.get_json("/api/games?after=3&desc=1")[1]
        self.assertEqual([g["id"] for g in down["games"]], [2, 1])
        self.assertEqual(s.get_json("/api/games?after=1&player=ann")[1]["games"][0]["id"], 3)  # with a filter
        for query, message in [("after=x", "after must be a game id"), ("after=0", "after must be a game id"),
                               ("after=2&sort=date", "after pages the id order only"),
                               ("after=2&offset=4", "give after or offset (page), not both")]:
            status, e = s.get_json("/api/games?" + query)
            self.assertEqual(status, 400, query)
            self.assertIn(message, e["error"]["message"])
        # The page's next link goes on after the last game shown.
        page = s.page("/?limit=2")
        self.assertIn('id="next" href="/?limit=2&amp;after=2"', page)
        page = s.page("/?limit=2&after=2")
        self.assertIn("of the %d after game 2" % (total - 2), page)
        self.assertIn('href="/game/3"', page)
        self.assertNotIn('href="/game/2"', page)
        # before=ID: the page just before a game (the previous link), keyset both ways.
        status, back = s.get_json("/api/games?before=4&limit=2")
        self.assertEqual(status, 200, back)
        self.assertEqual(([g["id"] for g in back["games"]], back["before"], back["total"]), ([2, 3], 4, 3))
        self.assertEqual([g["id"] for g in s.get_json("/api/games?before=2&desc=1&limit=2")[1]["games"]], [4, 3])
        self.assertEqual(s.get_json("/api/games?before=1")[1]["games"], [])
        for query, message in [("before=x", "before must be a game id"), ("before=2&after=1", "give after or before, not both"),
                               ("before=2&page=2", "give before or offset (page), not both")]:
            status, e = s.get_json("/api/games?" + query)
            self.assertEqual(status, 400, query)
            self.assertIn(message, e["error"]["message"])
        self.assertIn('id="prev" href="/?limit=2&amp;before=3"', page)  # the page of games 3-4
        page = s.page("/?limit=2&before=3")
        self.assertIn("The last 2 of the 2 before game 3", page)
        self.assertIn('id="next" href="/?limit=2&amp;after=2"', page)
        self.assertNotIn('id="prev"', page)  # nothing before game 1
        # Offset pages read on from the nearest page already read: the command line's games all the same.
        for off, desc in [(3, ""), (1, ""), (2, ""), (3, ""), (4, ""), (2, "1"), (3, "1"), (1, "1")]:
            api = s.get_json("/api/games?limit=1&offset=%d&desc=%s" % (off, desc))[1]
            self.assertEqual(api, cli_json(self.db, "games", "--limit", "1", "--offset", str(off), *(["--desc"] if desc else [])))
        page = s.page("/?limit=1&offset=2")  # an offset page pages by keyset too
        self.assertIn('id="prev" href="/?limit=1&amp;before=3"', page)

    def test_bad_query_values_get_clear_json_errors(self):
        for path, words in [
            ("/api/games?result=bogus", "result must be 1-0"),
            ("/api/games?limit=-1", "limit must be a whole number"),
            ("/api/games?limit=abc", "limit must be a whole number"),
            ("/api/games?from=2020.13.45", "from must be a date"),
            ("/api/games?game=chess", "game must be"),
            ("/api/games?sort=height", "sort must be"),
            ("/api/search?position=" + urllib.parse.quote("rsrs/8 w"), "position: bad position at character"),
            ("/api/search?pattern=" + urllib.parse.quote("z9=Q"), "bad pattern at character"),
            ("/api/search?moves=c2-d3&pattern=w", "not both"),
            ("/api/tree?moves=" + urllib.parse.quote("c2-d3 z9-z8"), "move 2 'z9-z8'"),
            ("/api/report/1?format=pdf", "format must be html, md or gpn"),
        ]:
            with self.subTest(path=path):
                status, answer = self.server.get_json(path)
                self.assertEqual(status, 400)
                self.assertEqual(answer["error"]["code"], "bad-query")
                self.assertIn(words, answer["error"]["message"])
        for path in ["/api/games/99999", "/api/games/abc", "/api/games/0", "/api/nothing", "/api/report/99999"]:
            with self.subTest(path=path):
                status, answer = self.server.get_json(path)
                self.assertEqual(status, 404)
                self.assertIn("message", answer["error"])

    def test_malformed_requests_are_refused_and_the_server_goes_on(self):
        for data in [b"GARBAGE\r\n\r\n", b"GET\r\n\r\n", b"\x00\x01\x02\xff" * 100 + b"\r\n\r\n",
                     b"GET /api/games HTTP/1.1\r\nHost: localhost:%d\r\nContent-Length: -5\r\n\r\n" % self.server.port,
                     b"GET /api/games HTTP/9.9\r\nHost\r\n\r\n"]:
            with self.subTest(data=data[:30]):
                answer = self.server.raw(data)
                self.assertNotIn(b"200 OK", answer)
                self.assertEqual(self.server.get_json("/api/games")[0], 200)
        for length in [b"-5", b"12abc", b"1e3"]:  # refused by the server itself, every time
            answer = self.server.raw(b"GET /api/games HTTP/1.1\r\nHost: localhost:%d\r\nContent-Length: %s\r\n\r\n"
                                     % (self.server.port, length))
            self.assertIn(b" 400 ", answer.split(b"\r\n")[0], length)
            self.assertIn(b'"bad-request"', answer)
        status, _, _ = self.server.request("DELETE", "/api/games/1")
        self.assertEqual(status, 405)
        status, _, _ = self.server.request("PUT", "/api/import", body=CLUB)
        self.assertEqual(status, 405)

    def test_path_traversal_names_no_file(self):
        for path in [b"/../../../../etc/passwd", b"/%2e%2e/%2e%2e/etc/passwd", b"/api/report/../../etc/passwd",
                     b"/game/..%2f..%2f..%2fetc%2fpasswd", b"/api/games/1/../../../etc/passwd", b"/static/../club.db",
                     b"/club.db", b"/api/report/1%2f..%2f..%2fclub.db", b"//etc/passwd"]:
            with self.subTest(path=path):
                answer = self.server.raw(b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n"
                                         % self.server.port)
                # Refused (400, 404) or not parsed at all (the connection closed without an answer).
                self.assertRegex(answer.split(b"\r\n")[0], rb"^(HTTP/1.1 (400|404) .*)?$")
                self.assertNotIn(b"root:", answer)
                self.assertNotIn(b"SQLite format", answer)

    def test_foreign_host_header_is_refused(self):
        port = self.server.port
        for host in ["evil.example:%d" % port, "evil.example", "127.0.0.1:%d" % (port + 1), "localhost.evil.example:%d" % port, ""]:
            with self.subTest(host=host):
                status, _, data = self.server.request("GET", "/api/games", headers={"Host": host})
                self.assertEqual(status, 403)
                self.assertEqual(json.loads(data)["error"]["code"], "bad-host")
        for host in ["localhost:%d" % port, "127.0.0.1:%d" % port, "LOCALHOST:%d" % port]:
            with self.subTest(host=host):
                self.assertEqual(self.server.request("GET", "/api/games", headers={"Host": host})[0], 200)

    def test_post_needs_the_session_token(self):
        before = self.server.total()
        for headers in [{}, {"X-Gounki-Token": "0" * 32}, {"X-Gounki-Token": ""}, {"Cookie": "gounki_token=" + self.server.token()}]:
            with self.subTest(headers=headers):
                status, _, data = self.server.request("POST", "/api/import", body=BROKEN, headers=headers)
                self.assertEqual(status, 403)
                self.assertEqual(json.loads(data)["error"]["code"], "bad-token")
        self.assertEqual(self.server.total(), before)

    def test_import_reports_diagnostics_at_their_line(self):
        before = self.server.total()
        status, _, data = self.server.request("POST", "/api/import?name=broken.gpn", body=BROKEN,
                                              headers={"X-Gounki-Token": self.server.token()})
        self.assertEqual(status, 200, data)
        answer = json.loads(data)
        self.assertEqual(answer["summary"]["stored"], 1)
        self.assertEqual(answer["summary"]["broken"], 1)
        [d] = answer["diagnostics"]
        self.assertEqual((d["line"], d["code"], d["file"]), (7, "illegal-move", "broken.gpn"))
        self.assertEqual(answer["games"][0]["status"], "partial")
        self.assertEqual(self.server.total(), before + 1)
        # The same upload again: already imported, nothing stored twice.
        again = json.loads(self.server.request("POST", "/api/import?name=broken.gpn", body=BROKEN,
                                               headers={"X-Gounki-Token": self.server.token()})[2])
        self.assertEqual(again["summary"]["stored"], 0)
        self.assertEqual(self.server.total(), before + 1)

    def test_huge_upload_is_refused_and_nothing_stored(self):
        before = self.server.total()
        token = self.server.token().encode()
        head = b"POST /api/import HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Gounki-Token: %s\r\n" % (self.server.port, token)
        # A declared length beyond 64 MiB: refused at once.
        answer = self.server.raw(head + b"Content-Length: %d\r\n\r\n" % (100 << 20) + CLUB.encode())
        self.assertIn(b" 413 ", answer.split(b"\r\n")[0])
        self.assertIn(b'"too-large"', answer)
        # A chunked body: refused (Qt HTTP Server 6.4 could hand it on before it is whole).
        answer = self.server.raw(head + b"Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n" % (len(BROKEN), BROKEN.encode()))
        self.assertIn(b" 411 ", answer.split(b"\r\n")[0])
        # A real body of 65 MiB of records, streamed: refused, nothing of it stored.
        body = (CLUB.encode() * ((65 << 20) // len(CLUB) + 1))[: 65 << 20]
        s = self.server.raw(head + b"Content-Length: %d\r\n\r\n" % len(body), read=False)
        answer = b""
        try:
            for at in range(0, len(body), 1 << 20):
                s.sendall(body[at:at + (1 << 20)])
            answer = s.recv(4096)
        except OSError:  # the server closed the connection (reset, broken pipe) while the body was still coming
            pass
        s.close()
        self.assertNotIn(b" 200 ", answer)
        self.assertEqual(self.server.total(), before)

    def test_client_leaving_mid_upload_stores_nothing(self):
        before = self.server.total()
        body = CLUB.encode()
        s = self.server.raw(b"POST /api/import HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Gounki-Token: %s\r\nContent-Length: %d\r\n\r\n"
                            % (self.server.port, self.server.token().encode(), len(body)) + body[: len(body) // 2], read=False)
        time.sleep(0.2)
        s.close()
        time.sleep(0.2)
        self.assertEqual(self.server.total(), before)

    def test_slow_client_does_not_stall_the_others(self):
        slow = self.server.raw(b"GET /api/games HTTP/1.1\r\nHost: 127.0", read=False)  # and then nothing
        try:
            for _ in range(5):
                self.assertEqual(self.server.get_json("/api/games")[0], 200)
        finally:
            slow.close()

    def test_stone_games_name_black_first(self):
        """Stone games' tables, titles and results read Black first and B+/W+; Gounki's keep White first and 1-0."""
        db = imported(self.dir, "stones", '[Game "Gomoku"]\n[Black "Bea"]\n[White "Wim"]\n[Result "0-1"]\n\n'
                                          "1. h8 a1 2. i8 a2 3. j8 a3 4. k8 a4 5. l8 0-1\n")
        server = Server(db, "--read-only")
        try:
            page = server.page("/")
            self.assertIn("<th>Game</th><th>Black</th><th>White</th>", page)
            self.assertIn(">Bea</a></td><td>Wim</td>", page)
            self.assertIn("<td>B+</td>", page)
            game = server.page("/game/1")
            self.assertIn("<h1>Bea - Wim</h1>", game)
            self.assertIn("B+ (", game)
            start = urllib.parse.quote("Gomoku 15 " + "/".join(["15"] * 15) + " b")
            found = server.page("/search?position=" + start + "&moves=h8")
            self.assertIn("<th>Id</th><th>Black</th><th>White</th>", found)
            self.assertIn("<td>Bea</td><td>Wim</td>", found)
            tree = server.page("/explorer?game=gomoku")
            self.assertIn("<th>Black</th><th>Draw</th><th>White</th>", tree)
            self.assertIn("<td>1</td><td>100%</td><td>0%</td><td>0%</td>", tree)  # Black won the one game
            self.assertIn("Bea - Wim", tree)
            md = server.page("/api/report/1?format=md")
            self.assertIn(": Bea \u2013 Wim, B+", md)
            self.assertNotIn("0-1", md)
        finally:
            server.stop()
        page = self.server.page("/")  # the Gounki club's list
        self.assertIn("<th>Game</th><th>White</th><th>Black</th>", page)
        self.assertIn("<td>1-0</td>", page)
        self.assertNotIn("B+", page)

    def test_mixed_list_names_players_neutrally(self):
        """A list of games with different first players heads its columns First and Second, each name
        with its colour, each result as its game writes it; the API says the same as `games --json`."""
        db = imported(self.dir, "mixed", '[Game "Gounki"]\n[White "Kim"]\n[Black "Bob"]\n[Result "1-0"]\n\n1. c2-d3 f7-e6 1-0\n\n'
                                         '[Game "Gomoku"]\n[Black "Bea"]\n[White "Zed"]\n[Result "0-1"]\n\n'
                                         "1. h8 a1 2. i8 a2 3. j8 a3 4. k8 a4 5. l8 0-1\n")
        server = Server(db, "--read-only")
        try:
            page = server.page("/")
            self.assertIn("<th>Game</th><th>First</th><th>Second</th>", page)
            self.assertIn(">Kim (W)</a></td><td>Bob (B)</td>", page)
            self.assertIn(">Bea (B)</a></td><td>Zed (W)</td>", page)
            self.assertIn("<td>1-0</td>", page)
            self.assertIn("<td>B+</td>", page)
            self.assertNotIn("<th>White</th>", page)
            by_player = server.page("/?sort=player")
            self.assertLess(by_player.index("Bea (B)"), by_player.index("Kim (W)"))  # by the first player: Bea, Kim
            status, api = server.get_json("/api/games")
            self.assertEqual(status, 200)
            cli = json.loads(subprocess.run([GOUNKI, "games", "--db", db, "--json"], check=True, capture_output=True,
                                            text=True).stdout)
            self.assertEqual(api["games"], cli["games"])
            gomoku = [g for g in api["games"] if g["game"] == "Gomoku"][0]
            self.assertEqual((gomoku["black"], gomoku["first_player"], gomoku["result"], gomoku["result_shown"]),
                             ("Bea", "black", "0-1", "B+"))
            start = urllib.parse.quote("Gomoku 15 " + "/".join(["15"] * 15) + " b")
            found = server.page("/search?position=" + start)
            self.assertIn("<th>Id</th><th>Black</th><th>White</th>", found)  # one kind: its colours
        finally:
            server.stop()

    def test_report_download(self):
        status, headers, data = self.server.request("GET", "/api/report/1?format=md")
        self.assertEqual(status, 200)
        self.assertIn('attachment; filename="game-1.md"', headers["content-disposition"])
        self.assertIn("Ann Smith", data.decode())
        status, headers, data = self.server.request("GET", "/api/report/1?format=gpn")
        self.assertIn('[White "Ann Smith"]', data.decode())
        status, headers, data = self.server.request("GET", "/api/report/1?format=html&inline=1")
        self.assertTrue(headers["content-type"].startswith("text/html"))
        self.assertNotIn("content-disposition", headers)

    def test_read_only_refuses_every_write(self):
        ro = Server(self.db, "--read-only")
        try:
            before = ro.total()
            status, _, data = ro.request("POST", "/api/import", body=CLUB, headers={"X-Gounki-Token": ro.token()})
            self.assertEqual(status, 403)
            self.assertEqual(json.loads(data)["error"]["code"], "read-only")
            self.assertEqual(ro.total(), before)
            self.assertIn("read-only", ro.page("/import"))
        finally:
            self.assertEqual(ro.stop(), 0)

    def test_sigterm_during_an_import_lets_it_finish_whole(self):
        server = Server(self.db)
        before = server.total()
        # 1,200 games, about 220 KB: 900 new (Bob's and Eve's names differ each time), 300 duplicates of Cy - Ann Smith.
        body = "".join(CLUB.replace('"Bob"', '"Bob %d"' % i).replace('"Eve"', '"Eve %d"' % i) for i in range(300)).encode()
        s = server.raw(b"POST /api/import?name=many.gpn HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Gounki-Token: %s\r\n"
                       b"Content-Length: %d\r\nConnection: close\r\n\r\n" % (server.port, server.token().encode(), len(body)) + body,
                       read=False)
        time.sleep(0.3)  # the body is in; the import runs
        server.proc.send_signal(signal.SIGTERM)
        s.settimeout(300)
        answer = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            answer += chunk
        s.close()
        self.assertEqual(server.proc.wait(timeout=120), 0)
        server.proc.stdout.close()
        server.proc.stderr.close()
        self.assertIn(b" 200 ", answer.split(b"\r\n")[0])
        summary = json.loads(answer.split(b"\r\n\r\n", 1)[1])["summary"]
        stored = summary["stored"]
        self.assertEqual((summary["read"], stored, summary["duplicates"]), (1200, 900, 300))
        self.assertEqual(cli_json(self.db, "games", "--limit", "1")["total"], before + stored)

    def test_other_hosts_are_warned_about_and_bad_ones_refused(self):
        bad = subprocess.run([GOUNKI, "serve", "--db", self.db, "--host", "not-an-address", "--port", "0"], capture_output=True,
                             text=True, timeout=30)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("--host must be an IP address", bad.stderr)
        wide = subprocess.Popen([GOUNKI, "serve", "--db", self.db, "--host", "0.0.0.0", "--port", "0", "--read-only"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            self.assertTrue(wide.stdout.readline().startswith("listening on http://0.0.0.0:"))
        finally:
            wide.send_signal(signal.SIGINT)
            self.assertEqual(wide.wait(timeout=30), 0)
            self.assertIn("warning: listening on 0.0.0.0", wide.stderr.read())
            wide.stdout.close()
            wide.stderr.close()



def refuse_judgements(db):
    """A trigger that makes storing a judgement fail, as a full disk or a broken database would."""
    import sqlite3
    c = sqlite3.connect(db)
    c.execute("CREATE TRIGGER refuse_judgements BEFORE INSERT ON analyses "
              "BEGIN SELECT RAISE(ABORT, 'judgements refused by the test trigger'); END")
    c.commit()
    c.close()


def copy_db(source, target):
    """A consistent copy of a database, even one a server has open (SQLite's backup)."""
    import sqlite3
    src, dst = sqlite3.connect(source), sqlite3.connect(target)
    src.backup(dst)
    src.close()
    dst.close()


def without_created(judgement):
    return {k: v for k, v in judgement.items() if k != "created"}


class ThreadsAndJudgingTest(unittest.TestCase):
    """Several request threads answering many clients at once, a write among the reads; judging a game
    in the background through the API."""

    @classmethod
    def setUpClass(cls):
        cls.dir, cls.db = club_database("gounki-serve-threads-")
        cls.twin = os.path.join(cls.dir, "twin.db")  # the same games, judged by `gounki analyze` to compare
        copy_db(cls.db, cls.twin)
        cls.failing = os.path.join(cls.dir, "failing.db")
        copy_db(cls.db, cls.failing)
        refuse_judgements(cls.failing)
        cls.server = Server(cls.db, "--threads", "4")

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        shutil.rmtree(cls.dir)

    def test_bad_thread_counts_are_refused(self):
        for n in ["0", "257", "x"]:
            bad = subprocess.run([GOUNKI, "serve", "--db", self.db, "--port", "0", "--threads", n], capture_output=True,
                                 text=True, timeout=30)
            self.assertEqual(bad.returncode, 2, n)
            self.assertIn("--threads takes a whole number from 1 to 256", bad.stderr)

    def test_kept_answers_follow_every_change(self):
        """Trees and counts are kept between requests; an upload, another program's import and a
        deletion each show at once, on every request thread."""
        s = self.server
        q = urllib.parse.quote

        def answers():
            # Each asked more times than there are threads: every thread's connection answers.
            seen = set()
            for _ in range(8):
                tree = s.get_json("/api/tree?moves=" + q("e2-d3"))[1]
                count = s.get_json("/api/games?player=" + q("hal kept"))[1]["total"]
                page = s.page("/explorer?moves=" + q("e2-d3"))
                games = page[page.index('<p id="count">') + len('<p id="count">'):].split(" ")[0]
                seen.add((tree["games"], count, int(games)))
            self.assertEqual(len(seen), 1, seen)
            return seen.pop()

        def pages():
            # Offset pages (read on from pages read before) stay those of the command line.
            for off in range(1, s.total()):
                self.assertEqual(s.get_json("/api/games?limit=1&offset=%d" % off)[1],
                                 cli_json(self.db, "games", "--limit", "1", "--offset", str(off)), off)

        self.assertEqual(answers(), (0, 0, 0))
        pages()
        game = '[Game "Gounki"]\n[White "Hal Kept"]\n[Black "Ivy"]\n[Result "*"]\n\n1. e2-d3 b7-a6 *\n'
        status, _, data = s.request("POST", "/api/import?name=kept.gpn", body=game, headers={"X-Gounki-Token": s.token()})
        self.assertEqual(status, 200, data)
        self.assertEqual(answers(), (1, 1, 1))  # the upload
        pages()
        other = os.path.join(self.dir, "kept.gpn")
        with open(other, "w") as f:
            f.write(game.replace("b7-a6", "b7-c6"))
        subprocess.run([GOUNKI, "import", "--db", self.db, "--quiet", other], check=True)
        self.assertEqual(answers(), (2, 2, 2))  # another program's import
        pages()
        ids = [g["id"] for g in s.get_json("/api/games?player=" + q("hal kept"))[1]["games"]]
        subprocess.run([GOUNKI, "delete", "--db", self.db, "--yes", str(ids[0])], check=True, capture_output=True)
        self.assertEqual(answers(), (1, 1, 1))  # another program's deletion
        pages()

    def test_many_clients_at_once_with_an_import_among_them(self):
        import threading
        s = self.server
        # Answers the import cannot change (it adds Gounki games after the others).
        paths = ["/api/games/1", "/api/games/3", "/api/report/2?format=md", "/api/tree?game=gomoku",
                 "/explorer?game=ninuki", "/game/1", "/search", "/api/games?limit=3"]
        expected = {}
        for p in paths:
            status, _, data = s.request("GET", p)
            self.assertEqual(status, 200, p)
            expected[p] = data if "/api/games?" not in p else json.loads(data)["games"]
        before = s.total()
        # A game whose moves no stored game shares (a game sharing them would get a note).
        body = '[Game "Gounki"]\n[White "Fay"]\n[Black "Gil"]\n[Result "*"]\n\n1. a2-b3 *\n'
        failures, answers, lock = [], [], threading.Lock()

        def reader(k):
            for i in range(6):
                p = paths[(k + i) % len(paths)]
                try:
                    status, _, data = s.request("GET", p)
                    got = data if "/api/games?" not in p else json.loads(data)["games"]
                    ok = status == 200 and got == expected[p]
                except Exception as e:  # noqa: BLE001 - any failure is reported below
                    ok, status = False, repr(e)
                with lock:
                    answers.append(p)
                    if not ok:
                        failures.append((p, status, got if status == 200 else None, expected[p]))

        def writer():
            status, _, data = s.request("POST", "/api/import?name=two.gpn", body=body, headers={"X-Gounki-Token": s.token()})
            with lock:
                answers.append("import")
                if status != 200 or json.loads(data)["summary"]["stored"] != 1:
                    failures.append(("import", status, data[:300]))

        threads = [threading.Thread(target=reader, args=(k,)) for k in range(48)]
        threads.insert(24, threading.Thread(target=writer))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(failures[:1], [])  # the first only: an HTML page is long
        self.assertEqual(len(answers), 48 * 6 + 1)
        self.assertEqual(s.total(), before + 1)

    def poll_judging(self, server, game):
        """GET /api/games/ID/judge until the run ends; every answer seen."""
        seen = []
        for _ in range(3000):
            status, state = server.get_json("/api/games/%d/judge" % game)
            self.assertEqual(status, 200, state)
            seen.append(state)
            if state["state"] in ("done", "failed", "none"):
                return seen
            time.sleep(0.1)
        self.fail("the judging of game %d did not end: %r" % (game, seen[-1]))

    def test_judge_a_game_through_the_api_as_analyze_would(self):
        s = self.server
        token = {"X-Gounki-Token": s.token()}
        self.assertEqual(s.request("POST", "/api/games/2/judge")[0], 403)  # no token
        status, _, data = s.request("POST", "/api/games/99/judge", headers=token)
        self.assertEqual((status, json.loads(data)["error"]["code"]), (404, "no-game"))
        status, state = s.get_json("/api/games/2/judge")
        self.assertEqual((status, state["state"], state["plies"], state["plies_done"]), (200, "none", 4, 0))
        status, _, data = s.request("POST", "/api/games/2/judge", headers=token)
        first = json.loads(data)
        self.assertEqual((status, first["started"]), (202, True), first)
        self.assertIn(first["state"], ("queued", "running"))
        status, _, data = s.request("POST", "/api/games/2/judge", headers=token)  # a second click
        self.assertEqual((status, json.loads(data)["started"]), (200, False))
        seen = self.poll_judging(s, 2)
        order = ["queued", "running", "done"]
        states = [x["state"] for x in seen]
        self.assertEqual(states, sorted(states, key=order.index), states)  # never back to an earlier state
        done = [x["plies_done"] for x in seen]
        self.assertEqual(done, sorted(done))
        self.assertEqual((seen[-1]["state"], seen[-1]["plies"], seen[-1]["plies_done"]), ("done", 4, 4), seen[-1])
        stored = s.get_json("/api/games/2")[1]["judgement"]
        self.assertEqual(stored["settings"], first["settings"])
        # What `gounki analyze 2` stores in a copy of the database, ply for ply.
        subprocess.run([GOUNKI, "analyze", "--db", self.twin, "--quiet", "2"], check=True)
        self.assertEqual(without_created(stored), without_created(cli_json(self.twin, "show", "2")["judgement"]))
        # Judged: asking again starts nothing.
        status, _, data = s.request("POST", "/api/games/2/judge", headers=token)
        self.assertEqual((status, json.loads(data)["state"], json.loads(data)["started"]), (200, "done", False))
        self.assertEqual(s.get_json("/api/games/2")[1]["judgement"]["created"], stored["created"])

    def test_a_judging_that_fails_says_why_and_stores_nothing(self):
        server = Server(self.failing, "--threads", "2")
        try:
            status, _, data = server.request("POST", "/api/games/3/judge", headers={"X-Gounki-Token": server.token()})
            self.assertEqual(status, 202, data)
            last = self.poll_judging(server, 3)[-1]
            self.assertEqual(last["state"], "failed", last)
            self.assertIn("game 3 was not judged", last["error"])
            self.assertIn("judgements refused by the test trigger", last["error"])
            self.assertIsNone(server.get_json("/api/games/3")[1]["judgement"])
        finally:
            self.assertEqual(server.stop(), 0)
        ro = Server(self.failing, "--read-only")
        try:
            status, _, data = ro.request("POST", "/api/games/3/judge", headers={"X-Gounki-Token": ro.token()})
            self.assertEqual((status, json.loads(data)["error"]["code"]), (403, "read-only"))
            self.assertNotIn('id="judge"', ro.page("/game/3"))
        finally:
            self.assertEqual(ro.stop(), 0)


def missing_browser_tools():
    """What the browser tests need and is missing, as 'tool (package)' texts."""
    missing = []
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("selenium for /usr/bin/python3 (python3-selenium)")
    if not shutil.which("chromium"):
        missing.append("chromium (chromium)")
    if not os.path.exists("/usr/bin/chromedriver"):
        missing.append("/usr/bin/chromedriver (chromium-driver)")
    return missing


def png_is_blank(png):
    """True when the PNG's pixels are (nearly) all one value: decodes the IDAT stream (no PIL)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(png):
        length = int.from_bytes(png[pos:pos + 4], "big")
        kind = png[pos + 4:pos + 8]
        if kind == b"IDAT":
            idat += png[pos + 8:pos + 8 + length]
        pos += 12 + length
    pixels = zlib.decompress(idat)
    counts = {}
    for b in pixels[::7]:
        counts[b] = counts.get(b, 0) + 1
    return len(counts) < 16


class BrowserTest(Fixture):
    @classmethod
    def setUpClass(cls):
        missing = missing_browser_tools()
        if missing:
            message = "missing for the browser tests: " + ", ".join(missing) + " (scripts/test.sh installs them)"
            if os.environ.get("GOUNKI_ALLOW_MISSING_TOOLS") == "1":
                raise unittest.SkipTest(message)
            raise AssertionError(message)
        super().setUpClass()
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        cls.downloads = os.path.join(cls.dir, "downloads")
        os.mkdir(cls.downloads)
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium")
        for a in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000"]:
            options.add_argument(a)
        options.add_experimental_option("prefs", {"download.default_directory": cls.downloads,
                                                  "download.prompt_for_download": False})
        cls.browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        cls.browser.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": cls.downloads})
        cls.browser.implicitly_wait(10)

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        super().tearDownClass()

    def by(self, css):
        from selenium.webdriver.common.by import By
        return self.browser.find_element(By.CSS_SELECTOR, css)

    def all(self, css):
        from selenium.webdriver.common.by import By
        return self.browser.find_elements(By.CSS_SELECTOR, css)

    def wait_for(self, check, what, seconds=20):
        end = time.time() + seconds
        from selenium.common.exceptions import WebDriverException
        while time.time() < end:
            try:
                if check():
                    return
            except WebDriverException:  # the page was being replaced
                pass
            time.sleep(0.1)
        self.fail("waited in vain for " + what)

    def test_games_list_filters_and_opens_a_game(self):
        self.browser.get(self.server.url)
        total = self.server.total()
        self.assertEqual(len(self.all("#games tr")) - 1, total)
        self.by("input[name=player]").send_keys("ann smith")
        self.by("#filter").click()
        self.wait_for(lambda: len(self.all("#games tr")) - 1 == 2, "the two games of Ann Smith")
        self.by("a.sort-date").click()
        self.wait_for(lambda: "sort=date" in self.browser.current_url and "2019.12.31" in self.all("#games tr")[1].text,
                      "the games sorted by date, the oldest first")
        self.by("#games tr:nth-child(3) td a").click()
        self.wait_for(lambda: "/game/" in self.browser.current_url, "the game page")
        self.assertIn("Ann Smith", self.by("h1").text)

    def test_viewer_shows_the_report_and_is_not_blank(self):
        self.browser.get(self.server.url + "game/1")
        self.assertIn("Ann Smith - Bob", self.by("h1").text)
        self.assertEqual(len(self.all(".moves a")), 5)
        self.assertTrue(self.all("#judgements"))  # game 1 was judged
        self.assertFalse(self.all("#unjudged"))
        self.browser.switch_to.frame(self.by("iframe#report"))
        self.wait_for(lambda: "Ann Smith" in self.by("body").text, "the report inside the viewer")
        self.browser.switch_to.default_content()
        self.assertFalse(png_is_blank(self.browser.get_screenshot_as_png()))
        # A blank page is seen as blank: the check can fail.
        self.browser.get("data:text/html,<body style='background:white'></body>")
        self.assertTrue(png_is_blank(self.browser.get_screenshot_as_png()))

    def test_set_up_a_position_and_search(self):
        self.browser.get(self.server.url + "search")
        self.by("#piece-erase").click()
        self.by("#sq-c2").click()
        self.by("#piece-R").click()
        self.by("#sq-d3").click()
        from selenium.webdriver.support.ui import Select
        Select(self.by("#side")).select_by_value("b")
        self.assertEqual(self.by("#position").get_attribute("value"), AFTER_C2_D3)
        self.by("#search-position").click()
        self.wait_for(lambda: "position=" in self.browser.current_url and self.all("#results"), "the results")
        self.assertIn("2 games reached this position", self.by("#results").text)
        self.assertEqual(len(self.all("#games tr")) - 1, 2)
        # A pattern with the syntax explained beside the form.
        self.assertIn("Pattern syntax", self.by("details").text)
        self.by("#pattern").send_keys("f3=R")
        self.by("#search-pattern").click()
        self.wait_for(lambda: "matched the pattern" in self.by("#results").text, "the pattern results")

    def test_explorer_two_moves_deep_then_a_game(self):
        self.browser.get(self.server.url + "explorer")
        self.assertIn("games continued from here", self.by("#count").text)
        first = self.all("#tree a.move")[0]
        move1 = first.text
        first.click()
        self.wait_for(lambda: len(self.all("#line a")) == 2, "one move deep")
        second = self.all("#tree a.move")[0]
        move2 = second.text
        second.click()
        self.wait_for(lambda: len(self.all("#line a")) == 3, "two moves deep")
        self.assertEqual([a.text for a in self.all("#line a")], ["start", move1, move2])
        expected = cli_json(self.db, "tree", "--moves", move1 + " " + move2)
        self.assertEqual(self.by("#position-text").text, expected["position"])
        self.assertEqual(len(self.all("#tree a.move")), len(expected["moves"]))
        # Back one move (the line's links), then open a game that went on from there.
        self.all("#line a")[1].click()
        self.wait_for(lambda: len(self.all("#line a")) == 2, "one move deep again")
        self.by("#tree a.game").click()
        self.wait_for(lambda: "/game/" in self.browser.current_url, "the game page")

    def test_upload_a_record_with_an_error_shows_it_at_its_line(self):
        self.browser.get(self.server.url + "import")
        upload = os.path.join(self.dir, "upload.gpn")
        with open(upload, "w") as f:
            f.write(BROKEN.replace("Err", "Uploader"))
        self.by("#file").send_keys(upload)
        self.by("#upload").click()
        self.wait_for(lambda: self.all("#line-7 .diagnostic"), "the diagnostic at line 7")
        self.assertIn("f7-f6 is not a legal move", self.by("#line-7 .diagnostic").text)
        self.assertIn("1. c2-d3 f7-f6 *", self.by("#line-7").text)
        self.assertFalse(self.all("#line-6 .diagnostic"))
        self.assertIn("1 stored", self.by("#summary").text)
        self.assertEqual(self.by("#progress").get_attribute("value"), "100")

    def test_judge_button_shows_progress_then_the_verdicts(self):
        self.browser.get(self.server.url + "game/2")
        self.assertIn("No stored judgement", self.by("#unjudged").text)
        self.by("#judge").click()
        texts = set()

        def judged():
            texts.add(self.by("#judge-progress").text if self.all("#judge-progress") else "")
            return bool(self.all("#judgements"))
        self.wait_for(judged, "the judgement after the judge button", seconds=600)
        self.assertFalse(self.all("#unjudged"))
        self.assertTrue(all(t == "" or t.startswith(("judging: ply ", "waiting", "judged")) for t in texts), texts)
        self.assertIsNotNone(self.server.get_json("/api/games/2")[1]["judgement"])

    def test_judge_button_shows_the_error(self):
        failing = os.path.join(self.dir, "failing.db")
        copy_db(self.db, failing)
        refuse_judgements(failing)
        server = Server(failing)
        try:
            self.browser.get(server.url + "game/4")
            self.by("#judge").click()
            self.wait_for(lambda: self.by("#judge-error").is_displayed(), "the judging's error")
            self.assertIn("judgements refused by the test trigger", self.by("#judge-error").text)
            self.assertFalse(self.by("#judge").get_attribute("disabled"))
            self.assertFalse(self.all("#judgements"))
        finally:
            self.assertEqual(server.stop(), 0)

    def test_download_a_report(self):
        self.browser.get(self.server.url + "game/2")
        self.by("#download-md").click()
        target = os.path.join(self.downloads, "game-2.md")
        self.wait_for(lambda: os.path.exists(target) and os.path.getsize(target) > 0 and
                      not any(n.endswith(".crdownload") for n in os.listdir(self.downloads)), "the downloaded report")
        with open(target) as f:
            self.assertIn("Bob", f.read())


if __name__ == "__main__":
    GOUNKI = sys.argv.pop(1)
    unittest.main(verbosity=2)
