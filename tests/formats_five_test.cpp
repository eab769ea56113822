// Five-in-a-row records as collections publish them (docs/rules.md 2.3): tag names with spaces,
// dates written MM/DD/YYYY, Go-style coordinates, pente.org's Resign, PlayOK's GameType, results
// and swap2 tokens, kurnik's Renju. The fixtures are written by hand in tests/data/records (*.pgn).
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include "core/stones/points.hpp"
#include "parser/dates.hpp"
#include "parser/reader.hpp"
#include "parser/writer.hpp"

using namespace gounki;
using namespace gounki::parser;
using namespace gounki::test;

namespace {

std::string tag_or(const GameRecord& g, const char* name, const char* otherwise = "(none)") {
    const std::string* v = g.tag(name);
    return v ? *v : otherwise;
}

std::string codes(const GameRecord& g) {
    std::string out;
    for (const Diagnostic& d : g.diagnostics) out += (out.empty() ? "" : " ") + d.code;
    return out;
}

std::vector<GameRecord> read_file(const char* name) {
    const std::string path = source_path(std::string("tests/data/records/") + name).string();
    return read_records(slurp(path), name);
}

GameRecord one(const std::string& text) { return only_game(read_records(text)); }

} // namespace

TEST_CASE("tag names may hold spaces between their words, as pente.org writes them", "[parser][five]") {
    const GameRecord g =
        one("[Game \"Gomoku\"]\n[Player 1 Name \"alice\"]\n[Player  2 \"x\"]\n[Player 2 Rating \"1855\"]\n\n1. h8 *\n");
    CHECK(tag_or(g, "Player 1 Name") == "alice");
    CHECK(tag_or(g, "Player 2 Rating") == "1855");
    // Two spaces end the name: `Player` is followed by a word that is not the value.
    CHECK(codes(g).find("bad-tag") != std::string::npos);
    CHECK(g.main.plies.size() == 1);
}

TEST_CASE("dates written other ways are read in the project's form when nothing is ambiguous", "[parser][five]") {
    auto date = [](const std::string& value, const std::string& site = "") {
        const std::string text =
            "[Game \"Gomoku\"]\n" + (site.empty() ? "" : "[Site \"" + site + "\"]\n") + "[Date \"" + value + "\"]\n\n1. h8 *\n";
        return tag_or(one(text), "Date");
    };
    CHECK(date("13/02/2010") == "2010.02.13"); // 13 is no month
    CHECK(date("02/13/2010") == "2010.02.13"); // 13 is no month either way round
    CHECK(date("5/5/2010") == "2010.05.05");
    CHECK(date("03/04/2010") == "03/04/2010"); // March or April: kept as written
    CHECK(date("03/04/2010", "Pente.org") == "2010.03.04"); // pente.org writes the month first
    CHECK(date("13/13/2010") == "13/13/2010");
    CHECK(date("2010.03.04") == "2010.03.04");
    CHECK(date("03/04/10") == "03/04/10"); // a year of two digits is left alone
    // The year first, with any of the three separators, one or two digits; eight digits; a month
    // or a year alone; a time or more days after the date.
    CHECK(date("2010-03-04") == "2010.03.04");
    CHECK(date("2010/3/4") == "2010.03.04");
    CHECK(date("2010.3.4") == "2010.03.04");
    CHECK(date("20100304") == "2010.03.04");
    CHECK(date("2010-03") == "2010.03.??");
    CHECK(date("2010") == "2010.??.??");
    CHECK(date("2010.??.??") == "2010.??.??");
    CHECK(date("????.??.??") == "????.??.??");
    CHECK(date("2010-03-04T18:30:00Z") == "2010.03.04");
    CHECK(date("2010-03-04 18:30") == "2010.03.04");
    CHECK(date("  2010-03-04 ") == "2010.03.04");
    CHECK(date("21.03.2010") == "2010.03.21"); // the year last, with dots: 21 is no month
    CHECK(date("03-21-2010") == "2010.03.21");
    // What does not read as one date is kept as written (trimmed).
    CHECK(date("20101304") == "20101304"); // no 13th month
    CHECK(date("2010-13-01") == "2010-13-01");
    CHECK(date("2010-03/04") == "2010-03/04"); // two separators
    CHECK(date("2010-03-32") == "2010-03-32");
    // A day its month has not is no date either (it was read as 2010.04.31): the 31st of a 30-day
    // month, the 30th of February, its 29th outside leap years (2000 is one, 1900 is not).
    CHECK(date("31/04/2010") == "31/04/2010");
    CHECK(date("2024-02-30") == "2024-02-30");
    CHECK(date("20230229") == "20230229");
    CHECK(date("1900-02-29") == "1900-02-29");
    CHECK(date("2000-02-29") == "2000.02.29");
    CHECK(date("29.02.2024") == "2024.02.29");
    CHECK(date("2010-04-30") == "2010.04.30");
    CHECK(date("2010-12-31") == "2010.12.31");
    CHECK(date("2010 spring") == "2010 spring");
    CHECK(date("201003") == "201003");
    CHECK(date("13.13.2010") == "13.13.2010");
    CHECK(date("") == "");
    // And back as SGF's DT.
    CHECK(sgf_date("2010.03.04") == "2010-03-04");
    CHECK(sgf_date("2010.03.??") == "2010-03");
    CHECK(sgf_date("2010.??.??") == "2010");
    CHECK(sgf_date("????.??.??") == "????.??.??");
    CHECK(sgf_date("2010.??.04") == "2010.??.04");
    CHECK(sgf_date("03/04/2010") == "03/04/2010");
}

