// The whole chain from the command line: import, analyze (stored, resumable), report.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <signal.h>

#include <chrono>
#include <fstream>
#include <map>
#include <set>
#include <thread>
#include <tuple>

#include "core/stones/symmetry.hpp"
#include "db/analysis_store.hpp"
#include "db/game_db.hpp"

using namespace gounki;
using gounki::test::between;
using gounki::test::check_error;
using gounki::test::check_prints;
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
        check_error(std::string(c.args) + " " + db, 2, c.message);
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
    check_error("report " + db + " --all -o " + shell_quoted(dir / "no-such-dir" / "r.html"), 2, "cannot write");
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
    check_error("games " + db + " --game chess", 2, "--game must be gounki, gomoku, ninuki, pente or renju, got 'chess'");
    check_error("search " + db + " --pattern 'Gomoku h8=q'", 2, "bad pattern at character");
    const auto position = run_gounki("search " + db + " --position 'Gomoku 15 15/15 b'");
    CHECK(position.status == 2);
    check_error("position gomoku --moves 'h8 h8'", 1, "move 2 'h8': h8 cannot be played: the point is occupied");
    check_error("position gomoku --moves 'p8'", 1, "not a point of the 15x15 board");
    // A move list pasted from a record: move numbers are skipped, the moves count from 1 without them.
    check_error("position gomoku --json --moves '1. h8 i9 2. h9 i9'", 1,
                "move 4 'i9': i9 cannot be played: the point is occupied");
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
    check_error("position @" + shell_quoted(std::filesystem::path(positions + "broken-63-cells.lc4")), 2,
                "broken-63-cells.lc4:65: 63 cells; a position file has 64, one per square from a1 to h8");
    {
        std::ofstream f(dir / "x.lc4", std::ios::binary);
        for (int sq = 0; sq < 64; ++sq) f << (sq == 15 ? "X9" : "V0") << "\n";
    }
    check_error("position @" + shell_quoted(dir / "x.lc4"), 2, "x.lc4:16: 'X9' is not a cell (V0, or B/N and a digit 1-9)");
    check_error("position @" + shell_quoted(dir / "none.lc4"), 2, "none.lc4': No such file or directory");
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
    check_error("position @" + shell_quoted(dir / "bad.txt"), 2,
                "bad.txt:1: bad position at character 8: the board size must be 15, 19 or 20");
    // A stone position where only Gounki will do; an unknown game's name.
    check_error("perft --position gomoku 1", 2, "'gomoku' is a Gomoku position; this takes a Gounki position");
    check_error("position --format lc4 ninuki", 2, "Ninuki has no LC4 format");
    check_error("tree --game chess --db " + shell_quoted(dir / "none.db"), 2,
                "--game must be gounki, gomoku, ninuki, pente or renju, got 'chess'");
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
    // h9 and h8 black, i9 white, ranks written from 15 down; White to move.
    check_prints("best --position gomoku --moves '1. h8 i9 2. h9' --depth 1 --json",
                 "\"position\":\"Gomoku 15 15/15/15/15/15/15/7xo6/7x7/15/15/15/15/15/15/15 w\"");
    check_prints("board --position gomoku --moves 'h8 i9' --format text --json",
                 "\"position\":\"Gomoku 15 15/15/15/15/15/15/8o6/7x7/15/15/15/15/15/15/15 b\"");
    // A wrong move says which and why, and nothing is searched.
    const auto wrong = run_gounki("search " + db + " --moves '1. " + first + " " + first + "'");
    CHECK(wrong.status == 2);
    CHECK(count_of(wrong.err, "move 2 '" + first + "': ") == 1);
    CHECK(wrong.out.empty());
}

// ---------------------------------------------------------------------------------------------
// Book moves, and an analysis stopped by a signal

