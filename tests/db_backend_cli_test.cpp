// The commands on both backends: every database command answers the same on an SQLite file and on
// a PostgreSQL server, imports at once, `gounki copy` between them, COPY's rows equal to SQLite's,
// a database of a newer gounki refused, and a password never printed. Tests tagged [postgres] need
// a server (scripts/with-postgres.sh, as in db_backend_test.cpp).

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "db/copy.hpp"
#include "db/postgres.hpp"
#include "db/sqlite.hpp"
#include "tests/catch.hpp"
#include "tests/support.hpp"

using namespace gounki;
using namespace gounki::db;
using namespace gounki::test;

namespace {

// What a command printed, with the database's name and the timings (which differ between runs)
// taken out.
std::string comparable(std::string text, const std::string& db) {
    for (std::size_t p = text.find(db); p != std::string::npos; p = text.find(db, p)) text.replace(p, db.size(), "DB");
    for (std::size_t p = text.find(" games/s"); p != std::string::npos; p = text.find(" games/s", p)) {
        std::size_t b = text.rfind("; ", p);
        if (b == std::string::npos) break;
        text.replace(b, p + 8 - b, "; T");
        p = b + 3;
    }
    return text;
}

// An SQLite file and a database on the test server, new and side by side, to compare the two.
struct BothBackends {
    TempDir dir;
    std::string file; // in dir
    std::string server; // "gounki_" and the name
    explicit BothBackends(const std::string& name)
        : dir(name), file(dir.file(name + ".db")), server(server_database("gounki_" + name)) {}
};

} // namespace

TEST_CASE("every database command gives the same answers on SQLite and on PostgreSQL", "[postgres]") {
    const BothBackends both("same_answers");
    const std::string samples = std::string(GOUNKI_SOURCE_DIR) + "/samples/";
    const std::vector<std::string> records{samples + "games/04-club-evening.gpn",
                                           samples + "games/03-pass-and-exit.gpn",
                                           samples + "games/10-gomoku.gpn",
                                           samples + "games/11-ninuki.gpn",
                                           samples + "broken/02-illegal-move.gpn",
                                           samples + "broken/17-two-games-first-broken.gpn",
                                           samples + "broken/11-result-contradicts.gpn"};
    // Names that only match through Unicode case folding, accents and typographic punctuation.
    std::ofstream(both.dir / "names.gpn")
        << "[Game \"Gounki\"]\n[Event \"Lyon\u2013Gen\u00e8ve \u2018open\u2019\"]\n"
           "[White \"Ulrike Stra\u00dfe\"]\n[Black \"\u03a3\u038a\u03a3\u03a5\u03a6\u039f\u03a3\"]\n"
           "[Result \"*\"]\n\n1. f1-e2+ c8-d7+ *\n";
    std::string import = "import " + shell_quoted(both.dir / "names.gpn");
    for (const std::string& r : records) import += " " + shell_quoted(r);
    // In order: each command sees what the ones before it changed.
    const std::vector<std::string> commands{
        import,
        import, // all already imported
        "games --json",
        "games --player helene --json",
        "games --white strasse --json",
        "games --black \u03c3\u03b9\u03c3\u03c5\u03c6\u03bf\u03c3 --json",
        "games --event \"LYON-GENEVE 'OPEN'\" --json",
        "games --event lyon-geneve",
        "games --sort player --desc",
        "games --status partial --json",
        "games --game gomoku --json",
        "show 3",
        "show 2 --ply 4",
        "search --moves '1. a1-a2' --json",
        "search --position start --json",
        "tree --json",
        "tree --game ninuki --json",
        "export --output -",
        "edit 1 --tag Round=9 --tag White='Hélène D.'",
        "games --player 'helene d' --json",
        "delete 2 --yes",
        "delete --status partial --yes",
        "games --json",
        "tree --json",
        import + " --replace",
        "games --json",
        "analyze 1 --depth 2 --quiet",
        "analyze 1 --depth 2 --quiet", // already judged: skipped
        "analyze 1 --depth 2 --quiet --force", // judged again: replaces the stored judgement
        "report 1 --format gpn -o -",
        "report --all --format md -o -",
    };
    for (const std::string& c : commands) {
        INFO(c);
        const CliRun a = run_gounki(c + " --db " + shell_quoted(both.file));
        const CliRun b = run_gounki(c + " --db " + shell_quoted(both.server));
        CHECK(a.status == b.status);
        CHECK(comparable(a.out, both.file) == comparable(b.out, both.server));
        CHECK(comparable(a.err, both.file) == comparable(b.err, both.server));
        CHECK(a.status <= 1);
        if (c.starts_with("games --white") || c.starts_with("games --black") || c.starts_with("games --event \"LYON"))
            CHECK(contains(b.out, "\"total\":1}")); // found, on both
    }
}

