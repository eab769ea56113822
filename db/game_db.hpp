#pragma once
// The game database: one SQLite file (schema.sql) holding a collection of games, their position
// index and opening tree. Opening checks and migrates the schema; the queries here back the
// commands games, search, tree, show, export and delete. Importing is in import.hpp.
//
// Errors of the environment (cannot open, corrupt file, newer schema, read-only file when writing,
// lock not obtained) throw DbError with a message fit for the user.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <unordered_map>
#include <string>
#include <utility>
#include <vector>

#include "core/gounki/position.hpp"
#include "core/stones/position.hpp"
#include "db/codec.hpp"
#include "db/replay.hpp"
#include "db/position_index.hpp"
#include "db/sqlite.hpp"

namespace gounki::db {

class Pattern;
class StonePattern;

// The newest schema this build knows (PRAGMA user_version).
inline constexpr int schema_version = 6;
// 'GOUK' in PRAGMA application_id.
inline constexpr std::int64_t application_id = 0x474F554B;

// As the parser's: partial games stop at their first error; invalid ones have errors but a whole
// main line. Both are "broken".
enum class GameStatus : std::uint8_t { valid = 0, partial = 1, invalid = 2 };
std::string_view status_name(GameStatus s);
// "valid", "partial" or "invalid" (any case); empty optional otherwise.
std::optional<GameStatus> parse_status(std::string_view text);
enum class Severity : std::uint8_t { note = 0, warning = 1, error = 2 };
std::string_view severity_name(Severity s);

struct Diagnostic {
    Severity severity = Severity::error;
    std::string code; // the parser's stable code, or "prefix" for the importer's notes
    int line = 0; // 0: not tied to a place in the source
    int column = 0;
    std::string message;
};

// A game as the importer receives it: a record already read and checked against the rules.
struct GameInput {
    GameKind kind = GameKind::gounki;
    // Every tag of the record in order. Game, SetUp, Position and Status are not stored as tags
    // (kind, start and status say it); Event, Site, Date, Round, White, Black and Result become columns.
    std::vector<std::pair<std::string, std::string>> tags;
    // None: the kind's standard start (Gounki's start position, an empty board with the kind's
    // default rules). A stone game's start says its size and rule options.
    std::optional<AnyPosition> start;
    std::vector<Move> moves; // the main line; for a partial game, up to the first error
    ResultCode result = ResultCode::unknown;
    GameStatus status = GameStatus::valid;
    std::vector<Diagnostic> diagnostics;
    std::string source_file;
    int source_line = 0;
    // The canonical record text when the record holds comments, NAGs or variations, or numbers its
    // first move other than 1 (which the columns do not keep); empty otherwise.
    std::string annotated;
};

// The order of a list of games: by id (the default); by date (games of unknown date last); by
// player (the first player's name, then the second's, compared by their folds: White's first in
// Gounki and Pente, Black's in Gomoku, Ninuki and Renju, as the lists name them); by event (its name's fold); by
// result (1-0, 0-1, 1/2-1/2, then *). Ties go by id. Descending reverses the key and the ties;
// unknown dates, names and results stay last either way.
enum class SortKey : std::uint8_t { id, date, player, event, result };
struct GameOrder {
    SortKey key = SortKey::id;
    bool descending = false;
    bool given() const { return key != SortKey::id || descending; } // not plain id order
};
// "id", "date", "player", "event", "result" (any case); empty optional otherwise.
std::optional<SortKey> parse_sort_key(std::string_view text);

// Tag filters. Names (and the source path) match as substrings of their folds (fold.hpp): any case,
// any accents, any dash. Empty means any.
struct GameFilter {
    std::string white, black, player, event, site;
    std::optional<ResultCode> result;
    std::optional<std::int64_t> date_from, date_to; // date_key bounds (codec.hpp date_bound)
    std::string source; // a substring of the path of the file the game was imported from
    std::optional<GameKind> kind;
    std::optional<GameStatus> status;
    std::optional<std::int64_t> id_from, id_to; // game ids, both bounds included (ids and ranges chosen)
    GameOrder order; // not a filter: the order in which the games come (lists, searches, for_each_game)
    bool any() const {
        return !white.empty() || !black.empty() || !player.empty() || !event.empty() || !site.empty() || result || date_from ||
            date_to || !source.empty() || kind || status || id_from || id_to;
    }
};

struct Paging {
    std::int64_t limit = -1; // -1: all
    std::int64_t offset = 0;
};

struct GameSummary {
    std::int64_t id = 0;
    GameKind kind = GameKind::gounki;
    std::string white, black, event, site, date, round;
    ResultCode result = ResultCode::unknown;
    int ply_count = 0;
    GameStatus status = GameStatus::valid;
    int ply = -1; // searches: the first ply at which the game matched
};

struct GameList {
    std::int64_t total = 0; // matches before paging
    std::vector<GameSummary> games;
};

struct StoredGame {
    GameSummary summary;
    // All tags in the canonical order: Game, Event, Site, Date, Round, White, Black, Result, then
    // SetUp and Position for a non-standard start, then the others as imported.
    std::vector<std::pair<std::string, std::string>> tags;
    AnyPosition start; // of the game's kind
    bool standard_start = true; // Gounki's start, or an empty board
    std::vector<Move> moves;
    std::vector<Diagnostic> diagnostics;
    std::string source_file;
    int source_line = 0;
    std::string annotated; // as GameInput::annotated
};

struct TreeMove {
    Move move;
    std::int64_t games = 0, white_wins = 0, black_wins = 0, draws = 0;
    GameSummary latest; // greatest date, then greatest id
};

// The games that played a move from a position: each game counts once per move it played from
// there, and once in `games`, however often it came back (a game that played two moves from the
// position, on two visits, is in both moves and once in `games`).
struct Tree {
    std::int64_t games = 0;
    std::vector<TreeMove> moves; // most played first
};

struct DatabaseStats {
    std::int64_t games = 0, partial_games = 0, players = 0, events = 0;
    std::int64_t index_runs = 0, index_entries = 0, tree_rows = 0;
    std::int64_t file_bytes = 0; // page_count * page_size (WAL checkpointed or not)
};

// A change to a stored game's tags (gounki edit): `set` gives tags their new values (a tag the game
// lacks is added after its others), `remove` names tags to drop. Tag names of the columns and of
// the tags that define the game (Game, SetUp, Position, FEN, Size, Rules, GameType) are matched
// without regard to case.
struct TagEdit {
    std::vector<std::pair<std::string, std::string>> set;
    std::vector<std::string> remove;
};

// One tag changed by an edit; an absent value: the tag was not there, or is not any more.
struct TagChange {
    std::string name;
    std::optional<std::string> before, after;
};

// An edit refused, with a message fit for the user that says why. Nothing was written.
class EditRefused : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

enum class Access { read_only, read_write };

class GameDatabase {
public:
    // read_write creates the file when missing. Throws DbError: no such file (read_only), not a
    // database or corrupt, a newer schema, not a gounki database, a read-only file (read_write).
    GameDatabase(const std::string& path, Access access);
    ~GameDatabase();
    GameDatabase(const GameDatabase&) = delete;
    GameDatabase& operator=(const GameDatabase&) = delete;

