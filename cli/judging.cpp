#include "cli/judging.hpp"

#include "core/stones/symmetry.hpp"
#include "db/replay.hpp"
#include "protocol/brain_judge.hpp"

namespace gounki::cli {

void JudgeSetup::set_texts(const protocol::BrainSettings* brain) {
    gounki_text = db::analysis_settings_text(gounki);
    stone_text = brain ? db::engine_settings_text(engine, brain->command, brain->turn_ms, brain->max_node, stones)
                       : db::analysis_settings_text(stones);
}

std::unique_ptr<protocol::BrainClient> BrainPool::take() {
    {
        std::lock_guard lock(mutex_);
        if (!idle_.empty()) {
            auto b = std::move(idle_.back());
            idle_.pop_back();
            return b;
        }
    }
    return std::make_unique<protocol::BrainClient>(settings_);
}

void BrainPool::give_back(std::unique_ptr<protocol::BrainClient> b) {
    std::lock_guard lock(mutex_);
    idle_.push_back(std::move(b));
}

std::string BrainPool::first_name() {
    auto first = take();
    std::string name = first->name();
    give_back(std::move(first));
    return name;
}

JudgeJob judge_job(const db::StoredGame& g, const JudgeSetup& setup) {
    const bool stone = is_stone_game(g.summary.kind);
    return {g.summary.id, g.start, g.moves,
            stone ? setup.stones : setup.gounki, stone ? setup.stone_text : setup.gounki_text};
}

std::int64_t BookTree::games(db::GameDatabase& database, const AnyPosition& pos, Move move, bool turned) {
    turned = turned && pos.stones();
    const std::uint64_t key = db::index_key(pos);
    auto& kept = moves_[turned];
    auto it = kept.find(key);
    if (it == kept.end()) {
        std::vector<std::pair<Move, std::int64_t>> counts;
        // The symmetric tree shows one move for the points the position's own symmetries exchange.
        const std::vector<int> own = turned ? stones::own_symmetries(*pos.stones()) : std::vector<int>{};
        for (const db::TreeMove& m : database.tree(pos, turned).moves) {
            if (own.empty()) counts.emplace_back(m.move, m.games);
            else
                for (const int p : stones::exchanged_points(m.move.point(), own, pos.stones()->size()))
                    counts.emplace_back(Move::placement(p), m.games);
        }
        it = kept.emplace(key, std::move(counts)).first;
    }
    for (const auto& [m, n] : it->second)
        if (m == move) return n;
    return 0;
}

void find_book(db::GameDatabase& database, BookTree& tree, JudgeJob& job) {
    job.settings.book_plies = 0;
    if (job.settings.book <= 0) return;
    AnyPosition pos = job.start;
    for (Move m : job.moves) {
        if (!pos.is_legal(m) || tree.games(database, pos, m, job.settings.book_turned) < job.settings.book) return;
        ++job.settings.book_plies;
        pos.play(m);
    }
}

std::string engine_cannot_judge(const db::StoredGame& g, const std::string& engine) {
    if (!is_stone_game(g.summary.kind))
        return "game " + std::to_string(g.summary.id) + " is a Gounki game: engine '" + engine +
            "' (a Gomocup brain) judges the five-in-a-row games only";
    return {}; // a game with captures: BrainClient::new_game asks the brain whether it plays them
}

JudgeDone judge(const JudgeJob& job, BrainPool* brains, const analysis::JudgeProgress& progress) {
    try {
        if (!brains) {
            return {job.id, analysis::judge_any_game(job.start, job.moves, job.settings, progress), {}};
        }
        auto brain = brains->take();
        JudgeDone done{job.id, protocol::judge_with_brain(*brain, *job.start.stones(), job.moves, job.settings), {}};
        brains->give_back(std::move(brain));
        return done;
    } catch (const std::exception& e) { return {job.id, {}, e.what()}; }
}

bool store_judgement(db::GameDatabase& database, db::AnalysisStore& store, const JudgeJob& job,
                     const analysis::GameJudgement& judgement, const std::string& engine) {
    db::Transaction tx(database.sql(), db::TransactionKind::immediate);
    if (!store.save(job.id, job.settings_text, judgement, engine)) return false;
    tx.commit();
    return true;
}

} // namespace gounki::cli
