// Gounki records as people publish them (docs/rules.md 3): the three move notations written and read
// back, the official notation's squares grouped into moves by the position, LC4's exits and order
// markers, web tables (players from the header), and the --notation option on the command line.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <random>

#include "core/gounki/notation.hpp"
#include "parser/reader.hpp"
#include "parser/writer.hpp"

using namespace gounki;
using namespace gounki::parser;
using namespace gounki::test;
namespace fs = std::filesystem;

namespace {

// Random lines of play with a few variations and deployments preferred now and then (they are a
// minority of the legal moves), so that deployments, joins, captures, passes and exits all turn up
// over a couple of thousand games.
RandomLineStyle notation_style() {
    RandomLineStyle s;
    s.prefer_deployments = true;
    return s;
}

// The moves of two lines, variations included, are the same.
bool same_moves(const Line& a, const Line& b) {
    if (a.plies.size() != b.plies.size()) return false;
    for (std::size_t i = 0; i < a.plies.size(); ++i) {
        const Ply& x = a.plies[i];
        const Ply& y = b.plies[i];
        if (x.move != y.move || x.variations.size() != y.variations.size() || x.comments != y.comments) return false;
        for (std::size_t v = 0; v < x.variations.size(); ++v)
            if (!same_moves(x.variations[v], y.variations[v])) return false;
    }
    return true;
}

std::vector<GameRecord> random_records(int count, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<GameRecord> games;
    for (int i = 0; i < count; ++i) {
        GameRecord g;
        g.tags = {{"Event", "Random"}, {"Round", std::to_string(i + 1)}};
        if (i % 10 == 9) { // a set-up start, so that stacks of three are common from the first move
            Line prefix = random_line(rng, Position::start(), 4 + int(rng() % 12), notation_style(), 1);
            UndoRecord u;
            for (const Ply& p : prefix.plies)
                if (!g.start.game_over()) g.start.as_gounki().do_move(p.move, u);
            if (g.start.game_over()) g.start = Position::start();
        }
        g.main = random_line(rng, g.start.as_gounki(), rng() % 4 ? 1000 : int(rng() % 60), notation_style());
        const Position end = g.final_position();
        g.result = !end.game_over() ? "*" : end.outcome() == Outcome::white_wins ? "1-0" : "0-1";
        games.push_back(std::move(g));
    }
    return games;
}

std::vector<GameRecord> read_with(const std::string& text, Notation n) {
    std::istringstream in(text);
    RecordReader reader(in, "written");
    reader.set_notation(n);
    std::vector<GameRecord> out;
    GameRecord g;
    while (reader.next(g)) out.push_back(g);
    return out;
}

} // namespace

TEST_CASE("each notation's writer round-trips 2,000 random games, read back detected and forced", "[notation]") {
    const std::vector<GameRecord> games = random_records(2000, 20261123);
    int deployments = 0, exits = 0, joins = 0;
    for (const GameRecord& g : games) {
        Position pos = g.start.as_gounki();
        UndoRecord u;
        for (const Ply& p : g.main.plies) {
            deployments += p.move.type() == MoveType::deployment;
            exits += p.move.type() == MoveType::exit || (p.move.type() == MoveType::deployment && p.move.ends_out());
            joins += p.move.type() == MoveType::movement && p.move.to() != p.move.from() && !pos.at(p.move.to()).is_empty() &&
                pos.at(p.move.to()).color() == pos.side_to_move();
            pos.do_move(p.move, u);
        }
    }
    // The sample is worth its name: every kind of move the notations differ on turns up often.
    CHECK(deployments > 2000);
    CHECK(exits > 300);
    CHECK(joins > 2000);

    for (Notation n : {Notation::wikipedia, Notation::official, Notation::lc4}) {
        DYNAMIC_SECTION(notation_name(n)) {
            std::string text;
            for (const GameRecord& g : games) text += write_record(g, n);
            for (Notation reading : {Notation::automatic, n}) {
                INFO("read as " << notation_name(reading));
                const std::vector<GameRecord> back = read_with(text, reading);
                REQUIRE(back.size() == games.size());
                int bad = 0;
                for (std::size_t i = 0; i < games.size() && bad < 3; ++i) {
                    bool quiet = true;
                    for (const Diagnostic& d : back[i].diagnostics) {
                        // LC4 cannot say how a stack that could leave in several ways left: it is
                        // read as the whole stack leaving, which is what its writer means by it.
                        const bool expected = d.code == "ambiguous-exit" && n == Notation::lc4;
                        // A game in LC4 with neither deployment nor exit looks canonical, where a
                        // capture written '-' or a join without '+' is worth a warning.
                        const bool undetectable = reading == Notation::automatic && n == Notation::lc4 &&
                            (d.code == "dash-on-capture" || d.code == "join-without-plus");
                        quiet &= expected || undetectable;
                    }
                    const bool ok = back[i].status == GameStatus::valid && quiet && same_moves(games[i].main, back[i].main) &&
                        back[i].start == games[i].start;
                    if (!ok) {
                        ++bad;
                        INFO("game " << i + 1 << "\n" << write_record(games[i], n));
                        if (!back[i].diagnostics.empty()) INFO(format_diagnostic(back[i].diagnostics[0]));
                        CHECK(ok);
                    }
                    if (reading == Notation::automatic && n != Notation::wikipedia && back[i].notation != n) {
                        // Detected from what the game holds: only a game with none of the
                        // notation's own forms reads as canonical.
                        CHECK(back[i].notation == Notation::wikipedia);
                    }
                }
                CHECK(bad == 0);
            }
            // The writer's text is a fixed point: read and written again, it is the same.
            const std::vector<GameRecord> back = read_with(text, n);
            std::string again;
            for (const GameRecord& g : back) again += write_record(g, n);
            CHECK(again == text);
        }
    }
}

