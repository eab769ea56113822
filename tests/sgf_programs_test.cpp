// SGF GM[4] as Gomoku and Renju programs write it (parser/sgf/sgf.hpp): several moves in one node,
// an opening laid out as AB/AW set-up stones, SZ, the rule and the opening rule named by RU or GN
// (parser/five_rules.hpp), and the rules gounki does not play refused by name. Coordinates by hand
// as in sgf_test.cpp: on 15x15, SGF "hh" is h8 and row letter r is rank 15 - (r - 'a').
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include "core/stones/position.hpp"
#include "parser/five_rules.hpp"
#include "parser/sgf/sgf.hpp"

using namespace gounki;
using namespace gounki::parser;
using namespace gounki::test;

namespace {

using Names = std::vector<std::string>;

GameRecord one(const std::string& text) { return only_game(read_sgf(text, "p.sgf")); }

} // namespace

TEST_CASE("SGF: several moves in one node are plies in order, comments on the node's last one", "[parser][sgf]") {
    const GameRecord g = one("(;GM[4]SZ[15];B[hh]W[ii]B[jj]C[three at once];W[gg]B[kk])");
    CHECK(g.status == GameStatus::valid);
    CHECK(point_names(g.main) == Names{"h8", "i7", "j6", "g9", "k5"});
    REQUIRE(g.main.plies.size() == 5);
    CHECK(g.main.plies[2].comments == std::vector<std::string>{"three at once"});
    CHECK(g.main.plies[1].comments.empty());
    // The colours still alternate: two black moves in a row are an error at the second.
    const GameRecord twice = one("(;GM[4]\n;B[hh]B[ii])");
    check_diagnostic(twice, "illegal-move", 2, 7, "White is to move");
    CHECK(point_names(twice.main) == Names{"h8"});
    CHECK(twice.status == GameStatus::partial);
}

TEST_CASE("SGF: an opening as AB/AW set-up stones; without PL, the stone counts say who moves", "[parser][sgf]") {
    const GameRecord g = one("(;GM[4]SZ[15]RU[Gomoku swap2]AB[hh][ji]AW[ih];W[gi];B[hg])");
    CHECK(g.status == GameStatus::valid);
    CHECK(g.start.as_stones().at(P("h8")) == stones::Stone::black);
    CHECK(g.start.as_stones().at(P("j7")) == stones::Stone::black);
    CHECK(g.start.as_stones().at(P("i8")) == stones::Stone::white);
    CHECK(g.start.as_stones().side_to_move() == Color::white);
    CHECK(point_names(g.main) == Names{"g7", "h9"});
    CHECK(tag_of(g, "OpeningRule") == "swap2");
    CHECK(tag_of(g, "Game") == "Gomoku");
    // As many stones of each colour: Black moves.
    const GameRecord even = one("(;GM[4]AB[hh]AW[ih];B[aa])");
    CHECK(even.status == GameStatus::valid);
    CHECK(even.start.as_stones().side_to_move() == Color::black);
}

TEST_CASE("SGF: RU and GN name the rule and the opening rule", "[parser][sgf]") {
    CHECK(read_five_rule_names("Renju, RIF").rule == "renju");
    CHECK(read_five_rule_names("Renju, RIF").opening == "RIF");
    CHECK(read_five_rule_names("Yamaguchi").rule == "renju"); // a renju opening rule names renju
    CHECK(read_five_rule_names("soosyrv 8").opening == "Soosyrv-8");
    CHECK(read_five_rule_names("Taraguchi-10").opening == "Taraguchi-10");
    CHECK(read_five_rule_names("sakata").opening == "Sakata");
    CHECK(read_five_rule_names("gomoku swap2").rule == "freestyle");
    CHECK(read_five_rule_names("gomoku swap2").opening == "swap2");
    CHECK(read_five_rule_names("Gomoku, Ninuki").rule == "ninuki"); // "gomoku" gives way to a precise name
    CHECK(read_five_rule_names("Ninuki-Renju").rule == "ninuki"); // one game's name as a whole
    CHECK(read_five_rule_names("Standard").rule == "standard");
    CHECK(read_five_rule_names("Alice vs Bob").rule.empty());

    const GameRecord gn = one("(;GM[4]GN[Freestyle, swap2]PB[A];B[hh])");
    CHECK(gn.status == GameStatus::valid);
    CHECK(tag_of(gn, "OpeningRule") == "swap2");
    const GameRecord ninuki = one("(;GM[4]RU[Ninuki simple]SZ[19];B[jj])");
    CHECK(ninuki.kind == GameKind::ninuki);
    CHECK(tag_of(ninuki, "Rules") == "simple");
}

