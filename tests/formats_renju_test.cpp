// The renju collections' own formats (docs/rules.md 4.5, 4.6): the RenjuNet database (XML) and
// RenLib opening libraries (binary), and the opening rules renju collections name (4.3). The
// RenjuNet and SGF fixtures are written by hand in tests/data/renju and tests/data/sgf; the RenLib
// bytes are built here.
#include <QString>

#include "tests/catch.hpp"
#include "tests/support.hpp"

#include "parser/five_rules.hpp"
#include "parser/formats.hpp"
#include "parser/reader.hpp"
#include "parser/writer.hpp"
#include "parser/renju/renjunet.hpp"
#include "parser/renju/renlib.hpp"
#include "parser/sgf/sgf.hpp"

using namespace gounki;
using namespace gounki::parser;
using namespace gounki::test;
namespace fs = std::filesystem;

namespace {

const fs::path renju_dir = source_path("tests/data/renju");

std::string tag_or(const GameRecord& g, const char* name) {
    const std::string* v = g.tag(name);
    return v ? *v : "(none)";
}

std::string moves(const GameRecord& g) {
    std::string out;
    for (const Ply& p : g.main.plies) out += (out.empty() ? "" : " ") + p.written;
    return out;
}

std::string diagnostics(const GameRecord& g) {
    std::string out;
    for (const Diagnostic& d : g.diagnostics) out += format_diagnostic(d) + "\n";
    return out;
}

// A RenLib library: the header of version 3.0, then `body`.
std::string renlib(const std::string& body) {
    std::string out = "\xFFRenLib\xFF";
    out += '\x03';
    out += '\x00';
    out += std::string(10, '\xFF');
    return out + body;
}

// h8 with the comment "centre"; i9 (DOWN) labelled A at g10 (a board text, no move); j10 (RIGHT: a
// line ends); back to h8: i7, then h8 again (occupied; RIGHT).
std::string sample_library() {
    using namespace std::string_literals;
    return renlib("\x78\x08"s + "centre\0\0"s + // bytes 20-29
                  "\x69\x80"s + // 30: i9, DOWN
                  "\x57\xC3\x00\x01"s + "A\0"s + // 32: g10, DOWN RIGHT NO_MOVE EXTENSION + board text
                  "\x5A\x40"s + // 38: j10, RIGHT
                  "\x89\x00"s + // 40: i7
                  "\x78\x40"s); // 42: h8 again, RIGHT
}

// h8; i9 (DOWN) with j10 (DOWN) then k11 (RIGHT), and j8 (comment "two", RIGHT) after j10; i7
// (RIGHT) after i9. The tree: h8 -> {i9 -> {j10 -> k11, j8}, i7}.
std::string branching_library() {
    using namespace std::string_literals;
    return renlib("\x78\x00"s + "\x69\x80"s + "\x5A\x80"s + "\x4B\x40"s + "\x7A\x48"s + "two\0"s + "\x89\x40"s);
}

// Each SGF text is one game of another game than Gomoku: unsupported-game alone, nothing replayed.
void check_other_game(std::initializer_list<const char*> texts) {
    for (const char* other : texts) {
        INFO(other);
        const GameRecord o = only_game(read_sgf(other, "o.sgf"));
        CHECK(o.status == GameStatus::partial);
        CHECK(o.main.plies.empty());
        REQUIRE(o.diagnostics.size() == 1);
        CHECK(o.diagnostics[0].code == "unsupported-game");
    }
}

std::string line_text(const Line& l) {
    std::string out;
    for (const Ply& p : l.plies) out += (out.empty() ? "" : " ") + p.written;
    return out;
}

} // namespace

TEST_CASE("RenjuNet: games with players, tournaments, rules and openings resolved from their ids", "[parser][renju]") {
    const std::string file = (renju_dir / "database.rif").string();
    std::vector<Diagnostic> file_diagnostics;
    const auto games = read_renjunet(slurp(file), "db.rif", &file_diagnostics);
    CHECK(file_diagnostics.empty());
    REQUIRE(games.size() == 6);

    const GameRecord& g = games[0];
    CHECK(g.status == GameStatus::valid);
    CHECK(g.kind == GameKind::renju);
    CHECK(g.line == 31);
    CHECK(tag_or(g, "Event") == "Tallinn Open <A>"); // entities decoded
    CHECK(tag_or(g, "Site") == "Tallinn, Estonia");
    CHECK(tag_or(g, "Date") == "2023.08.01");
    CHECK(tag_or(g, "Round") == "1");
    CHECK(tag_or(g, "Black") == "Tamm, Jüri"); // UTF-8 kept
    CHECK(tag_or(g, "White") == "O'Neil & Co, Anna");
    CHECK(tag_or(g, "Opening") == "Kagetsu");
    CHECK(tag_or(g, "OpeningRule") == "RIF"); // the tournament's rule
    CHECK(tag_or(g, "RenjuNetId") == "101");
    CHECK(g.result == "0-1"); // bresult 1: Black won, with the five h8-l8
    CHECK(moves(g) == "h8 a1 i8 a2 j8 a3 k8 a4 l8");

    // A forbidden point (Black's double-three at h8): partial there, at its line and column.
    CHECK(games[1].status == GameStatus::partial);
    CHECK(games[1].main.plies.size() == 8);
    // Its first stone is not on the centre that its rule (RIF) puts it on: a warning, the move played.
    CHECK(diagnostics(games[1]) ==
          "db.rif:35:13: warning: 1. f8: under the RIF opening rule Black's first stone is on the centre, h8 [opening-rule]\n"
          "db.rif:36:9: error: 5. h8: the stone makes two free threes at once (double-three, forbidden) [illegal-move]\n");
    CHECK(games[1].result == "1-0");

    // A rule id the rule table lacks: a clear error, the moves not replayed.
    CHECK(games[2].status == GameStatus::partial);
    CHECK(games[2].main.plies.empty());
    CHECK(diagnostics(games[2]) ==
          "db.rif:38:5: error: rule id 9 is not in the file's <rules>; the moves are not replayed [unsupported-game]\n");

    // Yamaguchi is Renju with that opening rule; an occupied point; a character reference in a name.
    const GameRecord& y = games[3];
    CHECK(y.kind == GameKind::renju);
    CHECK(tag_or(y, "OpeningRule") == "Yamaguchi");
    CHECK(tag_or(y, "Site") == "Malmö, SWE"); // a country with an abbreviation only
    CHECK(tag_or(y, "Date") == "2021.??.??");
    CHECK(tag_or(y, "White") == "Lind, René");
    CHECK(tag_or(y, "Alt") == "j10 k9");
    CHECK(tag_or(y, "Info") == "B=1245");
    CHECK(y.result == "1/2-1/2");
    CHECK(y.status == GameStatus::partial);
    CHECK(diagnostics(y) == "db.rif:42:19: error: 2. h8: the point h8 is occupied by a black stone [illegal-move]\n");

    // Gomoku from the rule table; a word that is no point stops the moves.
    CHECK(games[4].kind == GameKind::gomoku);
    CHECK(moves(games[4]) == "h8 i9");
    CHECK(games[4].status == GameStatus::partial);
    CHECK(contains(diagnostics(games[4]), "db.rif:46:19: error: 'z99' is not a point of the 15x15 board (a1 to o15)"));

    // A rule gounki does not play is named; an unknown player id is a warning.
    CHECK(games[5].status == GameStatus::partial);
    const std::string d5 = diagnostics(games[5]);
    CHECK(contains(d5, "error: rule 'Caro' (id 4): Caro (a line of five blocked at both ends does not win) is not a rule gounki plays"));
    CHECK(contains(d5, "warning: the white player id 7 is not in the file's <players> [unknown-id]"));
    CHECK(tag_or(games[5], "White") == "(none)");
}

