// Analysis as jobs: `analyze --queue`, `gounki worker` and `gounki jobs` (db/job_queue.hpp), on an
// SQLite file and (tests tagged [postgres], run through scripts/with-postgres.sh) on a PostgreSQL
// server. Every test ends by checking that each game was judged exactly once: one stored judgement
// and one worker that reported storing it.

#include "tests/catch.hpp"
#include "tests/support.hpp"

#include "db/postgres.hpp"
#include "db/sqlite.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <thread>

using namespace gounki;
using namespace gounki::test;

namespace {

const std::string samples = std::string(GOUNKI_SOURCE_DIR) + "/samples/games/";

// The first column of the first row of `sql` on the database `url` (a file or a server).
// The test's own sessions are named, so that counting the sessions of the programs under test can
// leave them out: a closed session of an earlier question can stay listed a moment after it ended.
constexpr const char* test_session = "gounki test";

std::int64_t ask(const std::string& url, const std::string& sql) {
    db::Database d(url, db::OpenMode::read_only);
    if (d.is_postgres()) db::Statement(d, std::string("SELECT set_config('application_name', '") + test_session + "', false)").step();
    db::Statement st(d, sql);
    REQUIRE(st.step());
    return st.get_int64(0);
}

// The sessions on the database of `url` but the test's own.
const std::string others = std::string("FROM pg_stat_activity WHERE datname = current_database() AND application_name <> '") +
    test_session + "'";

// Ends every other session on the database of `url` from the server (pg_terminate_backend); how many.
std::int64_t end_other_sessions(const std::string& url) { return ask(url, "SELECT count(pg_terminate_backend(pid)) " + others); }

// Waits (up to a generous minute) until `sql` answers `want`.
bool wait_until(const std::string& url, const std::string& sql, std::int64_t want) {
    for (int i = 0; i < 600; ++i) {
        if (ask(url, sql) == want) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
}

// Waits until no other session is on the database of `url`: a finished command's session can stay
// listed a moment after the command exits, and would be counted by end_other_sessions.
bool wait_alone(const std::string& url) {
    return wait_until(url, "SELECT count(*) " + others, 0);
}

// The lines of `text` holding `part`.
std::vector<std::string> lines_with(const std::string& text, const std::string& part) {
    std::vector<std::string> out;
    for (const std::string& l : lines_of(text))
        if (contains(l, part)) out.push_back(l);
    return out;
}

CliRun gounki_on(const std::string& url, const std::string& args) { return run_gounki(args + " --db " + shell_quoted(url)); }

// Each game judged once: one stored judgement per done job, every job done on its first claim
// unless `attempts` says otherwise.
void check_judged_once(const std::string& url, std::int64_t games) {
    CHECK(ask(url, "SELECT count(*) FROM jobs WHERE state = 'done'") == games);
    CHECK(ask(url, "SELECT count(*) FROM analyses") == games);
    CHECK(ask(url, "SELECT count(*) FROM (SELECT game_id FROM analyses GROUP BY game_id HAVING count(*) > 1) AS twice") == 0);
}

// A worker run to an empty queue on `db`, whose one job (game 1) it judges: stored once.
void judge_the_one_job(const std::string& db) {
    const CliRun w = gounki_on(db, "worker --exit-when-empty --json");
    INFO(w.out << w.err);
    CHECK(w.status == 0);
    CHECK(lines_with(w.out, "\"outcome\":\"done\"").size() == 1);
    check_judged_once(db, 1);
}

// Queue, work, and compare with `analyze` run directly on an SQLite copy of the same games.
void queue_then_work(const std::string& url, const TempDir& dir) {
    const std::string records = shell_quoted(samples + "04-club-evening.gpn") + " " + shell_quoted(samples + "10-gomoku.gpn");
    REQUIRE(gounki_on(url, "import --quiet " + records).status == 0);
    const std::int64_t games = ask(url, "SELECT count(*) FROM games");
    REQUIRE(games >= 4);
    const std::string direct = dir.file("direct.db");
    REQUIRE(gounki_on(direct, "import --quiet " + records).status == 0);
    const CliRun judged = gounki_on(direct, "analyze --all --nodes 2000 --threads 2 --json");
    REQUIRE(judged.status == 0);

    const CliRun queued = gounki_on(url, "analyze --all --nodes 2000 --queue --json");
    INFO(queued.out << queued.err);
    REQUIRE(queued.status == 0);
    CHECK(contains(queued.out, "\"queued\":" + std::to_string(games) + ","));
    const CliRun again = gounki_on(url, "analyze --all --nodes 2000 --queue");
    CHECK(contains(again.out, "queued 0 jobs; skipped 0 already judged with these settings, " + std::to_string(games) +
                                  " already queued or running"));
    CHECK(contains(gounki_on(url, "jobs --json").out, "\"queued\":" + std::to_string(games) + ","));

    const CliRun one = gounki_on(url, "worker --max-jobs 1 --json");
    CHECK(one.status == 0);
    CHECK(lines_with(one.out, "\"outcome\":\"done\"").size() == 1);
    const CliRun worked = gounki_on(url, "worker --exit-when-empty --threads 2 --json");
    INFO(worked.out << worked.err);
    REQUIRE(worked.status == 0);
    CHECK(lines_with(worked.out, "\"outcome\":\"done\"").size() == std::size_t(games - 1));
    CHECK(contains(worked.out, "\"type\":\"summary\""));
    const CliRun counts = gounki_on(url, "jobs --json");
    CHECK(contains(counts.out, "\"queued\":0,"));
    CHECK(contains(counts.out, "\"running\":0,"));
    CHECK(contains(counts.out, "\"done\":" + std::to_string(games) + ","));
    CHECK(contains(counts.out, "\"failed\":0,"));
    check_judged_once(url, games);
    CHECK(ask(url, "SELECT count(*) FROM jobs WHERE attempts <> 1") == 0);

    // The stored judgements are those analyze makes with the same settings (a rerun prints them).
    const CliRun stored = gounki_on(url, "analyze --all --nodes 2000 --json");
    REQUIRE(stored.status == 0);
    CHECK(lines_with(stored.out, "\"type\":\"ply\"") == lines_with(judged.out, "\"type\":\"ply\""));
    CHECK(lines_with(stored.out, "\"type\":\"ply\"").size() > 20);
    // Judged games are not queued again; --force queues them all.
    CHECK(contains(gounki_on(url, "analyze --all --nodes 2000 --queue").out,
                   "queued 0 jobs; skipped " + std::to_string(games) + " already judged"));
    CHECK(contains(gounki_on(url, "analyze 1 --nodes 2000 --queue --force --json").out, "\"queued\":1,"));
    CHECK(contains(gounki_on(url, "jobs --clear-done --json").out, "\"done\":0,"));
}

// Two workers at once on a queue of one game: one judges it, the other finds nothing.
void two_workers_one_game(const std::string& url, const TempDir& dir) {
    REQUIRE(gounki_on(url, "import --quiet " + shell_quoted(samples + "10-gomoku.gpn")).status == 0);
    REQUIRE(gounki_on(url, "analyze 1 --nodes 3000 --queue").status == 0);
    const pid_t a = spawn_gounki({"worker", "--db", url, "--exit-when-empty", "--poll", "0.1", "--json"}, dir.file("a.out"), dir.file("a.err"));
    const pid_t b = spawn_gounki({"worker", "--db", url, "--exit-when-empty", "--poll", "0.1", "--json"}, dir.file("b.out"), dir.file("b.err"));
    CHECK(wait_exit(a) == 0);
    CHECK(wait_exit(b) == 0);
    const std::string out = slurp(dir / "a.out") + slurp(dir / "b.out");
    INFO(out << slurp(dir / "a.err") << slurp(dir / "b.err"));
    CHECK(lines_with(out, "\"outcome\":\"done\"").size() == 1);
    CHECK(lines_with(out, "\"outcome\":\"lost\"").empty());
    check_judged_once(url, 1);
}

// A Gomocup brain that takes `seconds` to start (gounki pbrain after a sleep): a job that stays
// running long enough to kill its worker or cut its connection.
std::string slow_engine(const TempDir& dir, int seconds) {
    write_text(dir / "slow.sh", "sleep " + std::to_string(seconds) + "\nexec " + gounki_command() + " pbrain\n");
    return "sh " + shell_quoted(dir / "slow.sh");
}

// A worker killed (SIGKILL) mid-job: another, after the lease ran out, judges the game once.
void killed_worker(const std::string& url, const TempDir& dir) {
    REQUIRE(gounki_on(url, "import --quiet " + shell_quoted(samples + "10-gomoku.gpn")).status == 0);
    const std::string engine = slow_engine(dir, 3);
    REQUIRE(gounki_on(url, "analyze 1 --queue --engine " + shell_quoted(engine) + " --engine-nodes 2000").status == 0);
    const pid_t a = spawn_gounki({"worker", "--db", url, "--lease", "2", "--json"}, dir.file("a.out"), dir.file("a.err"));
    REQUIRE(wait_until(url, "SELECT count(*) FROM jobs WHERE state = 'running'", 1));
    ::kill(a, SIGKILL);
    CHECK(wait_exit(a) == 128 + SIGKILL);
    const CliRun listed = gounki_on(url, "jobs");
    CHECK(contains(listed.out, "0 queued, 1 running, 0 done, 0 failed"));
    CHECK(contains(listed.out, "running: job 1 game 1 on "));
    CHECK(contains(listed.out, "/1, attempt 1, lease "));
    const CliRun b = gounki_on(url, "worker --lease 2 --poll 0.2 --exit-when-empty --json");
    INFO(slurp(dir / "a.out") << b.out << b.err);
    CHECK(b.status == 0);
    CHECK(lines_with(b.out, "\"outcome\":\"done\"").size() == 1);
    CHECK(lines_with(slurp(dir / "a.out"), "\"outcome\"").empty());
    CHECK(ask(url, "SELECT attempts FROM jobs") == 2); // the killed worker's claim, then this one
    check_judged_once(url, 1);
}

// A worker whose lease another claim takes while it judges (the test hands the job over and lets
// the lease run out, as a worker cut off for longer than its lease would find): it stores nothing
// and reports the job lost; the next worker judges the game, once.
void lost_lease(const std::string& url, const TempDir& dir) {
    REQUIRE(gounki_on(url, "import --quiet " + shell_quoted(samples + "10-gomoku.gpn")).status == 0);
    const std::string engine = slow_engine(dir, 3);
    REQUIRE(gounki_on(url, "analyze 1 --queue --engine " + shell_quoted(engine) + " --engine-nodes 2000").status == 0);
    const pid_t a = spawn_gounki({"worker", "--db", url, "--max-jobs", "1", "--lease", "3", "--json"}, dir.file("lost.out"),
                                 dir.file("lost.err"));
    REQUIRE(wait_until(url, "SELECT count(*) FROM jobs WHERE state = 'running'", 1));
    {
        db::Database d(url, db::OpenMode::read_write);
        d.exec("UPDATE jobs SET lease_owner = 'another', lease_token = 'taken', lease_expiry = 0");
    }
    CHECK(wait_exit(a) == 0);
    const std::string out = slurp(dir / "lost.out"), err = slurp(dir / "lost.err");
    INFO(out << err);
    CHECK(lines_with(out, "\"outcome\":\"lost\"").size() == 1);
    CHECK(lines_with(out, "\"outcome\":\"done\"").empty());
    CHECK(contains(out, "\"lost\":1,"));
    CHECK(contains(err, "job 1 game 1: the lease ran out and another worker has the job"));
    CHECK(ask(url, "SELECT count(*) FROM analyses") == 0);
    CHECK(ask(url, "SELECT count(*) FROM jobs WHERE state = 'running' AND lease_token = 'taken'") == 1);
    const CliRun b = gounki_on(url, "worker --exit-when-empty --json");
    INFO(b.out << b.err);
    CHECK(b.status == 0);
    CHECK(lines_with(b.out, "\"outcome\":\"done\"").size() == 1);
    CHECK(ask(url, "SELECT attempts FROM jobs") == 2); // the lost claim, then this one
    check_judged_once(url, 1);
}

// A worker without --exit-when-empty waits for work: a job queued after it started is judged, and
// SIGTERM then stops it cleanly (exit 0, nothing given back, nothing half-stored).
void waiting_worker(const std::string& url, const TempDir& dir) {
    REQUIRE(gounki_on(url, "import --quiet " + shell_quoted(samples + "10-gomoku.gpn")).status == 0);
    const pid_t w = spawn_gounki({"worker", "--db", url, "--poll", "0.1", "--json"}, dir.file("wait.out"), dir.file("wait.err"));
    std::this_thread::sleep_for(std::chrono::milliseconds(700)); // several looks at the empty queue
    int status = 0;
    REQUIRE(::waitpid(w, &status, WNOHANG) == 0); // still there, waiting
    REQUIRE(gounki_on(url, "analyze 1 --nodes 2000 --queue").status == 0);
    REQUIRE(wait_until(url, "SELECT count(*) FROM jobs WHERE state = 'done'", 1));
    ::kill(w, SIGTERM);
    CHECK(wait_exit(w) == 0);
    const std::string out = slurp(dir / "wait.out"), err = slurp(dir / "wait.err");
    INFO(out << err);
    CHECK(lines_with(out, "\"outcome\":\"done\"").size() == 1);
    CHECK(contains(out, "\"given_back\":0"));
    CHECK(contains(err, "SIGTERM: stopped"));
    check_judged_once(url, 1);
    CHECK(ask(url, "SELECT count(*) FROM jobs WHERE state <> 'done' OR lease_token IS NOT NULL") == 0);
}

// Runs `scenario` on a new SQLite file `name` in a temporary folder of its own.
void on_sqlite_file(void (*scenario)(const std::string& url, const TempDir& dir), const std::string& name) {
    const TempDir dir("jobs");
    scenario(dir.file(name), dir);
}

} // namespace

TEST_CASE("analyze --queue, then a worker: every game judged once, as analyze judges it", "[jobs]") {
    on_sqlite_file(queue_then_work, "queued.db");
}

TEST_CASE("two workers on a queue of one game judge it once", "[jobs]") { on_sqlite_file(two_workers_one_game, "one.db"); }

TEST_CASE("a worker killed mid-job: another takes the job once its lease runs out", "[jobs]") {
    on_sqlite_file(killed_worker, "killed.db");
}

TEST_CASE("a failing job is tried three times, kept as failed with its error, and retried on demand", "[jobs]") {
    const TempDir dir("jobs");
    const std::string db = dir.file("failing.db");
    REQUIRE(gounki_on(db, "import --quiet " + shell_quoted(samples + "10-gomoku.gpn")).status == 0);
    // A brain that works when the job is queued and refuses to start once the mark exists.
    write_text(dir / "brain.sh", "[ -e " + shell_quoted(dir / "mark") + " ] && { echo 'out of licences' >&2; exit 3; }\nexec " +
                                     gounki_command() + " pbrain\n");
    const std::string engine = "sh " + shell_quoted(dir / "brain.sh");
    REQUIRE(gounki_on(db, "analyze 1 --queue --engine " + shell_quoted(engine) + " --engine-nodes 2000").status == 0);
    write_text(dir / "mark", "");
    const CliRun w = gounki_on(db, "worker --exit-when-empty --poll 0.1 --json");
    INFO(w.out << w.err);
    CHECK(w.status == 1); // a job failed
    CHECK(lines_with(w.out, "\"outcome\":\"retry\"").size() == 2);
    CHECK(lines_with(w.out, "\"outcome\":\"failed\"").size() == 1);
    const CliRun failed = gounki_on(db, "jobs --failed");
    INFO(failed.out);
    CHECK(contains(failed.out, "0 queued, 0 running, 0 done, 1 failed"));
    CHECK(contains(failed.out, "failed: job 1 game 1 after 3 attempts: cannot use the engine"));
    CHECK(contains(gounki_on(db, "jobs --json").out, "\"failed\":1,"));
    CHECK(ask(db, "SELECT count(*) FROM analyses") == 0);

    std::filesystem::remove(dir / "mark");
    // Queueing again leaves a failed job alone (jobs --retry-failed or --force).
    CHECK(contains(gounki_on(db, "analyze 1 --queue --engine " + shell_quoted(engine) + " --engine-nodes 2000").out,
                   "1 failed before"));
    CHECK(contains(run_gounki("jobs --retry-failed --db " + shell_quoted(db)).err, "queued 1 failed job again"));
    judge_the_one_job(db);
}

TEST_CASE("a job queued with settings this gounki does not give fails clearly; queued again, it is judged", "[jobs]") {
    const TempDir dir("jobs");
    const std::string db = dir.file("other.db");
    REQUIRE(gounki_on(db, "import --quiet " + shell_quoted(samples + "10-gomoku.gpn")).status == 0);
    REQUIRE(gounki_on(db, "analyze 1 --queue --nodes 2000").status == 0);
    {
        // As another version of gounki would have queued it: the same options, other settings.
        db::Database d(db, db::OpenMode::read_write);
        d.exec("UPDATE jobs SET settings = 'nodes 1 (an older gounki)'");
    }
    const CliRun w = gounki_on(db, "worker --exit-when-empty --poll 0.1");
    INFO(w.out << w.err);
    CHECK(w.status == 1);
    CHECK(contains(w.out, "not the 'nodes 1 (an older gounki)' it was queued with (another gounki version or engine): "
                          "queue the game again with this one (gounki analyze --queue)"));
    CHECK(contains(gounki_on(db, "jobs").out, "0 queued, 0 running, 0 done, 1 failed"));
    CHECK(ask(db, "SELECT count(*) FROM analyses") == 0);
    // The hint works: queued again by this gounki, the game is judged once.
    REQUIRE(gounki_on(db, "analyze 1 --queue --nodes 2000").status == 0);
    judge_the_one_job(db);
}

TEST_CASE("worker and jobs: bad options and an old database are refused clearly", "[jobs]") {
    const TempDir dir("jobs");
    const std::string db = dir.file("w.db");
    CHECK(contains(gounki_on(db, "worker --lease 0").err, "--lease must be a number of seconds"));
    CHECK(contains(gounki_on(db, "worker --threads x").err, "--threads must be a whole number"));
    CHECK(contains(gounki_on(db, "jobs").err, "no database at"));
    const CliRun missing = gounki_on(db, "worker --exit-when-empty");
    CHECK(missing.status == 2);
    CHECK(contains(missing.err, "no database at"));
    CHECK_FALSE(std::filesystem::exists(db));
    REQUIRE(gounki_on(db, "import --quiet " + shell_quoted(samples + "10-gomoku.gpn")).status == 0);
    const CliRun empty = gounki_on(db, "worker --exit-when-empty");
    CHECK(empty.status == 0);
    CHECK(contains(empty.out, "0 jobs done"));
    CHECK(contains(gounki_on(db, "jobs").out, "0 queued, 0 running, 0 done, 0 failed"));
}

TEST_CASE("PostgreSQL: queue, workers, two workers on one game, a killed worker", "[postgres]") {
    const TempDir dir("jobs");
    queue_then_work(server_database("gounki_jobs_queue"), dir);
    two_workers_one_game(server_database("gounki_jobs_two"), dir);
    killed_worker(server_database("gounki_jobs_killed"), dir);
}

TEST_CASE("PostgreSQL: a worker whose connection the server ends reconnects and stores the game once", "[postgres]") {
    const TempDir dir("jobs");
    const std::string url = server_database("gounki_jobs_cut");
    REQUIRE(gounki_on(url, "import --quiet " + shell_quoted(samples + "10-gomoku.gpn")).status == 0);
    const std::string engine = slow_engine(dir, 3);
    REQUIRE(gounki_on(url, "analyze 1 --queue --engine " + shell_quoted(engine) + " --engine-nodes 2000").status == 0);
    const pid_t w = spawn_gounki({"worker", "--db", url, "--exit-when-empty", "--json"}, dir.file("w.out"), dir.file("w.err"));
    REQUIRE(wait_until(url, "SELECT count(*) FROM jobs WHERE state = 'running'", 1));
    CHECK(ask(url, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name LIKE 'gounki worker %'") >= 1);
    CHECK(wait_exit(w) == 0);
    INFO(slurp(dir / "w.out") << slurp(dir / "w.err"));
    CHECK(contains(slurp(dir / "w.err"), "connecting again"));
    CHECK(lines_with(slurp(dir / "w.out"), "\"outcome\":\"done\"").size() == 1);
    check_judged_once(url, 1);
}

TEST_CASE("PostgreSQL: analyze whose connection the server ends connects again and stores every game once", "[postgres]") {
    const TempDir dir("jobs");
    const std::string url = server_database("gounki_analyze_cut");
    REQUIRE(gounki_on(url, "import --quiet " + shell_quoted(samples + "10-gomoku.gpn")).status == 0);
    // The engine says when it starts (the games are read by then), then takes two seconds.
    REQUIRE(wait_alone(url));
    write_text(dir / "marked.sh", "touch " + shell_quoted(dir / "started") + "\nsleep 2\nexec " + gounki_command() + " pbrain\n");
    const pid_t a = spawn_gounki({"analyze", "--db", url, "--all", "--engine", "sh " + shell_quoted(dir / "marked.sh"),
                                  "--engine-nodes", "2000", "--threads", "1"},
                                 dir.file("a.out"), dir.file("a.err"));
    for (int i = 0; i < 600 && !std::filesystem::exists(dir / "started"); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    REQUIRE(std::filesystem::exists(dir / "started"));
    CHECK(end_other_sessions(url) == 1);
    CHECK(wait_exit(a) == 0);
    INFO(slurp(dir / "a.out") << slurp(dir / "a.err"));
    CHECK(contains(slurp(dir / "a.err"), "gounki analyze: game 1: the connection to the database was lost"));
    CHECK(contains(slurp(dir / "a.err"), "connecting again"));
    CHECK(contains(slurp(dir / "a.out"), "judged 2 games"));
    CHECK(ask(url, "SELECT count(*) FROM analyses") == 2);
    CHECK(ask(url, "SELECT count(DISTINCT game_id) FROM analyses") == 2);
}

TEST_CASE("PostgreSQL: gounki serve answers again after the server ends its connection", "[postgres]") {
    const TempDir dir("jobs");
    const std::string url = server_database("gounki_serve_cut");
    REQUIRE(gounki_on(url, "import --quiet " + shell_quoted(samples + "10-gomoku.gpn")).status == 0);
    REQUIRE(wait_alone(url));
    const pid_t s = spawn_gounki({"serve", "--db", url, "--port", "0", "--threads", "1"}, dir.file("s.out"), dir.file("s.err"));
    std::string port;
    for (int i = 0; i < 600 && port.empty(); ++i) {
        const std::string out = slurp(dir / "s.out");
        if (const auto at = out.find("http://127.0.0.1:"); at != std::string::npos && out.find("/\n", at) != std::string::npos)
            port = out.substr(at + 17, out.find('/', at + 17) - (at + 17));
        else std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    REQUIRE(!port.empty());
    // A request by hand through bash's /dev/tcp: the answer's status line and body.
    write_text(dir / "get.sh", "exec 3<>/dev/tcp/127.0.0.1/$1\nprintf 'GET %s HTTP/1.0\\r\\nHost: 127.0.0.1:%s\\r\\n\\r\\n' \"$2\" \"$1\" >&3\ncat <&3\n");
    const auto get = [&](const std::string& path) { return run_shell("bash " + shell_quoted(dir / "get.sh") + " " + port + " " + path).out; };
    const std::string before = get("/api/games");
    CHECK(contains(before, "HTTP/1.1 200"));
    CHECK(contains(before, "\"total\":2"));
    // The server's one session: a session just closed can stay listed a moment (as wait_alone says),
    // and was once ended and counted here too.
    CHECK(wait_until(url, "SELECT count(*) " + others, 1));
    CHECK(end_other_sessions(url) == 1);
    const std::string after = get("/api/games");
    CHECK(contains(after, "HTTP/1.1 200"));
    CHECK(contains(after, "\"total\":2"));
    CHECK(contains(get("/api/games/1"), "HTTP/1.1 200"));
    ::kill(s, SIGTERM);
    CHECK(wait_exit(s) == 0);
    INFO(slurp(dir / "s.err"));
    CHECK(contains(slurp(dir / "s.err"), "gounki serve: the connection to the database was lost"));
}

TEST_CASE("PostgreSQL: an import whose connection the server ends reads its files again and stores every game once", "[postgres]") {
    const TempDir dir("jobs");
    const std::string url = server_database("gounki_import_cut");
    const std::string file = dir.file("many.gpn");
    write_gpn(file, random_games(6000, 7));
    const std::string local = dir.file("local.db");
    REQUIRE(run_gounki("import --quiet --db " + shell_quoted(local) + " " + shell_quoted(file)).status == 0);
    REQUIRE(wait_alone(url));
    const pid_t imp = spawn_gounki({"import", "--db", url, "--batch", "100", file}, dir.file("i.out"), dir.file("i.err"));
    // The first batches stored (the table may not exist yet at the first looks), then the session ended.
    const std::string stored = "SELECT count(*) FROM pg_tables WHERE tablename = 'games'";
    REQUIRE(wait_until(url, stored, 1));
    for (int i = 0; i < 1200 && ask(url, "SELECT count(*) FROM games") == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(25));
    REQUIRE(end_other_sessions(url) == 1);
    CHECK(wait_exit(imp) == 0);
    INFO(slurp(dir / "i.out") << slurp(dir / "i.err"));
    CHECK(contains(slurp(dir / "i.err"), "gounki import: the connection to the database was lost"));
    CHECK(contains(slurp(dir / "i.err"), "reading the files again"));
    // Every game once, as an import into a file of its own stores them.
    CHECK(ask(url, "SELECT count(*) FROM games") == scalar(*std::make_unique<db::GameDatabase>(local, db::Access::read_only),
                                                             "SELECT count(*) FROM games"));
    CHECK(ask(url, "SELECT count(*) FROM (SELECT moves FROM games GROUP BY moves, start_position HAVING count(*) > 1) AS twice") ==
          scalar(*std::make_unique<db::GameDatabase>(local, db::Access::read_only),
                 "SELECT count(*) FROM (SELECT moves FROM games GROUP BY moves, start_position HAVING count(*) > 1) AS twice"));
}

TEST_CASE("SIGTERM: a worker gives the job under way back untried, stores nothing, and exits", "[jobs]") {
    const TempDir dir("jobs");
    const std::string db = dir.file("stopped.db");
    REQUIRE(gounki_on(db, "import --quiet " + shell_quoted(samples + "10-gomoku.gpn")).status == 0);
    const std::string engine = slow_engine(dir, 3);
    REQUIRE(gounki_on(db, "analyze 1 --queue --engine " + shell_quoted(engine) + " --engine-nodes 2000").status == 0);
    const pid_t w = spawn_gounki({"worker", "--db", db, "--json"}, dir.file("w.out"), dir.file("w.err"));
    REQUIRE(wait_until(db, "SELECT count(*) FROM jobs WHERE state = 'running'", 1));
    ::kill(w, SIGTERM);
    CHECK(wait_exit(w) == 0);
    INFO(slurp(dir / "w.out") << slurp(dir / "w.err"));
    CHECK(contains(slurp(dir / "w.err"), "SIGTERM: stopped"));
    CHECK(contains(slurp(dir / "w.out"), "\"given_back\":1"));
    CHECK(ask(db, "SELECT count(*) FROM jobs WHERE state = 'queued' AND attempts = 0 AND lease_token IS NULL") == 1);
    CHECK(ask(db, "SELECT count(*) FROM analyses") == 0);
}

TEST_CASE("a worker that loses its lease while judging stores nothing; the game is judged once", "[jobs]") {
    on_sqlite_file(lost_lease, "lost.db");
}

TEST_CASE("a worker waits for jobs queued after it started, then stops cleanly on SIGTERM", "[jobs]") {
    on_sqlite_file(waiting_worker, "waiting.db");
}

TEST_CASE("PostgreSQL: a lost lease, a waiting worker; a password in the URL is never printed", "[postgres]") {
    const TempDir dir("jobs");
    // The test server trusts its users: the password is taken and ignored, and must never show.
    const std::string lost = server_database("gounki_jobs_lost") + "&password=secret";
    lost_lease(lost, dir);
    const std::string waiting = server_database("gounki_jobs_wait") + "&password=secret";
    waiting_worker(waiting, dir);
    CHECK_FALSE(contains(slurp(dir / "lost.out") + slurp(dir / "lost.err") + slurp(dir / "wait.out") + slurp(dir / "wait.err"), "secret"));
    for (const char* args : {"jobs", "jobs --json", "jobs --failed", "analyze 1 --nodes 2000 --queue --force", "jobs",
                             "worker --exit-when-empty", "analyze 1 --nodes 2000", "jobs --clear-done"}) {
        const CliRun r = gounki_on(waiting, args);
        INFO(args << ": " << r.out << r.err);
        CHECK(r.status == 0);
        CHECK_FALSE(contains(r.out + r.err, "secret"));
    }
}