TEST_CASE("SGF: rules and boards gounki does not play are refused by name, never read as freestyle", "[parser][sgf]") {
    struct Case {
        const char* text;
        const char* code;
        const char* says;
    };
    const Case cases[] = {
        {"(;GM[4]RU[Caro]\n;B[hh])", "unsupported-game", "Caro"},
        {"(;GM[4]SZ[21]\n;B[hh])", "bad-rules", "SZ[21]"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.text);
        const GameRecord g = one(c.text);
        const Diagnostic* d = find_code(g, c.code);
        REQUIRE(d);
        CHECK(d->line == 1);
        CHECK(contains(d->message, c.says));
        CHECK(g.main.plies.empty());
        CHECK(g.status == GameStatus::partial);
    }
    // Gomoku on 20x20 (Gomocup's freestyle board) reads.
    const GameRecord twenty = one("(;GM[4]SZ[20]\n;B[hh];W[tt])");
    CHECK(twenty.status == GameStatus::valid);
    CHECK(twenty.main.plies.size() == 2);
    // Gomoku standard (exactly five) until the rules code gives the word a meaning.
    const FiveRuleChoice standard = choose_five_rules("standard");
    stones::Rules r = stones::Rules::defaults(GameKind::gomoku);
    stones::apply_rules_tag(r, "standard");
    if (r == stones::Rules::defaults(GameKind::gomoku)) {
        CHECK(contains(standard.error, "Gomoku standard"));
        CHECK(find_code(one("(;GM[4]RU[standard];B[hh])"), "unsupported-game"));
    } else {
        CHECK(standard.error.empty());
    }
}

// Engine-match programs write the Gomocup protocol's rule code in RU (RU[4] for Renju); a word in
// RU that names nothing is said, the game read as freestyle.
TEST_CASE("SGF: RU as a Gomocup rule code (0, 1, 4) names the rule; an unknown word in RU is a warning", "[parser][sgf]") {
    // Black's h8 is a double-three, forbidden in Renju only.
    const std::string moves = "SZ[15];B[fh];W[aa];B[gh];W[ao];B[hf];W[oa];B[hg];W[oo];B[hh])";
    const GameRecord renju = one("(;FF[4]GM[4]RU[4]" + moves);
    CHECK(renju.kind == GameKind::renju);
    CHECK(find_code(renju, "illegal-move"));
    CHECK(contains(find_code(renju, "illegal-move")->message, "double-three"));
    const GameRecord free = one("(;FF[4]GM[4]RU[0]" + moves);
    CHECK(free.kind == GameKind::gomoku);
    CHECK(free.status == GameStatus::valid);
    CHECK(free.diagnostics.empty());
    CHECK(read_five_rule_names(" 1 ").rule == "standard");
    CHECK(read_five_rule_names("4").rule == "renju");
    CHECK(read_five_rule_names("4", RuleText::free_text).rule.empty()); // a number in a game's name is no rule
    CHECK(read_five_rule_names("8").rule == "caro");
    const GameRecord continuous = one("(;FF[4]GM[4]RU[2]" + moves);
    CHECK(contains(find_code(continuous, "unsupported-game")->message, "Gomocup rule code 2"));
    CHECK(continuous.main.plies.empty());
    // A word that names no rule: read as freestyle, and said where it stands.
    const GameRecord japanese = one("(;FF[4]GM[4]RU[Japanese]" + moves);
    CHECK(japanese.kind == GameKind::gomoku);
    check_diagnostic(japanese, "unknown-rule", 1, 13, "'japanese' names no rule");
    CHECK(japanese.status == GameStatus::valid);
    CHECK_FALSE(find_code(one("(;FF[4]GM[4]RU[Gomoku swap2]" + moves), "unknown-rule"));
}

TEST_CASE("SGF: a move's annotation in a node without a move is said and left out, once per game", "[parser][sgf]") {
    const GameRecord g = one("(;FF[4]GM[4]SZ[15]RE[B+1]TE[Black win by five connection];B[hh]TE[1];W[ii];TE[2];B[jj])");
    check_diagnostic(g, "misplaced-property", 1, 26, "TE[Black win by five connection]: a move's annotation, in a node without a move");
    CHECK(find_code(g, "misplaced-property")->left_out); // `format` keeps the game as written
    int misplaced = 0;
    for (const Diagnostic& d : g.diagnostics) misplaced += d.code == "misplaced-property";
    CHECK(misplaced == 1);
    CHECK(g.status == GameStatus::valid);
    REQUIRE(g.main.plies.size() == 3);
    CHECK(g.main.plies[0].nags == std::vector<std::uint8_t>{1}); // with its move, TE is read as before
}