TEST_CASE("the official notation's squares are grouped into moves by the stack's size", "[notation]") {
    // The issue's own example: b2 holds three pieces, so `b2 * c3 c4 c5` places three and `e7 d7+`
    // is Black's move.
    const std::string text = "[SetUp \"1\"]\n[Position \"4s3/3ss3/8/8/8/8/1(RSS)6/8 w\"]\n\n"
                             "1. b2 * c3 c4 c5 e7 d7+ *\n";
    const auto games = read_records(text);
    REQUIRE(games.size() == 1);
    const GameRecord& g = games[0];
    INFO((g.diagnostics.empty() ? std::string() : format_diagnostic(g.diagnostics[0])));
    CHECK(g.status == GameStatus::valid);
    REQUIRE(g.main.plies.size() == 2);
    CHECK(g.main.plies[0].move.type() == MoveType::deployment);
    CHECK(g.main.plies[0].move.placed() == 3);
    CHECK(g.main.plies[0].written == "b2 * c3 c4 c5");
    CHECK(g.main.plies[1].written == "e7 d7+");
    CHECK(g.notation == Notation::official);
    CHECK(write_record(g).find("1. b2*c3,c4,c5 e7-d7+ *") != std::string::npos);

    // A capture without 'x' and a join without '+' are no findings in this notation, a wrong 'x' is.
    const auto loose = read_records("1. c2 d3 f7 e6 2. d3 e4 e6 d5 3. e4 d5 c7 c6 4. d5 x c6 *\n");
    REQUIRE(loose.size() == 1);
    CHECK(loose[0].status == GameStatus::valid);
    CHECK(loose[0].diagnostics.empty());
    const auto wrong = read_records("1. c2 d3 f7 x e6 *\n");
    REQUIRE(wrong.size() == 1);
    REQUIRE(wrong[0].diagnostics.size() == 1);
    CHECK(wrong[0].diagnostics[0].code == "x-without-capture");
}

TEST_CASE("forcing the canonical notation reports the official notation's squares as they stand", "[notation]") {
    std::istringstream in("1. c2 d3 f7 e6 *\n");
    RecordReader reader(in, "forced");
    reader.set_notation(Notation::wikipedia);
    GameRecord g;
    REQUIRE(reader.next(g));
    CHECK(g.status == GameStatus::partial);
    REQUIRE(!g.diagnostics.empty());
    CHECK(g.diagnostics[0].code == "bad-move");
    CHECK(g.diagnostics[0].column == 4);
}

TEST_CASE("a character that cannot be read is named by its code point", "[notation]") {
    const auto games = read_records("1. c2\xE2\x98\x83"
                                    "d3 *\n"); // a snowman glued inside a move
    REQUIRE(games.size() == 1);
    REQUIRE(!games[0].diagnostics.empty());
    CHECK(games[0].diagnostics[0].code == "bad-move");
    CHECK(games[0].diagnostics[0].message.find("it holds the character U+2603") != std::string::npos);
}

TEST_CASE("HTML inside a tag value is text, not a table to read", "[notation][web]") {
    // Found by fuzzing (regression 006): a value holding `<table>` turned the record into HTML.
    const auto games = read_records("[Event \"<table> night\"]\n[White \"<td>A</td>\"]\n\n1. c2-d3 *\n");
    REQUIRE(games.size() == 1);
    CHECK(games[0].status == GameStatus::valid);
    CHECK(games[0].diagnostics.empty());
    CHECK(*games[0].tag("Event") == "<table> night");
    CHECK(*games[0].tag("White") == "<td>A</td>");
}

