// gounki analyze [--db PATH] [IDS... | filters | --all] [--depth N | --nodes N] [--threads N] [--json]
// Judges stored games on a Qt thread pool; judgements are stored with their settings, so a rerun
// skips what is done and an interrupted run resumes.
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>

#include <unistd.h>

#include <cmath>
#include <optional>

#include "analysis/judge.hpp"
#include "cli/command.hpp"
#include "cli/db_options.hpp"
#include "cli/progress.hpp"
#include "core/gounki/notation.hpp"
#include "db/analysis_store.hpp"

namespace gounki::cli {

void describe_analyze(QCommandLineParser& p) {
    add_db_option(p);
    add_game_choice_options(p, "judge");
    p.addOption({"depth", "Search every position to this depth (plies).", "N"});
    p.addOption({"nodes",
                 "Search every position with this many nodes (default 100000 for Gounki, 20000 for Gomoku and "
                 "Ninuki).",
                 "N"});
    p.addOption({"threads", "Judge this many games at once (default: the number of cores).", "N"});
    p.addOption({"inaccuracy", "Drop in expected result (0..1) from which a move is an inaccuracy (default 0.05).", "X"});
    p.addOption({"mistake", "Drop from which a move is a mistake (default 0.10).", "X"});
    p.addOption({"blunder", "Drop from which a move is a blunder (default 0.20).", "X"});
    p.addOption({"force", "Judge again games already judged with the same settings."});
    p.addOption({"json", "Print one JSON object per judged ply, then one for the summary."});
}

namespace {

struct Job {
    std::int64_t id = 0;
    AnyPosition start; // the game's start, of its kind
    std::vector<Move> moves;
    analysis::JudgeSettings settings;
    std::string settings_text;
};

analysis::GameJudgement judge(const Job& job) {
    if (const auto* stone = job.start.stones()) return analysis::judge_stone_game(*stone, job.moves, job.settings);
    return analysis::judge_game(*job.start.gounki(), job.moves, job.settings);
}

struct Done {
    std::int64_t id = 0;
    analysis::GameJudgement judgement;
};

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
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
        pos.play(p.played);
    }
}

std::string side_line(const analysis::SideSummary& s) {
    using analysis::Verdict;
    char accuracy[32];
    std::snprintf(accuracy, sizeof accuracy, "accuracy %5.1f%%", s.accuracy);
    return std::string(accuracy) + ", " + counted(s.counts[int(Verdict::inaccuracy)], "inaccuracy", "inaccuracies") + ", " +
        counted(s.counts[int(Verdict::mistake)], "mistake") + ", " + counted(s.counts[int(Verdict::blunder)], "blunder") + ", " +
        counted(s.counts[int(Verdict::missed_win)], "missed win") + ", " +
        counted(s.counts[int(Verdict::allows_loss)], "allowed loss", "allowed losses");
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
    analysis::JudgeSettings settings = analysis::judge_defaults();
    // Stone games get their own default budget; --depth, --nodes and the thresholds apply to both.
    analysis::JudgeSettings stone_settings = analysis::stone_judge_defaults();
    int threads = QThread::idealThreadCount();
    GameChoice games;
    bool json = false, quiet = false, force = false;
};

// The search budget and the verdict thresholds; false (and `error` set) on a bad value.
bool read_judge_settings(const QCommandLineParser& p, AnalyzeOptions& o, std::string& error) {
    if (p.isSet("depth") && p.isSet("nodes")) return error = "give --depth or --nodes, not both", false;
    bool ok = true;
    if (p.isSet("depth")) {
        const int d = p.value("depth").toInt(&ok);
        if (!ok || d < 1 || d > 30) return error = "--depth must be a whole number from 1 to 30", false;
        o.settings.limits = {};
        o.settings.limits.depth = d;
        o.stone_settings.limits = o.settings.limits;
    }
    if (p.isSet("nodes")) {
        const qlonglong n = p.value("nodes").toLongLong(&ok);
        if (!ok || n < 100) return error = "--nodes must be a whole number of at least 100", false;
        o.settings.limits = {};
        o.settings.limits.nodes = std::uint64_t(n);
        o.stone_settings.limits = o.settings.limits;
    }
    analysis::JudgeSettings& s = o.settings;
    if (!read_fraction(p, "inaccuracy", s.inaccuracy) || !read_fraction(p, "mistake", s.mistake) ||
        !read_fraction(p, "blunder", s.blunder))
        return error = "--inaccuracy, --mistake and --blunder take a number between 0 and 1", false;
    if (!(s.inaccuracy <= s.mistake && s.mistake <= s.blunder))
        return error = "thresholds must grow: inaccuracy <= mistake <= blunder", false;
    o.stone_settings.inaccuracy = s.inaccuracy;
    o.stone_settings.mistake = s.mistake;
    o.stone_settings.blunder = s.blunder;
    return true;
}

bool read_options(const Command& self, const QCommandLineParser& p, AnalyzeOptions& o, int& code) {
    std::string error;
    if (!read_judge_settings(p, o, error)) return code = usage_error(self, error), false;
    if (p.isSet("threads")) {
        bool ok = false;
        o.threads = p.value("threads").toInt(&ok);
        if (!ok || o.threads < 1 || o.threads > 256)
            return code = usage_error(self, "--threads must be a whole number from 1 to 256"), false;
    }
    if (!read_game_choice(self, p, "judge", o.games, code)) return false;
    o.json = p.isSet("json");
    o.quiet = cli::quiet(); // --quiet (every command): also no per-game lines
    o.force = p.isSet("force");
    return true;
}

