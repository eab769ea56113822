// Game records (docs/rules.md 1.8): the golden files (tests/data/records, each with its expected
// diagnostics), tag values, suffixes, variations, web tables, encodings of files, replay and its
// diagnostics. The grammar alone: parser_grammar_test.cpp; the writer's round trips:
// parser_writer_test.cpp; streams, the fuzzers' regression files and `gounki validate`:
// parser_stream_test.cpp; text pasted from web pages: parser_web_test.cpp.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <sstream>

#include "core/gounki/notation.hpp"
#include "parser/reader.hpp"
#include "parser/writer.hpp"

using namespace gounki;
using namespace gounki::parser;
using namespace gounki::test;
namespace fs = std::filesystem;

namespace {

std::vector<GameRecord> read_file(const std::string& name, std::vector<Diagnostic>* file_diags = nullptr) {
    RecordReader reader(records_dir / name);
    REQUIRE(reader.ok());
    std::vector<GameRecord> games;
    GameRecord g;
    while (reader.next(g)) games.push_back(g);
    if (file_diags) *file_diags = reader.take_file_diagnostics();
    return games;
}

GameRecord read_one(const std::string& name) { return only_game(read_file(name)); }

} // namespace

// ---------------------------------------------------------------------------------------------
// Golden files: one record file per case, with its expected diagnostics.

TEST_CASE("every golden record file gives exactly its expected games and diagnostics", "[parser][golden]") {
    const int files = check_golden_files(records_dir, {".gpn", ".html"}, [](const fs::path& file) {
        RecordReader reader(file);
        return describe_games(reader, false);
    });
    CHECK(files >= 30);
}

TEST_CASE("tag values keep their escaped quotes and backslashes, and the writer escapes them again", "[parser]") {
    const GameRecord g = read_one("tag_escapes.gpn");
    REQUIRE(g.tag("Event"));
    CHECK(*g.tag("Event") == "The \"Big\" Open");
    CHECK(*g.tag("Site") == "C:\\Clubs\\Paris");
    CHECK(*g.tag("White") == "O'Neil, \"Ace\"");
    const std::string text = write_record(g);
    CHECK(text.find("[Event \"The \\\"Big\\\" Open\"]") != std::string::npos);
    CHECK(text.find("[Site \"C:\\\\Clubs\\\\Paris\"]") != std::string::npos);
    CHECK(g.result == "1/2-1/2");
}

TEST_CASE("a tag pair is one line: one split over two is an error where its line ends", "[parser]") {
    // The splitter ends a tag pair at its line's end; the grammar read on across it, and the rest
    // of the pair, taken for movetext by the splitter, cut the game in two without a word.
    const std::string tail = "[Black \"B\"]\n[Result \"*\"]\n\n1. c2-d3 f7-e6 *\n";
    const std::vector<GameRecord> name_split = read_records("[Game \"Gounki\"]\n[White\n\"Alice\"]\n" + tail);
    REQUIRE(!name_split.empty());
    check_diagnostic(name_split[0], "unterminated-tag", 2, 7, "expected tag value in double quotes before the end of the line");
    const std::vector<GameRecord> value_split = read_records("[Game \"Gounki\"]\n[White \"Alice\"\n]\n" + tail);
    REQUIRE(!value_split.empty());
    check_diagnostic(value_split[0], "unterminated-tag", 2, 15, "expected ']' before the end of the line");
    // A pair without its name says so in words (not the grammar's type names).
    const std::vector<GameRecord> no_name = read_records("[Game \"Gounki\"]\n[ \"Alice\"]\n" + tail);
    REQUIRE(!no_name.empty());
    check_diagnostic(no_name[0], "bad-tag", 2, 3, "malformed tag pair: expected tag name, found '\"'");
    const std::vector<GameRecord> bare = read_records("[Game \"Gounki\"]\n[\n" + tail);
    REQUIRE(!bare.empty());
    check_diagnostic(bare[0], "unterminated-tag", 2, 2, "expected tag name before the end of the line");
    // Blanks and tabs inside a pair are still blanks.
    const std::vector<GameRecord> blanks = read_records("[Game \"Gounki\"]\n[ White\t \"Alice\"  ]\n" + tail);
    REQUIRE(blanks.size() == 1);
    CHECK(blanks[0].diagnostics.empty());
    CHECK(tag_of(blanks[0], "White") == "Alice");
}

