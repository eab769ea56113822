#pragma once
// What the database commands (import, search, tree, games, show, export, delete, dbbench) share:
// the --db option, tag filters, paging, opening the database with a clear error, game lines.

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/views.hpp"
#include "db/game_db.hpp"
#include "db/postgres.hpp"
#include "db/import.hpp"

namespace gounki::cli {

// --db PATH; the default is $GOUNKI_DB, else ./gounki.db.
void add_db_option(QCommandLineParser& p);
std::string db_path(const QCommandLineParser& p);

// --white --black --player --event --source --result --from --to --game --status, and --sort --desc
// (the order of the games chosen, GameFilter::order)
void add_filter_options(QCommandLineParser& p);
// False (after printing a usage error into exit_code) when a value is malformed.
bool read_filter(const Command& cmd, const QCommandLineParser& p, db::GameFilter& out, int& exit_code);

// The searches of `search`, also a way to choose games for export, report, analyze and delete:
// --position and --moves, --pattern, --opening.
void add_search_options(QCommandLineParser& p);
// Reads them into `query` (`searched`: one was given); `filter` is the tag filters read, for the
// game they name. False after a usage error (two searches at once, a bad position, pattern or
// opening name) into exit_code.
bool read_search(const Command& cmd, const QCommandLineParser& p, const db::GameFilter& filter, SearchQuery& query,
                 bool& searched, int& exit_code);

// Which stored games a command works on, one way for every command that reads games: game ids and
// id ranges ("12", "3-7") as arguments, tag filters, a search (the games reaching a position,
// matching a pattern or opening with a Renju opening), or --all.
struct GameChoice {
    struct Span {
        std::int64_t first = 0, last = 0; // one id when equal
    };
    std::vector<Span> spans; // in the order given
    db::GameFilter filter;
    std::optional<SearchQuery> search; // the games must match it too (never with spans)
};
// The filters, the searches, --all and the IDS argument; `verb` says what the command does to them
// ("judge").
void add_game_choice_options(QCommandLineParser& p, const std::string& verb);
// False (after printing a usage error into exit_code) for a malformed id or range, or when nothing
// was chosen.
bool read_game_choice(const Command& cmd, const QCommandLineParser& p, const std::string& verb, GameChoice& out, int& exit_code);
// Every chosen game: the ids in the order given (or in the --sort order when given), each once (a
// missing single id is an error; a range takes the games it holds, and one holding none is an
// error), only those the filters keep; else the filters' games in their order (id by default). False, after printing "gounki CMD: no game ... in PATH", with
// `out` left empty.
bool chosen_games(const Command& cmd, db::GameDatabase& db, const GameChoice& choice, std::vector<db::StoredGame>& out);
// The same, one game at a time (the filters' games streamed, without holding them all); `fn`
// returns false to stop. False after printing why, as chosen_games.
bool for_each_chosen(const Command& cmd, db::GameDatabase& db, const GameChoice& choice,
                     const std::function<bool(const db::StoredGame&)>& fn);
// The same, as summaries only (what a command lists or deletes).
bool chosen_summaries(const Command& cmd, db::GameDatabase& db, const GameChoice& choice, std::vector<db::GameSummary>& out);

// A game id as typed (`what` names it in the message: "ID", "--game"); false after a usage error.
bool read_game_id(const Command& cmd, const QString& text, const std::string& what, std::int64_t& id);
// One stored game by its id as typed, from the --db database opened read-only; nullopt after
// printing why not (a malformed id, a database error, no such game).
std::optional<db::StoredGame> stored_game(const Command& cmd, const QCommandLineParser& p, const QString& text,
                                          const std::string& what);

// --limit N (0: all) --offset N
void add_paging_options(QCommandLineParser& p, int default_limit);
bool read_paging(const Command& cmd, const QCommandLineParser& p, db::Paging& out, int& exit_code);

// Opens the database; on failure prints "gounki CMD: message" and returns null (exit_usage).
// Only with `create` (import) is a missing database file made: every other command, writing or
// reading, says there is none (a mistyped name would otherwise leave an empty database behind).
std::unique_ptr<db::GameDatabase> open_database(const Command& cmd, const QCommandLineParser& p, db::Access access,
                                                bool create = false);
// Prints a database error raised while a command ran; returns exit_usage.
int database_error(const Command& cmd, const std::exception& e);

// Whether `e` says the connection to a PostgreSQL server was lost: SQLSTATE 08xxx, or 57P01-57P03
// (the server ended the session: pg_terminate_backend, a shutdown, a restart).
bool connection_lost(const std::exception& e);
// Opens `path` after its connection was lost, again and again with growing pauses (0.5 s doubling
// to 8 s, `patience_s` seconds in all) while the server cannot be reached, each failure told as
// "gounki COMMAND: cannot connect yet (...); trying again"; then (or when `stop` says so) the last
// error is thrown.
std::unique_ptr<db::GameDatabase> connect_again(const std::string& command, const std::string& path, db::Access access,
                                                double patience_s, const std::function<bool()>& stop = {});

QJsonObject summary_json(const db::GameSummary& g);
QJsonObject filter_json(const db::GameFilter& f);
// Where an import's time went, in seconds (db::ImportStats), for `import --json` and `dbbench`.
QJsonObject import_phases_json(const db::ImportStats& s);
// How a list of games names its players. Each game names its first player (the one who moves
// first: White in Gounki and Pente, Black in Gomoku, Ninuki and Renju) first, and gives its result
// in its own convention: `1-0`, `0-1`, `1/2-1/2` in Gounki, `B+`, `W+`, `Draw` in the stone games.
// A list whose games all have the same first player heads its columns with the colours ("White",
// "Black" or "Black", "White"); a list that mixes them heads them "First" and "Second" and writes
// the colour after each name ("Ann (W)"), so that no Black stands under a "White" heading.
struct PlayerColumns {
    bool neutral = false; // "First", "Second", with the colour per row
    Color first = Color::white; // when not neutral: the colour of the first column
    std::string heading(int column) const; // 0 first, 1 second
    // The name of the player in `column` of game `g` ("?" when unknown), with "(W)"/"(B)" when neutral.
    std::string name(const db::GameSummary& g, int column) const;
};
PlayerColumns player_columns(const std::vector<db::GameSummary>& games);
// "B+", "W+", "Draw" for a stone game, "1-0", "0-1", "1/2-1/2" for Gounki, "*" when unfinished.
std::string result_shown(const db::GameSummary& g);
// "Ann - Bob": the first player first ("?" for an unknown name).
std::string players_shown(const db::GameSummary& g);
// A table of games: id, (the game when the list holds stone games), the two players as
// player_columns names them, date, result (result_shown), plies (and the matching ply when `with_ply`).
std::string games_table(const std::vector<db::GameSummary>& games, bool with_ply);
// "showing 1-50 of 1234; --offset 50 for more" and the like, or empty when all are shown.
std::string paging_note(std::int64_t shown, std::int64_t total, const db::Paging& paging);

} // namespace gounki::cli
