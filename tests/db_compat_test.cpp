// A database written by an older gounki keeps working: tests/data/db/schema4-stones.sql is the dump
// of a file made before 20x20 boards renumbered the stone points (rank * 19 + file then, stride 20
// now). Its stored moves, position keys and tree counts must read as they were written.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <fstream>

#include "db/sqlite.hpp"

using namespace gounki;
using namespace gounki::test;

namespace {

// The old file, rebuilt from its dump in `dir`.
std::string old_database(const TempDir& dir) {
    const std::string path = dir.file("old.db");
    {
        db::Database d(path, db::OpenMode::create);
        d.exec(slurp(source_path("tests/data/db/schema4-stones.sql")));
    }
    // Then migrated as any writing command does (read-only commands refuse an old schema); the
    // later migrations add to the schema and leave what was stored as it was.
    db::GameDatabase(path, db::Access::read_write);
    return path;
}

} // namespace

TEST_CASE("an old database of stone games: moves, positions, trees and judgements read as written", "[db][stones]") {
    TempDir dir;
    const std::string db = old_database(dir);

    // The moves: game 7 is a 19x19 Gomoku game that went to s19 and a1, the far corners.
    const CliRun show = run_gounki_args({"show", "--db", db, "7"});
    REQUIRE(show.status == 0);
    CHECK(contains(show.out, "[Size \"19\"]"));
    CHECK(contains(show.out, "1. j10 k11 2. s19 a1 3. k10 l12 4. l10 m13 5. m10 n14 6. n10 0-1"));

    // Position keys: the index finds the game by its position after 2... a1 (Black to move).
    const CliRun after4 = run_gounki_args(
        {"search", "--db", db, "--position", "Gomoku 19 18x/19/19/19/19/19/19/19/10o8/9x9/19/19/19/19/19/19/19/19/o18 b"});
    CHECK(after4.status == 0);
    CHECK(contains(after4.out, "1 game reached"));
    CHECK(contains(after4.out, "W19"));

    // The tree counts stored the first moves by their old codes.
    const CliRun tree = run_gounki_args(
        {"tree", "--db", db, "--position", "Gomoku 19 19/19/19/19/19/19/19/19/19/9x9/19/19/19/19/19/19/19/19/19 w"});
    REQUIRE(tree.status == 0);
    CHECK(contains(tree.out, "k11 "));
    CHECK(contains(tree.out, "a1 "));

    // The judged game's report names points of the board.
    const CliRun report = run_gounki_args({"report", "--db", db, "7", "--format", "md", "-o", "-"});
    CHECK(report.status == 0);
    CHECK(contains(report.out, "n10"));

    // Importing the same game again: a duplicate (same moves as stored), and a new game's positions
    // meet the old ones in the index.
    {
        std::ofstream f(dir / "again.gpn", std::ios::binary);
        f << "[Game \"Gomoku\"]\n[White \"W19\"]\n[Black \"B19\"]\n[Size \"19\"]\n[Result \"0-1\"]\n\n"
             "1. j10 k11 2. s19 a1 3. k10 l12 4. l10 m13 5. m10 n14 6. n10 0-1\n\n"
             "[Game \"Gomoku\"]\n[White \"New\"]\n[Black \"Game\"]\n[Size \"19\"]\n[Result \"*\"]\n\n"
             "1. j10 k11 2. s19 *\n";
    }
    const CliRun imp = run_gounki_args({"import", "--db", db, dir.file("again.gpn")});
    CHECK(contains(imp.out + imp.err, "1 duplicates"));
    const CliRun both = run_gounki_args(
        {"search", "--db", db, "--position", "Gomoku 19 18x/19/19/19/19/19/19/19/10o8/9x9/19/19/19/19/19/19/19/19/19 w"});
    CHECK(contains(both.out, "2 games reached"));
}