TEST_CASE("PGN's escape lines (a % at a line's start) are passed over, wherever they stand", "[parser]") {
    // Each was a bad move (the game partial), and one between tag pairs cut the game in three.
    const std::string moves = "1. c2-d3 f7-e6 2. b2-c2 e7-e6+ *\n";
    for (const std::string& text : {"% exported by a program\n[Game \"Gounki\"]\n[White \"A\"]\n\n" + moves,
                                    "[Game \"Gounki\"]\n% [White \"X\"]\n[White \"A\"]\n\n" + moves,
                                    std::string("[Game \"Gounki\"]\n[White \"A\"]\n\n1. c2-d3 f7-e6\n% 1-0 * [Event \"x\"] {\n2. b2-c2 e7-e6+ *\n")}) {
        INFO(text);
        const std::vector<GameRecord> games = read_records(text);
        REQUIRE(games.size() == 1);
        CHECK(games[0].status == GameStatus::valid);
        CHECK(games[0].diagnostics.empty());
        CHECK(tag_of(games[0], "White") == "A");
        CHECK(games[0].main.plies.size() == 4);
    }
    // A % line inside a comment is the comment's text, and a % after other text is no escape.
    const std::vector<GameRecord> in_comment =
        read_records("[Game \"Gomoku\"]\n\n1. h8 {a comment\n%50 of the time this wins} i9 *\n");
    REQUIRE(in_comment.size() == 1);
    CHECK(in_comment[0].status == GameStatus::valid);
    REQUIRE(!in_comment[0].main.plies.empty());
    CHECK(contains(in_comment[0].main.plies[0].comments.at(0), "%50 of the time"));
    const std::vector<GameRecord> after = read_records("[Game \"Gomoku\"]\n\n1. h8 i9 * %junk\n[Game \"Gomoku\"]\n\n1. h8 *\n");
    REQUIRE(after.size() == 3);
    check_diagnostic(after[1], "bad-move", 3, 12, "%junk");
    // Lines and columns stay those of the text as written; a % inside a line is no escape.
    const std::vector<GameRecord> games = read_records("% one\n% two\n[Game \"Gounki\"]\n\n1. c2-d3 f7-e6 2. d3-d7 % *\n");
    REQUIRE(games.size() == 1);
    CHECK(games[0].line == 3);
    check_diagnostic(games[0], "illegal-move", 5, 19, "d3-d7");
}

TEST_CASE("an unknown escape is kept as written and pointed at", "[parser]") {
    const GameRecord g = read_one("bad_escape.gpn");
    CHECK(*g.tag("Event") == "Tab\\tseparated");
    const Diagnostic* d = find_code(g, "bad-escape");
    REQUIRE(d);
    CHECK(d->line == 1);
    CHECK(d->column == 12);
    CHECK(d->severity == Severity::warning);
}

TEST_CASE("a detached suffix binds to the move before it, and the variation replaces that move", "[parser]") {
    const GameRecord g = read_one("detached_suffix.gpn");
    REQUIRE(g.main.plies.size() == 7);
    CHECK(g.main.plies[2].comments == std::vector<std::string>{"a comment"});
    const Ply& p = g.main.plies[4]; // 3. d2-c2+ ?!
    CHECK(p.written == "d2-c2+");
    CHECK(p.nags == std::vector<std::uint8_t>{6});
    REQUIRE(p.variations.size() == 1);
    REQUIRE(p.variations[0].plies.size() == 2);
    Position before = g.start.as_gounki();
    UndoRecord u;
    for (int i = 0; i < 4; ++i) before.do_move(g.main.plies[std::size_t(i)].move, u);
    CHECK(move_to_text(before, p.variations[0].plies[0].move) == "d3-e4");
    CHECK(g.status == GameStatus::valid);
    CHECK(g.diagnostics.empty());
}

TEST_CASE("nested variations make a tree and an empty one is dropped with a warning", "[parser]") {
    const GameRecord g = read_one("variations.gpn");
    REQUIRE(g.main.plies.size() == 3);
    const Ply& first = g.main.plies[0];
    REQUIRE(first.variations.size() == 1); // (1. b2-b3 (1. d2-d3) a7-a6); () is gone
    const Line& alt = first.variations[0];
    REQUIRE(alt.plies.size() == 2);
    REQUIRE(alt.plies[0].variations.size() == 1);
    CHECK(alt.plies[0].variations[0].plies.size() == 1);
    const Ply& second = g.main.plies[1];
    REQUIRE(second.variations.size() == 1);
    REQUIRE(second.variations[0].plies.size() == 2);
    CHECK(second.variations[0].plies[1].variations.size() == 1);
    const Diagnostic* d = find_code(g, "empty-variation");
    REQUIRE(d);
    CHECK(d->column == 38);
}

