// The whole chain from the command line: import, analyze (stored, resumable), report.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <fstream>

#include "db/analysis_store.hpp"
#include "db/game_db.hpp"

using namespace gounki;
using gounki::test::between;
using gounki::test::contains;
using gounki::test::count_of;
using gounki::test::run_gounki;
using gounki::test::shell_quoted;

namespace {

const std::string samples = GOUNKI_SOURCE_DIR "/samples/games/";

} // namespace

TEST_CASE("analyze judges every ply once, stores it, and a rerun with the same settings skips the games", "[pipeline]") {
    test::TempDir dir("pipeline");
    const std::string db = "--db " + shell_quoted(dir / "g.db");
    REQUIRE(run_gounki("import " + db + " " + samples + "03-pass-and-exit.gpn " + samples + "08-sacrifice.gpn").status == 0);

    auto first = run_gounki("analyze " + db + " --all --nodes 3000 --threads 2 --json");
    REQUIRE(first.status == 0);
    // One line per ply of each game, then the summary.
    std::size_t plies_stored = 0;
    {
        db::GameDatabase gdb((dir / "g.db").string(), db::Access::read_only);
        db::AnalysisStore store(gdb.sql());
        for (std::int64_t id : {1, 2}) {
            const auto game = gdb.game(id);
            REQUIRE(game);
            const auto stored = store.load(id);
            REQUIRE(stored);
            CHECK(stored->judgement.plies.size() == game->moves.size());
            for (std::size_t i = 0; i < game->moves.size(); ++i) CHECK(stored->judgement.plies[i].played == game->moves[i]);
            plies_stored += game->moves.size();
        }
    }
    CHECK(count_of(first.out, "\"type\":\"ply\"") == plies_stored);
    CHECK(count_of(first.out, "\"judged\":2") == 1);

    // Same settings: nothing is searched again, the stored lines are printed as they were.
    auto again = run_gounki("analyze " + db + " --all --nodes 3000 --threads 1 --json");
    REQUIRE(again.status == 0);
    CHECK(count_of(again.out, "\"judged\":0") == 1);
    CHECK(count_of(again.out, "\"skipped\":2") == 1);
    CHECK(count_of(again.out, "\"type\":\"ply\"") == plies_stored);
    // The judgement does not depend on the number of threads or on the run.
    // (QJsonObject sorts keys: the summary line is the one that starts with "judged".)
    auto strip_summary = [](const std::string& s) { return s.substr(0, s.find("{\"judged\"")); };
    CHECK(strip_summary(first.out) == strip_summary(again.out));

    // Other settings are another analysis; --source picks games by the file they came from.
    auto deeper = run_gounki("analyze " + db + " --source 08-sacri --nodes 4000 --json");
    CHECK(count_of(deeper.out, "\"judged\":1") == 1);
    CHECK(count_of(deeper.out, "\"game\":2,") > 0);
    CHECK(count_of(deeper.out, "\"game\":1,") == 0);
}

TEST_CASE("report writes HTML, Markdown and annotated records from stored judgements", "[pipeline]") {
    test::TempDir dir("pipeline");
    const std::string db = "--db " + shell_quoted(dir / "g.db");
    REQUIRE(run_gounki("import " + db + " " + samples + "03-pass-and-exit.gpn").status == 0);
    REQUIRE(run_gounki("analyze " + db + " --all --nodes 3000 --quiet").status == 0);

    auto html = run_gounki("report " + db + " --all --format html -o " + shell_quoted(dir / "r.html"));
    REQUIRE(html.status == 0);
    CHECK(count_of(html.out, "wrote HTML report on 1 game to") == 1);
    const std::string page = test::slurp(dir / "r.html");
    CHECK(count_of(page, "<html") == 1);
    CHECK(count_of(page, "http://") + count_of(page, "https://") == 0);

    auto gpn = run_gounki("report " + db + " 1 --format gpn -o " + shell_quoted(dir / "r.gpn"));
    REQUIRE(gpn.status == 0);
    CHECK(count_of(test::slurp(dir / "r.gpn"), "[Annotator \"gounki") == 1);
    // The annotated record is a valid record.
    CHECK(run_gounki("validate " + shell_quoted(dir / "r.gpn")).status == 0);

    auto md = run_gounki("report " + db + " 1 --format md -o -");
    REQUIRE(md.status == 0);
    CHECK(count_of(md.out, "```") >= 2);
}