namespace {

// `count` games of `kind`, each the opening `opening` (move texts) and then up to `tail` random legal
// plies (from `seed`), with the usual tags.
std::vector<db::GameInput> games_with_opening(GameKind kind, const std::vector<std::string>& opening, int count, int tail,
                                              std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<db::GameInput> out;
    for (int n = 0; n < count; ++n) {
        db::GameInput g;
        g.kind = kind;
        AnyPosition pos = AnyPosition::start(kind);
        for (const std::string& text : opening) {
            const auto m = pos.parse_move(text);
            REQUIRE(std::holds_alternative<Move>(m));
            g.moves.push_back(std::get<Move>(m));
            pos.play(std::get<Move>(m));
        }
        for (int i = 0; i < tail && !pos.game_over(); ++i) {
            const std::vector<Move> legal = pos.legal_moves();
            const Move m = legal[std::size_t(rng() % legal.size())];
            g.moves.push_back(m);
            pos.play(m);
        }
        g.tags = {{"Event", "Book test"}, {"White", "W" + std::to_string(n)}, {"Black", "B" + std::to_string(n)}};
        out.push_back(std::move(g));
    }
    return out;
}

// The book plies of each game by the definition, from the games themselves: the first plies whose
// move was played, from that position (any move order), in at least `threshold` of the games.
// A stone game's position and move count with their turns and mirror images (the book is turned
// there: docs/rules.md 2.7): each is named by the least (position key, point) of its eight images.
std::vector<int> expected_book(const std::vector<db::GameInput>& games, int threshold) {
    using Step = std::tuple<int, std::uint64_t, std::uint32_t>; // kind, position key, move
    std::map<Step, std::set<std::size_t>> played_in;
    auto steps = [](const db::GameInput& g) {
        std::vector<Step> out;
        AnyPosition pos = AnyPosition::start(g.kind);
        for (Move m : g.moves) {
            Step step{int(g.kind), pos.key(), m.raw()};
            if (const stones::StonePosition* here = pos.stones())
                for (int s = 1; s < stones::symmetry_count; ++s) {
                    const std::uint32_t turned = Move::placement(stones::transformed_point(m.point(), s, here->size())).raw();
                    step = std::min(step, Step{int(g.kind), stones::transformed(*here, s).key(), turned});
                }
            out.push_back(step);
            pos.play(m);
        }
        return out;
    };
    for (std::size_t i = 0; i < games.size(); ++i)
        for (const Step& s : steps(games[i])) played_in[s].insert(i);
    std::vector<int> book;
    for (const db::GameInput& g : games) {
        int n = 0;
        for (const Step& s : steps(g)) {
            if (int(played_in[s].size()) < threshold) break;
            ++n;
        }
        book.push_back(n);
    }
    return book;
}

// The verdicts of the ply lines of `game` in analyze --json output, in order.
std::vector<std::string> ply_verdicts(const std::string& out, std::int64_t game) {
    std::vector<std::string> verdicts;
    for (const std::string& line : test::lines_of(out))
        if (contains(line, "\"type\":\"ply\"") && contains(line, "\"game\":" + std::to_string(game) + ","))
            verdicts.push_back(between(line, "\"verdict\":\"", "\""));
    return verdicts;
}

// The first `book` verdicts are "book" and no other is.
bool book_then_judged(const std::vector<std::string>& verdicts, int book) {
    for (std::size_t i = 0; i < verdicts.size(); ++i)
        if ((verdicts[i] == "book") != (int(i) < book)) return false;
    return true;
}

} // namespace