// renju.net spells Soosõrv's rule with its Estonian letter, and names the Tarannikov and Jonsson
// opening rules; a Renju server's SGF names its rule in GN ("... : Tarannikov rule"). Read as
// words no rule set holds, each game was kept without its moves.
TEST_CASE("Renju opening rules as renju collections name them: Soosõrv-N, Tarannikov, Jonsson", "[parser][renju]") {
    const std::string file = (renju_dir / "rule-names.rif").string();
    const auto games = read_renjunet(slurp(file), "rules.rif");
    REQUIRE(games.size() == 4);
    const char* opening[] = {"Soosyrv-8", "Tarannikov", "Jonsson", "Soosyrv-N"};
    const std::size_t plies[] = {8, 5, 3, 2};
    for (std::size_t i = 0; i < games.size(); ++i) {
        INFO("game " << i + 1 << ": " << diagnostics(games[i]));
        CHECK(games[i].status == GameStatus::valid);
        CHECK(games[i].kind == GameKind::renju);
        CHECK(tag_or(games[i], "OpeningRule") == opening[i]);
        CHECK(games[i].main.plies.size() == plies[i]);
        CHECK(diagnostics(games[i]).empty());
    }

    const std::string sgf_file = source_path("tests/data/sgf/renju-server-rules.sgf").string();
    const auto server = read_sgf(slurp(sgf_file), "server.sgf");
    REQUIRE(server.size() == 2);
    const char* sgf_opening[] = {"Tarannikov", "Jonsson"};
    for (std::size_t i = 0; i < server.size(); ++i) {
        INFO("game " << i + 1 << ": " << diagnostics(server[i]));
        CHECK(server[i].status == GameStatus::valid);
        CHECK(server[i].kind == GameKind::renju);
        CHECK(tag_or(server[i], "OpeningRule") == sgf_opening[i]);
        CHECK(server[i].main.plies.size() == 5);
        // GM[5] is still said, as for the server's other games; nothing else.
        REQUIRE(server[i].diagnostics.size() == 1);
        CHECK(server[i].diagnostics[0].code == "wrong-game-number");
    }
    CHECK(server[0].result == "1-0");
    CHECK(server[1].result == "0-1");
    CHECK(read_five_rule_names("Soosõrv 8").opening == "Soosyrv-8");
    CHECK(read_five_rule_names("Tarannikov").rule == "renju"); // an opening rule names Renju alone
    CHECK(read_five_rule_names("Gomoku, Jonsson").rule == "freestyle");
}

// A Gomoku app's records, as downloaded, write GM[5] on the 15x15 board and name no rule: GM[5] is
// what Renju programs write for their games, and no rule word was there to say so, so the whole
// game was kept without its moves.
TEST_CASE("SGF: GM 5 on the 15x15 board with no rule named reads as GM 4, with a warning", "[parser][renju]") {
    const std::string file = source_path("tests/data/sgf/gm5-app.sgf").string();
    const GameRecord g = only_game(read_sgf(slurp(file), "app.sgf"));
    CHECK(g.status == GameStatus::valid);
    CHECK(g.kind == GameKind::gomoku); // no rule named: SGF's Gomoku, whose moves a Renju game also obeys
    CHECK(point_names(g.main) == std::vector<std::string>{"h8", "i9", "g9", "i7", "j8", "h7", "g7", "g8", "f6", "e5"});
    CHECK(tag_or(g, "Black") == "Mika(1620)");
    REQUIRE(g.diagnostics.size() == 1);
    CHECK(format_diagnostic(g.diagnostics[0]) ==
          "app.sgf:1:3: warning: GM[5] is not Gomoku (GM[4]), but Renju programs write GM[5] for their games on "
          "the 15x15 board (SZ[15]); read as GM[4] [wrong-game-number]");
    // Only GM[5], and only on 15x15: another number, or another board, is still another game.
    check_other_game({"(;GM[7]FF[4]SZ[15];B[hh])", "(;GM[5]FF[4]SZ[19];B[hh])", "(;GM[5]FF[4];B[hh])"});
}

// Gomoku apps' SGF writers put GM[11] (SGF's Hex, "11 for Gomoku/Renju" in one app's code) or GM[2]
// (Othello, an 8x8 game) before a 15x15 board with moves as SGF points: read as GM[4], said once.
// Hex writes its cells as a1, so GM[11] with such moves, or either number on another board, is
// still another game.
TEST_CASE("SGF: GM 2 and GM 11 on a Gomoku board with moves as SGF points read as GM 4, with a warning", "[parser][sgf]") {
    const GameRecord hex_number = only_game(
        read_sgf("(;GM[11]FF[4]CA[UTF-8]AP[SomeGomoku]SZ[15]PB[ann]PW[bob]RE[B+];B[hh];W[ii];B[hi])", "app.sgf"));
    CHECK(hex_number.status == GameStatus::valid);
    CHECK(hex_number.kind == GameKind::gomoku);
    CHECK(moves(hex_number) == "B[hh] W[ii] B[hi]");
    REQUIRE(hex_number.diagnostics.size() == 1);
    CHECK(format_diagnostic(hex_number.diagnostics[0]) ==
          "app.sgf:1:3: warning: GM[11] is Hex, not Gomoku (GM[4]), but Gomoku apps write GM[11] for their games; on the "
          "15x15 board with moves such as B[hh], read as GM[4] [wrong-game-number]");
    const GameRecord othello_number = only_game(read_sgf("(;GM[2]FF[4]SZ[19]PB[x]PW[y];B[jj];W[ij])", "app.sgf"));
    CHECK(othello_number.status == GameStatus::valid);
    CHECK(othello_number.main.plies.size() == 2);
    CHECK(contains(find_code(othello_number, "wrong-game-number")->message, "GM[2] is Othello"));
    check_other_game({"(;GM[11]FF[4]SZ[15];B[h8];W[i9])", "(;GM[11]FF[4]SZ[13];B[hh])", "(;GM[2]FF[4]SZ[8];B[dc])",
                      "(;GM[2]FF[4];B[dc])", "(;GM[11]FF[4]SZ[15])"});
}

