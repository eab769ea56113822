// gounki pbrain: the Gomocup brain protocol (protocol/pbrain.hpp), driven line by line, and once
// through the built binary; the manager side (protocol/brain_client.hpp): MESSAGE lines, BEGIN and
// TURN. The commands that use an external brain: brain_engine_test.cpp.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "analysis/stones/search.hpp"
#include "db/analysis_store.hpp"
#include "protocol/brain_client.hpp"
#include "protocol/pbrain.hpp"
#include "tests/catch.hpp"
#include "tests/support.hpp"

using gounki::protocol::PbrainSession;
using gounki::protocol::TurnClock;
using namespace gounki::test;

namespace {

// The answers that are not MESSAGE lines.
std::vector<std::string> answers(const std::vector<std::string>& lines) {
    std::vector<std::string> out;
    for (const auto& l : lines)
        if (l.rfind("MESSAGE ", 0) != 0) out.push_back(l);
    return out;
}

// The one answer of a command that asks for a move.
std::string move_of(PbrainSession& s, const std::string& line) {
    const auto a = answers(s.handle(line));
    REQUIRE(a.size() == 1);
    return a[0];
}

// A BOARD command with its lines, then DONE; the non-MESSAGE answers.
std::vector<std::string> board(PbrainSession& s, const std::vector<std::string>& stones) {
    REQUIRE(s.handle("BOARD").empty());
    for (const auto& st : stones) REQUIRE(s.handle(st).empty());
    return answers(s.handle("DONE"));
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

std::pair<int, int> xy_of(const std::string& answer) {
    const auto comma = answer.find(',');
    REQUIRE(comma != std::string::npos);
    return {std::stoi(answer.substr(0, comma)), std::stoi(answer.substr(comma + 1))};
}

// Five in a row of `stones` (exactly five or more).
bool has_five(const std::set<std::pair<int, int>>& stones) {
    for (const auto& [x, y] : stones)
        for (const auto& [dx, dy] : {std::pair{1, 0}, {0, 1}, {1, 1}, {1, -1}}) {
            int n = 1;
            while (stones.count({x + n * dx, y + n * dy})) ++n;
            if (n >= 5) return true;
        }
    return false;
}

} // namespace

TEST_CASE("pbrain: START, RECTSTART, ABOUT, END", "[pbrain]") {
    PbrainSession s;
    CHECK(starts_with(s.handle("BEGIN").at(0), "ERROR BEGIN: no board yet"));
    CHECK(starts_with(s.handle("START 16").at(0), "ERROR unsupported board size 16"));
    CHECK(starts_with(s.handle("START abc").at(0), "ERROR START: expected a board size"));
    CHECK(starts_with(s.handle("RECTSTART 15,19").at(0), "ERROR RECTSTART: gounki plays square boards only"));
    CHECK(s.handle("RECTSTART 19,19") == std::vector<std::string>{"OK"});
    CHECK(s.handle("start 15\r") == std::vector<std::string>{"OK"}); // any case, CR LF line ends
    CHECK(s.handle("").empty());
    CHECK(starts_with(s.handle("ABOUT").at(0), "name=\"gounki\", version=\""));
    CHECK(starts_with(s.handle("FROB 1").at(0), "UNKNOWN 'FROB'"));
    CHECK(s.handle("END").empty());
    CHECK(s.ended());
    CHECK(s.handle("BEGIN").empty()); // nothing after END
}

TEST_CASE("pbrain: the first move is the centre, on every board size", "[pbrain]") {
    for (const auto& [size, centre] : {std::pair{15, "7,7"}, {19, "9,9"}, {20, "10,10"}}) {
        PbrainSession s;
        REQUIRE(s.handle("START " + std::to_string(size)) == std::vector<std::string>{"OK"});
        CHECK(s.handle("BEGIN") == std::vector<std::string>{centre});
    }
}

TEST_CASE("pbrain: malformed lines and illegal moves are ERROR, never a crash", "[pbrain]") {
    PbrainSession s;
    REQUIRE(s.handle("START 15").at(0) == "OK");
    REQUIRE(s.handle("INFO timeout_turn 100").empty());
    CHECK(starts_with(s.handle("TURN 3").at(0), "ERROR TURN: expected x,y, got '3'"));
    CHECK(starts_with(s.handle("TURN a,b").at(0), "ERROR TURN: expected x,y"));
    CHECK(starts_with(s.handle("TURN 15,0").at(0), "ERROR TURN 15,0: off the 15x15 board"));
    CHECK(starts_with(s.handle("TURN -1,0").at(0), "ERROR TURN -1,0: off the 15x15 board"));
    CHECK(s.handle("INFO timeout_turn soon").empty()); // INFO has no answer (told before the next move)
    CHECK(s.handle("INFO folder C:\\temp").empty()); // keys gounki does not use are passed over
    const std::string reply = move_of(s, "TURN 7,7");
    CHECK(starts_with(s.handle("TURN 7,7").at(0), "ERROR TURN 7,7: the point is occupied"));
    CHECK(starts_with(s.handle("TURN " + reply).at(0), "ERROR TURN " + reply + ": the point is occupied"));
    CHECK(starts_with(s.handle("PLAY 7,7").at(0), "ERROR PLAY 7,7: the point is occupied"));
    CHECK(s.handle("PLAY 0,0") == std::vector<std::string>{"0,0"});
    CHECK(starts_with(s.handle("TURN 0,0").at(0), "ERROR TURN 0,0: the point is occupied"));
}

TEST_CASE("pbrain: a whole game against a weak opponent, every answer legal, won with a five", "[pbrain]") {
    PbrainSession s;
    REQUIRE(s.handle("START 15").at(0) == "OK");
    REQUIRE(s.handle("INFO timeout_turn 100").empty());
    std::set<std::pair<int, int>> mine, theirs;
    std::string answer = move_of(s, "BEGIN");
    CHECK(answer == "7,7");
    for (int turn = 0; turn < 40; ++turn) {
        const auto xy = xy_of(answer);
        REQUIRE(xy.first >= 0);
        REQUIRE(xy.first < 15);
        REQUIRE(xy.second >= 0);
        REQUIRE(xy.second < 15);
        REQUIRE(!mine.count(xy));
        REQUIRE(!theirs.count(xy));
        mine.insert(xy);
        if (has_five(mine)) break;
        // The opponent: the first free point of a grid two points apart from the corner (it never
        // has two stones side by side, so it never threatens anything).
        std::pair<int, int> theirs_next{-1, -1};
        for (int i = 0; i < 64 && theirs_next.first < 0; ++i) {
            const std::pair<int, int> p{2 * (i % 8), 2 * (i / 8)};
            if (!mine.count(p) && !theirs.count(p)) theirs_next = p;
        }
        REQUIRE(theirs_next.first >= 0);
        theirs.insert(theirs_next);
        answer = move_of(s, "TURN " + std::to_string(theirs_next.first) + "," + std::to_string(theirs_next.second));
    }
    CHECK(has_five(mine));
    CHECK(mine.size() <= 10);
}

TEST_CASE("pbrain: BOARD completes its own four and blocks the opponent's", "[pbrain]") {
    PbrainSession s;
    REQUIRE(s.handle("START 15").at(0) == "OK");
    REQUIRE(s.handle("INFO timeout_turn 150").empty());
    // Its own open four and the opponent's scattered stones: the five, at either end.
    const auto win = board(s, {"3,7,1", "0,0,2", "4,7,1", "14,14,2", "5,7,1", "0,14,2", "6,7,1", "14,0,2"});
    REQUIRE(win.size() == 1);
    CHECK((win[0] == "2,7" || win[0] == "7,7"));
    // The opponent's four, closed on one end: the other end must be blocked.
    REQUIRE(s.handle("RESTART").at(0) == "OK");
    CHECK(board(s, {"3,7,2", "4,7,2", "5,7,2", "6,7,2", "2,7,1", "0,0,1", "14,14,1", "0,14,1"}) ==
          std::vector<std::string>{"7,7"});
    // Mixed stones of a game sent out of order, the brain second: a legal answer on a free point.
    REQUIRE(s.handle("RESTART").at(0) == "OK");
    const auto reply = board(s, {"8,8,1", "7,7,2", "6,6,2", "9,9,1", "8,6,2"});
    REQUIRE(reply.size() == 1);
    const auto xy = xy_of(reply[0]);
    CHECK(std::set<std::pair<int, int>>{{8, 8}, {7, 7}, {6, 6}, {9, 9}, {8, 6}}.count(xy) == 0);
}

TEST_CASE("pbrain: rule 1 (exact five): an overline does not win", "[pbrain]") {
    // Own: four in a row and a stone beyond the gap (filling it makes six); the five on the other
    // side is blocked. The opponent threatens a five at 7,10.
    const std::vector<std::string> stones{"2,5,1", "3,5,1",  "4,5,1",  "5,5,1",  "7,5,1",  "2,10,1",
                                          "1,5,2", "3,10,2", "4,10,2", "5,10,2", "6,10,2", "14,0,2"};
    PbrainSession freestyle;
    REQUIRE(freestyle.handle("START 15").at(0) == "OK");
    REQUIRE(freestyle.handle("INFO timeout_turn 150").empty());
    CHECK(board(freestyle, stones) == std::vector<std::string>{"6,5"});
    PbrainSession standard;
    REQUIRE(standard.handle("START 15").at(0) == "OK");
    REQUIRE(standard.handle("INFO rule 1").empty());
    REQUIRE(standard.handle("INFO timeout_turn 150").empty());
    CHECK(board(standard, stones) == std::vector<std::string>{"7,10"});
}

TEST_CASE("pbrain: unsupported rules, BOARD errors, SWAP2BOARD", "[pbrain]") {
    PbrainSession s;
    REQUIRE(s.handle("START 15").at(0) == "OK");
    CHECK(s.handle("INFO rule 2").empty());
    CHECK(starts_with(s.handle("BEGIN").at(0), "ERROR BEGIN: INFO rule 2 (continuous game) is not supported"));
    CHECK(s.handle("INFO rule 0").empty());
    CHECK(s.handle("BEGIN") == std::vector<std::string>{"7,7"});
    REQUIRE(s.handle("RESTART").at(0) == "OK");
    CHECK(board(s, {"1,1,1", "nonsense"}).at(0) == "ERROR BOARD line 2 'nonsense': expected x,y,who");
    CHECK(board(s, {"1,1,3"}).at(0) == "ERROR BOARD line 1 '1,1,3': who 3 (a continuous game's winning line) is not supported");
    CHECK(starts_with(board(s, {"1,1,1", "1,1,2"}).at(0), "ERROR BOARD line 2 '1,1,2': a second stone"));
    CHECK(starts_with(board(s, {"20,1,1"}).at(0), "ERROR BOARD line 1 '20,1,1': off the 15x15 board"));
    REQUIRE(s.handle("SWAP2BOARD").empty());
    REQUIRE(s.handle("7,7").empty()); // the board's lines, not commands
    CHECK(s.handle("DONE") == std::vector<std::string>{"ERROR SWAP2BOARD is not supported: gounki plays no swap2 opening"});
    // A board whose game is over: no move.
    CHECK(board(s, {"0,0,2", "1,1,2", "2,2,2", "3,3,2", "4,4,2", "9,9,1", "9,10,1", "10,9,1", "12,12,1"}).at(0) ==
          "ERROR the game is over: the opponent has five in a row");
}

TEST_CASE("pbrain: rule 4 (renju): Black wins with exactly five and never plays a forbidden point", "[pbrain]") {
    // The brain has five stones and the opponent five: the brain is the first player, Black. On row
    // y=7 it has x=1..4 and 6: x=5 makes six (an overline, forbidden to Black in renju), x=0 exactly five.
    const std::vector<std::string> stones = {"1,7,1",  "2,7,1",  "3,7,1",  "4,7,1",   "6,7,1",
                                             "10,0,2", "12,0,2", "14,0,2", "10,14,2", "12,14,2"};
    PbrainSession renju;
    REQUIRE(renju.handle("START 15").at(0) == "OK");
    REQUIRE(renju.handle("INFO rule 4").empty());
    REQUIRE(renju.handle("INFO timeout_turn 150").empty());
    CHECK(board(renju, stones) == std::vector<std::string>{"0,7"});
    // Renju is played on 15x15 only.
    PbrainSession big;
    REQUIRE(big.handle("START 19").at(0) == "OK");
    REQUIRE(big.handle("INFO rule 4").empty());
    CHECK(starts_with(big.handle("BEGIN").at(0), "ERROR BEGIN: INFO rule 4: Renju is played on 15"));
}

TEST_CASE("pbrain: rule 4 (renju): the opponent's stone on a point forbidden to Black is an ERROR, the position kept",
          "[pbrain]") {
    // Black (the opponent: one stone more) has i8 j8 and h9 h10: h8 would make two open threes, a
    // double-three; and a four on column o that the brain, White, must block at o5 (14,10).
    const std::vector<std::string> stones{"8,7,2",   "0,0,1",  "9,7,2",   "3,0,1",  "7,6,2",   "6,0,1",  "7,5,2", "0,3,1",
                                          "14,14,2", "0,6,1",  "14,13,2", "3,6,1",  "14,12,2", "6,3,1",  "14,11,2"};
    const std::string double_three = "the stone makes two free threes at once (double-three, forbidden)";
    PbrainSession s;
    REQUIRE(s.handle("START 15").at(0) == "OK");
    REQUIRE(s.handle("INFO rule 4").empty());
    REQUIRE(s.handle("INFO max_node 2000").empty());
    REQUIRE(board(s, stones) == std::vector<std::string>{"14,10"});
    // TURN on the forbidden point: ERROR naming the point and the rule's reason; nothing placed.
    CHECK(s.handle("TURN 7,7") == std::vector<std::string>{"ERROR TURN 7,7: " + double_three});
    CHECK(s.handle("TAKEBACK 7,7") == std::vector<std::string>{"ERROR TAKEBACK 7,7: no stone there"});
    // The manager goes on with a legal move (g8: one three), and the brain answers it.
    const std::string reply = move_of(s, "TURN 6,7");
    const auto [x, y] = xy_of(reply);
    CHECK((x >= 0 && y >= 0 && x < 15 && y < 15));
    // A BOARD whose black stone came on a point then forbidden (its lines in the order of the
    // moves, as the protocol has a Renju BOARD): ERROR naming the line, and the position before it kept.
    std::vector<std::string> forbidden(stones.begin(), stones.begin() + 8);
    forbidden.push_back("7,7,2");
    CHECK(board(s, forbidden) ==
          std::vector<std::string>{"ERROR BOARD line 9 '7,7,2': " + double_three +
                                   " (the lines of a Renju BOARD come in the order of the moves)"});
    CHECK(s.handle("TAKEBACK 6,7") == std::vector<std::string>{"OK"}); // the g8 of the game before the BOARD
    CHECK(s.handle("TAKEBACK " + reply) == std::vector<std::string>{"OK"});
    // The same stones with h8 played first: no stone was forbidden when it came, and the brain moves.
    forbidden.insert(forbidden.begin(), forbidden.back());
    forbidden.pop_back();
    REQUIRE(s.handle("RESTART").at(0) == "OK");
    const auto answered = board(s, forbidden);
    REQUIRE(answered.size() == 1);
    CHECK(!starts_with(answered[0], "ERROR"));
    // PLAY (a GUI's move for the brain) is checked the same way: the brain as Black, to move.
    PbrainSession black;
    REQUIRE(black.handle("START 15").at(0) == "OK");
    REQUIRE(black.handle("INFO rule 4").empty());
    REQUIRE(black.handle("INFO max_node 2000").empty());
    const auto own = board(black, {"8,7,1", "0,0,2", "9,7,1", "3,0,2", "7,6,1", "6,0,2", "7,5,1", "0,3,2"});
    REQUIRE(own.size() == 1);
    REQUIRE(black.handle("TAKEBACK " + own[0]) == std::vector<std::string>{"OK"});
    CHECK(black.handle("PLAY 7,7") == std::vector<std::string>{"ERROR PLAY 7,7: " + double_three});
    CHECK(black.handle("PLAY " + own[0]) == std::vector<std::string>{own[0]});
}

TEST_CASE("pbrain: RESTART and TAKEBACK", "[pbrain]") {
    PbrainSession s;
    REQUIRE(s.handle("START 15").at(0) == "OK");
    REQUIRE(s.handle("INFO timeout_turn 100").empty());
    REQUIRE(move_of(s, "BEGIN") == "7,7");
    const std::string reply = move_of(s, "TURN 8,8");
    CHECK(s.handle("TAKEBACK " + reply) == std::vector<std::string>{"OK"});
    CHECK(s.handle("TAKEBACK 8,8") == std::vector<std::string>{"OK"});
    CHECK(starts_with(s.handle("TAKEBACK 8,8").at(0), "ERROR TAKEBACK 8,8: no stone there"));
    const std::string again = move_of(s, "TURN 8,8"); // 8,8 is free again
    CHECK(again != "7,7");
    CHECK(again != "8,8");
    CHECK(s.handle("RESTART") == std::vector<std::string>{"OK"});
    CHECK(s.handle("BEGIN") == std::vector<std::string>{"7,7"}); // an empty board again
}

TEST_CASE("pbrain: MESSAGE lines while thinking, and the turn's time honoured", "[pbrain]") {
    PbrainSession s;
    REQUIRE(s.handle("START 19").at(0) == "OK");
    REQUIRE(s.handle("INFO timeout_match 0").empty());
    REQUIRE(s.handle("INFO timeout_turn 200").empty());
    REQUIRE(s.handle("BOARD").empty());
    for (const char* st : {"9,9,1", "10,10,2", "10,8,1", "8,10,2", "11,9,1", "9,11,2"}) REQUIRE(s.handle(st).empty());
    const auto t0 = std::chrono::steady_clock::now();
    const auto lines = s.handle("DONE");
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    CHECK(ms < 2000);
    REQUIRE(!lines.empty());
    CHECK(answers(lines).size() == 1);
    CHECK(starts_with(lines[0], "MESSAGE depth 1 seldepth "));
    CHECK(lines[0].find(" eval ") != std::string::npos);
    CHECK(lines[0].find(" pv ") != std::string::npos);
}

TEST_CASE("pbrain: the turn's limits from INFO", "[pbrain]") {
    using gounki::protocol::turn_limits;
    CHECK(turn_limits(TurnClock{}).nodes == gounki::analysis::default_stone_search_nodes);
    CHECK(turn_limits(TurnClock{0, -1, -1}).nodes == gounki::protocol::fast_turn_nodes);
    CHECK(turn_limits(TurnClock{1000, -1, -1}).time_ms == 900);
    CHECK(turn_limits(TurnClock{200, -1, -1}).time_ms == 170);
    CHECK(turn_limits(TurnClock{5000, 100000, 20000}).time_ms == 900); // a twentieth of what is left, less a tenth
    CHECK(turn_limits(TurnClock{5000, 0, 20000}).time_ms == 4500); // no match limit: time_left means nothing
    CHECK(turn_limits(TurnClock{5000, 100000, 100}).time_ms == 1);
    CHECK(turn_limits(TurnClock{-1, 180000, 60000}).time_ms == 2700);
    // INFO max_node: the node budget, under the time when one is given.
    CHECK(turn_limits(TurnClock{-1, -1, -1, 5000}).nodes == 5000);
    CHECK(turn_limits(TurnClock{0, -1, -1, 5000}).nodes == 5000);
    const auto both = turn_limits(TurnClock{1000, -1, -1, 5000});
    CHECK(both.nodes == 5000);
    CHECK(both.time_ms == 900);
    PbrainSession s;
    CHECK(s.handle("INFO max_node 300").empty());
    CHECK(s.handle("INFO max_node many").empty());
}

TEST_CASE("pbrain: INFO never answers: values it cannot use are told before the next move, fractions rounded", "[pbrain]") {
    PbrainSession s;
    REQUIRE(s.handle("START 15").at(0) == "OK");
    // Nothing comes back for INFO, whatever its value: a manager waiting for BEGIN's answer reads that answer.
    for (const char* line : {"INFO time_left -1", "INFO timeout_turn 1000.5", "INFO rule x", "INFO timeout_match -5",
                             "INFO max_memory lots", "INFO timeout_turn 20"})
        CHECK(s.handle(line).empty());
    const auto begin = s.handle("BEGIN");
    CHECK(begin == std::vector<std::string>{"MESSAGE INFO rule 'x' passed over: expected a whole number",
                                            "MESSAGE INFO timeout_match '-5' passed over: expected a whole number, 0 or more",
                                            "MESSAGE INFO max_memory 'lots' passed over: expected a whole number", "7,7"});
    CHECK(answers(s.handle("TURN 8,8")).size() == 1); // told once
    // A time with a fraction is rounded; a negative time_left (the match's time has run out) plays at once.
    PbrainSession t;
    REQUIRE(t.handle("START 15").at(0) == "OK");
    CHECK(t.handle("INFO timeout_match 100000").empty());
    CHECK(t.handle("INFO timeout_turn 100000.4").empty());
    CHECK(t.handle("INFO time_left -250").empty());
    REQUIRE(t.handle("BEGIN") == std::vector<std::string>{"7,7"});
    const auto started = std::chrono::steady_clock::now();
    const auto reply = t.handle("TURN 8,8");
    CHECK(answers(reply).size() == 1);
    CHECK(xy_of(answers(reply).at(0)).first >= 0); // a move
    // A search of 1 ms: far from the turn's 100 s (the bound is loose: a debug build on a loaded machine).
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(30));
}