// Renju servers write GM[5] (SGF's number for another game) for their Renju games, with `5A` for
// the fifth moves Black offered: an identifier that starts with a digit, which SGF's grammar has no
// room for and which once stopped the whole game as a syntax error.
TEST_CASE("SGF: a Renju server's GM[5] and 5A read as Renju, the offered fifth moves as variations", "[parser][sgf]") {
    const GameRecord g = one(slurp(source_path("tests/data/sgf/renju-server.sgf")));
    CHECK(g.status == GameStatus::valid);
    CHECK(g.kind == GameKind::renju);
    CHECK(tag_of(g, "OpeningRule") == "Yamaguchi");
    CHECK(tag_of(g, "Alt") == "j6 i7");
    CHECK(tag_of(g, "BlackRank") == "2d"); // BR is a rank: "2d" is no rating
    CHECK(tag_of(g, "BlackElo") == "<none>");
    CHECK(tag_of(one("(;GM[4]BR[1850];B[hh])"), "BlackElo") == "1850");
    CHECK(tag_of(g, "TimeControl") == "600"); // TM, seconds
    // GC (a server's game number) is a comment before the first move, not dropped.
    CHECK(one("(;GM[4]GC[ game #1254910];B[hh])").main.comments == std::vector<std::string>{"game #1254910"});
    CHECK(g.result == "0-1");
    CHECK(point_names(g.main) == Names{"h8", "h9", "j10", "i9", "i7", "g9", "j8", "k8"});
    const Diagnostic* gm = find_code(g, "wrong-game-number");
    REQUIRE(gm);
    CHECK(gm->severity == Severity::warning);
    CHECK(gm->line == 1);
    CHECK(gm->column == 3);
    CHECK(contains(gm->message, "GN[Kim - Lee (B) : Yamaguchi rule]"));
    CHECK(g.diagnostics.size() == 1); // SW, TM, KM: known, left out without a word
    // i7 was played (White chose it): only j6 is a variation, once, with its comment.
    REQUIRE(g.main.plies[4].variations.size() == 1);
    const Line& offer = g.main.plies[4].variations[0];
    CHECK(point_names(offer) == Names{"j6"});
    CHECK(offer.plies[0].comments == std::vector<std::string>{"offered fifth move, not chosen"});

    // Written back as SGF: 5A and the variation, which read back as the same game (not twice).
    const std::string written = write_sgf(g);
    CHECK(contains(written, "5A[jj][ii]"));
    CHECK(contains(written, "BR[2d]"));
    CHECK(contains(written, "TM[600]"));
    const GameRecord again = one(written);
    CHECK(tag_of(again, "Alt") == "j6 i7");
    CHECK(tag_of(again, "BlackRank") == "2d");
    REQUIRE(again.main.plies.size() == 8);
    CHECK(again.main.plies[4].variations.size() == 1);

    // Offers that are one move (the four stones on the h file lie the same mirrored left to right, so
    // g6 and i6 leave White no choice): the opening rule's warning at the second; read as before.
    const GameRecord mirrored = one("(;GM[4]SZ[15]RU[Renju]5A[gj]\n[ij];B[hh];W[hg];B[hf];W[hi];B[gj])");
    check_diagnostic(mirrored, "opening-rule", 2, 1,
                     "5A[ij]: Black offered g6 and i6 as fifth moves, and they are one move: the first four stones lie "
                     "the same mirrored left to right");
    CHECK(mirrored.status == GameStatus::valid);
    CHECK(mirrored.main.plies[4].variations.size() == 1);
    CHECK(contains(find_code(one("(;GM[4]SZ[15]RU[Renju]5A[gj][gj];B[hh];W[hg];B[hf];W[hi];B[gj])"), "opening-rule")->message,
                   "Black offered g6 twice"));
    CHECK(find_code(one("(;GM[4]SZ[15]RU[Renju]5A[gj][jj];B[hh];W[hg];B[hf];W[hi];B[gj])"), "opening-rule") == nullptr);

    // An offer Black could not play there (h8 is taken): a warning at it, the offers in the Alt tag only.
    const GameRecord taken = one("(;GM[5]SZ[15]RU[Renju]5A[jj]\n[hh];B[hh];W[hg];B[jf];W[ig];B[ii])");
    check_diagnostic(taken, "bad-alt", 2, 1, "h8 is no fifth move Black could play");
    CHECK(taken.status == GameStatus::valid);
    CHECK(taken.main.plies[4].variations.empty());
    CHECK(tag_of(taken, "Alt") == "j6 h8");
    const GameRecord off = one("(;GM[4]SZ[15]5A[zz];B[hh];W[hg];B[jf];W[ig];B[ii])");
    REQUIRE(find_code(off, "bad-alt"));
    CHECK(contains(find_code(off, "bad-alt")->message, "5A[zz]: not a point of the board"));
    CHECK(tag_of(off, "Alt") == "zz");

    // GM[5] with nothing of a five-in-a-row game about it, not even the 15x15 board (where Renju
    // programs write GM[5] with no rule named: formats_renju_test.cpp), is still refused, by name.
    const GameRecord other = one("(;GM[5]SZ[19];B[hh])");
    const Diagnostic* refused = find_code(other, "unsupported-game");
    REQUIRE(refused);
    CHECK(contains(refused->message, "GM[5]"));
    CHECK(other.main.plies.empty());
    // GN's plain "free" says nothing against GM[1] (a Go record's name).
    CHECK(find_code(one("(;GM[1]GN[Free game]SZ[19];B[dd])"), "unsupported-game"));
    // An identifier of digits alone is still no property: an error where it stands.
    const GameRecord digits = one("(;GM[4]SZ[15];B[hh]\n55[x];W[ii])");
    const Diagnostic* syntax = find_code(digits, "syntax");
    REQUIRE(syntax);
    CHECK(syntax->line == 2);
    CHECK(syntax->column == 1);
    CHECK(point_names(digits.main) == Names{"h8"});
}

