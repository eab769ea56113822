// Rules core, by hand (see core_rules_test.cpp): move text, position text, perft on positions
// counted by hand, the `gounki perft` command's arguments, and the benchmark programs' arguments.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "bench/args.hpp"
#include "core/gounki/movegen.hpp"
#include "core/gounki/notation.hpp"
#include "core/gounki/perft.hpp"

using namespace gounki;
using namespace gounki::test;

namespace {

// `written` resolves in `pos`, without warnings, to the move written canonically `canonical`.
Move expect_resolves(const Position& pos, const std::string& written, const std::string& canonical) {
    INFO("'" << written << "' in " << pos.to_text());
    const Resolution r = resolve_move_text(pos, written);
    REQUIRE(r.move != Move::none());
    CHECK(r.warnings.empty());
    CHECK(move_to_text(pos, r.move) == canonical);
    return r.move;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Move text.

TEST_CASE("move text may hold spaces and any case of out", "[core]") {
    SECTION("b2- b4") {
        const Position pos = position_of("r7/8/8/8/8/8/1(SS)6/8 w");
        const Move m = expect_resolves(pos, "b2- b4", "b2-b4");
        CHECK(resolve_move_text(pos, "  b2 -b4 ").move == m);
    }
    SECTION("a6 * a7, b8, OUT") {
        const Position pos = position_of("8/8/(RRS)7/8/8/8/8/7r w");
        const Move m = expect_resolves(pos, "a6 * a7, b8, OUT", "a6*a7,b8,out");
        CHECK(m.ends_out());
        CHECK(resolve_move_text(pos, "a6*a7,b8,Out").move == m);
    }
    SECTION("a1-Out in any case") {
        const Position pos = position_of("8/8/8/8/8/8/8/s6R b");
        const Move exit = resolve_move_text(pos, "a1-Out").move;
        REQUIRE(exit != Move::none());
        CHECK(exit.type() == MoveType::exit);
        for (const char* t : {"a1-out", "a1-OUT", "a1 - oUt", "A1-Out"}) {
            INFO(t);
            CHECK(resolve_move_text(pos, t).move == exit);
        }
    }
}

TEST_CASE("markers that disagree with the position give warnings, and the move is still found", "[core]") {
    auto [text, written, canonical, warning] = GENERATE(table<std::string, std::string, std::string, MarkerWarning>({
        // SS b2: b4 is empty.
        {"r7/8/8/8/8/8/1(SS)6/8 w", "b2-b4+", "b2-b4", MarkerWarning::plus_without_join},
        {"r7/8/8/8/8/8/1(SS)6/8 w", "b2xb4", "b2-b4", MarkerWarning::x_without_capture},
        // R d4 takes the black round on e5.
        {"8/8/8/4r3/3R4/8/8/8 w", "d4-e5", "d4xe5", MarkerWarning::dash_on_capture},
        // From the start, a1 joins a2.
        {"rsrsrsrs/srsrsrsr/8/8/8/8/RSRSRSRS/SRSRSRSR w", "a1-a2", "a1-a2+", MarkerWarning::join_without_plus},
        // The last square of a3*b4,a4,b4+ joins the round placed first.
        {"8/8/8/8/8/(RSS)7/8/7r w", "a3*b4,a4,b4", "a3*b4,a4,b4+", MarkerWarning::join_without_plus},
        {"8/8/8/8/8/(RSS)7/8/7r w", "a3*b4+,a4,b4+", "a3*b4,a4,b4+", MarkerWarning::plus_without_join},
        // The pass joins nothing: its own square is empty once the stack has left.
        {"r7/8/8/8/8/8/6(SS)1/8 w", "g2-g2+", "g2-g2", MarkerWarning::plus_without_join},
        // The exit of the whole stack written as a deployment.
        {"4(RS)3/8/8/8/8/8/8/7r w", "e8*out", "e8-Out", MarkerWarning::deploy_exit_as_deploy},
    }));
    INFO(written);
    const Position pos = position_of(text);
    const Resolution r = resolve_move_text(pos, written);
    REQUIRE(r.move != Move::none());
    CHECK(move_to_text(pos, r.move) == canonical);
    CHECK(r.warnings == std::vector<MarkerWarning>{warning});
    CHECK_FALSE(marker_warning_text(warning).empty());
}

TEST_CASE("an illegal move fails and lists the legal moves of its stack", "[core]") {
    // SS b2 (range 2): b5 is out of reach; its moves are the pass-through-a2 list.
    const Position pos = position_of("r7/8/8/8/8/8/1(SS)6/8 w");
    for (const char* t : {"b2-b5", "b2-c3", "b2*b3", "b2*b3,b4,b5", "b2*b3,b4,out", "b2-Out"}) {
        INFO(t);
        const Resolution r = resolve_move_text(pos, t);
        CHECK(r.move == Move::none());
        CHECK(r.failure == ResolveFailure::illegal);
        CHECK_FALSE(r.message.empty());
        expect_same_moves(texts_of(pos, r.stack_moves),
                          {"b2-a2", "b2-b2", "b2-b3", "b2-b4", "b2-c2", "b2-d2", "b2*a2,b2", "b2*b3,b4", "b2*c2,d2"});
    }
}

TEST_CASE("move text naming an empty square or an enemy stack fails with the right reason", "[core]") {
    const Position pos = position_of("8/8/8/4r3/3R4/8/8/8 w");
    const Resolution empty = resolve_move_text(pos, "c3-c4");
    CHECK(empty.move == Move::none());
    CHECK(empty.failure == ResolveFailure::no_stack);
    CHECK(empty.message.find("c3") != std::string::npos);
    const Resolution enemy = resolve_move_text(pos, "e5-d4");
    CHECK(enemy.move == Move::none());
    CHECK(enemy.failure == ResolveFailure::enemy_stack);
    CHECK(enemy.message.find("e5") != std::string::npos);
}

TEST_CASE("unreadable move text fails without a move", "[core]") {
    const Position pos = position_of("r7/8/8/8/8/8/1(SS)6/8 w");
    for (const char* t : {"", "b2", "b2-", "b2-b9", "i2-b3", "b2+b3", "b2-b3-b4", "b2*a2,b2,c2,d2", "b2-b3 x", "zz"}) {
        INFO("'" << t << "'");
        const Resolution r = resolve_move_text(pos, t);
        CHECK(r.move == Move::none());
        CHECK_FALSE(r.message.empty());
    }
}

// ---------------------------------------------------------------------------------------------
// 1.7: position text.

TEST_CASE("position text round-trips in canonical form", "[core]") {
    auto text = GENERATE(as<std::string>{}, "rsrsrsrs/srsrsrsr/8/8/8/8/RSRSRSRS/SRSRSRSR w",
                         "(rrr)(rss)(sss)5/8/8/8/8/8/8/(RR)(SS)(RS)5 b", "8/8/8/8/3(RRS)4/8/8/7r w",
                         "1s6/1r6/8/(RRS)(RRS)6/6(rrs)1/8/8/8 w", "7r/R7/8/8/8/8/8/8 b");
    INFO(text);
    const Position pos = position_of(text);
    CHECK(pos.to_text() == text);
    CHECK(pos.key() == pos.compute_key());
    if (text.rfind("rsrsrsrs/", 0) == 0) CHECK(pos == Position::start());
}

TEST_CASE("any letter order in parentheses is accepted and printed rounds first", "[core]") {
    auto [text, canonical] = GENERATE(table<std::string, std::string>({
        {"8/8/8/8/3(SRR)4/8/8/7r w", "8/8/8/8/3(RRS)4/8/8/7r w"},
        {"8/8/8/8/3(RSR)4/8/8/7r w", "8/8/8/8/3(RRS)4/8/8/7r w"},
        {"8/8/8/8/3(SR)4/8/8/7r w", "8/8/8/8/3(RS)4/8/8/7r w"},
        {"8/8/8/8/3(SSR)4/8/8/7r w", "8/8/8/8/3(RSS)4/8/8/7r w"},
        {"(ssr)(sr)6/8/8/8/8/8/8/7R b", "(rss)(rs)6/8/8/8/8/8/8/7R b"},
    }));
    const Position pos = position_of(text);
    CHECK(pos.to_text() == canonical);
    CHECK(pos == position_of(canonical));
    CHECK(pos.key() == position_of(canonical).key());
}

TEST_CASE("bad position text is rejected with the column of the fault", "[core]") {
    auto [text, column, words] = GENERATE(table<std::string, int, std::string>({
        // Nine files: the ninth piece of rank 8; a digit that overflows the rank.
        {"RSRSRSRSR/8/8/8/8/8/8/7r w", 8, "rank 8"},
        {"4R4/8/8/8/8/8/8/7r w", 2, "rank 8"},
        {"8/8/8/8/8/8/8/8R w", 15, "rank 1"},
        // Too few files: where the rank ends.
        {"7/8/8/8/8/8/8/7r w", 1, "rank 8"},
        {"8/8/8/8/8/8/8/6r w", 16, "rank 1"},
        // Mixed colours: the first letter of the other colour.
        {"(Rr)7/8/8/8/8/8/8/8 w", 2, "mixes"},
        // Four pieces: the fourth letter.
        {"(RRSS)7/8/8/8/8/8/8/7r w", 4, "more than 3"},
        // Too many of one kind: the stack that brings the ninth, and its square.
        {"RRRRRRRR/R7/8/8/8/8/8/7r w", 9, "more than 8 rounds (at a7)"},
        {"R7/8/8/8/8/8/s7/ssssssss w", 23, "more than 8 squares (at h1)"},
        {"(RRR)(RRR)(RRR)5/8/8/8/8/8/8/7r w", 10, "more than 8 rounds (at c8)"},
        // Unknown letters and digits.
        {"8/8/8/3K4/8/8/8/7r w", 7, "'K'"},
        {"8/8/8/3x4/8/8/8/7r w", 7, "'x'"},
        {"9/8/8/8/8/8/8/7r w", 0, "'9'"},
        {"08/8/8/8/8/8/8/7r w", 0, "'0'"},
        // The side to move: missing, or not w/b.
        {"8/8/8/8/8/8/8/7r", 16, "side"},
        {"8/8/8/8/8/8/8/7r ", 17, "side"},
        {"8/8/8/8/8/8/8/7r x", 17, "'x'"},
        // Seven and nine ranks.
        {"8/8/8/8/8/8/7r w", 14, "8 ranks"},
        {"8/8/8/8/8/8/8/8/7r w", 15, "more than 8 ranks"},
        // Parentheses: unclosed at the end of the text, or cut by the space before the side.
        {"8/8/8/8/8/8/8/(RR", 14, "unclosed"},
        {"8/8/8/8/8/8/8/(RR w", 17, "a space"},
        {"(R)7/8/8/8/8/8/8/7r w", 0, "single piece"},
        {"()8/8/8/8/8/8/8/7r w", 0, "empty"},
        // Anything after the side, and an empty board.
        {"8/8/8/8/8/8/8/7r w x", 19, "after"},
        {"8/8/8/8/8/8/8/8 w", 0, "empty"},
        {"", 0, ""},
    }));
    INFO("'" << text << "'");
    const auto r = Position::from_text(text);
    REQUIRE(std::holds_alternative<PositionError>(r));
    const PositionError& e = std::get<PositionError>(r);
    CHECK(e.column == column);
    CHECK_FALSE(e.message.empty());
    CHECK(e.message.find(words) != std::string::npos);
}

TEST_CASE("position text never crashes the parser: every prefix and every one-letter change", "[core]") {
    const std::string good = "(rrs)s1r(sr)3/8/8/3(RSS)4/8/8/8/R6(SS) w";
    check_text_never_crashes<Position>(good, "RSrs()/ 012389wbx\t");
}

// ---------------------------------------------------------------------------------------------
// perft on positions small enough to count by hand.

TEST_CASE("perft on hand-counted positions", "[core][perft]") {
    auto [text, depth, expected] = GENERATE(table<std::string, int, std::uint64_t>({
        // White RR a1 against a black S h8. White: b2, c3, or the deployment b2,c3 (3). Black: g8 or h7
        // (the right walk leaves sideways at once), whatever White did (6). Then White: RR b2 has a3, b4
        // (bounce), c3, d4 and two deployments (6); RR c3 has b4 a5 d4 e5 and two deployments (6); the
        // two rounds b2 and c3 have b2-a3, b2-c3+, c3-b4, c3-d4 (4): 2 * (6 + 6 + 4) = 32.
        {"7s/8/8/8/8/8/8/(RR)7 w", 1, 3},
        {"7s/8/8/8/8/8/8/(RR)7 w", 2, 6},
        {"7s/8/8/8/8/8/8/(RR)7 w", 3, 32},
        // White R d4 against a black r e5. White: c5, or take e5 (the game ends). Black's r e5: d4, f4.
        // Then White's round on c5: b6, d6.
        {"8/8/8/4r3/3R4/8/8/8 w", 1, 2},
        {"8/8/8/4r3/3R4/8/8/8 w", 2, 2},
        {"8/8/8/4r3/3R4/8/8/8 w", 3, 4},
        // Black r b2 against a white S h8. Black: a1, c1. White: g8, or h8-Out (the game ends). Black:
        // from a1 only the exit (down-right leaves; down-left does not exist), from c1 one exit.
        {"7S/8/8/8/8/8/1r6/8 b", 1, 2},
        {"7S/8/8/8/8/8/1r6/8 b", 2, 4},
        {"7S/8/8/8/8/8/1r6/8 b", 3, 2},
    }));
    INFO(text << " depth " << depth);
    Position pos = position_of(text);
    const Position before = pos;
    CHECK(perft(pos, depth) == expected);
    CHECK(perft(pos, depth, PerftMode::checked) == expected);
    CHECK(pos == before);
}

// ---------------------------------------------------------------------------------------------
// `gounki perft`: arguments.

namespace {

// The last line that `gounki ARGS` prints; it must exit 0.
std::string last_line_of(const std::string& args) {
    INFO("gounki " << args);
    const CliRun r = run_gounki(args);
    CHECK(r.status == 0);
    const auto lines = lines_of(r.out);
    REQUIRE_FALSE(lines.empty());
    return lines.back();
}

} // namespace

TEST_CASE("gounki perft rejects bad arguments with status 2 and says what is wrong", "[core][cli]") {
    auto [args, words] = GENERATE(table<std::string, std::string>({
        {"perft", "DEPTH"},
        {"perft abc", "abc"},
        {"perft 2x", "2x"},
        {"perft -- -1", "-1"},
        {"perft -1", "1"}, // a leading dash reads as an option: "Unknown option '1'"
        {"perft 1 2", "DEPTH"},
        {"perft --position '8/8/8/8/8/8/8/8R w' 1", "rank 1"},
        {"perft --position '(Rr)7/8/8/8/8/8/8/8 w' 1", "mixes"},
        {"perft --position 'x' 1", "position"},
        {"perft --position", "position"},
    }));
    INFO("gounki " << args);
    const CliRun r = run_gounki(args);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find(words) != std::string::npos);
}

TEST_CASE("gounki perft prints the count on its last line", "[core][cli]") {
    SECTION("from the start") { CHECK(last_line_of("perft 2") == "1296"); }
    SECTION("from a given position") { CHECK(last_line_of("perft --position '7s/8/8/8/8/8/8/(RR)7 w' 3") == "32"); }
    SECTION("--divide 1: one line per move of the start, then the total") {
        const CliRun r = run_gounki("perft --divide 1");
        CHECK(r.status == 0);
        const auto lines = lines_of(r.out);
        REQUIRE(lines.size() == 37);
        std::set<std::string> moves;
        for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
            INFO(lines[i]);
            const auto space = lines[i].find(' ');
            REQUIRE(space != std::string::npos);
            CHECK(lines[i].substr(space) == " 1");
            moves.insert(lines[i].substr(0, space));
        }
        CHECK(moves.size() == 36);
        CHECK(moves.count("b2-b3") == 1); // b2 holds a square, g2 a round
        CHECK(moves.count("g2-h3") == 1);
        CHECK(lines.back() == "36");
    }
}

