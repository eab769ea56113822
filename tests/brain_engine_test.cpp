// An external brain behind the commands (protocol/brain_client.hpp): `gounki analyze --engine`,
// `best --engine` and `match --engine`, with gounki pbrain as the brain and with fake brains that
// fail in every way a program can. The protocol itself: pbrain_test.cpp.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <thread>
#include <sstream>
#include <string>
#include <vector>

#include "db/analysis_store.hpp"
#include "protocol/brain_client.hpp"
#include "tests/catch.hpp"
#include "tests/support.hpp"

using namespace gounki::test;

namespace {

// A hand-written Gomoku game: White blocks Black's three at one end (g8), and when Black makes
// it a four (k8), White plays a1 instead of blocking at l8; Black completes the five.
constexpr const char* missed_block_game = R"([Game "Gomoku"]
[White "Wanda"]
[Black "Bert"]
[Result "0-1"]

1. h8 g8 2. i8 h9 3. j8 h10 4. k8 a1 5. l8 0-1
)";

// A database holding the game above as game 1.
std::string missed_block_db(const TempDir& dir) {
    const std::string db = dir.file("games.db");
    import_text(db, dir / "game.gpn", missed_block_game);
    return db;
}

// A fake brain: a shell script that answers ABOUT (after a greeting), START and RESTART and does
// `action` when asked for a move (BEGIN or the DONE of a BOARD), `$n` counting those requests from
// 1; `more` adds cases of its own (`PLAY*) ...;;`), tried first. Every line it reads is written to
// NAME.log in `dir`.
std::string fake_brain(const TempDir& dir, const std::string& name, const std::string& action, const std::string& more = "") {
    const std::string script = "n=0\n"
                               "while IFS= read -r line; do\n"
                               "  line=$(printf '%s' \"$line\" | tr -d '\\r')\n"
                               "  printf '%s\\n' \"$line\" >> " +
        shell_quoted(dir / (name + ".log")) +
        "\n"
        "  case \"$line\" in\n" +
        more +
        "    ABOUT) echo 'MESSAGE hello'; echo 'name=\"" + name +
        "\", version=\"1\"' ;;\n"
        "    START*|RESTART) echo OK ;;\n"
        "    END) exit 0 ;;\n"
        "    BEGIN|DONE) n=$((n+1)); " +
        action +
        " ;;\n"
        "  esac\n"
        "done\n";
    write_text(dir / (name + ".sh"), script);
    return "sh " + shell_quoted(dir / (name + ".sh"));
}

bool judged(const std::string& db, std::int64_t id) {
    gounki::db::GameDatabase database(db, gounki::db::Access::read_only);
    return gounki::db::AnalysisStore(database.sql()).load(id).has_value();
}

// `gounki analyze ID --engine BRAIN` fails (status 1) saying `message`, and game `id` stays unjudged.
void check_left_unjudged(const std::string& db, std::int64_t id, const std::string& brain, const std::string& message) {
    const auto run = run_gounki_args({"analyze", "--db", db, std::to_string(id), "--engine", brain});
    INFO(run.out << run.err);
    CHECK(run.status == 1);
    CHECK(contains(run.err, message));
    CHECK(!judged(db, id));
}

} // namespace

TEST_CASE("analyze --engine: gounki pbrain as the external brain names the missed block", "[pbrain]") {
    TempDir dir("engine");
    const std::string db = missed_block_db(dir);
    const std::string engine = gounki_command() + " pbrain";
    // A node budget (INFO max_node, which gounki pbrain reads): the same verdicts on every run.
    const std::vector<std::string> args{"analyze", "--db",           db,     "1",         "--engine", engine, "--engine-time",
                                        "20000",   "--engine-nodes", "5000", "--threads", "1"};
    const auto run = run_gounki_args(args);
    INFO(run.out << run.err);
    REQUIRE(run.status == 0);
    // The text names the ply, the move, the verdict and the engine's move.
    CHECK(contains(run.out, "ply 8 White a1: allows-loss (engine prefers l8)"));
    CHECK(contains(run.out, "engine settings: engine='gounki "));
    CHECK(contains(run.out, "command='" + engine + "' time=20000 nodes=5000"));

    gounki::db::GameDatabase database(db, gounki::db::Access::read_only);
    const auto stored = gounki::db::AnalysisStore(database.sql()).load(1);
    REQUIRE(stored);
    CHECK(stored->engine.rfind("gounki ", 0) == 0); // the name and version of its ABOUT
    REQUIRE(stored->judgement.plies.size() == 9);
    const auto& miss = stored->judgement.plies[7];
    CHECK(miss.scored);
    CHECK(miss.verdict == gounki::analysis::Verdict::allows_loss);
    CHECK(miss.best == gounki::Move::placement(gounki::stones::point_from_top_left(11, 7, 15))); // l8
    CHECK(gounki::analysis::is_proven_loss(miss.played_score));
    CHECK(stored->judgement.sides[gounki::index(gounki::Color::white)].counts[int(gounki::analysis::Verdict::allows_loss)] == 1);

    // The same settings again: nothing to do. A rerun in JSON prints the stored plies.
    std::vector<std::string> json = args;
    json.push_back("--json");
    const auto again = run_gounki_args(json);
    REQUIRE(again.status == 0);
    CHECK(contains(again.out, "\"skipped\":1"));
    CHECK(contains(again.out, "\"verdict\":\"allows-loss\""));
    CHECK(contains(again.out, "\"engine\":\"gounki "));
    // --force judges again, to the same verdicts (the node budget makes the brain deterministic).
    json.push_back("--force");
    const auto forced = run_gounki_args(json);
    REQUIRE(forced.status == 0);
    CHECK(contains(forced.out, "\"judged\":1"));
    const auto plies = [](const std::string& out) { return out.substr(0, out.find("{\"engine\"")); };
    CHECK(plies(forced.out) == plies(again.out));
    const auto show = run_gounki_args({"show", "--db", db, "1"});
    CHECK(contains(show.out, "; judged by engine 'gounki "));
}