// pente.org names a live game played on a faster clock "Speed Pente", "Speed Gomoku": the same
// game (the moves were not replayed: unknown-game). Its variants gounki does not play stay
// unknown-game, the game kept without its moves.
TEST_CASE("pente.org's speed games are the games they are played as", "[parser][five]") {
    const auto record = [](const char* game, const char* moves) {
        return one(std::string("[Game \"") + game + "\"]\n[Site \"Pente.org\"]\n[Event \"Live Game\"]\n[Date \"04/08/2016\"]\n" +
                   "[Player 1 Name \"alice\"]\n[Player 2 Name \"bob\"]\n\n" + moves + "\n");
    };
    const GameRecord pente = record("Speed Pente", "1. K10 L10 2. K7 L6 3. L8 J6 *");
    CHECK(codes(pente) == "");
    CHECK(pente.kind == GameKind::pente);
    CHECK(pente.main.plies.size() == 6);
    CHECK(tag_or(pente, "White") == "alice");
    const GameRecord gomoku = record("Speed Gomoku", "1. K10 L10 2. K9 L9 3. K8 L8 4. K7 L7 5. K6 1-0");
    CHECK(gomoku.kind == GameKind::gomoku);
    CHECK(gomoku.status == GameStatus::valid);
    CHECK(gomoku.main.plies.size() == 9);
    CHECK(gomoku.result == "0-1"); // Player 1's win (pente.org's `1-0`): Black's
    const GameRecord renju = record("Speed Renju", "1. H8 J9 2. H7 J7 3. H9 K9 4. H6 H5 5. H10 1-0");
    CHECK(codes(renju) == "");
    CHECK(renju.kind == GameKind::renju);
    CHECK(renju.result == "0-1");
    CHECK(tag_or(renju, "Black") == "alice");
    const GameRecord keryo = record("Speed Keryo-Pente", "1. K10 L10 *");
    CHECK(codes(keryo) == "unknown-game");
    CHECK(keryo.status == GameStatus::partial);
}