TEST_CASE("pbrain: input echoed in an answer stays one short printable line, whatever the line held", "[pbrain]") {
    PbrainSession s;
    REQUIRE(s.handle("START 15").at(0) == "OK");
    REQUIRE(s.handle("INFO timeout_turn 50").empty());
    // A CR inside a line (the protocol lets a line end with CR alone): echoed as it was, the answer
    // would be read as three lines by a manager, the second of them the move 5,5.
    CHECK(s.handle("TURN a\r5,5\rb") == std::vector<std::string>{"ERROR TURN: expected x,y, got 'a\\x0d5,5\\x0db'"});
    CHECK(s.handle("TURN 15\r,0") == std::vector<std::string>{"ERROR TURN 15\\x0d,0: off the 15x15 board (x and y from 0 to 14)"});
    CHECK(s.handle(std::string("FR\0B\x1b[2J", 8)) == std::vector<std::string>{"UNKNOWN 'FR\\x00B\\x1b[2J' is not a command of the Gomocup protocol that gounki knows"});
    // A line of a megabyte is named by its start: the answer is not a megabyte long.
    const auto huge = s.handle("TURN " + std::string(1 << 20, '7'));
    REQUIRE(huge.size() == 1);
    CHECK(huge[0] == "ERROR TURN: expected x,y, got '" + std::string(200, '7') + "...'");
    REQUIRE(s.handle("BOARD").empty());
    REQUIRE(s.handle(std::string(1 << 20, ',')).empty());
    const auto board_error = s.handle("DONE");
    REQUIRE(board_error.size() == 1);
    CHECK(board_error[0] == "ERROR BOARD line 1 '" + std::string(200, ',') + "...': expected x,y,who");
    // Every answer: one line of printable text.
    for (const auto& line : {huge[0], board_error[0]})
        CHECK(std::all_of(line.begin(), line.end(), [](char c) { return c >= 0x20 && c < 0x7f; }));
}