// Programs add properties of their own (an opening laid out in a property SGF does not have): what
// gounki does not read is said once per property and game, never passed over in silence.
TEST_CASE("SGF: a property gounki does not read is a warning where it stands, once per game", "[parser][sgf]") {
    const GameRecord g = one(slurp(source_path("tests/data/sgf/unknown-property.sgf")));
    CHECK(g.status == GameStatus::valid);
    CHECK(point_names(g.main) == Names{"g9", "i7", "i8"});
    std::vector<std::string> seen;
    for (const Diagnostic& d : g.diagnostics) {
        CHECK(d.code == "unknown-property");
        CHECK(d.severity == Severity::warning);
        seen.push_back(std::to_string(d.line) + ":" + std::to_string(d.column) + " " + d.message);
    }
    CHECK(seen == std::vector<std::string>{
                      "2:2 QPR[hh,hg,jf]: QPR is no SGF property of the stone games that gounki reads; left out",
                      "2:27 QX[a]: QX is no SGF property of the stone games that gounki reads; left out"});
    // gounki format does not rewrite the game: that would drop what it left out. Copied as written.
    const std::string file = source_path("tests/data/sgf/unknown-property.sgf").string();
    const CliRun formatted = run_gounki("format " + shell_quoted(file));
    CHECK(formatted.status == 1);
    CHECK(formatted.out == slurp(file));
    CHECK(contains(formatted.err, "unknown-property.sgf:2:2: warning: game 1 kept as written: QPR[hh,hg,jf]: QPR is"));
    CHECK(contains(formatted.err, "[kept-as-written]"));
    const CliRun server = run_gounki("format " + shell_quoted(source_path("tests/data/sgf/renju-server.sgf")));
    CHECK(server.status == 0);
    CHECK(contains(server.out, "5A[jj][ii]"));
    // So are variations the reader cannot hang on a move of the main line (it ends on a node with a
    // comment only), and set-up stones inside a game: each is said where it stands, and kept.
    const TempDir dir("sgf-left-out");
    const std::string misplaced = "(;GM[4];B[hh](;C[the end])(;W[ii]))\n(;GM[4];B[hh];AB[aa]W[ii])\n(;GM[4]  ;B[hh])\n";
    write_text(dir / "left.sgf", misplaced);
    const GameRecord variations = one(misplaced.substr(0, misplaced.find('\n')));
    CHECK(find_code(variations, "misplaced-variation"));
    CHECK(point_names(variations.main) == Names{"h8"});
    const CliRun left = run_gounki("format " + shell_quoted(dir / "left.sgf"));
    CHECK(left.status == 1);
    CHECK(left.out == "(;GM[4];B[hh](;C[the end])(;W[ii]))\n(;GM[4];B[hh];AB[aa]W[ii])\n(;FF[4]GM[4]CA[UTF-8]SZ[15]RE[?];B[hh])\n");
    CHECK(contains(left.err, "left.sgf:1:1: warning: game 1 kept as written: variations at a point where the main line"));
    CHECK(contains(left.err, "left.sgf:2:15: warning: game 2 kept as written: AB after the first node"));
    CHECK(contains(left.err, "1 formatted (0 warnings fixed), 2 kept as written"));
    // A long value is cut after 40 characters, whole ones, with its length.
    const GameRecord long_value = one("(;GM[4]XY[" + std::string(20, 'a') + "\xC3\xA9" + std::string(30, 'b') + "];B[hh])");
    REQUIRE(find_code(long_value, "unknown-property"));
    CHECK(contains(find_code(long_value, "unknown-property")->message,
                   "XY[" + std::string(20, 'a') + "\xC3\xA9" + std::string(16, 'b') + "... (56 bytes): XY is"));
    // The file's own properties (FF CA AP KM) and the usual ones say nothing.
    CHECK(one("(;FF[4]GM[4]CA[UTF-8]AP[x:1]ST[2]SZ[15]KM[0]TM[60]GC[club]SO[x]US[y];B[hh]LB[hh:A]N[a])").diagnostics.empty());
}

TEST_CASE("SGF: game information (GN ON AN SO CP BT WT US OT) is kept as tags and written back", "[parser][sgf]") {
    const GameRecord g = one("(;GM[4]FF[4]SZ[15]RU[Gomoku]GN[Renju practice]ON[Kagetsu]AN[Ann]SO[Book, p. 12]"
                             "CP[(c) club]BT[North]WT[South]US[typist]OT[3x30 byo-yomi]KM[0];B[hh];W[ii])");
    CHECK(g.status == GameStatus::valid);
    CHECK(g.diagnostics.empty());
    CHECK(g.kind == GameKind::gomoku); // RU names the rule; GN is then a name only
    const std::pair<const char*, const char*> expected[] = {
        {"GameName", "Renju practice"}, {"Opening", "Kagetsu"}, {"Annotator", "Ann"}, {"Source", "Book, p. 12"},
        {"Copyright", "(c) club"}, {"BlackTeam", "North"}, {"WhiteTeam", "South"}, {"EnteredBy", "typist"},
        {"Overtime", "3x30 byo-yomi"}};
    for (const auto& [name, value] : expected) CHECK(tag_of(g, name) == value);
    CHECK_FALSE(g.tag("KM")); // Go's komi: passed over
    // Written back, and read back the same: the freestyle game stays freestyle although its name
    // names Renju (RU[Gomoku] is written for it).
    const std::string written = write_sgf(g);
    CHECK(contains(written, "GN[Renju practice]ON[Kagetsu]BT[North]WT[South]AN[Ann]SO[Book, p. 12]US[typist]"
                            "CP[(c) club]OT[3x30 byo-yomi]"));
    CHECK(contains(written, "RU[Gomoku]"));
    const GameRecord again = one(written);
    CHECK(again.kind == GameKind::gomoku);
    CHECK(again.diagnostics.empty());
    for (const auto& [name, value] : expected) CHECK(tag_of(again, name) == value);
    // Without a rule in its name, a freestyle game has no RU; an empty value is no tag.
    const GameRecord plain = one("(;GM[4]GN[Club night]SO[];B[hh])");
    CHECK_FALSE(contains(write_sgf(plain), "RU["));
    CHECK_FALSE(plain.tag("Source"));
    // DT as apps write it: eight digits (sorted as the year 20,240,101 before), a month alone.
    CHECK(tag_of(one("(;GM[4]DT[20240101];B[hh])"), "Date") == "2024.01.01");
    const GameRecord month = one("(;GM[4]DT[2024-05];B[hh])");
    CHECK(tag_of(month, "Date") == "2024.05.??");
    CHECK(contains(write_sgf(month), "DT[2024-05]"));
    CHECK(tag_of(one("(;GM[4]DT[2024-05-01,02];B[hh])"), "Date") == "2024.05.01");
    CHECK_FALSE(contains(write_sgf(one("(;GM[4]DT[????.??.??];B[hh])")), "DT[")); // an unknown date is no DT
    // Special characters survive the round trip (SGF's escapes).
    const GameRecord escaped = one("(;GM[4]AN[a \\] b \\\\ c];B[hh])");
    CHECK(tag_of(escaped, "Annotator") == "a ] b \\ c");
    CHECK(tag_of(one(write_sgf(escaped)), "Annotator") == "a ] b \\ c");
}

