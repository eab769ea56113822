// Piskvork PSQ files (parser/psq/psq.hpp) and the format seam (parser/formats.hpp): the golden files
// of tests/data/psq (each with its expected tags and diagnostics), coordinates, the opening and the
// engines' colours, results, rules named by the group, detection and --format, folders given as
// arguments, Gomocup's opening lists, and never a crash. Coordinates by hand: x counts from 1 on the left (x = 8 is file h),
// y from 1 at the top, so on 15x15 y = 1 is rank 15 and y = 15 rank 1.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/stones/position.hpp"
#include "parser/formats.hpp"
#include "parser/psq/openings.hpp"
#include "parser/psq/psq.hpp"

using namespace gounki;
using namespace gounki::parser;
using namespace gounki::test;
namespace fs = std::filesystem;

namespace {

const fs::path psq_dir = fs::path(GOUNKI_SOURCE_DIR) / "tests" / "data" / "psq";

std::vector<std::string> names(const GameRecord& g) { return point_names(g.main); }

using Names = std::vector<std::string>;

// A PSQ file up to Black's five: Black h8 h9 h10 h11 h12 (y = 8, 7, 6, 5, 4), White on row y = 1,
// each move `ms` milliseconds; the engines' names and what follows them are the caller's.
std::string black_five(int ms) {
    std::string text = "Piskvorky 15x15, 11:11, 0\n";
    const std::string time = "," + std::to_string(ms) + "\n";
    for (int i = 0; i < 5; ++i) {
        text += "8," + std::to_string(8 - i) + time;
        if (i < 4) text += std::to_string(i + 1) + ",1" + time;
    }
    return text;
}

} // namespace

TEST_CASE("every PSQ golden file gives exactly its expected game, tags and diagnostics", "[parser][psq][golden]") {
    const int files = check_golden_files(psq_dir, {".psq"}, [](const fs::path& file) {
        PsqReader reader(file);
        return describe_games(reader, true);
    });
    CHECK(files >= 10);
}

TEST_CASE("PSQ: x from the left and y from the top, on 15x15", "[parser][psq]") {
    const GameRecord g = read_psq("Piskvorky 15x15, 11:11, 0\n8,8,10\n1,1,10\n15,15,10\n1,15,10\n15,1,10\n");
    CHECK(g.status == GameStatus::valid);
    CHECK(names(g) == Names{"h8", "a15", "o1", "a1", "o15"});
    CHECK(g.result == "*");
    CHECK(g.kind == GameKind::gomoku);
    CHECK(g.start.as_stones() == stones::StonePosition(gomoku(15)));
}

