// SGF import (parser/sgf/sgf.hpp) of Gomoku and Ninuki games: collections, variations, syntax errors,
// moves the rules refuse, results, set-up stones, which files are SGF, `gounki validate` on SGF, and
// never a crash. Coordinates by hand: SGF "hh" on 15x15 is column h, row h (8th from the top), so
// rank 15 - 7 = 8: h8. Row letter r gives rank size - (r - 'a').
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <fstream>
#include <string>

#include "core/stones/position.hpp"
#include "parser/encoding.hpp"
#include "parser/sgf/sgf.hpp"

using namespace gounki;
using namespace gounki::stones;
using namespace gounki::test;

namespace {

using gounki::parser::Diagnostic;
using gounki::parser::GameRecord;
using gounki::parser::GameStatus;
using gounki::parser::Line;

using Names = std::vector<std::string>;

GameRecord one_sgf(const std::string& text) { return only_game(gounki::parser::read_sgf(text, "t.sgf")); }

} // namespace

TEST_CASE("SGF: a collection with variations and comments, read game by game", "[parser][sgf]") {
    const std::string path = std::string(GOUNKI_SOURCE_DIR) + "/tests/data/sgf/variations.sgf";
    gounki::parser::SgfReader reader{std::filesystem::path(path)};
    REQUIRE(reader.ok());
    GameRecord g;
    REQUIRE(reader.next(g));
    CHECK(g.kind == GameKind::gomoku);
    CHECK(g.is_stone_game());
    CHECK(g.number == 1);
    CHECK(g.line == 1);
    CHECK(g.file == path);
    CHECK(tag_of(g, "Game") == "Gomoku");
    CHECK(tag_of(g, "Event") == "Club evening");
    CHECK(tag_of(g, "Date") == "2024.05.01");
    CHECK(tag_of(g, "Black") == "Black Player");
    CHECK(tag_of(g, "White") == "White ] Player"); // the escaped bracket
    CHECK(tag_of(g, "Result") == "0-1"); // B+5
    CHECK(tag_of(g, "Size") == "15");
    CHECK(g.start.as_stones() == StonePosition(gomoku(15)));
    CHECK(g.main.comments == std::vector<std::string>{"A short game with a variation"});
    // hh ih hg ig hf if he ie hd: h8 i8 h9 i9 h10 i10 h11 i11 h12, Black's five on the h file.
    CHECK(point_names(g.main) == Names{"h8", "i8", "h9", "i9", "h10", "i10", "h11", "i11", "h12"});
    REQUIRE(g.main.plies.size() == 9);
    CHECK(g.main.plies[0].comments == std::vector<std::string>{"centre"});
    CHECK(g.main.plies[3].comments == std::vector<std::string>{"blocks\non two lines"});
    CHECK(g.main.plies[8].comments == std::vector<std::string>{"five in a column: h8 to h12"});
    // The second child of the node after W[ih] replaces B[hg]: ii gg (i7 g9), then aa or oo (a15, o1).
    REQUIRE(g.main.plies[2].variations.size() == 1);
    const Line& v = g.main.plies[2].variations[0];
    CHECK(point_names(v) == Names{"i7", "g9", "a15"});
    CHECK(v.plies[0].comments == std::vector<std::string>{"a variation"});
    REQUIRE(v.plies[2].variations.size() == 1);
    CHECK(point_names(v.plies[2].variations[0]) == Names{"o1"});
    CHECK(v.plies[2].variations[0].plies[0].comments == std::vector<std::string>{"corner"});
    for (std::size_t i = 0; i < 9; ++i)
        if (i != 2) CHECK(g.main.plies[i].variations.empty());
    CHECK(g.result == "0-1");
    CHECK(g.status == GameStatus::valid);
    CHECK(g.diagnostics.empty());
    CHECK(g.final_stone_position().outcome() == Outcome::black_wins);

    REQUIRE(reader.next(g));
    CHECK(g.number == 2);
    CHECK(g.line == 16);
    CHECK(g.kind == GameKind::ninuki);
    CHECK(tag_of(g, "Game") == "Ninuki");
    CHECK(g.start.as_stones() == StonePosition(ninuki(19)));
    // jj kk on 19x19: j10, k9.
    CHECK(point_names(g.main) == Names{"j10", "k9"});
    CHECK(g.result == "1-0"); // W+R: a resignation on an open board
    CHECK(g.status == GameStatus::valid);
    CHECK(g.diagnostics.empty());
    CHECK_FALSE(reader.next(g));
    CHECK(reader.take_file_diagnostics().empty());
    CHECK(reader.games_read() == 2);
}