TEST_CASE("SGF: RE's reason is the Termination tag and written back; an RE that is no result is said", "[parser][sgf]") {
    const std::pair<const char*, const char*> reasons[] = {{"B+R", "resignation"}, {"B+Resign", "resignation"},
                                                           {"W+T", "time forfeit"}, {"w+time", "time forfeit"},
                                                           {"W+F", "forfeit"}, {"B+Forfeit", "forfeit"}};
    for (const auto& [re, termination] : reasons) {
        INFO(re);
        const GameRecord g = one(std::string("(;GM[4]RE[") + re + "];B[hh];W[ii])");
        CHECK(g.diagnostics.empty());
        CHECK(g.result == (re[0] == 'B' || re[0] == 'b' ? "0-1" : "1-0"));
        CHECK(tag_of(g, "Termination") == termination);
        const std::string written = write_sgf(g);
        CHECK(contains(written, std::string("RE[") + char(re[0] & ~0x20) + "+" + char(termination[0] & ~0x20) + "]"));
        CHECK(tag_of(one(written), "Termination") == termination);
    }
    // A score or no reason: the winner alone. Void, ? and an empty RE: no result, nothing to say.
    for (const char* re : {"B+", "B+5", "B"}) {
        const GameRecord g = one(std::string("(;GM[4]RE[") + re + "];B[hh])");
        CHECK(g.result == "0-1");
        CHECK_FALSE(g.tag("Termination"));
        CHECK(contains(write_sgf(g), "RE[B+]"));
    }
    for (const char* re : {"Void", "?", ""}) {
        const GameRecord g = one(std::string("(;GM[4]RE[") + re + "];B[hh])");
        CHECK(g.result == "*");
        CHECK(g.diagnostics.empty());
    }
    // A drawn game keeps no reason.
    CHECK(contains(write_sgf(one("(;GM[4]RE[Draw];B[hh])")), "RE[0]"));
    // Anything else is unknown, with a warning where RE stands (it was read as * in silence).
    const GameRecord odd = one("(;GM[4]\nRE[black];B[hh])");
    CHECK(odd.result == "*");
    check_diagnostic(odd, "bad-result-tag", 2, 1, "RE[black] is no result SGF writes");
}

