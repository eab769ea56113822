#!/usr/bin/python3
"""HTTP tests of `gounki serve`: bad input, and the API against the command line's --json; several
request threads at once, judging through the API. The browser tests: serve_browser_test.py.

Run: /usr/bin/python3 tests/browser/serve_test.py GOUNKI [-k PATTERN]
"""
import http.client
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import unittest
import urllib.parse
import zipfile

from serve_support import AFTER_C2_D3, BROKEN, CLUB, GOUNKI, Fixture, Server, cli_json, club_database, copy_db, \
    imported, refuse_judgements, without_created


def read_to_end(s):
    """What a raw socket receives until the server closes it; the socket is then closed."""
    answer = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        answer += chunk
    s.close()
    return answer


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
            ("/api/search?opening=Kagetsu", ["search", "--opening", "Kagetsu", "--limit", "50"]),
            ("/api/tree?game=renju&moves=" + q("h8 h9 i9"), ["tree", "--game", "renju", "--moves", "h8 h9 i9"]),
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

    def test_renju_openings_on_the_search_page_and_the_explorer(self):
        s = self.server
        form = s.page("/search")
        self.assertIn('<select name="opening" id="opening">', form)
        choices = form[form.index('<select name="opening"'):]
        self.assertEqual(choices[:choices.index("</select>")].count("<option"), 26)
        self.assertIn('<option value="4D">Kagetsu (4D) 花月</option>', form)
        found = s.page("/search?opening=shougetsu")
        self.assertIn('<h2 id="results">0 games opened Shogetsu (8D)</h2>', found)
        self.assertIn('<option value="8D" selected>', found)
        self.assertIn("names no Renju opening", s.page("/search?opening=nothing"))
        self.assertIn('<p id="opening">Opening Kagetsu (4D)</p>', s.page("/explorer?game=renju&moves=" + urllib.parse.quote("h8 g8 g7")))
        self.assertNotIn('id="opening"', s.page("/explorer?game=renju&moves=" + urllib.parse.quote("h8 g8 k8")))

    def test_turns_and_mirror_images_taken_together(self):
        # From h8, i9 twice, g7 once (the same move turned), h9 once (White beside Black's stone).
        renju = "".join('[Game "Renju"]\n[Result "*"]\n\n1. h8 %s 2. %s *\n\n' % m
                        for m in [("i9", "a1"), ("i9", "b1"), ("g7", "a1"), ("h9", "a1")])
        folder = tempfile.mkdtemp(prefix="gounki-serve-symmetric-")
        try:
            db = imported(folder, "renju", renju)
            server = Server(db)
            try:
                q = urllib.parse.quote
                for path, args in [
                    ("/api/tree?game=renju&moves=h8&symmetric=1", ["tree", "--game", "renju", "--moves", "h8", "--symmetric"]),
                    ("/api/search?position=renju&moves=" + q("h8 g7") + "&symmetric=1",
                     ["search", "--position", "renju", "--moves", "h8 g7", "--symmetric", "--limit", "50"]),
                ]:
                    with self.subTest(path=path):
                        status, api = server.get_json(path)
                        self.assertEqual(status, 200, api)
                        self.assertEqual(api, cli_json(db, *args))
                tree = server.get_json("/api/tree?game=renju&moves=h8&symmetric=1")[1]
                self.assertEqual([(m["move"], m["games"]) for m in tree["moves"]], [("i9", 3), ("h9", 1)])
                self.assertTrue(tree["symmetric"])
                # A bare name is on, as for every yes-or-no value (?desc).
                self.assertEqual(server.get_json("/api/tree?game=renju&moves=h8&symmetric")[1], tree)
                self.assertEqual(server.get_json("/api/search?position=renju&moves=" + q("h8 g7") + "&symmetric")[1]["total"], 3)
                self.assertEqual(server.get_json("/api/search?position=renju&moves=" + q("h8 g7"))[1]["total"], 1)
                # The explorer: a link takes the images together, and its moves keep them together.
                plain = server.page("/explorer?game=renju&moves=h8")
                self.assertIn('<a id="symmetric-toggle" href="/explorer?game=Renju&amp;symmetric=1&amp;moves=h8">', plain)
                merged = server.page("/explorer?game=Renju&symmetric=1&moves=h8")
                self.assertIn("4 games continued from here or from a turn or mirror image of it.", merged)
                self.assertIn('href="/explorer?game=Renju&amp;symmetric=1&amp;moves=h8%20i9">i9</a>', merged)
                self.assertIn('<a id="symmetric-toggle" href="/explorer?game=Renju&amp;moves=h8">This position alone</a>', merged)
                self.assertNotIn("symmetric-toggle", server.page("/explorer"))  # Gounki: no images
                # The search page: the box stays ticked with the results.
                found = server.page("/search?position=renju&moves=" + q("h8 g7") + "&symmetric=1")
                self.assertIn("3 games reached this position or a turn or mirror image of it", found)
                self.assertIn('name="symmetric" value="1" id="symmetric" checked', found)
                turned = server.page("/search?pattern=" + q("Renju h8=x g7=o") + "&symmetric=1")
                self.assertIn("3 games matched the pattern or a turn or mirror image of it", turned)
                self.assertIn('id="pattern-symmetric" checked', turned)
                self.assertEqual(server.get_json("/api/search?pattern=" + q("Renju h8=x g7=o") + "&symmetric=1")[1],
                                 cli_json(db, "search", "--pattern", "Renju h8=x g7=o", "--symmetric", "--limit", "50"))
                for path, words in [("/api/tree?symmetric=1", "symmetric is for the stone games"),
                                    ("/api/search?pattern=w&symmetric=1", "symmetric is for the stone games"),
                                    ("/api/search?white=ann&symmetric=1", "symmetric goes with a position, a pattern or an opening"),
                                    ("/api/tree?game=renju&symmetric=maybe", "symmetric")]:
                    with self.subTest(path=path):
                        status, answer = server.get_json(path)
                        self.assertEqual(status, 400)
                        self.assertIn(words, answer["error"]["message"])
                self.assertIn("symmetric is for the stone games", server.page("/explorer?symmetric=1"))
            finally:
                server.stop()
        finally:
            shutil.rmtree(folder)

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
            ("/api/search?moves=c2-d3&pattern=w", "give one of position (or moves), pattern and opening"),
            ("/api/search?opening=Kagetsu2", "opening: 'Kagetsu2' names no Renju opening"),
            ("/api/search?opening=" + "x" * 5000, "opening: '" + "x" * 40 + "...' names no Renju opening"),
            ("/api/search?opening=4D&game=gomoku", "'4D' is a Renju opening but the games asked for are Gomoku's"),
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
        for method, path, allowed in [("DELETE", "/api/games/1", "GET, HEAD"), ("PUT", "/api/import", "POST"),
                                      ("GET", "/api/import", "POST"), ("DELETE", "/api/games/1/judge", "GET, HEAD, POST")]:
            with self.subTest(method=method, path=path):
                status, headers, _ = self.server.request(method, path, body=CLUB if method == "PUT" else None)
                self.assertEqual((status, headers.get("allow")), (405, allowed))
        status, headers, _ = self.server.request("POST", "/api/games", headers={"X-Gounki-Token": self.server.token()})
        self.assertEqual((status, headers.get("allow")), (405, "GET, HEAD"))

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

    def test_archive_upload_is_read_member_by_member_and_a_bomb_stops_at_the_limit(self):
        packed = io.BytesIO()
        with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("club/zipped.gpn", BROKEN.replace('"Err"', '"Zipper"'))  # not a duplicate of other tests' uploads
            z.writestr("club/results.txt", "Err 1 point\n")
        before = self.server.total()
        status, _, data = self.server.request("POST", "/api/import?name=club.zip", body=packed.getvalue(),
                                              headers={"X-Gounki-Token": self.server.token()})
        self.assertEqual(status, 200, data)
        answer = json.loads(data)
        self.assertEqual(answer["summary"]["stored"], 1)
        [d] = answer["diagnostics"]
        self.assertEqual((d["file"], d["line"], d["code"]), ("club.zip/club/zipped.gpn", 7, "illegal-move"))
        self.assertEqual(self.server.total(), before + 1)
        # 40 MiB of zeros in 40 KB, then a game: with a 1 MiB upload limit, unpacking stops at 16 MiB.
        bomb = io.BytesIO()
        with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("zeros.gpn", bytes(40 << 20))
            z.writestr("after.gpn", BROKEN.replace('"Err"', '"After the bomb"'))
        small = Server(self.db, "--max-upload", "1")
        try:
            before = small.total()
            status, _, data = small.request("POST", "/api/import?name=bomb.zip", body=bomb.getvalue(),
                                            headers={"X-Gounki-Token": small.token()})
            self.assertEqual(status, 422, data)
            answer = json.loads(data)
            codes = [(d["file"], d["code"]) for d in answer["diagnostics"]]
            self.assertEqual(codes, [("bomb.zip/zeros.gpn", "binary-file"), ("bomb.zip", "io-error")])
            self.assertIn("more than 16 MiB unpacked", answer["diagnostics"][1]["message"])
            self.assertTrue(answer["summary"]["io_errors"])
            self.assertEqual(answer["error"]["code"], "io-error")
            self.assertEqual(small.total(), before)
        finally:
            self.assertEqual(small.stop(), 0)

    def test_an_upload_not_read_whole_stores_nothing(self):
        """An archive whose second member passes the unpacking limit: the games of the first are not
        stored either (one transaction), and the answer says so with 422 and the diagnostics."""
        packed = io.BytesIO()
        with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("a.gpn", BROKEN.replace('"Err"', '"Before the limit"'))
            z.writestr("b.gpn", b"\n" * (20 << 20))
            z.writestr("c.gpn", BROKEN.replace('"Err"', '"After the limit"'))
        own = os.path.join(self.dir, "half.db")
        copy_db(self.db, own)
        small = Server(own, "--max-upload", "1")
        try:
            before = small.total()
            status, _, data = small.request("POST", "/api/import?name=half.zip", body=packed.getvalue(),
                                            headers={"X-Gounki-Token": small.token()})
            self.assertEqual(status, 422, data)
            answer = json.loads(data)
            self.assertEqual(answer["error"]["code"], "io-error")
            self.assertIn("nothing of it was stored", answer["error"]["message"])
            self.assertTrue(answer["summary"]["io_errors"])
            self.assertTrue(answer["summary"]["rolled_back"])
            self.assertIn(("half.zip", "io-error"), [(d["file"], d["code"]) for d in answer["diagnostics"]])
            self.assertEqual(small.total(), before)
            self.assertEqual(small.get_json("/api/games?player=" + urllib.parse.quote("before the limit"))[1]["total"], 0)
        finally:
            self.assertEqual(small.stop(), 0)
        # The command line stores what it could read, as before.
        archive = os.path.join(self.dir, "half.zip")
        with open(archive, "wb") as f:
            f.write(packed.getvalue())
        subprocess.run([GOUNKI, "import", "--db", own, "--quiet", archive], capture_output=True)
        self.assertEqual(cli_json(own, "games", "--player", "before the limit")["total"], 1)

    def test_an_upload_of_many_broken_games_answers_the_first_thousand_and_counts_the_rest(self):
        body = "".join(BROKEN.replace('"Err"', '"Many %d"' % i) for i in range(1030)).encode()
        own = os.path.join(self.dir, "many-broken.db")  # a copy: the other tests' counts stay as they are
        copy_db(self.db, own)
        server = Server(own)
        try:
            status, _, data = server.request("POST", "/api/import?name=many-broken.gpn", body=body,
                                             headers={"X-Gounki-Token": server.token()})
        finally:
            self.assertEqual(server.stop(), 0)
        self.assertEqual(status, 200, data[:200])
        answer = json.loads(data)
        self.assertEqual(answer["summary"]["stored"], 1030)
        self.assertEqual(len(answer["diagnostics"]), 1000)
        self.assertEqual(answer["summary"]["diagnostics_left_out"], 30)
        self.assertEqual(len(answer["games"]), 1000)
        self.assertEqual(answer["summary"]["games_left_out"], 30)
        self.assertEqual(answer["diagnostics"][-1]["line"], 7 * 1000)  # the 1,000th game's, 7 lines each

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

    def test_headers_in_pieces_are_checked_whole(self):
        """The size and chunked checks see the header block however many pieces it comes in."""
        before = self.server.total()
        head = b"POST /api/import?name=pieces.gpn HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Gounki-Token: %s\r\n" % (
            self.server.port, self.server.token().encode())
        body = BROKEN.replace('"Err"', '"In pieces"').encode()
        for rest, status in [(b"Content-Length: %d\r\n\r\n" % (100 << 20) + body, b" 413 "),
                             (b"Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n" % (len(body), body), b" 411 ")]:
            with self.subTest(status=status):
                s = self.server.raw(head, read=False)
                time.sleep(0.3)
                s.sendall(rest)
                s.shutdown(socket.SHUT_WR)
                answer = b""
                try:
                    while True:
                        chunk = s.recv(65536)
                        if not chunk:
                            break
                        answer += chunk
                except ConnectionResetError:
                    pass
                s.close()
                self.assertIn(status, answer.split(b"\r\n")[0], answer[:300])
        self.assertEqual(self.server.total(), before)

    def test_oversized_header_blocks_get_431(self):
        host = b"Host: 127.0.0.1:%d\r\n" % self.server.port
        for headers in [b"X-Long: " + b"a" * (1 << 20) + b"\r\n", b"".join(b"X-H%d: v\r\n" % i for i in range(20000))]:
            with self.subTest(size=len(headers)):
                answer = self.server.raw(b"GET /api/games HTTP/1.1\r\n" + host + headers + b"\r\n")
                self.assertIn(b" 431 ", answer.split(b"\r\n")[0], answer[:300])
                self.assertIn(b'"header-too-large"', answer)
        self.assertEqual(self.server.get_json("/api/games")[0], 200)

    def test_upload_names_are_labels_never_resolved(self):
        token = {"X-Gounki-Token": self.server.token()}
        for i, name in enumerate(["/proc/self/exe", "../../../../etc/passwd", "club.gpn"]):
            with self.subTest(name=name):
                body = BROKEN.replace('"Err"', '"Label %d"' % i)
                status, _, data = self.server.request("POST", "/api/import?name=" + urllib.parse.quote(name), body=body,
                                                      headers=token)
                self.assertEqual(status, 200, data)
                game = json.loads(data)["games"][0]
                self.assertEqual(game["file"], name)
                self.assertEqual(self.server.get_json("/api/games/%d" % game["id"])[1]["source"]["file"], name)

    def test_connection_close_and_http_1_0_close_after_the_answer(self):
        host = b"Host: 127.0.0.1:%d\r\n" % self.server.port
        for request in [b"GET /api/games HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n",
                        b"GET /api/games HTTP/1.0\r\n" + host + b"\r\n"]:
            with self.subTest(request=request[:30]):
                s = self.server.raw(request, read=False)
                s.settimeout(10)  # the idle timeout is 30 s: the answer must not wait for it
                answer = read_to_end(s)
                head, body = answer.split(b"\r\n\r\n", 1)
                self.assertIn(b" 200 ", head.split(b"\r\n")[0])
                self.assertIn(b"connection: close", head.lower())
                self.assertEqual(json.loads(body)["total"], self.server.total())
        # HTTP/1.0 with keep-alive, and HTTP/1.1: the connection stays open for another request.
        c = http.client.HTTPConnection(self.server.host, self.server.port, timeout=10)
        for _ in range(2):
            c.request("GET", "/api/games")
            r = c.getresponse()
            self.assertEqual(r.status, 200)
            self.assertIsNone(r.getheader("Connection"))
            r.read()
        c.close()

    def test_yes_or_no_values(self):
        own = os.path.join(self.dir, "flags.db")
        copy_db(self.db, own)
        server = Server(own)
        try:
            token = {"X-Gounki-Token": server.token()}
            game = BROKEN.replace('"Err"', '"Flag"')

            def upload(query, body=game):
                status, _, data = server.request("POST", "/api/import?" + query, body=body, headers=token)
                return status, json.loads(data)

            # Off: 0, false, no.
            status, first = upload("name=a.gpn&reject_broken=0")
            self.assertEqual((status, first["summary"]["stored"]), (200, 1), first)  # the broken game is stored
            for value in ["0", "false", "no"]:
                status, again = upload("name=b-%s.gpn&keep_duplicates=%s" % (value, value))
                self.assertEqual((status, again["summary"]["stored"], again["summary"]["duplicates"]), (200, 0, 1), again)
            # On: 1, true, yes, or a bare name; given empty, off as any empty value.
            status, kept = upload("name=c0.gpn&keep_duplicates=")
            self.assertEqual((status, kept["summary"]["stored"]), (200, 0), kept)
            status, kept = upload("name=c.gpn&keep_duplicates")
            self.assertEqual((status, kept["summary"]["stored"]), (200, 1), kept)
            status, rejected = upload("name=d.gpn&reject_broken=yes", BROKEN.replace('"Err"', '"Flag 2"'))
            self.assertEqual((status, rejected["summary"]["stored"], rejected["summary"]["rejected"]), (200, 0, 1), rejected)
            status, bad = upload("name=e.gpn&keep_duplicates=maybe")
            self.assertEqual((status, bad["error"]["code"]), (400, "bad-query"))
            self.assertIn("keep_duplicates must be 1", bad["error"]["message"])
            # desc=0 sorts ascending and marks the column so; a second click reverses it.
            page = server.page("/?sort=date&desc=0")
            self.assertIn('href="/?sort=date&amp;desc=1">date &#9650;</a>', page)
            self.assertEqual(server.get_json("/api/games?desc=0")[1], server.get_json("/api/games")[1])
            self.assertEqual(server.get_json("/api/games?desc")[1], server.get_json("/api/games?desc=true")[1])
            self.assertNotEqual(server.get_json("/api/games?desc=yes")[1], server.get_json("/api/games?desc=no")[1])
            status, e = server.get_json("/api/games?desc=2")
            self.assertEqual((status, e["error"]["code"]), (400, "bad-query"))
            _, headers, _ = server.request("GET", "/api/report/1?format=md&inline=0")
            self.assertIn("content-disposition", headers)
        finally:
            self.assertEqual(server.stop(), 0)

    def test_search_page_shows_a_bad_position(self):
        status, _, data = self.server.request("GET", "/search?position=garbage")
        self.assertEqual(status, 400)
        self.assertIn('class="error">position: bad position at character', data.decode())

    def test_an_answer_taking_longer_than_the_idle_timeout_arrives_whole(self):
        """The idle timeout counts only while the server waits for the client: an upload held 2.5 s by
        another program's write lock, with a 1 s idle timeout, is answered whole."""
        import sqlite3
        own = os.path.join(self.dir, "slow.db")
        copy_db(self.db, own)
        server = Server(own, "--idle-timeout", "1")
        try:
            before = server.total()
            body = BROKEN.replace('"Err"', '"Slow"').encode()
            lock = sqlite3.connect(own, isolation_level=None, timeout=30)
            lock.execute("BEGIN IMMEDIATE")
            try:
                s = server.raw(b"POST /api/import?name=slow.gpn HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Gounki-Token: %s\r\n"
                               b"Content-Length: %d\r\nConnection: close\r\n\r\n" % (server.port, server.token().encode(), len(body))
                               + body, read=False)
                time.sleep(2.5)
            finally:
                lock.execute("COMMIT")
                lock.close()
            answer = read_to_end(s)
            head, data = answer.split(b"\r\n\r\n", 1)
            self.assertIn(b" 200 ", head.split(b"\r\n")[0])
            self.assertEqual(json.loads(data)["summary"]["stored"], 1)
            self.assertEqual(server.total(), before + 1)
            # A client silent for the idle timeout mid-request is still dropped.
            silent = server.raw(b"GET /api/games HTTP/1.1\r\nHost: 127.0", read=False)
            silent.settimeout(20)
            started = time.monotonic()
            self.assertEqual(silent.recv(100), b"")
            self.assertLess(time.monotonic() - started, 15)
            silent.close()
        finally:
            self.assertEqual(server.stop(), 0)
        bad = subprocess.run([GOUNKI, "serve", "--db", own, "--port", "0", "--idle-timeout", "0"], capture_output=True,
                             text=True, timeout=30)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("--idle-timeout takes a whole number of seconds", bad.stderr)

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
        answer = read_to_end(s)
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
        cls.chosen = os.path.join(cls.dir, "chosen.db")  # judged with --judge-options, and its twin by analyze
        cls.chosen_twin = os.path.join(cls.dir, "chosen-twin.db")
        copy_db(cls.db, cls.chosen)
        copy_db(cls.db, cls.chosen_twin)
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

    def test_a_new_connection_goes_to_a_thread_handling_no_request(self):
        """While one of two threads waits with an upload (another program holds the write lock), new
        keep-alive connections are all answered by the other."""
        import sqlite3
        own = os.path.join(self.dir, "busy.db")
        copy_db(self.db, own)
        server = Server(own, "--threads", "2")
        try:
            token = server.token()
            time.sleep(0.3)  # that connection closed
            body = BROKEN.replace('"Err"', '"Busy"').encode()
            lock = sqlite3.connect(own, isolation_level=None, timeout=30)
            lock.execute("BEGIN IMMEDIATE")
            connections = []
            try:
                upload = server.raw(b"POST /api/import?name=busy.gpn HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Gounki-Token: %s\r\n"
                                    b"Content-Length: %d\r\nConnection: close\r\n\r\n" % (server.port, token.encode(), len(body))
                                    + body, read=False)
                time.sleep(0.5)  # its thread waits for the lock
                for _ in range(4):
                    c = http.client.HTTPConnection(server.host, server.port, timeout=5)
                    connections.append(c)
                    c.request("GET", "/api/games/1")
                    r = c.getresponse()
                    self.assertEqual(r.status, 200)
                    r.read()
            finally:
                lock.execute("COMMIT")
                lock.close()
                for c in connections:
                    c.close()
            upload.settimeout(30)
            answer = read_to_end(upload)
            self.assertIn(b" 200 ", answer.split(b"\r\n")[0])
        finally:
            self.assertEqual(server.stop(), 0)

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

    def test_judge_options_choose_the_settings_as_analyze_takes_them(self):
        chosen = ["--nodes", "2000", "--confirm", "1", "--book", "0"]
        server = Server(self.chosen, "--judge-options", " ".join(chosen))
        try:
            page = server.page("/game/2")
            self.assertIn("<code>gounki analyze 2 --nodes 2000 --confirm 1 --book 0</code>", page)
            status, _, data = server.request("POST", "/api/games/2/judge", headers={"X-Gounki-Token": server.token()})
            self.assertEqual(status, 202, data)
            words = json.loads(data)["settings"].split()
            self.assertTrue({"nodes=2000", "confirm=0"} <= set(words) and not any(w.startswith("book=") for w in words), words)
            self.assertEqual(self.poll_judging(server, 2)[-1]["state"], "done")
            stored = server.get_json("/api/games/2")[1]["judgement"]
        finally:
            self.assertEqual(server.stop(), 0)
        # `gounki analyze` with the same options stores the very same judgement.
        subprocess.run([GOUNKI, "analyze", "--db", self.chosen_twin, "--quiet", "2", *chosen], check=True)
        self.assertEqual(without_created(stored), without_created(cli_json(self.chosen_twin, "show", "2")["judgement"]))
        # Anything but judging options, a bad value or an external engine: refused before listening.
        for options, said in [("--all", "--all is no judging option"), ("--nodes 50", "--nodes must be a whole number"),
                              ("--engine pbrain", "the web app judges with the built-in engines"), ("12", "'12' is no judging option"),
                              ("--bogus", "Unknown option 'bogus'")]:
            bad = subprocess.run([GOUNKI, "serve", "--db", self.chosen, "--port", "0", "--judge-options", options],
                                 capture_output=True, text=True, timeout=30)
            self.assertEqual((bad.returncode, bad.stdout), (2, ""), options)
            self.assertIn("--judge-options", bad.stderr)
            self.assertIn(said, bad.stderr)

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


if __name__ == "__main__":
    unittest.main(verbosity=2)