TEST_CASE("pbrain: the built binary answers on standard output", "[pbrain][cli]") {
    const auto run = run_shell("printf 'START 15\\nBEGIN\\nTURN 7,7\\nEND\\n' | " + gounki_command() + " pbrain");
    CHECK(run.status == 0);
    CHECK(run.out == "OK\n7,7\nERROR TURN 7,7: the point is occupied\n");
    const auto twenty = run_shell("printf 'START 20\\r\\nABOUT\\r\\nBEGIN\\r\\nEND\\r\\n' | " + gounki_command() + " pbrain");
    CHECK(twenty.status == 0);
    CHECK(twenty.out ==
          "OK\nname=\"gounki\", version=\"" GOUNKI_TEST_VERSION
          "\", author=\"the gounki authors\", country=\"unknown\", captures=\"ninuki,pente\"\n10,10\n");
}

TEST_CASE("pbrain: lines made of the protocol's words and junk never crash it", "[pbrain]") {
    const std::vector<std::string> words{"START",    "RECTSTART",
                                         "RESTART",  "BEGIN",
                                         "TURN",     "BOARD",
                                         "DONE",     "INFO",
                                         "TAKEBACK", "PLAY",
                                         "ABOUT",    "SWAP2BOARD",
                                         "rule",     "time_left",
                                         "1",        "2",
                                         "3",        "-1",
                                         "15",       "20",
                                         "7,7",      "0,0,1",
                                         "19,19",    ",",
                                         ",,",       "99999999999999999999",
                                         "\t",       "x",
                                         "\xff"};
    const std::vector<std::string> prefixes{"OK", "ERROR ", "UNKNOWN ", "MESSAGE ", "name="};
    PbrainSession s;
    REQUIRE(s.handle("INFO timeout_turn 20").empty()); // searches of a millisecond or so
    std::uint32_t seed = 12345;
    const auto next = [&seed](std::size_t n) {
        seed = seed * 1664525u + 1013904223u;
        return std::size_t(seed >> 8) % n;
    };
    for (int i = 0; i < 3000; ++i) {
        std::string line;
        const std::size_t parts = 1 + next(3);
        for (std::size_t k = 0; k < parts; ++k) line += (k ? (next(2) ? " " : ",") : "") + words[next(words.size())];
        for (const auto& answer : s.handle(line)) {
            const bool move = !answer.empty() && std::isdigit(static_cast<unsigned char>(answer[0]));
            const bool known = move ||
                std::any_of(prefixes.begin(), prefixes.end(), [&](const std::string& p) { return answer.rfind(p, 0) == 0; });
            INFO(line << " -> " << answer);
            CHECK(known);
        }
    }
    CHECK(!s.ended());
}

