#pragma once
// Storing games: batched transactions, duplicates, prefix flags, the position index and the tree.
//
// Each batch is one write transaction holding its games, their tags and diagnostics, their index
// run and tree counts: a killed import leaves whole games only. A game whose kind, start, moves,
// players and result equal a stored game's is a duplicate; when it also comes from the same file
// and line it is "already imported", which makes rerunning an interrupted import complete it
// without storing anything twice (even with keep_duplicates). So is a game with the kind, start
// and moves of one an earlier import stored from the same file and line, whose players or result
// differ (edited since, or changed in the file): reported with the differences.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "db/game_db.hpp"

namespace gounki::db {

struct ImportOptions {
    bool keep_duplicates = false; // store duplicates anyway (they are still reported)
    bool reject_broken = false; // do not store broken games (partial or invalid)
    std::size_t batch_games = 50000;
    bool compact = true; // merge index runs of one size as they pile up
    // About how many games are coming (0: unknown). When they are at least 1,000 and at least as
    // many as the database holds, the indexes of games by player, event and date are dropped at
    // the first batch and built again by finish(): one sort instead of an insertion per game each.
    std::int64_t expected_games = 0;
    // A game that matches one stored game replaces it, keeping its id (its judgements go, since the
    // moves may differ): the game stored from the same file and line, else the one with the same
    // game, start, White, Black and Date whose first 10 plies (all, when either is shorter) are the
    // same. More than one stored match: the game is rejected. A match identical to the new game in
    // moves, tags, result and annotations is left as it is (already imported, or a duplicate).
    bool replace = false;
    // Source names are labels (an upload's name), stored as given: never resolved on this machine's
    // file system. Else they are files, stored as absolute paths.
    bool names_are_labels = false;
};

enum class ImportAction {
    stored, // stored (valid or partial: see status)
    duplicate, // same as other_id: skipped
    already_imported, // this very record (file, line, content) is stored as other_id: skipped
    rejected, // not stored: broken with reject_broken, a game kind not supported yet, or (replace) more
    // than one stored game matched
    replaced, // (replace) stored in place of game_id, which keeps its id
};
std::string_view import_action_name(ImportAction a);

// What happened to one game. Every game added gets one report, in input order, once its batch
// is committed.
struct ImportReport {
    std::string source_file;
    int source_line = 0;
    ImportAction action = ImportAction::stored;
    GameStatus status = GameStatus::valid;
    std::int64_t game_id = 0; // stored: the new id; replaced: the id of the game replaced (and kept)
    std::int64_t other_id = 0; // duplicate, already_imported: the stored game
    // A duplicate of a stone game turned or mirrored (docs/rules.md 2.7): the symmetry that takes
    // the stored game's board to this game's (stones::symmetry_name); 0: the same moves as they lie.
    int symmetry = 0;
    std::vector<std::int64_t> prefix_of; // its moves are a proper prefix of these stored games' moves
    std::vector<std::int64_t> has_prefix; // these stored games' moves are a proper prefix of its moves
    std::vector<std::int64_t> same_moves; // these stored games have its very moves (other players or result)
    std::string reason; // rejected: why; already_imported: how the stored game differs, if it does
    int diagnostics = 0;
    bool flagged() const { return !prefix_of.empty() || !has_prefix.empty() || !same_moves.empty(); }
    // A report worth showing: anything but a valid game stored without notes or diagnostics, or a
    // game already imported (rerunning an import repeats nothing).
    bool noteworthy() const {
        if (action == ImportAction::already_imported) return !reason.empty();
        return action != ImportAction::stored || status != GameStatus::valid || flagged() || other_id || diagnostics;
    }
};

struct ImportStats {
    std::int64_t added = 0, stored = 0, broken = 0, duplicates = 0, already_imported = 0, rejected = 0, prefix_flagged = 0;
    std::int64_t replaced = 0; // stored in place of a matching stored game (replace)
    std::int64_t batches = 0, merges = 0;
    // Where the time went, in seconds. Preparing (replays, sorting) runs on another thread, while
    // the batch before is written; waiting is the writer's wait for it.
    double prepare_s = 0, wait_s = 0, games_s = 0, index_s = 0, tree_s = 0, commit_s = 0, merge_s = 0;
    double lookup_indexes_s = 0; // building the deferred indexes by player, event and date again
};

class Importer {
public:
    Importer(GameDatabase& db, ImportOptions options, std::function<void(const ImportReport&)> on_report = {});
    ~Importer();
    Importer(const Importer&) = delete;
    Importer& operator=(const Importer&) = delete;

    // Queues a game; a full batch is written at once.
    void add(GameInput game);
    // Writes the queued games and merges index runs. The destructor does not write: games added
    // after the last finish() or full batch are dropped (an exception unwinding an import).
    void finish();
    const ImportStats& stats() const { return stats_; }

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    ImportStats stats_;
};

} // namespace gounki::db