// pente.org's results name the turn, not the colour (its writer: `1-0` when Player 1, who moves
// first, won). In Pente Player 1 is White, so they mean what they say; in the games Black opens
// they are put in colours. A record with White and Black tags (gounki's own export of such a game)
// is read in colours.
TEST_CASE("pente.org: results by turn are put in colours where Black moves first", "[parser][five]") {
    const std::string header = "[Game \"Gomoku\"]\n[Site \"Pente.org\"]\n[Player 1 Name \"alice\"]\n[Player 2 Name \"bob\"]\n";
    const std::string five = "1. K10 A1 2. L10 A2 3. M10 A3 4. N10 A4 5. O10 ";
    const GameRecord won = one(header + "[Result \"1-0\"]\n\n" + five + "1-0\n");
    CHECK(codes(won) == "");
    CHECK(won.status == GameStatus::valid);
    CHECK(won.result == "0-1");
    CHECK(tag_or(won, "Black") == "alice");
    CHECK(tag_or(won, "ResultByTurn") == "1-0");
    // Player 2 named the winner of a game Player 1 won: the board contradicts it.
    const GameRecord wrong = one(header + "[Result \"0-1\"]\n\n" + five + "0-1\n");
    CHECK(codes(wrong) == "result-contradicts");
    // A draw and an open game read as written; no tag kept.
    const GameRecord open = one(header + "[Result \"?\"]\n\n1. K10 A1 *\n");
    CHECK(tag_or(open, "ResultByTurn") == "(none)");
    // Written back by gounki (White and Black tags, the result in colours): read as written.
    const std::string exported = write_record(won);
    CHECK(contains(exported, "[Result \"0-1\"]"));
    const GameRecord back = one(exported);
    CHECK(codes(back) == "");
    CHECK(back.result == "0-1");
    // Pente: Player 1 is White, the result unchanged.
    const GameRecord pente =
        one("[Game \"Pente\"]\n[Player 1 Name \"carol\"]\n[Player 2 Name \"dan\"]\n[Result \"1-0\"]\n\n1. K10 L10 *\n");
    CHECK(tag_or(pente, "Result") == "1-0");
    CHECK(tag_or(pente, "ResultByTurn") == "(none)");
}

TEST_CASE("Go-style coordinates: pente.org's records, a column T, upper case without I", "[parser][five]") {
    const auto games = read_file("go_coordinates.pgn");
    REQUIRE(games.size() == 1);
    const GameRecord& g = games[0];
    CHECK(codes(g).empty());
    CHECK(g.status == GameStatus::valid);
    CHECK(tag_or(g, "Date") == "2006.06.08");
    CHECK(tag_or(g, "Player 1 Name") == "alice");
    REQUIRE(g.main.plies.size() == 9); // the line breaks between `5.` and its move
    // K10 is the centre of 19x19: column K is the tenth letter when I is skipped.
    CHECK(g.main.plies[0].move.point() == stones::make_point(9, 9));
    CHECK(g.main.plies[8].move.point() == stones::make_point(13, 9)); // O10
    CHECK(g.result == "0-1"); // Black's five: pente.org's `1-0`, Player 1's win, put in colours
    CHECK(tag_or(g, "Result") == "0-1");
    CHECK(tag_or(g, "ResultByTurn") == "1-0");

    // Upper case with a column T on 19x19 says Go style; so do upper case letters past I and no I.
    const GameRecord t = one("[Game \"Gomoku\"]\n[Size \"19\"]\n\n1. T19 A1 *\n");
    CHECK(codes(t) == "");
    CHECK(t.main.plies[0].move.point() == stones::make_point(18, 18));
    const GameRecord upper = one("[Game \"Gomoku\"]\n[Size \"19\"]\n\n1. K10 J10 *\n");
    CHECK(upper.main.plies[0].move.point() == stones::make_point(9, 9));
    const GameRecord lower = one("[Game \"Gomoku\"]\n[Size \"19\"]\n\n1. k10 j10 *\n"); // renju algebraic
    CHECK(lower.main.plies[0].move.point() == stones::make_point(10, 9));
    // Column I does not exist in Go style.
    const GameRecord i = one("[Game \"Gomoku\"]\n[Size \"19\"]\n[Site \"pente.org\"]\n\n1. K10 I9 *\n");
    CHECK(codes(i) == "illegal-move");
    CHECK(i.diagnostics[0].message.find("no column I") != std::string::npos);
    CHECK(i.main.plies.size() == 1);
}

TEST_CASE("Resign and Forfeit end a stone game's moves as a comment", "[parser][five]") {
    const GameRecord g = one("[Game \"Ninuki\"]\n[Result \"1-0\"]\n\n1. j10 k10 2. a1 Resign 1-0\n");
    CHECK(codes(g).empty());
    REQUIRE(g.main.plies.size() == 3);
    CHECK(g.main.plies[2].comments == std::vector<std::string>{"Resign"});
    const GameRecord f = one("[Game \"Gomoku\"]\n\n1. h8 forfeit 0-1\n");
    CHECK(codes(f).empty());
}