TEST_CASE("SGF: malformed text is a syntax error at its line and column; the next game is read", "[parser][sgf]") {
    const std::string path = std::string(GOUNKI_SOURCE_DIR) + "/tests/data/sgf/malformed.sgf";
    std::vector<Diagnostic> file_diags;
    const auto games = gounki::parser::read_sgf(slurp(path), path, &file_diags);
    REQUIRE(games.size() == 2);
    const GameRecord& g = games[0];
    // Line 3 is ";W[ih]x": the stray x is column 7. The main line keeps the moves before it.
    const Diagnostic* d = find_code(g, "syntax");
    REQUIRE(d != nullptr);
    CHECK(d->line == 3);
    CHECK(d->column == 7);
    CHECK(d->file == path);
    CHECK(d->game == 1);
    CHECK(g.status == GameStatus::partial);
    CHECK(point_names(g.main) == Names{"h8", "i8"});
    CHECK(gounki::parser::format_diagnostic(*d).find(path + ":3:7:") == 0);
    // Game 2 (line 5): aa bb on 15x15 are a15 b14.
    CHECK(games[1].status == GameStatus::valid);
    CHECK(games[1].line == 5);
    CHECK(point_names(games[1].main) == Names{"a15", "b14"});
    CHECK(file_diags.empty());
}

TEST_CASE("SGF: other syntax errors", "[parser][sgf]") {
    auto [text, line, column] = GENERATE(table<std::string, int, int>({
        {"(;GM[4];B[hh]C[oops", 1, 15}, // a value never closed: at its '['
        {"(;GM[4];B[hh]", 1, 14}, // ')' missing: at the end
        {"(;GM[4];B[hh];W[ih]B)", 1, 21}, // a property without a value: where '[' was expected
        {"(;GM[4]\n;B[hh](;W[ih]);B[hg])", 2, 15}, // a node after a variation
        {"(;GM[4];B[hh]())", 1, 15}, // an empty game tree
    }));
    INFO(text);
    const GameRecord g = one_sgf(text);
    const Diagnostic* d = find_code(g, "syntax");
    REQUIRE(d != nullptr);
    CHECK(d->line == line);
    CHECK(d->column == column);
    CHECK(g.status != GameStatus::valid);
    CHECK(point_names(g.main).size() <= 2); // the moves before the fault
}

TEST_CASE("SGF: a syntax error quotes a whole character and never half of one", "[parser][sgf]") {
    auto [text, quoted] = GENERATE(table<std::string, std::string>({
        {"(;GM[4];B[hh]\xc3\xa9;W[ii])", "unexpected '\xc3\xa9'"}, // é, two bytes
        {"(;GM[4];B[hh]\xe2\x82\xac;W[ii])", "unexpected '\xe2\x82\xac'"}, // €, three bytes
        {"(;GM[4];B[hh]K\xf0\x9f\x98\x80)", "found '\xf0\x9f\x98\x80'"}, // an emoji after a property name
    }));
    INFO(text);
    const GameRecord g = one_sgf(text);
    const Diagnostic* d = find_code(g, "syntax");
    REQUIRE(d != nullptr);
    CHECK(contains(d->message, quoted));
    std::size_t bad = 0;
    CHECK(parser::valid_utf8(d->message, bad));
    // A lone byte that starts no character is named as a byte.
    const GameRecord lone_game = one_sgf("(;GM[4];B[hh]\xe9;W[ii])");
    const Diagnostic* lone = find_code(lone_game, "syntax");
    REQUIRE(lone != nullptr);
    CHECK(parser::valid_utf8(lone->message, bad));
}