TEST_CASE("PostgreSQL: a stone game turned or mirrored is a duplicate there as in SQLite", "[postgres]") {
    const BothBackends both("turned");
    const auto renju = [](const std::string& moves) {
        return "[Game \"Renju\"]\n[White \"Wu\"]\n[Black \"Bo\"]\n[Result \"0-1\"]\n\n" + moves + " 0-1\n\n";
    };
    // The game, then turned a half (h8 stays, i8 g8, h9 h7, a1 o15) and mirrored top to bottom (h9 h7,
    // i10 i6, a1 a15), twice in one file: the first copy against the stored game, the second too.
    std::ofstream(both.dir / "a.gpn") << renju("1. h8 h9 2. i8 i10 3. j8 a1 4. k8 b2 5. l8");
    const std::string turned = renju("1. h8 h7 2. g8 g6 3. f8 o15 4. e8 n14 5. d8") + renju("1. h8 h7 2. i8 i6 3. j8 a15 4. k8 b14 5. l8");
    std::ofstream(both.dir / "t.gpn") << turned + turned;
    for (const std::string& c : std::vector<std::string>{"import " + shell_quoted(both.dir / "a.gpn"),
                                                         "import --json " + shell_quoted(both.dir / "t.gpn"), "games --json"}) {
        INFO(c);
        const CliRun a = run_gounki(c + " --db " + shell_quoted(both.file));
        const CliRun b = run_gounki(c + " --db " + shell_quoted(both.server));
        CHECK(a.status == b.status);
        // The games' lines (the JSON summary holds timings).
        const auto games = [](const std::string& out) { return out.substr(0, out.find("{\"already_imported\"")); };
        CHECK(games(comparable(a.out, both.file)) == games(comparable(b.out, both.server)));
        if (c.starts_with("import --json")) {
            CHECK(contains(b.out, "\"line\":1,\"symmetry\":\"turned a half\""));
            CHECK(contains(b.out, "\"line\":22,\"symmetry\":\"mirrored top to bottom\""));
            CHECK(contains(b.out, "\"duplicates\":4"));
            CHECK(contains(b.out, "{\"action\":\"duplicate\",\"duplicate_of\":1,"));
        }
        if (c == "games --json") CHECK(contains(b.out, "\"total\":1}"));
    }
}

TEST_CASE("PostgreSQL: two importers at once store every game once", "[postgres]") {
    const TempDir dir("importers");
    const std::string server = server_database("gounki_importers");
    const std::string selfplay = std::string(GOUNKI_SOURCE_DIR) + "/samples/selfplay/";
    // The schema first, so that both importers start on a ready database.
    REQUIRE(run_gounki("import --quiet --db " + shell_quoted(server) + " " +
                       shell_quoted(std::string(GOUNKI_SOURCE_DIR) + "/samples/games/04-club-evening.gpn"))
                .status == 0);
    const pid_t a =
        spawn_gounki({"import", "--db", server, selfplay + "selfplay-1000.gpn"}, dir.file("a.out"), dir.file("a.err"));
    const pid_t b = spawn_gounki({"import", "--db", server, selfplay + "gomoku-200.gpn", selfplay + "ninuki-200.gpn"},
                                 dir.file("b.out"), dir.file("b.err"));
    CHECK(wait_exit(a) == 0);
    CHECK(wait_exit(b) == 1); // two Gomoku games are earlier ones mirrored: duplicates, skipped
    INFO(slurp(dir / "a.err") << slurp(dir / "b.err"));
    const auto total = [&](const std::string& args) {
        const CliRun r = run_gounki(args + " --json --db " + shell_quoted(server));
        REQUIRE(r.status == 0);
        const std::size_t at = r.out.rfind("\"total\":");
        REQUIRE(at != std::string::npos);
        return std::stoll(r.out.substr(at + 8));
    };
    CHECK(total("games --limit 1") == 2 + 1000 + 398); // the club evening has 2 games
    CHECK(total("games --limit 1 --game gomoku") == 198);
    CHECK(total("games --limit 1 --game ninuki") == 200);
    // Ids are not shared: no game is stored twice, none is lost.
    const CliRun again =
        run_gounki("import --db " + shell_quoted(server) + " " + shell_quoted(selfplay + "selfplay-1000.gpn") + " " +
                   shell_quoted(selfplay + "gomoku-200.gpn") + " " + shell_quoted(selfplay + "ninuki-200.gpn"));
    CHECK(contains(again.err, "0 stored"));
    CHECK(contains(again.err, "1398 already imported"));
    CHECK(contains(again.err, "2 duplicates"));
}

