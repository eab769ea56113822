// The game database: schema and file handling, import (duplicates, prefixes, broken games), the
// position index, searches, the opening tree, show/export/delete, and the command line across
// processes (two importers at once, an importer killed at several points).
#include "tests/catch.hpp"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/movegen.hpp"
#include "core/notation.hpp"
#include "db/codec.hpp"
#include "db/game_db.hpp"
#include "db/import.hpp"
#include "db/pattern.hpp"
#include "db/position_index.hpp"
#include "db/random_games.hpp"
#include "db/record_bridge.hpp"
#include "parser/reader.hpp"
#include "parser/writer.hpp"

using namespace gounki;
using namespace gounki::db;
namespace fs = std::filesystem;

namespace {

// A fresh directory under the system temporary directory, removed at the end.
class TempDir {
public:
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "gounki-db-test-XXXXXX").string();
        if (!::mkdtemp(tmpl.data())) FAIL("mkdtemp failed");
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    fs::path path_;
};

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<Move> line(const std::vector<std::string>& texts, Position pos = Position::start()) {
    std::vector<Move> moves;
    UndoRecord undo;
    for (const std::string& t : texts) {
        const Resolution r = resolve_move_text(pos, t);
        if (!r.move) FAIL("test move '" << t << "' does not resolve: " << r.message);
        moves.push_back(r.move);
        pos.do_move(r.move, undo);
    }
    return moves;
}

Position after(const std::vector<Move>& moves, std::size_t plies, Position pos = Position::start()) {
    UndoRecord undo;
    for (std::size_t i = 0; i < plies; ++i) pos.do_move(moves[i], undo);
    return pos;
}

GameInput game(const std::vector<std::string>& moves, const std::string& white, const std::string& black, ResultCode result,
               const std::string& date = "", const std::string& event = "Test event") {
    GameInput g;
    g.moves = line(moves);
    g.result = result;
    g.tags = {{"Event", event}, {"White", white}, {"Black", black}, {"Result", std::string(result_text(result))}};
    if (!date.empty()) g.tags.emplace_back("Date", date);
    return g;
}

std::vector<GameInput> random_games(int n, std::uint64_t seed, int plies = 40) {
    std::mt19937_64 rng(seed);
    RandomGameOptions o;
    o.max_plies = plies;
    o.players = 20;
    o.events = 5;
    std::vector<GameInput> out;
    for (int i = 0; i < n; ++i) out.push_back(random_game(rng, o, i + 1));
    return out;
}

std::vector<ImportReport> import(GameDatabase& db, std::vector<GameInput> games, ImportOptions options = {}) {
    std::vector<ImportReport> reports;
    Importer importer(db, options, [&](const ImportReport& r) { reports.push_back(r); });
    for (GameInput& g : games) importer.add(std::move(g));
    importer.finish();
    return reports;
}

void write_gpn(const std::string& path, const std::vector<GameInput>& games) {
    std::ofstream out(path, std::ios::binary);
    for (const GameInput& g : games) parser::write_record(out, game_record(g));
}

struct CliResult {
    int code = -1;
    std::string out, err;
};

// Starts the gounki binary with stdout and stderr sent to files; returns the child's pid.
pid_t spawn_cli(const std::vector<std::string>& args, const std::string& out, const std::string& err) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(o, 1);
        ::dup2(e, 2);
        std::vector<char*> argv;
        std::string program = GOUNKI_CLI;
        argv.push_back(program.data());
        std::vector<std::string> copy = args;
        for (std::string& a : copy) argv.push_back(a.data());
        argv.push_back(nullptr);
        ::execv(program.c_str(), argv.data());
        ::_exit(127);
    }
    return pid;
}

int wait_exit(pid_t pid) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

