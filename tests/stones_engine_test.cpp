// The stone-game engine: the line-pattern table, forced wins of 1 to 9 plies found with their exact
// distance (victories by continuous fours, Gomoku and Ninuki), defences, losses, captures (the
// tenth captured stone, a capture that breaks a five), determinism, the judge on a stone game and
// the commands.
//
// Coordinates: files a.., ranks 1.. from the bottom (docs/rules.md 2). Every expected result is argued
// in the comment above its test from the rules.
#include "tests/catch.hpp"

#include <random>
#include <string>
#include <vector>

#include "analysis/judge.hpp"
#include "analysis/stones/eval.hpp"
#include "analysis/stones/search.hpp"
#include "core/stones/position.hpp"
#include "parser/reader.hpp"
#include "tests/support.hpp"

using namespace gounki;
using namespace gounki::analysis;
using stones::Stone;
using stones::StonePosition;

namespace {

int pt(const StonePosition& pos, const std::string& name) {
    const int p = stones::parse_point(name, pos.size());
    if (p == stones::no_point) FAIL("bad test point " << name);
    return p;
}

StonePosition make_position(const stones::Rules& rules, const std::vector<std::string>& black,
                            const std::vector<std::string>& white, Color to_move) {
    StonePosition pos(rules);
    for (const auto& n : black) pos.put(pt(pos, n), Stone::black);
    for (const auto& n : white) pos.put(pt(pos, n), Stone::white);
    pos.set_side_to_move(to_move);
    pos.update_outcome();
    REQUIRE_FALSE(pos.game_over());
    return pos;
}

StonePosition make_position(GameKind kind, const std::vector<std::string>& black, const std::vector<std::string>& white,
                            Color to_move) {
    return make_position(stones::Rules::defaults(kind), black, white, to_move);
}

stones::Rules ninuki_without_endgame_capture() {
    stones::Rules r = stones::Rules::defaults(GameKind::ninuki);
    r.endgame_capture = false;
    return r;
}

void play(StonePosition& pos, const std::string& name) {
    const Move m = Move::placement(pt(pos, name));
    REQUIRE(pos.is_legal(m));
    stones::StoneUndo u;
    pos.play(m, u);
}

SearchResult search_limited(const StonePosition& pos, int depth, std::uint64_t nodes) { // 0: no limit
    SearchLimits l;
    l.depth = depth;
    l.nodes = nodes;
    return StoneSearcher().search(pos, l);
}
SearchResult search_depth(const StonePosition& pos, int depth) { return search_limited(pos, depth, 0); }
SearchResult search_nodes(const StonePosition& pos, std::uint64_t nodes) { return search_limited(pos, 0, nodes); }

std::string name_of(Move m) { return m ? stones::point_name(m.point()) : std::string("none"); }

// The chain of fours used by several tests (Black to move; coordinates on both board sizes).
// Black: d7 e7 f7 (row 7, White c7 at its left end), i10 i11 i12 (file i, White i13 above),
// i7 j6 k5 (an anti-diagonal, White l4 below it). White also holds nothing else near.
//   1. h8  makes the anti-diagonal h8 i7 j6 k5 a four (l4 is White's): White must take g9.
//   3. g7  makes row 7 d7..g7 a four: White must take h7.
//   5. i9  makes file i i9..i12 a four (White i13 above; i8 is the five point) and the diagonal
//          g7 h8 i9 an open three (f6, j10 empty, e5, k11 empty): a four-three. White takes i8.
//   7. j10 (or f6) makes the open four f6? g7 h8 i9 j10: two five points, White blocks one,
//   9. Black makes five.
// No shorter win: before 1. h8 the only lines holding three black stones are row 7, file i and the
// anti-diagonal, and they meet only on i7, already Black's, so no move makes two fours, a four and
// a three, or two threes; no black line is an open three (no move makes an open four). After each
// forced pair the same holds one level up (h8 alone on the diagonal until g7 and i9 join it).
// White has at most one stone on any line near these, so never a four of its own.
const std::vector<std::string> chain_black = {"d7", "e7", "f7", "i10", "i11", "i12", "i7", "j6", "k5"};
const std::vector<std::string> chain_white = {"c7", "i13", "l4"};
const std::vector<std::string> chain_moves = {"h8", "g9", "g7", "h7", "i9", "i8", "j10", "k11"};

StonePosition chain_position(const stones::Rules& rules, int moves_played) {
    StonePosition pos = make_position(rules, chain_black, chain_white, Color::black);
    for (int i = 0; i < moves_played; ++i) play(pos, chain_moves[std::size_t(i)]);
    return pos;
}

// A threat cache against the from-scratch reading of `pos` (near counts, candidate and four-point bits,
// threats, worths, capture counts), and so a board reset from `pos`. Counts the fours and pairs seen.
void check_threat_cache(const ThreatBoard& board, const StonePosition& pos, int& fours_seen, int& captures_seen) {
    const ThreatBoard fresh(pos);
    std::vector<bool> candidate(stones::point_count), four_point(stones::point_count);
    board.for_each_candidate([&](int x) { candidate[std::size_t(x)] = true; });
    board.for_each_four_point([&](int x) { four_point[std::size_t(x)] = true; });
    for (int q = 0; q < stones::point_count; ++q) {
        if (!pos.on_board(stones::point_file(q), stones::point_rank(q))) continue;
        int near = 0;
        for (int r = stones::point_rank(q) - 2; r <= stones::point_rank(q) + 2; ++r)
            for (int f = stones::point_file(q) - 2; f <= stones::point_file(q) + 2; ++f)
                near += pos.on_board(f, r) && pos.at(stones::make_point(f, r)) != Stone::empty;
        INFO(stones::point_name(q));
        REQUIRE(board.near(q) == near);
        std::array<std::int16_t, 16> taken; // the capture counts against the rules' own (none in Gomoku)
        for (const std::size_t i : {std::size_t(0), std::size_t(1)}) {
            const int pairs = pos.captures_at(q, Color(i), taken) / 2;
            REQUIRE((board.capture_pairs(q)[i] == pairs && fresh.capture_pairs(q)[i] == pairs));
            captures_seen += pairs;
        }
        REQUIRE(candidate[std::size_t(q)] == (near > 0 && pos.at(q) == Stone::empty));
        bool four = false;
        std::array<std::array<LineThreat, 4>, 2> t{};
        if (pos.at(q) == Stone::empty) board.threats(q, t);
        for (Color c : {Color::black, Color::white}) {
            if (pos.at(q) != Stone::empty) break;
            const auto& expect = t[std::size_t(index(c))];
            REQUIRE(board.lines(q, c) == expect);
            REQUIRE(fresh.lines(q, c) == expect);
            const PointWorth w = point_worth(expect, !pos.rules().double_three_forbidden(c));
            REQUIRE(board.worth(q, c) == w);
            REQUIRE(fresh.worth(q, c) == w);
            fours_seen += w.fours;
            four = four || w.fours || w.five;
        }
        REQUIRE(four_point[std::size_t(q)] == four);
    }
}

} // namespace