TEST_CASE("RenjuNet: Black's offered fifth moves (alt) are read as variations of the fifth move, checked there",
          "[parser][renju]") {
    const std::string head = "<?xml version=\"1.0\"?>\n<database>\n<rules><rule id=\"2\" name=\"Yamaguchi\"/></rules>\n<games>\n";
    const std::string text = head +
        "<game id=\"1\" rule=\"2\" alt=\"h10 f7  l12\"><move>h8 i9 j10 g8 h10 k11</move></game>\n"
        "<game id=\"2\" rule=\"2\" alt=\"f7 h8\"><move>h8 i9 j10 g8 h10 k11</move></game>\n"
        "<game id=\"3\" rule=\"2\" alt=\"f7 q99\"><move>h8 i9 j10 g8 h10 k11</move></game>\n"
        "<game id=\"4\" rule=\"2\" alt=\"f7\"><move>h8 i9 j10</move></game>\n"
        "<game id=\"5\" rule=\"2\" alt=\"51\" swap=\"R--R-\"><move>h8 i9 j10 g8 h10 k11</move></game>\n"
        "<game id=\"6\" rule=\"2\" alt=\"g6 f6 i6\"><move>h8 h9 h10 h7 g6</move></game>\n"
        "</games></database>\n";
    const auto games = read_renjunet(text, "alt.rif");
    REQUIRE(games.size() == 6);
    // Offers that are one move (the four stones on the h file lie the same mirrored left to right:
    // g6 and i6): the opening rule's warning; the offers are read as before.
    REQUIRE(find_code(games[5], "opening-rule"));
    CHECK(contains(find_code(games[5], "opening-rule")->message,
                   "alt='g6 f6 i6': Black offered g6 and i6 as fifth moves, and they are one move"));
    CHECK(games[5].main.plies[4].variations.size() == 2);
    CHECK(find_code(games[0], "opening-rule") == nullptr);
    for (const GameRecord& g : games) CHECK(tag_or(g, "OpeningRule") == "Yamaguchi");

    // The offers but the one chosen (h10, the fifth move played), in their order, each with its note.
    const GameRecord& g = games[0];
    CHECK(g.status == GameStatus::valid);
    CHECK(diagnostics(g).empty());
    CHECK(tag_or(g, "Alt") == "h10 f7  l12");
    REQUIRE(g.main.plies.size() == 6);
    const auto& offers = g.main.plies[4].variations;
    REQUIRE(offers.size() == 2);
    for (std::size_t i = 0; i < offers.size(); ++i) {
        REQUIRE(offers[i].plies.size() == 1);
        CHECK(offers[i].plies[0].move == M(i == 0 ? "f7" : "l12"));
        CHECK(offers[i].plies[0].comments == std::vector<std::string>{"offered fifth move, not chosen"});
    }
    for (std::size_t i = 0; i < g.main.plies.size(); ++i)
        if (i != 4) CHECK(g.main.plies[i].variations.empty());
    // Written as a record and read again: the same offers.
    const auto back = read_records(write_record(g));
    REQUIRE(back.size() == 1);
    REQUIRE(back[0].main.plies.size() == 6);
    CHECK(back[0].main.plies[4].variations.size() == 2);
    CHECK(back[0].main.plies[4].variations[1].plies[0].move == M("l12"));

    // An offer on an occupied point, or a word that is no point: a warning, the Alt tag only.
    for (int i : {1, 2}) {
        INFO("game " << i + 1);
        CHECK(games[std::size_t(i)].status == GameStatus::valid);
        CHECK(games[std::size_t(i)].main.plies[4].variations.empty());
        CHECK(contains(diagnostics(games[std::size_t(i)]), "[bad-alt]"));
    }
    CHECK(contains(diagnostics(games[1]), "'h8' is no fifth move Black could play"));
    CHECK(contains(diagnostics(games[2]), "'q99' is not a point of the board"));
    // A game without a fifth move: the offers have no move to be alternatives to; the tag keeps them.
    CHECK(games[3].main.plies.size() == 3);
    CHECK(diagnostics(games[3]).empty());
    CHECK(tag_or(games[3], "Alt") == "f7");
    // A whole number, as renju.net's own file writes alt in some games (alt="51"): no points to
    // check and no fault of the file; kept in the tag, without a warning.
    const GameRecord& number = games[4];
    CHECK(number.status == GameStatus::valid);
    CHECK(diagnostics(number).empty());
    CHECK(tag_or(number, "Alt") == "51");
    CHECK(number.main.plies[4].variations.empty());
}

TEST_CASE("RenjuNet: broken XML is an error at its line; the games before it are read", "[parser][renju]") {
    const std::string text = "<?xml version=\"1.0\"?>\n<database>\n<games>\n"
                             "<game id=\"1\"><move>h8 h9</move><info>a &amp; b</info></game>\n"
                             "<game id=\"2\"><move>h8 i9</game>\n</games></database>\n";
    std::vector<Diagnostic> file_diagnostics;
    const auto games = read_renjunet(text, "broken.rif", &file_diagnostics);
    REQUIRE(games.size() == 1);
    CHECK(moves(games[0]) == "h8 h9");
    CHECK(tag_or(games[0], "Info") == "a & b");
    CHECK(games[0].status == GameStatus::valid);
    REQUIRE(file_diagnostics.size() == 1);
    // expat places a mismatched end tag at its name, after "</".
    CHECK(format_diagnostic(file_diagnostics[0]) ==
          "broken.rif:5:27: error: broken XML: mismatched tag; game 2 (line 5) and what follows are not read [syntax]");

    // Another root: not a RenjuNet database.
    read_renjunet("<?xml version=\"1.0\"?>\n<games><game/></games>\n", "other.xml", &file_diagnostics);
    REQUIRE(file_diagnostics.size() == 1);
    CHECK(contains(file_diagnostics[0].message, "the root element is <games>: a RenjuNet database's is <database>"));

    // Detection by content, and by name.
    CHECK(format_of("a.txt", "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<database version=\"1.0\">") == RecordFormat::renjunet);
    CHECK(format_of("a.xml", "<?xml version=\"1.0\"?>\n<databases>") == RecordFormat::gpn);
    CHECK(format_of("a.rif", "<?xml version=\"1.0\"?>\n<!-- a long comment ...") == RecordFormat::renjunet);
    CHECK(parse_record_format("RenjuNet") == RecordFormat::renjunet);
}

TEST_CASE("RenjuNet: bytes that are not UTF-8 are read as Windows-1252, with one warning at the first", "[parser][renju]") {
    const std::string clean = slurp((renju_dir / "database.rif").string());
    // Names typed in another code page: "Tömm" (0xF6) in the players' table, "Malmö" (0xF6) in a
    // tournament's name further on.
    std::string text = clean;
    text.replace(text.find("surname=\"Tamm\""), 14, "surname=\"T\xF6mm\"");
    text.replace(text.find("name=\"Malm\xC3\xB6 Cup\""), 17, "name=\"Malm\xF6 Cup\"");
    std::vector<Diagnostic> file_diagnostics;
    const auto games = read_renjunet(text, "cp.rif", &file_diagnostics);
    REQUIRE(games.size() == read_renjunet(clean, "db.rif").size()); // every game, as from the clean file
    CHECK(tag_or(games[0], "Black") == "Tömm, Jüri"); // UTF-8 before and after the byte kept
    bool malmo_cup = false;
    for (const GameRecord& g : games) malmo_cup |= tag_or(g, "Event") == "Malmö Cup";
    CHECK(malmo_cup);
    REQUIRE(file_diagnostics.size() == 1); // one warning for the file
    CHECK(format_diagnostic(file_diagnostics[0]) ==
          "cp.rif:13:42: warning: the byte 0xF6 is not UTF-8, as the rest of the file is: it and every other such byte are "
          "read as Windows-1252 [not-utf8]");

    // A character cut between two blocks of the reading (64 KiB) is UTF-8 still, and a file whose
    // declaration names Latin-1 is read as Latin-1 (by expat), without a warning.
    for (std::size_t cut : {65535u, 65534u, 65533u}) {
        std::string padded = clean;
        const std::size_t at = padded.find("<players>");
        const std::string comment_start = "<!-- ";
        const std::size_t pad = cut - at - comment_start.size();
        padded.insert(at, comment_start + std::string(pad, '.') + "\xE2\x80\x94 -->\n"); // an em dash across the cut
        file_diagnostics.clear();
        CHECK(read_renjunet(padded, "long.rif", &file_diagnostics).size() == games.size());
        CHECK(file_diagnostics.empty());
    }
    std::string latin = text;
    latin.replace(latin.find("encoding=\"utf-8\""), 16, "encoding=\"ISO-8859-1\"");
    for (const auto& [utf8, byte] : {std::pair<std::string, std::string>{"\xC3\xBC", "\xFC"}, {"\xC3\xB6", "\xF6"}})
        for (std::size_t at; (at = latin.find(utf8)) != std::string::npos;) latin.replace(at, 2, byte);
    file_diagnostics.clear();
    const auto latin_games = read_renjunet(latin, "latin.rif", &file_diagnostics);
    CHECK(file_diagnostics.empty());
    REQUIRE_FALSE(latin_games.empty());
    CHECK(tag_or(latin_games[0], "Black") == "Tömm, Jüri");

    // A set expat does not read is decoded by ICU (Cyrillic in windows-1251: "Иванов"); a byte that
    // is no character of it is a warning; a set nobody knows is an error that names it.
    std::string cyrillic = latin;
    cyrillic.replace(cyrillic.find("encoding=\"ISO-8859-1\""), 21, "encoding=\"windows-1251\"");
    cyrillic.replace(cyrillic.find("surname=\"T\xF6mm\""), 14, "surname=\"\xC8\xE2\xE0\xED\xEE\xE2\"");
    file_diagnostics.clear();
    const auto cyrillic_games = read_renjunet(cyrillic, "1251.rif", &file_diagnostics);
    CHECK(cyrillic_games.size() == games.size());
    CHECK(tag_or(cyrillic_games[0], "Black") == "Иванов, J\xD1\x8Cri"); // 0xFC is "ь" in windows-1251
    CHECK(file_diagnostics.empty());
    std::string shift_jis = clean;
    shift_jis.replace(shift_jis.find("encoding=\"utf-8\""), 16, "encoding=\"Shift_JIS\"");
    shift_jis.replace(shift_jis.find("J\xC3\xBCri"), 5, "\x93\x63\x92\x86"); // 田中
    shift_jis.replace(shift_jis.find("Malm\xC3\xB6\" country"), 14, "Malm\x80\" country"); // no character of Shift_JIS
    file_diagnostics.clear();
    const auto japanese = read_renjunet(shift_jis, "sjis.rif", &file_diagnostics);
    CHECK(japanese.size() == games.size());
    CHECK(tag_or(japanese[0], "Black") == "Tamm, 田中");
    REQUIRE(file_diagnostics.size() == 1);
    CHECK(format_diagnostic(file_diagnostics[0]) ==
          "sjis.rif: warning: 1 byte sequence is no shift_jis text (the file declares that encoding); read as U+FFFD [bad-charset]");
    for (const std::string set : {"UTF-32", "UTF-16"}) { // more than one byte a character, declared in one
        std::string wide = clean;
        wide.replace(wide.find("encoding=\"utf-8\""), 16, "encoding=\"" + set + "\"");
        file_diagnostics.clear();
        CHECK(read_renjunet(wide, "wide.rif", &file_diagnostics).size() == games.size());
        REQUIRE(file_diagnostics.size() == 1);
        std::string lower = set;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        CHECK(format_diagnostic(file_diagnostics[0]) ==
              "wide.rif:1:1: warning: the file declares the encoding '" + lower +
                  "', but writes its declaration in one byte a character; read as UTF-8 (Windows-1252 where it is not) [bad-charset]");
    }
    // An instruction that is no declaration declares nothing: UTF-8.
    std::string styled = "<?xml-stylesheet encoding=\"windows-1251\"?>\n" + clean.substr(clean.find("<database"));
    file_diagnostics.clear();
    const auto styled_games = read_renjunet(styled, "styled.rif", &file_diagnostics);
    CHECK(file_diagnostics.empty());
    REQUIRE(styled_games.size() == games.size());
    CHECK(tag_or(styled_games[0], "Black") == "Tamm, Jüri");
    std::string unknown = clean;
    unknown.replace(unknown.find("encoding=\"utf-8\""), 16, "encoding=\"x-gounki\"");
    file_diagnostics.clear();
    CHECK(read_renjunet(unknown, "unknown.rif", &file_diagnostics).empty());
    REQUIRE(file_diagnostics.size() == 1);
    CHECK(contains(format_diagnostic(file_diagnostics[0]),
                   "error: the file declares the encoding 'x-gounki', which gounki does not know [syntax]"));
}