TEST_CASE("kurnik: Renju records without Game or GameType, the colour choice and the two fifth moves offered", "[parser][five]") {
    const auto games = read_file("kurnik_renju.pgn");
    REQUIRE(games.size() == 4);
    const auto points = [](const Line& line) {
        std::string out;
        for (const Ply& p : line.plies) out += (out.empty() ? "" : " ") + stones::point_name(p.move.point());
        return out;
    };
    for (const GameRecord& g : games) {
        CHECK(g.kind == GameKind::renju);
        CHECK(tag_or(g, "Game") == "Renju");
        CHECK(tag_or(g, "OpeningRule") == "RIF");
    }
    // 1: the second player chose White; Black offered g9 and h9, White chose h9, the other offer is
    // a variation of the fifth move. Anna's column won: Black's win, `0-1` in gounki's terms.
    const GameRecord& kept = games[0];
    INFO(codes(kept));
    CHECK(kept.status == GameStatus::valid);
    CHECK(points(kept.main) == "h8 i9 j8 i8 h9 h7 h10 a1 h11 a3 h12");
    REQUIRE(kept.main.plies.size() == 11);
    REQUIRE(kept.main.plies[4].variations.size() == 1);
    CHECK(points(kept.main.plies[4].variations[0]) == "g9");
    CHECK(kept.main.plies[4].variations[0].plies[0].comments == std::vector<std::string>{"offered fifth move, not chosen"});
    CHECK(tag_or(kept, "Black") == "anna");
    CHECK(tag_or(kept, "Result") == "0-1");
    CHECK(tag_or(kept, "PlayOKResult") == "1-0");
    CHECK(codes(kept).empty());
    // 2: the second player chose Black: the names and kurnik's ratings are put right; the column
    // that won holds Black, so `0-1` stands.
    const GameRecord& swapped = games[1];
    INFO(codes(swapped));
    CHECK(swapped.status == GameStatus::valid);
    CHECK(points(swapped.main) == "h8 i9 j8 i8 h9 h7 h10 a1 h11 a3 h12");
    CHECK(tag_or(swapped, "Black") == "bert");
    CHECK(tag_or(swapped, "White") == "anna");
    CHECK(tag_or(swapped, "BlackRank") == "1480");
    CHECK(tag_or(swapped, "WhiteRank") == "1610");
    CHECK(tag_or(swapped, "Result") == "0-1");
    CHECK(codes(swapped).empty());
    // 3: White's choice is no offer: an error at that move, the game kept to the fourth stone.
    CHECK(games[2].status == GameStatus::partial);
    CHECK(codes(games[2]) == "fifth-move-choice");
    CHECK(games[2].diagnostics[0].message.find("g9 and h9") != std::string::npos);
    CHECK(points(games[2].main) == "h8 i9 j8 i8");
    // 4: the record ends with the offers: said, and kept in a comment.
    CHECK(codes(games[3]) == "fifth-move-choice");
    CHECK(games[3].diagnostics[0].severity == Severity::warning);
    CHECK(points(games[3].main) == "h8 i9 j8 i8");
    CHECK(games[3].main.plies.back().comments == std::vector<std::string>{"offered fifth moves g9 and h9"});

    // Two offers that are one move: the first four stones (all on the h file) lie the same mirrored
    // left to right, so g6 and i6 leave White no choice; the same point twice neither. A warning
    // at the second offer; the game is read as before.
    const GameRecord mirrored = one("[Site \"www.kurnik.pl\"]\n\n1. h8 -- 2. h9 -- 3. h10 white 4. -- h7 5. g6 -- 6. i6 g6 *\n");
    CHECK(codes(mirrored) == "opening-rule");
    CHECK(mirrored.diagnostics[0].severity == Severity::warning);
    CHECK(mirrored.diagnostics[0].line == 3);
    CHECK(mirrored.diagnostics[0].column == 53);
    CHECK(contains(mirrored.diagnostics[0].message, "Black offered g6 and i6 as fifth moves, and they are one move: the "
                                                    "first four stones lie the same mirrored left to right"));
    CHECK(mirrored.status == GameStatus::valid);
    CHECK(points(mirrored.main) == "h8 h9 h10 h7 g6");
    const GameRecord twice = one("[Site \"www.kurnik.pl\"]\n\n1. h8 -- 2. i9 -- 3. j8 white 4. -- i8 5. g9 -- 6. g9 g9 *\n");
    CHECK(codes(twice) == "opening-rule");
    CHECK(contains(twice.diagnostics[0].message, "Black offered g9 twice as a fifth move"));
    // Offers that no symmetry of those four stones exchanges (g6 and j6) are two moves.
    CHECK(codes(one("[Site \"www.kurnik.pl\"]\n\n1. h8 -- 2. h9 -- 3. h10 white 4. -- h7 5. g6 -- 6. j6 g6 *\n")).empty());

    // kurnik's Renju only by its first pair, a point and a pass; another site's record stays as it was.
    const GameRecord elsewhere = one("[Site \"example.org\"]\n\n1. h8 -- 2. i9 -- *\n");
    CHECK(elsewhere.kind == GameKind::gounki);
    CHECK(one("[Site \"kurnik\"]\n\n1. h8 i9 2. -- *\n").kind == GameKind::gounki);
    // Written back and read again, it is a plain Renju game with the offer as a variation.
    const GameRecord again = one(write_record(kept));
    CHECK(again.status == GameStatus::valid);
    CHECK(points(again.main) == points(kept.main));
    CHECK(again.main.plies[4].variations.size() == 1);
    CHECK(tag_or(again, "Result") == "0-1");
}