// ---------------------------------------------------------------------------------------------
// The pattern table

TEST_CASE("line patterns: fives, fours, threes as docs/rules.md counts them", "[stones-engine]") {
    // cells: offsets -4..-1 then +1..+4 around the placed stone; 0 empty, 1 ours, 2 blocked.
    CHECK(line_threat({0, 1, 1, 1, 1, 0, 0, 0}) == LineThreat::five); // XXX[X]X
    CHECK(line_threat({0, 0, 1, 1, 1, 1, 0, 0}) == LineThreat::five); // XX[X]XX
    CHECK(line_threat({0, 0, 0, 1, 1, 1, 0, 0}) == LineThreat::open_four); // __ _X[X]XX_ _ : _XXXX_
    CHECK(line_threat({0, 0, 2, 1, 1, 1, 0, 0}) == LineThreat::four); // OX[X]XX_ : one five point
    CHECK(line_threat({0, 0, 0, 1, 0, 1, 1, 0}) == LineThreat::four); // X[X]_XX: the gap
    CHECK(line_threat({0, 0, 0, 0, 1, 1, 0, 0}) == LineThreat::open_three); // _[X]XX__ : free three
    CHECK(line_threat({0, 0, 0, 1, 0, 1, 0, 0}) == LineThreat::open_three); // _X[X]_X_ : split three
    CHECK(line_threat({0, 0, 2, 0, 1, 1, 0, 2}) == LineThreat::closed_three); // O_[X]XX_O is not free
    CHECK(line_threat({0, 0, 0, 2, 1, 1, 0, 0}) == LineThreat::closed_three); // O[X]XX__
    CHECK(line_threat({0, 0, 0, 0, 1, 0, 0, 0}) == LineThreat::open_two);
    CHECK(line_threat({2, 2, 2, 2, 1, 1, 1, 2}) == LineThreat::none); // no room for five
}