TEST_CASE("gounki copy moves a collection from SQLite to PostgreSQL and back with nothing lost", "[postgres]") {
    const TempDir dir("copy");
    const std::string first = dir.file("first.db"), back = dir.file("back.db");
    const std::string server = server_database("gounki_copy");
    const std::string samples = std::string(GOUNKI_SOURCE_DIR) + "/samples/";
    REQUIRE(run_gounki("import --quiet --db " + shell_quoted(first) + " " + shell_quoted(samples + "games/04-club-evening.gpn") +
                       " " + shell_quoted(samples + "games/11-ninuki.gpn") + " " +
                       shell_quoted(samples + "broken/02-illegal-move.gpn"))
                .status == 1); // the broken game is a finding
    REQUIRE(run_gounki("delete 2 --yes --db " + shell_quoted(first)).status == 0); // ids with a gap
    REQUIRE(run_gounki("analyze 1 --depth 2 --quiet --db " + shell_quoted(first)).status == 0); // a stored judgement

    const CliRun there = run_gounki("copy --from " + shell_quoted(first) + " --to " + shell_quoted(server));
    INFO(there.err);
    REQUIRE(there.status == 0);
    CHECK(contains(there.err, "copied 6 games"));
    // A second copy into the same database is refused: it holds games now.
    check_error("copy --from " + shell_quoted(first) + " --to " + shell_quoted(server), 2, "already holds 6 games");
    REQUIRE(run_gounki("copy --from " + shell_quoted(server) + " --to " + shell_quoted(back)).status == 0);

    // Every database gives the same answers; new games get new ids on each.
    for (const std::string& c :
         {std::string("games --json"), std::string("show 1"), std::string("show 3"), std::string("tree --json"),
          std::string("tree --game ninuki --json"), std::string("search --position start --json"), std::string("report 1 -o -"),
          std::string("export -o -"), "import " + shell_quoted(samples + "games/10-gomoku.gpn"), std::string("games --json")}) {
        INFO(c);
        const CliRun a = run_gounki(c + " --db " + shell_quoted(first));
        const CliRun b = run_gounki(c + " --db " + shell_quoted(server));
        const CliRun d = run_gounki(c + " --db " + shell_quoted(back));
        CHECK(a.status <= 1);
        CHECK(comparable(a.out, first) == comparable(b.out, server));
        CHECK(comparable(a.out, first) == comparable(d.out, back));
        CHECK(comparable(a.err, first) == comparable(b.err, server));
    }
    // A copy from nothing is refused, and creates nothing.
    check_error("copy --from " + shell_quoted(dir.file("none.db")) + " --to " + shell_quoted(dir.file("new.db")), 2,
                "no database at");
    CHECK_FALSE(std::filesystem::exists(dir / "new.db"));
}

