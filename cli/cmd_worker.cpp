// gounki worker [--db URL] [--threads N] [--lease SECONDS] [--max-jobs N] [--exit-when-empty]
//               [--poll SECONDS] [--json]
// Judges the jobs `analyze --queue` recorded (db/job_queue.hpp): each thread claims a job under a
// lease, judges it (cli/judging.hpp), and stores the judgement and marks the job done in one
// transaction that first checks the lease is still its own. A heartbeat thread moves the leases on
// while games are judged. A lost connection is reported and opened again with back-off; SIGINT or
// SIGTERM gives the jobs under way back to the queue (nothing half-stored) and exits.
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "cli/command.hpp"
#include "cli/db_options.hpp"
#include "cli/judging.hpp"
#include "db/analysis_store.hpp"
#include "db/job_queue.hpp"

namespace gounki::cli {

void describe_worker(QCommandLineParser& p) {
    add_db_option(p);
    p.addOption({"threads", "Judge this many jobs at once (default 1).", "N"});
    p.addOption({"lease", "Seconds a claimed job stays this worker's without a heartbeat (default 60).", "SECONDS"});
    p.addOption({"max-jobs", "Stop after claiming this many jobs.", "N"});
    p.addOption({"exit-when-empty", "Exit when no job is queued or running (default: wait for new jobs)."});
    p.addOption({"poll", "Seconds between looks at an empty queue (default 2).", "SECONDS"});
    p.addOption({"json", "Print one JSON object per job, then one for the summary."});
}

namespace {

struct WorkerOptions {
    std::string db;
    int threads = 1;
    double lease = 60, poll = 2;
    long long max_jobs = 0;
    bool exit_when_empty = false, json = false;
};

bool read_seconds(const QCommandLineParser& p, const char* name, double lo, double hi, double& out) {
    if (!p.isSet(name)) return true;
    bool ok = false;
    const double v = p.value(name).toDouble(&ok);
    if (!ok || !(v >= lo) || !(v <= hi)) return false;
    out = v;
    return true;
}

bool read_worker_options(const Command& self, const QCommandLineParser& p, WorkerOptions& o, int& code) {
    long long threads = 1;
    if (!read_number(p, "threads", 1, 256, threads))
        return code = usage_error(self, "--threads must be a whole number from 1 to 256"), false;
    o.threads = int(threads);
    if (!read_seconds(p, "lease", 1, 86400, o.lease))
        return code = usage_error(self, "--lease must be a number of seconds from 1 to 86400"), false;
    if (!read_seconds(p, "poll", 0.05, 3600, o.poll))
        return code = usage_error(self, "--poll must be a number of seconds from 0.05 to 3600"), false;
    if (!read_number(p, "max-jobs", 1, 1LL << 40, o.max_jobs))
        return code = usage_error(self, "--max-jobs must be a positive whole number"), false;
    o.exit_when_empty = p.isSet("exit-when-empty");
    o.json = p.isSet("json");
    o.db = db_path(p);
    return true;
}

// The settings rebuilt from a job's options, kept per options text: the built-in judge's, or an
// external engine's with its pool of brains.
struct Setup {
    JudgeSetup setup;
    std::unique_ptr<BrainPool> brains;
};

// What the threads share.
struct Worker {
    WorkerOptions o;
    std::string name; // host:pid, the lease owner (with the thread's number)
    std::atomic<bool> stop{false}, failed{false};
    std::atomic<long long> claimed{0};
    std::atomic<int> running_threads{0};
    std::mutex mutex; // guards what follows
    struct Slot {
        std::optional<db::ClaimedJob> job;
        bool storing = false, given_back = false;
    };
    std::vector<Slot> slots;
    std::map<std::string, std::shared_ptr<Setup>> setups;
    long long done = 0, retried = 0, gave_up = 0, lost = 0, deleted = 0, plies = 0;
};

void say(Worker& w, const QJsonObject& json, const std::string& text) {
    std::lock_guard lock(w.mutex);
    if (w.o.json) print_out(QJsonDocument(json).toJson(QJsonDocument::Compact).toStdString() + "\n");
    else if (!quiet()) print_out(text + "\n");
    std::fflush(stdout);
}

// Opens the database, again and again with growing pauses (0.5 s doubling to 8 s, 2 minutes in
// all) while it fails; throws the last error after that. PostgreSQL connections are named
// "gounki worker HOST:PID" (application_name), for an operator's pg_stat_activity.
std::unique_ptr<db::GameDatabase> connect(Worker& w) {
    auto database = connect_again("worker", w.o.db, db::Access::read_write, 120, [&w] { return bool(w.stop); });
    if (database->sql().is_postgres()) {
        db::Statement name(database->sql(), "SELECT set_config('application_name', ?1, false)");
        name.bind(1, "gounki worker " + w.name);
        name.step();
    }
    return database;
}

// Sleeps up to `seconds`, waking early when the worker stops.
void nap(const Worker& w, double seconds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!w.stop && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

// The settings of a job's options (an engine started to read its name); null and `error` set when
// they cannot be had.
std::shared_ptr<Setup> setup_for(Worker& w, const std::string& options, std::string& error) {
    {
        std::lock_guard lock(w.mutex);
        if (auto it = w.setups.find(options); it != w.setups.end()) return it->second;
    }
    auto s = std::make_shared<Setup>();
    std::optional<protocol::BrainSettings> engine;
    if (!judge_setup_from_options(options, s->setup, engine, error)) return nullptr;
    if (engine) {
        s->brains = std::make_unique<BrainPool>(*engine);
        try {
            s->setup.engine = s->brains->first_name();
        } catch (const std::exception& e) { return error = "cannot use the engine: " + std::string(e.what()), nullptr; }
    }
    s->setup.set_texts(s->brains ? &s->brains->settings() : nullptr);
    std::lock_guard lock(w.mutex);
    return w.setups.emplace(options, s).first->second;
}

QJsonObject job_json(const Worker& w, const db::ClaimedJob& job, const char* outcome) {
    return {{"type", "job"},
            {"job", qint64(job.id)},
            {"game", qint64(job.game_id)},
            {"outcome", outcome},
            {"attempt", job.attempts},
            {"worker", QString::fromStdString(w.name)}};
}

std::string job_head(const db::ClaimedJob& job) {
    return "job " + std::to_string(job.id) + " game " + std::to_string(job.game_id) + ": ";
}

// A failed attempt: queued again while attempts remain, else kept as failed.
void fail_job(Worker& w, db::GameDatabase& database, const db::ClaimedJob& job, const std::string& error) {
    const bool again = db::JobQueue(database.sql()).mark_failed(job, error);
    QJsonObject o = job_json(w, job, again ? "retry" : "failed");
    o["error"] = QString::fromStdString(error);
    {
        std::lock_guard lock(w.mutex);
        ++(again ? w.retried : w.gave_up);
    }
    say(w, o,
        job_head(job) + "attempt " + std::to_string(job.attempts) + " of " + std::to_string(db::job_max_attempts) +
            " failed: " + error + (again ? "; queued again" : "; kept as failed (gounki jobs --failed)"));
}

// Judges a claimed job: the judgement, or an error (the job fails) in `error`.
std::optional<analysis::GameJudgement> judge_claimed(Worker& w, db::GameDatabase& database, const db::ClaimedJob& job,
                                                     JudgeJob& out, std::string& engine, std::string& error) {
    const std::optional<db::StoredGame> game = database.game(job.game_id);
    if (!game) return error = "game " + std::to_string(job.game_id) + " is no longer in the database", std::nullopt;
    const std::shared_ptr<Setup> s = setup_for(w, job.options, error);
    if (!s) return std::nullopt;
    if (s->brains)
        if (std::string why = engine_cannot_judge(*game, s->setup.engine); !why.empty()) return error = why, std::nullopt;
    out = judge_job(*game, s->setup);
    BookTree book;
    find_book(database, book, out);
    engine = s->setup.engine;
    if (out.settings_text != job.settings)
        return error = "the job's options give the settings '" + out.settings_text + "', not the '" + job.settings +
                   "' it was queued with (another gounki version or engine): queue the game again with this one "
                   "(gounki analyze --queue)",
               std::nullopt;
    JudgeDone done = judge(out, s->brains.get());
    if (!done.error.empty()) return error = done.error, std::nullopt;
    return std::move(done.judgement);
}

// What became of a judgement to store.
enum class Stored {
    done, // stored, and the job marked done
    lost, // the lease ran out and another worker has the job: nothing stored
    deleted, // the game (and with it its job) was deleted while it was judged: nothing stored
};

// Stores the judgement and marks the job done in one transaction, if the lease is still this
// claim's and the game still there.
Stored store_done(db::GameDatabase& database, const db::ClaimedJob& job, const JudgeJob& judged,
                  const analysis::GameJudgement& judgement, const std::string& engine) {
    db::Transaction tx(database.sql(), db::TransactionKind::job);
    // Deleting a game deletes its jobs: a job gone with its game was not lost to another worker.
    if (!db::JobQueue(database.sql()).mark_done(job, std::int64_t(judged.moves.size())))
        return database.game(job.game_id) ? Stored::lost : Stored::deleted;
    if (!db::AnalysisStore(database.sql()).save(job.game_id, job.settings, judgement, engine)) return Stored::deleted;
    tx.commit();
    return Stored::done;
}

// Runs one claimed job to its end: done, failed or lost. A lost connection while storing is
// opened again and the store tried again with the same lease (another worker may have the job by
// then: then nothing is stored).
void run_job(Worker& w, std::unique_ptr<db::GameDatabase>& database, Worker::Slot& slot, const db::ClaimedJob& job) {
    QElapsedTimer timer;
    timer.start();
    JudgeJob judged;
    std::string engine, error;
    const std::optional<analysis::GameJudgement> judgement = judge_claimed(w, *database, job, judged, engine, error);
    {
        std::lock_guard lock(w.mutex);
        if (slot.given_back) return; // stopping: the job went back to the queue
        slot.storing = true;
    }
    if (!judgement) return fail_job(w, *database, job, error);
    Stored stored = Stored::lost;
    for (int tries = 1;; ++tries) {
        try {
            stored = store_done(*database, job, judged, *judgement, engine);
            break;
        } catch (const db::DbError& e) {
            if (!connection_lost(e) || tries == 3) throw;
            print_err("gounki worker: " + job_head(job) + "the connection was lost while storing (" + e.what() +
                      "); connecting again\n");
            database.reset();
            database = connect(w);
        }
    }
    QJsonObject o = job_json(w, job, stored == Stored::done ? "done" : stored == Stored::lost ? "lost" : "deleted");
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    char took[64];
    std::snprintf(took, sizeof took, " in %.2f s", seconds);
    o["plies"] = qint64(judged.moves.size());
    o["seconds"] = seconds;
    {
        std::lock_guard lock(w.mutex);
        if (stored == Stored::done) {
            ++w.done;
            w.plies += qint64(judged.moves.size());
        } else ++(stored == Stored::lost ? w.lost : w.deleted);
    }
    say(w, o,
        job_head(job) +
            (stored == Stored::done ? "judged, " + counted(qint64(judged.moves.size()), "ply", "plies") + took
             : stored == Stored::lost
                 ? std::string("the lease ran out and another worker has the job: nothing stored")
                 : "game " + std::to_string(job.game_id) + " was deleted while it was judged; its judgement is dropped"));
}

// One judging thread: claims, judges and stores until told to stop, the job limit is reached, or
// (with --exit-when-empty) nothing is left.
void judging_thread(Worker& w, int index) {
    Worker::Slot& slot = w.slots[std::size_t(index)];
    const std::string owner = w.name + "/" + std::to_string(index + 1);
    std::unique_ptr<db::GameDatabase> database;
    int failures = 0;
    while (!w.stop) {
        if (w.o.max_jobs && w.claimed.fetch_add(1) >= w.o.max_jobs) break;
        try {
            if (!database) database = connect(w);
            std::optional<db::ClaimedJob> job = db::JobQueue(database->sql()).claim(owner, w.o.lease);
            failures = 0;
            if (job && w.stop) { // a signal came during the claim
                db::JobQueue(database->sql()).release(*job);
                break;
            }
            if (!job) {
                if (w.o.max_jobs) --w.claimed;
                if (w.o.exit_when_empty && !db::JobQueue(database->sql()).any_open()) break;
                nap(w, w.o.poll);
                continue;
            }
            {
                std::lock_guard lock(w.mutex);
                slot = {job, false, false};
            }
            run_job(w, database, slot, *job);
            std::lock_guard lock(w.mutex);
            slot = {};
        } catch (const std::exception& e) {
            {
                std::lock_guard lock(w.mutex);
                slot = {}; // the job's lease runs out; another claim takes it
            }
            if (!connection_lost(e) || ++failures > 5) {
                print_err("gounki worker: " + std::string(e.what()) + "\n");
                w.failed = true;
                w.stop = true;
                break;
            }
            print_err("gounki worker: the connection to the database was lost (" + std::string(e.what()) +
                      "); connecting again\n");
            database.reset();
            nap(w, 0.5 * failures);
        }
    }
    --w.running_threads;
}

// Moves the leases of the jobs under way on, every third of the lease.
void heartbeat_thread(Worker& w) {
    std::unique_ptr<db::GameDatabase> database;
    std::set<std::string> lost; // the tokens of leases found taken
    while (!w.stop && w.running_threads > 0) {
        nap(w, std::max(0.05, w.o.lease / 3));
        std::vector<db::ClaimedJob> jobs;
        {
            std::lock_guard lock(w.mutex);
            for (const Worker::Slot& s : w.slots)
                if (s.job && !s.storing) jobs.push_back(*s.job);
        }
        try {
            if (!jobs.empty() && !database) database = connect(w);
            for (const db::ClaimedJob& job : jobs)
                if (!lost.contains(job.token) && !db::JobQueue(database->sql()).renew(job, w.o.lease)) {
                    lost.insert(job.token); // said once; the store will find the job gone too
                    print_err("gounki worker: " + job_head(job) + "the lease ran out and another worker has the job\n");
                }
        } catch (const std::exception& e) {
            print_err("gounki worker: cannot renew the leases (" + std::string(e.what()) + "); connecting again\n");
            database.reset();
        }
    }
}

// SIGINT or SIGTERM: the jobs being judged go back to the queue (a job being stored is let finish).
int give_back(Worker& w) {
    w.stop = true;
    int given = 0;
    for (;;) {
        bool storing = false;
        std::vector<db::ClaimedJob> jobs;
        {
            std::lock_guard lock(w.mutex);
            for (Worker::Slot& s : w.slots) {
                storing |= s.storing;
                if (s.job && !s.storing && !s.given_back) {
                    s.given_back = true;
                    jobs.push_back(*s.job);
                }
            }
        }
        if (!jobs.empty()) {
            try {
                auto database = connect(w);
                for (const db::ClaimedJob& job : jobs) db::JobQueue(database->sql()).release(job);
                given += int(jobs.size());
            } catch (const std::exception& e) {
                print_err("gounki worker: cannot give the jobs back (" + std::string(e.what()) +
                          "): their leases run out instead\n");
            }
        }
        if (!storing) return given;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

void print_summary(Worker& w, double seconds, int given_back) {
    std::lock_guard lock(w.mutex);
    const double rate = seconds > 0 ? double(w.plies) / seconds : 0;
    if (w.o.json) {
        QJsonObject o{{"type", "summary"},      {"worker", QString::fromStdString(w.name)},
                      {"done", w.done},         {"retried", w.retried},
                      {"failed", w.gave_up},    {"lost", w.lost}, {"deleted", w.deleted},
                      {"plies", w.plies},       {"seconds", seconds},
                      {"plies_per_second", rate}, {"given_back", given_back}};
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
    } else if (!quiet()) {
        char line[160];
        std::snprintf(line, sizeof line, " in %.1f s (%.1f plies/s)", seconds, rate);
        print_out("worker " + w.name + ": " + counted(w.done, "job") + " done, " + counted(w.plies, "ply", "plies") + line +
                  "; " + std::to_string(w.retried) + " to retry, " + std::to_string(w.gave_up) + " failed, " +
                  std::to_string(w.lost) + " lost to another worker" +
                  (w.deleted ? ", " + counted(w.deleted, "game") + " deleted while judged" : std::string()) +
                  (given_back ? "; stopped, " + counted(given_back, "job") + " given back to the queue" : std::string()) + "\n");
    }
    std::fflush(stdout);
}

} // namespace

int run_worker(const QCommandLineParser& p) {
    const Command& self = *find_command("worker");
    Worker w;
    int code = exit_ok;
    if (!read_worker_options(self, p, w.o, code)) return code;
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    w.name = std::string(host) + ":" + std::to_string(getpid());
    // A worker never creates a database: a mistyped file name would wait for jobs forever.
    if (!db::is_postgres_url(w.o.db) && !std::filesystem::exists(w.o.db))
        return usage_error(self, "no database at '" + w.o.db + "' (queue jobs with `gounki analyze --queue` first)");
    // Opened once here: a wrong URL or an old schema is a usage error before any thread starts.
    if (!open_database(self, p, db::Access::read_write)) return exit_usage;
    // The threads run with SIGINT and SIGTERM blocked; this one waits for them.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    QElapsedTimer timer;
    timer.start();
    w.slots.resize(std::size_t(w.o.threads));
    w.running_threads = w.o.threads;
    std::vector<std::thread> threads;
    for (int i = 0; i < w.o.threads; ++i) threads.emplace_back(judging_thread, std::ref(w), i);
    std::thread heartbeat(heartbeat_thread, std::ref(w));
    int signal_number = 0;
    const timespec tick{0, 100'000'000};
    while (w.running_threads > 0 && signal_number <= 0) signal_number = sigtimedwait(&signals, nullptr, &tick);
    if (signal_number > 0) {
        const int given = give_back(w);
        print_err(std::string("gounki worker: ") + (signal_number == SIGINT ? "SIGINT" : "SIGTERM") +
                  ": stopped; the jobs under way went back to the queue\n");
        print_summary(w, double(timer.nsecsElapsed()) / 1e9, given);
        // A thread still inside a search cannot be interrupted; its job is given back and it would
        // store nothing: leave without waiting for it.
        std::fflush(nullptr);
        protocol::kill_all_brains(); // no destructor runs: the brains' process groups go now
        std::_Exit(exit_ok);
    }
    for (std::thread& t : threads) t.join();
    w.stop = true; // wakes the heartbeat
    heartbeat.join();
    print_summary(w, double(timer.nsecsElapsed()) / 1e9, 0);
    // 2: the worker could not go on (the database); 1: a job ended failed in this run.
    return w.failed ? exit_usage : w.gave_up ? exit_findings : exit_ok;
}

} // namespace gounki::cli
