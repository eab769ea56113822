#pragma once
// Judging one stored game and storing its judgement: what `analyze` runs on its thread pool and
// what a queue worker or the web app's "judge this game" run for one game. One place chooses the
// settings by game kind, runs the built-in judge or an external brain, and stores in one
// transaction.
#include <QCommandLineParser>

#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <string>
#include <vector>

#include "analysis/judge.hpp"
#include "core/any_position.hpp"
#include "db/analysis_store.hpp"
#include "db/game_db.hpp"
#include "protocol/brain_client.hpp"

namespace gounki::cli {

// The settings of one judging run: the built-in judge's for Gounki and for stone games (their
// default budgets differ), or an external brain for stone games.
// A move played from its position in at least this many games of the database is book (--book).
constexpr int default_book_games = 5;

struct JudgeSetup {
    analysis::JudgeSettings gounki = with_book(analysis::judge_defaults());
    analysis::JudgeSettings stones = with_book(analysis::stone_judge_defaults());
    std::string gounki_text, stone_text; // as stored with each judgement (db::analysis_settings_text)
    std::string engine;                  // the external brain's name from ABOUT; empty: built-in
    void set_texts(const protocol::BrainSettings* brain); // fills the texts from the settings
    static analysis::JudgeSettings with_book(analysis::JudgeSettings s) {
        s.book = default_book_games;
        return s;
    }
};

// One game to judge.
struct JudgeJob {
    std::int64_t id = 0;
    AnyPosition start; // the game's start, of its kind
    std::vector<Move> moves;
    analysis::JudgeSettings settings;
    std::string settings_text;
};

struct JudgeDone {
    std::int64_t id = 0;
    analysis::GameJudgement judgement;
    std::string error; // an external engine failed: the game stays unjudged
};

// External brains, at most one per thread: a thread takes an idle one (or starts one) for a game
// and gives it back after; a brain that failed is gone (its process killed).
class BrainPool {
public:
    explicit BrainPool(protocol::BrainSettings settings) : settings_(std::move(settings)) {}
    std::unique_ptr<protocol::BrainClient> take();
    void give_back(std::unique_ptr<protocol::BrainClient> b);
    // Starts a brain now (a command that does not run fails here, before any game) and gives its
    // name from ABOUT; throws what the start threw.
    std::string first_name();
    const protocol::BrainSettings& settings() const { return settings_; }

private:
    protocol::BrainSettings settings_;
    std::mutex mutex_;
    std::vector<std::unique_ptr<protocol::BrainClient>> idle_;
};

// The job of a stored game under these settings (its book plies not yet found: find_book).
JudgeJob judge_job(const db::StoredGame& g, const JudgeSetup& setup);

// The database's opening tree as far as book needs it: the games of each move from a position,
// kept per position so that a run over many games asks the database once per position.
class BookTree {
public:
    // How many games of `database` played `move` from `pos`; turned: from `pos` or one of its turns
    // and mirror images, the move turned with it (a stone position: GameDatabase::tree's symmetric).
    std::int64_t games(db::GameDatabase& database, const AnyPosition& pos, Move move, bool turned);

private:
    // By position key (and whether turned): every move that counts, the ones the position's own
    // symmetries exchange each listed.
    std::unordered_map<std::uint64_t, std::vector<std::pair<Move, std::int64_t>>> moves_[2];
};

// Sets job.settings.book_plies: the number of first plies of the game each played, from its
// position, in at least job.settings.book games of the database (the game itself counted, as
// `gounki tree` counts it); the first move played in fewer ends the book. 0 when book is 0.
void find_book(db::GameDatabase& database, BookTree& tree, JudgeJob& job);

// Why an external brain cannot judge the game (a Gounki game, or a stone game with captures, for
// which the Gomocup protocol has no rule), or empty.
std::string engine_cannot_judge(const db::StoredGame& g, const std::string& engine);

// Judges with the built-in judge (brains null) or a brain from the pool; never throws: an engine's
// failure comes back in JudgeDone::error. `progress` (built-in judge only) is called after each ply;
// an exception it throws ends the run, and comes back in JudgeDone::error like an engine's.
JudgeDone judge(const JudgeJob& job, BrainPool* brains, const analysis::JudgeProgress& progress = {});

// The analyze options that change a judgement (--depth, --nodes, the thresholds, --engine and its
// settings) as given on the command line: a JSON array of arguments, what a queued job keeps so
// that a worker rebuilds the very same settings (defined in cmd_analyze.cpp, which reads them).
std::string judge_options_text(const QCommandLineParser& p);
// The settings those options give: `setup` (its texts not yet set: that needs the engine's name)
// and the external engine, if any. False (and `error` set) when they do not read.
bool judge_setup_from_options(const std::string& options, JudgeSetup& setup, std::optional<protocol::BrainSettings>& engine,
                              std::string& error);
// The same from arguments as typed (`gounki serve --judge-options "--nodes 100000"`): the judging
// options only; false (and `error` set) for any other argument or a bad value.
bool judge_setup_from_arguments(QStringList args, JudgeSetup& setup, std::optional<protocol::BrainSettings>& engine,
                                std::string& error);

// Stores the judgement of a job in its own transaction. False, and nothing stored, when the game
// was deleted while it was judged.
bool store_judgement(db::GameDatabase& database, db::AnalysisStore& store, const JudgeJob& job,
                     const analysis::GameJudgement& judgement, const std::string& engine);

} // namespace gounki::cli
