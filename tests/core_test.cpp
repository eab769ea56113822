// Rules core: perft reference numbers, do/undo and hash invariants, positions and notation.
#include "tests/catch.hpp"

#include "core/movegen.hpp"
#include "core/notation.hpp"
#include "core/perft.hpp"

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
        if (m.type() != MoveType::deployment || m.from() != from || m.placed() != placed || m.ends_out() != out)
            continue;
        bool same = true;
        for (int i = 0; i < placed; ++i) same &= m.placed_square(i) == squares[i];
        if (same) return m;
    }
    return Move::none();
}

} // namespace

TEST_CASE("the targeted checks of a written move agree with the full move list over random games", "[core]") {
    // movement_targets and find_deployment let readers check one written move without listing the
    // stack's moves; they must say exactly what the list says, for real moves and near misses.
    std::mt19937 rng(20261121);
    long deployments = 0;
    for (int game = 0; game < 300; ++game) {
        Position pos = Position::start();
        UndoRecord undo;
        while (!pos.game_over()) {
            for (std::uint64_t b = pos.occupancy(pos.side_to_move()); b; b &= b - 1) {
                const Square from = Square(std::countr_zero(b));
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
                    ++deployments;
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
            }
            MoveList moves;
            generate_moves(pos, moves);
            pos.do_move(moves[int(rng() % unsigned(moves.size()))], undo);
        }
    }
    CHECK(deployments > 10000); // the games reached many deployments
}