// "utf8" (without the dash) is UTF-8 to the reader, but expat does not know the name: the file was
// "the file declares the encoding 'utf8', which gounki does not know" and no game was read.
TEST_CASE("RenjuNet: a file that declares its encoding as utf8 is read as UTF-8", "[parser][renju]") {
    const std::string clean = slurp((renju_dir / "database.rif").string());
    const std::size_t count = read_renjunet(clean, "db.rif").size();
    for (const char* name : {"utf8", "UTF8"}) {
        INFO(name);
        std::string text = clean;
        text.replace(text.find("encoding=\"utf-8\""), 16, std::string("encoding=\"") + name + "\"");
        std::vector<Diagnostic> file_diagnostics;
        const auto games = read_renjunet(text, "utf8.rif", &file_diagnostics);
        CHECK(games.size() == count);
        CHECK(file_diagnostics.empty());
        // A byte that is not UTF-8 is read as Windows-1252 there too.
        text.replace(text.find("surname=\"Tamm\""), 14, "surname=\"T\xF6mm\"");
        file_diagnostics.clear();
        const auto cp = read_renjunet(text, "utf8.rif", &file_diagnostics);
        REQUIRE(cp.size() == count);
        CHECK(tag_or(cp[0], "Black") == "Tömm, Jüri");
        REQUIRE(file_diagnostics.size() == 1);
        CHECK(file_diagnostics[0].code == "not-utf8");
    }
}

// UTF-8's byte order mark says the file is UTF-8 whatever its declaration says, as SGF's CA (4.1):
// a file saved again as UTF-8 keeps its old declaration. The mark was decoded in the declared set
// (windows-1250: "ďťż" before the declaration, broken XML at 1:2 and no game), or the names read
// in Latin-1 ("JÃ¼ri").
TEST_CASE("RenjuNet: a file that starts with UTF-8's byte order mark is UTF-8 whatever it declares", "[parser][renju]") {
    const std::string clean = slurp((renju_dir / "database.rif").string());
    const auto games = read_renjunet(clean, "db.rif");
    REQUIRE_FALSE(games.empty());
    for (const char* declared : {"windows-1250", "ISO-8859-1", "US-ASCII", "UTF-16"}) {
        INFO(declared);
        std::string text = "\xEF\xBB\xBF" + clean;
        text.replace(text.find("encoding=\"utf-8\""), 16, std::string("encoding=\"") + declared + "\"");
        std::vector<Diagnostic> file_diagnostics;
        const auto read = read_renjunet(text, "bom.rif", &file_diagnostics);
        CHECK(file_diagnostics.empty());
        REQUIRE(read.size() == games.size());
        CHECK(tag_or(read[0], "Black") == "Tamm, Jüri");
    }
}

// A RenjuNet file saved in UTF-16 (Windows editors' "Unicode"), with its byte order mark: expat
// reads UTF-16 itself, so the file goes to the reader, told by its content whatever its name (the
// command line refused it as a binary file, "save it as UTF-8"). Other formats in UTF-16 are still
// refused so.
TEST_CASE("gounki validate and import read a RenjuNet file in UTF-16 with its byte order mark", "[parser][renju][cli]") {
    TempDir dir("renju-utf16");
    std::string text = slurp((renju_dir / "database.rif").string());
    text.replace(text.find("encoding=\"utf-8\""), 16, "encoding=\"UTF-16\"");
    const std::u16string units = QString::fromUtf8(text.data(), qsizetype(text.size())).toStdU16String();
    std::string le = "\xFF\xFE", be = "\xFE\xFF";
    for (const char16_t u : units) {
        le += char(u & 0xFF), le += char(u >> 8);
        be += char(u >> 8), be += char(u & 0xFF);
    }
    write_text(dir / "le.rif", le);
    write_text(dir / "be.xml", be); // no RenjuNet name: told by its content
    for (const char* name : {"le.rif", "be.xml"}) {
        INFO(name);
        const CliRun v = run_gounki_args({"validate", dir.file(name)});
        CHECK(v.status == 1);
        CHECK(contains(v.out, dir.file(name) + ":36:9: error: 5. h8"));
        CHECK(contains(v.out, "6 games in 1 file: 1 valid, 0 invalid, 5 partial"));
        CHECK_FALSE(contains(v.out, "binary-file"));
        const CliRun imp = run_gounki_args({"import", "--db", dir.file(std::string(name) + ".db"), dir.file(name)});
        CHECK(contains(imp.err, "6 games read: 6 stored"));
        CHECK(contains(run_gounki_args({"games", "--db", dir.file(std::string(name) + ".db")}).out, "Tamm, Jüri"));
    }
    // GPN in UTF-16 is still refused: its reader reads no UTF-16.
    write_text(dir / "utf16.gpn", std::string("\xFF\xFE<\0?\0x\0m\0l\0 \0", 14));
    const CliRun gpn = run_gounki_args({"validate", dir.file("utf16.gpn")});
    CHECK(gpn.status == 2);
    CHECK(contains(gpn.out, "the file is UTF-16 text: save it as UTF-8 to read it [binary-file]"));
}

