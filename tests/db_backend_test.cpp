// The SQL layer (db/sqlite.hpp) on both backends: the same calls give the same answers on an SQLite
// file and on a PostgreSQL server. Tests tagged [postgres] need a server: `ctest -R postgres` (and
// scripts/test.sh) starts one of its own with scripts/with-postgres.sh, which names it in
// $GOUNKI_TEST_PG; without it they fail. The commands on both backends: db_backend_cli_test.cpp.

#include "tests/catch.hpp"
#include "tests/support.hpp"

#include "db/postgres.hpp"
#include "db/sqlite.hpp"

#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

using namespace gounki;
using namespace gounki::test;
using db::Database;
using db::DbError;
using db::OpenMode;
using db::Statement;

namespace {

std::string test_server() {
    const char* url = std::getenv("GOUNKI_TEST_PG");
    INFO("GOUNKI_TEST_PG is not set: run these tests through scripts/with-postgres.sh (ctest -R postgres)");
    REQUIRE(url != nullptr);
    REQUIRE(db::is_postgres_url(url));
    return url;
}

// Types both backends know: SQLite reads DOUBLE PRECISION as REAL and BYTEA as a column that keeps
// blobs as they are.
void make_table(Database& d) {
    d.exec("DROP TABLE IF EXISTS layer_test");
    d.exec("CREATE TABLE layer_test (id BIGINT PRIMARY KEY, name TEXT, score DOUBLE PRECISION, data BYTEA)");
}

// Every call of the layer, and what it must answer, whichever backend is behind it. Longer than 80
// lines: one script of calls in order, each step reading what the steps before it stored.
void check_layer(Database& d) {
    make_table(d);
    const std::int64_t big = std::numeric_limits<std::int64_t>::max(), small = std::numeric_limits<std::int64_t>::min();
    const std::vector<std::uint8_t> bytes{0, 1, 0x7f, 0x80, 0xff, 0, '\\', 'x'};
    const std::string name = "Hélène \"l'as\" — 5×5 ?1 $1";
    {
        Statement insert(d, "INSERT INTO layer_test (id, name, score, data) VALUES (?1, ?2, ?3, ?4)");
        insert.bind(1, small).bind(2, name).bind(3, 0.1 + 0.2).bind_blob(4, bytes);
        insert.run();
        CHECK(d.changes() == 1);
        insert.bind(1, big).bind_text_or_null(2, "").bind_null(3).bind_blob(4, std::span<const std::uint8_t>());
        insert.run();
        insert.bind(1, std::int64_t(7)).bind(2, "seven").bind(3, -2.5).bind_null(4);
        insert.run();
    }
    Statement get(d, "SELECT id, name, score, data FROM layer_test WHERE id = ?1");
    {
        const db::ResetAtExit done(get);
        get.bind(1, small);
        REQUIRE(get.step());
        CHECK(get.get_int64(0) == small);
        CHECK(get.get_text(1) == name);
        CHECK(get.get_double(2) == 0.1 + 0.2); // exact: the shortest form that reads back the same
        const auto blob = get.get_blob(3);
        CHECK(std::vector<std::uint8_t>(blob.begin(), blob.end()) == bytes);
        CHECK_FALSE(get.step());
    }
    {
        const db::ResetAtExit done(get);
        get.bind(1, big);
        REQUIRE(get.step());
        CHECK(get.get_int64(0) == big);
        CHECK(get.is_null(1)); // bind_text_or_null of "" stores NULL
        CHECK(get.is_null(2));
        CHECK_FALSE(get.is_null(3)); // an empty blob is a blob, not NULL
        CHECK(get.get_blob(3).empty());
    }
    // A parameter inside a literal is text, not a parameter.
    Statement literal(d, "SELECT count(*), '?1 it''s' FROM layer_test WHERE id > ?1");
    {
        const db::ResetAtExit done(literal);
        literal.bind(1, std::int64_t(0));
        REQUIRE(literal.step());
        CHECK(literal.get_int64(0) == 2);
        CHECK(literal.get_text(1) == "?1 it's");
    }
    // Rows in order, a statement reused after a reset.
    Statement all(d, "SELECT id FROM layer_test ORDER BY id");
    for (int round = 0; round < 2; ++round) {
        const db::ResetAtExit done(all);
        std::vector<std::int64_t> ids;
        while (all.step()) ids.push_back(all.get_int64(0));
        CHECK(ids == std::vector<std::int64_t>{small, 7, big});
    }
    Statement update(d, "UPDATE layer_test SET score = coalesce(score, 0) + ?1 WHERE id <> ?2");
    update.bind(1, 1.0).bind(2, std::int64_t(7)).run();
    CHECK(d.changes() == 2);
    Statement sum(d, "SELECT sum(id), count(*) FROM layer_test WHERE id BETWEEN ?1 AND ?2");
    {
        const db::ResetAtExit done(sum);
        sum.bind(1, std::int64_t(-10)).bind(2, std::int64_t(10));
        REQUIRE(sum.step());
        CHECK(sum.get_int64(0) == 7); // PostgreSQL's sum of bigints is a numeric: read as an integer all the same
        CHECK(sum.get_int64(1) == 1);
    }
    auto count = [&] {
        Statement c(d, "SELECT count(*) FROM layer_test");
        const db::ResetAtExit done(c);
        REQUIRE(c.step());
        return c.get_int64(0);
    };
    // A transaction rolled back leaves nothing; a joined one is left to the outer one.
    {
        db::Transaction t(d, db::TransactionKind::immediate);
        CHECK(d.in_transaction());
        Statement(d, "DELETE FROM layer_test").run();
        {
            db::Transaction inner(d, db::TransactionKind::immediate);
            inner.commit(); // joined: commits nothing
        }
        CHECK(d.in_transaction());
        CHECK(count() == 0);
    }
    CHECK_FALSE(d.in_transaction());
    CHECK(count() == 3);
    {
        db::Transaction t(d, db::TransactionKind::immediate);
        Statement(d, "DELETE FROM layer_test WHERE id = ?1").bind(1, std::int64_t(7)).run();
        t.commit();
    }
    CHECK(count() == 2);
    // Errors say what went wrong, and the statement can be used again.
    Statement insert(d, "INSERT INTO layer_test (id, name) VALUES (?1, ?2)");
    insert.bind(1, big).bind(2, "again");
    try {
        insert.run();
        FAIL("a duplicate key was stored");
    } catch (const DbError& e) {
        const std::string what = e.what();
        INFO(what);
        CHECK((what.find("UNIQUE") != std::string::npos || what.find("unique") != std::string::npos));
        if (d.is_postgres()) CHECK(e.sqlstate() == "23505");
    }
    insert.bind(1, std::int64_t(8)).bind(2, "eight").run();
    CHECK(count() == 3);
    CHECK_THROWS_AS(Statement(d, "SELECT nothing FROM nowhere"), DbError);
}

} // namespace