TEST_CASE("analyze and report refuse bad arguments with a message and status 2", "[pipeline]") {
    test::TempDir dir("pipeline");
    const std::string db = "--db " + shell_quoted(dir / "g.db");
    REQUIRE(run_gounki("import " + db + " " + samples + "08-sacrifice.gpn").status == 0);
    struct Case {
        const char* args;
        const char* message;
    };
    const Case cases[] = {
        {"analyze", "say which games"},
        {"analyze --all --depth 0", "--depth must be"},
        {"analyze --all --depth 3 --nodes 100", "not both"},
        {"analyze --all --blunder 2", "between 0 and 1"},
        {"analyze --all --inaccuracy 0.3 --mistake 0.1", "thresholds must grow"},
        {"analyze 99", "no game 99"},
        {"analyze x1", "is not a game id"},
        {"report --all", "-o FILE"},
        {"report --all --format pdf -o x", "--format must be"},
        {"report 42 -o -", "no game 42"},
        {"analyze 3-1", "is not a game id or a range of ids such as 3-7"},
        {"analyze 1-99999999", "at most ten million"},
        {"report 50-60 -o -", "no game from 50 to 60"},
    };
    for (const Case& c : cases) {
        INFO(c.args);
        const auto r = run_gounki(std::string(c.args) + " " + db);
        CHECK(r.status == 2);
        CHECK(count_of(r.err, c.message) == 1);
    }
    // A range takes the games it holds: with games 1 (the file above) and 2-5 (four Ninuki games)
    // stored, 2-50 is those four, in order.
    REQUIRE(run_gounki("import " + db + " " + samples + "11-ninuki.gpn").status == 0);
    const auto ranged = run_gounki("report " + db + " 2-50 --format md -o - --json");
    CHECK(ranged.status == 0);
    CHECK(count_of(ranged.out, "\"games\":4") == 1);
    CHECK(count_of(ranged.out, "Ninuki") >= 4);
    CHECK(count_of(ranged.out, "Gounki") == 0);
    // A report that cannot be written leaves nothing behind.
    const auto r = run_gounki("report " + db + " --all -o " + shell_quoted(dir / "no-such-dir" / "r.html"));
    CHECK(r.status == 2);
    CHECK(count_of(r.err, "cannot write") == 1);
}

TEST_CASE("Gomoku and Ninuki games go the whole way: SGF and GPN import, analyze, search, tree, report", "[pipeline][stones]") {
    test::TempDir dir("stones");
    const std::string db = "--db " + shell_quoted(dir / "s.db");
    const auto imported =
        run_gounki("import " + db + " " + samples + "10-gomoku.gpn " + samples + "11-ninuki.gpn " + samples + "12-gomoku.sgf");
    REQUIRE(imported.status == 0);
    const auto games = run_gounki("games " + db + " --json");
    CHECK(count_of(games.out, "\"game\":\"Gomoku\"") == 3);
    CHECK(count_of(games.out, "\"game\":\"Ninuki\"") == 4);
    CHECK(count_of(run_gounki("games " + db + " --game ninuki --json").out, "\"id\":") == 4);

    // The SGF game's main line blocks at g8 and l8; the GPN game's five is found.
    const auto found = run_gounki("search " + db + " --pattern 'Gomoku h8=x i8=x j8=x k8=x l8=x' --json");
    CHECK(count_of(found.out, "\"id\":") == 1);
    const auto blocked = run_gounki("search " + db + " --pattern 'Gomoku g8=o h8=x i8=x j8=x k8=x l8=o' --json");
    CHECK(count_of(blocked.out, "\"id\":7") == 1);
    // The 15x15 tree: the 19x19 game starts from another position.
    const auto tree = run_gounki("tree " + db + " --game gomoku --json");
    CHECK(count_of(tree.out, "\"move\":\"h8\"") == 1);
    CHECK(count_of(tree.out, "\"games\":2") >= 1);

    // 3... h9 (ply 5 of the Gomoku games) leaves Black's open three: a proven loss for White.
    const auto judged = run_gounki("analyze " + db + " --all --nodes 3000 --json");
    REQUIRE(judged.status == 0);
    CHECK(count_of(judged.out, "\"type\":\"ply\"") == 9 + 11 + 21 + 13 + 13 + 12 + 10);
    CHECK(count_of(judged.out, "\"played\":\"h9\"") >= 2);
    std::size_t at = judged.out.find("\"played\":\"h9\"");
    REQUIRE(at != std::string::npos);
    const std::size_t start = judged.out.rfind('\n', at) + 1;
    const std::string h9 = judged.out.substr(start, judged.out.find('\n', at) - start);
    CHECK(count_of(h9, "\"verdict\":\"allows-loss\"") == 1);
    CHECK(count_of(h9, "\"ply\":5") == 1);

    // The report draws the flagged moves as stone diagrams.
    const auto html = run_gounki("report " + db + " 1 --format html -o " + shell_quoted(dir / "s.html"));
    REQUIRE(html.status == 0);
    const std::string page = gounki::test::slurp(dir / "s.html");
    CHECK(count_of(page, "class=\"stone black") >= 3);
    CHECK(count_of(page, "Allows a loss") >= 1);
}

