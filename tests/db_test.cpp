// The game database: encodings, the position index's blocks and filters, patterns, and opening
// files (schema, migration, newer, corrupt and read-only files). Import, queries and the command
// line across processes are in db_import_test.cpp, db_query_test.cpp and db_cli_test.cpp.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <random>

#include <unistd.h>
#include <sqlite3.h>

#include "db/codec.hpp"
#include "db/pattern/gounki.hpp"
#include "db/position_index.hpp"
#include "db/sqlite.hpp"

using namespace gounki;
using namespace gounki::db;
using namespace gounki::test;
namespace fs = std::filesystem;

namespace {

// Opening the file at `path` fails, read-only and read-write, with an error holding every one of
// `words`.
void expect_refused(const std::string& path, std::initializer_list<const char*> words) {
    for (Access a : {Access::read_only, Access::read_write}) {
        try {
            GameDatabase db(path, a);
            FAIL("the database was opened");
        } catch (const DbError& e) {
            for (const char* w : words) CHECK(contains(e.what(), w));
        }
    }
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
    CHECK(encode_moves(line_of({"c2-d3"})).size() == 2);
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

    // Each pattern, and whether it matches the start position.
    const std::pair<const char*, bool> cases[] = {
        {"a1=S", true},
        {"a1=R", false},
        {"a1=W", true},
        {"a1=B", false},
        {"a1=X", true},
        {"e4=.", true},
        {"e4=?", true},
        {"e4=X", false},
        {"a8=[Br1]", true},
        {"a8=[Bs1]", false},
        {"#W=16", true},
        {"#B>=17", false},
        {"Wp=16", true},
        {"Wr>=8", true},
        {"Ws<8", false},
        {"#[n2]>=1", false},
        {"#R=8", true},
        {"w; a1=S", true},
        // A square term replaces what the board says of its square, before or after the board.
        {"rsrsrsrs/srsrsrsr/8/8/8/8/RSRSRSRS/SRSRSRSR e2=.", false},
        {"e2=. rsrsrsrs/srsrsrsr/8/8/8/8/RSRSRSRS/SRSRSRSR", false},
        {"e4=W rsrsrsrs/srsrsrsr/8/8/8/8/RSRSRSRS/SRSRSRSR", false},
        {"e2=R e2=R", true},
        {"b", false},
        {"????????"
         "/????????"
         "/8/8/8/8/W?W?W?W?/SRSRSRSR",
         true},
    };
    for (const auto& [text, at_start] : cases) {
        INFO(text);
        auto p = parse(text);
        REQUIRE(std::holds_alternative<Pattern>(p));
        CHECK(std::get<Pattern>(p).matches(start) == at_start);
        // The canonical text reads back as the same pattern.
        auto again = parse(std::get<Pattern>(p).text());
        REQUIRE(std::holds_alternative<Pattern>(again));
        CHECK(std::get<Pattern>(again).text() == std::get<Pattern>(p).text());
    }

    const std::pair<const char*, int> errors[] = {
        {"", 0},
        {"e9=W", 0},
        {"e4=Q", 3},
        {"8/8/8", 5},
        {"9/8/8/8/8/8/8/8", 0},
        {"#[Wq2]>=1", 3},
        {"Wp>>3", 3},
        {"(RSs)/8/8/8/8/8/8/8", 0},
        {"hello", 0},
        {"e2=. e2=R", 5}, // one square asked two things
        {"e4=W e4=B", 5},
        {"b w", 2}, // two sides
        {"8/8/8/8/8/8/8/8 8/8/8/8/8/8/8/8", 16}, // two boards
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
        // Back to version 2 by hand: no annotated column (3), the full end_key index (4), no
        // engine column of the analysis settings (5), no jobs table (6).
        Database raw(path, OpenMode::read_write);
        raw.exec("DROP TABLE jobs");
        raw.exec("ALTER TABLE analysis_settings DROP COLUMN engine");
        raw.exec("ALTER TABLE games DROP COLUMN annotated");
        raw.exec("DROP INDEX games_short_end");
        raw.exec("CREATE INDEX games_end_key ON games (end_key)");
        raw.exec("PRAGMA user_version = 2");
    }
    GameDatabase db(path, Access::read_write);
    CHECK(scalar(db, "PRAGMA user_version") == schema_version);
    CHECK(scalar(db, "SELECT count(*) FROM pragma_table_info('games') WHERE name = 'annotated'") == 1);
    CHECK(scalar(db, "SELECT count(*) FROM pragma_table_info('analysis_settings') WHERE name = 'engine'") == 1);
    CHECK(scalar(db, "SELECT count(*) FROM sqlite_master WHERE name = 'games_end_key'") == 0);
    CHECK(scalar(db, "SELECT count(*) FROM sqlite_master WHERE name = 'jobs'") == 1);
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
    const std::string before = slurp(path);
    expect_refused(path, {"newer", "99"});
    write_text(dir / "one.gpn", "1. c2-d3 f7-e6 *\n");
    const CliRun r = run_gounki_args({"import", "--db", path, dir.file("one.gpn")});
    CHECK(r.status == 2);
    CHECK(contains(r.err, "newer"));
    CHECK(slurp(path) == before);
}

TEST_CASE("a corrupt file is refused with a clear error and nothing is overwritten", "[db]") {
    TempDir dir;
    const std::string path = dir.file("garbage.db");
    {
        std::ofstream out(path, std::ios::binary);
        std::mt19937 rng(5);
        for (int i = 0; i < 8192; ++i) out.put(char(rng()));
    }
    const std::string before = slurp(path);
    expect_refused(path, {"not a gounki database"});
    write_gpn(dir.file("one.gpn"), {game({"c2-d3"}, "A", "B", ResultCode::unknown)});
    const CliRun r = run_gounki_args({"import", "--db", path, dir.file("one.gpn")});
    CHECK(r.status == 2);
    CHECK(contains(r.err, "not a gounki database"));
    CHECK(slurp(path) == before);
    CHECK(run_gounki_args({"games", "--db", path}).status == 2);
    CHECK(slurp(path) == before);

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
    // Root ignores permission bits: make the file immutable instead (chattr, Debian package
    // e2fsprogs; the file system must support the attribute).
    const bool root = ::geteuid() == 0;
    if (root) {
        if (!have_tool(command_succeeds("chattr +i " + shell_quoted(path)),
                       "chattr +i (Debian package e2fsprogs, on a file system that supports it), which root needs "
                       "for a read-only file"))
            return;
    } else {
        fs::permissions(path, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    }
    struct Restore {
        std::string path;
        bool root;
        ~Restore() {
            if (root) (void)command_succeeds("chattr -i " + shell_quoted(path));
            else fs::permissions(path, fs::perms::owner_all);
        }
    } restore{path, root};
    const std::string before = slurp(path);
    {
        GameDatabase db(path, Access::read_only);
        CHECK(db.list_games({}, {}).total == 1);
        CHECK(db.search_position(after(line_of({"c2-d3"}), 1), {}, {}).total == 1);
    }
    CHECK_THROWS_WITH(GameDatabase(path, Access::read_write), Catch::Contains("read-only"));
    write_gpn(dir.file("more.gpn"), {game({"c2-b3"}, "Cy", "Di", ResultCode::unknown)});
    const CliRun imp = run_gounki_args({"import", "--db", path, dir.file("more.gpn")});
    CHECK(imp.status == 2);
    CHECK(contains(imp.err, "read-only"));
    CHECK(run_gounki_args({"delete", "--db", path, "1"}).status == 2);
    const CliRun list = run_gounki_args({"games", "--db", path});
    CHECK(list.status == 0);
    CHECK(contains(list.out, "Ann"));
    CHECK(slurp(path) == before);
}

TEST_CASE("a database in a read-only folder answers the commands that read; those that write say the folder is why",
          "[db]") {
    TempDir dir;
    const fs::path folder = dir / "ro";
    fs::create_directory(folder);
    const std::string path = (folder / "games.db").string();
    {
        GameDatabase db(path, Access::read_write);
        import(db, {game({"c2-d3", "f7-e6"}, "Ann", "Bob", ResultCode::white_wins)});
    }
    write_gpn(dir.file("more.gpn"), {game({"c2-b3"}, "Cy", "Di", ResultCode::unknown)});
    // Root ignores permission bits: the folder (and the file) are made immutable instead (chattr,
    // Debian package e2fsprogs; the file system must support the attribute).
    const bool root = ::geteuid() == 0;
    if (root && !have_tool(command_succeeds("chattr +i " + shell_quoted(folder) + " && chattr -i " + shell_quoted(folder)),
                           "chattr +i (Debian package e2fsprogs, on a file system that supports it), which root needs "
                           "for a read-only folder"))
        return;
    for (const bool file_writable : {true, false}) {
        INFO((file_writable ? "the file writable" : "the file read-only"));
        struct ReadOnly {
            std::string path, folder;
            bool root, file_writable;
            void set(bool on) const {
                const std::string flag = on ? "chattr +i " : "chattr -i ";
                if (root) {
                    if (!file_writable) CHECK(command_succeeds(flag + shell_quoted(path)));
                    CHECK(command_succeeds(flag + shell_quoted(folder)));
                    return;
                }
                const auto r = fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read;
                const auto x = fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec;
                fs::permissions(path, on && !file_writable ? r : r | fs::perms::owner_write);
                fs::permissions(folder, on ? r | x : fs::perms::owner_all);
            }
            ~ReadOnly() { set(false); }
        } read_only{path, folder.string(), root, file_writable};
        read_only.set(true);
        // The folder really cannot be written, nor (when so) the file.
        REQUIRE_FALSE(std::ofstream(folder / "probe").is_open());
        REQUIRE(::access(path.c_str(), W_OK) == (file_writable ? 0 : -1));
        const std::string before = slurp(path);

        {
            GameDatabase db(path, Access::read_only);
            CHECK(db.list_games({}, {}).total == 1);
        }
        const CliRun list = run_gounki_args({"games", "--db", path});
        INFO(list.err);
        CHECK(list.status == 0);
        CHECK(contains(list.out, "Ann"));
        const CliRun show = run_gounki_args({"show", "--db", path, "1"});
        CHECK(show.status == 0);
        CHECK(contains(show.out, "c2-d3"));
        const CliRun search = run_gounki_args({"search", "--db", path, "--white", "ann"});
        CHECK(search.status == 0);
        CHECK(contains(search.out, "Bob"));
        const CliRun exported = run_gounki_args({"export", "--db", path, "--all", "-o", "-"});
        CHECK(exported.status == 0);
        CHECK(contains(exported.out, "[White \"Ann\"]"));

        const std::string why = "cannot write to '" + path + "': its folder '" + folder.string() +
            "' is read-only, and SQLite needs to create its journal ('" + path + "-wal') beside the file";
        const CliRun imp = run_gounki_args({"import", "--db", path, dir.file("more.gpn")});
        CHECK(imp.status == 2);
        CHECK(contains(imp.err, "gounki import: " + why + "; make the folder writable, or move the database to one that is\n"));
        CHECK(!contains(imp.err, "cannot read"));
        const CliRun del = run_gounki_args({"delete", "--db", path, "1"});
        CHECK(del.status == 2);
        CHECK(contains(del.err, "gounki delete: " + why));
        CHECK_THROWS_WITH(GameDatabase(path, Access::read_write), Catch::Contains(why));
        CHECK(slurp(path) == before);
        CHECK(std::distance(fs::directory_iterator(folder), fs::directory_iterator()) == 1);
    }
}

TEST_CASE("a database whose write-ahead log holds changes is read with them, in a read-only folder too", "[db]") {
    TempDir dir;
    const fs::path folder = dir / "ro";
    fs::create_directory(folder);
    const std::string path = (folder / "games.db").string();
    {
        GameDatabase db(path, Access::read_write);
        import(db, {game({"c2-d3", "f7-e6"}, "Ann", "Bob", ResultCode::white_wins)});
    }
    // Another program's change, committed to the log and not yet to the file (its connection open).
    sqlite3* other = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &other) == SQLITE_OK);
    REQUIRE(sqlite3_exec(other, "PRAGMA wal_autocheckpoint=0; UPDATE players SET name = 'Anna' WHERE name = 'Ann'", nullptr,
                         nullptr, nullptr) == SQLITE_OK);
    REQUIRE(fs::file_size(path + "-wal") > 0);
    const bool root = ::geteuid() == 0;
    const auto set_read_only = [&](bool on) {
        if (root) return command_succeeds((on ? "chattr +i " : "chattr -i ") + shell_quoted(folder));
        fs::permissions(folder, on ? fs::perms::owner_read | fs::perms::owner_exec : fs::perms::owner_all);
        return true;
    };
    const auto games = [&] { return run_gounki_args({"games", "--db", path}); };
    CHECK(contains(games().out, "Anna"));
    if (root && !have_tool(set_read_only(true), "chattr +i (Debian package e2fsprogs, on a file system that supports it), "
                                                "which root needs for a read-only folder")) {
        sqlite3_close(other);
        return;
    }
    REQUIRE_FALSE(std::ofstream(folder / "probe").is_open());
    const CliRun list = games();
    set_read_only(false);
    sqlite3_close(other);
    INFO(list.err);
    CHECK(list.status == 0);
    CHECK(contains(list.out, "Anna")); // the log read, not only the file
}