TEST_CASE("the SQL layer on an SQLite file", "[db]") {
    const TempDir dir("layer");
    Database d((dir / "layer.db").string(), OpenMode::create);
    CHECK_FALSE(d.is_postgres());
    check_layer(d);
}

TEST_CASE("the SQL layer on a PostgreSQL server gives the same answers", "[postgres]") {
    Database d(test_server(), OpenMode::create);
    CHECK(d.is_postgres());
    check_layer(d);
}

TEST_CASE("PostgreSQL URLs: passwords never shown, parameters renumbered", "[db]") {
    CHECK(db::is_postgres_url("postgresql://u@h/d"));
    CHECK(db::is_postgres_url("postgres://h/d"));
    CHECK_FALSE(db::is_postgres_url("games.db"));
    CHECK_FALSE(db::is_postgres_url("postgresql.db"));
    CHECK(db::redacted_url("postgresql://ann:s3cret@db.example:5432/club") == "postgresql://ann:***@db.example:5432/club");
    CHECK(db::redacted_url("postgresql://ann@db/club?sslmode=require&password=s3cret&x=1") ==
          "postgresql://ann@db/club?sslmode=require&password=***&x=1");
    CHECK(db::redacted_url("postgresql:///club?host=/tmp") == "postgresql:///club?host=/tmp");
    int n = 0;
    CHECK(db::postgres_parameters("SELECT a FROM t WHERE b = ?2 AND c = ?10 -- ?3\n AND d = '?4' AND \"?5\" = ?1", n) ==
          "SELECT a FROM t WHERE b = $2 AND c = $10 -- ?3\n AND d = '?4' AND \"?5\" = $1");
    CHECK(n == 10);
    CHECK(db::postgres_parameters("INSERT INTO t VALUES (?, ?, 'it''s ?')", n) == "INSERT INTO t VALUES ($1, $2, 'it''s ?')");
    CHECK(n == 2);
}