TEST_CASE("best --engine: the external brain's move, evaluation and line", "[pbrain]") {
    const std::string engine = gounki_command() + " pbrain";
    // Black's open three h8-j8: White must block at g8 or k8.
    const std::string position = "Gomoku 15 15/15/15/15/15/15/8oo5/7xxx5/15/15/15/15/15/15/15 w";
    const auto run = run_gounki_args(
        {"best", "--position", position, "--engine", engine, "--engine-time", "20000", "--engine-nodes", "5000", "--json"});
    INFO(run.out << run.err);
    REQUIRE(run.status == 0);
    CHECK((contains(run.out, "\"move\":\"g8\"") || contains(run.out, "\"move\":\"k8\"")));
    CHECK(contains(run.out, "\"engine\":\"gounki "));
    CHECK(contains(run.out, "\"score\":")); // pbrain prints its evaluation
    CHECK(!contains(run.out, "\"score\":null"));
    const auto gounki_game = run_gounki_args({"best", "--engine", engine});
    CHECK(gounki_game.status == 2);
    CHECK(contains(gounki_game.err, "--engine takes a Gomoku or Renju position"));
}

TEST_CASE("analyze --engine: a brain without evaluations says which move it prefers, and grades nothing", "[pbrain]") {
    TempDir dir("engine");
    const std::string db = missed_block_db(dir);
    write_text(dir / "quiet.sh", gounki_command() + " pbrain | grep --line-buffered -v '^MESSAGE'\n");
    const auto run = run_gounki_args({"analyze", "--db", db, "1", "--engine", "sh " + shell_quoted(dir / "quiet.sh"),
                                      "--engine-time", "300", "--threads", "1"});
    INFO(run.out << run.err);
    REQUIRE(run.status == 0);
    CHECK(contains(run.out, "ply 8 White a1: engine prefers l8 (no evaluation to grade the move with)"));
    CHECK(!contains(run.out, "allows-loss ("));
    gounki::db::GameDatabase database(db, gounki::db::Access::read_only);
    const auto stored = gounki::db::AnalysisStore(database.sql()).load(1);
    REQUIRE(stored);
    for (const auto& p : stored->judgement.plies) {
        CHECK(!p.scored);
        CHECK(p.verdict == gounki::analysis::Verdict::best);
    }
    CHECK(stored->judgement.sides[0].moves == 0);
    CHECK(stored->judgement.sides[1].moves == 0);
    // Stored as such: a rerun prints the stored plies, ungraded.
    const auto again = run_gounki_args(
        {"analyze", "--db", db, "1", "--engine", "sh " + shell_quoted(dir / "quiet.sh"), "--engine-time", "300", "--json"});
    REQUIRE(again.status == 0);
    CHECK(contains(again.out, "\"skipped\":1"));
    CHECK(contains(again.out, "\"best\":\"l8\",\"best_score\":null"));
    CHECK(contains(again.out, "\"verdict\":\"engine-prefers\""));
    CHECK(count_of(again.out, "\"graded\":false") == 9);
    // The text says no move was graded (no accuracy of 100%), and show --json (the web pages' view
    // too) gives no scores for them.
    CHECK(contains(run.out, "game 1: White no move graded, 0 inaccuracies"));
    CHECK(!contains(run.out, "accuracy 100.0%"));
    const auto show = run_gounki_args({"show", "--db", db, "1", "--json"});
    REQUIRE(show.status == 0);
    CHECK(contains(show.out, "\"best\":\"l8\",\"best_score\":null"));
    CHECK(count_of(show.out, "\"graded\":false") == 9);
    CHECK(contains(show.out, "\"verdict\":\"engine-prefers\""));
    CHECK(contains(show.out, "\"accuracy\":null"));
}

TEST_CASE("report: a game an external brain judged without evaluations shows which move it prefers, graded nowhere", "[pbrain]") {
    TempDir dir("engine");
    const std::string db = missed_block_db(dir);
    // A brain that answers l8 (11,7) to every position and prints no evaluation.
    const auto run = run_gounki_args(
        {"analyze", "--db", db, "1", "--engine", fake_brain(dir, "mute", "echo 11,7"), "--engine-time", "6000", "--threads", "1"});
    INFO(run.out << run.err);
    REQUIRE(run.status == 0);
    CHECK(contains(run.out, "ply 8 White a1: engine prefers l8 (no evaluation to grade the move with)"));

    const auto md = run_gounki_args({"report", "--db", db, "1", "--format", "md", "-o", "-"});
    INFO(md.out << md.err);
    REQUIRE(md.status == 0);
    // No move graded: none counted on either side, no accuracy.
    CHECK(contains(md.out, "| Bert | Black | 0 | 0 | 0 | 0 | 0 | 0 | \u2013 |"));
    CHECK(contains(md.out, "| Wanda | White | 0 | 0 | 0 | 0 | 0 | 0 | \u2013 |"));
    CHECK(contains(md.out, "9 moves not graded: the engine gave no evaluation to grade them with."));

    const auto gpn = run_gounki_args({"report", "--db", db, "1", "--format", "gpn", "-o", "-"});
    INFO(gpn.out << gpn.err);
    REQUIRE(gpn.status == 0);
    CHECK(!contains(gpn.out, "->"));
    CHECK(count_of(gpn.out, "{Engine prefers l8 (no evaluation to grade the move with).}") == 8);
    CHECK(count_of(gpn.out, "{Engine's move (no evaluation to grade the move with).}") == 1); // l8 itself

    const auto html = run_gounki_args({"report", "--db", db, "1", "--format", "html", "-o", "-"});
    INFO(html.err);
    REQUIRE(html.status == 0);
    CHECK(!contains(html.out, "-&gt;"));
    CHECK(contains(html.out, "title=\"Engine prefers l8 (no evaluation to grade the move with).\""));
    CHECK(!contains(html.out, "\"eval\":")); // the viewer shows no score
    CHECK(!contains(html.out, "<svg class=\"graph\"")); // nor a graph of expected results never given
}