TEST_CASE("SGF: CA names the character set of the file, decoded before it is cut into games", "[parser][sgf]") {
    std::vector<Diagnostic> file;
    const auto read = [&](const std::string& text) {
        file.clear();
        return read_sgf(text, "cs.sgf", &file);
    };
    // GB2312, as Chinese Gomoku apps write it: 黑方 and 白方 (read as Windows-1252 before, mojibake).
    auto games = read("(;GM[4]CA[GB2312]PB[\xBA\xDA\xB7\xBD]PW[\xB0\xD7\xB7\xBD];B[hh])");
    REQUIRE(games.size() == 1);
    CHECK(tag_of(games[0], "Black") == "黑方");
    CHECK(tag_of(games[0], "White") == "白方");
    CHECK(file.empty());
    // Shift_JIS, whose second bytes may be ']' (ゾ 83 5D) or '\' (表 95 5C): cut on the raw bytes, the
    // value would end inside ゾ and 表 would escape its ']'.
    games = read("(;GM[4]CA[Shift_JIS]PB[\x83\x5D\x97\x5D]PW[\x95\x5C]C[\x8F\x5C];B[hh];W[ii])");
    REQUIRE(games.size() == 1);
    CHECK(games[0].status == GameStatus::valid);
    CHECK(tag_of(games[0], "Black") == "ゾ余");
    CHECK(tag_of(games[0], "White") == "表");
    CHECK(games[0].main.comments == std::vector<std::string>{"十"});
    CHECK(point_names(games[0].main) == Names{"h8", "i7"});
    // Many games: characters cut between the reader's blocks of 64 KB come out whole.
    std::string many, expected;
    for (int i = 0; i < 3000; ++i) many += "(;GM[4]CA[GBK]PB[\xBA\xDA" + std::to_string(i) + "\xB7\xBD];B[hh])\n";
    games = read(many);
    REQUIRE(games.size() == 3000);
    for (int i = 0; i < 3000; i += 1) {
        if (tag_of(games[std::size_t(i)], "Black") != "黑" + std::to_string(i) + "方") {
            FAIL_CHECK("game " << i + 1 << ": " << tag_of(games[std::size_t(i)], "Black"));
            break;
        }
    }
    CHECK(file.empty());
    // A CA over UTF-8 text (programs write CA[GB2312] and UTF-8): the text is UTF-8. So is a file
    // with a byte order mark, and CA[UTF-8].
    for (const std::string& text : {std::string("(;GM[4]CA[GB2312]PB[黑方];B[hh])"),
                                    std::string("\xEF\xBB\xBF(;GM[4]CA[GB2312]PB[黑方];B[hh])"),
                                    std::string("(;GM[4]CA[utf-8]PB[黑方];B[hh])")}) {
        games = read(text);
        REQUIRE(games.size() == 1);
        CHECK(tag_of(games[0], "Black") == "黑方");
        CHECK(file.empty());
    }
    // A set ICU does not know: said, then read as before (Windows-1252 where it is not UTF-8).
    games = read("(;GM[4]CA[x-no-such-set]PB[M\xFCller];B[hh])");
    REQUIRE(games.size() == 1);
    CHECK(tag_of(games[0], "Black") == "Müller");
    REQUIRE(file.size() == 2);
    CHECK(file[0].code == "unknown-charset");
    CHECK(contains(file[0].message, "CA[x-no-such-set] names a character set gounki does not know"));
    CHECK(file[1].code == "not-utf8");
    // Bytes that are no text of the set: U+FFFD each, counted in one warning at the end.
    games = read("(;GM[4]CA[GB2312]PB[\xFF\xFF]PW[\xB0\xD7];B[hh])");
    REQUIRE(games.size() == 1);
    CHECK(tag_of(games[0], "Black") == "\xEF\xBF\xBD\xEF\xBF\xBD");
    CHECK(tag_of(games[0], "White") == "白");
    REQUIRE(file.size() == 1);
    CHECK(file[0].code == "bad-charset");
    CHECK(file[0].severity == Severity::warning);
    CHECK(contains(file[0].message, "2 byte sequences are no GB2312 text"));
    // Files as such programs save them: format writes them as UTF-8, the names and comments whole.
    const CliRun formatted = run_gounki("format -o - " + shell_quoted(source_path("tests/data/sgf/gb2312.sgf")) + " " +
                                        shell_quoted(source_path("tests/data/sgf/shift_jis.sgf")));
    CHECK(formatted.status == 0);
    CHECK(contains(formatted.out, "EV[城市联赛]PB[黑方选手]PW[白方选手]DT[2023-10-05]RE[B+R]C[第一局];B[hh];W[ig];B[ii]C[好棋];W[gg])"));
    CHECK(contains(formatted.out, "PB[张三]PW[李四]RE[W+T];B[hh];W[hi])"));
    CHECK(contains(formatted.out, "PB[表ソ]PW[十能]RE[?]C[連珠の対局];B[hh];W[ig]C[申し分ない])"));
    CHECK(contains(formatted.err, "3 games in 2 files: 3 formatted (0 warnings fixed), 0 kept as written"));
    // A game format keeps as written (a property gounki does not read) is copied in UTF-8 too,
    // decoded as the reader decoded it (not as Windows-1252).
    const TempDir dir("sgf-charset");
    write_text(dir / "kept.sgf", "(;GM[4]CA[GB2312]PB[\xBA\xDA\xB7\xBD]QX[1];B[hh])\n(;GM[4]CA[GB2312]PW[\xB0\xD7];B[hh])\n");
    const CliRun kept = run_gounki("format " + shell_quoted(dir / "kept.sgf"));
    CHECK(kept.status == 1);
    CHECK(kept.out == "(;GM[4]CA[GB2312]PB[黑方]QX[1];B[hh])\n(;FF[4]GM[4]CA[UTF-8]SZ[15]PW[白]RE[?];B[hh])\n");
    // A first byte with no second before the value's end is one of them; the ']' still ends the
    // value. Bytes after the last game belong to none: text outside any game tree, in no set.
    games = read("(;GM[4]CA[GB2312]PB[x\xBA];B[hh])\xBA");
    REQUIRE(games.size() == 1);
    CHECK(tag_of(games[0], "Black") == "x\xEF\xBF\xBD");
    CHECK(point_names(games[0].main) == Names{"h8"});
    std::vector<std::string> seen;
    for (const Diagnostic& d : file) seen.push_back(d.code + " " + d.message);
    CHECK(seen == std::vector<std::string>{
                      "text-outside-game text outside any game tree is passed over (an SGF game starts with \"(;\")",
                      "bad-charset 1 byte sequence is no GB2312 text (CA names it); read as U+FFFD"});
}