TEST_CASE("PostgreSQL: a malformed URL is reported at once, not tried again", "[db]") {
    // The message says what is wrong and quotes the URL without its password. Had it been tried
    // again (the host does not exist: no answer), it would say how often ("tried N times").
    ::setenv("GOUNKI_PG_RETRY_SECONDS", "30", 1);
    const std::vector<std::pair<std::string, std::string>> cases{
        {"postgresql://ann:s3cret@db.invalid:notaport/club", "the port 'notaport' is not a number from 1 to 65535"},
        {"postgresql://ann:s3cret@db.invalid:99999/club", "the port '99999' is not a number from 1 to 65535"},
        {"postgresql://ann:s3cret@db.invalid:0/club", "the port '0' is not a number from 1 to 65535"},
        {"postgresql://ann:s3cret@db.invalid:5432,db2.invalid:-1/club", "the port '-1' is not a number from 1 to 65535"},
        {"postgresql://ann:s3cret@db.invalid/club?port=12ab", "the port '12ab' is not a number from 1 to 65535"},
        {"postgresql://ann:s3cret@db.invalid/club?nosuchoption=1", "invalid URI query parameter: \"nosuchoption\""},
    };
    for (const auto& [url, why] : cases) {
        INFO(url);
        try {
            Database d(url, OpenMode::read_write);
            FAIL("connected through a malformed URL");
        } catch (const DbError& e) {
            const std::string what = e.what();
            INFO(what);
            CHECK(what.starts_with("cannot open database 'postgresql://ann:***@db.invalid"));
            CHECK(what.find(why) != std::string::npos);
            CHECK(what.find("s3cret") == std::string::npos);
            CHECK(what.find("tried") == std::string::npos);
            CHECK_FALSE(e.is_connection_lost());
        }
    }
    // A good port is no problem of the URL's: the host that does not exist is what fails.
    ::setenv("GOUNKI_PG_RETRY_SECONDS", "0", 1);
    try {
        Database d("postgresql://ann@db.invalid:65535/club", OpenMode::read_write);
        FAIL("connected to a host that does not exist");
    } catch (const DbError& e) {
        INFO(e.what());
        CHECK_FALSE(contains(e.what(), "is not a number"));
        CHECK(e.is_connection_lost());
    }
    ::unsetenv("GOUNKI_PG_RETRY_SECONDS");
    // The command line says the same, with the command's name.
    const CliRun run = run_gounki("games --db 'postgresql://ann:s3cret@db.invalid:99999/club'");
    CHECK(run.status == 2);
    CHECK(run.err == "gounki games: cannot open database 'postgresql://ann:***@db.invalid:99999/club': the port '99999' is not a number from 1 to 65535\n");
}

TEST_CASE("PostgreSQL: a server that cannot be reached, a lost connection, a read-only connection", "[postgres]") {
    const std::string url = test_server();
    // Nobody listens in an empty folder: tried again for a while (here half a second), then the
    // message names the URL without its password and says how often it tried.
    const TempDir dir("nopg");
    ::setenv("GOUNKI_PG_RETRY_SECONDS", "0.5", 1);
    try {
        Database d("postgresql://ann:s3cret@/club?host=" + dir.path().string(), OpenMode::read_write);
        FAIL("connected to nothing");
    } catch (const DbError& e) {
        const std::string what = e.what();
        INFO(what);
        CHECK(what.find("cannot open database 'postgresql://ann:***@/club?host=") != std::string::npos);
        CHECK(what.find("s3cret") == std::string::npos);
        CHECK(what.find(" (tried 3 times over ") != std::string::npos); // after waits of 0.1 and 0.2 s; 0.4 more passes 0.5
        CHECK(e.is_connection_lost());
    }
    // A server that answers and refuses (no such database) is not tried again.
    try {
        std::string url_of_none = url;
        url_of_none.replace(url.find("/gounki_test?"), 13, "/no_such_db?");
        Database d(url_of_none, OpenMode::read_write);
        FAIL("connected to a database that does not exist");
    } catch (const DbError& e) {
        INFO(e.what());
        CHECK(std::string(e.what()).find("no_such_db") != std::string::npos);
        CHECK(std::string(e.what()).find("tried") == std::string::npos);
    }
    ::unsetenv("GOUNKI_PG_RETRY_SECONDS");
    {
        Database d(url, OpenMode::create);
        make_table(d);
        Database reader(url, OpenMode::read_only);
        CHECK(reader.read_only());
        CHECK_THROWS_AS(Statement(reader, "INSERT INTO layer_test (id) VALUES (?1)").bind(1, 1).run(), DbError);
        Statement backend(d, "SELECT pg_backend_pid()");
        REQUIRE(backend.step());
        const std::int64_t pid = backend.get_int64(0);
        backend.reset();
        // The server ends the connection (as a restart or a network cut would).
        Database admin(url, OpenMode::read_write);
        Statement kill(admin, "SELECT pg_terminate_backend(?1)");
        kill.bind(1, pid);
        REQUIRE(kill.step());
        CHECK(kill.get_int64(0) == 1);
        kill.reset();
        try {
            Statement(d, "SELECT 1").step();
            FAIL("a statement ran on a closed connection");
        } catch (const DbError& e) {
            INFO(e.what());
            CHECK(e.is_connection_lost());
            CHECK(std::string(e.what()).find("connection") != std::string::npos);
        }
    }
}

