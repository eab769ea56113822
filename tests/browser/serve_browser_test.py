#!/usr/bin/python3
"""Browser tests of `gounki serve` in headless Chromium (Debian's chromium, chromium-driver and
python3-selenium). The HTTP tests: serve_test.py.

Run: /usr/bin/python3 tests/browser/serve_browser_test.py GOUNKI [-k PATTERN]
A missing tool fails the tests, naming the package (scripts/test.sh installs them all); with
GOUNKI_ALLOW_MISSING_TOOLS=1 they are skipped instead, with a warning.
"""
import os
import shutil
import time
import unittest
import zipfile
import zlib

from serve_support import AFTER_C2_D3, BROKEN, Fixture, Server, cli_json, copy_db, refuse_judgements


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

    def click(self, target):
        """Clicks `target` (an element or a CSS selector) after scrolling it to the middle of the
        window: a click on an element whose middle is below the window's edge lands on whatever is
        there instead."""
        element = self.by(target) if isinstance(target, str) else target
        self.browser.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'});", element)
        element.click()

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
        self.click("#filter")
        self.wait_for(lambda: len(self.all("#games tr")) - 1 == 2, "the two games of Ann Smith")
        self.click("a.sort-date")
        self.wait_for(lambda: "sort=date" in self.browser.current_url and "2019.12.31" in self.all("#games tr")[1].text,
                      "the games sorted by date, the oldest first")
        self.click("#games tr:nth-child(3) td a")
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
        self.click("#piece-erase")
        self.click("#sq-c2")
        self.click("#piece-R")
        self.click("#sq-d3")
        from selenium.webdriver.support.ui import Select
        Select(self.by("#side")).select_by_value("b")
        self.assertEqual(self.by("#position").get_attribute("value"), AFTER_C2_D3)
        self.click("#search-position")
        self.wait_for(lambda: "position=" in self.browser.current_url and self.all("#results"), "the results")
        self.assertIn("2 games reached this position", self.by("#results").text)
        self.assertEqual(len(self.all("#games tr")) - 1, 2)
        # A pattern with the syntax explained beside the form.
        self.assertIn("Pattern syntax", self.by("details").text)
        self.by("#pattern").send_keys("f3=R")
        self.click("#search-pattern")
        self.wait_for(lambda: "matched the pattern" in self.by("#results").text, "the pattern results")

    def test_explorer_two_moves_deep_then_a_game(self):
        self.browser.get(self.server.url + "explorer")
        self.assertIn("games continued from here", self.by("#count").text)
        first = self.all("#tree a.move")[0]
        move1 = first.text
        self.click(first)
        self.wait_for(lambda: len(self.all("#line a")) == 2, "one move deep")
        second = self.all("#tree a.move")[0]
        move2 = second.text
        self.click(second)
        self.wait_for(lambda: len(self.all("#line a")) == 3, "two moves deep")
        self.assertEqual([a.text for a in self.all("#line a")], ["start", move1, move2])
        expected = cli_json(self.db, "tree", "--moves", move1 + " " + move2)
        self.assertEqual(self.by("#position-text").text, expected["position"])
        self.assertEqual(len(self.all("#tree a.move")), len(expected["moves"]))
        # Back one move (the line's links), then open a game that went on from there.
        self.click(self.all("#line a")[1])
        self.wait_for(lambda: len(self.all("#line a")) == 2, "one move deep again")
        self.click("#tree a.game")
        self.wait_for(lambda: "/game/" in self.browser.current_url, "the game page")

    def test_upload_a_record_with_an_error_shows_it_at_its_line(self):
        self.browser.get(self.server.url + "import")
        upload = os.path.join(self.dir, "upload.gpn")
        with open(upload, "w") as f:
            f.write(BROKEN.replace("Err", "Uploader"))
        self.by("#file").send_keys(upload)
        self.click("#upload")
        self.wait_for(lambda: self.all("#line-7 .diagnostic"), "the diagnostic at line 7")
        self.assertIn("f7-f6 is not a legal move", self.by("#line-7 .diagnostic").text)
        self.assertIn("1. c2-d3 f7-f6 *", self.by("#line-7").text)
        self.assertFalse(self.all("#line-6 .diagnostic"))
        self.assertIn("1 stored", self.by("#summary").text)
        self.assertEqual(self.by("#progress").get_attribute("value"), "100")

    def test_upload_of_a_zip_names_each_member_and_a_windows_1252_file_is_read_as_such(self):
        self.browser.get(self.server.url + "import")
        upload = os.path.join(self.dir, "club.zip")
        with zipfile.ZipFile(upload, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("club/zipped.gpn", BROKEN.replace("Err", "Zipper"))
        self.by("#file").send_keys(upload)
        self.click("#upload")
        self.wait_for(lambda: "stored" in self.by("#summary").text, "the summary")
        self.assertIn("1 stored", self.by("#summary").text)
        self.assertIn("club.zip/club/zipped.gpn:7:", self.by(".diagnostic").text)
        self.assertFalse(self.all("#listing li"))  # the archive's bytes are not listed as text
        # A file in Windows-1252: its bytes reach the server as they are (a name with an e acute).
        latin = os.path.join(self.dir, "latin.gpn")
        with open(latin, "wb") as f:
            f.write(BROKEN.replace("Err", "Ren\xe9").encode("cp1252"))
        self.browser.get(self.server.url + "import")
        self.by("#file").send_keys(latin)
        self.click("#upload")
        self.wait_for(lambda: "stored" in self.by("#summary").text, "the summary")
        self.assertIn("1 stored", self.by("#summary").text)
        self.assertTrue(any(g["white"] == "Ren\u00e9" for g in self.server.get_json("/api/games?player=Ren")[1]["games"]))

    def test_judge_button_shows_progress_then_the_verdicts(self):
        self.browser.get(self.server.url + "game/2")
        self.assertIn("No stored judgement", self.by("#unjudged").text)
        self.click("#judge")
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
            self.click("#judge")
            self.wait_for(lambda: self.by("#judge-error").is_displayed(), "the judging's error")
            self.assertIn("judgements refused by the test trigger", self.by("#judge-error").text)
            self.assertFalse(self.by("#judge").get_attribute("disabled"))
            self.assertFalse(self.all("#judgements"))
        finally:
            self.assertEqual(server.stop(), 0)

    def test_download_a_report(self):
        self.browser.get(self.server.url + "game/2")
        self.click("#download-md")
        target = os.path.join(self.downloads, "game-2.md")
        self.wait_for(lambda: os.path.exists(target) and os.path.getsize(target) > 0 and
                      not any(n.endswith(".crdownload") for n in os.listdir(self.downloads)), "the downloaded report")
        with open(target) as f:
            self.assertIn("Bob", f.read())


if __name__ == "__main__":
    unittest.main(verbosity=2)