TEST_CASE("a web table gives its moves and names the players from its header row", "[parser]") {
    const GameRecord g = read_one("table.gpn");
    CHECK(g.main.plies.size() == 5);
    REQUIRE(g.tag("White"));
    CHECK(*g.tag("White") == "Alice");
    CHECK(*g.tag("Black") == "Bob");
    const GameRecord alone = read_one("table_no_tags.gpn"); // the header row opens the file
    CHECK(alone.main.plies.size() == 5);
    REQUIRE(alone.tag("White"));
    CHECK(*alone.tag("White") == "Alice");
    CHECK(*alone.tag("Black") == "Bob");
}

TEST_CASE("a Windows-1252 file is converted, with one warning naming the file", "[parser]") {
    std::vector<Diagnostic> file_diags;
    const auto games = read_file("latin1.gpn", &file_diags);
    REQUIRE(games.size() == 1);
    REQUIRE(file_diags.size() == 1);
    CHECK(file_diags[0].code == "not-utf8");
    CHECK(file_diags[0].file.find("latin1.gpn") != std::string::npos);
    CHECK(file_diags[0].line == 1);
    CHECK(file_diags[0].column == 19);
    const GameRecord& g = games[0];
    CHECK(*g.tag("Event") == "Tournoi d'\xC3\xA9t\xC3\xA9");
    CHECK(*g.tag("White") == "M\xC3\xBCller");
    CHECK(*g.tag("Black") == "Jos\xC3\xA9 \xE2\x82\xAC");
    CHECK(g.main.comments == std::vector<std::string>{"Tr\xC3\xA8s bien"});
}

TEST_CASE("spaces inside moves are read, and the text as written is kept", "[parser]") {
    const GameRecord g = read_one("spaces_in_moves.gpn");
    REQUIRE(g.main.plies.size() == 7);
    CHECK(g.main.plies[0].written == "c2 - d3");
    CHECK(g.main.plies[3].written == "e7 - e6 +");
    CHECK(g.main.plies[6].written == "c2 * c3 , c4");
    CHECK(g.main.plies[6].move.type() == MoveType::deployment);
    CHECK(g.diagnostics.empty());
}

TEST_CASE("exits written OUT and deployments that leave the board end the game", "[parser]") {
    const GameRecord a = read_one("out_upper.gpn");
    CHECK(a.main.plies.back().move.type() == MoveType::exit);
    CHECK(a.final_position().outcome() == Outcome::black_wins);
    const GameRecord b = read_one("deploy_exit.gpn");
    CHECK(b.main.plies.back().move.type() == MoveType::deployment);
    CHECK(b.main.plies.back().move.ends_out());
    CHECK(b.final_position().outcome() == Outcome::white_wins);
    CHECK(a.status == GameStatus::valid);
    CHECK(b.status == GameStatus::valid);
}

TEST_CASE("an illegal move names the legal moves of its stack and the nearest one when obvious", "[parser]") {
    SECTION("in a variation: two moves are equally near, so no guess") {
        const GameRecord g = read_one("illegal_in_variation.gpn");
        const Diagnostic* d = find_code(g, "illegal-move");
        REQUIRE(d);
        CHECK(d->line == 4);
        CHECK(d->column == 22);
        CHECK(d->move_number == 1);
        CHECK(d->side == Color::black);
        CHECK(d->written == "f7-f6");
        CHECK(d->legal_moves == std::vector<std::string>{"f7-e6", "f7-g6"});
        CHECK(d->suggestion.empty());
        CHECK(d->game == 1);
        CHECK(g.main.plies.size() == 3);
        CHECK(g.main.plies[1].variations.empty()); // the variation broke at its first move
    }
    SECTION("in the main line, with the obvious intent, and the next game unharmed") {
        const auto games = read_file("two_games_first_broken.gpn");
        REQUIRE(games.size() == 2);
        const Diagnostic* d = find_code(games[0], "illegal-move");
        REQUIRE(d);
        CHECK(d->suggestion == "d3-e4");
        CHECK(d->legal_moves == std::vector<std::string>{"d3-c4", "d3-e4"});
        CHECK(d->move_number == 2);
        CHECK(d->side == Color::white);
        CHECK(d->message.find("did you mean d3-e4?") != std::string::npos);
        CHECK(games[0].status == GameStatus::partial);
        CHECK(games[0].main.plies.size() == 2);
        CHECK(games[1].status == GameStatus::valid);
        CHECK(games[1].number == 2);
        CHECK(games[1].line == 6);
    }
}