// expat counts a CR alone as a line end, as LF and CR LF: the line of the not-utf8 warning is
// counted alike (a file with CR line ends had it on line 1, its column the length of the file
// before the byte).
TEST_CASE("RenjuNet: the not-utf8 warning is at the byte's line whatever the line ends", "[parser][renju]") {
    std::string text = slurp((renju_dir / "database.rif").string());
    text.replace(text.find("surname=\"Tamm\""), 14, "surname=\"T\xF6mm\"");
    for (const char* end : {"\r", "\r\n"}) {
        INFO((end[1] ? "CR LF" : "CR"));
        std::string ended;
        for (char c : text) ended += c == '\n' ? std::string(end) : std::string(1, c);
        std::vector<Diagnostic> file_diagnostics;
        read_renjunet(ended, "cp.rif", &file_diagnostics);
        REQUIRE(file_diagnostics.size() == 1);
        CHECK(format_diagnostic(file_diagnostics[0]) ==
              "cp.rif:13:42: warning: the byte 0xF6 is not UTF-8, as the rest of the file is: it and every other such byte are "
              "read as Windows-1252 [not-utf8]");
    }
    // A CR LF cut between two blocks of the reading (64 KiB) is one line end still.
    std::string cut = text;
    const std::size_t at = cut.find("<players>");
    cut.insert(at, "<!-- " + std::string(65535 - at - 5, '.') + "\r\n-->\n");
    std::vector<Diagnostic> file_diagnostics;
    read_renjunet(cut, "cut.rif", &file_diagnostics);
    REQUIRE(file_diagnostics.size() == 1);
    CHECK(contains(format_diagnostic(file_diagnostics[0]), "cut.rif:15:42: warning: the byte 0xF6"));
}

TEST_CASE("RenLib: one game per line of the tree, comments and board texts kept", "[parser][renju]") {
    std::vector<Diagnostic> file_diagnostics;
    const auto games = read_renlib(sample_library(), "lib.lib", &file_diagnostics);
    CHECK(file_diagnostics.empty());
    REQUIRE(games.size() == 2);
    CHECK(games[0].kind == GameKind::renju);
    CHECK(moves(games[0]) == "h8 i9 j10");
    CHECK(games[0].status == GameStatus::valid);
    REQUIRE(games[0].main.plies.size() == 3);
    CHECK(games[0].main.plies[0].comments == std::vector<std::string>{"centre"});
    CHECK(games[0].main.plies[1].comments == std::vector<std::string>{"board text g10: A"});
    CHECK(moves(games[1]) == "h8 i7");
    CHECK(games[1].status == GameStatus::partial);
    CHECK(diagnostics(games[1]) ==
          "lib.lib: error: 2. h8: the point h8 is occupied by a black stone (at byte 42) [illegal-move]\n");
    CHECK(games[1].number == 2);

    // Told by its header, which the binary-file check lets through (and no other binary).
    const std::string bytes = sample_library();
    CHECK(not_a_record_file(bytes, RecordFormat::renlib).empty());
    CHECK(format_of("x.dat", bytes) == RecordFormat::renlib);
    CHECK(!not_a_record_file(std::string("\xFFRenLix\xFF\x03\x00", 10), RecordFormat::gpn).empty());
}

TEST_CASE("RenLib as a tree: one game, the first line its main line and the other branches variations", "[parser][renju]") {
    // Read as lines: one game per leaf, in file order.
    const auto lines = read_renlib(branching_library(), "tree.lib");
    REQUIRE(lines.size() == 3);
    CHECK(moves(lines[0]) == "h8 i9 j10 k11");
    CHECK(moves(lines[1]) == "h8 i9 j8");
    CHECK(moves(lines[2]) == "h8 i7");
    // Read as a tree: the same moves in one game.
    std::vector<Diagnostic> file_diagnostics;
    const auto tree = read_renlib(branching_library(), "tree.lib", &file_diagnostics, true);
    CHECK(file_diagnostics.empty());
    REQUIRE(tree.size() == 1);
    const GameRecord& g = tree[0];
    CHECK(g.kind == GameKind::renju);
    CHECK(g.status == GameStatus::valid);
    CHECK(g.number == 1);
    CHECK(moves(g) == "h8 i9 j10 k11");
    REQUIRE(g.main.plies.size() == 4);
    REQUIRE(g.main.plies[1].variations.size() == 1); // i7 instead of i9
    CHECK(line_text(g.main.plies[1].variations[0]) == "i7");
    REQUIRE(g.main.plies[2].variations.size() == 1); // j8 instead of j10, with its comment
    CHECK(line_text(g.main.plies[2].variations[0]) == "j8");
    CHECK(g.main.plies[2].variations[0].plies[0].comments == std::vector<std::string>{"two"});
    CHECK(g.main.plies[0].variations.empty());
    CHECK(g.main.plies[3].variations.empty());
    // Every line of the tree is a line of the game: written as GPN and read back, the same tree.
    const std::string text = write_record(g);
    INFO(text);
    CHECK(contains(text, "1. h8 i9 (1... i7) 2. j10 (2. j8 {two}) 2... k11"));
    const auto back = read_records(text, "back.gpn");
    REQUIRE(back.size() == 1);
    CHECK(back[0].status == GameStatus::valid);
    CHECK(write_record(back[0]) == text);

    // The sample: the branch after h8 plays h8 again: an error in a variation, which stops there;
    // the main line is whole, so the game is invalid, not partial. Comments and board texts kept.
    const auto sample = read_renlib(sample_library(), "lib.lib", nullptr, true);
    REQUIRE(sample.size() == 1);
    CHECK(moves(sample[0]) == "h8 i9 j10");
    CHECK(sample[0].status == GameStatus::invalid);
    CHECK(sample[0].main.plies[0].comments == std::vector<std::string>{"centre"});
    CHECK(sample[0].main.plies[1].comments == std::vector<std::string>{"board text g10: A"});
    REQUIRE(sample[0].main.plies[1].variations.size() == 1);
    CHECK(line_text(sample[0].main.plies[1].variations[0]) == "i7");
    CHECK(diagnostics(sample[0]) ==
          "lib.lib: error: 2. h8: the point h8 is occupied by a black stone (at byte 42) [illegal-move]\n");
    // A main line that plays a refused point stops there: partial. h8, then h8 again.
    using namespace std::string_literals;
    const auto cut = read_renlib(renlib("\x78\x00"s + "\x78\x00"s), "cut.lib", nullptr, true);
    REQUIRE(cut.size() == 1);
    CHECK(cut[0].status == GameStatus::partial);
    CHECK(moves(cut[0]) == "h8");
    // A library of no move at all has no game, either way.
    CHECK(read_renlib(renlib(""), "empty.lib", nullptr, true).empty());
}