TEST_CASE("gounki --help lists users' commands before developer tools, and a slip gets a 'did you mean'", "[core][cli]") {
    const CliRun help = run_gounki("--help");
    CHECK(help.status == 0);
    const std::size_t tools = help.out.find("Developer tools");
    REQUIRE(tools != std::string::npos);
    for (const char* user : {"\n  validate", "\n  import", "\n  analyze", "\n  report", "\n  board"})
        CHECK(help.out.find(user) < tools);
    for (const char* developer : {"\n  perft", "\n  bench", "\n  dbbench", "\n  selfplay", "\n  match"})
        CHECK(help.out.find(developer) > tools);

    check_error("analize --all", 2, "unknown command 'analize'. Did you mean 'analyze'?");
    const CliRun prefix = run_gounki("valid x.gpn");
    CHECK(contains(prefix.err, "Did you mean 'validate'?"));
    const CliRun far = run_gounki("zzzzzz");
    CHECK(far.status == 2);
    CHECK_FALSE(contains(far.err, "Did you mean"));
    check_error("games --wite Alice", 2, "Unknown option 'wite'. Did you mean '--white'?");
    const CliRun unknown_option = run_gounki("games --zzzzzz 1");
    CHECK(unknown_option.status == 2);
    CHECK_FALSE(contains(unknown_option.err, "Did you mean"));
}

