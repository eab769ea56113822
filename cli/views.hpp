#pragma once
// What the database commands print with --json and `gounki serve` answers under /api/, built once
// so that both say the same: the tag filters read from named values, the JSON objects of games,
// show, search, tree and import, and the report model of one stored game.

#include <QJsonObject>
#include <QString>

#include <functional>
#include <optional>
#include <string>

#include "core/any_position.hpp"
#include "core/stones/renju_openings.hpp"
#include "db/analysis_store.hpp"
#include "db/game_db.hpp"
#include "db/import.hpp"
#include "db/pattern/gounki.hpp"
#include "db/pattern/stones.hpp"
#include "report/report_model.hpp"

namespace gounki::cli {

// The value given for an option or query parameter `name` ("" for a flag), or nullopt when not given.
using ValueLookup = std::function<std::optional<QString>(const char* name)>;

// A yes-or-no value `name` from `get`: not given, off; given empty (a flag), 1, true or yes, on; 0,
// false or no, off. Returns "" when read, else what is wrong, naming it as `prefix` + name.
std::string read_flag(const ValueLookup& get, const std::string& prefix, const char* name, bool& on);

// The tag filters and the order (white black player event site source result from to game status
// sort desc) from `get`. Returns "" when all read, else what is wrong, naming the value as
// `prefix` + name ("--result" on the command line, "result" in a query).
std::string read_filter_values(const ValueLookup& get, const std::string& prefix, db::GameFilter& out);

// A position or a pattern search, parsed; `error` says what is wrong (with the character number).
struct SearchQuery {
    std::optional<AnyPosition> position;
    std::optional<db::Pattern> pattern;
    std::optional<db::StonePattern> stone_pattern;
    const stones::RenjuOpening* opening = nullptr; // Renju games whose first three stones show it
    bool symmetric = false; // the position's or the pattern's images under the board's symmetries too (stone games)
};
// Why the images of `position` cannot be taken (tree --symmetric), or "": it is Gounki's, whose
// start has no symmetry.
std::string symmetric_refusal(const AnyPosition& position);
// The same for a search (search --symmetric): a stone game's position or pattern has images; an
// opening is found in all of them anyway; a search by tags alone has none.
std::string symmetric_refusal(const SearchQuery& query);
// What a search or a tree with the images says after "reached this position", "matched the
// pattern" or "continued from here": " or a turn or mirror image of it" (" or from a ..." with
// `from`), or "" without them.
inline std::string images_said(bool symmetric, bool from = false) {
    return symmetric ? std::string(" or ") + (from ? "from " : "") + "a turn or mirror image of it" : std::string();
}
// Reads a Renju opening's name or code for a search among the games `filter` keeps; returns "" when
// read, else what is wrong (a name of no opening, a filter on another game).
std::string parse_opening(const std::string& text, const db::GameFilter& filter, SearchQuery& out);
// Parses a pattern text (a Gounki pattern, or a stone game's when it starts with the game's name).
std::optional<db::PatternError> parse_pattern(const std::string& text, SearchQuery& out);
// "bad pattern at character N: why"
std::string pattern_error_text(const db::PatternError& e);
// The games of the search: by position, by pattern, by opening, else by the filters alone.
db::GameList run_search(db::GameDatabase& database, const SearchQuery& query, const db::GameFilter& filter,
                        const db::Paging& paging, int threads);

// `games --json`: total, offset, filter, games.
QJsonObject games_json(const db::GameList& list, const db::Paging& paging, const db::GameFilter& filter);
// The search's fields of a JSON object: position, pattern or opening (what `search --json` and
// `export --json` name besides the filters).
void add_search_json(QJsonObject& o, const SearchQuery& query);
// `search --json`: the same, with the position or the pattern searched for.
QJsonObject search_json(const db::GameList& list, const db::Paging& paging, const db::GameFilter& filter,
                        const SearchQuery& query);
// `show --json`: the summary, tags, start, moves, diagnostics, source and the record.
QJsonObject game_json(const db::StoredGame& game);
// A stored judgement: settings, date, and per ply the verdict, scores and best move.
QJsonObject judgement_json(const db::StoredGame& game, const db::StoredJudgement& stored);
// The Renju opening a position shows (core/stones/renju_openings.hpp), and the one a move makes
// from it: nullptr for other positions and other games.
const stones::RenjuOpening* renju_opening(const AnyPosition& pos);
const stones::RenjuOpening* renju_opening_after(const AnyPosition& pos, Move move);
// `tree --json`: the position, its games and the moves played from it with their results (and the
// Renju opening of the position and of each move, where there is one).
QJsonObject tree_json(const AnyPosition& pos, const db::Tree& tree, bool symmetric = false);
// `import --json`: one game's fate.
QJsonObject import_report_json(const db::ImportReport& r);
// `import --json`'s summary counts (read, stored, broken, duplicates...).
QJsonObject import_stats_json(const db::ImportStats& s);

// The report of one stored game with its stored judgement, if any (the database's reading of the
// players, date and result).
report::GameReport game_report(const db::StoredGame& g, const db::StoredJudgement* stored);
// "gounki 0.1.0 (SETTINGS)": who judged a game, as its report's [Annotator] says (no settings when
// it was not judged).
std::string annotator_of(const db::StoredJudgement* stored);

} // namespace gounki::cli