TEST_CASE("analyze --engine: a played move the brain scores above its own move is the best move", "[pbrain]") {
    TempDir dir("engine");
    const std::string db = missed_block_db(dir);
    // The brain answers l8 everywhere and calls every position bad for its side to move (-50): a
    // move other than l8 leaves the opponent at -50, so it scores +50, above the brain's own move.
    const auto run = run_gounki_args({"analyze", "--db", db, "1", "--engine",
                                      fake_brain(dir, "gloomy", "echo 'MESSAGE depth 3 eval -50'; echo 11,7"), "--engine-time",
                                      "6000", "--threads", "1"});
    INFO(run.out << run.err);
    REQUIRE(run.status == 0);
    CHECK(!contains(run.out, "engine prefers"));
    gounki::db::GameDatabase database(db, gounki::db::Access::read_only);
    const auto stored = gounki::db::AnalysisStore(database.sql()).load(1);
    REQUIRE(stored);
    REQUIRE(stored->judgement.plies.size() == 9);
    for (const auto& p : stored->judgement.plies) {
        INFO("ply " << p.ply + 1);
        CHECK(p.scored);
        CHECK(p.best_score >= p.played_score); // a best move never scores below the move played
        CHECK(p.best == p.played); // each move played scores at least as well as the brain's
        CHECK(p.verdict == gounki::analysis::Verdict::best);
    }
    const auto& a1 = stored->judgement.plies[7];
    CHECK(a1.best_score == a1.played_score);
    CHECK(a1.played_score > 0);
    REQUIRE(a1.pv.size() == 1);
    CHECK(a1.pv[0] == a1.played);
    CHECK(stored->judgement.sides[0].accuracy == 100.0);
    CHECK(stored->judgement.sides[1].accuracy == 100.0);
}

TEST_CASE("analyze --engine: a brain that fails is killed, named, and leaves the game unjudged", "[pbrain]") {
    TempDir dir("engine");
    const std::string db = missed_block_db(dir);
    struct Case {
        std::string name, action, error;
        std::string time = "50"; // --engine-time: the hang waits that and the grace
        std::string more = ""; // fake_brain's cases of its own
    };
    const std::vector<Case> cases{
        {"hang", "sleep 600 & echo $! > " + shell_quoted(dir / "sleep.pid") + "; wait",
         "engine 'hang 1' hung: no answer within 1050 ms while gounki waited for a move after BEGIN "
         "(the position before ply 1)"},
        {"crash", "if [ $n -ge 3 ]; then exit 3; fi; echo \"$n,0\"",
         "engine 'crash 1' stopped (exited with status 3) while gounki waited for a move after BOARD (the position after ply 2)"},
        {"garbage", "echo 'let me think'",
         "engine 'garbage 1' answered 'let me think' to BEGIN (expected a move x,y) (the position before ply 1)"},
        {"occupied", "echo 'MESSAGE depth 1 eval 0'; echo 7,7",
         "engine 'occupied 1' answered '7,7' to BOARD: not a legal move (the point is occupied) (the position after ply 1)"},
        {"offboard", "echo 15,3",
         "engine 'offboard 1' answered '15,3' to BEGIN: off the 15x15 board (the position before ply 1)"},
        {"segv", "kill -SEGV $$",
         "engine 'segv 1' stopped (killed by signal 11 (Segmentation fault)) while gounki waited for a move after BEGIN (the "
         "position before ply 1)"},
        {"endless", "head -c 1100000 /dev/zero | tr '\\0' x", // no line end: refused after a megabyte
         "engine 'endless 1' answered '" + std::string(80, 'x') +
             "...' to BEGIN (expected a move x,y) (the position before ply 1)",
         "10000"}, // a megabyte written and read on a busy machine: never taken for a hang
        // A move without its line end (a brain's usual slip) is named in the failure.
        {"unended", "printf '7,7'",
         "engine 'unended 1' hung: no answer within 1050 ms while gounki waited for a move after BEGIN (it wrote '7,7' "
         "with no line end after it) (the position before ply 1)"},
        // Control bytes and bytes that are not UTF-8 are written \xNN in the message (never sent to
        // the terminal, nor stored with a worker's failed job, as they came); UTF-8 text stays.
        {"binary", "printf '\\033[2J\\377 caf\\303\\251\\n'",
         "engine 'binary 1' answered '\\x1b[2J\\xff caf\xc3\xa9' to BEGIN (expected a move x,y) (the position before ply 1)"},
        {"refuses", "echo 'ERROR out of memory'",
         "engine 'refuses 1' refused BEGIN: 'ERROR out of memory' (the position before ply 1)"},
        // PLAY x,y is answered with x,y (the protocol); another point is not the move it suggested.
        {"resuggests", "echo 'SUGGEST 3,3'", "engine 'resuggests 1' answered '4,4' to PLAY 3,3: not the point it was told to play "
         "(the position before ply 1)", "1000", "    PLAY*) echo 4,4 ;;\n"},
    };
    for (const Case& c : cases) {
        const auto run = run_gounki_args(
            {"analyze", "--db", db, "1", "--engine", fake_brain(dir, c.name, c.action, c.more), "--engine-time", c.time, "--threads", "1"});
        INFO(c.name << ": " << run.out << run.err);
        CHECK(run.status == 1);
        CHECK(contains(run.err, "gounki analyze: game 1: " + c.error + "; the game is left unjudged"));
        CHECK(contains(run.out, "1 game left unjudged"));
        CHECK(!judged(db, 1));
    }
    // The hung brain's process group was killed: its sleep is gone (or a zombie waiting for init).
    const std::string sleeper = slurp(dir / "sleep.pid");
    REQUIRE(!sleeper.empty());
    const std::string stat = slurp("/proc/" + sleeper.substr(0, sleeper.find('\n')) + "/stat");
    CHECK((stat.empty() || contains(stat, ") Z ")));

    // A command that does not run fails before any game.
    const auto missing = run_gounki_args({"analyze", "--db", db, "1", "--engine", dir.file("no-such-brain")});
    CHECK(missing.status == 1);
    CHECK(contains(missing.err,
                   "gounki analyze: cannot use the engine: engine '" + dir.file("no-such-brain") +
                       "' stopped (exited "
                       "with status 127)"));
}

