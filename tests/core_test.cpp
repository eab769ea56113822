// Rules core: perft reference numbers, do/undo and hash invariants, positions and notation.
#include "tests/catch.hpp"

#include "core/notation.hpp"
#include "core/perft.hpp"

#include <fstream>
#include <map>
#include <sstream>

using namespace gounki;

namespace {

[[maybe_unused]] Position pos_of(const std::string& text) {
    auto r = Position::from_text(text);
    if (auto* e = std::get_if<PositionError>(&r)) FAIL("bad test position '" << text << "': " << e->message);
    return std::get<Position>(r);
}

} // namespace

TEST_CASE("perft from the start position matches RULES.md 1.9", "[core][perft]") {
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
    std::ifstream in(GOUNKI_SOURCE_DIR "/../shared/perft-divide-start.txt");
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