TEST_CASE("pbrain: two brains play a whole game through the protocol", "[pbrain]") {
    PbrainSession first, second;
    for (PbrainSession* s : {&first, &second}) {
        REQUIRE(s->handle("START 15").at(0) == "OK");
        REQUIRE(s->handle("INFO rule 1").empty());
        REQUIRE(s->handle("INFO timeout_turn 40").empty());
    }
    std::set<std::pair<int, int>> stones[2];
    std::string move = move_of(first, "BEGIN");
    int side = 0;
    for (int ply = 0; ply < 225; ++ply) {
        const auto xy = xy_of(move);
        REQUIRE(!stones[0].count(xy));
        REQUIRE(!stones[1].count(xy));
        stones[side].insert(xy);
        if (has_five(stones[side])) break;
        side ^= 1;
        const auto a = answers((side ? second : first).handle("TURN " + move));
        REQUIRE(a.size() == 1);
        if (starts_with(a[0], "ERROR the game is over")) break; // an overline does not win: the board filled up
        move = a[0];
    }
    CHECK(stones[0].size() + stones[1].size() >= 9); // no five before the ninth stone
}

TEST_CASE("brain client: MESSAGE lines are read leniently", "[pbrain]") {
    using gounki::protocol::parse_brain_message;
    namespace a = gounki::analysis;
    const auto ours = parse_brain_message("depth 7 seldepth 9 eval -35 nodes 1000 time 12 pv 7,7 8,8");
    REQUIRE(ours);
    CHECK(ours->depth == 7);
    CHECK(ours->eval == -35);
    CHECK(ours->pv == std::vector<std::pair<int, int>>{{7, 7}, {8, 8}});
    CHECK(parse_brain_message("depth 12 eval win5 pv 1,2")->eval == a::win_at(5));
    CHECK(parse_brain_message("depth 12 eval loss4")->eval == a::loss_at(4));
    const auto pipes = parse_brain_message("Depth 12-20 | Eval +M9 | Time 1234ms");
    REQUIRE(pipes);
    CHECK(pipes->depth == 12);
    CHECK(pipes->eval == a::win_at(9));
    CHECK(parse_brain_message("depth 9 ev -M4 n 12345")->eval == a::loss_at(4));
    CHECK(parse_brain_message("depth=3 score=250")->eval == 250);
    CHECK(parse_brain_message("eval 99999999")->eval == a::score_heuristic_max); // heuristic stays heuristic
    // Beyond an int's range too; and a proven result nearer than can be reads as the nearest that can.
    CHECK(parse_brain_message("eval 99999999999")->eval == a::score_heuristic_max);
    CHECK(parse_brain_message("eval -99999999999999999999999")->eval == -a::score_heuristic_max);
    CHECK(parse_brain_message("eval loss0")->eval == a::loss_at(2));
    CHECK(parse_brain_message("eval -M0")->eval == a::loss_at(2));
    CHECK(a::win_in(*parse_brain_message("eval loss0")->eval) == -2);
    CHECK(parse_brain_message("eval win0")->eval == a::win_at(1));
    CHECK(!parse_brain_message("eval 12abc"));
    CHECK(parse_brain_message("depth 4")->eval == std::nullopt);
    CHECK(!parse_brain_message("thinking hard about 7,7"));
    CHECK(!parse_brain_message("eval nonsense"));
}