TEST_CASE("analyze --engine: a game the brain does not play, and a forbidden answer, are named and left unjudged", "[pbrain]") {
    TempDir dir("engine");
    const std::string db = missed_block_db(dir);
    // A game with captures, to a brain whose ABOUT does not list it.
    import_text(db, dir / "ninuki.gpn", "[Game \"Ninuki\"]\n[Result \"*\"]\n\n1. j10 k10 *\n");
    check_left_unjudged(db, 2, fake_brain(dir, "any", "echo 0,0"),
                        "gounki analyze: game 2: engine 'any 1' does not say it plays Ninuki (its ABOUT line has no "
                        "captures=\"...ninuki...\")");
    // A Renju-forbidden point for Black (a double-three at h8) is an illegal answer too.
    import_text(db, dir / "renju.gpn", "[Game \"Renju\"]\n[Result \"*\"]\n\n1. i8 a1 2. j8 a2 3. h9 a3 4. h10 a4 5. k12 *\n");
    check_left_unjudged(db, 3, fake_brain(dir, "centre", "echo 7,7"),
                        "game 3: engine 'centre 1' answered '7,7' to BOARD: not a legal move (the stone makes two free "
                        "threes at once (double-three, forbidden)) (the position after ply 8)");
    CHECK(run_gounki_args({"analyze", "--db", db, "1", "--engine", "x", "--depth", "3"}).status == 2);
    CHECK(run_gounki_args({"analyze", "--db", db, "1", "--engine-time", "30"}).status == 2);
    CHECK(run_gounki_args({"analyze", "--db", db, "1", "--engine", "x", "--engine-nodes", "0"}).status == 2);
}

TEST_CASE("a game deleted while analyze or a worker judges it: its judgement is dropped with a note, the rest judged",
          "[pbrain][jobs]") {
    TempDir dir("engine");
    // Another program deletes game 1 while gounki judges it: here the brain itself, at its first
    // request (the first game's first position), before it answers.
    const auto deleting_brain = [&](const std::string& name, const std::string& db) {
        return fake_brain(dir, name,
                          "if [ $n = 1 ]; then " + gounki_command() + " delete --db " + shell_quoted(db) +
                              " 1 >/dev/null 2>&1; fi; echo 14,0");
    };
    const auto two_games = [&](const std::string& name) {
        const std::string db = dir.file(name);
        import_text(db, dir / (name + ".gpn"),
                    std::string(missed_block_game) + "\n[Game \"Gomoku\"]\n[White \"Wim\"]\n[Black \"Bo\"]\n[Result \"*\"]\n\n1. h8 i9 2. j10 *\n");
        return db;
    };
    const auto game_there = [](const std::string& db, std::int64_t id) {
        gounki::db::GameDatabase database(db, gounki::db::Access::read_only);
        return database.game(id).has_value();
    };

    // analyze: the note, the other game judged and stored, exit status 1 as for a game left unjudged.
    const std::string db = two_games("analyze.db");
    const auto run = run_gounki_args({"analyze", "--db", db, "1", "2", "--engine", deleting_brain("deleter", db),
                                      "--engine-time", "50", "--threads", "1"});
    INFO(run.out << run.err);
    CHECK(run.status == 1);
    CHECK(contains(run.err, "gounki analyze: game 1 was deleted while it was judged; its judgement is dropped\n"));
    CHECK(!contains(run.err, "FOREIGN KEY"));
    CHECK(contains(run.out, "judged 1 game ("));
    CHECK(contains(run.out, "1 game left unjudged"));
    CHECK(!game_there(db, 1));
    CHECK(judged(db, 2));

    // A worker: the job went with its game; the note, not "lost to another worker"; the other job done.
    const std::string queued = two_games("queue.db");
    const std::string brain = deleting_brain("queued-deleter", queued);
    REQUIRE(run_gounki_args({"analyze", "--db", queued, "1", "2", "--engine", brain, "--engine-time", "50", "--queue"}).status == 0);
    const auto work = run_gounki_args({"worker", "--db", queued, "--exit-when-empty", "--threads", "1", "--json"});
    INFO(work.out << work.err);
    CHECK(work.status == 0);
    CHECK(contains(work.out, "\"game\":1,"));
    CHECK(contains(work.out, "\"outcome\":\"deleted\""));
    CHECK(contains(work.out, "\"outcome\":\"done\""));
    CHECK(contains(work.out, "\"deleted\":1,"));
    CHECK(contains(work.out, "\"lost\":0,"));
    CHECK(!contains(work.err, "FOREIGN KEY"));
    CHECK(!game_there(queued, 1));
    CHECK(judged(queued, 2));

    // analyze --queue: a game deleted after the games were chosen (here by the brain, when asked its
    // name) is named and not queued; the others are.
    const std::string chosen = two_games("chosen.db");
    write_text(dir / "about-deleter.sh", "while IFS= read -r line; do\n  case \"$line\" in\n    ABOUT*) " + gounki_command() +
                                             " delete --db " + shell_quoted(chosen) +
                                             " 1 >/dev/null 2>&1; echo 'name=\"quick\", version=\"1\"' ;;\n"
                                             "    START*) echo OK ;;\n    END*) exit 0 ;;\n    BEGIN*|DONE*) echo 14,0 ;;\n  esac\ndone\n");
    const auto queue = run_gounki_args(
        {"analyze", "--db", chosen, "1", "2", "--engine", "sh " + shell_quoted(dir / "about-deleter.sh"), "--queue"});
    INFO(queue.out << queue.err);
    CHECK(queue.status == 1);
    CHECK(contains(queue.err, "gounki analyze: game 1 was deleted meanwhile; it is not queued\n"));
    CHECK(contains(queue.out, "queued 1 job;"));
    CHECK(!game_there(chosen, 1));
}