TEST_CASE("analyze: opening moves of the collection's own tree are book, not judged; --book 0 judges them",
          "[pipeline][book][both]") {
    GOUNKI_EACH_BACKEND(backend);
    test::TempDir dir("book");
    const std::string url = test::test_database(backend, dir, "book");
    const std::string db = "--db " + shell_quoted(url);
    // Gounki: an opening of four plies in 6 games, another that shares its first move in 4; Gomoku:
    // three plies in 6 games, and 2 games that share only the first move. Then random games.
    std::vector<db::GameInput> games;
    auto add = [&](std::vector<db::GameInput> more) { games.insert(games.end(), more.begin(), more.end()); };
    add(games_with_opening(GameKind::gounki, {"c2-d3", "f7-e6", "g2-f3", "b7-a6"}, 6, 6, 1));
    add(games_with_opening(GameKind::gounki, {"c2-d3", "b7-a6"}, 4, 6, 2));
    add(games_with_opening(GameKind::gomoku, {"h8", "h9", "i9"}, 6, 5, 3));
    add(games_with_opening(GameKind::gomoku, {"h8", "g7"}, 2, 5, 4));
    // The first three Gomoku plies turned by a half turn: book with the six games above.
    add(games_with_opening(GameKind::gomoku, {"h8", "h7", "g7"}, 3, 5, 5));
    add(test::random_games(3, 5, 12));
    test::write_gpn(dir.file("book.gpn"), games);
    REQUIRE(run_gounki("import --quiet " + db + " " + shell_quoted(dir / "book.gpn")).status == 0);
    const std::vector<int> book5 = expected_book(games, 5), book3 = expected_book(games, 3);
    // The collection does what it is for: book plies of both kinds, ending where the games part.
    CHECK(book5[0] >= 4);
    CHECK(book5[6] >= 1);
    CHECK(book5[6] < 2);
    CHECK(book5[10] >= 3);
    CHECK(book5[16] == 1);
    CHECK(book5[18] >= 3); // 1 (h8 alone) were the turned opening not the same as the six games'

    const auto judged = run_gounki("analyze " + db + " --all --nodes 500 --json");
    REQUIRE(judged.status == 0);
    CHECK(contains(judged.out, "book=5\""));       // Gounki's settings
    CHECK(contains(judged.out, "book=5 turned\"")); // the stone games'
    for (std::size_t g = 0; g < games.size(); ++g) {
        INFO("game " << g + 1 << ", " << book5[g] << " book plies");
        const auto verdicts = ply_verdicts(judged.out, std::int64_t(g) + 1);
        CHECK(verdicts.size() == games[g].moves.size());
        CHECK(book_then_judged(verdicts, book5[g]));
    }
    // A book ply is not searched: no best move, no score.
    const std::string first_book = between(judged.out, "{", "}");
    CHECK(contains(first_book, "\"verdict\":\"book\""));
    CHECK(contains(first_book, "\"best\":null"));
    CHECK(contains(first_book, "\"best_score\":null"));

    // Stored: book moves count in no side's graded moves, accuracy or mistakes.
    {
        db::GameDatabase gdb(url, db::Access::read_only);
        db::AnalysisStore store(gdb.sql());
        for (std::size_t g = 0; g < games.size(); ++g) {
            INFO("game " << g + 1);
            const auto stored = store.load(std::int64_t(g) + 1);
            REQUIRE(stored);
            CHECK(contains(stored->settings, " book=5"));
            int book[2] = {0, 0}, graded[2] = {0, 0};
            for (const analysis::PlyJudgement& p : stored->judgement.plies) {
                const Color side = p.ply % 2 == 0 ? first_mover(games[g].kind) : ~first_mover(games[g].kind);
                ++(p.verdict == analysis::Verdict::book ? book : graded)[index(side)];
            }
            for (int c = 0; c < 2; ++c) {
                const analysis::SideSummary& s = stored->judgement.sides[c];
                CHECK(s.counts[int(analysis::Verdict::book)] == book[c]);
                CHECK(s.moves == graded[c]);
                int counted = 0;
                for (int v = 0; v < analysis::graded_verdict_count; ++v) counted += s.counts[v];
                CHECK(counted == graded[c]);
            }
            CHECK(book[0] + book[1] == book5[g]);
        }
    }

    // The text lines say it; the reports show it in every format.
    const auto text = run_gounki("analyze " + db + " 1 --nodes 500 --force");
    REQUIRE(text.status == 0);
    CHECK(contains(text.out, "game 1: " + std::to_string(book5[0]) + " book plies; White accuracy"));
    CHECK(contains(text.out, "2 book moves, "));
    const auto md = run_gounki("report " + db + " 1 --format md -o -");
    REQUIRE(md.status == 0);
    CHECK(count_of(md.out, " _(book)_") == std::size_t(book5[0]));
    CHECK(contains(md.out, "The first " + std::to_string(book5[0]) + " plies are book moves"));
    const auto gpn = run_gounki("report " + db + " 1 --format gpn -o -");
    REQUIRE(gpn.status == 0);
    CHECK(count_of(gpn.out, "{Book move, not judged.}") == std::size_t(book5[0]));
    REQUIRE(run_gounki("report " + db + " 11 --format html -o " + shell_quoted(dir / "r.html")).status == 0);
    const std::string page = test::slurp(dir / "r.html");
    CHECK(count_of(page, "<span class=\"ply book\"") == std::size_t(book5[10]));
    CHECK(count_of(page, "\"v\":\"book\"") == std::size_t(book5[10]));
    CHECK(test::check_markup(page).empty());

    // --book 0: other settings, every move judged.
    const auto all = run_gounki("analyze " + db + " --all --nodes 500 --book 0 --json");
    REQUIRE(all.status == 0);
    CHECK(contains(all.out, "\"judged\":" + std::to_string(games.size()) + ","));
    CHECK(!contains(all.out, "\"verdict\":\"book\""));
    CHECK(!contains(all.out, "book="));
    // --book 3 through the queue and a worker (cli/judging's rule): the same book plies as analyze.
    REQUIRE(run_gounki("analyze " + db + " --all --nodes 500 --book 3 --queue").status == 0);
    const auto worked = run_gounki("worker " + db + " --exit-when-empty --json");
    REQUIRE(worked.status == 0);
    const auto three = run_gounki("analyze " + db + " --all --nodes 500 --book 3 --json");
    REQUIRE(three.status == 0);
    CHECK(contains(three.out, "\"skipped\":" + std::to_string(games.size()) + ","));
    for (std::size_t g = 0; g < games.size(); ++g) {
        INFO("game " << g + 1 << ", " << book3[g] << " book plies at 3 games");
        CHECK(book_then_judged(ply_verdicts(three.out, std::int64_t(g) + 1), book3[g]));
    }
    // An external brain is not asked about book plies either (the Gomoku games, gounki pbrain).
    const auto engine = test::run_gounki_args({"analyze", "--db", url, "11-21", "--engine", test::gounki_command() + " pbrain",
                                               "--engine-time", "20000", "--engine-nodes", "300", "--threads", "1", "--json"});
    REQUIRE(engine.status == 0);
    CHECK(contains(engine.out, "book=5 turned\""));
    for (std::size_t g = 10; g < 21; ++g) {
        INFO("game " << g + 1 << " by the engine, " << book5[g] << " book plies");
        CHECK(games[g].kind == GameKind::gomoku);
        CHECK(book_then_judged(ply_verdicts(engine.out, std::int64_t(g) + 1), book5[g]));
    }
    check_error("analyze " + db + " --all --book -1", 2, "--book must be a whole number");
    // --confirm 1 (no second look at graded verdicts) through the queue and a worker: settings of
    // their own (confirm=0), which analyze with the same options then finds judged.
    CHECK(contains(three.out, " confirm=4 book=3"));
    REQUIRE(run_gounki("analyze " + db + " --all --nodes 500 --book 3 --confirm 1 --queue").status == 0);
    REQUIRE(run_gounki("worker " + db + " --exit-when-empty --json").status == 0);
    const auto once = run_gounki("analyze " + db + " --all --nodes 500 --book 3 --confirm 1 --json");
    REQUIRE(once.status == 0);
    CHECK(contains(once.out, "\"skipped\":" + std::to_string(games.size()) + ","));
    CHECK(contains(once.out, " confirm=0 book=3"));
    check_error("analyze " + db + " --all --confirm 0", 2, "--confirm must be a whole number from 1 to 100");
    check_error("analyze " + db + " --all --confirm 2 --engine x", 2, "not by --depth, --nodes or --confirm");
}