TEST_CASE("brain client: BEGIN and TURN keep the game in the brain", "[pbrain]") {
    using namespace gounki;
    protocol::BrainSettings settings;
    settings.command = gounki_command() + " pbrain";
    settings.turn_ms = 20000;
    settings.max_node = 2000;
    protocol::BrainClient brain(settings);
    CHECK(brain.name().rfind("gounki ", 0) == 0);
    CHECK(brain.about().rfind("name=\"gounki\"", 0) == 0);
    stones::StonePosition pos(stones::Rules::defaults(GameKind::gomoku));
    brain.new_game(pos.rules());
    const protocol::BrainAnswer first = brain.begin(pos);
    CHECK(first.point == stones::point_from_top_left(7, 7, 15)); // gounki pbrain opens in the centre
    stones::StoneUndo u;
    pos.play(Move::placement(first.point), u);
    const int reply = stones::point_from_top_left(8, 8, 15);
    pos.play(Move::placement(reply), u);
    const protocol::BrainAnswer second = brain.turn(pos, reply);
    CHECK(pos.is_legal(Move::placement(second.point)));
    CHECK(second.eval.has_value()); // from its MESSAGE lines
    CHECK(second.depth > 0);
    CHECK(!second.messages.empty());
}

TEST_CASE("pbrain: INFO captures plays Ninuki and Pente: pairs taken off, ten stones win, TAKEBACK puts them back", "[pbrain]") {
    PbrainSession s;
    REQUIRE(s.handle("START 19").at(0) == "OK");
    REQUIRE(s.handle("INFO timeout_turn 200").empty());
    REQUIRE(s.handle("INFO captures ninuki").empty());
    SECTION("the brain takes the pair that makes its tenth and eleventh stones, and the game is over") {
        REQUIRE(s.handle("INFO captured_by_brain 8").empty());
        // The brain (1) at 9,9 can close 9,9 X X 9,12 on the opponent's pair; its other stones far apart.
        const auto win = board(s, {"9,9,1", "9,10,2", "9,11,2", "0,0,1", "4,0,1", "8,0,1", "12,0,1", "16,0,1", "0,4,1",
                                   "0,8,1", "0,12,1"});
        CHECK(win == std::vector<std::string>{"9,12"});
        CHECK(s.handle("TURN 18,18") == std::vector<std::string>{"ERROR TURN 18,18: the game is already over"});
        // Taken back, the pair is there again and the game goes on.
        CHECK(s.handle("TAKEBACK 9,12") == std::vector<std::string>{"OK"});
        CHECK(s.handle("TURN 9,10") == std::vector<std::string>{"ERROR TURN 9,10: the point is occupied"});
    }
    SECTION("the opponent's capture empties the brain's points, and only the last stone can be taken back") {
        REQUIRE(s.handle("INFO captured_by_brain 0").empty());
        // Two of the brain's pairs are threatened (9,12 and 5,8 would take them); it can save one.
        const auto first = board(s, {"9,9,2", "9,10,1", "9,11,1", "5,5,2", "5,6,1", "5,7,1", "0,18,2", "18,0,2"});
        REQUIRE(first.size() == 1);
        const bool top = first[0] != "9,12";
        const std::string take = top ? "9,12" : "5,8", pair_point = top ? "9,10" : "5,6";
        const std::string reply = move_of(s, "TURN " + take); // takes the pair
        REQUIRE(!starts_with(reply, "ERROR"));
        CHECK(starts_with(s.handle("TAKEBACK " + take).at(0), "ERROR TAKEBACK " + take + ": in a game with captures only the last stone"));
        CHECK(s.handle("TAKEBACK " + reply) == std::vector<std::string>{"OK"});
        CHECK(s.handle("TAKEBACK " + take) == std::vector<std::string>{"OK"}); // the pair comes back
        CHECK(s.handle("TURN " + pair_point) == std::vector<std::string>{"ERROR TURN " + pair_point + ": the point is occupied"});
        const std::string again = move_of(s, "TURN " + take); // taken once more: its points are free now
        REQUIRE(!starts_with(again, "ERROR"));
        CHECK(s.handle("TAKEBACK " + again) == std::vector<std::string>{"OK"});
        CHECK(!starts_with(move_of(s, "TURN " + pair_point), "ERROR"));
    }
    SECTION("Pente: White opens on the centre; its rule words are read") {
        REQUIRE(s.handle("INFO captures pente").empty());
        CHECK(move_of(s, "BEGIN") == "9,9");
        REQUIRE(s.handle("INFO captures pente,no-tournament-rule").empty());
        REQUIRE(s.handle("RESTART").at(0) == "OK");
        CHECK(move_of(s, "BEGIN") == "9,9");
    }
    SECTION("bad values and rules that do not go with captures are ERROR when a move is asked for") {
        REQUIRE(s.handle("INFO captures gomoku").empty());
        CHECK(starts_with(move_of(s, "BEGIN"), "ERROR BEGIN: INFO captures 'gomoku': expected none or a game with captures"));
        REQUIRE(s.handle("INFO captures ninuki,bogus").empty());
        CHECK(starts_with(move_of(s, "BEGIN"), "ERROR BEGIN: INFO captures 'ninuki,bogus': "));
        REQUIRE(s.handle("INFO captures ninuki").empty());
        REQUIRE(s.handle("INFO rule 4").empty());
        CHECK(starts_with(move_of(s, "BEGIN"), "ERROR BEGIN: INFO rule 4 does not go with INFO captures Ninuki"));
        REQUIRE(s.handle("INFO rule 0").empty());
        REQUIRE(s.handle("INFO captures pente").empty());
        REQUIRE(s.handle("START 15").at(0) == "OK");
        CHECK(move_of(s, "BEGIN") == "ERROR BEGIN: Pente is played on 19, not on the 15x15 board (x and y from 0 to 14)");
        CHECK(s.handle("INFO captured_by_brain -1").empty());
        REQUIRE(s.handle("INFO captures none").empty());
        const auto again = s.handle("BEGIN"); // Gomoku again, after the MESSAGE about the value passed over
        CHECK(again == std::vector<std::string>{"MESSAGE INFO captured_by_brain '-1' passed over: expected a number of stones", "7,7"});
    }
}

