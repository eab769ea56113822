// gounki uci: the UCI-style protocol of protocol/uci.hpp, driven line by line and through streams,
// and once through the built binary.
#include <algorithm>
#include <chrono>
#include <mutex>
#include <sstream>
#include <thread>
#include <string>
#include <utility>
#include <vector>

#include "analysis/tt.hpp"
#include "core/gounki/notation.hpp"
#include "protocol/uci.hpp"
#include "tests/catch.hpp"
#include "tests/support.hpp"

using gounki::Position;
using gounki::protocol::UciClock;
using gounki::protocol::UciSession;
using namespace gounki::test;

namespace {

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// The canonical texts of the legal moves of `pos`.
std::vector<std::string> legal_texts(const Position& pos) {
    gounki::MoveList list;
    gounki::generate_moves(pos, list);
    std::vector<std::string> out;
    for (const gounki::Move m : list) out.push_back(gounki::move_to_text(pos, m));
    return out;
}

// The number after `key` in an info line (-1 when absent).
long long field(const std::string& line, const std::string& key) {
    std::istringstream in(line);
    std::string word;
    while (in >> word)
        if (word == key && in >> word) return std::stoll(word);
    return -1;
}

// The lines without their timing (" nps N time MS"), which vary between runs.
std::vector<std::string> untimed(std::vector<std::string> lines) {
    for (auto& l : lines) {
        const auto from = l.find(" nps ");
        const auto to = l.find(" pv ");
        if (from != std::string::npos && to != std::string::npos) l.erase(from, to - from);
    }
    return lines;
}

// The one error line of a command, and that it says `what`.
void require_error(UciSession& s, const std::string& line, const std::string& what) {
    const auto out = s.handle(line);
    INFO(line);
    REQUIRE(out.size() == 1);
    CHECK(starts_with(out[0], "info string error: "));
    CHECK(out[0].find(what) != std::string::npos);
}

} // namespace

TEST_CASE("uci: handshake, isready, options", "[uci]") {
    gounki::protocol::EngineOptions options;
    options.version = "9.9";
    UciSession s(options);
    const auto hello = s.handle("uci");
    REQUIRE(hello.size() == 4);
    CHECK(hello[0] == "id name gounki 9.9");
    CHECK(starts_with(hello[1], "id author "));
    CHECK(hello[2] == "option name Hash type spin default 16 min 1 max 65536");
    CHECK(hello[3] == "uciok");
    CHECK(s.handle("isready\r") == std::vector<std::string>{"readyok"});
    CHECK(s.handle("setoption name Hash value 4").empty());
    CHECK(s.handle("").empty());
    CHECK(s.handle("ucinewgame").empty());
    CHECK(s.handle("stop").empty());
    CHECK_FALSE(s.ended());
    CHECK(s.handle("quit").empty());
    CHECK(s.ended());
}

TEST_CASE("uci: position startpos moves, then go depth 3 gives a legal bestmove", "[uci]") {
    UciSession s;
    REQUIRE(s.handle("position startpos moves c2-d3 b7-c6").empty());
    Position expected = Position::start();
    for (const char* text : {"c2-d3", "b7-c6"}) {
        const auto r = gounki::resolve_move_text(expected, text);
        REQUIRE(r.move != gounki::Move::none());
        gounki::UndoRecord undo;
        expected.do_move(r.move, undo);
    }
    REQUIRE(s.position().to_text() == expected.to_text());

    const auto out = s.handle("go depth 3");
    REQUIRE(out.size() == 4);
    for (int d = 1; d <= 3; ++d) {
        const std::string& info = out[std::size_t(d - 1)];
        INFO(info);
        CHECK(starts_with(info, "info depth " + std::to_string(d) + " seldepth "));
        CHECK(info.find(" score cp ") != std::string::npos);
        CHECK(field(info, "nodes") > 0);
        CHECK(field(info, "nps") >= 0);
        CHECK(field(info, "time") >= 0);
        CHECK(info.find(" pv ") != std::string::npos);
    }
    CHECK(field(out[1], "nodes") > field(out[0], "nodes"));
    REQUIRE(starts_with(out[3], "bestmove "));
    const std::string best = out[3].substr(9);
    const auto legal = legal_texts(expected);
    CHECK(std::find(legal.begin(), legal.end(), best) != legal.end());
    // The best move opens the last iteration's principal variation.
    CHECK(out[2].find(" pv " + best) != std::string::npos);
    // A node limit, and the same search again: deterministic.
    const auto nodes = s.handle("go nodes 500");
    REQUIRE(!nodes.empty());
    CHECK(starts_with(nodes.back(), "bestmove "));
    CHECK(untimed(s.handle("go depth 3")) == untimed(out));
}