// The incremental threat cache against the from-scratch reading after each change (Gomoku 15x15,
// Renju: its Black forbids double threes, Ninuki 19x19): stones placed and removed at random
// (clustered: fours, fives, overlines occur); and the search's way (StoneSearcher::play, unplay):
// push_place and the captures removed, then the captured stones placed again and pop_place.
TEST_CASE("the threat cache equals a from-scratch reading after random changes", "[stones-engine]") {
    const GameKind kind = GENERATE(GameKind::gomoku, GameKind::renju, GameKind::ninuki);
    StonePosition pos(stones::Rules::defaults(kind));
    ThreatBoard board(pos);
    std::mt19937 rng(17);
    int fours_seen = 0, pairs_seen = 0, changes = 0, captures = 0;
    const int lo = pos.size() / 2 - 4;
    auto random_point = [&] { return stones::make_point(lo + int(rng() % 9), lo + int(rng() % 9)); };
    SECTION("places and removes") {
        for (int run = 0; run < 12; ++run, pos = StonePosition(pos.rules()), board.reset(pos))
            for (int step = 0; step < 30; ++step, ++changes) {
                const int p = random_point();
                const Color c = rng() % 2 ? Color::black : Color::white;
                pos.put(p, pos.at(p) != Stone::empty ? Stone::empty : c == Color::black ? Stone::black : Stone::white);
                pos.at(p) == Stone::empty ? board.remove(p) : board.place(p, c);
                INFO("change " << step);
                check_threat_cache(board, pos, fours_seen, pairs_seen);
            }
    }
    SECTION("push_place and pop_place") {
        std::vector<stones::StoneUndo> undos;
        for (int step = 0; step < 400; ++step) {
            const Move m = Move::placement(random_point());
            if (!undos.empty() && (pos.game_over() || undos.size() > 40 || rng() % 3 == 0)) {
                const stones::StoneUndo& u = undos.back();
                pos.undo(u);
                for (int i = 0; i < u.captured_count; ++i) board.place(u.captured[std::size_t(i)], ~pos.side_to_move());
                board.pop_place(u.point);
                undos.pop_back();
            } else if (pos.is_legal(m)) {
                const Color mover = pos.side_to_move();
                pos.play(m, undos.emplace_back());
                board.push_place(m.point(), mover);
                for (int i = 0; i < undos.back().captured_count; ++i) board.remove(undos.back().captured[std::size_t(i)]);
                captures += undos.back().captured_count;
            } else {
                continue;
            }
            INFO("step " << ++changes);
            check_threat_cache(board, pos, fours_seen, pairs_seen);
        }
        CHECK(changes > 300);
        if (kind == GameKind::ninuki) CHECK(captures >= 4); // pairs were taken and placed again
    }
    CHECK(fours_seen > 100); // the random play did reach the patterns that matter
    if (kind == GameKind::ninuki) CHECK(pairs_seen > 100); // and capturable pairs
}

// ---------------------------------------------------------------------------------------------
// Forced wins with their distance