TEST_CASE("RenLib as a tree: variations nested deeper than a record holds are left out, with a warning", "[parser][renju]") {
    // Level k: the move m(k), below it a(k) (DOWN and RIGHT: a sibling follows, the line ends there)
    // and then m(k+1), a sibling of a(k). As a tree, m(k+1) is a variation of a(k), one deeper than
    // m(k): 70 levels nest far deeper than a record's 64. Black plays the points where file + 2 * rank
    // is 0 modulo 5, White those where it is 2: no two of a colour within three points on a line, so
    // no five, four or three anywhere. a(k) is the next point of m(k+1)'s colour.
    std::array<std::vector<int>, 2> points; // Black's and White's, as RenLib bytes
    for (int r = 0; r < 15; ++r)
        for (int f = 0; f < 15; ++f) {
            const int byte = (14 - r) << 4 | (f + 1);
            if ((f + 2 * r) % 5 == 0) points[0].push_back(byte);
            if ((f + 2 * r) % 5 == 2) points[1].push_back(byte);
        }
    const int levels = 70;
    std::string body;
    for (int k = 0; k < levels; ++k) {
        body += char(points[std::size_t(k % 2)][std::size_t(k / 2)]); // m(k)
        body += '\0';
        if (k + 1 < levels) {
            body += char(points[std::size_t((k + 1) % 2)][std::size_t((k + 1) / 2 + 1)]); // a(k)
            body += '\xC0';
        }
    }
    const auto lines = read_renlib(renlib(body), "deep.lib");
    CHECK(lines.size() == std::size_t(levels)); // as lines: every leaf a game
    for (const GameRecord& g : lines) CHECK(g.status == GameStatus::valid);
    const auto tree = read_renlib(renlib(body), "deep.lib", nullptr, true);
    REQUIRE(tree.size() == 1);
    const GameRecord& g = tree[0];
    CHECK(g.status == GameStatus::valid);
    CHECK(diagnostics(g) == "deep.lib: warning: variations nested more than 64 deep are left out (at byte " +
              std::to_string(20 + 4 * 65) + ") [too-deep]\n");
    int depth = 0;
    for (const Line* l = &g.main; l->plies.size() == 2 && !l->plies[1].variations.empty(); l = &l->plies[1].variations[0]) ++depth;
    CHECK(depth == 64);
    // Written and read back whole: 64 deep is what a record holds.
    const auto back = read_records(write_record(g), "back.gpn");
    REQUIRE(back.size() == 1);
    CHECK(back[0].status == GameStatus::valid);
    CHECK(write_record(back[0]) == write_record(g));
}

TEST_CASE("RenLib: a file cut short or corrupt is refused whole, with the byte", "[parser][renju]") {
    const std::string whole = sample_library();
    std::vector<Diagnostic> file_diagnostics;
    CHECK(read_renlib(whole.substr(0, 26), "cut.lib", &file_diagnostics).empty());
    REQUIRE(file_diagnostics.size() == 1);
    CHECK(format_diagnostic(file_diagnostics[0]) ==
          "cut.lib: error: not a readable RenLib library: byte 22: the comment starting here is cut short: the file ends "
          "at byte 26 before its end (a 0 byte); no game of the file is read [syntax]");
    CHECK(read_renlib(whole.substr(0, 41), "odd.lib", &file_diagnostics).empty());
    CHECK(contains(file_diagnostics.at(0).message, "byte 40: a node is 2 bytes; the file ends after 1 (cut short)"));
    CHECK(read_renlib(whole.substr(0, 12), "head.lib", &file_diagnostics).empty());
    CHECK(contains(file_diagnostics.at(0).message, "the file has 12 bytes"));
    std::string bad = whole;
    bad[30] = '\x60'; // file 0: no point
    CHECK(read_renlib(bad, "bad.lib", &file_diagnostics).empty());
    CHECK(contains(file_diagnostics.at(0).message, "byte 30: the point byte 0x60 is no point of the 15x15 board"));
    std::string old = whole;
    old[8] = '\x02';
    CHECK(read_renlib(old, "old.lib", &file_diagnostics).empty());
    CHECK(contains(file_diagnostics.at(0).message, "RenLib version 2.0: gounki reads the libraries of RenLib 3.x"));
}

TEST_CASE("gounki validate, import, games, search and show read RenjuNet and RenLib files", "[parser][renju][cli]") {
    TempDir dir("renju-cli");
    fs::copy_file(renju_dir / "database.rif", dir / "db.rif");
    write_text(dir / "lines.lib", sample_library());
    write_text(dir / "cut.lib", sample_library().substr(0, 41));
    const CliRun v = run_gounki("validate " + shell_quoted(dir / "db.rif") + " " + shell_quoted(dir / "lines.lib"));
    CHECK(v.status == 1);
    CHECK(contains(v.out, dir.file("db.rif") + ":36:9: error: 5. h8"));
    CHECK(contains(v.out, dir.file("lines.lib") + ": error: 2. h8: the point h8 is occupied by a black stone (at byte 42)"));
    CHECK(contains(v.out, "8 games in 2 files: 2 valid, 0 invalid, 6 partial"));
    const CliRun cut = run_gounki("validate " + shell_quoted(dir / "cut.lib"));
    CHECK(cut.status == 1);
    CHECK(contains(cut.out, "byte 40: a node is 2 bytes"));
    const CliRun forced = run_gounki("validate --format renjunet " + shell_quoted(dir / "lines.lib"));
    CHECK(contains(forced.out, "broken XML"));

    const std::string db = "--db " + shell_quoted(dir / "g.db");
    const CliRun imp = run_gounki("import " + db + " " + shell_quoted(dir / "db.rif") + " " + shell_quoted(dir / "lines.lib"));
    CHECK(contains(imp.err, "8 games read: 8 stored (6 broken)"));
    CHECK(contains(imp.out + imp.err, dir.file("lines.lib") + ": stored as game 8 (partial)")); // no line in a binary file
    const CliRun games = run_gounki("games " + db + " --game renju");
    CHECK(contains(games.out, "Tamm, Jüri"));
    check_prints("search " + db + " --black Tamm --position \"Renju 15 15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w\"",
                 "Tallinn Open <A>");
    const CliRun show = run_gounki("show " + db + " 1");
    CHECK(contains(show.out, "[White \"O'Neil & Co, Anna\"]"));
    CHECK(contains(show.out, "[Opening \"Kagetsu\"]"));
    check_error("export " + db + " --format renjunet -o " + shell_quoted(dir / "out.rif"), 2,
                "gounki reads renjunet files but does not write them");
    const CliRun formatted = run_gounki("format " + shell_quoted(dir / "lines.lib"));
    CHECK(formatted.status != 0);
    CHECK(contains(formatted.err, "lines.lib: error: a file in the format 'renlib' (a RenLib opening library (.lib, binary): one "
                                  "game per line of its tree, read only): gounki does not write it; not formatted [io-error]"));

    // --as-tree: one game with variations; the branch through an occupied point makes it invalid.
    const CliRun tree = run_gounki("validate --as-tree " + shell_quoted(dir / "lines.lib"));
    CHECK(tree.status == 1);
    CHECK(contains(tree.out, dir.file("lines.lib") + ": error: 2. h8: the point h8 is occupied by a black stone (at byte 42)"));
    CHECK(contains(tree.out, "1 game in 1 file: 0 valid, 1 invalid, 0 partial"));
    write_text(dir / "tree.lib", branching_library());
    const std::string tdb = "--db " + shell_quoted(dir / "t.db");
    const CliRun timp = run_gounki("import --as-tree " + tdb + " " + shell_quoted(dir / "tree.lib"));
    INFO(timp.err);
    CHECK(timp.status == 0);
    CHECK(contains(timp.err, "1 game read: 1 stored"));
    const CliRun tshow = run_gounki("show " + tdb + " 1");
    INFO(tshow.out);
    CHECK(contains(tshow.out, "1. h8 i9 (1... i7) 2. j10 (2. j8 {two}) 2... k11"));
    const CliRun tsgf = run_gounki("export " + tdb + " --format sgf -o -");
    CHECK(contains(tsgf.out, ";B[hh]"));
    CHECK(contains(tsgf.out, "C[two]"));
}