TEST_CASE("match --engine: an external brain against gounki's stone engine", "[pbrain]") {
    TempDir dir("engine");
    const std::string engine = gounki_command() + " pbrain";
    const auto run = run_gounki_args({"match", "--engine", engine, "--engine-nodes", "2000", "--engine-time", "20000",
                                      "--b-nodes", "2000", "--games", "2", "-o", dir.file("match.gpn")});
    INFO(run.out << run.err);
    REQUIRE(run.status == 0);
    CHECK(contains(run.out, "A = engine 'gounki "));
    CHECK(contains(run.out, "(time 20000 ms, nodes 2000), B = gounki nodes 2000"));
    CHECK(contains(run.out, "2 games: A won"));
    // The games as records: one with the engine as Black (first), one as White.
    const std::string records = slurp(dir / "match.gpn");
    CHECK(count_of(records, "[Game \"Gomoku\"]") == 2);
    CHECK(count_of(records, "[Black \"engine 'gounki ") == 1);
    CHECK(count_of(records, "[White \"engine 'gounki ") == 1);
    CHECK(run_gounki("validate " + shell_quoted(dir / "match.gpn")).status == 0);

    // A brain that fails stops the match with its error.
    const auto bad = run_gounki_args({"match", "--engine", fake_brain(dir, "garbage", "echo 'let me think'"), "--games", "2"});
    CHECK(bad.status == 1);
    CHECK(contains(bad.err, "gounki match: game 1: engine 'garbage 1' answered 'let me think'"));
    CHECK(bad.out.empty()); // no game played: no score
    // A brain that fails later: the games played before are kept, written and scored.
    const auto late = run_gounki_args({"match", "--engine", fake_brain(dir, "crash", "if [ $n -ge 4 ]; then exit 3; fi; echo \"$n,0\""),
                                       "--games", "4", "--max-plies", "10", "--b-nodes", "100", "-o", dir.file("late.gpn")});
    INFO(late.out << late.err);
    CHECK(late.status == 1);
    CHECK(contains(late.err, "gounki match: game 2: engine 'crash 1' stopped (exited with status 3) while gounki waited for a move "
                             "after BOARD; the match stops after 1 game\n"));
    CHECK(contains(late.out, "1 game: A won 0 (0 as White, 0 as Black), B won 0, draws 1\n"));
    const std::string kept = slurp(dir / "late.gpn");
    CHECK(count_of(kept, "[Game \"Gomoku\"]") == 1);
    CHECK(count_of(kept, "[Black \"engine 'crash 1'") == 1);
    CHECK(run_gounki_args({"match", "--engine", engine, "--game", "gounki"}).status == 2);
    // Ninuki needs a brain that says it plays it.
    const auto plain =
        run_gounki_args({"match", "--engine", fake_brain(dir, "plain", "echo 0,0"), "--game", "ninuki", "--games", "2"});
    CHECK(plain.status == 1);
    CHECK(contains(plain.err, "engine 'plain 1' does not say it plays Ninuki"));
    CHECK(run_gounki_args({"match", "--engine", engine, "--a-nodes", "100"}).status == 2);
    CHECK(run_gounki_args({"match", "--engine-time", "100"}).status == 2);
}

TEST_CASE("analyze --engine: gounki pbrain judges Ninuki and Pente games, captures included", "[pbrain]") {
    TempDir dir("engine");
    const std::string db = dir.file("capture.db");
    run_gounki_args({"import", "--db", db, source_path("samples/games/11-ninuki.gpn").string(),
                     source_path("tests/data/records/pente_org.pgn").string()}); // a tournament-rule warning: status 1
    const std::string engine = gounki_command() + " pbrain";
    const auto run = run_gounki_args({"analyze", "--db", db, "--all", "--engine", engine, "--engine-time", "20000",
                                      "--engine-nodes", "3000", "--threads", "1"});
    INFO(run.out << run.err);
    REQUIRE(run.status == 0);
    CHECK(!contains(run.out, "left unjudged"));
    // Game 1: Black's fifth pair wins; White's 10... c14 let it be taken (the record says so too).
    CHECK(contains(run.out, "ply 20 White c14: allows-loss"));
    gounki::db::GameDatabase database(db, gounki::db::Access::read_only);
    const std::int64_t games = scalar(database, "SELECT count(*) FROM games");
    CHECK(games == 6);
    CHECK(scalar(database, "SELECT count(*) FROM analyses") == games);
    // A match on Pente's board against the same brain plays whole games.
    const auto match = run_gounki_args(
        {"match", "--game", "pente", "--engine", engine, "--engine-nodes", "500", "--b-nodes", "500", "--games", "2"});
    INFO(match.out << match.err);
    CHECK(match.status == 0);
    CHECK(contains(match.out, "2 games: A won"));
}