TEST_CASE("LC4 exits name their choices when a stack could leave in several ways", "[notation]") {
    std::istringstream in(slurp(records_dir / "lc4.gpn"));
    RecordReader reader(in, "lc4.gpn");
    std::vector<GameRecord> games;
    GameRecord g;
    while (reader.next(g)) games.push_back(g);
    REQUIRE(games.size() == 5);
    const Diagnostic& ambiguous = games[3].diagnostics.at(0);
    CHECK(ambiguous.code == "ambiguous-exit");
    CHECK(ambiguous.legal_moves == std::vector<std::string>{"g8-Out", "g8*f8,out", "g8*h8,out"});
    CHECK(games[3].main.plies.at(0).move.type() == MoveType::exit);
    const Diagnostic& error = games[4].diagnostics.at(0);
    CHECK(error.code == "ambiguous-move");
    CHECK(error.legal_moves.size() == 4);
    CHECK(error.message.find("g6*g7,f8,out") != std::string::npos);
    // Squares first with '+', rounds first with '*': the squares decide, the marker is checked.
    CHECK(games[1].main.plies.at(0).move.type() == MoveType::deployment);
    CHECK(games[2].diagnostics.at(0).code == "wrong-deploy-order");
}

TEST_CASE("web tables name the players from their header row, whatever its first cell", "[notation]") {
    struct Case {
        const char* file;
        std::vector<std::pair<std::string, std::string>> players; // per game
    };
    const Case cases[] = {
        {"table_empty_first_cell.gpn", {{"Alice", "Bob"}}},
        {"table_tabs.gpn", {{"Alice", "Bob"}}},
        {"table_hash_header.gpn", {{"Claire", "Denis"}}},
        {"tables_several.gpn", {{"Emma", "Farid"}, {"Gaspard", "Hugo"}}},
    };
    for (const Case& c : cases) {
        INFO(c.file);
        RecordReader reader(records_dir / c.file);
        std::vector<GameRecord> games;
        GameRecord g;
        while (reader.next(g)) games.push_back(g);
        REQUIRE(games.size() == c.players.size());
        for (std::size_t i = 0; i < games.size(); ++i) {
            REQUIRE(games[i].tag("White"));
            REQUIRE(games[i].tag("Black"));
            CHECK(*games[i].tag("White") == c.players[i].first);
            CHECK(*games[i].tag("Black") == c.players[i].second);
            CHECK(games[i].status == GameStatus::valid);
        }
    }
}

// The example game of the Gounki article is a table with a Notes column: a cell after a row's two
// moves is a note on the move before it, in every layout (bars, tabs, an HTML table), and "-" is no
// note; a line of several moves in tab-separated cells stays movetext.
TEST_CASE("web tables: a notes column after the moves gives comments, never moves", "[notation][web]") {
    const std::vector<std::string> layouts = {
        "| | Ann | Bob | Notes |\n|---|---|---|---|\n| 1. | a1-a2+ | a8-b7+ | builds a double square |\n"
        "| 2. | a2-b2+ | a7-b7+ | - |\n| 3 | b2-c3 | | 2nd try / maybe |\n",
        "\tAnn\tBob\tNotes\n1.\ta1-a2+\ta8-b7+\tbuilds a double square\n2.\ta2-b2+\ta7-b7+\t-\n3\tb2-c3\t\t2nd try / maybe\n",
        "<table><tr><th></th><th>Ann</th><th>Bob</th><th>Notes</th></tr><tr><td>1.</td><td>a1-a2+</td><td>a8-b7+</td>"
        "<td>builds a <b>double</b> square</td></tr><tr><td>2.</td><td>a2-b2+</td><td>a7-b7+</td><td>-</td></tr>"
        "<tr><td>3</td><td>b2-c3</td><td></td><td>2nd try / maybe</td></tr></table>",
    };
    for (const std::string& text : layouts) {
        INFO(text);
        const std::vector<GameRecord> games = read_with(text, Notation::automatic);
        REQUIRE(games.size() == 1);
        const GameRecord& g = games[0];
        CHECK(*g.tag("White") == "Ann");
        CHECK(*g.tag("Black") == "Bob");
        CHECK_FALSE(find_code(g, "bad-move"));
        CHECK_FALSE(find_code(g, "placeholder"));
        REQUIRE(g.main.plies.size() == 5);
        CHECK(g.main.plies[1].comments == std::vector<std::string>{"builds a double square"});
        CHECK(g.main.plies[3].comments.empty());
        CHECK(g.main.plies[4].written == "b2-c3");
        CHECK(g.main.plies[4].comments == std::vector<std::string>{"2nd try / maybe"});
    }
    // A result, a comment, a move or a point after a row's moves is movetext, as it was before notes.
    for (const std::string text : {"| 1. | a1-a2+ | a8-b7+ | 1-0 |\n", "1.\ta1-a2+\ta8-b7+\t1-0\n", "1.\ta1-a2+\ta8-b7+\t{ok} 1-0\n",
                                   "1.\ta1-a2+\ta8-b7+\tb1-b2 1-0\n"}) {
        INFO(text);
        const std::vector<GameRecord> r = read_with(text, Notation::automatic);
        REQUIRE(r.size() == 1);
        CHECK(r[0].result == "1-0");
        CHECK_FALSE(find_code(r[0], "no-result"));
        CHECK(r[0].main.plies.at(1).comments == std::vector<std::string>(text.find("{ok}") != std::string::npos ? 1 : 0, "ok"));
    }
    // Several moves a line in tab-separated cells: the cells after the first row's are moves.
    const std::vector<GameRecord> moves = read_with("1.\ta1-a2+\ta8-b7+\t2.\ta2-b2+\ta7-b7+\t*\n", Notation::automatic);
    REQUIRE(moves.size() == 1);
    CHECK(moves[0].main.plies.size() == 4);
    CHECK(moves[0].status == GameStatus::valid);
    for (const Ply& p : moves[0].main.plies) CHECK(p.comments.empty());
}