TEST_CASE("uci: position fen with a forced win gives a mate score and the winning move", "[uci]") {
    UciSession s;
    // White (a double round on c3) gets a piece off the board past Black's last row in its third move
    // (README "gounki best" shows the same win).
    REQUIRE(s.handle("position fen 4s3/8/8/8/8/2(RR)5/8/7S w").empty());
    const auto out = s.handle("go depth 6");
    REQUIRE(out.size() >= 2);
    CHECK(out.back() == "bestmove c3-a5");
    const std::string& last = out[out.size() - 2];
    INFO(last);
    CHECK(last.find(" score mate 3 ") != std::string::npos);
    CHECK(last.find(" pv c3-a5 e8-e7 a5-c7 e7-e6 c7-Out") != std::string::npos);

    // The losing side sees a negative mate; a finished game has no move.
    REQUIRE(s.handle("position fen 4s3/8/8/8/8/2(RR)5/8/7S w moves c3-a5").empty());
    const auto lost = s.handle("go depth 6");
    REQUIRE(lost.size() >= 2);
    CHECK(lost[lost.size() - 2].find(" score mate -2 ") != std::string::npos);
    REQUIRE(s.handle("position fen 4s3/8/8/8/8/2(RR)5/8/7S w moves c3-a5 e8-e7 a5-c7 e7-e6 c7-Out").empty());
    CHECK(s.position().game_over());
    CHECK(s.handle("go depth 2") == std::vector<std::string>{"info string the game is over", "bestmove (none)"});
}

TEST_CASE("uci: bad input is answered with an error and keeps the position", "[uci]") {
    UciSession s;
    REQUIRE(s.handle("position startpos moves c2-d3").empty());
    const std::string good = s.position().to_text();
    // Each bad line, and what its error says.
    const std::pair<std::string, std::string> bad_lines[] = {
        {"position startpos moves c2-d3 b7-c6 d3-d9", "move 3 'd3-d9'"},
        {"position startpos moves b7-c6", "move 1 'b7-c6'"}, // Black's piece, White to move
        {"position fen 9/8/8/8/8/8/8/8 w", "position fen '9/8/8/8/8/8/8/8 w': bad position at character 1: "},
        {"position fen", "expected a position text"},
        {"position", "expected startpos or fen, got nothing"},
        {"position moves c2-d3", "expected startpos or fen"},
        {"position startpos c2-d3", "unexpected 'c2-d3'"},
        {"hello world", "unknown command 'hello'"},
        {"\xff\xfe\x01garbage", "unknown command '\\xff\\xfe\\x01garbage'"},
        // UTF-8 text is shown as it is; a C1 control character (NEL) and a truncated sequence are not.
        {"caf\xc3\xa9", "unknown command 'caf\xc3\xa9'"},
        {"a\xc2\x85\xe2\x82", "unknown command 'a\\xc2\\x85\\xe2\\x82'"},
        // A word of a megabyte is named by its start: the answer is not a megabyte long.
        {"bogus" + std::string(1 << 20, 'x'), "unknown command 'bogus" + std::string(195, 'x') + "...' (expected uci,"},
        {"go depth", "go depth: expected a whole number"},
        {"go depth -3", "got '-3'"},
        // 0 is no limit to the search: not taken for one (the default budget would be searched).
        {"go depth 0", "go depth: expected a whole number from 1 to 2147483647, got '0'"},
        {"go nodes 0", "go nodes: expected a whole number from 1 to"},
        {"go movetime 0", "go movetime: expected a whole number from 1 to"},
        {"go sideways 3", "unknown word 'sideways'"},
        {"go ponder", "'ponder' is not supported"},
        {"go infinite depth 3", "go infinite: no depth"},
        {"setoption name Threads value 2", "unknown option 'Threads'"},
        {"setoption name Hash value 0", "from 1 to 65536"},
        {"isready now", "isready: unexpected 'now'"},
    };
    for (const auto& [line, error] : bad_lines) require_error(s, line, error);
    CHECK(s.position().to_text() == good);
    // Still playing after all that.
    const auto out = s.handle("go depth 1");
    REQUIRE(!out.empty());
    CHECK(starts_with(out.back(), "bestmove "));
}