// gounki match refuses before any game is played: a time per move that is no positive number of
// milliseconds (for either player, with --engine too), a setting whose value is no whole number:
// with --engine B's prover settings (--b-eval, zero or more), else the Gounki engine's weights.
TEST_CASE("match: a time per move that is no positive number, a setting that is no number", "[pbrain][cli]") {
    for (const char* bad : {"--b-time 0", "--b-time=-5", "--b-time 1.5", "--b-time soon"})
        check_error("match --games 2 " + std::string(bad), 2, "--b-time must be a positive number of milliseconds");
    check_error("match --games 2 --a-time 12ms", 2, "--a-time must be a positive number of milliseconds");
    check_error("match --games 2 --a-eval piece=heavy", 2, "expected name=number, got 'piece=heavy'");
    check_error("match --games 2 --b-eval advance=0:12:x", 2, "expected advance=number:number:..., got 'advance=0:12:x'");
    const std::string engine = "match --engine " + shell_quoted(gounki_command() + " pbrain") + " --games 2 ";
    check_error(engine + "--b-time 0", 2, "--b-time must be a positive number of milliseconds");
    for (const std::string setting : {"vcf_plies=", "vcf_plies=deep", "vct_nodes=-5", "threat_penalty=3.5", "vct_plies=4x"})
        check_error(engine + "--b-eval " + setting, 2, "expected name=number, got '" + setting + "'");
    // A good setting beside a bad one is refused all the same, and nothing is played.
    const CliRun both = run_gounki(engine + "--b-eval vcf_plies=5,vct_nodes=many");
    CHECK(both.status == 2);
    CHECK(both.out.empty());
    CHECK(contains(both.err, "expected name=number, got 'vct_nodes=many'"));
}