// SGF makes CA a property of each game tree's root: a collection joined from several programs'
// files names a set in each game. Each game is decoded in its own (all were decoded in the first
// game's set: the Shift_JIS game as GB2312, the Latin-1 one too, U+FFFD and a bad-charset warning).
TEST_CASE("SGF: each game of a collection is decoded in the set its own CA names", "[parser][sgf]") {
    std::vector<Diagnostic> file;
    const std::string text = "(;GM[4]CA[GB2312]PB[\xBA\xDA\xB7\xBD];B[hh])\n"                // 黑方
                             "(;GM[4]CA[Shift_JIS]PB[\x83\x5D]PW[\x95\x5C]C[x\\]y];B[hh];W[ii])\n" // ゾ, 表
                             "(;GM[4]PB[M\xFC" "ller];B[hh])\n"                                   // Latin-1, no CA
                             "(;GM[4]CA[GB2312]PW[\xB0\xD7];B[hh])\n";                           // 白
    const auto games = read_sgf(text, "mixed.sgf", &file);
    REQUIRE(games.size() == 4);
    CHECK(tag_of(games[0], "Black") == "黑方");
    CHECK(tag_of(games[1], "Black") == "ゾ");
    CHECK(tag_of(games[1], "White") == "表");
    CHECK(games[1].main.comments == std::vector<std::string>{"x]y"});
    CHECK(point_names(games[1].main) == Names{"h8", "i7"});
    CHECK(games[1].line == 2);
    CHECK(tag_of(games[2], "Black") == "Müller");
    CHECK(tag_of(games[3], "White") == "白");
    CHECK(games[3].line == 4);
    for (const GameRecord& g : games) CHECK(g.status == GameStatus::valid);
    REQUIRE(file.size() == 1);
    CHECK(file[0].code == "not-utf8");

    // format keeps a game as written in the set its own CA names.
    const TempDir dir("sgf-mixed");
    write_text(dir / "mixed.sgf", "(;GM[4]CA[GB2312]PB[\xBA\xDA\xB7\xBD];B[hh])\n(;GM[4]CA[Shift_JIS]PB[\x95\x5C]QX[1];B[hh])\n");
    const CliRun kept = run_gounki("format " + shell_quoted(dir / "mixed.sgf"));
    CHECK(kept.out == "(;FF[4]GM[4]CA[UTF-8]SZ[15]PB[黑方]RE[?];B[hh])\n(;GM[4]CA[Shift_JIS]PB[表]QX[1];B[hh])\n");
}