TEST_CASE("gounki validate and export take --notation, and refuse an unknown one", "[notation][cli]") {
    const std::string official = "'" + (records_dir / "official.gpn").string() + "'";
    CHECK(run_gounki("validate " + official).status == 0);
    CHECK(run_gounki("validate --notation official " + official).status == 0);
    const auto forced = run_gounki("validate --notation wikipedia " + official);
    CHECK(forced.status == 1);
    CHECK(forced.out.find("official.gpn:5:4: error: 1. g2: a point alone") != std::string::npos);
    const auto bad = run_gounki("validate --notation pgn " + official);
    CHECK(bad.status == 2);
    CHECK(bad.err.find("--notation must be auto, wikipedia, official or lc4, got 'pgn'") != std::string::npos);

    TempDir dir("notation");
    const std::string db = "--db '" + (dir / "g.db").string() + "'";
    REQUIRE(run_gounki("import " + db + " " + official).status == 0);
    for (const char* n : {"official", "lc4", "wikipedia"}) {
        INFO(n);
        const std::string out = (dir / (std::string(n) + ".gpn")).string();
        const auto ex = run_gounki("export " + db + " --notation " + n + " -o '" + out + "'");
        REQUIRE(ex.status == 0);
        const auto back = run_gounki("validate --notation " + std::string(n) + " '" + out + "'");
        INFO(back.out);
        CHECK(back.status == 0);
        CHECK(back.out.find("3 games in 1 file: 3 valid") != std::string::npos);
    }
    CHECK(slurp(dir / "official.gpn").find("7... d2 x c1 8. d5 x b7 c1 OUT") != std::string::npos);
    CHECK(slurp(dir / "lc4.gpn").find("8. d5-b7 c1#") != std::string::npos);
    CHECK(run_gounki("export " + db + " --notation nope -o -").status == 2);

    // The report's annotated records too: judged, written in each notation, read back valid.
    REQUIRE(run_gounki("analyze " + db + " 1 --nodes 300 --threads 1").status == 0);
    for (const char* n : {"official", "lc4"}) {
        INFO(n);
        const std::string out = (dir / (std::string("report-") + n + ".gpn")).string();
        REQUIRE(run_gounki("report " + db + " 1 --format gpn --notation " + n + " -o '" + out + "'").status == 0);
        const std::string text = slurp(out);
        CHECK(text.find(std::string(n) == "lc4" ? "c1#" : "c1 OUT") != std::string::npos);
        CHECK(text.find("[Annotator \"gounki") != std::string::npos);
        const auto back = run_gounki("validate --notation " + std::string(n) + " '" + out + "'");
        INFO(back.out);
        CHECK(back.status == 0);
    }
    const auto html = run_gounki("report " + db + " 1 --format html --notation lc4 -o '" + (dir / "r.html").string() + "'");
    CHECK(html.status == 2);
    CHECK(html.err.find("--notation is for --format gpn") != std::string::npos);
}