// The benchmark programs' number options (bench/args.hpp): a whole number of the option's type or a
// usage error, never a number read from part of the text.
TEST_CASE("benchmark arguments refuse numbers that are not whole numbers of their type", "[text]") {
    const auto read = [](std::vector<std::string> words, auto& games, bool& skip) {
        words.insert(words.begin(), "x_bench");
        std::vector<char*> argv;
        for (std::string& w : words) argv.push_back(w.data());
        for (bench::Args a(int(argv.size()), argv.data()); a.next();)
            if (!a.value("--games", games) && !a.flag("--skip", skip)) return false;
        return true;
    };
    int games = 7;
    bool skip = false;
    CHECK(read({"--games", "1000", "--skip"}, games, skip));
    CHECK(games == 1000);
    CHECK(skip);
    for (const char* bad : {"abc", "10x", "-3", "", "1e3", "99999999999"}) {
        INFO("--games '" << bad << "'");
        games = 7;
        CHECK_FALSE(read({"--games", bad}, games, skip));
        CHECK(games == 7);
    }
    CHECK_FALSE(read({"--games"}, games, skip)); // no value
    CHECK_FALSE(read({"--gamez", "3"}, games, skip));
    unsigned seed = 0;
    CHECK(read({"--games", "4294967295"}, seed, skip));
    CHECK(seed == 4294967295u);
    CHECK_FALSE(read({"--games", "4294967296"}, seed, skip));
    CHECK_FALSE(read({"--games", "-1"}, seed, skip));
}