TEST_CASE("SGF: a move on an occupied point, off the board, of the wrong colour, a pass", "[parser][sgf]") {
    {
        // (;GM[4];B[hh];W[hh]): W is column 15.
        const GameRecord g = one_sgf("(;GM[4];B[hh];W[hh])");
        const Diagnostic* d = find_code(g, "illegal-move");
        REQUIRE(d != nullptr);
        CHECK(d->line == 1);
        CHECK(d->column == 15);
        CHECK(d->message.find("occupied") != std::string::npos);
        CHECK(d->message.find("h8") != std::string::npos);
        CHECK(d->move_number == 1);
        CHECK(d->side == Color::white);
        CHECK(d->written == "W[hh]");
        CHECK(g.status == GameStatus::partial);
        CHECK(point_names(g.main) == Names{"h8"});
    }
    {
        const GameRecord g = one_sgf("(;GM[4]SZ[15];B[hh];W[pp])");
        const Diagnostic* d = find_code(g, "illegal-move");
        REQUIRE(d != nullptr);
        CHECK(d->message.find("off the 15x15") != std::string::npos);
        CHECK(point_names(g.main) == Names{"h8"});
        // On 19x19 pp is p4.
        CHECK(point_names(one_sgf("(;GM[4]SZ[19];B[hh];W[pp])").main) == Names{"h12", "p4"});
    }
    {
        const GameRecord g = one_sgf("(;GM[4];B[hh];B[ii])");
        const Diagnostic* d = find_code(g, "illegal-move");
        REQUIRE(d != nullptr);
        CHECK(d->message.find("White is to move") != std::string::npos);
    }
    {
        const GameRecord g = one_sgf("(;GM[4];B[hh];W[])");
        const Diagnostic* d = find_code(g, "illegal-move");
        REQUIRE(d != nullptr);
        CHECK(d->message.find("pass") != std::string::npos);
    }
    {
        // RIF's Renju rules allow a pass, which gounki does not replay: said so, not called illegal;
        // the game keeps its moves before it (partial), `tt` as well as the empty value.
        for (const char* pass : {"W[]", "W[tt]"}) {
            INFO(pass);
            const GameRecord g = one_sgf(std::string("(;GM[4]RU[renju];B[hh];W[hg];B[hf];") + pass + ";B[ii])");
            CHECK(find_code(g, "illegal-move") == nullptr);
            const Diagnostic* d = find_code(g, "unsupported-move");
            REQUIRE(d != nullptr);
            CHECK(d->message.find("Renju's rules allow it") != std::string::npos);
            CHECK(d->move_number == 2);
            CHECK(d->side == Color::white);
            CHECK(g.status == GameStatus::partial);
            CHECK(point_names(g.main) == Names{"h8", "h9", "h10"});
        }
    }
}

TEST_CASE("SGF: Ninuki's forbidden double-three, and RU switching the rule off", "[parser][sgf]") {
    // On 19x19 row letter r is rank 19 - (r - 'a'): kj k10, lj l10, ji j11, jh j12, jj j10;
    // as cs es gs: a1 c1 e1 g1. Black's jj makes two free threes through j10.
    const std::string moves = ";B[kj];W[as];B[lj];W[cs];B[ji];W[es];B[jh];W[gs];B[jj])";
    const GameRecord g = one_sgf("(;GM[4]SZ[19]RU[Ninuki]" + moves);
    CHECK(g.kind == GameKind::ninuki);
    const Diagnostic* d = find_code(g, "illegal-move");
    REQUIRE(d != nullptr);
    CHECK(d->message.find("double-three") != std::string::npos);
    CHECK(d->message.find("j10") != std::string::npos);
    CHECK(d->move_number == 5);
    CHECK(d->side == Color::black);
    CHECK(g.status == GameStatus::partial);
    CHECK(point_names(g.main) == Names{"k10", "a1", "l10", "c1", "j11", "e1", "j12", "g1"});

    const GameRecord free = one_sgf("(;GM[4]RU[Gomoku Ninuki, allow-double-three]" + moves);
    CHECK(free.kind == GameKind::ninuki);
    CHECK_FALSE(free.start.as_stones().rules().no_double_three);
    CHECK(free.start.as_stones().rules().endgame_capture);
    CHECK(tag_of(free, "Rules") == rules_tag_text(free.start.as_stones().rules()));
    CHECK(free.status == GameStatus::valid);
    CHECK(free.main.plies.size() == 9);
    // In Gomoku there is no such rule.
    CHECK(one_sgf("(;GM[4]SZ[19]" + moves).status == GameStatus::valid);
}

