// Rules core: perft reference numbers, do/undo and hash invariants, positions and notation.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include "core/any_position.hpp"
#include "core/game.hpp"
#include "core/gounki/movegen.hpp"
#include "core/gounki/notation.hpp"
#include "core/gounki/perft.hpp"

#include <bit>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

using namespace gounki;

namespace {

[[maybe_unused]] Position pos_of(const std::string& text) {
    auto r = Position::from_text(text);
    if (auto* e = std::get_if<PositionError>(&r)) FAIL("bad test position '" << text << "': " << e->message);
    return std::get<Position>(r);
}

} // namespace

TEST_CASE("perft from the start position matches docs/rules.md 1.9", "[core][perft]") {
    auto [depth, expected] = GENERATE(table<int, std::uint64_t>({{1, 36}, {2, 1296}, {3, 53892}, {4, 2241009}}));
    Position p = Position::start();
    CHECK(perft(p, depth) == expected);
    if (depth <= 3) CHECK(perft(p, depth, PerftMode::checked) == expected);
    CHECK(p == Position::start());
}

TEST_CASE("checked perft 4 plays every move and verifies undo and hash at every node", "[core][perft]") {
    Position p = Position::start();
    CHECK(perft(p, 4, PerftMode::checked) == 2241009);
}

namespace {

// The reference file: each White first move with perft(3) and perft(4) after it.
std::map<std::string, std::uint64_t> reference_divide(int column) {
    std::ifstream in(GOUNKI_SOURCE_DIR "/tests/data/perft-divide-start.txt");
    REQUIRE(in);
    std::map<std::string, std::uint64_t> expected;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream ls(line);
        std::string mv;
        std::uint64_t p3 = 0, p4 = 0;
        ls >> mv >> p3 >> p4;
        if (mv != "total") expected[mv] = column == 3 ? p3 : p4;
    }
    return expected;
}

std::map<std::string, std::uint64_t> divide(int depth) {
    Position p = Position::start();
    std::map<std::string, std::uint64_t> got;
    for (const auto& e : perft_divide(p, depth)) got[move_to_text(p, e.move)] = e.nodes;
    return got;
}

} // namespace

TEST_CASE("perft divide matches the reference split of perft 4 by first move", "[core][perft]") {
    const auto expected = reference_divide(3);
    REQUIRE(expected.size() == 36);
    const auto got = divide(4);
    for (const auto& [mv, n] : expected) {
        INFO(mv);
        REQUIRE(got.count(mv) == 1);
        CHECK(got.at(mv) == n);
    }
    CHECK(got.size() == expected.size());
}

TEST_CASE("perft 5 from the start position", "[core][perft][slow]") {
    Position p = Position::start();
    CHECK(perft(p, 5) == 100248353);
    const auto expected = reference_divide(4);
    const auto got = divide(5);
    for (const auto& [mv, n] : expected) {
        INFO(mv);
        REQUIRE(got.count(mv) == 1);
        CHECK(got.at(mv) == n);
    }
}