TEST_CASE("Gomoku: the chain of fours wins in 9, 7, 5, 3 and 1 with the right first moves", "[stones-engine]") {
    const int expected[5] = {9, 7, 5, 3, 1};
    for (int k = 0; k < 5; ++k) {
        const StonePosition pos = chain_position(stones::Rules::defaults(GameKind::gomoku), 2 * k);
        const SearchResult r = search_nodes(pos, 60'000);
        INFO("after " << 2 * k << " plies of the chain: best " << name_of(r.best) << " score " << r.score);
        CHECK(r.win_in == expected[k]);
        CHECK(r.score == win_at(expected[k]));
        if (k < 3) CHECK(name_of(r.best) == chain_moves[std::size_t(2 * k)]);
        REQUIRE(int(r.pv.size()) == expected[k]);
        // The principal variation is legal and ends in Black's win.
        StonePosition after = pos;
        for (Move m : r.pv) {
            REQUIRE(after.is_legal(m));
            stones::StoneUndo u;
            after.play(m, u);
        }
        CHECK(after.outcome() == Outcome::black_wins);
    }
}

TEST_CASE("Gomoku: the VCF prover finds the shortest sequence of fours", "[stones-engine]") {
    StoneSearcher s;
    const int expected[5] = {9, 7, 5, 3, 1};
    for (int k = 0; k < 5; ++k) {
        const VcfResult v = s.find_vcf(chain_position(stones::Rules::defaults(GameKind::gomoku), 2 * k), 11);
        INFO("after " << 2 * k << " plies");
        CHECK(v.found);
        CHECK(v.plies == expected[k]);
        CHECK(int(v.line.size()) == expected[k]);
    }
    // Seven plies are not enough for the nine-ply chain.
    CHECK_FALSE(s.find_vcf(chain_position(stones::Rules::defaults(GameKind::gomoku), 0), 7).found);
}

// Victory by continuous threats (fours and threes). The double three: Black's f8 g8 (row 8) and
// h6 h7 (file h) meet at h8, the only point on both lines that makes a three in each (the row's
// other three points e8, d8, i8 are off file h, the file's h5, h4, h9 off row 8); h8 makes two open
// threes, White (four far corner stones, never a four) blocks one, Black makes the other an open
// four: a win in 5 and no VCF (Black has no three in a line to make a four from). In the second
// position White's j9 k10 l11 (on the diagonal h7..n13, Black holding h7 and n13: a closed three)
// change one thing: White's i8 both blocks the row's three and makes a four (five point m12), so
// after 1. h8 i8 Black must block m12 and cannot make five by ply 5: the counter-four refutes the
// double three, and no other first move makes two threats. The chain's wins (all of fours) come out of the VCT prover with
// the distances of the VCF prover, which the full search shows shortest.
TEST_CASE("Gomoku: the VCT prover wins with a double three and respects a counter-four", "[stones-engine]") {
    const stones::Rules gomoku = stones::Rules::defaults(GameKind::gomoku);
    StoneSearcher s;
    const StonePosition three_three = make_position(gomoku, {"f8", "g8", "h6", "h7"}, {"a1", "o1", "a15", "o15"}, Color::black);
    CHECK_FALSE(s.find_vcf(three_three, 11).found);
    const VcfResult v = s.find_vct(three_three, 9);
    CHECK(v.found);
    CHECK(v.plies == 5);
    REQUIRE(!v.line.empty());
    CHECK(name_of(v.line.front()) == "h8");
    CHECK(s.find_vct(three_three, 3).found == false); // no win in 3
    // A search limited by nodes tries the prover at its root first: the win, at depth 1.
    const SearchResult root = search_nodes(three_three, 20'000);
    CHECK(root.win_in == 5);
    CHECK(name_of(root.best) == "h8");
    CHECK(root.depth == 1);
    CHECK(root.pv.size() == 5);
    // ... reported through the callback like an iteration (pbrain prints its evaluation from there).
    StoneSearcher reporter;
    SearchLimits by_nodes;
    by_nodes.nodes = 20'000;
    int reports = 0;
    reporter.search(three_three, by_nodes, [&](const SearchInfo& info) {
        ++reports;
        CHECK(info.win_in == 5);
    });
    CHECK(reports == 1);

    const StonePosition countered =
        make_position(gomoku, {"f8", "g8", "h6", "h7", "n13"}, {"j9", "k10", "l11", "a1"}, Color::black);
    CHECK_FALSE(s.find_vct(countered, 5).found);
    // Without White's diagonal the same five stones win in 5 again.
    CHECK(s.find_vct(make_position(gomoku, {"f8", "g8", "h6", "h7", "n13"}, {"a15", "o15", "o1", "a1"}, Color::black), 5).plies == 5);

    const int expected[5] = {9, 7, 5, 3, 1};
    for (int k = 0; k < 5; ++k) {
        INFO("after " << 2 * k << " plies of the chain");
        CHECK(s.find_vct(chain_position(gomoku, 2 * k), 11).plies == expected[k]);
    }
    // Captures: the prover stays out.
    CHECK_FALSE(s.find_vct(chain_position(ninuki_without_endgame_capture(), 0), 11).found);
}

// The same stones on the Ninuki board (19x19), captures on, end-game capture off. No capture ever
// happens along the chain: no black pair is flanked by a white stone with the other end empty, and
// none of White's forced blocks flanks one (h7, i8, g9, k11 each touch black runs of three or more
// or single stones only); White never has a four. So a five wins at once and the distances are
// those of Gomoku.
TEST_CASE("Ninuki: the chain wins in 9, 7, 5, 3 and 1 without end-game capture", "[stones-engine]") {
    const int expected[5] = {9, 7, 5, 3, 1};
    for (int k = 0; k < 5; ++k) {
        const StonePosition pos = chain_position(ninuki_without_endgame_capture(), 2 * k);
        const SearchResult r = search_nodes(pos, 60'000);
        INFO("after " << 2 * k << " plies of the chain: best " << name_of(r.best) << " score " << r.score);
        CHECK(r.win_in == expected[k]);
        if (k < 3) CHECK(name_of(r.best) == chain_moves[std::size_t(2 * k)]);
        StoneSearcher s;
        CHECK(s.find_vcf(pos, 11).plies == expected[k]);
    }
}

// With end-game capture (the default) the open four of the 3-ply win is not enough: after 7. j10
// (f6 g7 h8 i9 j10 would be five) White answers h10 or k10, flanking Black's pair i10 j10 on row
// 10, and every five Black can make then holds j10 or f6; a five through j10 is broken by taking
// i10 j10, and through f6 (after 7. f6) by White's f8 or f5 taking f6 f7. So no win in 3 and no
// sequence of fours of 3 plies, while the five-ply-win position of Gomoku still has a longer win.
TEST_CASE("Ninuki: end-game capture gives the defender captures that break the five", "[stones-engine]") {
    const StonePosition pos = chain_position(stones::Rules::defaults(GameKind::ninuki), 6);
    StoneSearcher s;
    CHECK_FALSE(s.find_vcf(pos, 3).found);
    const SearchResult r = search_nodes(pos, 60'000);
    CHECK(r.win_in != 3);
    CHECK(r.win_in != 1);
    CHECK(r.win_in >= 0);
}

// After 5. i9 (four and open three) White to move: i8 is forced (else i8 makes five), then Black's
// j10 or f6 makes an open four, White blocks one end, Black fives on the other: White loses in 4.
TEST_CASE("a forced loss is reported with its distance", "[stones-engine]") {
    StonePosition pos = chain_position(stones::Rules::defaults(GameKind::gomoku), 4);
    play(pos, "i9");
    const SearchResult r = search_nodes(pos, 200'000);
    CHECK(r.win_in == -4);
    CHECK(r.score == loss_at(4));
    CHECK(name_of(r.best) == "i8");
    // Facing an open four, the loss is two plies away.
    StonePosition open = pos;
    play(open, "i8");
    play(open, "j10");
    const SearchResult r2 = search_depth(open, 3);
    CHECK(r2.win_in == -2);
}

// Black's d4 e4 f4 are closed by White's c4: g4 (or h4) makes a four, White takes the other point,
// and Black has no four left. No sequence of fours wins, and no move makes two five points (the
// only black line is closed), so nothing is won within 4 plies either.
TEST_CASE("no win is claimed where the defence holds", "[stones-engine]") {
    const StonePosition pos = make_position(GameKind::gomoku, {"d4", "e4", "f4"}, {"c4", "l12"}, Color::black);
    StoneSearcher s;
    CHECK_FALSE(s.find_vcf(pos, 15).found);
    const SearchResult r = search_depth(pos, 4);
    CHECK_FALSE(is_proven(r.score));
    CHECK(r.win_in == 0);
}

// The Gomoku position where a quiet move wins: Black's g8 threatens i8 (a four on file i and an
// open three g8 h8 i8) and h9 (the open four f7 g8 h9 i10); White cannot stop both. The search
// finds a win although no sequence of fours exists: Black's only fours are on file i, and after
// i8 or i9 and White's block Black has no four left.
TEST_CASE("a quiet move with two threats is a win the search finds", "[stones-engine]") {
    StonePosition pos = chain_position(stones::Rules::defaults(GameKind::gomoku), 4);
    pos.put(pt(pos, "f6"), Stone::white);
    pos.put(pt(pos, "j10"), Stone::white);
    const SearchResult r = search_depth(pos, 4);
    // No move makes two five points now (Black's only live four line is file i), so no win in 3.
    CHECK(r.win_in >= 5);
    CHECK(r.win_in <= 7);
    StoneSearcher s;
    CHECK_FALSE(s.find_vcf(pos, 5).found);
}

// The leaf options measured in `gounki match` and left off by default (the VCT prover at the
// leaves, the penalty for a leaf where the opponent has a sequence of fours): on, they do change
// the search, keep the proven results above and stay deterministic.
TEST_CASE("the leaf VCT and the threat penalty keep proven results and determinism", "[stones-engine]") {
    StoneSearchOptions leaf;
    leaf.vct_nodes = 300;
    leaf.threat_penalty = 400;
    SearchLimits l;
    l.depth = 4;
    StonePosition quiet = chain_position(stones::Rules::defaults(GameKind::gomoku), 4);
    quiet.put(pt(quiet, "f6"), Stone::white);
    quiet.put(pt(quiet, "j10"), Stone::white);
    StoneSearcher a(leaf), b(leaf);
    const SearchResult r = a.search(quiet, l);
    CHECK(r.win_in >= 5);
    CHECK(r.win_in <= 7);
    const SearchResult again = b.search(quiet, l);
    CHECK(again.nodes == r.nodes);
    CHECK(again.best == r.best);
    CHECK(r.nodes != search_depth(quiet, 4).nodes);
    const StonePosition held = make_position(GameKind::gomoku, {"d4", "e4", "f4"}, {"c4", "l12"}, Color::black);
    const SearchResult h = a.search(held, l);
    CHECK_FALSE(is_proven(h.score));
}

// ---------------------------------------------------------------------------------------------
// Ninuki captures

// Black has taken 8 stones; White's pair k10 l10 lies between Black's j10 and the empty m10.
// Black's m10 takes it: the tenth stone wins at once.
TEST_CASE("Ninuki: the tenth captured stone wins in 1", "[stones-engine]") {
    StonePosition pos = make_position(GameKind::ninuki, {"j10", "c3"}, {"k10", "l10", "r17"}, Color::black);
    pos.set_captured(Color::black, 8);
    const SearchResult r = search_depth(pos, 2);
    CHECK(r.win_in == 1);
    CHECK(name_of(r.best) == "m10");
    // With six taken the same capture wins nothing at once.
    pos.set_captured(Color::black, 6);
    CHECK(search_depth(pos, 2).win_in != 1);
}

// Black's d10 e10 f10 g10 is an open four: h10 (or c10) makes five. But White's f11 sits above the
// black pair f10 f9 (f8 empty) wait: the pair is vertical f10 f9 with White f11 above and f8
// empty: after a black five on row 10, White's f8 takes f9 and f10 and breaks it. With end-game
// capture the five does not win at once; without the option (or in Gomoku) it does.
TEST_CASE("Ninuki: a five that a capture can break does not win at once", "[stones-engine]") {
    const std::vector<std::string> black = {"d10", "e10", "f10", "g10", "f9", "c2"};
    const std::vector<std::string> white = {"f11", "q17", "q16", "r3", "r4"};
    StonePosition pos = make_position(GameKind::ninuki, black, white, Color::black);
    const SearchResult r = search_depth(pos, 1);
    CHECK(r.win_in != 1);
    StonePosition five = pos;
    play(five, "h10");
    REQUIRE_FALSE(five.game_over());
    REQUIRE(five.pending_five() == Color::black);
    // White to move must capture: f8 is the only move that does not lose at once.
    const SearchResult w = search_depth(five, 1);
    CHECK(name_of(w.best) == "f8");
    CHECK(w.win_in != -1);

    // Without the end-game capture option the five wins.
    StonePosition simple = pos;
    stones::Rules rules = simple.rules();
    rules.endgame_capture = false;
    StonePosition plain(rules);
    for (const auto& n : black) plain.put(pt(plain, n), Stone::black);
    for (const auto& n : white) plain.put(pt(plain, n), Stone::white);
    plain.set_side_to_move(Color::black);
    CHECK(search_depth(plain, 1).win_in == 1);
}

// ---------------------------------------------------------------------------------------------
// Determinism and limits

TEST_CASE("stone search: same depth or node limit, same move and node count", "[stones-engine]") {
    const StonePosition pos = make_position(GameKind::ninuki, {"j10", "k11", "h9"}, {"k10", "j11"}, Color::white);
    SearchLimits by_depth, by_nodes;
    by_depth.depth = 4;
    by_nodes.nodes = 5000;
    for (const SearchLimits& limits : {by_depth, by_nodes}) {
        INFO("depth " << limits.depth << ", nodes " << limits.nodes);
        // One searcher searching twice (nothing of its first search may change the second), then a
        // fresh searcher.
        StoneSearcher one;
        const SearchResult a = one.search(pos, limits);
        const SearchResult again = one.search(pos, limits);
        StoneSearcher fresh;
        const SearchResult b = fresh.search(pos, limits);
        for (const SearchResult* r : {&again, &b}) {
            CHECK(r->best == a.best);
            CHECK(r->nodes == a.nodes);
            CHECK(r->score == a.score);
            CHECK(r->pv == a.pv);
        }
        CHECK(pos.is_legal(a.best));
        CHECK(a.nodes > 0);
        if (limits.nodes) CHECK(a.nodes <= limits.nodes);
    }
}

// The stone bench's signatures through `gounki bench` (the command's default depth is deeper):
// the total node count over the fixed positions changes whenever the stone search or its evaluation
// changes; update them deliberately, with the reason in the commit message. Ninuki at depth 2: its
// depth 3 takes about ten seconds in the sanitizer build.
TEST_CASE("stone bench node count signature", "[stones-engine]") {
    auto [game, depth, nodes] = GENERATE(table<std::string, int, std::uint64_t>({
        {"gomoku", 3, 30503},
        {"ninuki", 2, 4448},
    }));
    const std::string args = "bench --game " + game + " --depth " + std::to_string(depth) + " --json";
    INFO("gounki " << args);
    const test::CliRun r = test::run_gounki(args);
    CHECK(r.status == 0);
    CHECK(test::contains(r.out, "\"nodes\":" + std::to_string(nodes) + ","));
}

// ---------------------------------------------------------------------------------------------
// Judging a stone game

// Gomoku: Black builds h8 i8 j8 while White plays on the a-file. After 3. j8 the open three threatens
// an open four: White's a5 ignores it (Black's k8 or g8 then makes an open four: a proven loss for
// White, where a block at g8 or k8 loses nothing proven: allows-loss). Black's 4. a10 then misses
// the win (k8 or g8 wins in 3) and White blocks: missed-win.
TEST_CASE("judge: a stone game gets missed-win and allows-loss on the right plies", "[stones-engine]") {
    const StonePosition start(stones::Rules::defaults(GameKind::gomoku));
    std::vector<Move> moves;
    for (const char* n : {"h8", "a1", "i8", "a3", "j8", "a5", "a10", "k8"})
        moves.push_back(Move::placement(stones::parse_point(n, 15)));
    const JudgeSettings settings = stone_judge_defaults();
    int progress_calls = 0;
    const GameJudgement g = judge_stone_game(start, moves, settings, [&](const PlyJudgement&) { ++progress_calls; });
    REQUIRE(g.illegal_ply == -1);
    REQUIRE(g.plies.size() == moves.size());
    CHECK(progress_calls == int(moves.size()));
    CHECK(g.plies[5].side == Color::white);
    CHECK(g.plies[5].verdict == Verdict::allows_loss);
    CHECK(is_proven_loss(g.plies[5].played_score));
    CHECK_FALSE(is_proven(g.plies[5].best_score));
    CHECK(g.plies[6].side == Color::black);
    CHECK(g.plies[6].verdict == Verdict::missed_win);
    CHECK(g.plies[6].best_win_in == 3);
    const std::string best6 = name_of(g.plies[6].best);
    CHECK((best6 == "g8" || best6 == "k8"));
    CHECK(g.sides[index(Color::white)].counts[int(Verdict::allows_loss)] == 1);
    CHECK(g.sides[index(Color::black)].counts[int(Verdict::missed_win)] == 1);
    // The engine's own moves are "best".
    CHECK(g.plies[7].verdict == Verdict::best);
    CHECK(g.nodes > 0);

    // An illegal move (an occupied point) stops the judgement there.
    std::vector<Move> bad = moves;
    bad[3] = bad[1];
    CHECK(judge_stone_game(start, bad, settings).illegal_ply == 3);
}

// ---------------------------------------------------------------------------------------------
// Commands

TEST_CASE("gounki best on a stone position prints the point, score, pv and win_in", "[stones-engine]") {
    const StonePosition pos = chain_position(stones::Rules::defaults(GameKind::gomoku), 6);
    const test::CliRun r = test::run_gounki("best --position '" + pos.to_text() + "' --json");
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("\"win_in\":3") != std::string::npos);
    CHECK((r.out.find("\"move\":\"j10\"") != std::string::npos || r.out.find("\"move\":\"f6\"") != std::string::npos));
    CHECK(r.out.find("\"pv\":[") != std::string::npos);
    const test::CliRun text = test::run_gounki("best --depth 2 --position '" + pos.to_text() + "'");
    CHECK(text.status == 0);
    CHECK(text.out.find("win_in 3") != std::string::npos);
    // A finished game and a bad text are refused.
    StonePosition won = chain_position(stones::Rules::defaults(GameKind::gomoku), 8);
    play(won, "f6"); // f6 g7 h8 i9 j10
    REQUIRE(won.outcome() == Outcome::black_wins);
    CHECK(test::run_gounki("best --position '" + won.to_text() + "'").status == 1);
    CHECK(test::run_gounki("best --position 'Gomoku 15 15/15 b'").status == 2);
}

TEST_CASE("gounki selfplay --game writes stone records that read back; bench --game", "[stones-engine]") {
    test::TempDir dir("stones-selfplay");
    const std::string file = (dir / "g.gpn").string();
    const test::CliRun r = test::run_gounki("selfplay --game gomoku --games 2 --depth 2 --seed 3 --json -o '" + file + "'");
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("\"games\":2") != std::string::npos);
    CHECK(r.out.find("\"game\":\"Gomoku\"") != std::string::npos);
    const std::string text = test::slurp(file);
    CHECK(test::count_of(text, "[Game \"Gomoku\"]") == 2);
    CHECK(text.find("1. h8 ") != std::string::npos); // Black opens on the centre
    CHECK(text.find("[Size") == std::string::npos); // 15x15 is Gomoku's default
    const test::CliRun v = test::run_gounki("validate '" + file + "'");
    INFO(v.out << v.err);
    CHECK(v.status == 0);
    const std::string nfile = (dir / "n.gpn").string();
    REQUIRE(test::run_gounki("selfplay --game ninuki --games 1 --nodes 3000 -o '" + nfile + "'").status == 0);
    const std::string ntext = test::slurp(nfile);
    CHECK(ntext.find("[Game \"Ninuki\"]") != std::string::npos);
    CHECK(ntext.find("1. j10 ") != std::string::npos);
    CHECK(test::run_gounki("validate '" + nfile + "'").status == 0);
    const test::CliRun b = test::run_gounki("bench --game gomoku --depth 2 --json");
    CHECK(b.status == 0);
    CHECK(b.out.find("\"game\":\"Gomoku\"") != std::string::npos);
    CHECK(b.out.find("\"nodes\":") != std::string::npos);
    CHECK(test::run_gounki("selfplay --game chess --games 1 -o -").status == 2);
}

// match against an external brain (here gounki's own): B by time (`--b-time`) and with prover
// settings (`--b-eval`), which are checked before anything is played.
TEST_CASE("match --engine: B by time and with prover settings", "[stones-engine]") {
    const std::string engine = test::gounki_command() + " pbrain";
    const auto run = test::run_gounki_args({"match", "--engine", engine, "--engine-time", "200", "--b-time", "100", "--b-eval",
                                            "vct_nodes=50,root_vct_share=0", "--games", "2"});
    INFO(run.out << run.err);
    REQUIRE(run.status == 0);
    CHECK(test::contains(run.out, "B = gounki time 100 ms (vct_nodes=50,root_vct_share=0)"));
    CHECK(test::contains(run.out, "2 games: A won"));
    const auto bad = test::run_gounki_args({"match", "--engine", engine, "--b-eval", "no_such=1", "--games", "2"});
    CHECK(bad.status == 2);
    CHECK(test::contains(bad.err, "unknown stone engine setting 'no_such'"));
    const auto both = test::run_gounki_args({"match", "--engine", engine, "--b-time", "100", "--b-nodes", "100"});
    CHECK(both.status == 2);
    CHECK(test::contains(both.err, "give --b-time alone, not with --b-nodes"));
}

// match --openings: the games of a record file as the openings, each played twice with the
// colours swapped, on its own board and from its own start; the file is checked before any game.
TEST_CASE("match --engine --openings: pairs of games from the openings of a record file", "[stones-engine]") {
    const test::TempDir dir("openings");
    const std::string engine = test::gounki_command() + " pbrain";
    // A Gomoku game on 15x15, one on 20x20 (whose centre is k11), and one from set-up stones.
    test::write_text(dir / "open.pgn",
                     "[Game \"Gomoku\"]\n\n1. h8 i9 2. j10 g7 3. a1 *\n\n"
                     "[Game \"Gomoku\"]\n[Size \"20\"]\n\n1. k11 l12 2. m13 *\n\n"
                     "[Game \"Gomoku\"]\n[SetUp \"1\"]\n[Position \"Gomoku 15 15/15/15/15/15/15/15/7x7/7ox6/15/15/15/15/15/15 w\"]\n\n"
                     "1... j6 2. c3 *\n");
    const auto run = test::run_gounki_args({"match", "--engine", engine, "--engine-nodes", "300", "--b-nodes", "300",
                                            "--openings", dir.file("open.pgn"), "--opening-plies", "2", "--games", "8",
                                            "-o", dir.file("m.pgn")});
    INFO(run.out << run.err);
    REQUIRE(run.status == 0);
    CHECK(test::contains(run.out, "8 games: A won"));
    std::vector<parser::GameRecord> games;
    parser::RecordReader reader(dir / "m.pgn");
    for (parser::GameRecord g; reader.next(g);) games.push_back(g);
    REQUIRE(games.size() == 8);
    const std::vector<std::vector<std::string>> openings = {{"h8", "i9"}, {"k11", "l12"}, {"j6", "c3"}};
    for (std::size_t i = 0; i < games.size(); ++i) {
        const parser::GameRecord& g = games[i];
        const std::size_t o = (i / 2) % openings.size(); // the fourth pair goes round to the first opening
        INFO("game " << i + 1);
        CHECK(g.status == parser::GameStatus::valid);
        REQUIRE(g.main.plies.size() > 2);
        for (std::size_t k = 0; k < 2; ++k)
            CHECK(stones::point_name(g.main.plies[k].move.point()) == openings[o][k]);
        CHECK(g.start.as_stones().size() == (o == 1 ? 20 : 15));
        CHECK(g.start.as_stones().stone_count() == (o == 2 ? 3 : 0));
        // The engine (A) plays the first mover's colour in the first game of a pair, the other in the second.
        CHECK(test::contains(*g.tag(i % 2 == 0 ? "Black" : "White"), "engine 'gounki"));
    }

    // Refused before any game: another game than --game's, a game the opening ends, a game that
    // does not read, a file that is not there, --random-plies beside it, --opening-plies alone.
    const auto renju = test::run_gounki_args({"match", "--engine", engine, "--game", "renju", "--openings", dir.file("open.pgn")});
    CHECK(renju.status == 2);
    CHECK(test::contains(renju.err, "holds Gomoku games; the match plays Renju"));
    test::write_text(dir / "won.pgn", "[Game \"Gomoku\"]\n\n1. h8 a1 2. i8 a2 3. j8 a3 4. k8 a4 5. l8 0-1\n");
    const auto won = test::run_gounki_args({"match", "--engine", engine, "--openings", dir.file("won.pgn")});
    CHECK(won.status == 2);
    CHECK(test::contains(won.err, "won.pgn:1 is over after its 9 plies"));
    CHECK(test::run_gounki_args({"match", "--engine", engine, "--openings", dir.file("won.pgn"), "--opening-plies", "8",
                                 "--engine-nodes", "100", "--b-nodes", "100", "--games", "2"})
              .status == 0);
    test::write_text(dir / "bad.pgn", "[Game \"Gomoku\"]\n\n1. h8 h8 *\n");
    const auto bad = test::run_gounki_args({"match", "--engine", engine, "--openings", dir.file("bad.pgn")});
    CHECK(bad.status == 1);
    CHECK(test::contains(bad.err, "the point is occupied"));
    CHECK(test::contains(bad.err, "gounki match: the openings above do not read; no game played"));
    CHECK(test::run_gounki_args({"match", "--engine", engine, "--openings", dir.file("none.pgn")}).status == 1);
    const auto both = test::run_gounki_args(
        {"match", "--engine", engine, "--openings", dir.file("open.pgn"), "--random-plies", "3"});
    CHECK(both.status == 2);
    CHECK(test::contains(both.err, "give --openings or --random-plies, not both"));
    CHECK(test::run_gounki_args({"match", "--engine", engine, "--opening-plies", "3"}).status == 2);
}