struct Totals {
    std::size_t judged = 0, plies = 0;
    int skipped = 0;
    std::uint64_t nodes = 0;
    bool any_stone = false;
    double seconds = 0;
};

// Runs the jobs on a pool of o.threads; results come back in order, each stored in its own
// transaction as soon as it is ready, so an interruption loses at most the games under way.
void judge_and_store(db::GameDatabase& database, db::AnalysisStore& store, const std::vector<Job>& jobs, const AnalyzeOptions& o,
                     Totals& totals) {
    QThreadPool pool;
    pool.setMaxThreadCount(o.threads);
    for (const Job& j : jobs) totals.plies += j.moves.size();
    Progress progress("judging", jobs.size(), !o.quiet && !o.json);
    QElapsedTimer timer;
    timer.start();
    QFuture<Done> future = QtConcurrent::mapped(&pool, jobs, [](const Job& job) { return Done{job.id, judge(job)}; });
    for (int i = 0; i < int(jobs.size()); ++i) {
        Done done = future.resultAt(i);
        {
            db::Transaction tx(database.sql(), db::TransactionKind::immediate);
            store.save(done.id, jobs[std::size_t(i)].settings_text, done.judgement);
            tx.commit();
        }
        // Print what is stored (expected results are kept to 1/65535), so a rerun prints the same.
        if (auto kept = db::decode_judgement(db::encode_judgement(done.judgement))) done.judgement = std::move(*kept);
        totals.nodes += done.judgement.nodes;
        if (o.json) print_ply_lines(done.id, jobs[std::size_t(i)].start, done.judgement);
        else if (!o.quiet) {
            progress.clear();
            print_out("game " + std::to_string(done.id) + ": White " + side_line(done.judgement.sides[0]) + "\n" +
                      std::string(std::to_string(done.id).size() + 7, ' ') + "Black " + side_line(done.judgement.sides[1]) +
                      "\n");
        }
        progress.update(std::size_t(i) + 1);
    }
    progress.finish();
    totals.judged = jobs.size();
    totals.seconds = double(timer.nsecsElapsed()) / 1e9;
}

void print_summary(const AnalyzeOptions& o, const Totals& t, const std::string& settings_text,
                   const std::string& stone_settings_text) {
    if (o.json) {
        QJsonObject obj{{"type", "summary"},        {"judged", qint64(t.judged)},
                        {"skipped", t.skipped},     {"plies", qint64(t.plies)},
                        {"nodes", qint64(t.nodes)}, {"seconds", t.seconds},
                        {"threads", o.threads},     {"settings", QString::fromStdString(settings_text)}};
        if (t.any_stone) obj["stone_settings"] = QString::fromStdString(stone_settings_text);
        print_out(QJsonDocument(obj).toJson(QJsonDocument::Compact).toStdString() + "\n");
    } else if (!o.quiet) {
        char rate[160];
        std::snprintf(rate, sizeof rate, " in %.1f s on %d threads, %.0f nodes/s; ", t.seconds, o.threads,
                      t.seconds > 0 ? double(t.nodes) / t.seconds : 0.0);
        print_out("judged " + counted(qint64(t.judged), "game") + " (" + counted(qint64(t.plies), "ply", "plies") + ")" + rate +
                  std::to_string(t.skipped) + " already judged with these settings (--force judges them again)\nsettings: " +
                  settings_text + "\n" + (t.any_stone ? "stone-game settings: " + stone_settings_text + "\n" : std::string()));
    }
}

} // namespace

int run_analyze(const QCommandLineParser& p) {
    const Command& self = *find_command("analyze");
    AnalyzeOptions o;
    int code = exit_ok;
    if (!read_options(self, p, o, code)) return code;
    auto database = open_database(self, p, db::Access::read_write);
    if (!database) return exit_usage;
    try {
        db::AnalysisStore store(database->sql());
        const std::string settings_text = db::analysis_settings_text(o.settings);
        const std::string stone_settings_text = db::analysis_settings_text(o.stone_settings);
        std::vector<db::StoredGame> games;
        if (!chosen_games(self, *database, o.games, games)) return exit_usage;
        std::vector<Job> jobs;
        Totals totals;
        for (const db::StoredGame& g : games) {
            const bool stone = is_stone_game(g.summary.kind);
            totals.any_stone |= stone;
            const std::string& text = stone ? stone_settings_text : settings_text;
            const AnyPosition start = stone ? AnyPosition(g.stone_start) : AnyPosition(g.start);
            if (!o.force && store.has(g.summary.id, text)) {
                ++totals.skipped;
                if (o.json)
                    if (auto stored = store.load(g.summary.id, text)) print_ply_lines(g.summary.id, start, stored->judgement);
                continue;
            }
            jobs.push_back({g.summary.id, start, g.moves, stone ? o.stone_settings : o.settings, text});
        }
        judge_and_store(*database, store, jobs, o, totals);
        print_summary(o, totals, settings_text, stone_settings_text);
    } catch (const std::exception& e) { return database_error(self, e); }
    return exit_ok;
}

} // namespace gounki::cli