TEST_CASE("SGF: results, moves after the end, other games", "[parser][sgf]") {
    const std::string five = ";B[hh];W[ih];B[hg];W[ig];B[hf];W[if];B[he];W[ie];B[hd]";
    {
        const GameRecord g = one_sgf("(;GM[4]RE[W+5]" + five + ")");
        const Diagnostic* d = find_code(g, "result-contradicts");
        REQUIRE(d != nullptr);
        CHECK(d->column == 8);
        CHECK(g.status == GameStatus::invalid);
        CHECK(g.main.plies.size() == 9);
        CHECK(g.result == "1-0");
    }
    for (const char* re : {"B+", "B+5", "b+resign"})
        CHECK(one_sgf(std::string("(;GM[4]RE[") + re + "]" + five + ")").status == GameStatus::valid);
    CHECK(one_sgf("(;GM[4]RE[0];B[hh])").result == "1/2-1/2");
    CHECK(one_sgf("(;GM[4]RE[Draw];B[hh])").result == "1/2-1/2");
    CHECK(one_sgf("(;GM[4]RE[?];B[hh])").result == "*");
    CHECK(one_sgf("(;GM[4];B[hh])").result == "*");
    CHECK(one_sgf("(;GM[4]" + five + ")").result == "0-1"); // no RE: the board decides
    {
        const GameRecord g = one_sgf("(;GM[4]RE[B+]" + five + ";W[aa])");
        const Diagnostic* d = find_code(g, "move-after-end");
        REQUIRE(d != nullptr);
        CHECK(d->message.find("Black won with 5. h12") != std::string::npos);
        CHECK(g.status == GameStatus::partial);
        CHECK(g.main.plies.size() == 9);
    }
    {
        const GameRecord g = one_sgf("(;GM[1]SZ[19]RE[B+R];B[pd];W[dp])");
        CHECK(find_code(g, "unsupported-game") != nullptr);
        CHECK(g.main.plies.empty());
        CHECK(g.status == GameStatus::partial);
        CHECK(one_sgf("(;GM[4]RU[Renju];B[hh])").status == GameStatus::valid); // a game of the registry
    }
    {
        const GameRecord g = one_sgf("(;FF[4];B[hh])");
        const Diagnostic* d = find_code(g, "missing-game");
        REQUIRE(d != nullptr);
        CHECK(d->severity == gounki::parser::Severity::warning);
        CHECK(g.status == GameStatus::valid);
        CHECK(g.kind == GameKind::gomoku);
    }
    CHECK(find_code(one_sgf("(;GM[4]SZ[17];B[hh])"), "bad-rules") != nullptr);
}

TEST_CASE("SGF: set-up stones, first player, whitespace everywhere", "[parser][sgf]") {
    const GameRecord g = one_sgf(" \n ( ; GM [4]\r\n SZ[15] AB[hh][ii] AW [ih] PL[W]\n ; W\n[aa] C[one] [two] )\n");
    CHECK(g.status == GameStatus::valid);
    CHECK(g.start.as_stones().at(P("h8")) == Stone::black);
    CHECK(g.start.as_stones().at(P("i7")) == Stone::black);
    CHECK(g.start.as_stones().at(P("i8")) == Stone::white);
    CHECK(g.start.as_stones().side_to_move() == Color::white);
    CHECK(tag_of(g, "SetUp") == "1");
    CHECK(tag_of(g, "Position") == g.start.as_stones().to_text());
    CHECK(point_names(g.main) == Names{"a15"});
    CHECK(g.main.plies[0].comments == std::vector<std::string>{"one", "two"});
    CHECK(g.line == 2);
}