    Database& sql() { return db_; }
    // After a lost connection to a PostgreSQL server: connects again (Database::reconnect) with the
    // kept statements and the position index's made anew. Statements made outside on the old
    // session fail when used; make them again.
    void reconnect();
    PositionIndex& index() { return *index_; }
    // Plies below this are aggregated in tree_stats (meta 'tree_depth', 3; tree_of_keys relies on
    // it being at most 4).
    int tree_depth() const { return tree_depth_; }

    // known_total: the number of games the filter matches when the caller knows it (not counted again).
    GameList list_games(const GameFilter& filter, Paging paging, std::optional<std::int64_t> known_total = std::nullopt);
    // SQLite's data_version and this connection's total_changes(): the pair changes when another
    // connection commits or this one writes. nullopt on PostgreSQL (no such pair there).
    std::optional<std::pair<std::int64_t, std::int64_t>> change_version();
    // Games that reached `pos` at some ply, whatever the move order (its game, and a stone game's
    // size and options, are part of its key).
    GameList search_position(const AnyPosition& pos, const GameFilter& filter, Paging paging);
    // Games that reached any of `positions` (such as a Renju opening's images under the board's
    // symmetries), each once at its first such ply; with `at_ply`, only games that reached one at
    // that ply (a Renju opening is the position after the third move, not a set-up game's start).
    GameList search_positions(std::span<const AnyPosition> positions, const GameFilter& filter, Paging paging,
                              std::optional<std::uint32_t> at_ply = std::nullopt);
    // Games of a stone game whose positions match `pattern` at some ply; symmetric: the pattern in
    // any of its turns and mirror images about the board's centre (core/stones/symmetry.hpp).
    GameList search_stone_pattern(const StonePattern& pattern, const GameFilter& filter, Paging paging, bool symmetric = false);
    // Games one of whose positions matches `pattern`. threads 0: one per hardware thread.
    GameList search_pattern(const Pattern& pattern, const GameFilter& filter, Paging paging, int threads = 0);
    // The moves played from `pos` over the whole database. symmetric: from its images under the
    // board's symmetries too (a stone game's; core/stones/symmetry.hpp), their moves turned back
    // to `pos`, each game counted once (no effect on a Gounki position).
    Tree tree(const AnyPosition& pos, bool symmetric = false);