TEST_CASE("PSQ: the engines' colours follow the opening, and the result line names the winner by engine", "[parser][psq]") {
    // Two opening stones (time 0): the first-named engine plays the third stone, Black's.
    const std::string moves = "Piskvorky 15x15, 11:11, 0\n1,1,0\n1,2,0\n8,8,5\n9,8,5\n8,9,5\n9,9,5\n";
    const GameRecord first_won = read_psq(moves + "ONE\nTWO\n-1\n1,Freestyle15_1\n");
    CHECK(tag_of(first_won, "Black") == "ONE");
    CHECK(tag_of(first_won, "White") == "TWO");
    CHECK(tag_of(first_won, "OpeningStones") == "2");
    CHECK(tag_of(first_won, "Event") == "Freestyle15_1");
    CHECK(first_won.result == "0-1"); // Black (ONE) won on time or by a crash: no five on the board
    CHECK(first_won.status == GameStatus::valid);
    CHECK(read_psq(moves + "ONE\nTWO\n-1\n2,Freestyle15_1\n").result == "1-0");
    CHECK(read_psq(moves + "ONE\nTWO\n-1\n0,Freestyle15_1\n").result == "1/2-1/2");
    // Three opening stones: the first-named engine plays White.
    const GameRecord odd = read_psq("Piskvorky 15x15, 11:11, 0\n1,1,0\n1,2,0\n1,3,0\n8,8,5\nONE\nTWO\n-1\n1,Freestyle\n");
    CHECK(tag_of(odd, "White") == "ONE");
    CHECK(tag_of(odd, "Black") == "TWO");
    CHECK(odd.result == "1-0");
    // Control characters around a name (a stray CR) are no part of it, so it writes back the same.
    const GameRecord stray = read_psq(moves + "\rONE \x01\nTW\rO\n-1\n1,Freestyle15_1\n");
    CHECK(tag_of(stray, "Black") == "ONE");
    CHECK(tag_of(stray, "White") == "TW O"); // one inside reads as a blank
    CHECK(tag_of(read_psq(write_psq(stray)), "Black") == "ONE");
    CHECK(tag_of(read_psq(write_psq(stray)), "White") == "TW O");
    // A move after stray NULs is a move still (not an engine's name that writes back as a move).
    const GameRecord nul = read_psq(moves + std::string("\0\0", 2) + "7,7,5\nONE\nTWO\n-1\n1,Freestyle15_1\n");
    REQUIRE(nul.main.plies.size() == 7);
    CHECK(tag_of(nul, "Black") == "ONE");
    const GameRecord back = read_psq(write_psq(nul));
    CHECK(back.main.plies.size() == 7);
    CHECK(tag_of(back, "Black") == "ONE");
    // An engine named by digits alone: a number alone is the end code only when no name or other
    // number alone follows it while fewer than two engines are named.
    const GameRecord digits = read_psq(moves + "2024\nTWO\n-1\n1,Freestyle15_1\n");
    CHECK(digits.status == GameStatus::valid);
    CHECK(tag_of(digits, "Black") == "2024");
    CHECK(tag_of(digits, "White") == "TWO");
    const GameRecord second_digits = read_psq(moves + "ONE\n2024\n0\n");
    CHECK(second_digits.status == GameStatus::valid);
    CHECK(tag_of(second_digits, "White") == "2024");
    const GameRecord both = read_psq(moves + "7\n2024\n-1\n2,Freestyle15_1\n");
    CHECK(tag_of(both, "Black") == "7");
    CHECK(tag_of(both, "White") == "2024");
    CHECK(both.result == "1-0");
    const auto tags_text = [](const GameRecord& g) {
        std::string text;
        for (const auto& [name, value] : g.tags) text += name + "=" + value + ";";
        return text;
    };
    CHECK(tags_text(read_psq(write_psq(both))) == tags_text(both));
    // A name that starts with digits and holds a letter, and no comma, is a name wherever it stands.
    const GameRecord lettered = read_psq(moves + "3dgomoku.exe\n7\n-1\n");
    CHECK(lettered.status == GameStatus::valid);
    CHECK(tag_of(lettered, "Black") == "3dgomoku.exe");
    CHECK(tag_of(lettered, "White") == "7");
    CHECK(tags_text(read_psq(write_psq(lettered))) == tags_text(lettered));
    // Names the reader would take for something else are written with "_" before them.
    GameRecord odd_names = lettered;
    for (auto& [name, value] : odd_names.tags) {
        if (name == "Black") value = "7,7";
        if (name == "White") value = "-1";
    }
    CHECK(contains(write_psq(odd_names), "\n_7,7\n_-1\n-1\n"));
    // ... and read back without it: the names as they were.
    const GameRecord odd_back = read_psq(write_psq(odd_names));
    CHECK(tag_of(odd_back, "Black") == "7,7");
    CHECK(tag_of(odd_back, "White") == "-1");
    // A name of another program's that starts with "_" keeps it: only the writer's mark is taken off.
    const GameRecord underscored = read_psq(moves + "_pisq\n_2024\n-1\n");
    CHECK(tag_of(underscored, "Black") == "_pisq");
    CHECK(tag_of(underscored, "White") == "_2024");
    CHECK(find_code(read_psq(moves + "ONE\nTWO\n-1\n-1\n"), "syntax")); // a second end code
    CHECK(find_code(read_psq(moves + "ONE\n-1\nTWO\n"), "syntax"));     // -1 is no engine's name
    CHECK(find_code(read_psq(moves + "ONE\nTWO\n5\n-1\n"), "syntax"));  // two engines named already
}

TEST_CASE("PSQ: a game whose every stone has time 0 tells no opening by its times", "[parser][psq]") {
    const std::string text = black_five(0); // every time 0 (a program that keeps none)
    // Without a result line, the first-named engine played Black (not the run of 9 stones' parity).
    const GameRecord plain = read_psq(text + "ONE\nTWO\n-1\n");
    CHECK(plain.status == GameStatus::valid);
    CHECK(plain.result == "0-1");
    CHECK(tag_of(plain, "OpeningStones") == "<none>");
    CHECK(tag_of(plain, "Black") == "ONE");
    // With one, the engine that won played the colour that made five.
    const GameRecord second_won = read_psq(text + "ONE\nTWO\n-1\n2,Freestyle15_1\n");
    CHECK(second_won.status == GameStatus::valid);
    CHECK(tag_of(second_won, "Black") == "TWO");
    CHECK(tag_of(second_won, "White") == "ONE");
    CHECK(tag_of(second_won, "OpeningStones") == "<none>");
    // An opening alone (no five) keeps its run of 0 ms stones as the opening: three stones, the
    // first-named engine White.
    const GameRecord opening = read_psq("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n10,8,0\nONE\nTWO\n-1\n");
    CHECK(tag_of(opening, "OpeningStones") == "3");
    CHECK(tag_of(opening, "White") == "ONE");
}