TEST_CASE("Renju: a record that breaks its opening rule's first stones gets opening-rule, in every format",
          "[parser][renju]") {
    // PGN: the slip is named at its move; a game whose first stone broke the rule gets no second
    // warning for the stones placed around that one.
    const auto gpn = read_records("[Game \"Renju\"]\n[OpeningRule \"rif\"]\n[Result \"*\"]\n\n1. h9 h8 2. i9 *\n\n"
                                  "[Game \"Renju\"]\n[OpeningRule \"Yamaguchi\"]\n[Result \"*\"]\n\n1. h8 h10 2. i9 *\n\n"
                                  "[Game \"Renju\"]\n[OpeningRule \"Taraguchi-10\"]\n[Result \"*\"]\n\n1. h8 h9 2. k8 a1 *\n\n"
                                  "[Game \"Renju\"]\n[OpeningRule \"Soosyrv-8\"]\n[Result \"*\"]\n\n1. h8 g7 2. f6 a1 *\n\n"
                                  "[Game \"Renju\"]\n[OpeningRule \"swap2\"]\n[Result \"*\"]\n\n1. a1 h9 2. k8 *\n\n"
                                  "[Game \"Renju\"]\n[OpeningRule \"Sakata\"]\n[Result \"*\"]\n\n1. a1 h9 2. k8 *\n\n"
                                  "[Game \"Renju\"]\n[Result \"*\"]\n\n1. a1 h9 2. k8 *\n",
                                  "o.gpn");
    REQUIRE(gpn.size() == 7);
    const auto warned = [](const GameRecord& g) {
        std::string out;
        for (const Diagnostic& d : g.diagnostics)
            out += std::to_string(d.line) + ":" + std::to_string(d.column) + " " + d.code + " " + d.message + "\n";
        return out;
    };
    CHECK(warned(gpn[0]) == "5:4 opening-rule 1. h9: under the RIF opening rule Black's first stone is on the centre, h8\n");
    CHECK(warned(gpn[1]) == "11:7 opening-rule 1... h10: under the Yamaguchi opening rule White's first stone is next to the "
                            "centre (h8), in the central 3x3 square g7-i9\n");
    CHECK(warned(gpn[2]) == "17:13 opening-rule 2. k8: under the Taraguchi-10 opening rule Black's second stone is within the "
                            "central 5x5 square f6-j10\n");
    CHECK(warned(gpn[3]).empty()); // Soosyrv-8: f6 is on the 5x5 square's corner (Suisei, 13I)
    for (std::size_t i = 4; i < 7; ++i) CHECK(warned(gpn[i]).empty()); // swap2, Sakata, none: not checked
    for (const GameRecord& g : gpn) CHECK(g.status == GameStatus::valid); // a warning: the moves are played

    // Taraguchi-N and Tarannikov go on with squares: White's second stone within 7x7 (k11 is on its
    // corner), under Tarannikov Black's third within 9x9; Taraguchi-N's fifth is not checked (Black
    // may offer fifth moves anywhere). Only the first slip is named.
    const auto squares = read_records("[Game \"Renju\"]\n[OpeningRule \"Taraguchi-10\"]\n[Result \"*\"]\n\n1. h8 h9 2. i9 l8 3. a1 *\n\n"
                                      "[Game \"Renju\"]\n[OpeningRule \"Tarannikov\"]\n[Result \"*\"]\n\n1. h8 h9 2. i9 k11 3. m8 *\n\n"
                                      "[Game \"Renju\"]\n[OpeningRule \"Tarannikov\"]\n[Result \"*\"]\n\n1. h8 h9 2. i9 k11 3. l12 *\n\n"
                                      "[Game \"Renju\"]\n[OpeningRule \"Taraguchi-10\"]\n[Result \"*\"]\n\n1. h8 h9 2. i9 k11 3. a1 *\n\n"
                                      "[Game \"Renju\"]\n[OpeningRule \"RIF\"]\n[Result \"*\"]\n\n1. h8 h9 2. i9 a1 3. a15 *\n\n"
                                      "[Game \"Renju\"]\n[OpeningRule \"Tarannikov\"]\n[Result \"*\"]\n\n1. h8 h9 2. k8 a1 3. a15 *\n",
                                      "q.gpn");
    REQUIRE(squares.size() == 6);
    CHECK(warned(squares[0]) == "5:16 opening-rule 2... l8: under the Taraguchi-10 opening rule White's second stone is within "
                                "the central 7x7 square e5-k11\n");
    CHECK(warned(squares[1]) == "11:23 opening-rule 3. m8: under the Tarannikov opening rule Black's third stone is within the "
                                "central 9x9 square d4-l12\n");
    CHECK(warned(squares[2]).empty()); // l12: the 9x9 square's corner
    CHECK(warned(squares[3]).empty()); // Taraguchi-10's fifth: not checked
    CHECK(warned(squares[4]).empty()); // RIF: the fourth and fifth anywhere
    CHECK(contains(warned(squares[5]), "2. k8: under the Tarannikov opening rule Black's second stone"));
    CHECK(count_of(warned(squares[5]), "opening-rule") == 1); // a1 and a15 after the slip: not named

    // SGF: the rule from RU.
    const auto sgf = read_sgf("(;GM[4]FF[4]SZ[15]RU[Renju RIF];B[hh];W[ii];B[kk])", "o.sgf");
    REQUIRE(sgf.size() == 1);
    const Diagnostic* d = find_code(sgf[0], "opening-rule");
    REQUIRE(d != nullptr);
    CHECK(d->message == "2. B[kk]: under the RIF opening rule Black's second stone is within the central 5x5 square f6-j10");
    CHECK(sgf[0].diagnostics.size() == 1);

    // RenjuNet: the rule from the rules table; the warning at the move's line and column.
    const std::string rif = "<?xml version=\"1.0\"?>\n<database>\n<rules><rule id=\"1\" name=\"RIF\"/></rules>\n<games>\n"
                            "<game id=\"1\" rule=\"1\"><move>h8 h9 i9 g7</move></game>\n"
                            "<game id=\"2\" rule=\"1\"><move>h8 j8 i9 g7</move></game>\n"
                            "</games></database>\n";
    const auto net = read_renjunet(rif, "o.rif");
    REQUIRE(net.size() == 2);
    CHECK(net[0].diagnostics.empty());
    CHECK(diagnostics(net[1]) ==
          "o.rif:6:32: warning: 1... j8: under the RIF opening rule White's first stone is next to the centre (h8), in the "
          "central 3x3 square g7-i9 [opening-rule]\n");

    // Set-up stones: the game does not start from the empty board, so its first stones are not the
    // opening rule's (a problem or a position from the middle of a game): no warning, in PGN (a
    // Position tag) and SGF (AB/AW) alike. The same record from the empty board is still checked.
    const auto set_up = read_records(
        "[Game \"Renju\"]\n[OpeningRule \"RIF\"]\n[SetUp \"1\"]\n"
        "[Position \"Renju 15 15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w\"]\n[Result \"*\"]\n\n1... a1 2. k8 *\n\n"
        "[Game \"Renju\"]\n[OpeningRule \"RIF\"]\n[SetUp \"1\"]\n"
        "[Position \"Renju 15 15/15/15/15/15/15/7o7/7x7/15/15/15/15/15/15/15 b\"]\n[Result \"*\"]\n\n1. a1 *\n\n"
        "[Game \"Renju\"]\n[OpeningRule \"RIF\"]\n[SetUp \"1\"]\n"
        "[Position \"Renju 15 15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b\"]\n[Result \"*\"]\n\n1. a1 *\n",
        "s.gpn");
    REQUIRE(set_up.size() == 3);
    CHECK(warned(set_up[0]).empty());
    CHECK(warned(set_up[1]).empty());
    CHECK(warned(set_up[2]) == "23:4 opening-rule 1. a1: under the RIF opening rule Black's first stone is on the centre, h8\n");
    for (const GameRecord& g : set_up) CHECK(g.status == GameStatus::valid);
    const auto sgf_set_up = read_sgf("(;GM[4]FF[4]SZ[15]RU[Renju RIF]AB[hh]AW[hg];B[aa];W[bb])"
                                     "(;GM[4]FF[4]SZ[15]RU[Renju RIF]AB[hh]PL[W];W[aa];B[kk])",
                                     "s.sgf");
    REQUIRE(sgf_set_up.size() == 2);
    for (const GameRecord& g : sgf_set_up) {
        CHECK(g.status == GameStatus::valid);
        CHECK(find_code(g, "opening-rule") == nullptr);
    }
}