TEST_CASE("SGF: which files are read as SGF", "[parser][sgf]") {
    using gounki::parser::looks_like_sgf;
    CHECK(looks_like_sgf("games.sgf", ""));
    CHECK(looks_like_sgf("GAMES.SGF", "[Game \"Gounki\"]"));
    CHECK(looks_like_sgf("games.txt", "\n  (;GM[4]"));
    CHECK(looks_like_sgf("games.txt", "( \n ;GM[4]"));
    CHECK(looks_like_sgf("games", "\xEF\xBB\xBF(;GM[4]"));
    CHECK_FALSE(looks_like_sgf("games.gpn", "[Game \"Gomoku\"]"));
    CHECK_FALSE(looks_like_sgf("games.gpn", "(1. c2-d3)"));
    CHECK_FALSE(looks_like_sgf("games.gpn", ""));
}

TEST_CASE("SGF: text outside the game trees is reported once a stretch and passed over", "[parser][sgf]") {
    // Prose (a mail header, a line of dashes after the game, as a Renju program's test data ends) is
    // a warning: nothing of a game is in it.
    std::vector<Diagnostic> file_diags;
    auto games = gounki::parser::read_sgf("junk (x)\n(;GM[4];B[hh])\ntrailer ---\n", "t.sgf", &file_diags);
    REQUIRE(games.size() == 1);
    CHECK(point_names(games[0].main) == Names{"h8"});
    REQUIRE(file_diags.size() == 2);
    for (const Diagnostic& d : file_diags) {
        CHECK(d.code == "text-outside-game");
        CHECK(d.severity == gounki::parser::Severity::warning);
    }
    CHECK(file_diags[0].line == 1);
    CHECK(file_diags[0].column == 1);
    CHECK(file_diags[1].line == 3);
    // Text that holds a property (a game whose "(;" is damaged) is an error: a game may be lost.
    file_diags.clear();
    games = gounki::parser::read_sgf("(;GM[4];B[hh])\n;GM[4];B[ii];W[jj])\n(;GM[4];B[kk])\n", "t.sgf", &file_diags);
    REQUIRE(games.size() == 2);
    CHECK(point_names(games[1].main) == Names{"k5"});
    REQUIRE(file_diags.size() == 1);
    CHECK(file_diags[0].code == "syntax");
    CHECK(file_diags[0].severity == gounki::parser::Severity::error);
    CHECK(file_diags[0].line == 2);
    CHECK(file_diags[0].message.find("a game may be lost") != std::string::npos);
    // A file of text and no game tree at all (another format read as SGF) is an error.
    file_diags.clear();
    CHECK(gounki::parser::read_sgf("Piskvorky 15x15, 11:11, 0\n8,8,0\n", "t.sgf", &file_diags).empty());
    REQUIRE(file_diags.size() == 1);
    CHECK(file_diags[0].code == "syntax");
    CHECK(file_diags[0].severity == gounki::parser::Severity::error);
}