TEST_CASE("analyze --engine: empty lines; lines ended by CR; SUGGEST; a line over a MiB: read as the protocol says", "[pbrain]") {
    TempDir dir("engine");
    const std::string db = missed_block_db(dir);
    struct Case {
        std::string name, action, more;
    };
    const std::vector<Case> cases{
        // Empty lines are passed over; CR alone ends a line as CR LF and LF do.
        {"blank", "printf '\\n\\r\\nMESSAGE depth 1 eval 5\\r\\r\\n \\t\\n%s,0\\r' \"$n\"", ""},
        // SUGGEST x,y is the move once the manager's PLAY x,y is answered.
        {"suggest", "echo 'MESSAGE depth 2 eval 7'; echo \"SUGGEST $n,0\"", "    PLAY*) echo \"${line#PLAY }\" ;;\n"},
        // A MESSAGE line over a MiB: cut after a MiB, its rest dropped up to its end (never an answer).
        {"long", "if [ $n -eq 1 ]; then printf 'MESSAGE '; head -c 1100000 /dev/zero | tr '\\0' x; echo 3,3; fi; echo \"$n,0\"",
         ""},
    };
    for (const Case& c : cases) {
        const auto run = run_gounki_args({"analyze", "--db", db, "1", "--force", "--engine", fake_brain(dir, c.name, c.action, c.more),
                                          "--engine-time", "6000", "--threads", "1"});
        INFO(c.name << ": " << run.out << run.err);
        CHECK(run.status == 0);
        CHECK(run.err.empty());
        CHECK(judged(db, 1));
    }
}

TEST_CASE("analyze --engine: every BOARD comes on an empty board (RESTART before it), as the protocol asks", "[pbrain]") {
    TempDir dir("engine");
    const std::string db = missed_block_db(dir);
    // A brain that puts BOARD's stones on the board it has, as the protocol's brain template does
    // (the protocol has the manager send RESTART first): on a board that holds stones, it refuses.
    // It takes START and RESTART to forget what INFO said too: it refuses to move without a time
    // and a rule given since.
    write_text(dir / "keeper.sh",
               "used=0; n=0; info=''\n"
               "while IFS= read -r line; do\n"
               "  line=$(printf '%s' \"$line\" | tr -d '\\r')\n"
               "  case \"$line\" in\n"
               "    ABOUT) echo 'name=\"keeper\", version=\"1\"' ;;\n"
               "    START*|RESTART) used=0; info=''; echo OK ;;\n"
               "    'INFO timeout_turn '*|'INFO rule '*) info=\"$info${line% *}\" ;;\n"
               "    END) exit 0 ;;\n"
               "    BEGIN|DONE) if [ $used = 1 ]; then echo 'ERROR my move [7,7]: the point is taken'; "
               "elif [ \"$info\" != 'INFO timeout_turnINFO rule' ]; then echo \"ERROR INFO since START: '$info'\"; else used=1; "
               "n=$((n+1)); echo 'MESSAGE depth 1 eval 0'; echo \"$n,0\"; fi ;;\n"
               "  esac\n"
               "done\n");
    const std::string keeper = "sh " + shell_quoted(dir / "keeper.sh");
    const auto run = run_gounki_args({"analyze", "--db", db, "1", "--engine", keeper, "--engine-time", "6000", "--threads", "1"});
    INFO(run.out << run.err);
    CHECK(run.status == 0);
    CHECK(run.err.empty());
    CHECK(judged(db, 1));
    // A match asks it for a move on a board of its own each time too.
    const auto match = run_gounki_args({"match", "--engine", keeper, "--games", "2", "--max-plies", "10", "--b-nodes", "100"});
    INFO(match.out << match.err);
    CHECK(match.status == 0);
}