// Black's foul ends a Renju record when the stone is the main line's last and the result gives
// White the game (docs/rules.md 2.5): PGN (pente.org's Player 1 and 2 among them), SGF and
// RenjuNet alike. j8 makes two open threes (h8-i8-j8 and j8-j9-j10).
TEST_CASE("Renju: a record ending with Black's forbidden stone and White's win is the game Black lost by that foul",
          "[parser][renju]") {
    const std::string moves_to_foul = "1. h8 a1 2. i8 a3 3. j9 a5 4. j10 a7 5. j8";
    const auto pgn = read_records("[Game \"Renju\"]\n[Result \"1-0\"]\n\n" + moves_to_foul + " {White points it out} 1-0\n\n" +
                                      "[Game \"Renju\"]\n[Result \"*\"]\n\n" + moves_to_foul + " *\n\n" +
                                      "[Game \"Renju\"]\n[Result \"1-0\"]\n\n" + moves_to_foul + " a9 1-0\n\n" +
                                      "[Game \"Renju\"]\n[Result \"0-1\"]\n\n" + moves_to_foul + " 0-1\n\n" +
                                      "[Game \"Gomoku\"]\n[Result \"1-0\"]\n\n" + moves_to_foul + " 1-0\n\n" +
                                      "[Game \"Renju\"]\n[Site \"pente.org\"]\n[Player 1 Name \"alice\"]\n[Player 2 Name "
                                      "\"bob\"]\n[Result \"0-1\"]\n\n1. H8 A1 2. J8 A3 3. K9 A5 4. K10 A7 5. K8 0-1\n",
                                  "f.gpn");
    REQUIRE(pgn.size() == 6);
    // White's win: whole, the stone left out, one warning at it, the comments kept on the last move.
    const GameRecord& lost = pgn[0];
    CHECK(lost.status == GameStatus::valid);
    CHECK(diagnostics(lost) == "f.gpn:4:41: warning: 5. j8: Black's j8 is a foul: the stone makes two free threes at once "
                               "(double-three, forbidden); Black loses by it (Renju), and the game ends before it, White's "
                               "win (1-0) [foul]\n");
    CHECK(lost.diagnostics[0].left_out); // `format` keeps the file as written
    CHECK(moves(lost) == "h8 a1 i8 a3 j9 a5 j10 a7");
    REQUIRE(lost.main.plies.back().comments.size() == 2);
    CHECK(lost.main.plies.back().comments[0] ==
          "Black's j8 is a foul: the stone makes two free threes at once (double-three, forbidden); Black loses");
    CHECK(lost.main.plies.back().comments[1] == "White points it out");
    CHECK(lost.result == "1-0");
    // The record as gounki writes it (the stone gone, the comment kept) reads back as the same game.
    const auto again = read_records(write_record(lost), "again.gpn");
    REQUIRE(again.size() == 1);
    CHECK(again[0].status == GameStatus::valid);
    CHECK(again[0].diagnostics.empty());
    CHECK(moves(again[0]) == moves(lost));
    CHECK(again[0].result == "1-0");
    // No result, a move after the stone, or Black's win: the stone stays an error; at the end of the
    // record the error says how to have it read as the foul.
    const Diagnostic* open = find_code(pgn[1], "illegal-move");
    REQUIRE(open != nullptr);
    CHECK(open->message == "5. j8: the stone makes two free threes at once (double-three, forbidden); if Black lost the game "
                           "by this foul, a result of 1-0 (White's win) has it read so");
    CHECK(pgn[1].status == GameStatus::partial);
    const Diagnostic* inside = find_code(pgn[2], "illegal-move");
    REQUIRE(inside != nullptr);
    CHECK(inside->message == "5. j8: the stone makes two free threes at once (double-three, forbidden)");
    CHECK(pgn[2].status == GameStatus::partial);
    CHECK(find_code(pgn[2], "foul") == nullptr);
    CHECK(contains(find_code(pgn[3], "illegal-move")->message, "a result of 1-0"));
    CHECK(pgn[3].status == GameStatus::partial);
    // Gomoku has no forbidden points: j8 is a move like any other.
    CHECK(pgn[4].status == GameStatus::valid);
    CHECK(pgn[4].main.plies.size() == 9);
    // pente.org names results by turn: 0-1 is Player 2's, White's, win; its Go-style K8 is j8.
    const GameRecord& site = pgn[5];
    CHECK(site.status == GameStatus::valid);
    REQUIRE(find_code(site, "foul") != nullptr);
    CHECK(site.result == "1-0");
    CHECK(tag_or(site, "Black") == "alice");
    CHECK(site.main.plies.size() == 8);
    CHECK(site.main.plies.back().comments.at(0) ==
          "Black's j8 (K8) is a foul: the stone makes two free threes at once (double-three, forbidden); Black loses");

    // SGF: RE gives White the game (W+F, W+R); a stone with a variation beside it, or a variation's
    // last stone, is no ending.
    const auto sgf = read_sgf("(;GM[4]SZ[15]RU[renju]RE[W+F];B[hh];W[ao];B[ih];W[am];B[jg];W[ak];B[jf];W[ai];B[jh])"
                              "(;GM[4]SZ[15]RU[renju]RE[B+R];B[hh];W[ao];B[ih];W[am];B[jg];W[ak];B[jf];W[ai];B[jh])"
                              "(;GM[4]SZ[15]RU[renju]RE[W+R];B[hh];W[ao];B[ih];W[am];B[jg];W[ak];B[jf];W[ai](;B[jh])(;B[aa]))"
                              "(;GM[4]SZ[15]RU[renju]RE[W+R];B[hh];W[ao];B[ih];W[am];B[jg];W[ak];B[jf];W[ai](;B[aa])(;B[jh]))",
                              "f.sgf");
    REQUIRE(sgf.size() == 4);
    CHECK(sgf[0].status == GameStatus::valid);
    CHECK(diagnostics(sgf[0]) == "f.sgf:1:79: warning: 5. B[jh]: Black's j8 is a foul: the stone makes two free threes at once "
                                 "(double-three, forbidden); Black loses by it (Renju), and the game ends before it, White's "
                                 "win (1-0) [foul]\n");
    CHECK(sgf[0].main.plies.size() == 8);
    CHECK(sgf[0].result == "1-0");
    CHECK(contains(find_code(sgf[1], "illegal-move")->message, "if Black lost the game by this foul"));
    CHECK(sgf[1].status == GameStatus::partial);
    // The last stone with an alternative (a variation beside it), as a PGN move with a variation
    // after it: no ending, the error.
    CHECK(find_code(sgf[2], "foul") == nullptr);
    CHECK(find_code(sgf[2], "illegal-move")->message == "5. B[jh]: j8 makes two free threes at once: a forbidden double-three");
    CHECK(sgf[2].status == GameStatus::partial);
    CHECK(find_code(sgf[3], "foul") == nullptr); // the foul in a variation: an error there, the main line whole
    CHECK(find_code(sgf[3], "illegal-move") != nullptr);
    CHECK(sgf[3].main.plies.size() == 9);

    // RenjuNet: bresult 0 is White's win.
    const std::string xml = "<?xml version=\"1.0\"?>\n<database>\n<games>\n"
                            "<game id=\"1\" bresult=\"0\"><move>h8 a1 i8 a3 j9 a5 j10 a7 j8</move></game>\n"
                            "<game id=\"2\" bresult=\"1\"><move>h8 a1 i8 a3 j9 a5 j10 a7 j8</move></game>\n"
                            "</games></database>\n";
    const auto net = read_renjunet(xml, "f.rif");
    REQUIRE(net.size() == 2);
    CHECK(net[0].status == GameStatus::valid);
    CHECK(diagnostics(net[0]) == "f.rif:4:57: warning: 5. j8: Black's j8 is a foul: the stone makes two free threes at once "
                                 "(double-three, forbidden); Black loses by it (Renju), and the game ends before it, White's "
                                 "win (1-0) [foul]\n");
    CHECK(net[0].result == "1-0");
    CHECK(net[0].main.plies.size() == 8);
    CHECK(net[1].status == GameStatus::partial);
    CHECK(contains(find_code(net[1], "illegal-move")->message, "a result of 1-0"));
}