TEST_CASE("stone-game inputs that are wrong get a clear error and the usage status", "[pipeline][stones]") {
    test::TempDir dir("stones-bad");
    const std::string db = "--db " + shell_quoted(dir / "b.db");
    REQUIRE(run_gounki("import " + db + " " + samples + "10-gomoku.gpn").status == 0);
    const auto game = run_gounki("games " + db + " --game chess");
    CHECK(game.status == 2);
    CHECK(count_of(game.err, "--game must be gounki, gomoku, ninuki, pente or renju, got 'chess'") == 1);
    const auto pattern = run_gounki("search " + db + " --pattern 'Gomoku h8=q'");
    CHECK(pattern.status == 2);
    CHECK(count_of(pattern.err, "bad pattern at character") == 1);
    const auto position = run_gounki("search " + db + " --position 'Gomoku 15 15/15 b'");
    CHECK(position.status == 2);
    const auto occupied = run_gounki("position gomoku --moves 'h8 h8'");
    CHECK(occupied.status == 1);
    CHECK(count_of(occupied.err, "move 2 'h8': h8 cannot be played: the point is occupied") == 1);
    const auto off = run_gounki("position gomoku --moves 'p8'");
    CHECK(off.status == 1);
    CHECK(count_of(off.err, "not a point of the 15x15 board") == 1);
    // A move list pasted from a record: move numbers are skipped, the moves count from 1 without them.
    const auto pasted = run_gounki("position gomoku --json --moves '1. h8 i9 2. h9 i9'");
    CHECK(pasted.status == 1);
    CHECK(count_of(pasted.err, "move 4 'i9': i9 cannot be played: the point is occupied") == 1);
    const auto numbered = run_gounki("position --json --moves '1. b2-b3 g7-g6 2. b3-b4' start");
    CHECK(numbered.status == 0);
    CHECK(count_of(numbered.out, "\"side_to_move\":\"black\"") == 1);
}