TEST_CASE("PostgreSQL: rows gathered for COPY are seen by the next read, sent by the commit, dropped by a rollback", "[postgres]") {
    Database d(test_server(), OpenMode::read_write);
    make_table(d);
    d.exec("DROP TABLE IF EXISTS layer_child");
    d.exec("CREATE TABLE layer_child (parent BIGINT NOT NULL REFERENCES layer_test (id), n BIGINT NOT NULL, PRIMARY KEY (parent, n))");
    const auto count = [&](const std::string& table) {
        Statement c(d, "SELECT count(*) FROM " + table);
        REQUIRE(c.step());
        return c.get_int64(0);
    };
    {
        db::Transaction tx(d, db::TransactionKind::immediate);
        db::BulkWriter parents(d, "layer_test", "id, name, score, data");
        db::BulkWriter children(d, "layer_child", "parent, n", "ON CONFLICT (parent, n) DO NOTHING");
        const std::vector<std::uint8_t> bytes{0, '\\', '\t', '\n', 0xff};
        for (int i = 1; i <= 1000; ++i) {
            parents.add(i).add_text_or_null(i % 2 ? "odd\t\\ \n" : "").add(i / 4.0).add_blob(bytes).end_row();
            children.add(i).add(1).end_row();
            children.add(i).add(1).end_row(); // the same key again: the clause keeps the first
        }
        // A read of the table sees the rows (sent before it, parents before children).
        CHECK(count("layer_child") == 1000);
        CHECK(count("layer_test") == 1000);
        parents.add(1001).add("late").add(0.5).add_null().end_row();
        tx.commit();
    }
    CHECK(count("layer_test") == 1001);
    Statement get(d, "SELECT name, score, data FROM layer_test WHERE id = 3");
    REQUIRE(get.step());
    CHECK(get.get_text(0) == "odd\t\\ \n");
    CHECK(get.get_double(1) == 0.75);
    const auto blob = get.get_blob(2);
    CHECK(std::vector<std::uint8_t>(blob.begin(), blob.end()) == std::vector<std::uint8_t>{0, '\\', '\t', '\n', 0xff});
    get.reset();
    {
        db::Transaction tx(d, db::TransactionKind::immediate);
        db::BulkWriter parents(d, "layer_test", "id, name, score, data");
        parents.add(2000).add("gone").add(1.0).add_null().end_row();
    } // rolled back: nothing sent
    CHECK(count("layer_test") == 1001);
    // A row that breaks a constraint fails the COPY with the server's message, at the commit.
    {
        db::Transaction tx(d, db::TransactionKind::immediate);
        db::BulkWriter parents(d, "layer_test", "id, name, score, data");
        parents.add(5).add("again").add(1.0).add_null().end_row();
        try {
            tx.commit();
            FAIL("a duplicate id was stored");
        } catch (const DbError& e) {
            INFO(e.what());
            CHECK(contains(e.what(), "copying rows into layer_test"));
            CHECK(e.sqlstate() == "23505");
        }
    }
    CHECK(count("layer_test") == 1001);
    // A row of the wrong length is refused before it is gathered.
    db::BulkWriter parents(d, "layer_test", "id, name, score, data");
    CHECK_THROWS_WITH(parents.add(1).add("x").end_row(), Catch::Contains("with 2 values, not 4"));
    CHECK_THROWS_WITH(parents.add(1).add("x").add(1.0).add_null().add(2), Catch::Contains("more than 4 values"));
    d.exec("DROP TABLE layer_child");
}