TEST_CASE("gounki validate reads SGF files: by name or by content", "[parser][sgf][cli]") {
    const std::string dir = std::string(GOUNKI_SOURCE_DIR) + "/tests/data/sgf/";
    const auto ok = run_gounki("validate '" + dir + "variations.sgf'");
    CHECK(ok.status == 0);
    CHECK(ok.out.find("2 games in 1 file: 2 valid, 0 invalid, 0 partial") != std::string::npos);

    const auto bad = run_gounki("validate '" + dir + "malformed.sgf'");
    CHECK(bad.status == 1);
    CHECK(bad.out.find(dir + "malformed.sgf:3:7: error:") != std::string::npos);
    CHECK(bad.out.find("[syntax]") != std::string::npos);
    CHECK(bad.out.find("1 valid, 0 invalid, 1 partial") != std::string::npos);

    // Another name: the text's "(;" decides.
    TempDir tmp("sgf");
    {
        std::ofstream f(tmp / "games.txt", std::ios::binary);
        f << "\n(;GM[4]RE[W+5];B[hh];W[ih];B[hg];W[ig];B[hf];W[if];B[he];W[ie];B[hd])\n";
    }
    const auto named = run_gounki("validate --json '" + (tmp / "games.txt").string() + "'");
    CHECK(named.status == 1);
    CHECK(named.out.find("\"code\":\"result-contradicts\"") != std::string::npos);
    CHECK(named.out.find("\"line\":2") != std::string::npos);

    // Dashes after the game, no line break before them (a Renju program's test data): a warning, the
    // game valid, validate content.
    { std::ofstream(tmp / "dashes.sgf", std::ios::binary) << "(;GM[4]FF[4]SZ[15];B[hh];W[hg];B[jf];)---"; }
    const auto dashes = run_gounki("validate " + shell_quoted(tmp / "dashes.sgf"));
    CHECK(dashes.status == 0);
    CHECK(contains(dashes.out, "dashes.sgf:1:39: warning: text outside any game tree is passed over"));
    CHECK(contains(dashes.out, "[text-outside-game]"));
    CHECK(contains(dashes.out, "1 game in 1 file: 1 valid, 0 invalid, 0 partial"));
}

TEST_CASE("gounki format keeps a game whose SGF markup it would lose as written", "[parser][sgf][cli]") {
    TempDir tmp("sgf-markup");
    const std::string marked = "(;FF[4]GM[4]SZ[15]PB[a]PW[b];B[hh]BL[299.5]N[Key move]LB[ii:A][jj:B];W[ii]MA[hh]TR[jj]V[0.5])\n";
    const std::string plain = "(;FF[4]GM[4]SZ[15]KM[0]HA[0]SW[NO]AP[Some app:1.0]PB[c]PW[d];B[hh];W[ii])\n";
    { std::ofstream(tmp / "g.sgf", std::ios::binary) << marked << plain; }
    const GameRecord g = one_sgf(marked);
    CHECK(g.passed_over == "BL N LB MA TR V");
    CHECK(g.diagnostics.empty()); // passed over without a word on reading (docs/rules.md 4.1)
    CHECK(one_sgf(plain).passed_over.empty()); // komi, handicap, a swap answer, the program: nothing a reader misses
    const CliRun r = run_gounki("format --in-place " + shell_quoted(tmp / "g.sgf"));
    CHECK(r.status == 1); // a game kept as written
    CHECK(contains(r.err, "game 1 kept as written: it holds what gounki keeps nowhere (BL N LB MA TR V)"));
    const std::string after = slurp(tmp / "g.sgf");
    CHECK(contains(after, marked)); // byte for byte
    CHECK(contains(after, "PB[c]PW[d]RE[?];B[hh];W[ii])")); // the other game rewritten
    CHECK_FALSE(contains(after, "AP[Some app"));
}

TEST_CASE("SGF reading never crashes: every prefix and every one-character change", "[parser][sgf]") {
    const std::string good = slurp(std::string(GOUNKI_SOURCE_DIR) + "/tests/data/sgf/variations.sgf");
    const std::string alphabet = "()[];\\\nBWCGMaz4";
    const auto check_one = [](const std::string& text) {
        for (const GameRecord& g : gounki::parser::read_sgf(text, "t.sgf")) {
            for (const Diagnostic& d : g.diagnostics) CHECK(d.line >= 1);
            CHECK((g.status == GameStatus::valid) == (g.error_count() == 0 && g.status != GameStatus::partial));
        }
    };
    for_each_prefix_and_change(good, alphabet, check_one, 3);
}