TEST_CASE("a position argument @FILE reads an LC4 position file, and position --format lc4 writes one", "[pipeline][cli]") {
    test::TempDir dir("lc4");
    const std::string positions = GOUNKI_SOURCE_DIR "/tests/data/positions/";

    // A small position written as a course program would: a header, CRLF, lowercase. White: a square
    // on a1, two rounds and a square on d4 (B9); Black: three rounds on h8 (N6).
    {
        std::ofstream f(dir / "small.lc4", std::ios::binary);
        f << "#1A\r\n";
        for (int sq = 0; sq < 64; ++sq) f << (sq == 0 ? "b1" : sq == 27 ? "B9" : sq == 63 ? "n6" : "v0") << "\r\n";
    }
    const auto small = run_gounki("position " + shell_quoted(dir / "small.lc4"));
    CHECK(small.status == 2); // without '@' it is a position text, and a bad one
    const auto read = run_gounki("position @" + shell_quoted(dir / "small.lc4"));
    REQUIRE(read.status == 0);
    CHECK(read.out.substr(0, read.out.find('\n')) == "7(rrr)/8/8/8/3(RRS)4/8/8/S7 w");
    CHECK(count_of(read.out, "White to move") == 1);
    const auto black = run_gounki("position --side b @" + shell_quoted(dir / "small.lc4"));
    REQUIRE(black.status == 0);
    CHECK(black.out.substr(0, black.out.find('\n')) == "7(rrr)/8/8/8/3(RRS)4/8/8/S7 b");
    // Every command that takes a position reads it from a file.
    const auto perft = run_gounki("perft --position @" + shell_quoted(std::filesystem::path(positions + "start.lc4")) + " 2");
    CHECK(perft.status == 0);
    CHECK(perft.out == "1296\n");

    // The hand-written fixture is what the writer writes, after its header line; the writer's
    // output reads back as the start position.
    const auto written = run_gounki("position --format lc4 start");
    REQUIRE(written.status == 0);
    const std::string fixture = test::slurp(positions + "start.lc4");
    CHECK(written.out == fixture.substr(fixture.find('\n') + 1));
    {
        std::ofstream f(dir / "s.lc4", std::ios::binary);
        f << written.out;
    }
    const auto again = run_gounki("position @" + shell_quoted(dir / "s.lc4"));
    CHECK(again.status == 0);
    CHECK(again.out == run_gounki("position start").out);
    // A position text in a file is read from its first non-empty line.
    {
        std::ofstream f(dir / "p.txt", std::ios::binary);
        f << "\n7s/8/8/8/8/8/1(SR)6/8 w\r\n";
    }
    const auto text = run_gounki("position @" + shell_quoted(dir / "p.txt"));
    CHECK(text.status == 0);
    CHECK(text.out.substr(0, text.out.find('\n')) == "7s/8/8/8/8/8/1(RS)6/8 w");

    // Broken files: status 2 and the file and line in the message.
    const auto broken = run_gounki("position @" + shell_quoted(std::filesystem::path(positions + "broken-63-cells.lc4")));
    CHECK(broken.status == 2);
    CHECK(count_of(broken.err, "broken-63-cells.lc4:65: 63 cells; a position file has 64, one per square from a1 to h8") == 1);
    {
        std::ofstream f(dir / "x.lc4", std::ios::binary);
        for (int sq = 0; sq < 64; ++sq) f << (sq == 15 ? "X9" : "V0") << "\n";
    }
    const auto cell = run_gounki("position @" + shell_quoted(dir / "x.lc4"));
    CHECK(cell.status == 2);
    CHECK(count_of(cell.err, "x.lc4:16: 'X9' is not a cell (V0, or B/N and a digit 1-9)") == 1);
    const auto missing = run_gounki("position @" + shell_quoted(dir / "none.lc4"));
    CHECK(missing.status == 2);
    CHECK(count_of(missing.err, "none.lc4': No such file or directory") == 1);
    CHECK(count_of(run_gounki("position --side b start").err, "--side gives the side to move of an LC4 position file") == 1);
    CHECK(run_gounki("position --format png start").status == 2);
}