TEST_CASE("PSQ: without a result line the board decides: a five, else *", "[parser][psq]") {
    const std::string text = black_five(7);
    const GameRecord five = read_psq(text + "A\nB\n-1\n");
    CHECK(names(five) == Names{"h8", "a15", "h9", "b15", "h10", "c15", "h11", "d15", "h12"});
    CHECK(five.result == "0-1");
    CHECK(five.status == GameStatus::valid);
    const GameRecord open = read_psq("Piskvorky 15x15, 11:11, 0\n8,8,7\nA\nB\n-1\n");
    CHECK(open.result == "*");
    // A result line that the board contradicts is an error on that line.
    const GameRecord wrong = read_psq(text + "A\nB\n-1\n2,Freestyle\n");
    const Diagnostic* d = find_code(wrong, "result-contradicts");
    REQUIRE(d);
    CHECK(d->line == 14);
    CHECK(wrong.status == GameStatus::invalid);
}

TEST_CASE("PSQ: the group's rule: freestyle by default, other rules refused by name", "[parser][psq]") {
    const std::string moves = "Piskvorky 15x15, 11:11, 0\n8,8,7\n9,9,7\nA\nB\n-1\n";
    CHECK(read_psq(moves + "0,Fastgame\n").status == GameStatus::valid);
    CHECK(read_psq(moves + "0,freestyle20_3\n").status == GameStatus::valid);
    const GameRecord caro = read_psq(moves + "0,Caro1\n");
    check_diagnostic(caro, "unsupported-game", 7, 3, "Caro");
    CHECK(caro.status == GameStatus::partial);
    CHECK(caro.main.plies.empty());
    CHECK(tag_of(caro, "Black") == "A"); // the players and the result are still read
    const GameRecord wide = read_psq("Piskvorky 15x20, 11:11, 0\n8,8,7\n");
    REQUIRE(find_code(wide, "bad-rules"));
    CHECK(contains(find_code(wide, "bad-rules")->message, "15x20"));
}

TEST_CASE("PSQ: broken lines say where, and the moves before them are kept", "[parser][psq]") {
    const GameRecord g = read_psq("Piskvorky 15x15, 11:11, 0\n8,8,7\n9,9,7\n9,x,7\n1,1,7\n");
    const Diagnostic* d = find_code(g, "syntax");
    REQUIRE(d);
    CHECK(d->line == 4);
    CHECK(d->column == 3);
    CHECK(g.status == GameStatus::partial);
    CHECK(names(g) == Names{"h8", "i7"});
    // Off the board; text after the end code; a third name.
    CHECK(find_code(read_psq("Piskvorky 15x15, 11:11, 0\n16,1,7\n"), "illegal-move"));
    const GameRecord after_end = read_psq("Piskvorky 15x15, 11:11, 0\n8,8,7\nA\nB\n-1\n1,Freestyle\nmore\n");
    REQUIRE(find_code(after_end, "syntax"));
    CHECK(find_code(after_end, "syntax")->line == 7);
    CHECK(after_end.status == GameStatus::invalid); // every move is there
    CHECK(find_code(read_psq("Piskvorky 15x15, 11:11, 0\n8,8,7\nA\nB\nC\n"), "syntax"));
    CHECK(find_code(read_psq("Piskvorky 15x15, 11:11, 0\n8,8,7\nA\nB\n-1\n3,Freestyle\n"), "syntax"));
}

TEST_CASE("PSQ: an empty file is said, not skipped in silence; a file not in UTF-8 is read", "[parser][psq]") {
    std::vector<Diagnostic> file_diags;
    const GameRecord empty = read_psq(" \r\n\n", "e.psq", &file_diags);
    CHECK(empty.main.plies.empty());
    REQUIRE(file_diags.size() == 1);
    CHECK(file_diags[0].code == "syntax");
    const GameRecord latin = read_psq("Piskvorky 15x15, 11:11, 0\n8,8,7\nH\xE9l\xE8ne\nB\n-1\n", "l.psq", &file_diags);
    CHECK(tag_of(latin, "Black") == "H\u00e9l\u00e8ne");
    REQUIRE(file_diags.size() == 1);
    CHECK(file_diags[0].code == "not-utf8");
}

