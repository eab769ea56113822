// gounki serve: "judge this game": a game judged in the background with the settings of `gounki
// analyze` (the defaults, or serve's --judge-options; cli/judging), its progress asked for with
// GET /api/games/ID/judge.
#include "cli/judging.hpp"
#include "cli/serve.hpp"

namespace gounki::cli::serve {

JudgeRuns::JudgeRuns(const Options& options, std::mutex& writes) : options_(options), writes_(writes) {
    pool_.setMaxThreadCount(1); // one game at a time: the request threads keep the other cores
}

JudgeRuns::~JudgeRuns() {
    stopping_ = true;
    pool_.clear();
    pool_.waitForDone();
}

bool JudgeRuns::start(std::int64_t id, int plies) {
    std::lock_guard lock(mutex_);
    auto& slot = runs_[id];
    if (slot && (slot->state == "queued" || slot->state == "running")) return false;
    slot = std::make_unique<Run>();
    slot->plies = plies;
    slot->timer.start();
    Run* run = slot.get();
    pool_.start([this, id, run] { judge_one(id, *run); });
    return true;
}

std::optional<JudgeRuns::State> JudgeRuns::state(std::int64_t id) {
    std::lock_guard lock(mutex_);
    const auto it = runs_.find(id);
    if (it == runs_.end()) return std::nullopt;
    const Run& run = *it->second;
    return State{run.state, run.plies, run.plies_done, run.timer.elapsed(), run.error};
}

void JudgeRuns::judge_one(std::int64_t id, Run& run) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return;
        run.state = "running";
        run.timer.start();
    }
    std::string error;
    try {
        // A connection of its own: the request threads' connections stay on their threads.
        db::GameDatabase database(options_.db_path, db::Access::read_write);
        const auto game = database.game(id);
        if (!game) throw std::runtime_error("game " + std::to_string(id) + " is no longer in the database");
        JudgeJob job = judge_job(*game, options_.judging); // stored with the settings text of `gounki analyze`
        BookTree book;
        find_book(database, book, job);
        const JudgeDone done = judge(job, nullptr, [&](const analysis::PlyJudgement&) {
            if (stopping_) throw std::runtime_error("the server stopped before the judging was done");
            ++run.plies_done;
        });
        if (!done.error.empty()) error = done.error;
        else {
            std::lock_guard write(writes_);
            db::AnalysisStore store(database.sql());
            if (!store_judgement(database, store, job, done.judgement, {}))
                error = "the game was deleted while it was judged";
        }
    } catch (const std::exception& e) { error = e.what(); }
    std::lock_guard lock(mutex_);
    run.state = error.empty() ? "done" : "failed";
    run.error = error.empty() ? std::string() : "game " + std::to_string(id) + " was not judged: " + error;
}

// GET: the state of the game's judging; POST: start it (unless judged with these settings already,
// or queued or under way: never a second run).
Reply App::api_judge(std::int64_t id, const Request& r) {
    const auto game = db_.game(id);
    if (!game) return error_reply(404, "no-game", "no game with id " + std::to_string(id));
    const JudgeJob job = judge_job(*game, options_.judging);
    db::AnalysisStore store(db_.sql());
    const bool judged = store.has(id, job.settings_text);
    bool started = false;
    if (r.post && !judged) started = shared_.judges->start(id, int(job.moves.size()));
    JudgeRuns::State s = shared_.judges->state(id).value_or(JudgeRuns::State{});
    const bool under_way = s.state == "queued" || s.state == "running";
    if (judged && !under_way) s = JudgeRuns::State{"done", int(job.moves.size()), int(job.moves.size()), s.elapsed_ms, {}};
    if (s.state == "none") s.plies = int(job.moves.size());
    QJsonObject o{{"game", qint64(id)},
                  {"state", QString::fromStdString(s.state)},
                  {"started", started},
                  {"plies", s.plies},
                  {"plies_done", s.plies_done},
                  {"elapsed_ms", s.elapsed_ms},
                  {"settings", QString::fromStdString(job.settings_text)}};
    if (!s.error.empty()) o["error"] = QString::fromStdString(s.error);
    return json_reply(o, started ? 202 : 200);
}

} // namespace gounki::cli::serve