TEST_CASE("PlayOK's other games are refused by their GameType; a Variant tag naming a game is its Game tag", "[parser][five]") {
    // kurnik's draughts: the same tags as its gomoku, another GameType.
    const GameRecord draughts =
        one("[Site \"kurnik\"]\n[Result \"1-0\"]\n[GameType \"20,W,10,10,N1,0\"]\n\n1. 34-30 20-25 1-0\n");
    CHECK(codes(draughts) == "unknown-game");
    CHECK(contains(draughts.diagnostics.at(0).message, "GameType \"20,W,10,10,N1,0\" is a PlayOK game gounki does not play"));
    CHECK(draughts.diagnostics[0].line == 3);
    CHECK(draughts.main.plies.empty());
    CHECK(draughts.status == GameStatus::partial);
    // A Game tag wins over GameType, as before.
    CHECK(one("[Game \"Gomoku\"]\n[GameType \"20,W\"]\n\n1. h8 *\n").status == GameStatus::valid);
    // PlayOK's reversi and mill records carry no GameType: PlayOK has no Gounki, so a PlayOK record
    // with neither Game nor GameType is another game (read as Gounki, it failed at the first move).
    const GameRecord reversi =
        one("[Site \"PlayOK\"]\n[Black \"a\"]\n[White \"b\"]\n[Result \"38-26\"]\n\n1. f5 d6 2. c3 f3 38-26\n");
    REQUIRE(find_code(reversi, "unknown-game") != nullptr);
    CHECK(find_code(reversi, "unknown-game")->message ==
          "a PlayOK record without a GameType tag is none of PlayOK's gomoku games (GameType 60,N or 61,N), and PlayOK has "
          "no Gounki (Result \"38-26\" looks like a reversi disc count); the moves are not replayed");
    CHECK(find_code(reversi, "unknown-game")->line == 1);
    CHECK(find_code(reversi, "bad-move") == nullptr);
    CHECK(reversi.main.plies.empty());
    CHECK(reversi.status == GameStatus::partial);
    const GameRecord mill = one("[Site \"PlayOK\"]\n[Event \"Mill Game\"]\n\n1. 1 4 2. 2 5 *\n");
    CHECK(codes(mill) == "unknown-game");
    CHECK_FALSE(contains(mill.diagnostics.at(0).message, "reversi"));
    // The same record with a Game tag is that game: gounki's own export of a PlayOK game keeps Site.
    CHECK(one("[Game \"Gomoku\"]\n[Site \"PlayOK\"]\n\n1. h8 *\n").status == GameStatus::valid);
    // A multi-game app's [Variant "gomoku"]: Gomoku, the tag added so that the record says it.
    const GameRecord variant = one("[Variant \"gomoku\"]\n\nh8 a1 f8 b1 g8 c1 i8 d1 j8 0-1\n");
    CHECK(variant.kind == GameKind::gomoku);
    CHECK(variant.status == GameStatus::valid);
    CHECK(tag_or(variant, "Game") == "Gomoku");
    CHECK(variant.main.plies.size() == 9);
    // A Variant that names no game of gounki's (a chess site's) changes nothing: Gounki, as without it.
    CHECK(one("[Variant \"Standard\"]\n\n1. a1-a2 *\n").kind == GameKind::gounki);
}