TEST_CASE("PSQ reading never crashes: every prefix and every one-character change", "[parser][psq]") {
    const std::string good = slurp(psq_dir / "freestyle.psq");
    REQUIRE(!good.empty());
    for_each_prefix_and_change(good, "0159,-x\n\r A", [](const std::string& text) {
        const GameRecord g = read_psq(text, "f.psq");
        for (const Diagnostic& d : g.diagnostics) {
            CHECK(d.line >= 1);
            CHECK(d.line <= 16);
        }
        CHECK(g.main.plies.size() <= 10);
        if (!g.is_stone_game()) { // no game read (an empty text): nothing to replay
            CHECK(g.main.plies.empty());
            return;
        }
        const stones::StonePosition end = g.final_stone_position();
        if (g.status == GameStatus::valid && end.game_over()) CHECK(g.result == outcome_text(end.outcome()));
    });
}

TEST_CASE("record formats: told by content first, then by name; forced by name", "[parser][formats]") {
    CHECK(format_of("a.psq", "Piskvorky 15x15, 11:11, 0\n") == RecordFormat::psq);
    CHECK(format_of("a.txt", "\xEF\xBB\xBFpiskvorky 20x20, 7:7, 0\r\n") == RecordFormat::psq);
    CHECK(format_of("a.gpn", "(;GM[4]") == RecordFormat::sgf);
    CHECK(format_of("a.psq", "Piskvork 15x15") == RecordFormat::psq); // a broken header: the name tells
    CHECK(format_of("a.SGF", "[Game \"Gomoku\"]") == RecordFormat::sgf);
    CHECK(format_of("a.txt", "[Game \"Gomoku\"]") == RecordFormat::gpn);
    CHECK(format_of("a.psq", "(;GM[4]", RecordFormat::gpn) == RecordFormat::gpn);
    CHECK(parse_record_format("PSQ") == RecordFormat::psq);
    CHECK(parse_record_format("sgf") == RecordFormat::sgf);
    CHECK_FALSE(parse_record_format("pgn"));
    CHECK(format_names_text() == "gpn, sgf, psq, renjunet, renlib or openings");
    for (const FormatInfo& f : record_formats()) CHECK(&format_info(f.format) == &f);
}

TEST_CASE("a folder given as an argument is every record file below it, sorted", "[parser][formats]") {
    TempDir dir("formats");
    fs::create_directories(dir / "b");
    for (const char* name : {"b/2.psq", "b/1.psq", "a.psq", "c.sgf", "notes.txt"}) std::ofstream(dir / name) << "x";
    fs::create_directories(dir / "empty");
    std::vector<Diagnostic> errors;
    const auto all = expand_inputs({dir.file("a.psq"), dir.path().string()}, std::nullopt, errors);
    CHECK(errors.empty());
    CHECK(all ==
          std::vector<std::string>{dir.file("a.psq"), dir.file("a.psq"), dir.file("b/1.psq"), dir.file("b/2.psq"),
                                   dir.file("c.sgf")});
    const auto psq = expand_inputs({dir.path().string()}, RecordFormat::psq, errors);
    CHECK(psq.size() == 3);
    CHECK(expand_inputs({dir.file("empty")}, std::nullopt, errors).empty());
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].code == "io-error");
    CHECK(errors[0].file == dir.file("empty"));
}