namespace {

// The first move of `list` that is a deployment from `from` onto `squares` ending out or not, as
// a reader of a written deployment must find it; none when there is none.
Move first_listed(const MoveList& list, Square from, const Square* squares, int placed, bool out) {
    for (Move m : list) {
        if (m.type() != MoveType::deployment || m.from() != from || m.placed() != placed || m.ends_out() != out) continue;
        bool same = true;
        for (int i = 0; i < placed; ++i) same &= m.placed_square(i) == squares[i];
        if (same) return m;
    }
    return Move::none();
}

// The targeted checks of the stack on `from` in `pos` against its full move list: the movement
// destinations and exits, and every deployment with its near misses. Returns how many deployments
// were checked.
long check_targeted_reading(const Position& pos, Square from, std::mt19937& rng) {
    long deployments_checked = 0;
    MoveList list;
    generate_moves_from(pos, from, list);
    const MovementTargets t = movement_targets(pos, from);
    std::uint64_t dests = 0;
    bool exits = false;
    for (Move m : list) {
        if (m.type() == MoveType::movement) dests |= square_bb(m.to());
        exits |= m.type() == MoveType::exit;
    }
    CHECK(t.destinations == dests);
    std::uint64_t reached = 0;
    for (int to = 0; to < 64; ++to)
        if (movement_reaches(pos, from, Square(to))) reached |= square_bb(Square(to));
    CHECK(reached == dests);
    CHECK(t.exits == exits);
    for (Move m : list) {
        if (m.type() != MoveType::deployment) continue;
        ++deployments_checked;
        Square squares[3];
        for (int i = 0; i < m.placed(); ++i) squares[i] = m.placed_square(i);
        INFO("position " << pos.to_text() << ", move " << move_to_text(pos, m));
        CHECK(find_deployment(pos, from, squares, m.placed(), m.ends_out()) == m);
        // Near misses: the other end (out or not), one square fewer, one square changed.
        CHECK(find_deployment(pos, from, squares, m.placed(), !m.ends_out()) ==
              first_listed(list, from, squares, m.placed(), !m.ends_out()));
        if (m.placed() > 1)
            CHECK(find_deployment(pos, from, squares, m.placed() - 1, m.ends_out()) ==
                  first_listed(list, from, squares, m.placed() - 1, m.ends_out()));
        Square changed[3] = {squares[0], squares[1], squares[2]};
        const int i = int(rng() % unsigned(m.placed()));
        changed[i] = Square(rng() % 64);
        CHECK(find_deployment(pos, from, changed, m.placed(), m.ends_out()) ==
              first_listed(list, from, changed, m.placed(), m.ends_out()));
    }
    return deployments_checked;
}

} // namespace

TEST_CASE("the targeted checks of a written move agree with the full move list over random games", "[core]") {
    // movement_targets and find_deployment let readers check one written move without listing the
    // stack's moves; they must say exactly what the list says, for real moves and near misses.
    std::mt19937 rng(20261121);
    long deployments = 0;
    for (int game = 0; game < 300; ++game)
        test::play_random_game(rng, [&](const Position& pos, Move) {
            for (std::uint64_t b = pos.occupancy(pos.side_to_move()); b; b &= b - 1)
                deployments += check_targeted_reading(pos, Square(std::countr_zero(b)), rng);
        });
    CHECK(deployments > 10000); // the games reached many deployments
}

// The LC4 position file (core/gounki/position_lc4.hpp): 64 cells V0 / B1-B9 / N1-N9, a1 to h8.
#include "core/gounki/position_lc4.hpp"

#include <algorithm>
#include <cctype>

namespace {

// The LC4 text with `line` (1-based) replaced by `cell`, or left out when `cell` is empty.
std::string lc4_with_line(const std::string& text, int line, const std::string& cell) {
    std::istringstream in(text);
    std::string out, l;
    for (int n = 1; std::getline(in, l); ++n) {
        if (n != line) out += l + "\n";
        else if (!cell.empty()) out += cell + "\n";
    }
    return out;
}

PositionFileError lc4_error(const std::string& text) {
    auto r = position_from_lc4(text);
    REQUIRE(std::holds_alternative<PositionFileError>(r));
    return std::get<PositionFileError>(r);
}

} // namespace

TEST_CASE("the start position written as an LC4 file reads back as the start position", "[core][lc4]") {
    const std::string text = position_to_lc4(Position::start());
    CHECK(text.size() == 64 * 3);
    CHECK(std::count(text.begin(), text.end(), '\n') == 64);
    // a1 is a White square, b1 a White round, a8 a Black round, h8 a Black square.
    CHECK(text.substr(0, 6) == "B1\nB2\n");
    CHECK(text.substr(56 * 3, 6) == "N2\nN1\n");
    CHECK(looks_like_lc4(text));
    auto r = position_from_lc4(text);
    REQUIRE(std::holds_alternative<Position>(r));
    CHECK(std::get<Position>(r) == Position::start());
    CHECK(std::get<Position>(r).key() == Position::start().key());
}