TEST_CASE("SGF: the CA of each game's root node; a game that reads as UTF-8 is UTF-8", "[parser][sgf]") {
    std::vector<Diagnostic> file;
    const auto read = [&](const std::string& text) {
        file.clear();
        return read_sgf(text, "cs.sgf", &file);
    };
    const std::string gb_game = "(;GM[4]PB[\xBA\xDA\xB7\xBD];B[hh])\n"; // 黑方 in GB2312
    // CA in a later game names that game's set only, and CA in a comment nothing: Windows-1252's
    // Müller stays Müller (it was decoded as GB2312, U+FFFD and a bad-charset warning).
    for (const std::string& text : {std::string("(;GM[4]PB[M\xFCller];B[hh])\n(;GM[4]CA[GB2312]PB[\xBA\xDA];B[hh])\n"),
                                    std::string("(;GM[4]PB[M\xFCller]C[save as CA[GB2312\\] please];B[hh])")}) {
        const auto games = read(text);
        REQUIRE(!games.empty());
        CHECK(tag_of(games[0], "Black") == "Müller");
        REQUIRE(file.size() == 1);
        CHECK(file[0].code == "not-utf8");
    }
    // A value before CA with an escaped bracket and a parenthesis in it does not hide CA.
    const auto escaped = read("(;GM[4]GN[Final \\] (round 2)]CA[GB2312]PB[\xBA\xDA\xB7\xBD];B[hh])");
    REQUIRE(escaped.size() == 1);
    CHECK(tag_of(escaped[0], "Black") == "黑方");
    // Blanks may stand between an identifier and its value (SGF allows them): CA [GB2312] is read.
    auto games = read("(;GM[4] CA [GB2312] PB[\xBA\xDA\xB7\xBD];B[hh])");
    REQUIRE(games.size() == 1);
    CHECK(tag_of(games[0], "Black") == "黑方");
    CHECK(file.empty());
    // A set whose ASCII is not one byte a character cannot be the set of a file whose CA reads
    // as ASCII: said, and the games read (all of them were lost, decoded as UTF-16).
    for (const char* set : {"UTF-16", "UTF-32"}) {
        INFO(set);
        games = read(std::string("(;GM[4]CA[") + set + "]PB[a];B[hh];W[ii])");
        REQUIRE(games.size() == 1);
        CHECK(point_names(games[0].main) == Names{"h8", "i7"});
        REQUIRE(file.size() == 1);
        CHECK(file[0].code == "bad-charset");
        CHECK(contains(file[0].message, std::string("CA[") + set + "] cannot be the game's character set"));
    }
    // A game without CA is UTF-8 (Windows-1252 where it is not), whatever an earlier game names,
    // however far into the file (here past the first block of 64 KB). UTF-8 there is UTF-8 (it was
    // decoded as GB2312: 榛戞柟)...
    std::string ascii;
    while (ascii.size() < 100'000) ascii += "(;GM[4]PB[a];B[hh])\n";
    games = read("(;GM[4]CA[GB2312];B[hh])\n" + ascii + "(;GM[4]PB[黑方];B[hh])\n");
    REQUIRE(games.size() > 2);
    CHECK(tag_of(games.back(), "Black") == "黑方");
    CHECK(file.empty());
    // ...and GB2312 bytes there are Windows-1252, said once (the game names no set); with its own
    // CA, they are GB2312.
    games = read("(;GM[4]CA[GB2312];B[hh])\n" + ascii + gb_game);
    REQUIRE(games.size() > 2);
    CHECK(tag_of(games.back(), "Black") == "ºÚ·½");
    REQUIRE(file.size() == 1);
    CHECK(file[0].code == "not-utf8");
    games = read("(;GM[4]CA[GB2312];B[hh])\n" + ascii + "(;GM[4]CA[GB2312]PB[\xBA\xDA\xB7\xBD];B[hh])\n");
    CHECK(tag_of(games.back(), "Black") == "黑方");
    CHECK(file.empty());
    // The first text that is not ASCII at the very end of the first block: a Shift_JIS character
    // there is no UTF-8 cut short (its bytes 95 5C: the file was read as UTF-8, and '\\' escaped
    // the value's ']', hiding the moves after it).
    std::string sjis = "(;GM[4]CA[Shift_JIS]PB[x]C[";
    sjis += std::string((1 << 16) - 2 - sjis.size(), 'a') + "\x95\x5C];B[hh];W[ii])\n";
    games = read(sjis);
    REQUIRE(games.size() == 1);
    CHECK(games[0].main.comments.size() == 1);
    CHECK(games[0].main.comments[0].size() >= 3);
    CHECK(games[0].main.comments[0].substr(games[0].main.comments[0].size() - 3) == "表");
    CHECK(point_names(games[0].main) == Names{"h8", "i7"});
    CHECK(file.empty());
}

TEST_CASE("SGF: what format and export write reads back as the same game (PL, RU, repeated and misplaced properties)",
          "[parser][sgf][writer]") {
    // Set-up stones and PL[B] where Black has one stone more: without PL, the reader's guess makes
    // White move (PL was not written, and Black's g9 became an illegal move).
    const GameRecord setup = one("(;GM[4]SZ[15]AB[hh][ii]AW[hi]PL[B];B[gg];W[jj])");
    REQUIRE(setup.status == GameStatus::valid);
    std::string written = write_sgf(setup);
    CHECK(contains(written, "PL[B]"));
    GameRecord again = one(written);
    CHECK(again.status == GameStatus::valid);
    CHECK(point_names(again.main) == point_names(setup.main));
    CHECK(write_sgf(again) == written);
    // A Gomoku game with a Renju opening rule: RU[Gomoku Yamaguchi], not RU[Yamaguchi] (Renju).
    const GameRecord gomoku = one("(;GM[4]SZ[15]RU[Gomoku Yamaguchi];B[hh];W[hi];B[ii])");
    CHECK(gomoku.kind == GameKind::gomoku);
    CHECK(tag_of(gomoku, "OpeningRule") == "Yamaguchi");
    written = write_sgf(gomoku);
    CHECK(contains(written, "RU[Gomoku Yamaguchi]"));
    CHECK(one(written).kind == GameKind::gomoku);
    // GN names the opening only when RU names neither a rule nor an opening: "Sakata cup" is a name.
    const GameRecord named = one("(;GM[4]SZ[15]RU[Gomoku]GN[Sakata cup];B[hh];W[hi];B[ii])");
    CHECK(named.kind == GameKind::gomoku);
    CHECK(named.tag("OpeningRule") == nullptr);
    CHECK(one(write_sgf(named)).kind == GameKind::gomoku);
    // Without RU, GN names an opening rule called after a person (Sakata, Jonsson...: surnames too)
    // only as a rule ("... : Sakata rule") or beside Renju; else it is a cup's or a player's name.
    for (const char* name : {"Sakata cup", "Jonsson - Karlsson, club final", "Tarannikov vs Sokolov"}) {
        const GameRecord g = one(std::string("(;GM[4]SZ[15]GN[") + name + "];B[hh];W[hi];B[ii])");
        INFO(name);
        CHECK(g.kind == GameKind::gomoku);
        CHECK(g.tag("OpeningRule") == nullptr);
        CHECK(one(write_sgf(g)).kind == GameKind::gomoku);
    }
    for (const char* name : {"A - B (B) : Sakata rule", "Renju, Jonsson", "club final, Tarannikov opening", "RIF cup"}) {
        const GameRecord g = one(std::string("(;GM[4]SZ[15]GN[") + name + "];B[hh];W[hi];B[ii])");
        INFO(name);
        CHECK(g.kind == GameKind::renju);
        CHECK(g.tag("OpeningRule") != nullptr);
    }
    // A property written twice in a node: both values count (the second C and AB were dropped).
    const GameRecord twice = one("(;GM[4]SZ[15]C[root a]C[root b]AB[hh]AW[ii]AB[jj]PL[W];W[gg]C[first]C[second];B[kk])");
    CHECK(twice.main.comments == std::vector<std::string>{"root a", "root b"});
    REQUIRE(!twice.main.plies.empty());
    CHECK(twice.main.plies[0].comments == std::vector<std::string>{"first", "second"});
    const stones::StonePosition& start = twice.start.as_stones();
    CHECK(start.at(stones::parse_point("j6", 15)) == stones::Stone::black); // jj
    CHECK(start.stone_count() == 3);
    // Game information outside the first node is said and left out, so format keeps the game as
    // written (it was dropped in silence).
    const GameRecord late = one("(;GM[4]SZ[15];B[hh]PB[Late]RE[B+R];W[ii]PB[Later])");
    std::vector<std::string> codes;
    for (const Diagnostic& d : late.diagnostics) codes.push_back(d.code + " " + std::to_string(d.column));
    CHECK(codes == std::vector<std::string>{"misplaced-property 20", "misplaced-property 28"}); // once per property
    CHECK(late.diagnostics.front().left_out);
    CHECK(contains(late.diagnostics.front().message, "PB[Late]: game information belongs in the game's first node"));
}