TEST_CASE("gounki validate and import read PSQ files, several at once and whole folders", "[parser][psq][cli]") {
    TempDir dir("psq-cli");
    fs::create_directories(dir / "games/sub");
    fs::copy_file(psq_dir / "freestyle.psq", dir / "games/1.psq");
    fs::copy_file(psq_dir / "occupied.psq", dir / "games/sub/2.psq");
    fs::copy_file(psq_dir / "crlf.psq", dir / "games/3.txt"); // not a record extension: left out of the folder
    const CliRun v = run_gounki("validate " + shell_quoted(dir / "games"));
    CHECK(v.status == 1);
    CHECK(contains(v.out, dir.file("games/sub/2.psq") + ":7:1: error: 3... 9,9,1100: the point i7 is occupied by a white stone"));
    CHECK(contains(v.out, "2 games in 2 files: 1 valid, 0 invalid, 1 partial; 1 error, 0 warnings"));
    // A PSQ file under another name is told by its content; --format forces a format.
    check_prints("validate " + shell_quoted(dir / "games/3.txt"), "1 game in 1 file: 1 valid");
    const CliRun forced = run_gounki("validate --format sgf " + shell_quoted(dir / "games/1.psq"));
    CHECK(forced.status == 1);
    CHECK(contains(forced.out, "[syntax]"));
    check_error("validate --format psg " + shell_quoted(dir / "games/1.psq"), 2,
                "--format must be gpn, sgf, psq, renjunet, renlib or openings, got 'psg'");
    fs::create_directories(dir / "none");
    const CliRun none = run_gounki("validate " + shell_quoted(dir / "none"));
    CHECK(none.status == 2);
    CHECK(contains(none.out, "the folder holds no record file"));

    const std::string db = "--db " + shell_quoted(dir / "g.db");
    const CliRun imp = run_gounki("import " + db + " " + shell_quoted(dir / "games") + " " + shell_quoted(dir / "games/3.txt"));
    CHECK(contains(imp.err, "3 games read: 3 stored (1 broken)"));
    const CliRun games = run_gounki("games " + db);
    CHECK(contains(games.out, "ALPHA.zip"));
    CHECK(contains(games.out, "GAMMA.zip"));
}

// Programs that keep no thinking times write a move as x,y alone, and the Piskvork manager reads such
// a line as a move: so does gounki (tests/data/psq/no_times.psq is the golden file). No time is no
// 0 ms either: such stones are never taken for the opening.
// Gomocup's manager writes a move, then judges it: a Renju game Black lost by a foul ends with the
// forbidden stone, and the result line gives White the game.
TEST_CASE("PSQ: a Renju game ending with Black's foul is whole, lost by Black; a foul before the end is an error", "[parser][psq]") {
    // Black's h8 (8,8) makes two free threes: g8 i8 (row 8) and h9 h7 (column h).
    const std::string moves = "Piskvorky 15x15, 11:11, 0\n7,8,10\n1,15,10\n9,8,10\n1,1,10\n8,9,10\n15,15,10\n8,7,10\n15,1,10\n";
    const GameRecord foul = read_psq(moves + "8,8,10\nA.zip\nB.zip\n-1\n2,Renju\n");
    CHECK(foul.kind == GameKind::renju);
    CHECK(foul.status == GameStatus::valid);
    REQUIRE(foul.diagnostics.size() == 1);
    CHECK(foul.diagnostics[0].code == "foul");
    CHECK(foul.diagnostics[0].severity == Severity::warning);
    CHECK(foul.diagnostics[0].line == 10);
    CHECK(foul.diagnostics[0].left_out); // `format` keeps the file as written
    CHECK(contains(foul.diagnostics[0].message, "Black's h8 is a foul"));
    CHECK(contains(foul.diagnostics[0].message, "double-three"));
    CHECK(foul.main.plies.size() == 8); // the game ends before the foul
    CHECK(contains(foul.main.plies.back().comments.at(0), "Black's h8 (8,8,10) is a foul"));
    CHECK(foul.result == "1-0");
    CHECK(tag_of(foul, "Black") == "A.zip");
    // A result line giving Black the game contradicts it.
    const GameRecord contradicted = read_psq(moves + "8,8,10\nA.zip\nB.zip\n-1\n1,Renju\n");
    CHECK(contains(find_code(contradicted, "result-contradicts")->message, "Black's last stone is a foul"));
    CHECK(contradicted.status == GameStatus::invalid);
    // A foul with moves after it is no ending: an error there, the game partial.
    const GameRecord on = read_psq(moves + "8,8,10\n2,2,10\nA.zip\nB.zip\n-1\n2,Renju\n");
    CHECK(on.diagnostics.at(0).code == "illegal-move");
    CHECK(on.status == GameStatus::partial);
    // Freestyle Gomoku has no foul: the same stone is a move like any other.
    const GameRecord gomoku = read_psq(moves + "8,8,10\nA.zip\nB.zip\n-1\n2,Freestyle15\n");
    CHECK(gomoku.main.plies.size() == 9);
    CHECK_FALSE(find_code(gomoku, "foul"));
}