TEST_CASE("2,000 positions of random games round-trip through the LC4 file with their side to move", "[core][lc4]") {
    std::mt19937 rng(20140508);
    int checked = 0, stacks_of_three = 0;
    while (checked < 2000) {
        Position pos = Position::start();
        UndoRecord undo;
        while (!pos.game_over() && checked < 2000) {
            const std::string text = position_to_lc4(pos);
            INFO("position " << pos.to_text());
            REQUIRE(text.size() == 64 * 3);
            auto r = position_from_lc4(text, pos.side_to_move());
            REQUIRE(std::holds_alternative<Position>(r));
            CHECK(std::get<Position>(r) == pos);
            CHECK(std::get<Position>(r).key() == pos.key());
            CHECK(position_to_lc4(std::get<Position>(r)) == text);
            for (Square s = 0; s < 64; ++s) stacks_of_three += pos.at(s).size() == 3;
            ++checked;
            MoveList moves;
            generate_moves(pos, moves);
            pos.do_move(moves[int(rng() % unsigned(moves.size()))], undo);
        }
    }
    CHECK(stacks_of_three > 100); // the games built every kind of stack, the three-piece ones too
}

TEST_CASE("a hand-written LC4 file reads as the position of the one-line text", "[core][lc4]") {
    // White: a square on a1, two squares on c2, two rounds and a square on d4 (9 = square + two
    // rounds). Black: a round and a square on e5 (7), three rounds on h8 (6).
    const std::string text = "B1\nV0\nV0\nV0\nV0\nV0\nV0\nV0\n" // rank 1
                             "V0\nV0\nB3\nV0\nV0\nV0\nV0\nV0\n" // rank 2
                             "V0\nV0\nV0\nV0\nV0\nV0\nV0\nV0\n" // rank 3
                             "V0\nV0\nV0\nB9\nV0\nV0\nV0\nV0\n" // rank 4
                             "V0\nV0\nV0\nV0\nN7\nV0\nV0\nV0\n" // rank 5
                             "V0\nV0\nV0\nV0\nV0\nV0\nV0\nV0\n" // rank 6
                             "V0\nV0\nV0\nV0\nV0\nV0\nV0\nV0\n" // rank 7
                             "V0\nV0\nV0\nV0\nV0\nV0\nV0\nN6\n"; // rank 8
    const Position expected = pos_of("7(rrr)/8/8/4(rs)3/3(RRS)4/8/2(SS)5/S7 w");
    auto r = position_from_lc4(text);
    REQUIRE(std::holds_alternative<Position>(r));
    CHECK(std::get<Position>(r) == expected);
    CHECK(position_to_lc4(expected) == text);

    // The side to move comes from the caller.
    auto black = position_from_lc4(text, Color::black);
    REQUIRE(std::holds_alternative<Position>(black));
    CHECK(std::get<Position>(black) == pos_of("7(rrr)/8/8/4(rs)3/3(RRS)4/8/2(SS)5/S7 b"));

    // What real files hold: a BOM, '#' header lines, CRLF, lowercase, blanks, blank lines at the end.
    std::string sloppy = "\xEF\xBB\xBF# Sauvegarde\r\n#1A\r\n";
    std::istringstream in(text);
    std::string cell;
    for (int n = 0; std::getline(in, cell); ++n) {
        if (n % 3 == 0)
            for (char& c : cell) c = char(std::tolower(static_cast<unsigned char>(c)));
        sloppy += (n % 5 == 0 ? " " : "") + cell + (n % 7 == 0 ? " \t" : "") + "\r\n";
    }
    sloppy += "\r\n  \n";
    CHECK(looks_like_lc4(sloppy));
    auto tolerant = position_from_lc4(sloppy);
    REQUIRE(std::holds_alternative<Position>(tolerant));
    CHECK(std::get<Position>(tolerant) == expected);
}