CliResult cli(const TempDir& dir, const std::vector<std::string>& args) {
    static int n = 0;
    const std::string out = dir.file("cli" + std::to_string(++n) + ".out"), err = dir.file("cli" + std::to_string(n) + ".err");
    CliResult r;
    r.code = wait_exit(spawn_cli(args, out, err));
    r.out = read_file(out);
    r.err = read_file(err);
    return r;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string testing_list(const std::vector<std::int64_t>& v) {
    std::string s;
    for (auto x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
    return s;
}

std::int64_t scalar(GameDatabase& db, const std::string& sql) {
    Statement st(db.sql(), sql);
    return st.step() ? st.get_int64(0) : -1;
}

// Every stored game is whole: its moves decode and replay, every one of its positions is in the
// index at its ply, the index holds nothing else, and the tree counts add up.
void check_consistent(GameDatabase& db) {
    std::int64_t plies = 0, games = 0, with_moves = 0;
    std::vector<std::int64_t> ids;
    {
        Statement st(db.sql(), "SELECT id FROM games ORDER BY id");
        while (st.step()) ids.push_back(st.get_int64(0));
    }
    for (std::int64_t id : ids) {
        const auto g = db.game(id);
        REQUIRE(g);
        REQUIRE(g->summary.ply_count == int(g->moves.size()));
        const std::vector<std::uint64_t> keys = GameDatabase::position_keys(
            g->summary.kind == GameKind::gounki ? Replay(g->start) : Replay(g->stone_start), g->moves);
        std::vector<IndexEntry> found;
        db.index().lookup(keys.back(), found);
        const bool indexed = std::any_of(found.begin(), found.end(), [&](const IndexEntry& e) { return e.game == id && e.ply == g->moves.size(); });
        REQUIRE(indexed);
        plies += std::int64_t(g->moves.size()) + 1;
        ++games;
        with_moves += !g->moves.empty() && g->standard_start && g->summary.kind == GameKind::gounki;
    }
    CHECK(scalar(db, "SELECT coalesce(sum(entries), 0) FROM position_runs") == plies);
    std::int64_t listed = 0;
    {
        Statement st(db.sql(), "SELECT run_id, first_key, data FROM position_blocks");
        while (st.step())
            decode_block(std::uint64_t(st.get_int64(1)), st.get_blob(2), [&](const IndexEntry&) { ++listed; });
    }
    CHECK(listed == plies);
    const std::int64_t start_key = std::int64_t(index_key(GameKind::gounki, Position::start().key()));
    CHECK(scalar(db, "SELECT coalesce(sum(games), 0) FROM tree_stats WHERE key = " + std::to_string(start_key)) == with_moves);
    CHECK(games == std::int64_t(ids.size()));
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Encodings

TEST_CASE("moves encode to a compact blob and decode back, for every kind of move", "[db]") {
    for (const GameInput& g : random_games(50, 7, 60)) {
        const auto blob = encode_moves(g.moves);
        CHECK(blob.size() <= g.moves.size() * 5);
        const auto back = decode_moves(blob);
        REQUIRE(back);
        CHECK(*back == g.moves);
        MoveDecoder d(blob);
        Move m;
        std::size_t i = 0;
        while (d.next(m)) CHECK(m == g.moves[i++]);
        CHECK(i == g.moves.size());
    }
    // A movement takes two bytes.
    CHECK(encode_moves(line({"c2-d3"})).size() == 2);
    const std::vector<std::uint8_t> truncated = {0x80};
    CHECK_FALSE(decode_moves(truncated));
}

TEST_CASE("dates give sortable keys and command-line bounds", "[db]") {
    CHECK(date_key("2026.11.02") == 20261102);
    CHECK(date_key("2026.??.??") == 20260000);
    CHECK(date_key("2026-11") == 20261100);
    CHECK(date_key("????.??.??") == 0);
    CHECK(date_key("") == 0);
    CHECK(date_bound("2026", false) == 20260000);
    CHECK(date_bound("2026", true) == 20269999);
    CHECK(date_bound("2026.11", true) == 20261199);
    CHECK(date_bound("2026-11-02", false) == 20261102);
    CHECK_FALSE(date_bound("yesterday", false));
    CHECK_FALSE(date_bound("2026.13", false));
    CHECK(parse_result("1/2-1/2") == ResultCode::draw);
    CHECK(parse_result("white") == ResultCode::white_wins);
    CHECK_FALSE(parse_result("2-0"));
}

TEST_CASE("index blocks round-trip and Bloom filters never miss a key", "[db]") {
    std::mt19937_64 rng(3);
    std::vector<IndexEntry> entries;
    for (int i = 0; i < 500; ++i) entries.push_back({rng(), std::int64_t(rng() % 100000 + 1), std::uint32_t(rng() % 80)});
    for (int i = 0; i < 50; ++i) entries.push_back({entries[0].key, std::int64_t(i + 1), 3}); // one key in many games
    std::sort(entries.begin(), entries.end());
    entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
    std::vector<std::uint8_t> data;
    encode_block(entries, data);
    std::vector<IndexEntry> back;
    CHECK(decode_block(entries.front().key, data, [&](const IndexEntry& e) { back.push_back(e); }));
    CHECK(back == entries);

    BloomFilter f(entries.size());
    for (const IndexEntry& e : entries) f.add(e.key);
    const BloomFilter g = BloomFilter::from_bytes(f.bytes());
    int false_positives = 0;
    for (const IndexEntry& e : entries) CHECK(g.may_contain(e.key));
    for (int i = 0; i < 10000; ++i) false_positives += g.may_contain(rng());
    CHECK(false_positives < 500); // about 1.5% expected
}

// ---------------------------------------------------------------------------------------------
// Patterns

TEST_CASE("pattern syntax: boards, squares, side, counts, and errors that say where", "[db]") {
    auto parse = [](const std::string& t) { return Pattern::parse(t); };
    const Position start = Position::start();

    auto exact = parse("rsrsrsrs/srsrsrsr/8/8/8/8/RSRSRSRS/SRSRSRSR w");
    REQUIRE(std::holds_alternative<Pattern>(exact));
    CHECK(std::get<Pattern>(exact).matches(start));
    CHECK_FALSE(std::get<Pattern>(parse("rsrsrsrs/srsrsrsr/8/8/8/8/RSRSRSRS/SRSRSRSR b")).matches(start));

    struct Case {
        const char* text;
        bool at_start;
    };
    const Case cases[] = {
        {"a1=S", true},         {"a1=R", false},       {"a1=W", true},         {"a1=B", false},      {"a1=X", true},
        {"e4=.", true},         {"e4=?", true},        {"e4=X", false},        {"a8=[Br1]", true},   {"a8=[Bs1]", false},
        {"#W=16", true},        {"#B>=17", false},     {"Wp=16", true},        {"Wr>=8", true},      {"Ws<8", false},
        {"#[n2]>=1", false},    {"#R=8", true},        {"w; a1=S", true},      {"b", false},
        {"????????" "/????????" "/8/8/8/8/W?W?W?W?/SRSRSRSR", true},
    };
    for (const Case& c : cases) {
        INFO(c.text);
        auto p = parse(c.text);
        REQUIRE(std::holds_alternative<Pattern>(p));
        CHECK(std::get<Pattern>(p).matches(start) == c.at_start);
        // The canonical text reads back as the same pattern.
        auto again = parse(std::get<Pattern>(p).text());
        REQUIRE(std::holds_alternative<Pattern>(again));
        CHECK(std::get<Pattern>(again).text() == std::get<Pattern>(p).text());
    }

    const std::pair<const char*, int> errors[] = {
        {"", 0}, {"e9=W", 0}, {"e4=Q", 3}, {"8/8/8", 5}, {"9/8/8/8/8/8/8/8", 0}, {"#[Wq2]>=1", 3}, {"Wp>>3", 3}, {"(RSs)/8/8/8/8/8/8/8", 0}, {"hello", 0},
    };
    for (const auto& [text, column] : errors) {
        INFO(text);
        auto p = parse(text);
        REQUIRE(std::holds_alternative<PatternError>(p));
        CHECK(std::get<PatternError>(p).column == column);
        CHECK_FALSE(std::get<PatternError>(p).message.empty());
    }
}

TEST_CASE("a pattern that needs material stops early only when the game can no longer match", "[db]") {
    // Material only goes down: a pattern asking for 16 white pieces is out of reach after a capture.
    auto p = std::get<Pattern>(Pattern::parse("Wp>=16"));
    CHECK(p.prunes());
    CHECK(p.reachable(Position::start()));
    auto q = std::get<Pattern>(Pattern::parse("e4=."));
    CHECK_FALSE(q.prunes());
}

// ---------------------------------------------------------------------------------------------
// Opening files

TEST_CASE("a new database gets the schema, WAL and foreign keys; reopening keeps it", "[db]") {
    TempDir dir;
    const std::string path = dir.file("new.db");
    {
        GameDatabase db(path, Access::read_write);
        CHECK(scalar(db, "PRAGMA user_version") == schema_version);
        CHECK(scalar(db, "PRAGMA application_id") == application_id);
        CHECK(scalar(db, "PRAGMA foreign_keys") == 1);
        Statement mode(db.sql(), "PRAGMA journal_mode");
        REQUIRE(mode.step());
        CHECK(mode.get_string(0) == "wal");
        // Every table is STRICT.
        Statement tables(db.sql(), "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
        int n = 0;
        while (tables.step()) {
            INFO(tables.get_string(0));
            CHECK(contains(tables.get_string(1), "STRICT"));
            ++n;
        }
        CHECK(n >= 10);
        CHECK(db.tree_depth() >= 1);
    }
    GameDatabase again(path, Access::read_only);
    CHECK(again.list_games({}, {}).total == 0);
    CHECK_THROWS_AS(GameDatabase(dir.file("missing.db"), Access::read_only), DbError);
}

TEST_CASE("a database of schema version 2 is migrated in place, its games kept", "[db]") {
    TempDir dir;
    const std::string path = dir.file("old.db");
    const auto games = random_games(30, 5, 20);
    {
        GameDatabase db(path, Access::read_write);
        import(db, games);
    }
    {
        // Back to version 2 by hand: no annotated column (3), the full end_key index (4).
        Database raw(path, OpenMode::read_write);
        raw.exec("ALTER TABLE games DROP COLUMN annotated");
        raw.exec("DROP INDEX games_short_end");
        raw.exec("CREATE INDEX games_end_key ON games (end_key)");
        raw.exec("PRAGMA user_version = 2");
    }
    GameDatabase db(path, Access::read_write);
    CHECK(scalar(db, "PRAGMA user_version") == schema_version);
    CHECK(scalar(db, "SELECT count(*) FROM pragma_table_info('games') WHERE name = 'annotated'") == 1);
    CHECK(scalar(db, "SELECT count(*) FROM sqlite_master WHERE name = 'games_end_key'") == 0);
    CHECK(scalar(db, "SELECT count(*) FROM sqlite_master WHERE name = 'games_short_end'") == 1);
    CHECK(db.list_games({}, {}).total == 30);
    check_consistent(db);
    // Importing again finds every game as a duplicate, short or long.
    const auto again = import(db, games);
    for (const ImportReport& r : again) CHECK(r.action == ImportAction::duplicate);
}

TEST_CASE("a database from a newer gounki is refused and left unchanged", "[db]") {
    TempDir dir;
    const std::string path = dir.file("newer.db");
    { GameDatabase db(path, Access::read_write); }
    {
        Database raw(path, OpenMode::read_write);
        raw.exec("PRAGMA user_version = 99");
    }
    const std::string before = read_file(path);
    for (Access a : {Access::read_only, Access::read_write}) {
        try {
            GameDatabase db(path, a);
            FAIL("a newer database was opened");
        } catch (const DbError& e) {
            CHECK(contains(e.what(), "newer"));
            CHECK(contains(e.what(), "99"));
        }
    }
    const CliResult r = cli(dir, {"import", "--db", path, dir.file("none.gpn")});
    CHECK(r.code == 2);
    CHECK(contains(r.err, "newer"));
    CHECK(read_file(path) == before);
}

TEST_CASE("a corrupt file is refused with a clear error and nothing is overwritten", "[db]") {
    TempDir dir;
    const std::string path = dir.file("garbage.db");
    {
        std::ofstream out(path, std::ios::binary);
        std::mt19937 rng(5);
        for (int i = 0; i < 8192; ++i) out.put(char(rng()));
    }
    const std::string before = read_file(path);
    for (Access a : {Access::read_only, Access::read_write}) {
        try {
            GameDatabase db(path, a);
            FAIL("a garbage file was opened");
        } catch (const DbError& e) {
            CHECK(contains(e.what(), "not a gounki database"));
        }
    }
    write_gpn(dir.file("one.gpn"), {game({"c2-d3"}, "A", "B", ResultCode::unknown)});
    const CliResult r = cli(dir, {"import", "--db", path, dir.file("one.gpn")});
    CHECK(r.code == 2);
    CHECK(contains(r.err, "not a gounki database"));
    CHECK(read_file(path) == before);
    CHECK(cli(dir, {"games", "--db", path}).code == 2);
    CHECK(read_file(path) == before);

    // An SQLite file of another program is not ours either.
    const std::string other = dir.file("other.db");
    {
        Database raw(other, OpenMode::create);
        raw.exec("CREATE TABLE t(x)");
    }
    CHECK_THROWS_WITH(GameDatabase(other, Access::read_write), Catch::Contains("not a gounki database"));
}

TEST_CASE("a read-only database answers queries and refuses writes without changing", "[db]") {
    TempDir dir;
    const std::string path = dir.file("ro.db");
    {
        GameDatabase db(path, Access::read_write);
        import(db, {game({"c2-d3", "f7-e6"}, "Ann", "Bob", ResultCode::white_wins)});
    }
    // Root ignores permission bits: make the file immutable instead.
    const bool root = ::geteuid() == 0;
    if (root) {
        if (std::system(("chattr +i '" + path + "' 2>/dev/null").c_str()) != 0) {
            WARN("running as root without chattr: the read-only case is not testable here");
            return;
        }
    } else {
        fs::permissions(path, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    }
    struct Restore {
        std::string path;
        bool root;
        ~Restore() {
            if (root) (void)std::system(("chattr -i '" + path + "' 2>/dev/null").c_str());
            else fs::permissions(path, fs::perms::owner_all);
        }
    } restore{path, root};
    const std::string before = read_file(path);
    {
        GameDatabase db(path, Access::read_only);
        CHECK(db.list_games({}, {}).total == 1);
        CHECK(db.search_position(after(line({"c2-d3"}), 1), GameKind::gounki, {}, {}).total == 1);
    }
    CHECK_THROWS_WITH(GameDatabase(path, Access::read_write), Catch::Contains("read-only"));
    write_gpn(dir.file("more.gpn"), {game({"c2-b3"}, "Cy", "Di", ResultCode::unknown)});
    const CliResult imp = cli(dir, {"import", "--db", path, dir.file("more.gpn")});
    CHECK(imp.code == 2);
    CHECK(contains(imp.err, "read-only"));
    CHECK(cli(dir, {"delete", "--db", path, "1"}).code == 2);
    const CliResult list = cli(dir, {"games", "--db", path});
    CHECK(list.code == 0);
    CHECK(contains(list.out, "Ann"));
    CHECK(read_file(path) == before);
}

// ---------------------------------------------------------------------------------------------
// Import

TEST_CASE("duplicates are reported and skipped, or kept on request; rerunning an import stores nothing twice", "[db]") {
    // Games shorter than 8 plies are found by final position through a partial SQL index, longer
    // ones through the position index: every check runs both ways, the second time with 8 plies
    // played in front of every game.
    const std::vector<std::string> opening =
        GENERATE(std::vector<std::string>{}, std::vector<std::string>{"h2-h3", "a7-a6", "h3-h4", "a6-a5", "h4-h5", "a5-a4", "h5-h6", "a4-a3"});
    const auto game = [&](std::vector<std::string> moves, const std::string& white, const std::string& black, ResultCode result) {
        moves.insert(moves.begin(), opening.begin(), opening.end());
        return ::game(moves, white, black, result);
    };
    TempDir dir;
    GameDatabase db(dir.file("dup.db"), Access::read_write);
    auto first = game({"c2-d3", "f7-e6", "g2-f3"}, "Ann", "Bob", ResultCode::white_wins);
    first.source_file = dir.file("a.gpn");
    first.source_line = 1;
    auto r1 = import(db, {first});
    REQUIRE(r1.size() == 1);
    CHECK(r1[0].action == ImportAction::stored);
    const std::int64_t id = r1[0].game_id;

    // Same players, result and moves from another file: a duplicate.
    auto copy = first;
    copy.source_file = dir.file("b.gpn");
    auto r2 = import(db, {copy});
    CHECK(r2[0].action == ImportAction::duplicate);
    CHECK(r2[0].other_id == id);
    CHECK(r2[0].noteworthy());
    // Another result, or other players: not a duplicate.
    auto other_result = copy;
    other_result.result = ResultCode::black_wins;
    auto other_player = copy;
    other_player.tags[1].second = "Anne";
    auto r3 = import(db, {other_result, other_player});
    CHECK(r3[0].action == ImportAction::stored);
    CHECK(r3[1].action == ImportAction::stored);
    // The same moves all the same: flagged, not as a prefix.
    CHECK(r3[0].same_moves == std::vector<std::int64_t>{id});
    CHECK(r3[1].same_moves == std::vector<std::int64_t>{id, r3[0].game_id});
    CHECK(r3[0].has_prefix.empty());
    CHECK(r3[0].prefix_of.empty());

    // Kept on request, still reported.
    ImportOptions keep;
    keep.keep_duplicates = true;
    auto r4 = import(db, {copy}, keep);
    CHECK(r4[0].action == ImportAction::stored);
    CHECK(r4[0].other_id == id);
    CHECK(db.list_games({}, {}).total == 4);

    // The same record (file, line, content) again: already imported, even when keeping duplicates.
    auto r5 = import(db, {first, copy}, keep);
    CHECK(r5[0].action == ImportAction::already_imported);
    CHECK(r5[0].other_id == id);
    CHECK(r5[1].action == ImportAction::already_imported);
    CHECK(db.list_games({}, {}).total == 4);

    // Duplicates inside one batch.
    auto r6 = import(db, {game({"e2-d3"}, "X", "Y", ResultCode::draw), game({"e2-d3"}, "X", "Y", ResultCode::draw)});
    CHECK(r6[0].action == ImportAction::stored);
    CHECK(r6[1].action == ImportAction::duplicate);
    CHECK(r6[1].other_id == r6[0].game_id);

    // Games without moves: duplicates too, in one batch and across batches; not prefixes.
    auto r7 = import(db, {game({}, "P", "Q", ResultCode::unknown), game({}, "P", "Q", ResultCode::unknown), game({}, "P", "R", ResultCode::unknown)});
    CHECK(r7[0].action == ImportAction::stored);
    CHECK(r7[1].action == ImportAction::duplicate);
    CHECK(r7[2].action == ImportAction::stored);
    CHECK(r7[2].has_prefix.empty());
    auto r8 = import(db, {game({}, "P", "R", ResultCode::unknown)});
    CHECK(r8[0].action == ImportAction::duplicate);
    CHECK(r8[0].other_id == r7[2].game_id);
    check_consistent(db);
}

TEST_CASE("a game that is a prefix of a stored game, or has one as a prefix, is flagged both ways", "[db]") {
    // Games shorter than 8 plies are found by final position through a partial SQL index, longer
    // ones through the position index: every check runs both ways, the second time with 8 plies
    // played in front of every game.
    const std::vector<std::string> opening =
        GENERATE(std::vector<std::string>{}, std::vector<std::string>{"h2-h3", "a7-a6", "h3-h4", "a6-a5", "h4-h5", "a5-a4", "h5-h6", "a4-a3"});
    const auto game = [&](std::vector<std::string> moves, const std::string& white, const std::string& black, ResultCode result) {
        moves.insert(moves.begin(), opening.begin(), opening.end());
        return ::game(moves, white, black, result);
    };
    TempDir dir;
    GameDatabase db(dir.file("prefix.db"), Access::read_write);
    const std::vector<std::string> full = {"c2-d3", "f7-e6", "g2-f3", "b7-a6", "b2-c2"};
    const std::vector<std::string> part(full.begin(), full.begin() + 3);

    SECTION("the longer game first") {
        auto r1 = import(db, {game(full, "Ann", "Bob", ResultCode::white_wins)});
        auto r2 = import(db, {game(part, "Ann", "Bob", ResultCode::unknown)});
        REQUIRE(r2[0].action == ImportAction::stored);
        CHECK(r2[0].prefix_of == std::vector<std::int64_t>{r1[0].game_id});
        CHECK(r2[0].has_prefix.empty());
        const auto stored = db.game(r1[0].game_id);
        REQUIRE(stored);
        const bool noted = std::any_of(stored->diagnostics.begin(), stored->diagnostics.end(),
                                       [](const Diagnostic& d) { return d.code == "prefix" && d.severity == Severity::note; });
        CHECK(noted);
    }
    SECTION("the shorter game first") {
        auto r1 = import(db, {game(part, "Ann", "Bob", ResultCode::unknown)});
        auto r2 = import(db, {game(full, "Cy", "Di", ResultCode::black_wins)});
        CHECK(r2[0].has_prefix == std::vector<std::int64_t>{r1[0].game_id});
        CHECK(r2[0].prefix_of.empty());
    }
    SECTION("both in one batch, in either order") {
        auto r = import(db, {game(part, "Ann", "Bob", ResultCode::unknown), game(full, "Cy", "Di", ResultCode::black_wins),
                             game(part, "Eve", "Fay", ResultCode::unknown)});
        CHECK(r[1].has_prefix == std::vector<std::int64_t>{r[0].game_id});
        CHECK(r[2].prefix_of == std::vector<std::int64_t>{r[1].game_id});
    }
    SECTION("a transposition is not a prefix") {
        import(db, {game({"g2-f3", "f7-e6", "c2-d3", "b7-a6", "b2-c2"}, "Ann", "Bob", ResultCode::white_wins)});
        auto r = import(db, {game({"c2-d3", "f7-e6", "g2-f3", "b7-a6"}, "Cy", "Di", ResultCode::unknown)});
        CHECK(r[0].prefix_of.empty());
        CHECK(r[0].has_prefix.empty());
    }
    check_consistent(db);
}

TEST_CASE("broken games are stored as partial with their diagnostics unless rejected", "[db]") {
    TempDir dir;
    GameDatabase db(dir.file("broken.db"), Access::read_write);
    auto broken = game({"c2-d3", "f7-e6"}, "Ann", "Bob", ResultCode::unknown);
    broken.status = GameStatus::partial;
    broken.diagnostics = {{Severity::error, "illegal-move", 3, 7, "c2-c5 is not a legal move"}, {Severity::warning, "no-result", 0, 0, "no result"}};
    ImportOptions reject;
    reject.reject_broken = true;
    auto r1 = import(db, {broken}, reject);
    CHECK(r1[0].action == ImportAction::rejected);
    CHECK(contains(r1[0].reason, "broken"));
    CHECK(db.list_games({}, {}).total == 0);

    auto r2 = import(db, {broken});
    REQUIRE(r2[0].action == ImportAction::stored);
    CHECK(r2[0].status == GameStatus::partial);
    const auto g = db.game(r2[0].game_id);
    REQUIRE(g);
    CHECK(g->summary.status == GameStatus::partial);
    REQUIRE(g->diagnostics.size() == 2);
    CHECK(g->diagnostics[0].code == "illegal-move");
    CHECK(g->diagnostics[0].line == 3);
    CHECK(g->diagnostics[0].column == 7);
    CHECK(g->diagnostics[1].severity == Severity::warning);
    // Its moves are indexed like any other game's.
    CHECK(db.search_position(after(g->moves, 2), GameKind::gounki, {}, {}).total == 1);
}

TEST_CASE("many small batches make many index runs, merged as they pile up, and every position stays found", "[db]") {
    TempDir dir;
    GameDatabase db(dir.file("runs.db"), Access::read_write);
    ImportOptions small;
    small.batch_games = 7;
    const auto games = random_games(120, 11, 30);
    import(db, games, small);
    const auto runs = db.index().runs();
    CHECK(runs.size() < 17); // 18 batches, 8 runs of a tier are merged into one
    check_consistent(db);
    db.index().compact_all();
    CHECK(db.index().runs().size() == 1);
    check_consistent(db);
}

TEST_CASE("a large import builds the lookup indexes at its end; without them queries are right, and a write open builds them", "[db]") {
    TempDir dir;
    const auto games = random_games(1200, 9, 30);
    const auto lookup_indexes = [](GameDatabase& db) {
        return scalar(db, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN "
                          "('games_white', 'games_black', 'games_event', 'games_date')");
    };
    std::vector<GameFilter> filters(4);
    filters[0].white = "2";
    filters[1].player = "1";
    filters[2].event = "3";
    filters[3].date_from = 20100101;
    const auto totals = [&](GameDatabase& db) {
        std::vector<std::int64_t> t;
        for (const GameFilter& f : filters) t.push_back(db.list_games(f, {}).total);
        return t;
    };
    GameDatabase plain(dir.file("plain.db"), Access::read_write);
    {
        Importer importer(plain, {});
        for (const GameInput& g : games) importer.add(g);
        importer.finish();
        CHECK(importer.stats().lookup_indexes_s == 0);
    }
    const auto expected = totals(plain);
    CHECK(expected[0] > 0);
    CHECK(expected[0] < 1200);
    const std::string path = dir.file("bulk.db");
    {
        GameDatabase bulk(path, Access::read_write);
        ImportOptions o;
        o.batch_games = 300;
        o.expected_games = std::int64_t(games.size());
        Importer importer(bulk, o);
        for (const GameInput& g : games) importer.add(g);
        importer.finish();
        CHECK(importer.stats().lookup_indexes_s > 0);
        CHECK(lookup_indexes(bulk) == 4);
        CHECK(totals(bulk) == expected);
        check_consistent(bulk);
        // An import killed before its end leaves them missing.
        bulk.drop_lookup_indexes();
    }
    {
        GameDatabase reader(path, Access::read_only);
        CHECK(lookup_indexes(reader) == 0);
        CHECK(totals(reader) == expected);
    }
    GameDatabase writer(path, Access::read_write);
    CHECK(lookup_indexes(writer) == 4);
    CHECK(totals(writer) == expected);
    check_consistent(writer);
    // An import of fewer games than the database holds keeps them up as it goes.
    ImportOptions few;
    few.expected_games = 1000;
    Importer more(writer, few);
    for (const GameInput& g : random_games(50, 10, 30)) more.add(g);
    more.finish();
    CHECK(more.stats().lookup_indexes_s == 0);
    CHECK(lookup_indexes(writer) == 4);
}

// ---------------------------------------------------------------------------------------------
// Queries

namespace {

// Four games: two reach the same position by different move orders.
struct Fixture {
    TempDir dir;
    GameDatabase db{dir.file("q.db"), Access::read_write};
    std::vector<ImportReport> r;
    std::vector<Move> a_moves;
    Fixture() {
        r = import(db, {game({"c2-d3", "f7-e6", "g2-f3", "b7-a6", "b2-c2"}, "Ann Smith", "Bob", ResultCode::white_wins, "2020.05.01", "Spring Open"),
                        game({"g2-f3", "b7-a6", "c2-d3", "f7-e6"}, "Bob", "Cy", ResultCode::black_wins, "2021.01.10", "Winter Cup"),
                        game({"c2-d3", "b7-a6"}, "Cy", "Ann Smith", ResultCode::draw, "2019.12.31", "Winter Cup"),
                        game({"e2-f3"}, "Dee", "Eve", ResultCode::unknown, "", "Spring Open")});
        a_moves = line({"c2-d3", "f7-e6", "g2-f3", "b7-a6"});
    }
    std::int64_t id(int i) const { return r[std::size_t(i)].game_id; }
};

std::vector<std::int64_t> ids_of(const GameList& l) {
    std::vector<std::int64_t> ids;
    for (const GameSummary& g : l.games) ids.push_back(g.id);
    return ids;
}

} // namespace

TEST_CASE("games are listed with tag filters and paging", "[db]") {
    Fixture f;
    CHECK(f.db.list_games({}, {}).total == 4);
    GameFilter by_white;
    by_white.white = "ann";
    CHECK(ids_of(f.db.list_games(by_white, {})) == std::vector<std::int64_t>{f.id(0)});
    GameFilter by_player;
    by_player.player = "ANN SMITH";
    CHECK(ids_of(f.db.list_games(by_player, {})) == std::vector<std::int64_t>{f.id(0), f.id(2)});
    GameFilter by_black;
    by_black.black = "Cy";
    CHECK(ids_of(f.db.list_games(by_black, {})) == std::vector<std::int64_t>{f.id(1)});
    GameFilter by_event;
    by_event.event = "winter";
    CHECK(f.db.list_games(by_event, {}).total == 2);
    GameFilter by_result;
    by_result.result = ResultCode::draw;
    CHECK(ids_of(f.db.list_games(by_result, {})) == std::vector<std::int64_t>{f.id(2)});
    GameFilter by_date;
    by_date.date_from = date_bound("2020", false);
    by_date.date_to = date_bound("2020.12", true);
    CHECK(ids_of(f.db.list_games(by_date, {})) == std::vector<std::int64_t>{f.id(0)});
    GameFilter to_only;
    to_only.date_to = date_bound("2020", true);
    CHECK(f.db.list_games(to_only, {}).total == 2); // the undated game is left out
    GameFilter wildcard;
    wildcard.white = "%";
    CHECK(f.db.list_games(wildcard, {}).total == 0); // LIKE wildcards are plain text

    const GameList page = f.db.list_games({}, {2, 1});
    CHECK(page.total == 4);
    CHECK(ids_of(page) == std::vector<std::int64_t>{f.id(1), f.id(2)});
    CHECK(f.db.list_games({}, {10, 10}).games.empty());
}

TEST_CASE("exact position search finds a position whatever the move order, with filters and paging", "[db]") {
    Fixture f;
    const Position pos = after(f.a_moves, 4);
    const GameList all = f.db.search_position(pos, GameKind::gounki, {}, {});
    CHECK(ids_of(all) == std::vector<std::int64_t>{f.id(0), f.id(1)});
    CHECK(all.games[0].ply == 4);
    CHECK(all.games[1].ply == 4);
    CHECK(all.games[0].white == "Ann Smith");
    CHECK(all.games[0].date == "2020.05.01");
    CHECK(all.games[0].result == ResultCode::white_wins);

    GameFilter filter;
    filter.result = ResultCode::black_wins;
    CHECK(ids_of(f.db.search_position(pos, GameKind::gounki, filter, {})) == std::vector<std::int64_t>{f.id(1)});
    CHECK(f.db.search_position(pos, GameKind::gounki, {}, {1, 1}).games.size() == 1);
    CHECK(f.db.search_position(pos, GameKind::gounki, {}, {1, 1}).total == 2);

    CHECK(f.db.search_position(Position::start(), GameKind::gounki, {}, {}).total == 4);
    CHECK(f.db.search_position(after(f.a_moves, 1), GameKind::gounki, {}, {}).total == 2); // games 0 and 2
    // The same board with the other side to move is another position.
    Position other = pos;
    other.set_side_to_move(Color::black);
    CHECK(f.db.search_position(other, GameKind::gounki, {}, {}).total == 0);
    // The game kind is part of the key.
    CHECK(f.db.search_position(pos, GameKind::gomoku, {}, {}).total == 0);
}

TEST_CASE("Gomoku and Ninuki games are stored with their rules, found by position, in the tree, and deleted", "[db][stones]") {
    TempDir dir;
    GameDatabase db(dir.file("stones.db"), Access::read_write);
    const std::string text =
        "[Game \"Gomoku\"]\n[White \"W1\"]\n[Black \"B1\"]\n[Date \"2026.01.02\"]\n\n1. h8 h9 2. i8 i9 3. j8 j9 4. k8 k9 5. l8 0-1\n\n"
        "[Game \"Gomoku\"]\n[White \"W2\"]\n[Black \"B2\"]\n[Date \"2026.02.03\"]\n\n1. i8 h9 2. h8 i9 3. a1 *\n\n"
        "[Game \"Gomoku\"]\n[Size \"19\"]\n[White \"W3\"]\n[Black \"B3\"]\n\n1. h8 h9 2. i8 *\n\n"
        "[Game \"Ninuki\"]\n[Rules \"no-endgame-capture\"]\n[White \"W4\"]\n[Black \"B4\"]\n\n1. j10 k10 2. a1 l10 3. m10 k10 *\n";
    std::vector<GameInput> inputs;
    for (parser::GameRecord& r : parser::read_records(text, "stones.gpn")) {
        REQUIRE(r.status == parser::GameStatus::valid);
        inputs.push_back(game_input(std::move(r)));
    }
    const auto reports = import(db, inputs);
    REQUIRE(reports.size() == 4);
    for (const ImportReport& r : reports) REQUIRE(r.action == ImportAction::stored);
    check_consistent(db);

    // The same position reached by another move order (games 1 and 2 after four plies), found
    // only among 15x15 Gomoku games: the size and the rules are part of the key.
    stones::StonePosition pos(stones::Rules::defaults(GameKind::gomoku));
    stones::StoneUndo u;
    for (const char* p : {"h8", "h9", "i8", "i9"}) pos.play(Move::placement(stones::parse_point(p, 15)), u);
    const GameList found = db.search_position(pos, {}, {});
    CHECK(ids_of(found) == std::vector<std::int64_t>{reports[0].game_id, reports[1].game_id});
    stones::Rules big = stones::Rules::defaults(GameKind::gomoku);
    big.size = 19;
    stones::StonePosition pos19(big);
    pos19.play(Move::placement(stones::parse_point("h8", 19)), u);
    CHECK(ids_of(db.search_position(pos19, {}, {})) == std::vector<std::int64_t>{reports[2].game_id});
    stones::StonePosition gomoku15(stones::Rules::defaults(GameKind::gomoku));
    gomoku15.play(Move::placement(stones::parse_point("h8", 15)), u);
    CHECK(db.search_position(gomoku15, {}, {}).total == 1); // not the 19x19 game
    // Positions after a capture: the captured count is part of the key.
    const auto stored4 = db.game(reports[3].game_id);
    REQUIRE(stored4);
    stones::StonePosition nin(stored4->stone_start);
    CHECK(nin.rules().endgame_capture == false);
    for (Move m : stored4->moves) nin.play(m, u);
    CHECK(nin.captured(Color::black) == 2);
    CHECK(ids_of(db.search_position(nin, {}, {})) == std::vector<std::int64_t>{reports[3].game_id});
    stones::StonePosition no_capture = nin;
    no_capture.set_captured(Color::black, 0);
    CHECK(db.search_position(no_capture, {}, {}).total == 0);

    // The tree of the empty 15x15 board: h8 in one game, i8 in the other.
    const Tree start = db.tree(stones::StonePosition(stones::Rules::defaults(GameKind::gomoku)));
    CHECK(start.games == 2);
    REQUIRE(start.moves.size() == 2);
    std::map<std::string, std::int64_t> black_wins;
    for (const TreeMove& m : start.moves) black_wins[stones::point_name(m.move.point())] = m.black_wins;
    CHECK(black_wins == std::map<std::string, std::int64_t>{{"h8", 1}, {"i8", 0}});

    // One game back with its rules, written as a record that reads back the same.
    const auto g4 = db.game(reports[3].game_id);
    REQUIRE(g4);
    CHECK(g4->summary.kind == GameKind::ninuki);
    const std::string written = parser::write_record(game_record(*g4));
    CHECK(contains(written, "[Rules \"no-endgame-capture\"]"));
    const auto again = parser::read_records(written, "again");
    REQUIRE(again.size() == 1);
    CHECK(again[0].status == parser::GameStatus::valid);
    CHECK(again[0].stone_start == g4->stone_start);

    // Deleting takes the game out of the index and the tree.
    CHECK(db.delete_game(reports[0].game_id));
    CHECK(ids_of(db.search_position(pos, {}, {})) == std::vector<std::int64_t>{reports[1].game_id});
    CHECK(db.tree(stones::StonePosition(stones::Rules::defaults(GameKind::gomoku))).games == 1);
    check_consistent(db);
}

TEST_CASE("comments, NAGs and variations come back with the game they were imported with", "[db]") {
    TempDir dir;
    GameDatabase db(dir.file("notes.db"), Access::read_write);
    const std::string text = "[White \"Ann\"]\n[Black \"Bob\"]\n\n{Before} 1. c2-d3! {good} (1. e2-f3 $14) 1... f7-e6?? *\n\n"
                             "[White \"Cy\"]\n[Black \"Di\"]\n\n1. c2-d3 f7-e6 *\n";
    std::vector<GameInput> inputs;
    for (parser::GameRecord& r : parser::read_records(text, "notes.gpn")) inputs.push_back(game_input(std::move(r)));
    REQUIRE(inputs.size() == 2);
    CHECK_FALSE(inputs[0].annotated.empty());
    CHECK(inputs[1].annotated.empty()); // nothing beyond the moves: nothing kept
    const auto reports = import(db, inputs);
    const auto g = db.game(reports[0].game_id);
    REQUIRE(g);
    const parser::GameRecord back = game_record(*g);
    CHECK(back.main.comments == std::vector<std::string>{"Before"});
    REQUIRE(back.main.plies.size() == 2);
    CHECK(back.main.plies[0].nags == std::vector<std::uint8_t>{1});
    CHECK(back.main.plies[0].comments == std::vector<std::string>{"good"});
    REQUIRE(back.main.plies[0].variations.size() == 1);
    CHECK(back.main.plies[0].variations[0].plies.at(0).nags == std::vector<std::uint8_t>{14});
    CHECK(back.main.plies[1].nags == std::vector<std::uint8_t>{4});
    CHECK(contains(parser::write_record(back), "{good} (1. e2-f3 $14)"));
    // A kept text that no longer matches the stored moves is ignored, never trusted.
    db.sql().exec("UPDATE games SET annotated = '1. e2-f3 *' WHERE id = " + std::to_string(reports[0].game_id));
    const parser::GameRecord plain = game_record(*db.game(reports[0].game_id));
    CHECK(plain.main.comments.empty());
    CHECK(plain.main.plies.at(0).move == g->moves.at(0));
}

TEST_CASE("pattern search tests every position of every game, with filters", "[db]") {
    Fixture f;
    const auto search = [&](const std::string& text, const GameFilter& filter = {}) {
        return f.db.search_pattern(std::get<Pattern>(Pattern::parse(text)), filter, {});
    };
    const GameList d3 = search("d3=R e6=r");
    CHECK(ids_of(d3) == std::vector<std::int64_t>{f.id(0), f.id(1)});
    CHECK(d3.games[0].ply == 2);
    CHECK(d3.games[1].ply == 4);
    CHECK(search("d3=R e6=r", [] { GameFilter g; g.white = "bob"; return g; }()).total == 1);
    CHECK(search("a6=r c2=S").total == 1); // b2-c2 joins nothing: c2 was emptied by c2-d3
    CHECK(search("Wp=16").total == 4);
    CHECK(search("#[Wn2]>=1").total == 0);
    CHECK(search("b").total == 4);
}

TEST_CASE("pattern search over random games agrees with replaying them one by one", "[db]") {
    TempDir dir;
    GameDatabase db(dir.file("pat.db"), Access::read_write);
    const auto games = random_games(150, 21, 50);
    import(db, games);
    for (const char* text : {"#[Wn3]>=1", "e4=W d5=B", "Bp<=12 #[n2]>=3", "Wr>=8 Ws>=8 #W<=10", "????????" "/????????" "/8/????????" "/????????" "/????????" "/????????" "/????????"}) {
        INFO(text);
        const Pattern p = std::get<Pattern>(Pattern::parse(text));
        std::vector<std::int64_t> expected;
        for (std::size_t i = 0; i < games.size(); ++i) {
            Position pos = Position::start();
            UndoRecord undo;
            bool hit = p.matches(pos);
            for (Move m : games[i].moves) {
                if (hit) break;
                pos.do_move(m, undo);
                hit = p.matches(pos);
            }
            if (hit) expected.push_back(std::int64_t(i) + 1);
        }
        for (int threads : {1, 3}) CHECK(ids_of(db.search_pattern(p, {}, {}, threads)) == expected);
    }
}

TEST_CASE("the opening tree counts moves, results and the latest game, deep and shallow", "[db]") {
    Fixture f;
    const Tree start = f.db.tree(Position::start(), GameKind::gounki);
    CHECK(start.games == 4);
    REQUIRE(start.moves.size() == 3);
    CHECK(move_to_text(Position::start(), start.moves[0].move) == "c2-d3");
    CHECK(start.moves[0].games == 2);
    CHECK(start.moves[0].white_wins == 1);
    CHECK(start.moves[0].draws == 1);
    CHECK(start.moves[0].latest.id == f.id(0)); // 2020 beats 2019
    CHECK(start.moves[0].latest.white == "Ann Smith");

    // Deeper than the precomputed plies: from the index and the games.
    const Position pos = after(f.a_moves, 4);
    const Tree deep = f.db.tree(pos, GameKind::gounki);
    REQUIRE(deep.moves.size() == 1);
    CHECK(move_to_text(pos, deep.moves[0].move) == "b2-c2");
    CHECK(deep.moves[0].games == 1);
    CHECK(deep.moves[0].white_wins == 1);
    CHECK(deep.games == 1); // game 1 ended there

    // A shallow position: from the precomputed counts.
    const Tree after_two = f.db.tree(after(line({"c2-d3", "f7-e6"}), 2), GameKind::gounki);
    REQUIRE(after_two.moves.size() == 1);
    CHECK(after_two.moves[0].games == 1);
    CHECK(f.db.tree(after(line({"e2-f3"}), 1), GameKind::gounki).games == 0);
}

TEST_CASE("the tree agrees with counting the games by hand over a random collection", "[db]") {
    TempDir dir;
    GameDatabase db(dir.file("tree.db"), Access::read_write);
    const auto games = random_games(300, 5, 8);
    ImportOptions o;
    o.batch_games = 64;
    import(db, games, o);
    for (int plies = 0; plies <= 5; ++plies) {
        const Position pos = after(games[0].moves, std::size_t(plies));
        std::map<std::uint32_t, std::int64_t> expected;
        for (const GameInput& g : games) {
            Position p = Position::start();
            UndoRecord undo;
            for (std::size_t i = 0; i < g.moves.size(); ++i) {
                if (p.key() == pos.key()) ++expected[g.moves[i].raw()];
                p.do_move(g.moves[i], undo);
            }
        }
        std::map<std::uint32_t, std::int64_t> got;
        for (const TreeMove& m : db.tree(pos, GameKind::gounki).moves) got[m.move.raw()] = m.games;
        CHECK(got == expected);
    }
}

TEST_CASE("one game comes back with its tags, start, moves, source and diagnostics", "[db]") {
    TempDir dir;
    GameDatabase db(dir.file("show.db"), Access::read_write);
    auto g = game({"c2-d3", "f7-e6"}, "Ann", "Bob", ResultCode::white_wins, "2024.02.03");
    g.tags.emplace_back("Annotator", "Zed");
    g.tags.emplace_back("Round", "4");
    g.source_file = dir.file("src.gpn");
    g.source_line = 12;
    auto setup = game({}, "Cy", "Di", ResultCode::unknown);
    setup.start = std::get<Position>(Position::from_text("8/8/8/3r4/8/8/8/3R4 w"));
    setup.moves = line({"d1-e2"}, *setup.start);
    auto r = import(db, {g, setup});

    const auto s = db.game(r[0].game_id);
    REQUIRE(s);
    CHECK(s->moves == g.moves);
    CHECK(s->standard_start);
    CHECK(s->source_file == g.source_file);
    CHECK(s->source_line == 12);
    const std::vector<std::pair<std::string, std::string>> tags = {{"Game", "Gounki"}, {"Event", "Test event"}, {"Date", "2024.02.03"}, {"Round", "4"},
                                                                   {"White", "Ann"},   {"Black", "Bob"},        {"Result", "1-0"},       {"Annotator", "Zed"}};
    CHECK(s->tags == tags);
    const std::string text = parser::write_record(game_record(*s));
    CHECK(contains(text, "[Annotator \"Zed\"]"));
    CHECK(contains(text, "1. c2-d3 f7-e6 1-0"));

    const auto t = db.game(r[1].game_id);
    REQUIRE(t);
    CHECK_FALSE(t->standard_start);
    CHECK(t->start == *setup.start);
    CHECK(contains(parser::write_record(game_record(*t)), "[Position \"8/8/8/3r4/8/8/8/3R4 w\"]"));
    CHECK(db.search_position(*setup.start, GameKind::gounki, {}, {}).total == 1);
    CHECK_FALSE(db.game(999));
}

TEST_CASE("deleting a game removes it from the index, the tree and the lists", "[db]") {
    Fixture f;
    // Game 0 is the latest game of c2-d3 from the start; after it goes, game 2 is.
    REQUIRE(f.db.delete_game(f.id(0)));
    CHECK_FALSE(f.db.delete_game(f.id(0)));
    CHECK_FALSE(f.db.game(f.id(0)));
    CHECK(f.db.list_games({}, {}).total == 3);
    CHECK(ids_of(f.db.search_position(after(f.a_moves, 4), GameKind::gounki, {}, {})) == std::vector<std::int64_t>{f.id(1)});
    const Tree start = f.db.tree(Position::start(), GameKind::gounki);
    CHECK(start.games == 3);
    for (const TreeMove& m : start.moves)
        if (move_to_text(Position::start(), m.move) == "c2-d3") {
            CHECK(m.games == 1);
            CHECK(m.white_wins == 0);
            CHECK(m.latest.id == f.id(2));
        }
    CHECK(f.db.tree(after(f.a_moves, 4), GameKind::gounki).games == 0);
    CHECK(scalar(f.db, "SELECT count(*) FROM tags WHERE game_id = " + std::to_string(f.id(0))) == 0);
    check_consistent(f.db);
    // Ids are never reused, not even the greatest one.
    REQUIRE(f.db.delete_game(f.id(3)));
    auto r = import(f.db, {game({"a2-b3"}, "New", "Game", ResultCode::unknown)});
    CHECK(r[0].game_id > f.id(3));
    check_consistent(f.db);
}

// ---------------------------------------------------------------------------------------------
// The command line across processes

TEST_CASE("the commands work on a database file, in text and JSON", "[db]") {
    TempDir dir;
    const std::string db = dir.file("cli.db");
    const auto games = random_games(30, 8, 20);
    write_gpn(dir.file("g.gpn"), games);
    const CliResult imp = cli(dir, {"import", "--db", db, "--json", dir.file("g.gpn")});
    CHECK(imp.code == 0);
    CHECK(contains(imp.out, "\"type\":\"summary\""));
    CHECK(contains(imp.out, "\"stored\":30"));
    CHECK(contains(imp.out, "\"phases_s\":{"));
    CHECK(contains(imp.out, "\"lookup_indexes\":0")); // 30 games: not deferred

    const CliResult list = cli(dir, {"games", "--db", db, "--limit", "5", "--json"});
    CHECK(list.code == 0);
    CHECK(contains(list.out, "\"total\":30"));
    const CliResult search = cli(dir, {"search", "--db", db, "--position", after(games[3].moves, 6).to_text()});
    CHECK(search.code == 0);
    CHECK(contains(search.out, "reached"));
    const CliResult pattern = cli(dir, {"search", "--db", db, "--pattern", "Wp>=16", "--json"});
    CHECK(pattern.code == 0);
    CHECK(contains(pattern.out, "\"total\":30"));
    const CliResult bad = cli(dir, {"search", "--db", db, "--pattern", "e4=Q"});
    CHECK(bad.code == 2);
    CHECK(contains(bad.err, "character 4"));
    const CliResult filters = cli(dir, {"search", "--db", db, "--from", "2001", "--to", "2030.12.31", "--json"});
    CHECK(filters.code == 0);
    CHECK(cli(dir, {"search", "--db", db, "--from", "soon"}).code == 2);
    const CliResult tree = cli(dir, {"tree", "--db", db, "--json"});
    CHECK(tree.code == 0);
    CHECK(contains(tree.out, "\"games\":30"));
    const CliResult show = cli(dir, {"show", "--db", db, "3"});
    CHECK(show.code == 0);
    CHECK(contains(show.out, "[Round \"3\"]"));
    CHECK(cli(dir, {"show", "--db", db, "300"}).code == 2);
    const CliResult exp = cli(dir, {"export", "--db", db, "--white", "Player 1", "-o", dir.file("out.gpn")});
    CHECK(exp.code == 0);
    CHECK(contains(read_file(dir.file("out.gpn")), "[White \"Player 1"));
    CHECK(cli(dir, {"delete", "--db", db, "3", "--json"}).code == 0);
    CHECK(cli(dir, {"delete", "--db", db, "3"}).code == 2);
    CHECK(contains(cli(dir, {"games", "--db", db, "--json"}).out, "\"total\":29"));
    CHECK(cli(dir, {"games", "--db", dir.file("missing.db")}).code == 2);

    // $GOUNKI_DB is the default database.
    ::setenv("GOUNKI_DB", db.c_str(), 1);
    const CliResult by_env = cli(dir, {"games", "--json"});
    ::unsetenv("GOUNKI_DB");
    CHECK(contains(by_env.out, "\"total\":29"));
}

TEST_CASE("an unreadable input file is an I/O error; the other files are still imported", "[db]") {
    TempDir dir;
    const std::string db = dir.file("io.db");
    write_gpn(dir.file("ok.gpn"), random_games(5, 9, 10));
    const CliResult r = cli(dir, {"import", "--db", db, dir.file("missing.gpn"), dir.file("ok.gpn")});
    CHECK(r.code == 2);
    CHECK(contains(r.err, "missing.gpn"));
    GameDatabase check(db, Access::read_only);
    CHECK(check.list_games({}, {}).total == 5);
    CHECK(cli(dir, {"import", "--db", db}).code == 2); // no file at all
}

TEST_CASE("the record fixtures and samples survive import, export and import again", "[db]") {
    TempDir dir;
    std::vector<std::string> files;
    for (const char* folder : {"/tests/data/records", "/samples"}) {
        std::error_code ec;
        for (const auto& e : fs::recursive_directory_iterator(std::string(GOUNKI_SOURCE_DIR) + folder, ec))
            if (e.path().extension() == ".gpn") files.push_back(e.path().string());
    }
    write_gpn(dir.file("random.gpn"), random_games(40, 13, 30));
    files.push_back(dir.file("random.gpn"));
    std::vector<std::string> args = {"import", "--db", dir.file("a.db")};
    args.insert(args.end(), files.begin(), files.end());
    const CliResult first = cli(dir, args);
    CHECK(first.code <= 1); // the fixtures hold broken games on purpose
    CHECK(cli(dir, {"export", "--db", dir.file("a.db"), "-o", dir.file("all.gpn")}).code == 0);
    const CliResult second = cli(dir, {"import", "--db", dir.file("b.db"), dir.file("all.gpn")});
    CHECK(second.code <= 1);

    GameDatabase a(dir.file("a.db"), Access::read_only), b(dir.file("b.db"), Access::read_only);
    const GameList la = a.list_games({}, {}), lb = b.list_games({}, {});
    REQUIRE(la.total == lb.total);
    CHECK(la.total >= 40);
    for (std::size_t i = 0; i < la.games.size(); ++i) {
        const auto ga = a.game(la.games[i].id), gb = b.game(lb.games[i].id);
        REQUIRE(ga);
        REQUIRE(gb);
        INFO(ga->source_file << ":" << ga->source_line);
        CHECK(ga->tags == gb->tags);
        CHECK(ga->moves == gb->moves);
        CHECK(ga->start == gb->start);
        CHECK(ga->stone_start == gb->stone_start);
        CHECK(ga->summary.kind == gb->summary.kind);
        CHECK(ga->summary.result == gb->summary.result);
    }
}

TEST_CASE("two processes importing into one database at once both finish and lose nothing", "[db]") {
    TempDir dir;
    const std::string db = dir.file("two.db");
    write_gpn(dir.file("a.gpn"), random_games(400, 31, 30));
    write_gpn(dir.file("b.gpn"), random_games(400, 32, 30));
    const pid_t a = spawn_cli({"import", "--db", db, "--batch", "25", dir.file("a.gpn")}, dir.file("a.out"), dir.file("a.err"));
    const pid_t b = spawn_cli({"import", "--db", db, "--batch", "25", dir.file("b.gpn")}, dir.file("b.out"), dir.file("b.err"));
    CHECK(wait_exit(a) == 0);
    CHECK(wait_exit(b) == 0);
    for (const char* err : {"a.err", "b.err"}) CHECK_FALSE(contains(read_file(dir.file(err)), "locked"));
    GameDatabase check(db, Access::read_write);
    CHECK(check.list_games({}, {}).total == 800);
    Statement integrity(check.sql(), "PRAGMA integrity_check");
    REQUIRE(integrity.step());
    CHECK(integrity.get_string(0) == "ok");
    check_consistent(check);
}

TEST_CASE("an importer killed at any point leaves whole games only, and rerunning completes the import", "[db]") {
    TempDir dir;
    const std::string db = dir.file("kill.db");
    const int total = 1500;
    write_gpn(dir.file("big.gpn"), random_games(total, 41, 40));
    // Kill points: at once, then once the database holds this many games (each run goes on from
    // where the last one stopped: the games already stored are recognised and skipped).
    std::vector<std::int64_t> stored_at_kill;
    for (int target : {0, 200, 600, 1000}) {
        const pid_t pid = spawn_cli({"import", "--db", db, "--batch", "50", dir.file("big.gpn")}, dir.file("k.out"), dir.file("k.err"));
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        for (int i = 0; i < 4000 && target > 0; ++i) {
            int status = 0;
            if (::waitpid(pid, &status, WNOHANG) == pid) FAIL("the importer ended before it was killed");
            try {
                GameDatabase peek(db, Access::read_only);
                if (peek.list_games({}, {0, 0}).total >= target) break;
            } catch (const DbError&) {
                // not created yet
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        ::kill(pid, SIGKILL);
        CHECK(wait_exit(pid) == 128 + SIGKILL);
        if (!fs::exists(db)) continue; // killed before it created the file
        GameDatabase check(db, Access::read_write);
        Statement integrity(check.sql(), "PRAGMA integrity_check");
        REQUIRE(integrity.step());
        CHECK(integrity.get_string(0) == "ok");
        check_consistent(check);
        stored_at_kill.push_back(check.list_games({}, {}).total);
    }
    INFO("games stored when killed: " << testing_list(stored_at_kill));
    REQUIRE(stored_at_kill.size() >= 3);
    CHECK(stored_at_kill.back() < total); // the last kill came in the middle of the import
    CHECK(std::is_sorted(stored_at_kill.begin(), stored_at_kill.end()));
    const CliResult rerun = cli(dir, {"import", "--db", db, dir.file("big.gpn")});
    CHECK(rerun.code == 0);
    GameDatabase check(db, Access::read_only);
    CHECK(check.list_games({}, {}).total == total);
    check_consistent(check);
    // The indexes a killed import dropped (1,500 games coming) are back.
    CHECK(scalar(check, "SELECT count(*) FROM sqlite_master WHERE name IN ('games_white', 'games_black', 'games_event', "
                        "'games_date')") == 4);
}