TEST_CASE("uci: the move time of a clock", "[uci]") {
    UciClock clock;
    clock.time_left = 60'000;
    CHECK(gounki::protocol::uci_move_time(clock) == 2'700); // 3000 less a tenth
    clock.increment = 1'000;
    CHECK(gounki::protocol::uci_move_time(clock) == 3'150);
    clock.moves_to_go = 1;
    CHECK(gounki::protocol::uci_move_time(clock) == 54'000); // never more than what is left
    clock = {};
    clock.time_left = 10;
    CHECK(gounki::protocol::uci_move_time(clock) == 1);
}

TEST_CASE("uci: run_uci on streams: a script runs in order, and quit ends a search with its bestmove", "[uci]") {
    // position and go after a go wait for its bestmove; the last search still answers at the end.
    std::istringstream in("uci\nisready\nposition startpos\ngo depth 2\nposition startpos moves c2-d3\ngo depth 1\n");
    std::ostringstream out;
    gounki::protocol::run_uci(in, out);
    const std::string text = out.str();
    CHECK(text.find("uciok\nreadyok\ninfo depth 1 ") != std::string::npos);
    const auto first = text.find("\ninfo depth 2 "), best = text.find("\nbestmove "), second = text.rfind("\nbestmove ");
    CHECK(first != std::string::npos);
    CHECK(best > first);
    CHECK(second > best); // two answers, in order
    CHECK(text.find("error") == std::string::npos);

    std::istringstream endless("position startpos\ngo infinite\nquit\nisready\n");
    std::ostringstream quitted;
    gounki::protocol::run_uci(endless, quitted);
    CHECK(count_of(quitted.str(), "bestmove ") == 1);
    CHECK(quitted.str().find("readyok") == std::string::npos); // nothing read after quit
}

namespace {

// What a session says from its search thread, gathered under a lock.
struct Heard {
    std::mutex m;
    std::vector<std::string> lines;
    const UciSession::Sink sink = [this](std::string_view l) {
        const std::lock_guard lock(m);
        lines.emplace_back(l);
    };
    std::vector<std::string> all() {
        const std::lock_guard lock(m);
        return lines;
    }
    // How many of the lines heard start with `prefix`.
    std::ptrdiff_t seen(const std::string& prefix) {
        const std::vector<std::string> heard = all();
        return std::count_if(heard.begin(), heard.end(), [&](const std::string& l) { return starts_with(l, prefix); });
    }
};

} // namespace

TEST_CASE("uci: go searches on its own thread: isready at once, stop ends go infinite with its bestmove", "[uci]") {
    UciSession s;
    Heard heard;
    const UciSession::Sink& sink = heard.sink;
    const auto seen = [&](const std::string& prefix) { return heard.seen(prefix); };
    s.handle("position startpos", sink);
    s.handle("go infinite", sink);
    REQUIRE(s.searching());
    s.handle("isready", sink);
    CHECK(seen("readyok") == 1);
    // While it searches: the commands that would change what it searches are refused.
    for (const char* busy : {"position startpos moves c2-d3", "go depth 1", "ucinewgame", "setoption name Hash value 1"}) {
        s.handle(busy, sink);
        INFO(busy);
        CHECK(seen("info string error: " + std::string(busy).substr(0, std::string(busy).find(' '))) == 1);
    }
    // It has iterations to show, and no bestmove of its own accord.
    for (int i = 0; i < 2000 && seen("info depth 2 ") == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK(seen("info depth 2 ") == 1);
    CHECK(seen("bestmove") == 0);
    s.handle("stop", sink);
    CHECK(!s.searching());
    REQUIRE(seen("bestmove ") == 1);
    CHECK(has_move(Position::start(), heard.all().back().substr(9)));
    // A stop at once after go: still one legal bestmove, and the session goes on.
    s.handle("go infinite", sink);
    s.handle("stop", sink);
    CHECK(seen("bestmove ") == 2);
    s.handle("stop", sink); // nothing running: nothing said
    CHECK(seen("bestmove ") == 2);
    const auto again = s.handle("go depth 1");
    REQUIRE(!again.empty());
    CHECK(starts_with(again.back(), "bestmove "));
}

TEST_CASE("uci: a go during a search with limits is refused at once; the search goes on, stop and isready obeyed", "[uci]") {
    UciSession s;
    Heard heard;
    const UciSession::Sink& sink = heard.sink;
    const auto seen = [&](const std::string& prefix) { return heard.seen(prefix); };
    s.handle("position startpos", sink);
    // Limits far beyond what the next lines take: the search is still running when they come.
    s.handle("go nodes 3000000", sink);
    REQUIRE(s.searching());
    // Answered at once (waiting for the search would not return before its bestmove).
    s.handle("go depth 1", sink);
    CHECK(seen("info string error: go: a search is running") == 1);
    CHECK(seen("bestmove") == 0);
    CHECK(s.searching()); // the first search goes on
    s.handle("isready", sink);
    CHECK(seen("readyok") == 1);
    CHECK(seen("bestmove") == 0);
    s.handle("stop", sink);
    CHECK(!s.searching());
    REQUIRE(seen("bestmove ") == 1); // the first search's; the refused go has none
    CHECK(has_move(Position::start(), heard.all().back().substr(9)));
    // Nothing running: go searches again.
    const auto again = s.handle("go depth 1");
    REQUIRE(!again.empty());
    CHECK(starts_with(again.back(), "bestmove "));
    // quit during a search with limits ends it at once too, its bestmove given.
    s.handle("go nodes 3000000", sink);
    s.handle("go nodes 1", sink);
    CHECK(seen("info string error: go: a search is running") == 2);
    s.handle("quit", sink);
    CHECK(s.ended());
    CHECK(!s.searching());
    CHECK(seen("bestmove ") == 2);
}

TEST_CASE("uci: through the command line", "[uci]") {
    const auto run =
        run_shell("printf 'uci\\r\\nposition startpos moves c2-d3\\nbogus\\ngo depth 2\\n' | " + gounki_command() + " uci");
    INFO(run.out << run.err);
    CHECK(run.status == 0);
    CHECK(run.out.find("id name gounki " GOUNKI_TEST_VERSION "\n") == 0);
    CHECK(run.out.find("uciok\ninfo string error: unknown command 'bogus'") != std::string::npos);
    CHECK(run.out.find("info depth 2 ") != std::string::npos);
    CHECK(run.out.find("\nbestmove ") != std::string::npos);
    CHECK(run.err.empty());
    // --hash takes a size the engines can have, for uci and pbrain alike.
    for (const char* command : {"uci", "pbrain"})
        for (const char* bad : {"0", "65537", "big"}) {
            const CliRun refused = run_gounki_args({command, "--hash", bad});
            INFO(command << " --hash " << bad);
            CHECK(refused.status == 2);
            CHECK(contains(refused.err, "--hash must be a size in MiB from 1 to 65536"));
        }
    CHECK(run_shell("echo quit | " + gounki_command() + " uci --hash 1").status == 0);
}

TEST_CASE("uci: go infinite on a finished game answers bestmove (none) only after stop", "[uci]") {
    UciSession s;
    Heard heard;
    const UciSession::Sink& sink = heard.sink;
    s.handle("position fen 4s3/8/8/8/8/2(RR)5/8/7S w moves c3-a5 e8-e7 a5-c7 e7-e6 c7-Out", sink);
    REQUIRE(s.position().game_over());
    s.handle("go infinite", sink);
    CHECK(s.searching());
    s.handle("isready", sink);
    CHECK(heard.all() == std::vector<std::string>{"info string the game is over", "readyok"});
    s.handle("stop", sink);
    CHECK(!s.searching());
    const std::vector<std::string> stopped = heard.all();
    CHECK(stopped.back() == "bestmove (none)");
    CHECK(std::count(stopped.begin(), stopped.end(), "bestmove (none)") == 1);
    // With limits it answers at once, as before; quit ends a go infinite with its bestmove too.
    CHECK(s.handle("go depth 3") == std::vector<std::string>{"info string the game is over", "bestmove (none)"});
    s.handle("go infinite", sink);
    s.handle("quit", sink);
    const std::vector<std::string> quitted = heard.all();
    CHECK(std::count(quitted.begin(), quitted.end(), "bestmove (none)") == 2);
}

TEST_CASE("uci: a hash table the machine cannot hold is refused, never a crash", "[uci]") {
    const std::size_t most = gounki::analysis::max_table_megabytes();
    if (most >= 65536) return; // a machine with 128 GiB or more holds every size the option takes
    UciSession s;
    const auto refused = s.handle("setoption name Hash value 65536");
    REQUIRE(refused.size() == 1);
    CHECK(starts_with(refused[0], "info string error: setoption name Hash value 65536: more than this machine can hold (at most " +
                                      std::to_string(most) + " MiB"));
    const auto run = run_shell("printf 'uci\\nsetoption name Hash value 65536\\ngo depth 1\\n' | " + gounki_command() + " uci");
    INFO(run.out << run.err);
    CHECK(run.status == 0);
    CHECK(contains(run.out, "info string error: setoption name Hash value 65536: more than this machine can hold"));
    CHECK(contains(run.out, "\nbestmove "));
    // --hash, for uci, pbrain and best alike: refused with a usage error.
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"uci", "--hash", "65536"}, {"pbrain", "--hash", "65536"}, {"best", "--hash", "65536", "--depth", "1"}}) {
        const CliRun r = run_gounki_args(args);
        INFO(args[0]);
        CHECK(r.status == 2);
        CHECK(contains(r.err, "--hash 65536: more than this machine can hold (at most " + std::to_string(most) + " MiB"));
    }
    const auto brain = run_shell("printf 'START 15\\nBOARD\\n7,7,2\\nDONE\\n' | " + gounki_command() + " pbrain --hash 65536");
    CHECK(brain.status == 2);
}