TEST_CASE("PlayOK: GameType names standard gomoku, results name the players in column order, swap2 tokens", "[parser][five]") {
    const auto games = read_file("playok_swap2.pgn");
    REQUIRE(games.size() == 4);
    for (const GameRecord& g : games) {
        INFO("game " << g.number << ": " << codes(g));
        CHECK(g.status == GameStatus::valid);
        CHECK(g.kind == GameKind::gomoku);
        CHECK(tag_or(g, "Rules") == "standard");
        CHECK(g.start.as_stones().size() == 15);
        CHECK(g.result == "0-1"); // Black's five on row 8 each time
        CHECK(tag_or(g, "Result") == "0-1");
    }
    // 1: the second player chose White and the first passed: Ann holds Black as her tag says.
    CHECK(games[0].main.plies.size() == 9);
    CHECK(tag_or(games[0], "Black") == "ann");
    CHECK(tag_or(games[0], "Swap2Black") == "(none)");
    CHECK(tag_or(games[0], "PlayOKResult") == "1-0"); // Ann's column won
    // 2: the second player chose Black: the players' tags are put right, the originals kept.
    const GameRecord& swapped = games[1];
    CHECK(swapped.main.plies.size() == 9);
    CHECK(tag_or(swapped, "Black") == "bob");
    CHECK(tag_or(swapped, "White") == "ann");
    CHECK(tag_or(swapped, "BlackElo") == "1500");
    CHECK(tag_or(swapped, "Swap2Black") == "ann");
    CHECK(tag_or(swapped, "Swap2White") == "bob");
    CHECK(tag_or(swapped, "PlayOKResult") == "(none)"); // column 2 won, and it holds Black
    // 3: no swap2 (GameType 60): `1-0` is Black's win.
    CHECK(tag_or(games[2], "PlayOKResult") == "1-0");
    // 4: kurnik's older gomoku (GameType 60) with a colour choice after three stones, one move pair
    // a line: read as swap2's choices are.
    CHECK(games[3].main.plies.size() == 9);
    CHECK(tag_or(games[3], "Black") == "eve");
    CHECK(tag_or(games[3], "PlayOKResult") == "1-0");

    // A move that fails first in a record without a Game tag, written as a point: read as Gounki,
    // and said so.
    const GameRecord untagged = one("[Site \"kurnik\"]\n\n1. h8 i9 2. j10 *\n");
    REQUIRE(untagged.diagnostics.size() == 1);
    CHECK(untagged.diagnostics[0].message.find("has no Game tag") != std::string::npos);
    CHECK(untagged.diagnostics[0].message.find("[Game \"Gomoku\"]") != std::string::npos);
    CHECK(untagged.diagnostics[0].message.find("Renju") != std::string::npos);
    // Not when the record names its game, nor for a Gounki move that fails later.
    CHECK(one("[Game \"Gounki\"]\n\n1. h8 *\n").diagnostics.at(0).message.find("has no Game tag") == std::string::npos);
    CHECK(one("1. a2-a3 h7 *\n").diagnostics.at(0).message.find("has no Game tag") == std::string::npos);

    // Outside a swap2 opening, the words are no moves.
    const GameRecord plain = one("[Game \"Gomoku\"]\n\n1. h8 white 2. a1 *\n");
    CHECK(codes(plain) == "bad-move");
    // A result that disagrees with the board is still reported, in the players' terms.
    const GameRecord wrong = one("[GameType \"60,15\"]\n\n1. h8 a1 2. i8 a2 3. j8 a3 4. k8 a4 5. l8 0-1\n");
    CHECK(codes(wrong) == "result-contradicts");
}