TEST_CASE("a malformed LC4 file is refused with the line and what is wrong", "[core][lc4]") {
    const std::string start = position_to_lc4(Position::start());
    struct Case {
        std::string text;
        int line;
        std::string message;
    };
    const Case cases[] = {
        {lc4_with_line(start, 64, ""), 64, "63 cells; a position file has 64, one per square from a1 to h8"},
        {"# header\n" + lc4_with_line(start, 64, ""), 65, "63 cells; a position file has 64, one per square from a1 to h8"},
        {start + "V0\n", 65, "65 cells; a position file has 64, one per square from a1 to h8"},
        {start + "V0\r\nV0\r\n", 65, "66 cells; a position file has 64, one per square from a1 to h8"},
        {"", 1, "0 cells; a position file has 64, one per square from a1 to h8"},
        {lc4_with_line(start, 17, "X9"), 17, "'X9' is not a cell (V0, or B/N and a digit 1-9)"},
        {lc4_with_line(start, 20, "B12"), 20, "'B12' is not a cell (V0, or B/N and a digit 1-9)"},
        {lc4_with_line(start, 3, "B0"), 3, "'B0' is not a cell: B takes a digit 1-9 (0 is only for V0, an empty square)"},
        {lc4_with_line(start, 60, "n0"), 60, "'n0' is not a cell: N takes a digit 1-9 (0 is only for V0, an empty square)"},
        {lc4_with_line(start, 30, "V4"), 30, "'V4' is not a cell: an empty square is V0"},
        // The start has 8 White rounds already: a ninth on a3.
        {lc4_with_line(start, 17, "B2"), 17, "White has more than 8 rounds (at a3)"},
        {lc4_with_line(start, 64, "N5"), 64, "Black has more than 8 squares (at h8)"},
        {lc4_with_line(start, 33, " "), 33,
         "empty line after the cell of h4; a position file has one cell on each line, "
         "with no gap"},
        {lc4_with_line(start, 10, "# late"), 10,
         "'# late' is not a cell (V0, or B/N and a digit 1-9); a '#' header line "
         "goes before the cells"},
        {"8/8/8/8/8/8/8/S7 w\n", 1, "'8/8/8/8/8/8/8/S7 w' is not a cell (V0, or B/N and a digit 1-9)"},
        {"V0\tV0\n", 1, "'V0\\x09V0' is not a cell (V0, or B/N and a digit 1-9)"},
    };
    for (const Case& c : cases) {
        INFO("expected line " << c.line << ": " << c.message);
        const PositionFileError e = lc4_error(c.text);
        CHECK(e.line == c.line);
        CHECK(e.message == c.message);
    }
    // Nine White rounds on an otherwise empty board: the ninth cell is the one refused.
    std::string nine;
    for (int i = 0; i < 64; ++i) nine += i < 9 ? "B2\n" : i == 63 ? "N1\n" : "V0\n";
    const PositionFileError e = lc4_error(nine);
    CHECK(e.line == 9);
    CHECK(e.message == "White has more than 8 rounds (at a2)");
    std::string empty;
    for (int i = 0; i < 64; ++i) empty += "V0\n";
    CHECK(lc4_error("#\n" + empty).line == 2);
    CHECK(lc4_error(empty).message == "the board is empty");
}

TEST_CASE("looks_like_lc4 tells an LC4 file from a one-line position text", "[core][lc4]") {
    CHECK(looks_like_lc4("# header\n\nB1\n"));
    CHECK(looks_like_lc4("v0\r\n"));
    CHECK_FALSE(looks_like_lc4("rsrsrsrs/srsrsrsr/8/8/8/8/RSRSRSRS/SRSRSRSR w\n"));
    CHECK_FALSE(looks_like_lc4("S7/8/8/8/8/8/8/8 w"));
    CHECK_FALSE(looks_like_lc4(""));
    CHECK_FALSE(looks_like_lc4("# only a header\n"));
    CHECK_FALSE(looks_like_lc4("X9\nB1\n"));
    CHECK(looks_like_lc4("X9\nB1\n", "broken.LC4"));
    CHECK_FALSE(looks_like_lc4("S7/8/8/8/8/8/8/8 w", "position.txt"));
}