namespace {

// The lines of a fake brain's log.
std::vector<std::string> log_lines(const TempDir& dir, const std::string& name) {
    std::vector<std::string> lines;
    std::istringstream in(slurp(dir / (name + ".log")));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

long count_lines(const std::vector<std::string>& lines, const std::string& prefix) {
    return std::count_if(lines.begin(), lines.end(), [&](const std::string& l) { return l.rfind(prefix, 0) == 0; });
}

} // namespace

TEST_CASE("analyze --engine: START once per board size for a brain process, RESTART between positions, the rule told each game",
          "[pbrain]") {
    TempDir dir("engine");
    const std::string db = missed_block_db(dir); // game 1: freestyle Gomoku on 15x15 (rule 0)
    import_text(db, dir / "more.gpn",
                "[Game \"Renju\"]\n[Result \"*\"]\n\n1. h8 h9 2. i8 i9 3. g8 *\n\n"                     // 2: rule 4, 15x15
                "[Game \"Gomoku\"]\n[Size \"19\"]\n[Result \"*\"]\n\n1. j10 k11 2. k10 *\n\n"         // 3: rule 0, 19x19
                "[Game \"Gomoku\"]\n[Rules \"standard\"]\n[Result \"*\"]\n\n1. h8 i9 2. i8 *\n"); // 4: rule 1, 15x15
    const std::vector<int> rules{0, 4, 0, 1}, sizes{15, 15, 19, 15};
    // Its moves on the top rows, where none of the games has a stone.
    const std::string brain = fake_brain(dir, "logged", "echo \"$((n % 15)),$((n / 15))\"");
    const auto run = run_gounki_args({"analyze", "--db", db, "--all", "--engine", brain, "--engine-time", "2000", "--threads", "1"});
    INFO(run.out << run.err);
    REQUIRE(run.status == 0);
    for (std::int64_t id = 1; id <= 4; ++id) CHECK(judged(db, id));
    const std::vector<std::string> lines = log_lines(dir, "logged");
    // START for the first game, for the 19x19 one and for the 15x15 one after it: three in all.
    std::vector<std::string> starts;
    for (const std::string& l : lines)
        if (l.rfind("START ", 0) == 0) starts.push_back(l);
    CHECK(starts == std::vector<std::string>{"START 15", "START 19", "START 15"});
    // Every request for a move (BEGIN, or a BOARD's DONE) after the first of a START comes after a
    // RESTART, the rule and the size of its game told before it.
    const long requests = count_lines(lines, "BEGIN") + count_lines(lines, "DONE");
    CHECK(requests > 20);
    CHECK(count_lines(lines, "RESTART") == requests - 3);
    int game = -1, rule = -1, size = 0;
    bool cleared = false;
    for (const std::string& l : lines) {
        if (l.rfind("START ", 0) == 0) size = std::stoi(l.substr(6));
        if (l.rfind("START ", 0) == 0 || l == "RESTART") cleared = true;
        if (l.rfind("INFO rule ", 0) == 0) rule = std::stoi(l.substr(10));
        if (l == "BEGIN") ++game;
        if (l != "BEGIN" && l != "DONE") continue;
        INFO("request " << l << " of game " << game + 1);
        REQUIRE((game >= 0 && game < 4));
        CHECK(cleared);
        CHECK(rule == rules[std::size_t(game)]);
        CHECK(size == sizes[std::size_t(game)]);
        cleared = false;
    }
    CHECK(game == 3);

    // A brain that does not know RESTART (UNKNOWN, as the protocol has a brain answer a command it
    // lacks) is asked once, then gets START in its place.
    const std::string older = fake_brain(dir, "older", "echo \"$((n % 15)),$((n / 15))\"", "    RESTART) echo 'UNKNOWN RESTART' ;;\n");
    const auto old_run = run_gounki_args({"analyze", "--db", db, "1", "--force", "--engine", older, "--engine-time", "2000"});
    INFO(old_run.out << old_run.err);
    CHECK(old_run.status == 0);
    const std::vector<std::string> old_lines = log_lines(dir, "older");
    CHECK(count_lines(old_lines, "RESTART") == 1);
    CHECK(count_lines(old_lines, "START ") == count_lines(old_lines, "BEGIN") + count_lines(old_lines, "DONE"));

    // A brain that failed is started again for the next game, and gets its START again.
    const std::string crashing =
        fake_brain(dir, "crashing", "if [ $n = 3 ] && [ ! -e " + shell_quoted(dir / "crashed") + " ]; then touch " +
                                        shell_quoted(dir / "crashed") + "; exit 3; fi; echo \"$((n % 15)),$((n / 15))\"");
    const auto crashed = run_gounki_args({"analyze", "--db", db, "1", "4", "--force", "--engine", crashing, "--engine-time", "2000",
                                          "--threads", "1"});
    INFO(crashed.out << crashed.err);
    CHECK(crashed.status == 1);
    CHECK(contains(crashed.err, "game 1: engine 'crashing 1' stopped (exited with status 3)"));
    const std::vector<std::string> crash_lines = log_lines(dir, "crashing");
    CHECK(count_lines(crash_lines, "START 15") == 2);
    CHECK(count_lines(crash_lines, "ABOUT") >= 2);
}

TEST_CASE("analyze --engine: a brain that answers twice is killed, named, and leaves the game unjudged", "[pbrain]") {
    TempDir dir("engine");
    const std::string db = missed_block_db(dir);
    // Each request answered with two moves: the second would be taken for the next position's answer.
    check_left_unjudged(db, 1, fake_brain(dir, "twice", "echo \"$n,0\"; echo \"$n,1\""), "engine 'twice 1' answered twice: '");
    // The second answer a moment later, after the check before the next request would have looked:
    // caught at the position it answers (the ABOUT after each answer finds it first), not one
    // position on, nor at the game's end.
    const std::string slow = fake_brain(dir, "slow", "echo \"$n,0\"; sleep 0.3; echo \"$n,1\"");
    check_left_unjudged(db, 1, slow,
                        "game 1: engine 'slow 1' answered twice: '1,1' came after its answer to BEGIN, unasked (the "
                        "position before ply 1); the game is left unjudged");
    const auto match = run_gounki_args({"match", "--engine", slow, "--games", "1", "--max-plies", "10", "--b-nodes", "100"});
    INFO(match.out << match.err);
    CHECK(match.status == 1);
    CHECK(contains(match.err, "gounki match: game 1: engine 'slow 1' answered twice: '1,1' came after its answer to BOARD, unasked;"));
    // Anything else written after an answer, unasked, is named at the position it came after too (it
    // was taken for the next position's answer).
    check_left_unjudged(db, 1, fake_brain(dir, "stray", "echo \"$n,0\"; if [ $n = 2 ]; then sleep 0.3; echo 'thinking...'; fi"),
                        "game 1: engine 'stray 1' wrote 'thinking...' after its answer to BOARD, unasked (the position "
                        "after ply 1); the game is left unjudged");
    // The same for best --engine: its one answer is checked as well.
    const auto best = run_gounki_args({"best", "--position", "Gomoku 15 15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w",
                                       "--engine", fake_brain(dir, "best-twice", "echo 3,3; sleep 0.3; echo 4,4")});
    INFO(best.out << best.err);
    CHECK(best.status == 1);
    CHECK(contains(best.err, "engine 'best-twice 1' answered twice: '4,4' came after its answer to BOARD, unasked"));
    // MESSAGE lines after the move are dropped: the game is judged.
    const auto late = run_gounki_args({"analyze", "--db", db, "1", "--engine",
                                       fake_brain(dir, "late", "echo 'MESSAGE depth 1 eval 3'; echo \"$n,0\"; echo 'MESSAGE bye'"),
                                       "--engine-time", "2000", "--threads", "1"});
    INFO(late.out << late.err);
    CHECK(late.status == 0);
    CHECK(judged(db, 1));
}

TEST_CASE("brain client: a brain's MESSAGE lines are kept in bounded memory", "[pbrain]") {
    using namespace gounki;
    TempDir dir("engine");
    protocol::BrainSettings settings;
    settings.command = fake_brain(dir, "chatty",
                                  "i=0; while [ $i -lt 500 ]; do echo \"MESSAGE depth $i eval $i line $i of 500\"; i=$((i+1)); done; "
                                  "echo 'DEBUG last'; echo 7,7");
    settings.turn_ms = 5000;
    protocol::BrainClient brain(settings);
    stones::StonePosition pos(stones::Rules::defaults(GameKind::gomoku));
    brain.new_game(pos.rules());
    const protocol::BrainAnswer a = brain.begin(pos);
    CHECK(a.point == stones::point_from_top_left(7, 7, 15));
    CHECK(a.eval == 499); // the last evaluation, however many lines came
    CHECK(a.depth == 499);
    REQUIRE(a.messages.size() == protocol::BrainAnswer::max_messages);
    CHECK(a.messages_dropped == 501 - protocol::BrainAnswer::max_messages);
    CHECK(a.messages.back() == "DEBUG last");
}

TEST_CASE("analyze --engine: a second interrupt ends gounki and the brain's process group with it", "[pbrain]") {
    TempDir dir("engine");
    const std::string db = missed_block_db(dir);
    const std::string brain_pid = dir.file("brain.pid"), sleep_pid = dir.file("sleep.pid");
    // The brain writes its pid and starts a child in its group, then hangs on BEGIN.
    const std::string brain = fake_brain(dir, "stuck", "echo $$ > " + shell_quoted(brain_pid) + ".tmp; sleep 600 & echo $! > " +
                                                           shell_quoted(sleep_pid) + "; mv " + shell_quoted(brain_pid) +
                                                           ".tmp " + shell_quoted(brain_pid) + "; wait");
    const pid_t gounki = spawn_gounki({"analyze", "--db", db, "1", "--engine", brain, "--engine-time", "600000", "--threads", "1"},
                                      dir.file("out"), dir.file("err"));
    for (int i = 0; i < 3000 && slurp(brain_pid).empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const std::string brain_text = slurp(brain_pid), sleep_text = slurp(sleep_pid);
    REQUIRE(!brain_text.empty());
    REQUIRE(!sleep_text.empty());
    // SIGINT until gounki has gone: the first asks it to stop after the game, a second ends it at once.
    int status = 0;
    bool ended = false;
    for (int i = 0; i < 500 && !ended; ++i) {
        ::kill(gounki, SIGINT);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        ended = ::waitpid(gounki, &status, WNOHANG) == gounki;
    }
    if (!ended) { // never left running by the test
        ::kill(gounki, SIGKILL);
        ::waitpid(gounki, &status, 0);
    }
    CHECK(ended);
    CHECK(WIFSIGNALED(status));
    // The brain and its child are gone (or zombies waiting for init), soon after.
    const auto gone = [](const std::string& pid_text) {
        const std::string stat = slurp("/proc/" + pid_text.substr(0, pid_text.find('\n')) + "/stat");
        return stat.empty() || contains(stat, ") Z ");
    };
    bool both = false;
    for (int i = 0; i < 500 && !(both = gone(brain_text) && gone(sleep_text)); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK(both);
    if (!both) { // not left behind by the test either
        ::kill(std::stoi(brain_text), SIGKILL);
        ::kill(std::stoi(sleep_text), SIGKILL);
    }
}

TEST_CASE("analyze --engine: a brain's name with control bytes or of any length is stored escaped and cut", "[pbrain]") {
    TempDir dir("engine");
    const std::string db = missed_block_db(dir);
    // ABOUT's name holds a NUL, an escape sequence and a byte that is not UTF-8; the version is long.
    std::string long_version(500, 'v');
    write_text(dir / "odd.sh",
               "n=0\n"
               "while IFS= read -r line; do\n"
               "  line=$(printf '%s' \"$line\" | tr -d '\\r')\n"
               "  case \"$line\" in\n"
               "    ABOUT) printf 'name=\"Odd\\000One\\033[31m\\377\", version=\"" + long_version + "\"\\n' ;;\n"
               "    START*|RESTART) echo OK ;;\n"
               "    END) exit 0 ;;\n"
               "    BEGIN|DONE) n=$((n+1)); echo 'MESSAGE depth 1 eval 0'; echo \"$n,0\" ;;\n"
               "  esac\n"
               "done\n");
    const auto run = run_gounki_args(
        {"analyze", "--db", db, "1", "--engine", "sh " + shell_quoted(dir / "odd.sh"), "--engine-time", "6000", "--threads", "1"});
    INFO(run.out << run.err);
    REQUIRE(run.status == 0);
    const auto shown = run_gounki_args({"show", "--db", db, "1", "--json"});
    INFO(shown.out);
    // In JSON a backslash is written twice: the stored name is Odd\x00One\x1b[31m\xff.
    CHECK(contains(shown.out, "\"engine\":\"Odd\\\\x00One\\\\x1b[31m\\\\xff " + std::string(40, 'v') + "..."));
    CHECK(!contains(shown.out, std::string(41, 'v')));
}