TEST_CASE("a move after the game ended is an error and the game keeps the moves before it", "[parser]") {
    const GameRecord g = read_one("move_after_end.gpn");
    const Diagnostic* d = find_code(g, "move-after-end");
    REQUIRE(d);
    CHECK(d->move_number == 19);
    CHECK(d->side == Color::white);
    CHECK(d->message.find("e2-Out") != std::string::npos);
    CHECK(g.main.plies.size() == 36);
    CHECK(g.status == GameStatus::partial);
}

TEST_CASE("markers that disagree with the position are warnings and the moves stand", "[parser]") {
    const GameRecord g = read_one("markers.gpn");
    CHECK(g.status == GameStatus::valid);
    std::vector<std::string> codes;
    for (const Diagnostic& d : g.diagnostics) codes.push_back(d.code);
    CHECK(codes == std::vector<std::string>{"plus-without-join", "dash-on-capture", "x-without-capture", "join-without-plus"});
    CHECK(g.diagnostics[1].message.find("canonical: e4xd5") != std::string::npos);
    const std::string text = write_record(g);
    CHECK(text.find("3. e4xd5 e7-e6 4. d1-e2+") != std::string::npos);
}

TEST_CASE("results are checked against the final position", "[parser]") {
    const GameRecord g = read_one("result_contradicts.gpn");
    const Diagnostic* d = find_code(g, "result-contradicts");
    REQUIRE(d);
    CHECK(d->severity == Severity::error);
    CHECK(g.status == GameStatus::invalid);
    // A decisive result on an open position is a resignation; * on a finished game is a warning.
    auto games = read_records("1. c2-d3 f7-e6 0-1\n");
    REQUIRE(games.size() == 1);
    CHECK(games[0].status == GameStatus::valid);
    CHECK(games[0].diagnostics.empty());
    const std::string won = "[SetUp \"1\"]\n[Position \"8/1(RR)6/8/8/8/8/8/s7 w\"]\n\n1. b7*c8,out *\n";
    games = read_records(won);
    REQUIRE(games.size() == 1);
    REQUIRE(find_code(games[0], "result-incomplete"));
    CHECK(games[0].status == GameStatus::valid);
    // The one-half sign of copied records reads as 1/2-1/2.
    games = read_records("1. c2-d3 f7-e6 \xC2\xBD-\xC2\xBD\n");
    REQUIRE(games.size() == 1);
    CHECK(games[0].result == "1/2-1/2");
    CHECK(games[0].diagnostics.empty());
    // With no marker at all, a finished game's result is read from the board.
    games = read_records("[SetUp \"1\"]\n[Position \"8/1(RR)6/8/8/8/8/8/s7 w\"]\n\n1. b7*c8,out\n");
    REQUIRE(games.size() == 1);
    CHECK(games[0].result == "1-0");
}

TEST_CASE("move numbers that skip a move are pointed at once", "[parser]") {
    const auto games = read_records("1. c2-d3 f7-e6 3. d3-e4 e6-d5 4. e4xd5 *");
    REQUIRE(games.size() == 1);
    int n = 0;
    for (const Diagnostic& d : games[0].diagnostics) n += d.code == "wrong-move-number";
    CHECK(n == 1);
    CHECK(games[0].diagnostics[0].column == 16);
    CHECK(games[0].main.plies.size() == 5);
}

TEST_CASE("set-up games keep their first move number through a round trip", "[parser]") {
    const auto games = read_file("setup.gpn");
    REQUIRE(games.size() == 2);
    CHECK(games[0].first_number == 12);
    CHECK(games[1].first_number == 5);
    CHECK(games[1].start.side_to_move() == Color::black);
    const std::string text = write_record(games[1]);
    CHECK(text.find("[SetUp \"1\"]\n[Position \"8/8/8/8/8/8/1(rr)6/S7 b\"]") != std::string::npos);
    CHECK(text.find("5... b2*c1,out 0-1") != std::string::npos);
}
