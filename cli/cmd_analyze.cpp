// gounki analyze [--db PATH] [IDS... | filters | --all] [--depth N | --nodes N | --engine CMD [--engine-time MS]]
//                [--book N] [--threads N] [--json] [--queue]
// Judges stored games on a Qt thread pool; judgements are stored with their settings, so a rerun
// skips what is done and an interrupted run resumes. With --engine, stone games are judged by an
// external Gomocup brain, one process per pool thread (protocol/brain_judge.hpp). Opening moves of
// the database's own tree are book, not judged (cli/judging.hpp find_book). SIGINT or SIGTERM stops
// taking games: the games under way are finished and stored, and the run says how far it got.
// With --queue nothing is judged here: one job per game goes to the jobs table for `gounki worker`.
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>

#include <QLocale>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <mutex>
#include <optional>

#include "analysis/judge.hpp"
#include "cli/command.hpp"
#include "cli/db_options.hpp"
#include "cli/progress.hpp"
#include "core/gounki/notation.hpp"
#include "db/analysis_store.hpp"
#include "db/job_queue.hpp"
#include "cli/brain_options.hpp"
#include "cli/judging.hpp"

namespace gounki::cli {

void describe_analyze(QCommandLineParser& p) {
    add_db_option(p);
    add_game_choice_options(p, "judge");
    p.addOption({"depth", "Search every position to this depth (plies).", "N"});
    p.addOption({"nodes",
                 "Search every position with this many nodes (default 30000 for Gounki, 10000 for the stone "
                 "games; four times that for a graded verdict's second look).",
                 "N"});
    p.addOption({"threads", "Judge this many games at once (default: the number of cores).", "N"});
    p.addOption({"confirm",
                 "Search a ply whose verdict comes out graded (inaccuracy, mistake, blunder) again with C times the "
                 "budget, and take that search's verdict (default 4; 1: no second look).",
                 "C"});
    p.addOption({"inaccuracy", "Drop in expected result (0..1) from which a move is an inaccuracy (default 0.05).", "X"});
    p.addOption({"mistake", "Drop from which a move is a mistake (default 0.10).", "X"});
    p.addOption({"blunder", "Drop from which a move is a blunder (default 0.20).", "X"});
    add_brain_options(p,
                      "Judge Gomoku and Renju games with this external Gomocup-protocol engine (a command line run by "
                      "/bin/sh), one process per thread.",
                      "per position");
    p.addOption({"book",
                 QString::fromStdString("An opening move played, from its position, in at least N games of the database is "
                                        "book: not judged (default " +
                                        std::to_string(default_book_games) + "; 0 judges every move)."),
                 "N"});
    p.addOption({"force", "Judge again games already judged with the same settings (with --queue: queue them again)."});
    p.addOption({"queue",
                 "Judge nothing here: record one job per chosen game and settings for `gounki worker` processes "
                 "(games already judged, queued or failed with these settings are skipped)."});
    p.addOption({"json", "Print one JSON object per judged ply, then one for the summary."});
}

namespace {

double pieces(analysis::Score s) { return double(s) / 100.0; }

QJsonValue win_in_json(int w) { return w ? QJsonValue(w) : QJsonValue(QJsonValue::Null); }

// One line per ply (KataGo's habit: each line says what it is about and whose view its scores are).
void print_ply_lines(std::int64_t id, const AnyPosition& start, const analysis::GameJudgement& j) {
    AnyPosition pos = start;
    for (const analysis::PlyJudgement& p : j.plies) {
        QJsonArray pv;
        {
            AnyPosition line = pos;
            for (Move m : p.pv) {
                pv.append(QString::fromStdString(line.move_text(m)));
                line.play(m);
            }
        }
        QJsonObject o{
            {"type", "ply"},
            {"game", qint64(id)},
            {"ply", p.ply},
            {"side", pos.side_to_move() == Color::white ? "white" : "black"},
            {"perspective", "side to move"},
            {"played", QString::fromStdString(pos.move_text(p.played))},
            {"best", p.best ? QJsonValue(QString::fromStdString(pos.move_text(p.best))) : QJsonValue()},
            {"played_score", pieces(p.played_score)},
            {"best_score", pieces(p.best_score)},
            {"played_win_in", win_in_json(p.played_win_in)},
            {"best_win_in", win_in_json(p.best_win_in)},
            {"expected_before", p.expected_best},
            {"expected_after", p.expected_played},
            {"verdict",
             QString::fromUtf8(analysis::verdict_name(p.verdict).data(), qsizetype(analysis::verdict_name(p.verdict).size()))},
            {"pv", pv}};
        if (p.verdict == analysis::Verdict::book) { // not searched: no best move, no scores
            for (const char* key :
                 {"best", "played_score", "best_score", "played_win_in", "best_win_in", "expected_before", "expected_after"})
                o[key] = QJsonValue();
        } else if (!p.scored) { // an external engine without evaluations: which move it prefers, no grade
            for (const char* key : {"played_score", "best_score", "expected_before", "expected_after"}) o[key] = QJsonValue();
            o["graded"] = false;
            o["verdict"] = p.played == p.best ? "best" : "engine-prefers";
        }
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
        pos.play(p.played);
    }
}

std::string side_line(const analysis::SideSummary& s) {
    using analysis::Verdict;
    char accuracy[32] = "no move graded"; // every move book, or ungraded (an engine without evaluations)
    if (s.moves) std::snprintf(accuracy, sizeof accuracy, "accuracy %5.1f%%", s.accuracy);
    const int book = s.counts[int(Verdict::book)];
    return std::string(accuracy) + ", " + (book ? counted(book, "book move") + ", " : std::string()) +
        counted(s.counts[int(Verdict::inaccuracy)], "inaccuracy", "inaccuracies") + ", " +
        counted(s.counts[int(Verdict::mistake)], "mistake") + ", " + counted(s.counts[int(Verdict::blunder)], "blunder") + ", " +
        counted(s.counts[int(Verdict::missed_win)], "missed win") + ", " +
        counted(s.counts[int(Verdict::allows_loss)], "allowed loss", "allowed losses");
}

// Under the game's summary, for an external engine: the graded moves that lost something and the
// moves the engine would not have played where it gave no evaluation to grade them.
std::string engine_notes(const AnyPosition& start, const analysis::GameJudgement& j) {
    std::string out;
    AnyPosition pos = start;
    for (const analysis::PlyJudgement& p : j.plies) {
        const bool differs = p.best && p.played != p.best;
        if (p.verdict == analysis::Verdict::book) {
            pos.play(p.played);
            continue;
        }
        if ((p.scored && p.verdict != analysis::Verdict::best) || (!p.scored && differs)) {
            out += "  ply " + std::to_string(p.ply + 1) + " " + (pos.side_to_move() == Color::white ? "White " : "Black ") +
                pos.move_text(p.played) + ": ";
            const std::string prefers = differs ? "engine prefers " + pos.move_text(p.best) : std::string("engine's move");
            if (p.scored)
                out += std::string(analysis::verdict_name(p.verdict)) + " (" + prefers + ")\n";
            else out += prefers + " (no evaluation to grade the move with)\n";
        }
        pos.play(p.played);
    }
    return out;
}

bool read_fraction(const QCommandLineParser& p, const char* name, double& out) {
    if (!p.isSet(name)) return true;
    bool ok = false;
    const double v = p.value(name).toDouble(&ok);
    if (!ok || !(v > 0.0) || v >= 1.0) return false;
    out = v;
    return true;
}

// What the command line asks for, read and checked before the database is opened.
struct AnalyzeOptions {
    // Stone games get their own default budget; --depth, --nodes and the thresholds apply to both.
    JudgeSetup setup;
    int threads = QThread::idealThreadCount();
    std::optional<protocol::BrainSettings> engine; // --engine
    GameChoice games;
    bool json = false, quiet = false, force = false, queue = false;
};

// The search budget and the verdict thresholds; false (and `error` set) on a bad value.
bool read_judge_settings(const QCommandLineParser& p, AnalyzeOptions& o, std::string& error) {
    if (p.isSet("depth") && p.isSet("nodes")) return error = "give --depth or --nodes, not both", false;
    bool ok = true;
    if (p.isSet("depth")) {
        const int d = p.value("depth").toInt(&ok);
        if (!ok || d < 1 || d > 30) return error = "--depth must be a whole number from 1 to 30", false;
        o.setup.gounki.limits = {};
        o.setup.gounki.limits.depth = d;
        o.setup.stones.limits = o.setup.gounki.limits;
    }
    if (p.isSet("nodes")) {
        const qlonglong n = p.value("nodes").toLongLong(&ok);
        if (!ok || n < 100) return error = "--nodes must be a whole number of at least 100", false;
        o.setup.gounki.limits = {};
        o.setup.gounki.limits.nodes = std::uint64_t(n);
        o.setup.stones.limits = o.setup.gounki.limits;
    }
    if (p.isSet("confirm")) {
        const int c = p.value("confirm").toInt(&ok);
        if (!ok || c < 1 || c > 100) return error = "--confirm must be a whole number from 1 to 100 (1: no second look)", false;
        o.setup.gounki.confirm_factor = o.setup.stones.confirm_factor = c;
    }
    analysis::JudgeSettings& s = o.setup.gounki;
    if (!read_fraction(p, "inaccuracy", s.inaccuracy) || !read_fraction(p, "mistake", s.mistake) ||
        !read_fraction(p, "blunder", s.blunder))
        return error = "--inaccuracy, --mistake and --blunder take a number between 0 and 1", false;
    if (!(s.inaccuracy <= s.mistake && s.mistake <= s.blunder))
        return error = "thresholds must grow: inaccuracy <= mistake <= blunder", false;
    o.setup.stones.inaccuracy = s.inaccuracy;
    o.setup.stones.mistake = s.mistake;
    o.setup.stones.blunder = s.blunder;
    if (p.isSet("book")) {
        const int n = p.value("book").toInt(&ok);
        if (!ok || n < 0 || n > 1'000'000'000)
            return error = "--book must be a whole number of games from 0 up (0: no book)", false;
        o.setup.gounki.book = o.setup.stones.book = n;
    }
    return true;
}

bool read_engine_options(const QCommandLineParser& p, AnalyzeOptions& o, std::string& error);

bool read_options(const Command& self, const QCommandLineParser& p, AnalyzeOptions& o, int& code) {
    std::string error;
    if (!read_judge_settings(p, o, error)) return code = usage_error(self, error), false;
    if (p.isSet("threads")) {
        bool ok = false;
        o.threads = p.value("threads").toInt(&ok);
        if (!ok || o.threads < 1 || o.threads > 256)
            return code = usage_error(self, "--threads must be a whole number from 1 to 256"), false;
    }
    if (!read_engine_options(p, o, error)) return code = usage_error(self, error), false;
    if (!read_game_choice(self, p, "judge", o.games, code)) return false;
    o.json = p.isSet("json");
    o.quiet = cli::quiet(); // --quiet (every command): also no per-game lines
    o.force = p.isSet("force");
    o.queue = p.isSet("queue");
    return true;
}

// The options that change a judgement, in the order judge_options_text writes them.
constexpr const char* judge_option_names[] = {"depth", "nodes", "inaccuracy", "mistake", "blunder",
                                              "engine", "engine-time", "engine-nodes", "book", "confirm"};

// "--depth, --nodes, ...": the judging options, for messages.
std::string judge_option_list() {
    std::string out;
    for (const char* name : judge_option_names) out += (out.empty() ? "--" : ", --") + std::string(name);
    return out;
}

// The engine's part of the options; false (and `error` set) on a bad value.
bool read_engine_options(const QCommandLineParser& p, AnalyzeOptions& o, std::string& error) {
    if ((p.isSet("engine-time") || p.isSet("engine-nodes")) && !p.isSet("engine"))
        return error = "--engine-time and --engine-nodes are for --engine", false;
    if (p.isSet("engine")) {
        if (p.isSet("depth") || p.isSet("nodes") || p.isSet("confirm"))
            return error = "--engine judges by time (--engine-time), not by --depth, --nodes or --confirm", false;
        protocol::BrainSettings b;
        if (!read_brain_settings(p, b, error)) return false;
        o.engine = std::move(b);
    }
    return true;
}

struct Totals {
    std::size_t judged = 0, plies = 0;
    int skipped = 0;
    int failed = 0; // left unjudged: the engine failed, or cannot play the game, or the game was deleted meanwhile
    // A judgement that could not be stored (the database stayed locked past the timeout): the game,
    // and the run stopped there.
    std::optional<std::int64_t> unstored;
    std::string unstored_error;
    std::string engine; // the external engine's name
    std::uint64_t nodes = 0;
    bool any_stone = false;
    double seconds = 0;
};

// The database the games are read from and judgements go to: a lost connection (PostgreSQL) is
// opened again with back-off (two minutes at most), said on standard error, and the work tried
// again (a judgement replaces one with the same settings, so a store that did reach the server
// before the loss is not doubled).
class Storage {
public:
    Storage(std::unique_ptr<db::GameDatabase>& database, std::string path)
        : database_(database), path_(std::move(path)), store_(std::make_unique<db::AnalysisStore>(database->sql())) {}

    // f(database, store), tried again after a lost connection; `game` names the game in the message.
    template <typename F>
    auto run(std::int64_t game, F f) {
        for (int tries = 1;; ++tries) {
            try {
                return f(*database_, *store_);
            } catch (const std::exception& e) {
                if (!connection_lost(e) || tries == 3) throw;
                print_err("gounki analyze: game " + std::to_string(game) + ": the connection to the database was lost (" +
                          e.what() + "); connecting again\n");
                store_.reset();
                database_.reset();
                database_ = connect_again("analyze", path_, db::Access::read_write, 120);
                store_ = std::make_unique<db::AnalysisStore>(database_->sql());
            }
        }
    }
    db::AnalysisStore& analyses() { return *store_; }
    // False when the game was deleted while it was judged (nothing stored).
    bool store(const JudgeJob& job, const analysis::GameJudgement& judgement, const std::string& engine) {
        return run(job.id, [&](db::GameDatabase& d, db::AnalysisStore& s) { return store_judgement(d, s, job, judgement, engine); });
    }

private:
    std::unique_ptr<db::GameDatabase>& database_;
    std::string path_;
    std::unique_ptr<db::AnalysisStore> store_;
};

// SIGINT or SIGTERM during judging: its number, so that no new game is started (the games under way
// finish and are stored). A second one ends the process at once, which leaves nothing half-stored
// either (each game is stored in one transaction); the external brains' process groups are killed
// first (a brain runs in a group of its own, which a terminal's Ctrl-C does not reach).
std::atomic<int> stop_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);
// A judgement could not be stored: no new game is started either.
std::atomic<bool> stop_storing{false};

extern "C" void on_stop_signal(int signal_number) {
    if (stop_signal.exchange(signal_number) == 0) return;
    protocol::kill_all_brains();
    ::signal(signal_number, SIG_DFL);
    ::raise(signal_number);
}

// Catches SIGINT and SIGTERM for its lifetime.
class StopSignals {
public:
    StopSignals() {
        stop_signal.store(0);
        struct sigaction action {};
        action.sa_handler = on_stop_signal;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGINT, &action, &old_int_);
        ::sigaction(SIGTERM, &action, &old_term_);
    }
    ~StopSignals() {
        ::sigaction(SIGINT, &old_int_, nullptr);
        ::sigaction(SIGTERM, &old_term_, nullptr);
    }
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

private:
    struct sigaction old_int_ = {}, old_term_ = {};
};

// The plies of a job that are searched (its book plies are not).
std::uint64_t plies_to_search(const JudgeJob& job) {
    return job.moves.size() - std::min(job.moves.size(), std::size_t(std::max(job.settings.book_plies, 0)));
}

// A game's result off the pool: judged, or not started because a stop signal came first.
struct Judged {
    JudgeDone done;
    double seconds = 0; // the judging thread's time on it
    bool started = true;
};

// Prints a judged game's lines (what is stored: expected results are kept to 1/65535, so a rerun
// prints the same).
void print_judged(const JudgeJob& job, JudgeDone& done, const AnalyzeOptions& o, bool with_notes, Progress& progress) {
    if (auto kept = db::decode_judgement(db::encode_judgement(done.judgement))) done.judgement = std::move(*kept);
    if (o.json) print_ply_lines(done.id, job.start, done.judgement);
    else if (!o.quiet) {
        progress.clear();
        int book = 0;
        for (const analysis::SideSummary& side : done.judgement.sides) book += side.counts[int(analysis::Verdict::book)];
        print_out("game " + std::to_string(done.id) + ": " +
                  (book ? counted(book, "book ply", "book plies") + "; " : std::string()) + "White " +
                  side_line(done.judgement.sides[0]) + "\n" + std::string(std::to_string(done.id).size() + 7, ' ') + "Black " +
                  side_line(done.judgement.sides[1]) + "\n" +
                  (with_notes ? engine_notes(job.start, done.judgement) : std::string()));
    }
}

// Runs the jobs on a pool of o.threads; results come back in order, each stored in its own
// transaction as soon as it is ready, so an interruption loses at most the games under way. After a
// stop signal no game is started; the games under way are finished and stored.
void judge_and_store(Storage& storage, const std::vector<JudgeJob>& jobs, const AnalyzeOptions& o, BrainPool* brains,
                     Totals& totals) {
    QThreadPool pool;
    pool.setMaxThreadCount(o.threads);
    Progress progress("judging", jobs.size(), !o.quiet && !o.json);
    const int engine_ms = o.engine ? std::max(1, o.engine->turn_ms) : 0;
    // The plies of each game kind at that kind's cost (GameKind's values as the estimate's kinds).
    analysis::WorkEstimate estimate(analysis::prior_ply_costs(o.setup.gounki, o.setup.stones, engine_ms));
    for (const JudgeJob& job : jobs) estimate.add(int(job.start.kind()), plies_to_search(job));
    QElapsedTimer timer;
    timer.start();
    stop_storing.store(false);
    QFuture<Judged> future = QtConcurrent::mapped(&pool, jobs, [brains](const JudgeJob& job) {
        if (stop_signal.load() || stop_storing.load()) return Judged{{job.id, {}, {}}, 0, false};
        QElapsedTimer busy;
        busy.start();
        JudgeDone done = judge(job, brains);
        return Judged{std::move(done), double(busy.nsecsElapsed()) / 1e9, true};
    });
    for (int i = 0; i < int(jobs.size()); ++i) {
        Judged result = future.resultAt(i);
        if (!result.started) continue;
        const JudgeJob& job = jobs[std::size_t(i)];
        estimate.done(int(job.start.kind()), plies_to_search(job), result.seconds);
        JudgeDone& done = result.done;
        if (!done.error.empty()) {
            progress.clear();
            print_err("gounki analyze: game " + std::to_string(done.id) + ": " + done.error + "; the game is left unjudged\n");
            ++totals.failed;
            progress.update(std::size_t(i) + 1, estimate);
            continue;
        }
        if (totals.unstored) continue; // the run stopped: the games under way are not stored
        bool stored = false;
        try {
            // Waits for another program's lock up to the timeout (saying so after a moment).
            stored = storage.store(job, done.judgement, totals.engine);
        } catch (const db::DbError& e) {
            if (!e.is_busy()) throw;
            // Still locked: this game and those under way stay unjudged; those stored are kept.
            progress.clear();
            totals.unstored = done.id;
            totals.unstored_error = e.what();
            stop_storing.store(true);
            continue;
        }
        if (!stored) {
            progress.clear();
            print_err("gounki analyze: game " + std::to_string(done.id) +
                      " was deleted while it was judged; its judgement is dropped\n");
            ++totals.failed;
            progress.update(std::size_t(i) + 1, estimate);
            continue;
        }
        ++totals.judged;
        totals.plies += job.moves.size();
        totals.nodes += done.judgement.nodes;
        print_judged(job, done, o, brains != nullptr, progress);
        progress.update(std::size_t(i) + 1, estimate);
    }
    progress.finish();
    totals.seconds = double(timer.nsecsElapsed()) / 1e9;
}

void print_summary(const AnalyzeOptions& o, const Totals& t) {
    const std::string& settings_text = o.setup.gounki_text;
    const std::string& stone_settings_text = o.setup.stone_text;
    if (o.json) {
        QJsonObject obj{{"type", "summary"},        {"judged", qint64(t.judged)},
                        {"skipped", t.skipped},     {"plies", qint64(t.plies)},
                        {"nodes", qint64(t.nodes)}, {"seconds", t.seconds},
                        {"threads", o.threads},     {"settings", QString::fromStdString(settings_text)}};
        if (t.any_stone) obj["stone_settings"] = QString::fromStdString(stone_settings_text);
        if (!t.engine.empty()) obj["engine"] = QString::fromStdString(t.engine);
        if (t.failed) obj["failed"] = t.failed;
        if (t.unstored) obj["unstored"] = qint64(*t.unstored);
        if (const int signal_number = stop_signal.load()) obj["interrupted"] = signal_number == SIGINT ? "SIGINT" : "SIGTERM";
        print_out(QJsonDocument(obj).toJson(QJsonDocument::Compact).toStdString() + "\n");
    } else if (!o.quiet) {
        char rate[160];
        if (t.engine.empty())
            std::snprintf(rate, sizeof rate, " in %.1f s on %d threads, %.0f nodes/s; ", t.seconds, o.threads,
                          t.seconds > 0 ? double(t.nodes) / t.seconds : 0.0);
        else std::snprintf(rate, sizeof rate, " in %.1f s on %d threads; ", t.seconds, o.threads);
        print_out("judged " + counted(qint64(t.judged), "game") + " (" + counted(qint64(t.plies), "ply", "plies") + ")" + rate +
                  std::to_string(t.skipped) + " already judged with these settings (--force judges them again)\n" +
                  (t.engine.empty() ? "settings: " + settings_text + "\n" +
                           (t.any_stone ? "stone-game settings: " + stone_settings_text + "\n" : std::string())
                                    : "engine settings: " + stone_settings_text + "\n") +
                  (t.failed ? counted(t.failed, "game") + " left unjudged (see the errors above)\n" : std::string()));
    }
}

// Starts the first brain (in this thread: a command that does not run fails before any game) and
// reads its name from ABOUT.
bool start_engine(const protocol::BrainSettings& settings, std::unique_ptr<BrainPool>& pool, std::string& name) {
    pool = std::make_unique<BrainPool>(settings);
    try {
        name = pool->first_name();
    } catch (const std::exception& e) {
        print_err("gounki analyze: cannot use the engine: " + std::string(e.what()) + "\n");
        return false;
    }
    return true;
}

// After a stop signal: how many of the chosen games are judged (now or before), on standard error;
// the exit status 128 + the signal.
int say_stopped(int signal_number, const Totals& totals, std::size_t chosen) {
    const QLocale english(QLocale::English, QLocale::UnitedStates); // 1,401
    print_err("gounki analyze: " + std::string(signal_number == SIGINT ? "SIGINT" : "SIGTERM") + ": stopped; " +
              english.toString(qlonglong(totals.judged) + totals.skipped).toStdString() + " of " +
              english.toString(qlonglong(chosen)).toStdString() + " judged; run again to finish\n");
    return 128 + signal_number;
}

// After a judgement that could not be stored: why, which game is left unjudged, how many of the
// chosen games are judged (now or before), on standard error; the exit status of a database error.
int say_unstored(const Totals& totals, std::size_t chosen) {
    const QLocale english(QLocale::English, QLocale::UnitedStates);
    const std::string game = "game " + std::to_string(*totals.unstored);
    print_err("gounki analyze: " + game + ": cannot store its judgement: " + totals.unstored_error + "\n" +
              "gounki analyze: stopped; " + game + " is left unjudged; " +
              english.toString(qlonglong(totals.judged) + totals.skipped).toStdString() + " of " +
              english.toString(qlonglong(chosen)).toStdString() + " judged; run again to judge the rest\n");
    return exit_usage;
}

// --queue: one job per chosen game that is not judged, queued or failed with these settings yet,
// all recorded in one transaction.
void queue_jobs(db::GameDatabase& database, db::AnalysisStore& store, const std::vector<db::StoredGame>& games,
                const AnalyzeOptions& o, const std::string& options, Totals& totals) {
    db::JobQueue queue(database.sql());
    std::int64_t queued = 0, open = 0, failed_before = 0;
    db::Transaction tx(database.sql(), db::TransactionKind::immediate);
    for (const db::StoredGame& g : games) {
        if (o.engine) {
            if (const std::string why = engine_cannot_judge(g, totals.engine); !why.empty()) {
                print_err("gounki analyze: " + why + "; the game is not queued\n");
                ++totals.failed;
                continue;
            }
        }
        const JudgeJob job = judge_job(g, o.setup);
        if (!o.force && store.has(g.summary.id, job.settings_text)) {
            ++totals.skipped;
            continue;
        }
        switch (queue.add(g.summary.id, job.settings_text, options, o.engine ? o.engine->command : std::string(), o.force)) {
        case db::JobQueue::Added::queued: ++queued; break;
        case db::JobQueue::Added::already_open: ++open; break;
        case db::JobQueue::Added::failed_before: ++failed_before; break;
        case db::JobQueue::Added::no_game:
            print_err("gounki analyze: game " + std::to_string(g.summary.id) + " was deleted meanwhile; it is not queued\n");
            ++totals.failed;
            break;
        }
    }
    tx.commit();
    if (o.json) {
        QJsonObject obj{{"type", "queue"},        {"queued", qint64(queued)},       {"already_judged", totals.skipped},
                        {"already_queued", qint64(open)}, {"failed_before", qint64(failed_before)},
                        {"settings", QString::fromStdString(o.setup.gounki_text)},
                        {"stone_settings", QString::fromStdString(o.setup.stone_text)}};
        if (totals.failed) obj["not_queued"] = totals.failed;
        print_out(QJsonDocument(obj).toJson(QJsonDocument::Compact).toStdString() + "\n");
    } else if (!o.quiet)
        print_out("queued " + counted(queued, "job") + "; skipped " + std::to_string(totals.skipped) +
                  " already judged with these settings, " + std::to_string(open) + " already queued or running" +
                  (failed_before ? ", " + std::to_string(failed_before) + " failed before (gounki jobs --retry-failed)" : std::string()) +
                  (o.force ? "" : " (--force queues them again)") + "\nrun `gounki worker` to judge them\n");
}

} // namespace

