#pragma once
// What more than one test file needs, written once (the bodies are in support.cpp, the games' in
// support_games.cpp, the records' in support_records.cpp): files and
// temporary folders, running the built `gounki`, the system tools some tests need, small text
// helpers, Gounki positions and moves from text with the rules checks around them, stone-game
// points, random lines of play, the database fixtures, and what report tests look into.

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/gounki/movegen.hpp"
#include "core/gounki/notation.hpp"
#include "core/stones/position.hpp"
#include "db/codec.hpp"
#include "db/game_db.hpp"
#include "db/import.hpp"
#include "report/report_model.hpp"
#include "parser/formats.hpp"
#include "parser/record.hpp"

namespace gounki::test {

// ---------------------------------------------------------------------------------------------
// Files and folders

// The whole file, byte for byte; "" when it cannot be read.
std::string slurp(const std::filesystem::path& p);

// Writes `text` to `p`, byte for byte, replacing the file; fails the test when it cannot.
void write_text(const std::filesystem::path& p, const std::string& text);

// A path inside the source tree, e.g. source_path("tests/data/records").
std::filesystem::path source_path(const std::string& relative);

// A fresh folder under the system's temporary folder, removed with everything in it at the end.
class TempDir {
public:
    explicit TempDir(const std::string& name = "test");
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    std::filesystem::path path_;
};

// ---------------------------------------------------------------------------------------------
// The command line

struct CliRun {
    int status = -1; // the exit status; 128 + the signal for a process killed by one; -1 otherwise
    std::string out, err;
};

// `p` between single quotes, for a shell command line.
std::string shell_quoted(const std::filesystem::path& p);

// The built gounki, quoted for a shell command line.
std::string gounki_command();

// Runs the built gounki with `args` (already quoted for the shell), standard input empty.
CliRun run_gounki(const std::string& args);

// Runs the built gounki with exactly these arguments, no shell in between.
CliRun run_gounki_args(const std::vector<std::string>& args);

// Runs a whole shell command line (pipes, redirections, other programs).
CliRun run_shell(const std::string& command);

// Runs the built gounki with `args` (already quoted for the shell): it exits with `status` and says
// `message` on standard error, once.
void check_error(const std::string& args, int status, const std::string& message);
// Runs the built gounki with `args` (already quoted for the shell): it exits 0 and prints `text` on
// standard output.
void check_prints(const std::string& args, const std::string& text);

// Starts the built gounki with `args`, its standard output and error sent to the files `out` and
// `err`; returns at once with the child's pid, for wait_exit.
pid_t spawn_gounki(const std::vector<std::string>& args, const std::string& out, const std::string& err);

// Waits for `pid`: its exit status, or 128 + the signal that killed it.
int wait_exit(pid_t pid);

// ---------------------------------------------------------------------------------------------
// System tools

// True when `what` is there. When it is not, the test fails, saying which package provides it
// (scripts/test.sh installs them all); with GOUNKI_ALLOW_MISSING_TOOLS=1 in the environment the
// test is reported as skipped instead, with a warning that names the tool, and the caller returns.
// (Catch2 2.13 has no SKIP.)
[[nodiscard]] bool have_tool(bool present, const std::string& what);

// The shell command line runs and exits 0 (its output is thrown away).
bool command_succeeds(const std::string& command);

// ---------------------------------------------------------------------------------------------
// Text

std::size_t count_of(const std::string& text, const std::string& needle);
bool contains(const std::string& text, const std::string& part);
std::vector<std::string> lines_of(const std::string& text);

// Calls `check` on every prefix of `good`, then on every copy of it with one character, at every
// `step`-th place, replaced by each character of `alphabet`: for parsers that must never crash.
template <class Check>
void for_each_prefix_and_change(const std::string& good, const std::string& alphabet, const Check& check, std::size_t step = 1) {
    for (std::size_t n = 0; n <= good.size(); ++n) check(good.substr(0, n));
    for (std::size_t i = 0; i < good.size(); i += step)
        for (char c : alphabet) {
            std::string t = good;
            t[i] = c;
            check(t);
        }
}

// Pos::from_text (Pos is Position or stones::StonePosition) on `good`, which must read, and on every
// prefix and one-character change of it (characters from `alphabet`): an error points inside the
// text, a position read has its key right, and nothing crashes.
template <class Pos>
void check_text_never_crashes(const std::string& good, const std::string& alphabet);

// Text files of the test data.
inline const std::filesystem::path records_dir = std::filesystem::path(GOUNKI_SOURCE_DIR) / "tests" / "data" / "records";

// ---------------------------------------------------------------------------------------------
// Records read (support_records.cpp)

// Whether two lines hold the same moves, NAGs, comments and variations, at every depth.
bool same_notes(const parser::Line& a, const parser::Line& b);
// The first diagnostic of the game with `code`, or nullptr.
const parser::Diagnostic* find_code(const parser::GameRecord& g, std::string_view code);
// Checks that the game has a diagnostic `code` (the first one) at `line`:`column` whose message
// holds `text`.
void check_diagnostic(const parser::GameRecord& g, std::string_view code, int line, int column, std::string_view text);
// The one game of `games`; the test stops unless there is exactly one.
parser::GameRecord only_game(std::vector<parser::GameRecord> games);
// The names of the points played on a stone game's line (h8, ...), in order.
std::vector<std::string> point_names(const parser::Line& line);
// The value of the game's tag `name`, or "<none>".
std::string tag_of(const parser::GameRecord& g, const char* name);
// What a golden .expected file holds: per game its status, size and result (and every tag, with
// `tags`), per diagnostic its place, severity and code; file diagnostics as they come. The reader
// must have opened its input.
std::string describe_games(parser::GameSource& reader, bool tags);
// The text without its lines that start with '#' (a golden file's comments).
std::string without_comment_lines(const std::string& text);
// Each file of `dir` with one of the `extensions`, in a section of its own: describe(file) must be
// the text of the file beside it with the extension `.expected`. Returns how many were checked.
int check_golden_files(const std::filesystem::path& dir, std::initializer_list<std::string_view> extensions,
                       const std::function<std::string(const std::filesystem::path&)>& describe);

// ---------------------------------------------------------------------------------------------
// Gounki positions and moves (a bad text in a test fails the test, naming the text)

using Texts = std::vector<std::string>;

Position position_of(const std::string& text);
Square square_of(const char* name);
Move move_of(const Position& pos, const std::string& text);
// The moves of `texts` played one after the other from `pos`.
std::vector<Move> line_of(const std::vector<std::string>& texts, Position pos = Position::start());
// `pos` after the first `plies` of `moves`.
Position after(const std::vector<Move>& moves, std::size_t plies, Position pos = Position::start());

// The canonical texts of the moves of `list`.
std::set<std::string> texts_of(const Position& pos, const MoveList& list);
// The two move lists are the same set (the expected list names no move twice).
void expect_same_moves(const std::set<std::string>& got, const Texts& expected);
// The full move list of the side to move, as canonical texts, plus every per-move invariant of
// check_every_move.
void expect_moves(const std::string& position, const Texts& expected);
// The moves of one stack only (the stack belongs to the side to move).
void expect_stack_moves(const Position& pos, const char* from, const Texts& expected);
bool has_move(const Position& pos, const std::string& text);
// Every move of `pos`: do_move then undo_move gives back the very same position and key, the key
// kept incrementally equals the key computed from scratch, the outcome is set exactly when the
// move wins, and the canonical text of the move resolves back to the move without warnings.
void check_every_move(Position& pos);
// Resolves `text` (which must be legal and written canonically) and plays it.
void play(Position& pos, const std::string& text);
// Plays one game from the start to its end, each move drawn by `rng` among the legal ones:
// `visit(pos, move)` sees every position and the move about to be played in it.
void play_random_game(std::mt19937& rng, const std::function<void(const Position&, Move)>& visit);

// ---------------------------------------------------------------------------------------------
// Stone-game points, named by the tests' own reading (file letter a..s with no letter skipped,
// rank from the bottom, rank * 20 + file as core/stones/points.hpp numbers them), not by
// stones::parse_point, so that a bug there cannot hide one here.

int P(const std::string& name);
Move M(const std::string& name);

// Rules: Gomoku of `size`; full Ninuki (both options on); full Ninuki with a Rules tag applied.
stones::Rules gomoku(int size = 15);
stones::Rules ninuki(int size = 19);
stones::Rules ninuki_with(const char* rules_tag, int size = 19);
// A position of these stones, with the key checked, not over.
stones::StonePosition setup(const stones::Rules& rules, std::initializer_list<const char*> black,
                            std::initializer_list<const char*> white, Color side = Color::black, int black_captured = 0,
                            int white_captured = 0);
// Plays a move that must be legal; checks the key kept in step and that undo gives the position back.
void play(stones::StonePosition& pos, const std::string& point);
stones::StonePosition stone_position_of(const std::string& text);
bool in_legal_moves(const stones::StonePosition& pos, const std::string& point);

// ---------------------------------------------------------------------------------------------
// Random lines of play for record round trips

struct RandomLineStyle {
    int max_depth = 1; // variations are nested up to this depth
    unsigned variation_one_in = 12; // a variation on about one ply in this many
    bool prefer_deployments = false; // deployments are a minority of the legal moves: pick them more often
    bool nags = false; // NAGs now and then, valid and not
    bool odd_comments = false; // comments of record syntax ({, }, results, tags), else plain words
};

// A random line from `pos` of at most `max_plies` plies, with comments and variations as `style` says.
parser::Line random_line(std::mt19937& rng, Position pos, int max_plies, const RandomLineStyle& style, int depth = 0);

// ---------------------------------------------------------------------------------------------
// The database

// The backends a database test runs on, for GENERATE(from_range(test_backends())): "sqlite" always;
// "postgresql" too when $GOUNKI_TEST_PG names a server (scripts/with-postgres.sh sets it). The
// postgres ctest entry runs the tests tagged [both] with $GOUNKI_TEST_PG_REQUIRED=1: there a missing
// server fails the test rather than leaving PostgreSQL out.
std::vector<std::string> test_backends();
// A new, empty database on `backend` for one test: the file `name`.db in `dir`, or a database of
// its own on the test server (a URL, with the server's credentials).
std::string test_database(const std::string& backend, const TempDir& dir, const std::string& name);
// A new, empty database `name` (dropped first if it is there) on the test server named by
// $GOUNKI_TEST_PG: its URL, with the server's credentials. The test fails without a server.
std::string server_database(const std::string& name);
// In a test body: runs the rest of the test once per backend, `name` naming it ("sqlite", ...).
#define GOUNKI_EACH_BACKEND(name)                                                                  \
    const std::string name = GENERATE(from_range(::gounki::test::test_backends()));                \
    INFO("on " << name)
// Whether `path` names a PostgreSQL database.
bool on_postgres(const std::string& path);

// A Gounki game from the start with the usual tags.
db::GameInput game(const std::vector<std::string>& moves, const std::string& white, const std::string& black,
                   db::ResultCode result, const std::string& date = "", const std::string& event = "Test event");
// Four games of a small club, for the database tests: from the start, c2-d3 f7-e6 g2-f3 b7-a6 b2-c2
// (Ann Smith-Bob 1-0, 2020.05.01, Spring Open), g2-f3 b7-a6 c2-d3 f7-e6 (Bob-Cy 0-1, 2021.01.10,
// Winter Cup), c2-d3 b7-a6 (Cy-Ann Smith 1/2, 2019.12.31, Winter Cup), e2-f3 (Dee-Eve *, no date,
// Spring Open).
std::vector<db::GameInput> club_games();
// The games of club_games() stored in a new database on `backend` (test_database's `name`).
struct ClubDatabase {
    TempDir dir;
    db::GameDatabase db;
    std::vector<db::ImportReport> r; // the import's report of each game, in club_games()'s order
    ClubDatabase(const std::string& backend, const std::string& name);
    // The id of the club's game `i` (0 to 3).
    std::int64_t id(int i) const { return r[std::size_t(i)].game_id; }
    // The opening tree's row of `move` (as text) from the start position; an empty row when none.
    db::TreeMove start_move(const std::string& move);
};
// `n` random legal games of at most `plies` plies from `seed` (db/random_games.hpp).
std::vector<db::GameInput> random_games(int n, std::uint64_t seed, int plies = 40);
// Imports `games` in one importer; the report of every game.
std::vector<db::ImportReport> import(db::GameDatabase& db, std::vector<db::GameInput> games, db::ImportOptions options = {});
// Writes `games` as one GPN file.
void write_gpn(const std::string& path, const std::vector<db::GameInput>& games);
// Writes the record text `gpn` to `file` and stores it in `db` with `gounki import`, which must
// exit 0 (the test stops otherwise, with what the import said).
void import_text(const std::string& db, const std::filesystem::path& file, const std::string& gpn);
// The same for `games`, written as GPN.
void import_games(const std::string& db, const std::filesystem::path& file, const std::vector<db::GameInput>& games);
// The ids of the games of a list, in its order.
std::vector<std::int64_t> ids_of(const db::GameList& list);
// The first column of the first row of `sql`, -1 when there is no row.
std::int64_t scalar(db::GameDatabase& db, const std::string& sql);
// Every stored game is whole: its moves decode and replay, every one of its positions is in the
// index at its ply, the index holds nothing else, and the tree counts add up.
void check_consistent(db::GameDatabase& db);
// The opening tree of every position of every stored game (shallow plies and deep) is what
// counting the stored games by hand gives: each game once per move it played from the position
// (however often it came back there), with its result, the latest of them (greatest date, then
// id), and once in the position's total when it played any move from there. Returns the number of
// positions checked.
std::size_t check_tree_recount(db::GameDatabase& db);

// ---------------------------------------------------------------------------------------------
// Reports

// The text between the first `open` at or after `from` and the next `close`.
std::string between(const std::string& s, const std::string& open, const std::string& close, std::size_t from = 0);

// A small well-formedness checker for the XHTML-compatible markup the renderers write: balanced
// tags (HTML void elements may stay open), quoted attributes, only known entities, no stray `<`
// or `&`, raw text inside <style>. Returns "" when fine, else what is wrong and where.
std::string check_markup(const std::string& s);

// What an HTML report may not contain: anything that loads from outside the file.
void check_self_contained(const std::string& html);

// Report models built by hand. `moves` (as records write them) played from `start` into a game of
// a report: its kind, start, and each ply's move, side and position before it.
report::GameReport report_game(const AnyPosition& start, const std::vector<std::string>& moves);
// A Gounki game of `n` plies from the start: its first ply the `first`-th legal move, its second
// the `reply`-th, each later ply i the (7i+3)-th (mod the count): a real, varied game.
report::GameReport generated_game(int n, std::size_t first = 3, std::size_t reply = 10);
// Texts of a legal line from a ply's position other than its move: another move and a reply.
std::vector<std::string> other_line(const report::Ply& p);
// A judgement of a move played from `before` with these scores (pieces) and best line (texts of
// moves from `before`, as records write them).
report::Judgement judged(report::Verdict v, double best, double played, const AnyPosition& before,
                         const std::vector<std::string>& line);

} // namespace gounki::test