// A game that comes back to its positions counts once in the tree that decides the book: alone in
// its database, none of its moves is book, however often it played them.
TEST_CASE("analyze: a lone game going round in circles has no book moves; tree counts it once", "[pipeline][book][both]") {
    GOUNKI_EACH_BACKEND(backend);
    test::TempDir dir("circles");
    const std::string url = test::test_database(backend, dir, "circles");
    const std::string db = "--db " + shell_quoted(url);
    const std::string start = "8/1s6/8/8/8/8/1S6/8 w"; // both squares step aside and back: the start again
    std::string gpn = "[Game \"Gounki\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n[SetUp \"1\"]\n[Position \"" +
        start + "\"]\n\n";
    for (int i = 0; i < 5; ++i)
        gpn += std::to_string(2 * i + 1) + ". b2-c2 b7-c7 " + std::to_string(2 * i + 2) + ". c2-b2 c7-b7\n";
    test::import_text(url, dir / "circles.gpn", gpn + "*\n");
    const auto tree = run_gounki("tree " + db + " --position " + shell_quoted(start));
    REQUIRE(tree.status == 0);
    CHECK(contains(tree.out, "\n1 game continued from here\n"));
    CHECK(contains(tree.out, "\nb2-c2                 1 "));
    const auto judged = run_gounki("analyze " + db + " --all --nodes 500 --book 3 --json");
    REQUIRE(judged.status == 0);
    const auto verdicts = ply_verdicts(judged.out, 1);
    CHECK(verdicts.size() == 20);
    CHECK(book_then_judged(verdicts, 0));
}