TEST_CASE("a position of any game on the command line: a game's name, a stone text in @FILE, errors that say where",
          "[pipeline][cli]") {
    test::TempDir dir("anypos");
    // A game's name is its start, in any case, for every command that takes a position.
    const auto gomoku = run_gounki("position GOMOKU");
    REQUIRE(gomoku.status == 0);
    CHECK(gomoku.out.substr(0, gomoku.out.find('\n')) == "Gomoku 15 15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b");
    const auto board = run_gounki("board --position ninuki --format text");
    CHECK(board.status == 0);
    CHECK(count_of(board.out, "19 .") == 1);
    // A stone position text in a file, read from its first non-empty line.
    {
        std::ofstream f(dir / "g.txt", std::ios::binary);
        f << "\nGomoku 15 15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w\n";
    }
    const auto file = run_gounki("position @" + shell_quoted(dir / "g.txt") + " --json");
    REQUIRE(file.status == 0);
    CHECK(count_of(file.out, "\"game\":\"Gomoku\"") == 1);
    CHECK(count_of(file.out, "\"side_to_move\":\"white\"") == 1);
    // A malformed stone text in a file: the file, the line and the character.
    {
        std::ofstream f(dir / "bad.txt", std::ios::binary);
        f << "Gomoku 17 17/17 b\n";
    }
    const auto bad = run_gounki("position @" + shell_quoted(dir / "bad.txt"));
    CHECK(bad.status == 2);
    CHECK(count_of(bad.err, "bad.txt:1: bad position at character 8: the board size must be 15, 19 or 20") == 1);
    // A stone position where only Gounki will do; an unknown game's name.
    const auto perft = run_gounki("perft --position gomoku 1");
    CHECK(perft.status == 2);
    CHECK(count_of(perft.err, "'gomoku' is a Gomoku position; this takes a Gounki position") == 1);
    const auto lc4 = run_gounki("position --format lc4 ninuki");
    CHECK(lc4.status == 2);
    CHECK(count_of(lc4.err, "Ninuki has no LC4 format") == 1);
    const auto tree = run_gounki("tree --game chess --db " + shell_quoted(dir / "none.db"));
    CHECK(tree.status == 2);
    CHECK(count_of(tree.err, "--game must be gounki, gomoku, ninuki, pente or renju, got 'chess'") == 1);
}

TEST_CASE("a pasted move list (--moves) is played before search, tree, best and board look at the position", "[pipeline]") {
    test::TempDir dir("moves");
    const std::string db = "--db " + shell_quoted(dir / "g.db");
    REQUIRE(run_gounki("import " + db + " " + samples + "04-club-evening.gpn " + samples + "08-sacrifice.gpn " + samples +
                       "09-kingside-race.gpn")
                .status == 0);
    // The most played first move of the start, and how many games played it.
    const auto start = run_gounki("tree " + db + " --json");
    REQUIRE(start.status == 0);
    const std::string first = between(start.out, "\"move\":\"", "\"");
    const std::string first_games = between(start.out, "\"games\":", ",", start.out.find("\"moves\":"));
    REQUIRE(!first.empty());
    // tree --moves and search --moves stand after that move: as many games as the tree counted.
    const auto after = run_gounki("tree " + db + " --json --moves '1. " + first + "'");
    CHECK(after.status == 0);
    CHECK(between(after.out, "\"games\":", ",") == first_games);
    const auto found = run_gounki("search " + db + " --json --moves '1. " + first + "'");
    CHECK(found.status == 0);
    CHECK(std::stoll(between(found.out, "\"total\":", "}")) == std::stoll(first_games));
    CHECK(contains(found.out, "\"position\":"));
    // best and board play stone moves too; the side to move follows.
    const auto best = run_gounki("best --position gomoku --moves '1. h8 i9 2. h9' --depth 1 --json");
    CHECK(best.status == 0);
    // h9 and h8 black, i9 white, ranks written from 15 down; White to move.
    CHECK(contains(best.out, "\"position\":\"Gomoku 15 15/15/15/15/15/15/7xo6/7x7/15/15/15/15/15/15/15 w\""));
    const auto board = run_gounki("board --position gomoku --moves 'h8 i9' --format text --json");
    CHECK(board.status == 0);
    CHECK(contains(board.out, "\"position\":\"Gomoku 15 15/15/15/15/15/15/8o6/7x7/15/15/15/15/15/15/15 b\""));
    // A wrong move says which and why, and nothing is searched.
    const auto wrong = run_gounki("search " + db + " --moves '1. " + first + " " + first + "'");
    CHECK(wrong.status == 2);
    CHECK(count_of(wrong.err, "move 2 '" + first + "': ") == 1);
    CHECK(wrong.out.empty());
}