TEST_CASE("PSQ: a move x,y without its time reads, and is not taken for an opening stone", "[parser][psq]") {
    const GameRecord g = read_psq("Piskvorky 15x15, 0:0, 0\n8,8\n9, 9\n8,9,0\n9,10\nA\nB\n-1\n1,Freestyle\n");
    CHECK(g.status == GameStatus::valid);
    CHECK(names(g) == Names{"h8", "i7", "h7", "i6"});
    CHECK(tag_of(g, "OpeningStones") == "<none>");
    CHECK(tag_of(g, "Black") == "A");
    CHECK(g.result == "0-1");
    // Around it, what is no move is still an error at its line and column.
    const GameRecord comma = read_psq("Piskvorky 15x15, 0:0, 0\n8,8\n9,9,\n");
    check_diagnostic(comma, "syntax", 3, 5, "x,y,milliseconds (or x,y)");
    CHECK(names(comma) == Names{"h8"});
    CHECK(comma.status == GameStatus::partial);
    const GameRecord three = read_psq("Piskvorky 15x15, 0:0, 0\n8,8\n9,9,1,1\n");
    REQUIRE(find_code(three, "syntax"));
    CHECK(find_code(three, "syntax")->line == 3);
    const GameRecord off = read_psq("Piskvorky 15x15, 0:0, 0\n8,8\n16,1\n");
    REQUIRE(find_code(off, "illegal-move"));
    CHECK(find_code(off, "illegal-move")->line == 3);
    CHECK(contains(find_code(off, "illegal-move")->message, "off the 15x15 board"));
}

// The thinking times are the file's own data: `format` and `export --format psq` rewrote every one
// as 0 or 1 ms. They are kept in the MoveTimes tag and written back, a move without a time as x,y.
TEST_CASE("PSQ: the thinking times are kept (MoveTimes) and written back as they were", "[parser][psq][export]") {
    const GameRecord g = read_psq("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n8,9,456\n9,10\n7,7,12000\nA\nB\n-1\n");
    CHECK(tag_of(g, "MoveTimes") == "0 0 456 - 12000");
    CHECK(tag_of(g, "OpeningStones") == "2");
    const std::string written = write_psq(g);
    CHECK(contains(written, "\n8,8,0\n9,9,0\n8,9,456\n9,10\n7,7,12000\n"));
    const GameRecord again = read_psq(written);
    CHECK(tag_of(again, "MoveTimes") == "0 0 456 - 12000");
    CHECK(tag_of(again, "OpeningStones") == "2");
    CHECK(names(again) == names(g));
    // Without the tag (a game from another format), 0 ms for the opening and 1 ms for the rest,
    // which reads back without a MoveTimes tag; a tag that does not fit the moves is not used.
    GameRecord bare = g;
    bare.tags.erase(std::find_if(bare.tags.begin(), bare.tags.end(), [](const auto& t) { return t.first == "MoveTimes"; }));
    CHECK(contains(write_psq(bare), "\n8,8,0\n9,9,0\n8,9,1\n9,10,1\n7,7,1\n"));
    CHECK(tag_of(read_psq(write_psq(bare)), "MoveTimes") == "<none>");
    bare.tags.emplace_back("MoveTimes", "5 5");
    CHECK(contains(write_psq(bare), "\n8,9,1\n"));
    // Only the moves replayed: a partial game keeps the times of the moves before its error.
    CHECK(tag_of(read_psq("Piskvorky 15x15, 0:0, 0\n8,8,30\n8,8,40\n9,9,50\n"), "MoveTimes") == "30");
    // gounki format keeps them in the file it rewrites.
    const CliRun formatted = run_gounki("format " + shell_quoted(psq_dir / "classic20.psq"));
    CHECK(formatted.status == 0);
    CHECK(contains(formatted.out, "\n10,10,456\n"));
}