    std::optional<StoredGame> game(std::int64_t id);
    // The ids of the games matching the filter, in the filter's order.
    std::vector<std::int64_t> game_ids(const GameFilter& filter) { return filtered_ids(filter); }
    // Calls f for each game matching the filter, in the filter's order, until f returns false.
    void for_each_game(const GameFilter& filter, const std::function<bool(const StoredGame&)>& f);
    // Deletes a game with its index entries, tree counts, tags, diagnostics and stored judgements,
    // and the other games' import notes that name it. False: no such game.
    bool delete_game(std::int64_t id);
    // Deletes these games in one transaction (all or none); ids of no game are skipped. The number
    // of games deleted.
    std::int64_t delete_games(std::span<const std::int64_t> ids);
    // Changes the tags of game `id` in one transaction, with what follows from them: the columns
    // (Event, Site, Date, Round, White, Black, Result), the tree counts and latest games, and for a
    // new Result the result's diagnostics and the game's status. Throws EditRefused (nothing
    // written) for a Result the final position contradicts, a change to a tag that defines the
    // game, a tag removed that the game lacks, a malformed name or value. Empty optional: no such
    // game. The changes made, in the order asked (none when every value was already so).
    std::optional<std::vector<TagChange>> edit_tags(std::int64_t id, const TagEdit& edit);

    DatabaseStats stats();
    // Copies the write-ahead log into the database file and empties it (sizes, backups).
    void checkpoint();

    // The indexes of games by player, event and date: a large import drops them and builds them
    // again at its end (one sort beats a B-tree insertion per game each). A read-write open
    // builds any that an interrupted import left missing; queries are right without them, slower.
    void drop_lookup_indexes();
    void create_lookup_indexes();

    // The import's notes (code 'prefix') on a game that name another game, `other`: written here
    // once, so that deleting `other` finds and drops them.
    static std::string note_is_prefix_of(std::int64_t other); // its moves are a prefix of game N's
    static std::string note_has_prefix(std::int64_t other);   // game N's moves are a prefix of its moves
    static std::string note_same_moves(std::int64_t other);   // game N has the same moves

    // The replay of a stored game: its position keys (index_key) at plies 0..ply_count.
    static std::vector<std::uint64_t> position_keys(GameKind kind, const Position& start, std::span<const Move> moves);
    static std::vector<std::uint64_t> position_keys(AnyPosition start, std::span<const Move> moves);

private:
    friend class Importer;
    void open_schema(Access access);
    void open_file_schema(Access access); // SQLite
    void open_server_schema(Access access); // PostgreSQL
    // Refuses a database written by a newer gounki, another program's, or one not ready for access.
    void check_schema(std::int64_t version, bool empty, bool ours, Access access) const;
    std::string filter_sql(const GameFilter& filter, std::vector<std::string>& texts, std::vector<std::int64_t>& ints) const;
    std::vector<std::int64_t> filtered_ids(const GameFilter& filter);
    GameList page_of(std::vector<std::pair<std::int64_t, int>> matches, const GameFilter& filter, Paging paging);
    GameSummary summary(std::int64_t id);
    void recompute_latest(std::uint64_t key, Move move, const AnyPosition& pos);
    // delete_games; `empty_at_once`: when every game goes, the tables are emptied whole.
    std::int64_t delete_rows(std::span<const std::int64_t> ids, bool empty_at_once);
    void drop_notes_naming(std::span<const std::int64_t> sorted_ids);
    void update_tree_for_edit(const StoredGame& g, ResultCode result, std::int64_t old_date, std::int64_t new_date);
    void settle_result_diagnostics(std::int64_t id, GameStatus status);
    GameList search_key(std::uint64_t key, const GameFilter& filter, Paging paging);
    // The games reaching any of `keys`, each once at its first such ply.
    GameList search_keys(std::span<const std::uint64_t> keys, const GameFilter& filter, Paging paging,
                         std::optional<std::uint32_t> at_ply = std::nullopt);
    // A position's key, or one of its images' with the symmetry that made it and the board's size.
    struct TreeKey {
        std::uint64_t key = 0;
        int symmetry = 0, size = 0;
        std::uint32_t back(std::uint32_t stored_move) const; // a move from this image, from the position
    };
    // Maps a stored move to the one it counts as (the tree's moves that a position's symmetry exchanges).
    using MoveFold = std::function<std::uint32_t(std::uint32_t)>;
    Tree tree_of_keys(std::span<const TreeKey> keys, const MoveFold& fold);

    // A prepared statement kept for the life of the database, reset and ready to bind.
    Statement& cached(const std::string& sql);

    Database db_;
    std::unique_ptr<PositionIndex> index_;
    std::unordered_map<std::string, std::unique_ptr<Statement>> statements_;
    int tree_depth_ = 3;
    // The number of games, with the SQLite data_version and total_changes() it was counted at: an
    // unfiltered list counts again only when the file changed (counting 1,000,000 games takes ~10 ms).
    std::pair<std::int64_t, std::int64_t> all_games_version_{-1, -1};
    std::int64_t all_games_ = 0;
};

// The default database file: $GOUNKI_DB when set, else ./gounki.db.
std::string default_database_path();

} // namespace gounki::db
