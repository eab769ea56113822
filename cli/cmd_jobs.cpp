// gounki jobs [--db URL] [--json] [--failed] [--retry-failed] [--clear-done] [--window MINUTES]
// The analysis queue (db/job_queue.hpp): how many jobs are queued, running, done and failed; the
// rate of the last minutes in jobs and plies, and the time the queue still needs at that rate; the
// running jobs with their workers and leases; the failed jobs with their errors.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

#include "cli/command.hpp"
#include "cli/db_options.hpp"
#include "db/job_queue.hpp"

namespace gounki::cli {

void describe_jobs(QCommandLineParser& p) {
    add_db_option(p);
    p.addOption({"failed", "List every failed job with its error (otherwise the first 10)."});
    p.addOption({"retry-failed", "Queue the failed jobs again, their attempts cleared."});
    p.addOption({"clear-done", "Delete the done jobs (their judgements stay)."});
    p.addOption({"window", "Rates over this many last minutes (default 5).", "MINUTES"});
    p.addOption({"json", "Print one JSON object."});
}

namespace {

QJsonObject row_json(const db::JobRow& r) {
    QJsonObject o{{"job", qint64(r.id)}, {"game", qint64(r.game_id)}, {"attempts", r.attempts},
                  {"settings", QString::fromStdString(r.settings)}};
    if (!r.engine_command.empty()) o["engine_command"] = QString::fromStdString(r.engine_command);
    if (r.state == "running") {
        o["worker"] = QString::fromStdString(r.owner);
        o["lease_left"] = r.lease_left;
    }
    if (!r.error.empty()) o["error"] = QString::fromStdString(r.error);
    return o;
}

std::string eta_text(double seconds) {
    if (seconds < 0) return "unknown (nothing finished lately)";
    char text[64];
    if (seconds < 120) std::snprintf(text, sizeof text, "%.0f s", seconds);
    else if (seconds < 7200) std::snprintf(text, sizeof text, "%.0f min", seconds / 60);
    else if (seconds < 172800) std::snprintf(text, sizeof text, "%.1f h", seconds / 3600);
    else std::snprintf(text, sizeof text, "%.1f days", seconds / 86400);
    return text;
}

void print_jobs(const db::JobCounts& c, const std::vector<db::JobRow>& running, const std::vector<db::JobRow>& failed,
                bool all_failed, bool json, double window) {
    const double minutes = c.window / 60;
    const double jobs_rate = minutes > 0 ? double(c.recent_jobs) / minutes : 0;
    const double plies_rate = minutes > 0 ? double(c.recent_plies) / minutes : 0;
    const double eta = c.queued + c.running == 0 ? 0 : plies_rate > 0 ? double(c.queued_plies) / plies_rate * 60 : -1;
    if (json) {
        QJsonArray r, f;
        for (const db::JobRow& x : running) r.append(row_json(x));
        for (const db::JobRow& x : failed) f.append(row_json(x));
        QJsonObject o{{"queued", qint64(c.queued)},        {"running", qint64(c.running)},
                      {"done", qint64(c.done)},            {"failed", qint64(c.failed)},
                      {"window_minutes", window / 60},     {"jobs_per_minute", jobs_rate},
                      {"plies_per_minute", plies_rate},    {"plies_left", qint64(c.queued_plies)},
                      {"plies_done", qint64(c.done_plies)},
                      {"eta_seconds", eta < 0 ? QJsonValue() : QJsonValue(eta)},
                      {"running_jobs", r},                 {"failed_jobs", f}};
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
        return;
    }
    char rates[200];
    std::snprintf(rates, sizeof rates, "last %.0f min: %.1f jobs/min, %.0f plies/min; ", window / 60, jobs_rate, plies_rate);
    std::string out = std::to_string(c.queued) + " queued, " + std::to_string(c.running) + " running, " +
        std::to_string(c.done) + " done, " + std::to_string(c.failed) + " failed\n" + rates +
        (c.queued + c.running == 0 ? std::string("nothing left to judge")
                                   : "time left for " + counted(c.queued_plies, "ply", "plies") + ": " + eta_text(eta)) +
        "\n";
    for (const db::JobRow& x : running) {
        char lease[64];
        std::snprintf(lease, sizeof lease, x.lease_left >= 0 ? "lease %.0f s left" : "lease ran out %.0f s ago",
                      x.lease_left >= 0 ? x.lease_left : -x.lease_left);
        out += "running: job " + std::to_string(x.id) + " game " + std::to_string(x.game_id) + " on " + x.owner + ", attempt " +
            std::to_string(x.attempts) + ", " + lease + "\n";
    }
    for (const db::JobRow& x : failed)
        out += "failed: job " + std::to_string(x.id) + " game " + std::to_string(x.game_id) + " after " +
            counted(x.attempts, "attempt") + ": " + x.error + "\n";
    if (!all_failed && c.failed > std::int64_t(failed.size()))
        out += "... " + std::to_string(c.failed - std::int64_t(failed.size())) + " more failed (--failed lists them all)\n";
    print_shown(out);
}

} // namespace

int run_jobs(const QCommandLineParser& p) {
    const Command& self = *find_command("jobs");
    long long window_minutes = 5;
    if (!read_number(p, "window", 1, 10080, window_minutes))
        return usage_error(self, "--window must be a whole number of minutes from 1 to 10080");
    const bool change = p.isSet("retry-failed") || p.isSet("clear-done");
    auto database = open_database(self, p, change ? db::Access::read_write : db::Access::read_only);
    if (!database) return exit_usage;
    try {
        db::JobQueue queue(database->sql());
        if (p.isSet("retry-failed")) {
            const std::int64_t n = queue.retry_failed();
            print_info("queued " + counted(n, "failed job") + " again\n");
        }
        if (p.isSet("clear-done")) {
            const std::int64_t n = queue.clear_done();
            print_info("deleted " + counted(n, "done job") + " (their judgements stay)\n");
        }
        const double window = double(window_minutes) * 60;
        const db::JobCounts counts = queue.counts(window);
        const bool all_failed = p.isSet("failed");
        print_jobs(counts, queue.list(db::JobState::running, 1000),
                   queue.list(db::JobState::failed, all_failed ? 1'000'000 : 10), all_failed, p.isSet("json"), window);
    } catch (const std::exception& e) { return database_error(self, e); }
    return exit_ok;
}

} // namespace gounki::cli
