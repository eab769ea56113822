#!/usr/bin/python3
"""The interactive HTML report in a real browser (headless Chromium driven by Selenium).

Usage: viewer_test.py GOUNKI

Makes a database from two records written here by hand (a Gounki game and a Ninuki game, with
comments, NAGs and a variation), judges them, writes the HTML report with the command line, opens
it and clicks through: keys, the move list, the evaluation graph, a variation and the engine's
line in and out, the flip button; checks each board by the ply, piece count and stacks or stones
the script writes on it, and that a screenshot of the viewer is not blank.

Debian's chromium, chromium-driver and python3-selenium are needed (scripts/test.sh installs
them): a missing one fails the test (GOUNKI_ALLOW_MISSING_TOOLS=1: skipped, status 77, as the
C++ tests do).
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

FAILURES = []


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def missing(what):
    """A missing tool fails the test; GOUNKI_ALLOW_MISSING_TOOLS=1 reports it as skipped (status 77)."""
    if os.environ.get("GOUNKI_ALLOW_MISSING_TOOLS") == "1":
        print("SKIPPED, not checked: " + what + " is missing (GOUNKI_ALLOW_MISSING_TOOLS=1)")
        sys.exit(77)
    fail(what + " is missing: scripts/test.sh installs it; GOUNKI_ALLOW_MISSING_TOOLS=1 reports this test as skipped")


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("FAIL: " + message)


try:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.chrome.service import Service
except ImportError:
    missing("python3-selenium (for /usr/bin/python3)")

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
for tool, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
    if not os.access(tool, os.X_OK):
        missing(tool + " (Debian's " + package + ")")

# Gounki: the stacks built in the first four moves each are named in the comments (docs/rules.md 1).
GOUNKI = """[Game "Gounki"]
[Event "Viewer test"]
[White "Ann"]
[Black "Bob"]
[Result "1-0"]

{A game written for the viewer test.}
1. b1-c2+ {RR on c2} g8-f7+ 2. d2-c2+ e7-f7+ 3. g1-g2+ b8-b7+ 4. f2-g2+ a7-b7+
5. c2-e4 b7-b5 6. g2-g4 b5-b4 7. b2-b3 $1 {blocks the file} b4-c4
8. e4-f5 c4xb3 9. a2xb3 f7-d5 ? {The rrs leaves f7.} (9... d7-e6 ! {keeps the rank closed})
10. f5-f6 ! d5xb3 ?? 11. f6*f7,g8,out 1-0
"""

# Ninuki: Black's k8 encloses White's pair i8 j8 and takes it.
NINUKI = """[Game "Ninuki"]
[Size "15"]
[Black "Bea"]
[White "Wim"]
[Result "*"]

1. h8 i8 2. a1 j8 3. k8 {Takes two.} (3. a2 a3 (3... b2 {Inside.} 4. c3 (4. c4 d4) d3) 4. a4) *
"""

# Renju: after 4... o7, h8 is a double-three for Black (f8 g8 across, h9 h10 up); after 9... m1, a4
# makes six on the a-file, an overline.
RENJU = """[Game "Renju"]
[Black "Rei"]
[White "Sam"]
[Result "*"]

