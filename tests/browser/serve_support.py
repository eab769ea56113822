"""What the tests of `gounki serve` share (serve_test.py, serve_browser_test.py): the built gounki,
the records of a small club, databases of records, and a server on a free port.

GOUNKI, the built gounki, is the first argument of the test script: taken off the command line
when this module is imported, before unittest reads the rest.
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
import unittest

GOUNKI = sys.argv.pop(1)

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
