// The game database from the command line, across processes: the commands on a file, I/O errors,
// records through import, export and import again, two importers at once, an importer killed at
// several points.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <csignal>
#include <map>
#include <fstream>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include "core/stones/renju_openings.hpp"
#include "db/sqlite.hpp"

using namespace gounki;
using namespace gounki::db;
using namespace gounki::test;
namespace fs = std::filesystem;

namespace {

std::string testing_list(const std::vector<std::int64_t>& v) {
    std::string s;
    for (auto x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
    return s;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// The command line across processes

TEST_CASE("the commands work on a database file, in text and JSON", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    const std::string db = test_database(backend, dir, "cli");
    const auto games = random_games(30, 8, 20);
    write_gpn(dir.file("g.gpn"), games);
    const CliRun imp = run_gounki_args({"import", "--db", db, "--json", dir.file("g.gpn")});
    CHECK(imp.status == 0);
    CHECK(contains(imp.out, "\"type\":\"summary\""));
    CHECK(contains(imp.out, "\"stored\":30"));
    CHECK(contains(imp.out, "\"phases_s\":{"));
    CHECK(contains(imp.out, "\"lookup_indexes\":0")); // 30 games: not deferred

    const CliRun list = run_gounki_args({"games", "--db", db, "--limit", "5", "--json"});
    CHECK(list.status == 0);
    CHECK(contains(list.out, "\"total\":30"));
    const CliRun search = run_gounki_args({"search", "--db", db, "--position", after(games[3].moves, 6).to_text()});
    CHECK(search.status == 0);
    CHECK(contains(search.out, "reached"));
    const CliRun pattern = run_gounki_args({"search", "--db", db, "--pattern", "Wp>=16", "--json"});
    CHECK(pattern.status == 0);
    CHECK(contains(pattern.out, "\"total\":30"));
    const CliRun bad = run_gounki_args({"search", "--db", db, "--pattern", "e4=Q"});
    CHECK(bad.status == 2);
    CHECK(contains(bad.err, "character 4"));
    const CliRun filters = run_gounki_args({"search", "--db", db, "--from", "2001", "--to", "2030.12.31", "--json"});
    CHECK(filters.status == 0);
    CHECK(run_gounki_args({"search", "--db", db, "--from", "soon"}).status == 2);
    const CliRun tree = run_gounki_args({"tree", "--db", db, "--json"});
    CHECK(tree.status == 0);
    CHECK(contains(tree.out, "\"games\":30"));
    const CliRun show = run_gounki_args({"show", "--db", db, "3"});
    CHECK(show.status == 0);
    CHECK(contains(show.out, "[Round \"3\"]"));
    CHECK(run_gounki_args({"show", "--db", db, "300"}).status == 2);
    const CliRun exp = run_gounki_args({"export", "--db", db, "--white", "Player 1", "-o", dir.file("out.gpn")});
    CHECK(exp.status == 0);
    CHECK(contains(slurp(dir.file("out.gpn")), "[White \"Player 1"));
    CHECK(run_gounki_args({"delete", "--db", db, "3", "--json"}).status == 0);
    CHECK(run_gounki_args({"delete", "--db", db, "3"}).status == 2);
    CHECK(contains(run_gounki_args({"games", "--db", db, "--json"}).out, "\"total\":29"));
    CHECK(run_gounki_args({"games", "--db", dir.file("missing.db")}).status == 2);

    // $GOUNKI_DB is the default database.
    ::setenv("GOUNKI_DB", db.c_str(), 1);
    const CliRun by_env = run_gounki_args({"games", "--json"});
    ::unsetenv("GOUNKI_DB");
    CHECK(contains(by_env.out, "\"total\":29"));
}

namespace {

// The value of the string field `name` of a one-line JSON object ("" when absent).
std::string json_field(const std::string& json, const std::string& name) {
    const std::string key = "\"" + name + "\":\"";
    const std::size_t at = json.find(key);
    if (at == std::string::npos) return "";
    return json.substr(at + key.size(), json.find('"', at + key.size()) - at - key.size());
}

} // namespace

TEST_CASE("games, tree, search and show write stored control characters as escapes", "[db][cli]") {
    TempDir dir;
    // A record from anywhere: a player's name that would clear a terminal and set its title, and a
    // file whose name holds a line end.
    const std::string file = dir.file("odd\nname.gpn");
    write_text(file, "[Game \"Gomoku\"]\n[White \"evil\x1b[2J\x1b]0;title\x07name\"]\n[Black \"b\"]\n"
                     "[Event \"ev\x1b[31m\"]\n[Result \"*\"]\n\n1. h8 i9 *\n");
    const std::string on = " --db " + shell_quoted(dir.file("c.db"));
    REQUIRE(run_gounki("import --quiet" + on + " " + shell_quoted(file)).status <= 1);
    for (const std::string cmd : {"games", "show 1", "tree --game gomoku --moves h8", "search --white evil"}) {
        INFO(cmd);
        const CliRun r = run_gounki(cmd + on);
        CHECK(r.status == 0);
        CHECK(r.out.find('\x1b') == std::string::npos);
        CHECK(r.out.find('\x07') == std::string::npos);
        CHECK(contains(r.out, "\\x1b"));
    }
    const std::string shown = run_gounki("show 1" + on).out;
    CHECK(contains(shown, "odd\\x0aname.gpn:1\n")); // the file's line stays one line
    // JSON escapes them its own way; export writes the record as it is.
    CHECK(contains(run_gounki("games --json" + on).out, "evil\\u001b[2J"));
    CHECK(contains(run_gounki("export -o -" + on).out, "evil\x1b[2J"));
}

TEST_CASE("import names the games a stored game shares its moves with, one or several", "[db][cli]") {
    TempDir dir;
    const auto game = [](const std::string& white, const std::string& moves) {
        return "[Game \"Gomoku\"]\n[White \"" + white + "\"]\n[Black \"B\"]\n[Result \"*\"]\n\n" + moves + " *\n\n";
    };
    { std::ofstream(dir / "g.gpn") << game("a", "1. h8 h9") + game("b", "1. h8 h9") + game("c", "1. h8 h9") + game("d", "1. h8 h9 2. i9") + game("e", "1. h8"); }
    const CliRun r = run_gounki("import --db " + shell_quoted(dir.file("g.db")) + " " + shell_quoted(dir.file("g.gpn")));
    INFO(r.out << r.err);
    CHECK(contains(r.out, ":8: stored as game 2; game 1 has the same moves\n"));
    CHECK(contains(r.out, ":15: stored as game 3; games 1, 2 have the same moves\n"));
    CHECK(contains(r.out, ":22: stored as game 4; the moves of games 1, 2, 3 are prefixes of its moves\n"));
    CHECK(contains(r.out, ":29: stored as game 5; its moves are a prefix of games 1, 2, 3, 4\n"));
}

TEST_CASE("import skips a Renju game published turned or mirrored as a duplicate, saying how it lies", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    const std::string db = test_database(backend, dir, "turned-cli");
    const auto renju = [](const std::string& white, const std::string& moves) {
        return "[Game \"Renju\"]\n[White \"" + white + "\"]\n[Black \"Bo\"]\n[Result \"0-1\"]\n\n" + moves + " 0-1\n\n";
    };
    // Black's five along rank 8; turned by hand a quarter anticlockwise (h8 stays, what lay to the
    // right of it lies above it: i8 h9, j8 h10; what lay above lies to its left: h9 g8; a1 o1, b2 n2),
    // and mirrored left to right (i8 g8, j8 f8, a1 o1).
    write_text(dir / "a.gpn", renju("Wu", "1. h8 h9 2. i8 i10 3. j8 a1 4. k8 b2 5. l8"));
    write_text(dir / "t.gpn", renju("Wu", "1. h8 g8 2. h9 f9 3. h10 o1 4. h11 n2 5. h12") +
                                  renju("Wu", "1. h8 h9 2. g8 g10 3. f8 o1 4. e8 n2 5. d8") +
                                  renju("Al", "1. h8 g8 2. h9 f9 3. h10 o1 4. h11 n2 5. h12"));
    CHECK(run_gounki_args({"import", "--db", db, dir.file("a.gpn")}).status == 0);
    const CliRun r = run_gounki_args({"import", "--db", db, dir.file("t.gpn")});
    INFO(r.out << r.err);
    CHECK(r.status == 1);
    CHECK(contains(r.out, "t.gpn:1: duplicate of game 1 turned a quarter anticlockwise, skipped\n"));
    CHECK(contains(r.out, "t.gpn:8: duplicate of game 1 mirrored left to right, skipped\n"));
    CHECK_FALSE(contains(r.out, "t.gpn:15:")); // other players: stored as game 2, nothing to say
    CHECK(contains(r.err, "3 games read: 1 stored (0 broken), 2 duplicates"));
    const CliRun json = run_gounki_args({"import", "--db", db, "--json", dir.file("t.gpn")});
    CHECK(contains(json.out, "{\"action\":\"duplicate\",\"duplicate_of\":1,"));
    CHECK(contains(json.out, "\"line\":1,\"symmetry\":\"turned a quarter anticlockwise\""));
    CHECK(contains(json.out, "\"line\":8,\"symmetry\":\"mirrored left to right\""));
    const CliRun keep = run_gounki_args({"import", "--db", db, "--keep-duplicates", dir.file("t.gpn")});
    INFO(keep.out);
    // Game 2 (Al) has its moves as they lie.
    CHECK(contains(keep.out, "t.gpn:1: stored as game 3, a duplicate of game 1 turned a quarter anticlockwise; game 2 has the same moves\n"));
    CHECK(contains(keep.out, "t.gpn:8: stored as game 4, a duplicate of game 1 mirrored left to right\n"));
}

TEST_CASE("search finds the position a game won by an exit ends in from its text", "[db][cli]") {
    TempDir dir;
    const std::string on = " --db " + shell_quoted(dir.file("x.db"));
    const std::string won = shell_quoted(std::string(GOUNKI_SOURCE_DIR) + "/samples/broken/23-result-incomplete.gpn");
    REQUIRE(run_gounki("import --quiet" + on + " " + won).status <= 1); // a warning
    const std::string shown = run_gounki("show 1 --ply end" + on).out;
    const std::size_t at = shown.find("Position: ");
    REQUIRE(at != std::string::npos);
    const std::string text = shown.substr(at + 10, shown.find('\n', at) - at - 10);
    // The text says nothing of the exit; the game is found all the same, at its last ply.
    const CliRun found = run_gounki("search --json --position " + shell_quoted(text) + on);
    CHECK(found.status == 0);
    CHECK(contains(found.out, "\"total\":1"));
    CHECK(contains(found.out, "\"ply\":17"));
}

TEST_CASE("dates known in part count when all of them is in the range; ? names sort as unknown", "[db][cli]") {
    TempDir dir;
    std::string text;
    const std::pair<const char*, const char*> games[] = {
        {"2024.??.??", "?"}, {"2024.05.??", "Zed"}, {"2024.05.10", "Amy"}, {"2023.12.31", ""}, {"????.??.??", "Bob"}};
    for (const auto& [date, white] : games)
        text += std::string("[Game \"Gomoku\"]\n[Date \"") + date + "\"]\n[White \"" + white + "\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. h8 i9 *\n\n";
    write_text(dir.file("d.gpn"), text);
    const std::string on = " --db " + shell_quoted(dir.file("d.db"));
    REQUIRE(run_gounki("import --quiet" + on + " " + shell_quoted(dir.file("d.gpn"))).status <= 1);
    const auto ids = [&](const std::string& filter) {
        std::string out;
        for (const std::string& line : lines_of(run_gounki("games --json" + filter + on).out))
            for (std::size_t at = line.find("\"id\":"); at != std::string::npos; at = line.find("\"id\":", at + 1))
                out += (out.empty() ? "" : " ") + line.substr(at + 5, line.find_first_of(",}", at) - at - 5);
        return out;
    };
    CHECK(ids(" --from 2024 --to 2024") == "1 2 3");
    CHECK(ids(" --from 2024.01 --to 2024.12") == "1 2 3"); // the whole year is in it
    CHECK(ids(" --from 2024.01.01 --to 2024.12.31") == "1 2 3");
    CHECK(ids(" --to 2024.05.31") == "2 3 4"); // all of May, not all of 2024
    CHECK(ids(" --from 2024.05.02") == "3"); // 2024.05.?? may be May 1st, 2024.??.?? January
    CHECK(ids(" --from 2024.05 --to 2024.05") == "2 3");
    // A name written ? is unknown, as an empty one: both after the names, whatever the direction.
    CHECK(ids(" --sort player") == "3 5 2 4 1");
    CHECK(ids(" --sort player --desc") == "2 5 3 1 4");
    // Ids and --all together say two things.
    const CliRun both = run_gounki("delete 1 --all" + on);
    CHECK(both.status == 2);
    CHECK(contains(both.err, "give game ids or --all, not both"));
    // --game sets where --moves start in search, as in tree; a position of another game is refused.
    CHECK(contains(run_gounki("search --game gomoku --moves h8" + on).out, "5 games reached"));
    CHECK(run_gounki("tree --game ninuki --position start" + on).status == 2);
}

TEST_CASE("a Status tag that is no status mark is an ordinary tag kept through import and export", "[db][cli]") {
    TempDir dir;
    write_text(dir.file("s.gpn"), "[Game \"Gounki\"]\n[Status \"Game over: time\"]\n[Result \"1-0\"]\n\n1. c2-d3 1-0\n");
    const std::string on = " --db " + shell_quoted(dir.file("s.db"));
    REQUIRE(run_gounki("import --quiet" + on + " " + shell_quoted(dir.file("s.gpn"))).status == 0);
    CHECK(contains(run_gounki("show 1" + on).out, "[Status \"Game over: time\"]"));
    const std::string exported = run_gounki("export -o -" + on).out;
    CHECK(contains(exported, "[Status \"Game over: time\"]"));
    // A broken game's mark takes its place: the game reads back broken.
    write_text(dir.file("b.gpn"), "[Game \"Gomoku\"]\n[Status \"Game over: time\"]\n[Result \"*\"]\n\n1. h8 h8 *\n");
    REQUIRE(run_gounki("import --quiet" + on + " " + shell_quoted(dir.file("b.gpn"))).status == 1);
    const std::string broken = run_gounki("show 2" + on).out;
    CHECK(contains(broken, "[Status \"partial\"]"));
    CHECK_FALSE(contains(broken, "Game over"));
}

TEST_CASE("a stored game's board at any ply: show ID --ply N and board --game ID --ply N", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    const std::string db = test_database(backend, dir, "ply");
    REQUIRE(run_gounki_args({"import", "--db", db, "--quiet", source_path("samples/games/01-deployment-out.gpn").string(),
                             source_path("samples/games/10-gomoku.gpn").string()})
                .status == 0);
    // Game 2 is Gomoku: h8 i9 i8 j9 j8 ...; its board after five plies is the one --moves gives.
    const CliRun shown = run_gounki_args({"show", "--db", db, "2", "--json"});
    CHECK(contains(shown.out, "\"moves\":[\"h8\",\"i9\",\"i8\",\"j9\",\"j8\","));
    const CliRun five = run_gounki_args({"show", "--db", db, "2", "--ply", "5"});
    CHECK(five.status == 0);
    CHECK(contains(five.out, "game 2, ply 5 of 9, after 3. j8; White to move\n"));
    CHECK(contains(five.out, "Last: j8\n"));
    const std::string by_moves = json_field(
        run_gounki_args({"board", "--position", "gomoku", "--moves", "1. h8 i9 2. i8 j9 3. j8", "--json"}).out, "position");
    CHECK(!by_moves.empty());
    CHECK(contains(five.out, "Position: " + by_moves + "\n"));
    const CliRun board = run_gounki_args({"board", "--db", db, "--game", "2", "--ply", "5", "--json"});
    CHECK(board.status == 0);
    CHECK(json_field(board.out, "position") == by_moves);
    CHECK(json_field(board.out, "last") == "j8");
    // Gounki: ply 0 is the start, the default is the end; the heading names the move that led there.
    CHECK(json_field(run_gounki_args({"show", "--db", db, "1", "--ply", "0", "--json"}).out, "position") ==
          Position::start().to_text());
    const CliRun end = run_gounki_args({"board", "--db", db, "--game", "1", "--format", "text"});
    CHECK(contains(end.out, "game 1, ply 21 of 21, after 11. "));
    CHECK(contains(end.out, "White has won"));
    const CliRun three = run_gounki_args({"show", "--db", db, "1", "--ply", "3", "--json"});
    CHECK(json_field(three.out, "last") == "2. d2-c2+");
    // Mistakes are usage errors that name the game's length or the clash.
    const CliRun past = run_gounki_args({"show", "--db", db, "2", "--ply", "10"});
    CHECK(past.status == 2);
    CHECK(contains(past.err, "game 2 has 9 plies (--ply 0 to 9)"));
    CHECK(run_gounki_args({"show", "--db", db, "2", "--ply", "x"}).status == 2);
    CHECK(run_gounki_args({"board", "--db", db, "--game", "2", "--position", "gomoku"}).status == 2);
    CHECK(run_gounki_args({"board", "--ply", "3"}).status == 2);
    CHECK(contains(run_gounki_args({"board", "--db", db, "--game", "7"}).err, "no game with id 7"));
}

TEST_CASE("an unreadable input file is an I/O error; the other files are still imported", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    const std::string db = test_database(backend, dir, "io");
    write_gpn(dir.file("ok.gpn"), random_games(5, 9, 10));
    const CliRun r = run_gounki_args({"import", "--db", db, dir.file("missing.gpn"), dir.file("ok.gpn")});
    CHECK(r.status == 2);
    CHECK(contains(r.err, "missing.gpn"));
    GameDatabase check(db, Access::read_only);
    CHECK(check.list_games({}, {}).total == 5);
    CHECK(run_gounki_args({"import", "--db", db}).status == 2); // no file at all
}

TEST_CASE("the record fixtures and samples survive import, export and import again", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    std::vector<std::string> files;
    for (const char* folder : {"/tests/data/records", "/samples"}) {
        std::error_code ec;
        for (const auto& e : fs::recursive_directory_iterator(std::string(GOUNKI_SOURCE_DIR) + folder, ec))
            if (e.path().extension() == ".gpn") files.push_back(e.path().string());
    }
    write_gpn(dir.file("random.gpn"), random_games(40, 13, 30));
    files.push_back(dir.file("random.gpn"));
    const std::string db_a = test_database(backend, dir, "a"), db_b = test_database(backend, dir, "b");
    std::vector<std::string> args = {"import", "--db", db_a};
    args.insert(args.end(), files.begin(), files.end());
    const CliRun first = run_gounki_args(args);
    CHECK(first.status <= 1); // the fixtures hold broken games on purpose
    CHECK(run_gounki_args({"export", "--db", db_a, "-o", dir.file("all.gpn")}).status == 0);
    const CliRun second = run_gounki_args({"import", "--db", db_b, dir.file("all.gpn")});
    CHECK(second.status <= 1);
    // A game set up from a later move keeps its numbering (tests/data/records/setup.gpn).
    const std::string exported = slurp(dir / "all.gpn");
    CHECK(contains(exported, "\n12. b7*c8,out 1-0"));
    CHECK(contains(exported, "\n5... b2*c1,out 0-1"));

    GameDatabase a(db_a, Access::read_only), b(db_b, Access::read_only);
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
        CHECK(ga->summary.kind == gb->summary.kind);
        CHECK(ga->summary.result == gb->summary.result);
    }
}

TEST_CASE("a database another program is writing: commands say they wait, then name it; analyze loses nothing stored",
          "[db][cli]") {
    TempDir dir;
    const std::string db = dir.file("locked.db");
    {
        GameDatabase d(db, Access::read_write);
        import(d, club_games());
    }
    write_gpn(dir.file("more.gpn"), {game({"c2-b3"}, "Cy", "Di", ResultCode::unknown)});
    REQUIRE(run_gounki_args({"analyze", "--db", db, "1", "--depth", "1"}).status == 0);
    const auto judgements = [&] {
        GameDatabase d(db, Access::read_only);
        return scalar(d, "SELECT count(*) FROM analyses");
    };
    const auto with_timeout = [&](const std::string& seconds, const std::string& args) {
        return run_shell("GOUNKI_DB_TIMEOUT=" + seconds + " " + gounki_command() + " " + args + " --db " + shell_quoted(db));
    };

    // Another program holds the write lock (as `sqlite3 locked.db "BEGIN EXCLUSIVE;"` would).
    Database other(db, OpenMode::read_write);
    other.exec("BEGIN IMMEDIATE");
    const std::string waiting = "waiting for '" + db + "': another program is writing to it (gounki waits up to 2 s; "
                                "GOUNKI_DB_TIMEOUT sets how long)\n";
    const std::string locked = "'" + db + "' is locked: another program is writing to it, and gounki gave up waiting after 2 s "
                               "(GOUNKI_DB_TIMEOUT); try again when that program is done, or set GOUNKI_DB_TIMEOUT (seconds) "
                               "to wait longer\n";
    const CliRun imp = with_timeout("2", "import " + shell_quoted(dir.file("more.gpn")));
    INFO(imp.err);
    CHECK(imp.status == 2);
    CHECK(contains(imp.err, "gounki import: " + waiting));
    CHECK(contains(imp.err, "gounki import: " + locked));
    // Readers do not wait.
    const CliRun games = with_timeout("2", "games");
    CHECK(games.status == 0);
    CHECK(games.err.empty());

    // analyze judges game 2 (game 1 is judged already), waits to store it, and gives up: it names the
    // game left unjudged; what was stored before stays.
    const CliRun analyze = with_timeout("2", "analyze 1 2 3 --depth 1 --threads 1");
    INFO(analyze.err);
    CHECK(analyze.status == 2);
    CHECK(contains(analyze.err, "gounki analyze: " + waiting));
    CHECK(contains(analyze.err, "gounki analyze: game 2: cannot store its judgement: " + locked));
    CHECK(contains(analyze.err, "gounki analyze: stopped; game 2 is left unjudged; 1 of 3 judged; run again to judge the rest\n"));
    CHECK(judgements() == 1);
    // A timeout that is no number of seconds.
    const CliRun bad = with_timeout("soon", "games");
    CHECK(bad.status == 2);
    CHECK(contains(bad.err, "gounki games: GOUNKI_DB_TIMEOUT must be a number of seconds from 0 to 2000000 (how long to wait "
                            "for another program's lock on the database), not 'soon'"));
    other.exec("ROLLBACK");

    // The rerun judges the rest.
    const CliRun rerun = with_timeout("2", "analyze 1 2 3 --depth 1");
    CHECK(rerun.status == 0);
    CHECK(contains(rerun.out, "judged 2 games"));
    CHECK(contains(rerun.out, "; 1 already judged"));
    CHECK(judgements() == 3);

    // A lock let go while analyze waits to store: the judgement is stored then (the default timeout,
    // ten minutes; the lock goes once the wait is told).
    other.exec("BEGIN IMMEDIATE");
    const pid_t pid = spawn_gounki({"analyze", "--db", db, "4", "--depth", "1"}, dir.file("a.out"), dir.file("a.err"));
    bool told = false;
    for (int i = 0; i < 2400 && !told; ++i) {
        told = contains(slurp(dir.file("a.err")), "waiting for");
        if (!told) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    CHECK(told);
    other.exec("COMMIT");
    CHECK(wait_exit(pid) == 0);
    CHECK(slurp(dir.file("a.err")) ==
          "gounki analyze: waiting for '" + db + "': another program is writing to it (gounki waits up to 600 s; GOUNKI_DB_TIMEOUT "
          "sets how long)\n");
    CHECK(contains(slurp(dir.file("a.out")), "judged 1 game"));
    CHECK(judgements() == 4);
}

TEST_CASE("two processes importing into one database at once both finish and lose nothing", "[db]") {
    TempDir dir;
    const std::string db = dir.file("two.db");
    write_gpn(dir.file("a.gpn"), random_games(400, 31, 30));
    write_gpn(dir.file("b.gpn"), random_games(400, 32, 30));
    const pid_t a =
        spawn_gounki({"import", "--db", db, "--batch", "25", dir.file("a.gpn")}, dir.file("a.out"), dir.file("a.err"));
    const pid_t b =
        spawn_gounki({"import", "--db", db, "--batch", "25", dir.file("b.gpn")}, dir.file("b.out"), dir.file("b.err"));
    CHECK(wait_exit(a) == 0);
    CHECK(wait_exit(b) == 0);
    for (const char* err : {"a.err", "b.err"}) CHECK_FALSE(contains(slurp(dir.file(err)), "locked"));
    GameDatabase check(db, Access::read_write);
    CHECK(check.list_games({}, {}).total == 800);
    Statement integrity(check.sql(), "PRAGMA integrity_check");
    REQUIRE(integrity.step());
    CHECK(integrity.get_string(0) == "ok");
    check_consistent(check);
}

TEST_CASE("an importer killed at any point leaves whole games only, and rerunning completes the import", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    const std::string db = test_database(backend, dir, "kill");
    const int total = 1500;
    write_gpn(dir.file("big.gpn"), random_games(total, 41, 40));
    // Kill points: at once, then once the database holds this many games (each run goes on from
    // where the last one stopped: the games already stored are recognised and skipped).
    std::vector<std::int64_t> stored_at_kill;
    for (int target : {0, 200, 600, 1000}) {
        const pid_t pid =
            spawn_gounki({"import", "--db", db, "--batch", "50", dir.file("big.gpn")}, dir.file("k.out"), dir.file("k.err"));
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
        if (!on_postgres(db) && !fs::exists(db)) continue; // killed before it created the file
        GameDatabase check(db, Access::read_write);
        if (!on_postgres(db)) {
            Statement integrity(check.sql(), "PRAGMA integrity_check");
            REQUIRE(integrity.step());
            CHECK(integrity.get_string(0) == "ok");
        }
        check_consistent(check);
        stored_at_kill.push_back(check.list_games({}, {}).total);
    }
    INFO("games stored when killed: " << testing_list(stored_at_kill));
    REQUIRE(stored_at_kill.size() >= 3);
    CHECK(stored_at_kill.back() < total); // the last kill came in the middle of the import
    CHECK(std::is_sorted(stored_at_kill.begin(), stored_at_kill.end()));
    const CliRun rerun = run_gounki_args({"import", "--db", db, dir.file("big.gpn")});
    CHECK(rerun.status == 0);
    GameDatabase check(db, Access::read_only);
    CHECK(check.list_games({}, {}).total == total);
    check_consistent(check);
    // The indexes a killed import dropped (1,500 games coming) are back.
    const std::string names = "('games_white', 'games_black', 'games_event', 'games_date')";
    CHECK(scalar(check, on_postgres(db) ? "SELECT count(*) FROM pg_indexes WHERE indexname IN " + names
                                        : "SELECT count(*) FROM sqlite_master WHERE name IN " + names) == 4);
}

TEST_CASE("Renju openings: search --opening, tree and reports name the 26 openings in every turn and mirror image",
          "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    const std::string db = test_database(backend, dir, "openings");
    // Every image of every opening, Black's first stone on the centre, then White's, then Black's
    // second; a fourth stone far away. Each opening's Black wins are its number of images' first
    // half, so that the counts differ from opening to opening.
    std::string gpn;
    std::map<std::string, int> images, black_wins;
    const auto game = [&](const std::string& kind, const std::string& moves, const std::string& result) {
        gpn += "[Game \"" + kind + "\"]\n[Black \"B\"]\n[White \"W\"]\n[Result \"" + result + "\"]\n\n" + moves + " " + result + "\n\n";
    };
    const int centre = stones::make_point(7, 7);
    for (const stones::RenjuOpening& o : stones::renju_openings()) {
        const auto positions = stones::renju_opening_positions(o);
        for (std::size_t i = 0; i < positions.size(); ++i) {
            std::string white, black;
            for (int p = 0; p < stones::point_count; ++p) {
                if (!positions[i].on_board(p) || p == centre) continue;
                if (positions[i].at(p) == stones::Stone::white) white = stones::point_name(p);
                if (positions[i].at(p) == stones::Stone::black) black = stones::point_name(p);
            }
            const bool black_won = i < positions.size() / 2;
            game("Renju", "1. h8 " + white + " 2. " + black + " a1", black_won ? "0-1" : "*");
            ++images[o.code()];
            black_wins[o.code()] += black_won;
        }
    }
    // Kagetsu's stones in another order (Black's second stone first): the same position, the same
    // opening. Not openings: White two points away; Black's second three points away. Gomoku's
    // game with Kagetsu's stones is no Renju game.
    game("Renju", "1. i9 h9 2. h8 a1", "1-0");
    game("Renju", "1. h8 h10 2. i9 a1", "*");
    game("Renju", "1. h8 h9 2. k8 a1", "*");
    game("Gomoku", "1. h8 h9 2. i9 a1", "*");
    // Set-up games show Kagetsu's stones without their first three moves making them: from the
    // shape itself (ply 0), and from Black's centre stone with White's h9 and Black's i9 played
    // (ply 2). Neither opened with Kagetsu: none of the counts below has them.
    const auto set_up = [&](const std::string& board, char side, const std::string& moves) {
        gpn += "[Game \"Renju\"]\n[Black \"B\"]\n[White \"W\"]\n[SetUp \"1\"]\n[Position \"Renju 15 15/15/15/15/15/15/" + board +
            "/15/15/15/15/15/15/15 " + side + "\"]\n[Result \"*\"]\n\n" + moves + " *\n\n";
    };
    set_up("7ox6/7x7", 'w', "1... a1 2. a15");
    set_up("15/7x7", 'w', "1... h9 2. i9 a1");
    { std::ofstream(dir.file("renju.gpn")) << gpn; }
    REQUIRE(run_gounki_args({"import", "--quiet", "--db", db, dir.file("renju.gpn")}).status == 0);

    for (const stones::RenjuOpening& o : stones::renju_openings()) {
        INFO(o.label());
        const CliRun found = run_gounki_args({"search", "--db", db, "--opening", o.code(), "--limit", "0", "--json"});
        CHECK(found.status == 0);
        const int expected = images[o.code()] + (o.name == "Kagetsu" ? 1 : 0);
        CHECK(contains(found.out, "\"total\":" + std::to_string(expected) + "}"));
        CHECK(contains(found.out, "\"opening\":{\"code\":\"" + o.code() + "\""));
        CHECK(count_of(found.out, "\"ply\":3") == std::size_t(expected));
    }
    // Names as players spell them, in text.
    const CliRun by_name = run_gounki_args({"search", "--db", db, "--opening", "shougetsu"});
    CHECK(by_name.status == 0);
    CHECK(contains(by_name.out, std::to_string(images["8D"]) + " games opened Shogetsu (8D)"));
    CHECK(contains(run_gounki_args({"search", "--db", db, "--opening", "花月", "--json"}).out, "\"total\":9}"));

    // The tree names the openings a move makes, and the opening of the position.
    const CliRun tree = run_gounki_args({"tree", "--db", db, "--game", "renju", "--moves", "h8 h9"});
    CHECK(tree.status == 0);
    CHECK(contains(tree.out, "\ni9 Kagetsu (4D) "));
    CHECK(contains(tree.out, "\nh10 Kansei (1D) "));
    CHECK(contains(tree.out, "\nk8 ")); // no name: too far
    CHECK(!contains(tree.out, "Opening "));
    const CliRun at = run_gounki_args({"tree", "--db", db, "--game", "renju", "--moves", "h8 h9 i9", "--json"});
    CHECK(contains(at.out, "\"opening\":{\"code\":\"4D\",\"japanese\":\"花月\",\"name\":\"Kagetsu\"}"));
    CHECK(contains(run_gounki_args({"tree", "--db", db, "--game", "renju", "--moves", "h8 h9 i9"}).out, "\nOpening Kagetsu (4D)\n"));
    CHECK(!contains(run_gounki_args({"tree", "--db", db, "--game", "gomoku", "--moves", "h8 h9", "--json"}).out, "opening"));

    // With their turns and mirror images (--symmetric): from h8 alone, White's stone beside it is one
    // move and its diagonal stone another, each shown as the point played most (the first in point
    // order among equals); the games are the images of the direct and of the indirect openings.
    int direct = 2, indirect = 0; // h8 h9 k8, and the set-up game from h8 alone
    for (const stones::RenjuOpening& o : stones::renju_openings()) (o.direct ? direct : indirect) += images[o.code()];
    const CliRun merged = run_gounki_args({"tree", "--db", db, "--game", "renju", "--moves", "h8", "--symmetric"});
    CHECK(merged.status == 0);
    INFO(merged.out);
    const auto games_of = [&](const std::string& move) {
        const std::size_t row = merged.out.find("\n" + move + " ");
        return row == std::string::npos ? -1 : std::stoi(merged.out.substr(row + move.size() + 1));
    };
    CHECK(games_of("h9") == direct);
    CHECK(games_of("g7") == indirect);
    CHECK(games_of("h10") == 1);
    CHECK(count_of(merged.out, "\n") == 6); // the position, the count, the heading and three moves
    CHECK(contains(merged.out, std::to_string(direct + indirect + 1) + " games continued from here or from a turn or mirror image of it\n"));
    CHECK(contains(run_gounki_args({"tree", "--db", db, "--game", "renju", "--moves", "h8", "--symmetric", "--json"}).out, "\"symmetric\":true"));
    // Kagetsu's stones in one orientation: four games (one in another order, the two set-up ones);
    // with its images, eleven (the nine of the opening and the two set-up games).
    const std::string kagetsu = "--game renju --moves 'h8 h9 i9' --json --db " + shell_quoted(db);
    CHECK(contains(run_gounki("search " + kagetsu).out, "\"total\":4}"));
    CHECK(contains(run_gounki("search --symmetric " + kagetsu).out, "\"total\":11}"));
    CHECK(contains(run_gounki("export --symmetric -o " + shell_quoted(dir.file("k.gpn")) + " " + kagetsu).out, "\"games\":11"));
    // A pattern turned and mirrored: Kagetsu's three stones wherever the board's symmetries put them.
    const std::string shape = "--pattern 'Renju h8=x h9=o i9=x' --json --db " + shell_quoted(db);
    CHECK(contains(run_gounki("search " + shape).out, "\"total\":4}"));
    CHECK(contains(run_gounki("search --symmetric " + shape).out, "\"total\":11}"));
    CHECK(contains(run_gounki("search --symmetric " + shape).out, "\"symmetric\":true"));
    check_error("tree --db " + shell_quoted(db) + " --symmetric", 2, "--symmetric is for the stone games");
    check_error("search --db " + shell_quoted(db) + " --symmetric --pattern 'd3=R'", 2, "--symmetric is for the stone games");
    check_error("search --db " + shell_quoted(db) + " --symmetric --white ann", 2,
                "--symmetric goes with a position, a pattern or an opening search");

    // Bad requests.
    check_error("search --db " + shell_quoted(db) + " --opening Kagetsu2", 2, "'Kagetsu2' names no Renju opening");
    check_error("search --db " + shell_quoted(db) + " --opening 4D --game gomoku", 2, "'4D' is a Renju opening but the games asked for are Gomoku's");
    check_error("search --db " + shell_quoted(db) + " --opening 4D --pattern 'Renju h8=x'", 2, "give one of --position");
    // A long text is shown by its start, cut between characters; a control byte or a byte that is
    // not UTF-8 is written \xNN, never sent to the terminal as it came.
    const CliRun long_name = run_gounki_args({"search", "--db", db, "--opening", std::string(39, 'a') + "花月"});
    CHECK(long_name.status == 2);
    CHECK(contains(long_name.err, "--opening '" + std::string(39, 'a') + "...' names no Renju opening"));
    const CliRun raw = run_gounki_args({"search", "--db", db, "--opening", "\x1b[2Jx"});
    CHECK(raw.status == 2);
    CHECK(contains(raw.err, "--opening '\\x1b[2Jx' names no Renju opening"));
    CHECK(raw.err.find('\x1b') == std::string::npos);
    // Names with blanks around them or macrons, as search shows them.
    CHECK(contains(run_gounki_args({"search", "--db", db, "--opening", " Shōgetsu "}).out,
                   std::to_string(images["8D"]) + " games opened Shogetsu (8D)"));

    // The report: each game's opening among its tags, and the games counted by opening.
    REQUIRE(run_gounki_args({"report", "--quiet", "--db", db, "--all", "--format", "md", "-o", dir.file("r.md")}).status == 0);
    std::ifstream in(dir.file("r.md"));
    const std::string report((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(count_of(report, "| Opening | Kagetsu (4D) |") == 9);
    CHECK(count_of(report, "| Opening | Kansei (1D) |") == 4);
    CHECK(contains(report, "| Kagetsu (4D) | 9 | 4 (44%) | 1 (11%) | 0 | 4 (44%) |"));
    CHECK(contains(report, "| Kansei (1D) | 4 | 2 (50%) | 0 | 0 | 2 (50%) |"));
}

TEST_CASE("export, report, analyze and delete choose games by a search as search finds them", "[db][cli]") {
    TempDir dir;
    const std::string db = dir.file("s.db");
    const std::string renju = std::string(GOUNKI_SOURCE_DIR) + "/tests/data/records/renju.gpn";
    const std::string club = std::string(GOUNKI_SOURCE_DIR) + "/samples/games/04-club-evening.gpn";
    REQUIRE(run_gounki_args({"import", "--quiet", "--db", db, renju, club}).status <= 1);
    const auto ids_of = [](const std::string& json) {
        std::vector<std::string> ids;
        for (std::size_t at = json.find("\"id\":"); at != std::string::npos; at = json.find("\"id\":", at + 1))
            ids.push_back(json.substr(at + 5, json.find_first_of(",}", at) - at - 5));
        return ids;
    };
    // The games each search finds are the games export writes.
    for (const std::vector<std::string>& search :
         {std::vector<std::string>{"--opening", "kagetsu"}, {"--opening", "3I"}, {"--game", "renju", "--moves", "h8 h9"},
          {"--pattern", "Renju h8=x h9=o"}, {"--moves", "f1-e2+"}, {"--position", "renju", "--black", "aoki"}}) {
        std::vector<std::string> args{"search", "--db", db, "--json", "--limit", "0"};
        args.insert(args.end(), search.begin(), search.end());
        const CliRun found = run_gounki_args(args);
        REQUIRE(found.status == 0);
        const std::vector<std::string> ids = ids_of(found.out);
        INFO(found.out);
        CHECK(!ids.empty());
        std::vector<std::string> exp{"export", "--db", db, "--json", "-o", dir.file("x.gpn")};
        exp.insert(exp.end(), search.begin(), search.end());
        const CliRun exported = run_gounki_args(exp);
        CHECK(exported.status == 0);
        CHECK(contains(exported.out, "\"games\":" + std::to_string(ids.size())));
        // The summary names the search as search's JSON does, not only the filters.
        for (const char* key : {"\"position\":", "\"pattern\":", "\"opening\":"})
            CHECK(contains(exported.out, key) == contains(found.out, key));
        std::ifstream in(dir.file("x.gpn"));
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        CHECK(count_of(text, "[Result ") == ids.size());
    }
    // A report on the Kagetsu games has those two games; analyze judges them.
    const CliRun report = run_gounki_args({"report", "--quiet", "--db", db, "--opening", "4D", "--format", "md", "-o", "-"});
    CHECK(report.status == 0);
    CHECK(count_of(report.out, "\n## Game ") == 2);
    CHECK(contains(report.out, "Aoki – Berg"));
    CHECK(contains(report.out, "Aoki – Cruz"));
    const CliRun judged = run_gounki_args({"analyze", "--quiet", "--db", db, "--opening", "4D", "--depth", "1", "--json"});
    CHECK(judged.status == 0);
    CHECK(contains(judged.out, "\"judged\":2,"));
    // Delete: two games want --yes; then they are gone and the others stay.
    const CliRun asked = run_gounki_args({"delete", "--db", db, "--opening", "kagetsu"});
    CHECK(asked.status == 1);
    CHECK(contains(asked.err, "2 games would be deleted"));
    CHECK(run_gounki_args({"delete", "--db", db, "--opening", "kagetsu", "--yes"}).status == 0);
    CHECK(contains(run_gounki_args({"search", "--db", db, "--opening", "kagetsu", "--json"}).out, "\"total\":0}"));
    CHECK(contains(run_gounki_args({"search", "--db", db, "--opening", "kosei", "--json"}).out, "\"total\":1}"));

    // Ids and a search together, two searches, or a bad one: usage errors that say so.
    check_error("export --db " + shell_quoted(db) + " 1 --opening 4D -o -", 2, "give game ids or a search");
    check_error("report --db " + shell_quoted(db) + " --opening 4D --moves h8 -o -", 2, "give one of --position (or --moves), --pattern and --opening");
    check_error("analyze --db " + shell_quoted(db) + " --opening Nothing", 2, "'Nothing' names no Renju opening");
    check_error("delete --db " + shell_quoted(db) + " --pattern 'e4=Q'", 2, "bad pattern at character");
    // Their help names the searches among the ways to choose games.
    for (const char* command : {"export", "report", "analyze", "delete"}) {
        INFO(command);
        std::string help; // the lines wrapped as the terminal's width has it, joined
        for (const char c : run_gounki_args({"help", command}).out)
            if (!(std::isspace(static_cast<unsigned char>(c)) && !help.empty() && help.back() == ' '))
                help += std::isspace(static_cast<unsigned char>(c)) ? ' ' : c;
        CHECK(contains(help, "or use filters, a search (--position, --moves, --pattern, --opening) or --all."));
    }
}