TEST_CASE("gounki copy knows every table of the schema", "[db]") {
    const TempDir dir("tables");
    REQUIRE(run_gounki("import --quiet --db " + shell_quoted(dir.file("t.db")) + " " +
                       shell_quoted(std::string(GOUNKI_SOURCE_DIR) + "/samples/games/04-club-evening.gpn"))
                .status == 0);
    Database d(dir.file("t.db"), OpenMode::read_only);
    Statement tables(d, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    std::vector<std::string> schema, known(std::begin(db::collection_tables), std::end(db::collection_tables));
    while (tables.step()) schema.emplace_back(tables.get_text(0));
    std::sort(known.begin(), known.end());
    CHECK(schema == known);
}

namespace {

// Every row `sql` gives, as text: each value with its kind, so that 7 and '7' differ.
std::string dump(Database& d, const std::string& sql) {
    Statement st(d, sql);
    std::string out;
    while (st.step()) {
        for (int c = 0; c < st.column_count(); ++c) {
            switch (st.column_kind(c)) {
            case Statement::Kind::null: out += "NULL"; break;
            case Statement::Kind::integer: out += std::to_string(st.get_int64(c)); break;
            case Statement::Kind::real: out += std::to_string(st.get_double(c)); break;
            case Statement::Kind::text: out += "'" + st.get_string(c) + "'"; break;
            case Statement::Kind::blob:
                out += "x";
                for (const std::uint8_t b : st.get_blob(c)) out += "0123456789abcdef"[b >> 4], out += "0123456789abcdef"[b & 15];
                break;
            }
            out += c + 1 < st.column_count() ? "|" : "\n";
        }
    }
    return out;
}

// Games whose texts hold what COPY's text form must escape, duplicates and prefixes (which the
// importer looks up in the middle of a batch, so gathered rows must be sent first) and broken games.
std::vector<db::GameInput> awkward_games() {
    std::vector<db::GameInput> games = random_games(300, 17, 30);
    auto odd =
        game({"c2-d3", "f7-e6"}, "Tab\tAnn", "Back\\slash Bob", db::ResultCode::white_wins, "2024.01.02", "Line\nbreak\r\nEvent");
    odd.tags.emplace_back("Site", "\\N");
    odd.tags.emplace_back("Annotator", "tab\there, backslash \\ and \\x41, newline\n, é ß Σ — \"quoted\" 'single'");
    odd.tags.emplace_back("Empty", "");
    odd.tags.emplace_back("Round", "\\.");
    odd.annotated = "{a \\ comment\twith\ttabs}\n";
    games.insert(games.begin() + 40, odd);
    games.insert(games.begin() + 90, games[10]); // a duplicate of a game in the same batch
    games.insert(games.begin() + 200, games[150]); // ... and of one in an earlier batch
    auto prefix = games[20];
    prefix.moves.resize(prefix.moves.size() / 2);
    prefix.result = db::ResultCode::unknown;
    games.insert(games.begin() + 25, prefix); // a prefix of an earlier game of its batch
    auto broken = game({"c2-d3", "f7-e6"}, "Cy", "Di", db::ResultCode::black_wins);
    broken.status = db::GameStatus::invalid;
    db::Diagnostic d;
    d.severity = db::Severity::warning;
    d.code = "result-contradicts";
    d.message = "a result\twith a tab\\";
    d.line = 3;
    d.column = 7;
    broken.diagnostics.push_back(d);
    games.insert(games.begin() + 60, broken);
    return games;
}

} // namespace

TEST_CASE("an import into PostgreSQL through COPY stores what SQLite stores, row for row", "[postgres]") {
    const BothBackends both("copy_rows");
    const std::vector<db::GameInput> games = awkward_games();
    std::vector<std::string> reports[2];
    int side = 0;
    for (const std::string& path : {both.file, both.server}) {
        db::GameDatabase gdb(path, db::Access::read_write);
        db::ImportOptions o;
        o.batch_games = 64; // several batches, index runs merged on the way
        for (const db::ImportReport& r : import(gdb, games, o))
            reports[side].push_back(std::string(db::import_action_name(r.action)) + " " + std::to_string(r.game_id) + " " +
                                    std::to_string(r.other_id) + " " + std::to_string(r.prefix_of.size()) + " " +
                                    std::to_string(r.has_prefix.size()) + " " + std::to_string(r.same_moves.size()));
        check_consistent(gdb);
        ++side;
    }
    CHECK(reports[0] == reports[1]);
    CHECK(std::count_if(reports[0].begin(), reports[0].end(), [](const std::string& r) { return r.starts_with("duplicate"); }) ==
          2);
    db::GameDatabase a(both.file, db::Access::read_only), b(both.server, db::Access::read_only);
    for (const std::string sql : {"SELECT * FROM games ORDER BY id", "SELECT * FROM tags ORDER BY game_id, seq",
                                  "SELECT * FROM diagnostics ORDER BY game_id, seq", "SELECT * FROM players ORDER BY id",
                                  "SELECT * FROM events ORDER BY id", "SELECT * FROM tree_stats ORDER BY key, move",
                                  "SELECT * FROM meta WHERE name IN ('next_game_id', 'tree_depth') ORDER BY name",
                                  "SELECT entries FROM position_runs ORDER BY id",
                                  "SELECT last_key, seq, first_key, data FROM position_blocks b JOIN position_runs r ON r.id = "
                                  "b.run_id ORDER BY r.entries, last_key, seq"}) {
        INFO(sql);
        const std::string rows = dump(a.sql(), sql);
        CHECK(rows == dump(b.sql(), sql));
        CHECK_FALSE(rows.empty());
    }
    CHECK(contains(dump(b.sql(), "SELECT value FROM tags WHERE name = 'Annotator'"),
                   "tab\there, backslash \\ and \\x41, newline\n"));
    CHECK(scalar(b, "SELECT count(*) FROM games") == std::int64_t(games.size()) - 2);
    // The same answers to searches and the tree.
    for (std::size_t i = 0; i < games.size(); i += 37) {
        const Position pos = after(games[i].moves, games[i].moves.size() / 2);
        const db::GameList la = a.search_position(pos, {}, {}), lb = b.search_position(pos, {}, {});
        CHECK(la.total == lb.total);
        CHECK(la.total >= 1);
        const db::Tree ta = a.tree(pos), tb = b.tree(pos);
        CHECK(ta.games == tb.games);
        CHECK(ta.moves.size() == tb.moves.size());
    }
}

namespace {

// What a command would change on `url`: the meta rows, the tables, and the rows of games, jobs
// and judgements.
std::string fingerprint(const std::string& url) {
    Database d(url, OpenMode::read_only);
    std::string s;
    for (const char* sql :
         {"SELECT string_agg(name || '=' || value::text, ',' ORDER BY name) FROM meta",
          "SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables WHERE schemaname = current_schema()",
          "SELECT count(*)::text FROM games", "SELECT count(*)::text FROM analyses",
          "SELECT string_agg(id || ':' || state || ':' || attempts, ',' ORDER BY id) FROM jobs"}) {
        Statement st(d, sql);
        REQUIRE(st.step());
        s += st.get_string(0) + "\n";
    }
    return s;
}

} // namespace

TEST_CASE("PostgreSQL: a database from a newer gounki is refused by every command, nothing written", "[postgres]") {
    const TempDir dir("newerpg");
    const std::string url = server_database("gounki_newer");
    const std::string games = std::string(GOUNKI_SOURCE_DIR) + "/samples/games/";
    REQUIRE(run_gounki_args({"import", "--quiet", "--db", url, games + "10-gomoku.gpn"}).status == 0);
    REQUIRE(run_gounki_args({"analyze", "1", "--nodes", "2000", "--queue", "--db", url}).status == 0);
    {
        Database d(url, OpenMode::read_write);
        d.exec("UPDATE meta SET value = 99 WHERE name = 'schema_version'");
    }
    const std::string before = fingerprint(url);
    REQUIRE(contains(before, "schema_version=99"));
    const std::vector<std::vector<std::string>> commands{
        {"import", games + "04-club-evening.gpn"},
        {"games"},
        {"show", "1"},
        {"analyze", "1", "--nodes", "2000"},
        {"analyze", "--all", "--nodes", "2000", "--queue", "--force"},
        {"worker", "--exit-when-empty"},
        {"jobs"},
        {"jobs", "--retry-failed"},
        {"delete", "1"},
    };
    for (std::vector<std::string> args : commands) {
        args.insert(args.end(), {"--db", url});
        const CliRun r = run_gounki_args(args);
        INFO(args[0] << " " << args[1] << ": " << r.out << r.err);
        CHECK(r.status == 2);
        CHECK(contains(r.err, "was written by a newer gounki (schema version 99; this gounki knows up to "));
        CHECK(contains(r.err, "): refusing to use it"));
        CHECK(r.out.empty());
    }
    const CliRun copied = run_gounki_args({"copy", "--from", url, "--to", dir.file("copy.db")});
    INFO(copied.err);
    CHECK(copied.status == 2);
    CHECK(contains(copied.err, "was written by a newer gounki (schema version 99"));
    CHECK_FALSE(std::filesystem::exists(dir.file("copy.db")));
    CHECK(fingerprint(url) == before);
}

TEST_CASE("a password in a PostgreSQL URL is never printed by any command", "[db]") {
    // Nobody listens on port 1: every command fails to connect (at once: no retries) and says so
    // with the URL, its password replaced by ***.
    const TempDir dir("secret");
    const std::string url = "postgresql://u:secret@127.0.0.1:1/db";
    const std::string query_url = "postgresql://u@127.0.0.1:1/db?password=secret";
    write_text(dir / "one.gpn", "1. c2-d3 f7-e6 *\n");
    REQUIRE(run_gounki_args({"import", "--quiet", "--db", dir.file("src.db"), dir.file("one.gpn")}).status == 0);
    ::setenv("GOUNKI_PG_RETRY_SECONDS", "0", 1);
    const std::vector<std::vector<std::string>> commands{
        {"import", dir.file("one.gpn"), "--db"},
        {"games", "--db"},
        {"analyze", "--all", "--queue", "--db"},
        {"worker", "--exit-when-empty", "--db"},
        {"jobs", "--db"},
        {"jobs", "--retry-failed", "--db"},
        {"copy", "--to", dir.file("copy.db"), "--from"},
        {"copy", "--from", dir.file("src.db"), "--to"},
    };
    for (const std::string& u : {url, query_url}) {
        for (std::vector<std::string> args : commands) {
            args.push_back(u);
            const CliRun r = run_gounki_args(args);
            INFO(args[0] << " " << u << ": " << r.out << r.err);
            CHECK(r.status != 0);
            CHECK_FALSE(contains(r.out + r.err, "secret"));
            CHECK(contains(r.err, u == url ? "postgresql://u:***@127.0.0.1:1/db" : "password=***"));
        }
    }
    // The same URL from the environment.
    const CliRun env = run_shell("GOUNKI_DB=" + shell_quoted(url) + " " + gounki_command() + " jobs");
    CHECK(env.status == 2);
    CHECK_FALSE(contains(env.out + env.err, "secret"));
    CHECK(contains(env.err, "postgresql://u:***@127.0.0.1:1/db"));
    ::unsetenv("GOUNKI_PG_RETRY_SECONDS");
}

TEST_CASE("PostgreSQL: a writer waiting for another writer says so, then goes on or gives up", "[postgres]") {
    const std::string url = server_database("gounki_waiting");
    const std::string games = std::string(GOUNKI_SOURCE_DIR) + "/samples/games/";
    REQUIRE(run_gounki_args({"import", "--quiet", "--db", url, games + "04-club-evening.gpn"}).status == 0);
    const std::string waiting = "gounki import: waiting for '" + redacted_url(url) +
                                "': another program is writing to it (gounki waits up to ";
    // Another gounki writing: it holds the writers' lock (a write transaction of its own).
    Database other(url, OpenMode::read_write);
    std::optional<Transaction> writing(std::in_place, other, TransactionKind::immediate);
    const auto import = [&](const std::string& seconds) {
        return run_shell("GOUNKI_DB_TIMEOUT=" + seconds + " " + gounki_command() + " import --db " + shell_quoted(url) + " " +
                         shell_quoted(games + "10-gomoku.gpn"));
    };
    SECTION("the other writer goes on past the timeout: told, then the lock named") {
        const CliRun r = import("3");
        INFO(r.err);
        CHECK(r.status == 2);
        CHECK(count_of(r.err, waiting + "3 s; GOUNKI_DB_TIMEOUT sets how long)\n") == 1);
        CHECK(contains(r.err, "' is locked: another program is writing to it, and gounki gave up waiting after 3 s"));
        CHECK(r.err.find("waiting for") < r.err.find("is locked"));
    }
    SECTION("the other writer ends within the timeout: told once, then the import stores its games") {
        std::thread ends([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(3000));
            writing.reset(); // rolled back: the lock is free
        });
        const CliRun r = import("60");
        ends.join();
        INFO(r.err);
        CHECK(r.status == 0);
        CHECK(count_of(r.err, waiting + "60 s; GOUNKI_DB_TIMEOUT sets how long)\n") == 1);
        CHECK(contains(run_gounki_args({"games", "--db", url, "--json"}).out, "\"total\":4"));
    }
    SECTION("a wait given up leaves no transaction open on the connection") {
        for (const int timeout_ms : {0, 300, 1700}) {
            Database mine(url, OpenMode::read_write);
            mine.set_busy_timeout(timeout_ms);
            CHECK_THROWS_WITH(Transaction(mine, TransactionKind::immediate), Catch::Contains("is locked"));
            CHECK_FALSE(mine.in_transaction());
        }
    }
    SECTION("a connection made again after a lost one waits for locks as long as before") {
        Database mine(url, OpenMode::read_write);
        mine.set_busy_timeout(2500);
        const auto setting = [&] {
            Statement st(mine, "SELECT current_setting('lock_timeout')");
            REQUIRE(st.step());
            return std::string(st.get_text(0));
        };
        CHECK(setting() == "2500ms");
        mine.reconnect();
        CHECK(setting() == "2500ms");
        CHECK_THROWS_WITH(Transaction(mine, TransactionKind::immediate), Catch::Contains("gave up waiting after 2.5 s"));
    }
    SECTION("a short wait says nothing") {
        std::thread ends([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            writing.reset();
        });
        const CliRun r = import("60");
        ends.join();
        CHECK(r.status == 0);
        CHECK_FALSE(contains(r.err, "waiting for"));
    }
}