TEST_CASE("the game registry: one row per kind, names and aliases in any case, sizes and first movers", "[core][games]") {
    REQUIRE(games().size() == 5);
    for (std::size_t i = 0; i < games().size(); ++i) {
        const GameInfo& g = games()[i];
        CHECK(std::size_t(g.kind) == i); // stored in databases: the table follows the enum
        CHECK(parse_game_kind(g.name) == g.kind);
        CHECK(parse_game_kind(g.id) == g.kind);
        CHECK(game_info(g.kind).name == game_kind_name(g.kind));
        CHECK(g.has_size(g.default_size()));
    }
    CHECK(parse_game_kind("  GOMOKU ") == GameKind::gomoku);
    CHECK(parse_game_kind("Gomoku Ninuki") == GameKind::ninuki);
    CHECK(parse_game_kind("Ninuki-Renju") == GameKind::ninuki);
    CHECK(parse_game_kind("ninuki_renju") == GameKind::ninuki);
    CHECK(parse_game_kind("Freestyle  Gomoku") == GameKind::gomoku);
    CHECK_FALSE(parse_game_kind("chess"));
    CHECK_FALSE(parse_game_kind(""));
    CHECK_FALSE(parse_game_kind("gomokuninuki"));
    CHECK_FALSE(parse_game_kind("gounki", Family::stones));
    CHECK(parse_game_kind("ninuki", Family::stones) == GameKind::ninuki);
    CHECK(game_ids_text() == "gounki, gomoku, ninuki, pente or renju");
    CHECK(game_ids_text(Family::stones) == "gomoku, ninuki, pente or renju");
    CHECK(first_mover(GameKind::gounki) == Color::white);
    CHECK(first_mover(GameKind::gomoku) == Color::black);
    CHECK(first_mover(GameKind::pente) == Color::white);
    CHECK(first_mover(GameKind::renju) == Color::black);
    CHECK(game_info(GameKind::gomoku).default_size() == 15);
    CHECK(game_info(GameKind::ninuki).default_size() == 19);
    CHECK_FALSE(game_info(GameKind::gounki).has_size(15));
    CHECK(sizes_text(GameKind::ninuki) == "15 or 19");
    CHECK(sizes_text(GameKind::gounki) == "8");
}

TEST_CASE("a position of any game: read from a name, a start or a text, moves read and played by its own rules",
          "[core][games]") {
    auto read = [](std::string_view text) {
        auto parsed = AnyPosition::from_text(text);
        REQUIRE(std::holds_alternative<AnyPosition>(parsed));
        return std::get<AnyPosition>(parsed);
    };
    const AnyPosition start = read("start");
    CHECK(start.kind() == GameKind::gounki);
    CHECK(start == AnyPosition(Position::start()));
    CHECK(read("Gounki") == start);
    const AnyPosition gomoku = read("gomoku");
    REQUIRE(gomoku.stones());
    CHECK(gomoku.stones()->size() == 15);
    CHECK(gomoku.side_to_move() == Color::black);
    CHECK(read("NINUKI").stones()->size() == 19);
    CHECK(read(gomoku.to_text()) == gomoku);
    CHECK(read(start.to_text()) == start);

    // Moves: Gounki's notation, or a point; an illegal one says why.
    AnyPosition g = start;
    const auto c2d3 = g.parse_move("c2-d3");
    REQUIRE(std::holds_alternative<Move>(c2d3));
    CHECK(g.move_text(std::get<Move>(c2d3)) == "c2-d3");
    CHECK(g.is_legal(std::get<Move>(c2d3)));
    g.play(std::get<Move>(c2d3));
    CHECK(g.side_to_move() == Color::black);
    CHECK(g.key() != start.key());
    CHECK(std::holds_alternative<std::string>(g.parse_move("c2-d3")));

    AnyPosition s = gomoku;
    const auto h8 = s.parse_move("h8");
    REQUIRE(std::holds_alternative<Move>(h8));
    s.play(std::get<Move>(h8));
    const auto again = s.parse_move("h8");
    REQUIRE(std::holds_alternative<std::string>(again));
    CHECK(std::get<std::string>(again).find("occupied") != std::string::npos);
    const auto off = s.parse_move("p8");
    REQUIRE(std::holds_alternative<std::string>(off));
    CHECK(std::get<std::string>(off) == "'p8' is not a point of the 15x15 board");
    CHECK(s.legal_moves().size() == 15 * 15 - 1);
    CHECK(s.move_text(std::get<Move>(h8)) == "h8");

    // Errors point inside the text, whatever the game.
    auto bad = AnyPosition::from_text("Gomoku 17 17 b");
    REQUIRE(std::holds_alternative<PositionError>(bad));
    CHECK(std::get<PositionError>(bad).column == 7);
    CHECK(std::holds_alternative<PositionError>(AnyPosition::from_text("8/8/8 w")));
}