std::string judge_options_text(const QCommandLineParser& p) {
    QJsonArray args;
    for (const char* name : judge_option_names)
        if (p.isSet(name)) {
            args.append(QString("--") + name);
            args.append(p.value(name));
        }
    return QJsonDocument(args).toJson(QJsonDocument::Compact).toStdString();
}

bool judge_setup_from_options(const std::string& options, JudgeSetup& setup, std::optional<protocol::BrainSettings>& engine,
                              std::string& error) {
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(options));
    if (!doc.isArray()) return error = "the job's options are not a JSON array of arguments: " + options, false;
    QStringList args;
    for (const QJsonValue v : doc.array()) {
        if (!v.isString()) return error = "the job's options hold something other than text: " + options, false;
        args.append(v.toString());
    }
    if (!judge_setup_from_arguments(args, setup, engine, error)) return error = "the job's options " + options + ": " + error, false;
    return true;
}

bool judge_setup_from_arguments(QStringList args, JudgeSetup& setup, std::optional<protocol::BrainSettings>& engine,
                                std::string& error) {
    args.prepend("gounki-analyze");
    QCommandLineParser p;
    describe_analyze(p);
    if (!p.parse(args)) return error = p.errorText().toStdString(), false;
    for (const QString& name : p.optionNames())
        if (std::find(std::begin(judge_option_names), std::end(judge_option_names), name.toStdString()) == std::end(judge_option_names))
            return error = "--" + name.toStdString() + " is no judging option (" + judge_option_list() + ")", false;
    if (!p.positionalArguments().isEmpty())
        return error = "'" + p.positionalArguments().front().toStdString() + "' is no judging option (" + judge_option_list() + ")", false;
    AnalyzeOptions o;
    if (!read_judge_settings(p, o, error) || !read_engine_options(p, o, error)) return false;
    setup = o.setup;
    engine = o.engine;
    return true;
}