// Gomocup's opening lists: offsets x,y from the centre (x to the right, y down), one opening a
// line; the board and rule from the file's name as Gomocup names its lists.
TEST_CASE("Gomocup opening lists: offsets from the centre, the board and rule from the file's name", "[parser][formats]") {
    const std::string list = "0,0, 1,1, -1,2\r\n\n  8,-3, 6,-4\n0,0, 1,1, 1,1\n3,x\n7,7, -7,-7\n";
    std::vector<Diagnostic> file_diagnostics;
    const std::vector<GameRecord> fifteen = read_openings(list, "openings_freestyle15.txt", &file_diagnostics);
    CHECK(file_diagnostics.empty());
    REQUIRE(fifteen.size() == 5);
    for (const GameRecord& g : fifteen) {
        CHECK(g.kind == GameKind::gomoku);
        CHECK(g.start.as_stones().size() == 15);
        CHECK(g.tag("Size") == nullptr);
    }
    // (0,0) is the centre h8; x counts to the right, y down: (1,1) is i7, (-1,2) g6.
    CHECK(names(fifteen[0]) == Names{"h8", "i7", "g6"});
    CHECK(fifteen[0].status == GameStatus::valid);
    CHECK(fifteen[0].line == 1);
    // 8 from the centre is off a 15x15 board; the blank line is passed over, lines still counted.
    CHECK(fifteen[1].line == 3);
    CHECK(fifteen[1].status == GameStatus::partial);
    REQUIRE(fifteen[1].diagnostics.size() == 1);
    CHECK(fifteen[1].diagnostics[0].code == "illegal-move");
    CHECK(fifteen[1].diagnostics[0].column == 3);
    CHECK(contains(fifteen[1].diagnostics[0].message, "off the 15x15 board (offsets from -7 to 7 from its centre)"));
    CHECK(fifteen[2].diagnostics.at(0).code == "illegal-move");
    CHECK(names(fifteen[2]) == Names{"h8", "i7"});
    CHECK(fifteen[3].diagnostics.at(0).code == "syntax");
    CHECK(fifteen[3].diagnostics[0].line == 5);
    CHECK(fifteen[3].diagnostics[0].column == 3);
    CHECK(fifteen[3].main.plies.empty());
    CHECK(names(fifteen[4]) == Names{"o1", "a15"}); // the corners: 7 right and down, 7 left and up
    // Gomocup's freestyle list without a size is on 20x20, whose centre is k10 (10,10 from the top left).
    const std::vector<GameRecord> twenty = read_openings(list, "openings_freestyle.txt");
    CHECK(twenty[0].start.as_stones().size() == 20);
    CHECK(names(twenty[0]) == Names{"k10", "l9", "j8"});
    CHECK(names(twenty[1]) == Names{"s13", "q14"});
    CHECK(*twenty[0].tag("Size") == "20");
    // Renju and standard Gomoku by name, on 15x15; a forbidden point is an error as in any record.
    const std::vector<GameRecord> renju = read_openings("0,0, 0,-1, 1,1\n", "openings_renju.txt");
    CHECK(renju.at(0).kind == GameKind::renju);
    CHECK(names(renju[0]) == Names{"h8", "h9", "i7"});
    const std::vector<GameRecord> standard = read_openings("0,0, 0,-1\n", "openings_standard.txt");
    CHECK(*standard.at(0).tag("Rules") == "standard");
    // Another name: freestyle on 15x15; a size the game does not have is said, nothing placed.
    CHECK(read_openings("0,0\n", "mine.txt").at(0).start.as_stones().size() == 15);
    // Blanks alone between two stones, as engine-match programs also take; within a stone, a comma.
    CHECK(names(read_openings("0,0 1,1  -1,2\n", "openings_freestyle15.txt").at(0)) == Names{"h8", "i7", "g6"});
    CHECK(read_openings("0,0 1 1\n", "openings_freestyle15.txt").at(0).diagnostics.at(0).code == "syntax");
    // ... unless a stone of the list lies off 15x15 (Gomocup's older lists saved as openings.txt): then
    // every opening of it is on 20x20, the first one too.
    const std::vector<GameRecord> saved = read_openings("0,0, 1,1\n-2,-9, -1,-9\n", "openings.txt");
    REQUIRE(saved.size() == 2);
    for (const GameRecord& g : saved) {
        CHECK(g.start.as_stones().size() == 20);
        CHECK(g.status == GameStatus::valid);
    }
    CHECK(names(saved[0]) == Names{"k10", "l9"});
    CHECK(names(saved[1]) == Names{"i19", "j19"});
    CHECK(read_openings("h8i9\np3\n", "openings.txt").at(0).start.as_stones().size() == 20); // column p
    CHECK(read_openings("h8i9\no15\n", "openings.txt").at(0).start.as_stones().size() == 15); // o15 is on 15x15
    CHECK(read_openings("0,0\n8,0\n", "openings_renju.txt").at(1).diagnostics.at(0).code == "illegal-move"); // Renju: 15x15
    const GameRecord huge = read_openings("0,0\n", "openings_99.txt").at(0);
    CHECK(huge.diagnostics.at(0).code == "bad-rules");
    CHECK(huge.status == GameStatus::partial);

    // Pos notation, as engine-match programs also take lists: each point a column's letter and a
    // row's number counted from 1 at the top, nothing between the points; a file may mix the two.
    const std::vector<GameRecord> pos =
        read_openings("d3e5f6d7\n  k10J10 \n0,0, 1,1\nd3x\nz1a1\na0\n", "pos_freestyle_20x20.txt");
    REQUIRE(pos.size() == 6);
    CHECK(names(pos[0]) == Names{"d18", "e16", "f15", "d14"}); // row 3 from the top of 20 is rank 18
    CHECK(pos[0].status == GameStatus::valid);
    CHECK(names(pos[1]) == Names{"k11", "j11"});
    CHECK(names(pos[2]) == Names{"k10", "l9"});
    CHECK(pos[3].diagnostics.at(0).code == "syntax");
    CHECK(pos[3].diagnostics[0].column == 3);
    CHECK(contains(pos[3].diagnostics[0].message, "in pos notation"));
    CHECK(pos[4].diagnostics.at(0).code == "illegal-move");
    CHECK(pos[4].diagnostics[0].column == 1);
    CHECK(contains(pos[4].diagnostics[0].message, "off the 20x20 board (columns a to t, rows 1 to 20 from the top)"));
    CHECK(pos[5].diagnostics.at(0).code == "syntax"); // rows count from 1

    // Told by the first line alone: offsets (digits, signs, commas, blanks), or two points or more
    // in pos notation.
    CHECK(format_of("x.txt", "0,0, 1,1\n3,x\n") == RecordFormat::openings);
    CHECK(format_of("x.txt", "d3e5f6d7\n") == RecordFormat::openings);
    CHECK(format_of("x.txt", "\xEF\xBB\xBF d3e5 \r\n") == RecordFormat::openings);
    CHECK(format_of("x.txt", "1. h8 i9\n") == RecordFormat::gpn);
    CHECK(format_of("x.txt", "h8 i9\n") == RecordFormat::gpn);
    CHECK(format_of("x.txt", "h8\n") == RecordFormat::gpn);
    CHECK(format_of("x.txt", "0 0\n") == RecordFormat::gpn);
    // A PSQ file cut of its header starts as a list does: its name keeps it PSQ, whose reader says
    // the header is missing (as a list, each of its points would be an opening).
    CHECK(format_of("game.psq", "7,7\n8,8\n") == RecordFormat::psq);
    CHECK(format_of("openings.txt", "7,7\n8,8\n") == RecordFormat::openings);
    const GameRecord cut = read_psq("7,7\n8,8\n");
    CHECK(cut.diagnostics.at(0).code == "syntax");
    CHECK(contains(cut.diagnostics[0].message, "a PSQ file starts with a header"));
    // No extension of its own: a .txt named as Gomocup names its lists (openings_renju.txt) is one,
    // so that a folder or an archive of a tournament's results yields its lists; other .txt are not.
    CHECK(has_record_extension("openings.txt"));
    CHECK(has_record_extension("Openings_Freestyle15.TXT"));
    CHECK(has_record_extension("openings_renju.txt", RecordFormat::openings));
    CHECK_FALSE(has_record_extension("openings_renju.txt", RecordFormat::gpn));
    CHECK_FALSE(has_record_extension("results.txt"));
    CHECK_FALSE(has_record_extension("openings.md"));
    const TempDir dir("openings");
    write_text(dir / "openings_renju.txt", "0,0, 0,-1, 1,1\n0,0, 0,-1, 0,-1\n");
    write_text(dir / "results.txt", "ALPHA 12 points\n");
    const CliRun run = run_gounki("validate " + shell_quoted(dir / "openings_renju.txt"));
    CHECK(run.status == 1);
    CHECK(contains(run.out, "openings_renju.txt:2:12: error: 2. 0,-1: the point h9 is occupied by a white stone [illegal-move]"));
    CHECK(contains(run.out, "2 games in 1 file: 1 valid, 0 invalid, 1 partial"));
    const CliRun folder = run_gounki("validate " + shell_quoted(dir.path()));
    CHECK(contains(folder.out, "2 games in 1 file: 1 valid, 0 invalid, 1 partial"));
    CHECK_FALSE(contains(folder.out, "results.txt"));
    CHECK(contains(run_gounki("validate --help").out, "openings: a Gomocup"));
    // export -o openings.txt writes GPN as before: gounki writes no lists, and the name is no format.
    const std::string db = shell_quoted(dir / "o.db");
    run_gounki("import --db " + db + " " + shell_quoted(dir / "openings_renju.txt"));
    const CliRun exported = run_gounki("export --db " + db + " --all -o " + shell_quoted(dir / "openings_out.txt"));
    CHECK(exported.status == 0);
    CHECK(contains(slurp(dir / "openings_out.txt"), "[Game \"Renju\"]"));
}