TEST_CASE("SIGINT or SIGTERM stops analyze between games: judged games stay whole, a rerun judges the rest",
          "[pipeline][interrupt]") {
    test::TempDir dir("interrupt");
    const std::string path = dir.file("g.db");
    const int total = 150;
    test::write_gpn(dir.file("g.gpn"), test::random_games(total, 17, 30));
    REQUIRE(run_gounki("import --quiet --db " + shell_quoted(path) + " " + shell_quoted(dir / "g.gpn")).status == 0);
    db::GameDatabase gdb(path, db::Access::read_only);
    const auto stored = [&] { return test::scalar(gdb, "SELECT count(*) FROM analyses"); };
    // Starts analyze, waits until `more` games beyond `before` are stored, sends `signal_number`.
    const auto stop_after = [&](std::int64_t before, int signal_number, const std::string& name, bool json) {
        std::vector<std::string> args{"analyze", "--db", path, "--all", "--nodes", "300", "--threads", "2"};
        if (json) args.push_back("--json");
        const pid_t child = test::spawn_gounki(args, dir.file(name + ".out"), dir.file(name + ".err"));
        for (int i = 0; i < 6000 && stored() <= before; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        ::kill(child, signal_number);
        return test::wait_exit(child);
    };
    const std::int64_t all = std::int64_t(total);

    CHECK(stop_after(0, SIGINT, "first", false) == 128 + SIGINT);
    const std::int64_t after_first = stored();
    INFO(test::slurp(dir / "first.err"));
    CHECK(after_first >= 1);
    CHECK(after_first < all);
    CHECK(contains(test::slurp(dir / "first.err"),
                   "gounki analyze: SIGINT: stopped; " + std::to_string(after_first) + " of " + std::to_string(total) +
                       " judged; run again to finish\n"));

    // A rerun judges only the rest; stopped again by SIGTERM.
    CHECK(stop_after(after_first, SIGTERM, "second", true) == 128 + SIGTERM);
    const std::int64_t after_second = stored();
    CHECK(after_second > after_first);
    CHECK(contains(test::slurp(dir / "second.err"), "SIGTERM: stopped; " + std::to_string(after_second) + " of "));
    const std::string second = test::slurp(dir / "second.out");
    CHECK(contains(second, "\"interrupted\":\"SIGTERM\""));
    CHECK(contains(second, "\"judged\":" + std::to_string(after_second - after_first) + ","));
    CHECK(contains(second, "\"skipped\":" + std::to_string(after_first) + ","));
    CHECK(contains(test::slurp(dir / "first.out"), "judged " + std::to_string(after_first) + " game"));

    // Every stored judgement is whole: one verdict per ply of its game.
    {
        db::AnalysisStore store(gdb.sql());
        db::Statement st(gdb.sql(), "SELECT game_id FROM analyses");
        std::vector<std::int64_t> ids;
        while (st.step()) ids.push_back(st.get_int64(0));
        for (std::int64_t id : ids) {
            const auto j = store.load(id);
            REQUIRE(j);
            CHECK(j->judgement.plies.size() == gdb.game(id)->moves.size());
        }
    }
    const auto rest = run_gounki("analyze --db " + shell_quoted(path) + " --all --nodes 300 --json");
    CHECK(rest.status == 0);
    CHECK(contains(rest.out, "\"judged\":" + std::to_string(all - after_second) + ","));
    CHECK(contains(rest.out, "\"skipped\":" + std::to_string(after_second) + ","));
    CHECK(stored() == all);
}