int run_analyze(const QCommandLineParser& p) {
    const Command& self = *find_command("analyze");
    AnalyzeOptions o;
    int code = exit_ok;
    if (!read_options(self, p, o, code)) return code;
    auto database = open_database(self, p, db::Access::read_write);
    if (!database) return exit_usage;
    try {
        Storage storage(database, db_path(p));
        std::vector<db::StoredGame> games;
        if (!chosen_games(self, *database, o.games, games)) return exit_usage;
        Totals totals;
        std::unique_ptr<BrainPool> brains;
        if (o.engine && !start_engine(*o.engine, brains, totals.engine)) return exit_findings;
        o.setup.engine = totals.engine;
        o.setup.set_texts(brains ? &brains->settings() : nullptr);
        std::vector<JudgeJob> jobs;
        if (o.queue) {
            queue_jobs(*database, storage.analyses(), games, o, judge_options_text(p), totals); // one transaction
            return totals.failed ? exit_findings : exit_ok;
        }
        const StopSignals signals;
        BookTree book;
        for (const db::StoredGame& g : games) {
            if (brains) {
                if (const std::string why = engine_cannot_judge(g, totals.engine); !why.empty()) {
                    print_err("gounki analyze: " + why + "; the game is left unjudged\n");
                    ++totals.failed;
                    continue;
                }
            }
            totals.any_stone |= is_stone_game(g.summary.kind);
            JudgeJob job = judge_job(g, o.setup);
            const auto stored = o.force ? std::nullopt : storage.run(g.summary.id, [&](db::GameDatabase&, db::AnalysisStore& s) {
                if (!s.has(g.summary.id, job.settings_text)) return std::optional<db::StoredJudgement>();
                return o.json ? s.load(g.summary.id, job.settings_text) : std::optional(db::StoredJudgement{});
            });
            if (stored) {
                ++totals.skipped;
                if (o.json) print_ply_lines(g.summary.id, job.start, stored->judgement);
                continue;
            }
            if (stop_signal.load()) continue; // stopped: the games judged before are still counted
            storage.run(g.summary.id, [&](db::GameDatabase& d, db::AnalysisStore&) { find_book(d, book, job); });
            jobs.push_back(std::move(job));
        }
        if (!stop_signal.load()) judge_and_store(storage, jobs, o, brains.get(), totals);
        print_summary(o, totals);
        if (totals.unstored) return say_unstored(totals, games.size());
        if (const int signal_number = stop_signal.load()) return say_stopped(signal_number, totals, games.size());
        if (totals.failed) return exit_findings;
    } catch (const std::exception& e) { return database_error(self, e); }
    return exit_ok;
}

} // namespace gounki::cli