TEST_CASE("PostgreSQL: a lock another program holds past GOUNKI_DB_TIMEOUT is named, nothing half-stored", "[postgres]") {
    const TempDir dir("pglock");
    const std::string url = server_database("gounki_locked");
    const std::string games = std::string(GOUNKI_SOURCE_DIR) + "/samples/games/";
    REQUIRE(run_gounki_args({"import", "--quiet", "--db", url, games + "04-club-evening.gpn"}).status == 0);
    // Another program holds the games table (as `LOCK TABLE games` in an open transaction would).
    Database other(url, OpenMode::read_write);
    other.exec("BEGIN");
    other.exec("LOCK TABLE games IN EXCLUSIVE MODE");
    const CliRun imp = run_shell("GOUNKI_DB_TIMEOUT=1 " + gounki_command() + " import --db " + shell_quoted(url) + " " +
                                 shell_quoted(games + "10-gomoku.gpn"));
    INFO(imp.out << imp.err);
    CHECK(imp.status == 2);
    CHECK(contains(imp.err, "gounki import: '" + redacted_url(url) +
                                "' is locked: another program is writing to it, and gounki gave up waiting after 1 s "
                                "(GOUNKI_DB_TIMEOUT); try again when that program is done"));
    // 0 gives up at once, as on SQLite (the server's lock_timeout 0 would wait without end: `timeout`
    // ends the command after a minute if it does).
    const CliRun at_once = run_shell("GOUNKI_DB_TIMEOUT=0 timeout 60 " + gounki_command() + " import --db " + shell_quoted(url) +
                                     " " + shell_quoted(games + "10-gomoku.gpn"));
    INFO(at_once.err);
    CHECK(at_once.status == 2);
    CHECK(contains(at_once.err, "' is locked: another program is writing to it, and gounki gave up waiting after 0 s"));
    other.exec("ROLLBACK");
    // Nothing of the import was stored; once the lock is gone it stores its games.
    CHECK(contains(run_gounki_args({"games", "--db", url, "--json"}).out, "\"total\":2"));
    const CliRun again = run_gounki_args({"import", "--db", url, games + "10-gomoku.gpn"});
    CHECK(again.status == 0);
    CHECK(contains(again.err, "0 already imported"));
}