TEST_CASE("gounki dbbench imports its games into a database that answers for all of them", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    const TempDir dir("dbbench");
    const std::string db = test_database(backend, dir, "bench");
    const CliRun run = run_gounki("dbbench --games 300 --plies 30 --seed 7 --searches 4 --json --keep --db " + shell_quoted(db));
    REQUIRE(run.status == 0);
    const auto field = [&](const std::string& name) { return std::stoll(between(run.out, "\"" + name + "\":", ",")); };
    CHECK(field("games") == 300);
    CHECK(field("tree_start_games") == 300); // every game starts from the start position
    CHECK(field("search_count") == 4);
    CHECK(field("search_games_found") >= 4); // each sampled position comes from a stored game
    CHECK(field("pattern_games") <= 300);
    // The database is kept, and holds the games with their index entries (one per position).
    check_prints("games --db " + shell_quoted(db) + " --json --limit 1", "\"total\":300");
    CHECK(field("index_entries") >= 300 * 2);
    CHECK(field("file_bytes") > 300 * 100);
    if (on_postgres(db)) {
        // The tables' size, and the whole database's (catalogs included) beside it.
        CHECK(field("database_bytes") > field("file_bytes"));
        // A server's database is kept, not emptied: a second run into it is refused.
        check_error("dbbench --games 10 --db " + shell_quoted(db), 2, "holds games already: dbbench needs an empty one");
    }
}