1. f8 o1 2. g8 o3 3. h9 o5 4. h10 o7 5. a1 o9 6. a2 o11 7. a3 o13 8. a5 o15 9. a6 m1 10. b1 *
"""


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        fail(" ".join(args) + " failed (" + str(r.returncode) + "): " + r.stderr)
    return r.stdout


def png_pixels(data):
    """The RGB(A) rows of an 8-bit PNG (what Chromium's screenshots are), as lists of pixel tuples."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        prev = line
    return rows


def main():
    gounki = sys.argv[1]
    work = tempfile.mkdtemp(prefix="gounki-viewer-")
    try:
        browse(gounki, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if FAILURES:
        print(str(len(FAILURES)) + " checks failed")
        sys.exit(1)
    print("all viewer checks passed")


def browse(gounki, work):
    db, report = os.path.join(work, "games.db"), os.path.join(work, "report.html")
    for name, text in (("gounki.gpn", GOUNKI), ("ninuki.gpn", NINUKI), ("renju.gpn", RENJU)):
        with open(os.path.join(work, name), "w", encoding="utf-8") as f:
            f.write(text)
        run([gounki, "import", "--quiet", "--db", db, os.path.join(work, name)])
    run([gounki, "analyze", "--quiet", "--db", db, "--all", "--depth", "3"])
    run([gounki, "report", "--quiet", "--db", db, "--all", "-o", report])

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,1400"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        driver.get("file://" + report)
        errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        check(not errors, "no script errors: " + repr(errors))
        for walk in (gounki_game, ninuki_game, renju_game):
            try:
                walk(driver)
            except Exception as e:  # a board or control that is not there: the walk stops, the test fails
                check(False, walk.__name__ + " stopped: " + type(e).__name__ + ": " + str(e).splitlines()[0])
    finally:
        driver.quit()


def board(driver, game):
    return driver.find_element(By.CSS_SELECTOR, "#" + game + " .vboard svg")


def state(driver, game):
    svg = board(driver, game)
    return {k: svg.get_attribute("data-" + k) or "" for k in ("ply", "line", "step", "pieces", "cells", "flipped", "depth")}


def cells(driver, game):
    return dict(c.split(":") for c in state(driver, game)["cells"].split())


def click(driver, element):
    """Clicks `element` after scrolling it to the middle of the window: a click on a tall element
    (the 19x19 board) whose middle is below the window's edge lands on whatever is there instead."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'});", element)
    element.click()


def keys(driver, *sent):
    ActionChains(driver).send_keys(*sent).perform()


def gounki_game(driver):
    g = "game-1"
    check(state(driver, g)["ply"] == "21", "the board starts at the last ply: " + repr(state(driver, g)))
    check("White has won" in board(driver, g).text, "the final position says who won")
    click(driver, driver.find_element(By.CSS_SELECTOR, "#" + g + " .vboard"))  # this viewer takes the keys
    keys(driver, Keys.HOME)
    s = state(driver, g)
    check(s["ply"] == "0" and s["pieces"] == "32", "Home: the start, 32 pieces: " + repr(s))
    start = cells(driver, g)
    check(len(start) == 32 and "b1" in start and "c2" in start, "the start has a stack on b1 and c2: " + repr(start))
    keys(driver, Keys.ARROW_RIGHT)
    after = cells(driver, g)
    check(state(driver, g)["ply"] == "1", "Right: ply 1")
    check(after.get("c2") == "RR" and "b1" not in after, "1. b1-c2+ makes RR on c2 and empties b1: " + repr(after))
    check("RR on c2" in driver.find_element(By.CSS_SELECTOR, "#" + g + " .vside").text, "the move's comment is beside the board")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#" + g + " .vboard rect.last")) == 2, "the move's two squares are marked")
    check(driver.find_element(By.ID, g + "-p1").get_attribute("class").find("current") >= 0, "the move is marked in the list")
    keys(driver, Keys.END)
    check(state(driver, g)["ply"] == "21", "End: the last ply")
    keys(driver, Keys.ARROW_LEFT)
    check(state(driver, g)["ply"] == "20", "Left: one back")

    # The move list: c4xb3 (ply 16) takes a piece.
    click(driver, driver.find_element(By.ID, g + "-p15"))
    before = int(state(driver, g)["pieces"])
    click(driver, driver.find_element(By.ID, g + "-p16"))
    s = state(driver, g)
    check(s["ply"] == "16" and int(s["pieces"]) < before, "a click on c4xb3 shows the capture: " + repr(s))

    # The evaluation graph: a click on the 5th point shows ply 5.
    click(driver, driver.find_element(By.CSS_SELECTOR, "#" + g + " svg.graph circle[data-ply='5']"))
    check(state(driver, g)["ply"] == "5", "a click on the graph's 5th point: ply 5, not " + state(driver, g)["ply"])
    graph = driver.find_element(By.CSS_SELECTOR, "#" + g + " svg.graph")
    ActionChains(driver).move_to_element(graph).move_by_offset(graph.size["width"] // 2 - 3, 0).click().perform()
    check(state(driver, g)["ply"] == "21", "a click at the graph's right edge: the last ply")

    # The record's variation at 9... f7-d5: in by its button, a step, and out with Up.
    click(driver, driver.find_element(By.ID, g + "-p18"))
    entries = driver.find_elements(By.CSS_SELECTOR, "#" + g + " .venter")
    check(any(e.text.startswith("Variation 1") for e in entries), "ply 18 offers its variation")
    click(driver, [e for e in entries if e.text.startswith("Variation 1")][0])
    s, c = state(driver, g), cells(driver, g)
    check(s["line"] == "Variation 1" and s["ply"] == "17" and s["step"] == "1", "in the variation: " + repr(s))
    check("e6" in c and "d7" not in c, "9... d7-e6 is on the board: " + repr(c))
    check("keeps the rank closed" in driver.find_element(By.CSS_SELECTOR, "#" + g + " .vside").text, "its comment is shown")
    keys(driver, Keys.ARROW_UP)
    s = state(driver, g)
    check(s["line"] == "" and s["ply"] == "18", "Up leaves the variation: " + repr(s))
    click(driver, driver.find_element(By.CSS_SELECTOR, "#" + g + " .movelist .vmove[data-step='0']"))
    check(state(driver, g)["line"] == "Variation 1", "a click on the variation's move in the list steps into it")
    keys(driver, Keys.ESCAPE)

    # The engine's best line at some judged ply: in, one step further, out.
    for ply in range(1, 22):
        click(driver, driver.find_element(By.ID, g + "-p" + str(ply)))
        best = [e for e in driver.find_elements(By.CSS_SELECTOR, "#" + g + " .venter") if e.text.startswith("Engine's best line")]
        if best:
            break
    check(best, "some judged ply offers the engine's best line")
    if best:
        click(driver, best[0])
        s = state(driver, g)
        check(s["line"] == "Engine's best line" and s["ply"] == str(ply - 1), "in the engine's line: " + repr(s))
        keys(driver, Keys.ARROW_RIGHT)
        check(state(driver, g)["step"] in ("1", "2"), "Right steps along the line")
        click(driver, driver.find_element(By.CSS_SELECTOR, "#" + g + " .vback"))
        check(state(driver, g)["line"] == "" and state(driver, g)["ply"] == str(ply), "back to the game")

    # Flip: the same position, White's side at the top.
    keys(driver, Keys.HOME)
    x0 = board(driver, g).find_element(By.CSS_SELECTOR, "g.stack[data-square='a1']").rect["x"]
    click(driver, driver.find_element(By.CSS_SELECTOR, "#" + g + " .vflip"))
    s = state(driver, g)
    x1 = board(driver, g).find_element(By.CSS_SELECTOR, "g.stack[data-square='a1']").rect["x"]
    check(s["flipped"] == "1" and s["ply"] == "0" and x1 > x0 + 100, "flipped: a1 on the right: " + repr((s, x0, x1)))
    click(driver, driver.find_element(By.CSS_SELECTOR, "#" + g + " .vflip"))

    # A screenshot of the viewer is not blank: many colours, much that is not white.
    keys(driver, Keys.END)
    shot = driver.find_element(By.CSS_SELECTOR, "#" + g + " .vboard").screenshot_as_png
    if os.environ.get("GOUNKI_VIEWER_SHOTS"):  # a folder to keep the pictures in, to look at them
        driver.find_element(By.CSS_SELECTOR, "#" + g).screenshot(os.path.join(os.environ["GOUNKI_VIEWER_SHOTS"], "gounki.png"))
    rows = png_pixels(shot)
    pixels = [p for row in rows for p in row]
    colours = len(set(pixels))
    dark = sum(1 for p in pixels if sum(p) < 600) / len(pixels)
    check(colours > 20 and dark > 0.2, "the screenshot shows a board: %d colours, %.2f not white" % (colours, dark))


def ninuki_game(driver):
    g = "game-2"
    click(driver, driver.find_element(By.CSS_SELECTOR, "#" + g + " .vboard"))
    keys(driver, Keys.HOME)
    check(state(driver, g)["pieces"] == "0", "Home: an empty board")
    keys(driver, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    check(cells(driver, g) == {"h8": "b", "i8": "w", "a1": "b", "j8": "w"}, "four stones: " + repr(cells(driver, g)))
    keys(driver, Keys.ARROW_RIGHT)
    s, c = state(driver, g), cells(driver, g)
    check(s["ply"] == "5" and s["pieces"] == "3", "k8 takes two: " + repr(s))
    check(c == {"h8": "b", "a1": "b", "k8": "b"}, "the pair is gone: " + repr(c))
    text = board(driver, g).text
    check("Captured: Black 2, White 0" in text, "the captured counts are shown: " + text)
    numbers = [t.text for t in board(driver, g).find_elements(By.CSS_SELECTOR, "text") if t.text in ("1", "3", "5")]
    check(len(numbers) >= 3, "the stones are numbered")
    check(len(board(driver, g).find_elements(By.CSS_SELECTOR, "circle.last")) == 1, "the last stone is marked")
    if os.environ.get("GOUNKI_VIEWER_SHOTS"):
        driver.find_element(By.CSS_SELECTOR, "#" + g + " .viewer").screenshot(os.path.join(os.environ["GOUNKI_VIEWER_SHOTS"], "ninuki.png"))
    check("Takes two." in driver.find_element(By.CSS_SELECTOR, "#" + g + " .vside").text, "the comment is shown")
    click(driver, [e for e in driver.find_elements(By.CSS_SELECTOR, "#" + g + " .venter") if e.text.startswith("Variation 1")][0])
    keys(driver, Keys.ARROW_RIGHT)
    c = cells(driver, g)
    check(c.get("a2") == "b" and c.get("a3") == "w" and "i8" in c and "k8" not in c, "the variation 3. a2 a3: " + repr(c))
    keys(driver, Keys.ARROW_LEFT, Keys.ARROW_LEFT)
    check(state(driver, g)["line"] == "" and state(driver, g)["ply"] == "4", "Left from the line's first move: back before it")
    check(driver.find_element(By.CSS_SELECTOR, "#" + g + " h2").text.find("Bea \u2013 Wim") >= 0, "Black is named first")
    nested_variations(driver, g)


def renju_game(driver):
    """The points forbidden to Black are crossed where Black is to move, and only there."""
    g = "game-3"
    click(driver, driver.find_element(By.CSS_SELECTOR, "#" + g + " .vboard"))

    def crossed():
        return sorted(e.get_attribute("data-point") for e in board(driver, g).find_elements(By.CSS_SELECTOR, "path.forbidden"))

    keys(driver, Keys.HOME)
    check(crossed() == [], "the empty board: nothing forbidden")
    keys(driver, *([Keys.ARROW_RIGHT] * 8))
    check(state(driver, g)["ply"] == "8" and crossed() == ["h8"], "after 4... o7: h8 " + repr(crossed()))
    keys(driver, Keys.ARROW_RIGHT)
    check(crossed() == [], "after 5. a1, White to move: " + repr(crossed()))
    keys(driver, *([Keys.ARROW_RIGHT] * 9))
    check(state(driver, g)["ply"] == "18" and crossed() == ["a4", "h8"], "after 9... m1: a4 and h8 " + repr(crossed()))
    keys(driver, Keys.END)
    check(crossed() == [], "after 10. b1, White to move: " + repr(crossed()))


def check_at(driver, g, what, stones=None, **want):
    """The board of game `g` is where `want` says (its data- attributes: line, step, depth, ply) and,
    given `stones`, holds exactly those stones; `what` names the place in a failure."""
    s = state(driver, g)
    check(all(s[k] == v for k, v in want.items()), what + ": " + repr(s))
    if stones is not None:
        check(cells(driver, g) == stones, what + ": " + repr(cells(driver, g)))


def nested_variations(driver, g):
    """Variations inside variations, three deep: into each and out again, by clicks and keys."""
    base = {"h8": "b", "i8": "w", "a1": "b", "j8": "w"}
    # A click on 4. c3 in the move list: inside Variation 1, in its Variation 1.1.
    click(driver, driver.find_element(By.CSS_SELECTOR, "#" + g + " .movelist .vmove[data-line='0.1.0'][data-step='1']"))
    check_at(driver, g, "in Variation 1.1 at c3, after 3. a2 3... b2 4. c3", dict(base, a2="b", b2="w", c3="b"),
             line="Variation 1.1", step="2", depth="2", ply="4")
    check("Back to Variation 1" in driver.find_element(By.CSS_SELECTOR, "#" + g + " .vback").text, "the back button names the line around")
    keys(driver, Keys.ARROW_DOWN)  # into the line inside c3
    check_at(driver, g, "Down: into Variation 1.1.1, 4. c4 instead of c3", dict(base, a2="b", b2="w", c4="b"),
             line="Variation 1.1.1", step="1", depth="3")
    keys(driver, Keys.ARROW_RIGHT)
    check_at(driver, g, "4... d4", dict(base, a2="b", b2="w", c4="b", d4="w"))
    keys(driver, Keys.ARROW_RIGHT)
    check_at(driver, g, "Right stops at the line's end", step="2")
    keys(driver, Keys.ARROW_UP)
    check_at(driver, g, "Up: back to c3 in Variation 1.1", dict(base, a2="b", b2="w", c3="b"),
             line="Variation 1.1", step="2", depth="2")
    keys(driver, Keys.ARROW_RIGHT)
    check_at(driver, g, "4... d3 after c3", dict(base, a2="b", b2="w", c3="b", d3="w"))
    # In again by the button, then Left from the inner line's first move: the position before c3.
    keys(driver, Keys.ARROW_LEFT)
    click(driver, [e for e in driver.find_elements(By.CSS_SELECTOR, "#" + g + " .venter") if e.text.startswith("Variation 1.1.1")][0])
    check_at(driver, g, "the button steps into Variation 1.1.1", line="Variation 1.1.1")
    keys(driver, Keys.ARROW_LEFT)
    check_at(driver, g, "Left from its first move: b2 in Variation 1.1", line="Variation 1.1", step="1")
    check("Inside." in driver.find_element(By.CSS_SELECTOR, "#" + g + " .vside").text, "b2's comment is shown")
    keys(driver, Keys.ARROW_UP)
    check_at(driver, g, "Up: a3 in Variation 1, after 3. a2 a3", dict(base, a2="b", a3="w"),
             line="Variation 1", step="2", depth="1")
    keys(driver, Keys.ARROW_UP)
    check_at(driver, g, "Up: back to the game after 3. k8", line="", ply="5", depth="0")

if __name__ == "__main__":
    main()
