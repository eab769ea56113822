// Correcting a stored collection: editing a game's tags (columns, filters, tree counts, result
// checks), the status filter, and corrections imported in place of stored games (import
// --replace); in the library and through the command line. Deleting games: db_delete_test.cpp.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <cstdio>
#include <map>

#include "db/analysis_store.hpp"
#include "db/record_bridge.hpp"
#include "parser/reader.hpp"

using namespace gounki;
using namespace gounki::db;
using namespace gounki::test;

namespace {

GameFilter white(const std::string& name) {
    GameFilter f;
    f.white = name;
    return f;
}

// A Gomoku game in which Black makes five (h8 i8 j8 k8 l8), with this result written.
std::string gomoku_five(const std::string& result) {
    return "[Game \"Gomoku\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"" + result +
        "\"]\n\n1. h8 h9 2. i8 i9 3. j8 j9 4. k8 k9 5. l8 " + result + "\n\n";
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Editing tags

TEST_CASE("editing a Result moves the game's tree counts and its result filter", "[db][edit][both]") {
    GOUNKI_EACH_BACKEND(backend);
    ClubDatabase f(backend, "edit");
    CHECK(f.start_move("c2-d3").white_wins == 1);
    const auto changes = f.db.edit_tags(f.id(0), {{{"Result", "0-1"}}, {}});
    REQUIRE(changes);
    REQUIRE(changes->size() == 1);
    CHECK((*changes)[0].name == "Result");
    CHECK((*changes)[0].before == "1-0");
    CHECK((*changes)[0].after == "0-1");
    const TreeMove c2d3 = f.start_move("c2-d3");
    CHECK(c2d3.games == 2);
    CHECK(c2d3.white_wins == 0);
    CHECK(c2d3.black_wins == 1);
    CHECK(c2d3.draws == 1);
    // One ply deeper too (the tree keeps plies 0-2).
    const Position one = after(line_of({"c2-d3"}), 1);
    std::map<std::string, std::int64_t> black_wins;
    for (const TreeMove& m : f.db.tree(one).moves) black_wins[move_to_text(one, m.move)] = m.black_wins;
    CHECK(black_wins == std::map<std::string, std::int64_t>{{"f7-e6", 1}, {"b7-a6", 0}});
    GameFilter black_won;
    black_won.result = ResultCode::black_wins;
    CHECK(ids_of(f.db.list_games(black_won, {})) == std::vector<std::int64_t>{f.id(0), f.id(1)});
    CHECK(f.db.game(f.id(0))->summary.result == ResultCode::black_wins);
    // Removing the Result leaves the game unfinished ('*'): counted, won by nobody.
    REQUIRE(f.db.edit_tags(f.id(0), {{}, {"result"}}));
    CHECK(f.start_move("c2-d3").black_wins == 0);
    CHECK(f.start_move("c2-d3").games == 2);
    check_consistent(f.db);
}

TEST_CASE("editing players, event and date changes the filters and the tree's latest game", "[db][edit][both]") {
    GOUNKI_EACH_BACKEND(backend);
    ClubDatabase f(backend, "edit");
    CHECK(f.start_move("c2-d3").latest.id == f.id(0)); // 2020 beats 2019
    REQUIRE(f.db.edit_tags(f.id(0), {{{"White", "Zoe Quist"}, {"event", "Autumn Cup"}, {"Date", "2018.03.04"}}, {}}));
    CHECK(ids_of(f.db.list_games(white("zoe"), {})) == std::vector<std::int64_t>{f.id(0)});
    CHECK(f.db.list_games(white("Ann"), {}).total == 0);
    GameFilter autumn;
    autumn.event = "autumn";
    CHECK(ids_of(f.db.list_games(autumn, {})) == std::vector<std::int64_t>{f.id(0)});
    GameFilter before_2019;
    before_2019.date_to = 20181231;
    CHECK(ids_of(f.db.list_games(before_2019, {})) == std::vector<std::int64_t>{f.id(0)});
    // Now 2018: game 2 (2019) is the latest game of c2-d3, and at ply 1 too.
    CHECK(f.start_move("c2-d3").latest.id == f.id(2));
    // A later date makes it the latest again.
    REQUIRE(f.db.edit_tags(f.id(0), {{{"Date", "2025.??.??"}}, {}}));
    const TreeMove c2d3 = f.start_move("c2-d3");
    CHECK(c2d3.latest.id == f.id(0));
    CHECK(c2d3.latest.date == "2025.??.??");
    const auto g = f.db.game(f.id(0));
    REQUIRE(g);
    CHECK(g->summary.white == "Zoe Quist");
    CHECK(g->summary.black == "Bob");
    CHECK(g->summary.event == "Autumn Cup");
    check_consistent(f.db);
}

TEST_CASE("other tags are added, changed and removed in their order", "[db][edit][both]") {
    GOUNKI_EACH_BACKEND(backend);
    ClubDatabase f(backend, "edit");
    const auto tags = [&] {
        std::vector<std::string> out;
        const auto g = f.db.game(f.id(1));
        REQUIRE(g);
        for (const auto& [name, value] : g->tags) out.push_back(name + "=" + value);
        return out;
    };
    REQUIRE(f.db.edit_tags(f.id(1), {{{"Annotator", "Zed"}, {"TimeControl", "40/7200"}, {"Round", "3"}}, {}}));
    CHECK(tags() ==
          std::vector<std::string>{"Game=Gounki", "Event=Winter Cup", "Date=2021.01.10", "Round=3", "White=Bob", "Black=Cy",
                                   "Result=0-1", "Annotator=Zed", "TimeControl=40/7200"});
    const auto changes = f.db.edit_tags(f.id(1), {{{"Annotator", "Ann"}, {"Round", "3"}}, {"TimeControl"}});
    REQUIRE(changes);
    REQUIRE(changes->size() == 2); // Round was 3 already
    CHECK((*changes)[0].name == "TimeControl");
    CHECK_FALSE((*changes)[0].after);
    CHECK((*changes)[1].before == "Zed");
    CHECK(tags() ==
          std::vector<std::string>{"Game=Gounki", "Event=Winter Cup", "Date=2021.01.10", "Round=3", "White=Bob", "Black=Cy",
                                   "Result=0-1", "Annotator=Ann"});
    // The same values again: nothing to change.
    CHECK(f.db.edit_tags(f.id(1), {{{"Annotator", "Ann"}, {"Game", "Gounki"}}, {}})->empty());
    // A date is stored in the form the readers store it: 2021-01-10 is the same date, no change.
    CHECK(f.db.edit_tags(f.id(1), {{{"Date", "2021-01-10"}}, {}})->empty());
    const auto dated = f.db.edit_tags(f.id(1), {{{"Date", "20210211"}}, {}});
    REQUIRE(dated);
    REQUIRE(dated->size() == 1);
    CHECK((*dated)[0].after == "2021.02.11");
    CHECK(f.db.game(f.id(1))->summary.date == "2021.02.11");
    REQUIRE(f.db.edit_tags(f.id(1), {{{"Date", "2021-03"}}, {}}));
    CHECK(f.db.game(f.id(1))->summary.date == "2021.03.??");
    CHECK_FALSE(f.db.edit_tags(999, {{{"Annotator", "Ann"}}, {}}));
}

TEST_CASE("an edit that cannot be made is refused whole, with nothing written", "[db][edit][both]") {
    GOUNKI_EACH_BACKEND(backend);
    ClubDatabase f(backend, "edit");
    const auto refused = [&](const TagEdit& e, const std::string& why) {
        INFO(why);
        try {
            f.db.edit_tags(f.id(0), e);
            FAIL("not refused");
        } catch (const EditRefused& x) { CHECK(contains(x.what(), why)); }
    };
    // The White change comes first in each edit: it must not stay when the edit is refused.
    refused({{{"White", "Changed"}, {"Annotator", "Zed"}}, {"Site"}}, "it has no Site tag");
    refused({{{"White", "Changed"}}, {"Annotator"}}, "it has no Annotator tag");
    refused({{{"White", "Changed"}, {"Result", "white wins"}}, {}}, "Result must be 1-0, 0-1, 1/2-1/2 or *");
    refused({{{"White", "Changed"}, {"Date", "next week"}}, {}}, "Date must read as YYYY.MM.DD");
    refused({{{"White", "Changed"}, {"Date", "2021-13-01"}}, {}}, "not '2021-13-01'");
    refused({{{"White", "Changed"}, {"Game", "Gomoku"}}, {}}, "the Game tag defines the game");
    refused({{{"White", "Changed"}, {"SetUp", "1"}}, {}}, "replaying");
    refused({{{"White", "Changed"}}, {"Game"}}, "the Game tag defines the game");
    refused({{{"White", "Changed"}, {"white", "Twice"}}, {}}, "named twice");
    refused({{{"White", "Changed"}, {"Bad\"Name", "x"}}, {}}, "is not a tag name");
    // Names the reader would not read back as that tag: letters beyond ASCII, two spaces, a backslash.
    for (const std::string bad : {"\xc3\x9cn\xc3\xaf", "a  b", "x\\y", "end ", "a-b"})
        refused({{{"White", "Changed"}, {bad, "v"}}, {}}, "is not a tag name: a tag name is words of letters");
    refused({{{"White", "Changed"}, {"Note", "two\nlines"}}, {}}, "control character");
    refused({{{"White", "Changed"}, {"Status", "valid"}}, {}}, "Status is gounki's own reading of the game");
    refused({{{"White", "Changed"}}, {"status"}}, "Status is gounki's own reading of the game");
    CHECK(f.db.game(f.id(0))->summary.white == "Ann Smith");
    CHECK(f.db.list_games(white("Changed"), {}).total == 0);
    CHECK(f.start_move("c2-d3").white_wins == 1);
    check_consistent(f.db);
}

TEST_CASE("a Result the final position contradicts is refused; one that settles a contradiction makes the game valid",
          "[db][edit][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    GameDatabase db(test_database(backend, dir, "five"), Access::read_write);
    std::vector<GameInput> inputs;
    for (parser::GameRecord& r : parser::read_records(gomoku_five("0-1") + gomoku_five("1-0"), "five.gpn"))
        inputs.push_back(game_input(std::move(r)));
    const auto r = import(db, inputs);
    REQUIRE(r.size() == 2);
    CHECK(db.game(r[0].game_id)->summary.status == GameStatus::valid);
    REQUIRE(db.game(r[1].game_id)->summary.status == GameStatus::invalid); // 1-0 contradicts Black's five
    try {
        db.edit_tags(r[0].game_id, {{{"Result", "1-0"}}, {}});
        FAIL("a Result against the board was stored");
    } catch (const EditRefused& e) {
        CHECK(contains(e.what(), "a win for Black"));
        CHECK(contains(e.what(), "contradicts"));
    }
    CHECK(db.game(r[0].game_id)->summary.result == ResultCode::black_wins);
    REQUIRE(db.edit_tags(r[0].game_id, {{{"Result", "*"}}, {}})); // unfinished is no contradiction
    // The second game put right: its result diagnostic goes, and it is valid again.
    REQUIRE(db.edit_tags(r[1].game_id, {{{"Result", "0-1"}}, {}}));
    const auto fixed = db.game(r[1].game_id);
    CHECK(fixed->summary.status == GameStatus::valid);
    for (const Diagnostic& d : fixed->diagnostics) CHECK(d.code != "result-contradicts");
    GameFilter invalid;
    invalid.status = GameStatus::invalid;
    CHECK(db.list_games(invalid, {}).total == 0);
    const Tree start = db.tree(AnyPosition::start(GameKind::gomoku));
    REQUIRE(start.moves.size() == 1);
    CHECK(start.moves[0].black_wins == 1);
    CHECK(start.moves[0].white_wins == 0);
    // A Result tag and a closing result that differ (result-mismatch): the one stored confirmed by
    // hand settles it; the tree does not move.
    const auto mismatch = import(db, {game_input(parser::read_records("[Game \"Gomoku\"]\n[Result \"1-0\"]\n\n1. h8 i9 0-1\n",
                                                                       "m.gpn")[0])});
    REQUIRE(mismatch.size() == 1);
    const std::int64_t m = mismatch[0].game_id;
    REQUIRE(db.game(m)->summary.status == GameStatus::invalid);
    const auto confirmed = db.edit_tags(m, {{{"Result", "0-1"}}, {}});
    REQUIRE(confirmed);
    REQUIRE(confirmed->size() == 1);
    CHECK((*confirmed)[0].before == (*confirmed)[0].after);
    CHECK(db.game(m)->summary.status == GameStatus::valid);
    CHECK(db.game(m)->summary.result == ResultCode::black_wins);
    CHECK(db.edit_tags(m, {{{"Result", "0-1"}}, {}})->empty()); // nothing doubted any more: nothing to change
    check_consistent(db);
}

TEST_CASE("gounki edit: changes, refusals, an unknown id, JSON", "[db][edit][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    const std::string db = test_database(backend, dir, "cli");
    write_gpn(dir.file("g.gpn"), {game({"c2-d3", "f7-e6"}, "Ann", "Bob", ResultCode::white_wins, "2020.01.02")});
    std::string text;
    for (const char* result : {"0-1", "1-0"}) text += gomoku_five(result);
    {
        std::FILE* out = std::fopen(dir.file("five.gpn").c_str(), "w");
        REQUIRE(out);
        std::fputs(text.c_str(), out);
        std::fclose(out);
    }
    REQUIRE(run_gounki_args({"import", "--db", db, dir.file("g.gpn"), dir.file("five.gpn")}).status <= 1);

    const CliRun ok = run_gounki_args({"edit", "--db", db, "1", "--tag", "White=Anna", "--tag", "Result=0-1", "--tag",
                                       "Annotator=Zed", "--remove-tag", "Event"});
    CHECK(ok.status == 0);
    CHECK(contains(ok.out, "game 1: White \"Ann\" -> \"Anna\""));
    CHECK(contains(ok.out, "game 1: Annotator \"Zed\" added"));
    CHECK(contains(ok.out, "game 1: Event \"Test event\" removed"));
    const CliRun show = run_gounki_args({"show", "--db", db, "1"});
    CHECK(contains(show.out, "[White \"Anna\"]"));
    CHECK(contains(show.out, "[Result \"0-1\"]"));
    CHECK(contains(show.out, "[Annotator \"Zed\"]"));
    CHECK_FALSE(contains(show.out, "[Event"));
    CHECK(contains(run_gounki_args({"tree", "--db", db, "--json"}).out, "\"black_wins\":1"));

    const CliRun json = run_gounki_args({"edit", "--db", db, "1", "--tag", "Round=2", "--json"});
    CHECK(json.status == 0);
    CHECK(contains(json.out, R"({"changes":[{"after":"2","before":null,"tag":"Round"}],"id":1})"));

    const CliRun contradicts = run_gounki_args({"edit", "--db", db, "2", "--tag", "Result=1-0"});
    CHECK(contradicts.status == 2);
    CHECK(contains(contradicts.err, "a win for Black on the board"));
    CHECK(contains(contradicts.err, "nothing changed"));
    const CliRun defining = run_gounki_args({"edit", "--db", db, "2", "--tag", "Size=19"});
    CHECK(defining.status == 2);
    CHECK(contains(defining.err, "defines the game"));
    const CliRun missing = run_gounki_args({"edit", "--db", db, "99", "--tag", "Round=2"});
    CHECK(missing.status == 2);
    CHECK(contains(missing.err, "no game with id 99"));
    CHECK(run_gounki_args({"edit", "--db", db, "1"}).status == 2); // nothing to change
    CHECK(run_gounki_args({"edit", "--db", db, "1", "--tag", "Round"}).status == 2); // no '='
    CHECK(run_gounki_args({"edit", "--db", dir.file("none.db"), "1", "--tag", "Round=1"}).status == 2);
    CHECK_FALSE(std::filesystem::exists(dir.file("none.db")));
    // Defining tags given as they are already: nothing to change (the default size is not shown).
    const CliRun same = run_gounki_args({"edit", "--db", db, "2", "--tag", "Game=gomoku", "--tag", "Size=15"});
    CHECK(same.status == 0);
    CHECK(contains(same.out, "nothing to change"));

    // The invalid game put right: valid, and out of the invalid games.
    CHECK(contains(run_gounki_args({"games", "--db", db, "--json"}).out, "\"status\":\"invalid\""));
    CHECK(run_gounki_args({"edit", "--db", db, "3", "--tag", "Result=0-1"}).status == 0);
    CHECK_FALSE(contains(run_gounki_args({"games", "--db", db, "--json"}).out, "\"status\":\"invalid\""));
}

// ---------------------------------------------------------------------------------------------
// The status filter

TEST_CASE("--status chooses valid, partial or invalid games on every command that filters", "[db][edit][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    const std::string db = test_database(backend, dir, "status");
    const std::string text = gomoku_five("0-1") + gomoku_five("1-0") +
        "[Game \"Gomoku\"]\n[White \"P\"]\n[Black \"Q\"]\n\n1. h8 h8 2. i8 *\n\n"; // an occupied point: partial
    {
        std::FILE* out = std::fopen(dir.file("s.gpn").c_str(), "w");
        REQUIRE(out);
        std::fputs(text.c_str(), out);
        std::fclose(out);
    }
    REQUIRE(run_gounki_args({"import", "--db", db, dir.file("s.gpn")}).status == 1);

    const CliRun partial = run_gounki_args({"games", "--db", db, "--status", "partial", "--json"});
    CHECK(partial.status == 0);
    CHECK(contains(partial.out, "\"total\":1"));
    CHECK(contains(partial.out, "\"status\":\"partial\""));
    CHECK(contains(partial.out, "\"filter\":{\"status\":\"partial\"}"));
    const CliRun invalid = run_gounki_args({"games", "--db", db, "--status", "Invalid"});
    CHECK(invalid.status == 0);
    CHECK(lines_of(invalid.out).size() == 2);
    CHECK(contains(invalid.out, "(invalid)"));
    CHECK(contains(run_gounki_args({"search", "--db", db, "--status", "valid", "--json"}).out, "\"total\":1"));
    CHECK(contains(run_gounki_args({"search", "--db", db, "--position", "gomoku", "--status", "valid", "--json"}).out,
                   "\"total\":1"));
    const CliRun exported = run_gounki_args({"export", "--db", db, "--status", "invalid", "-o", "-"});
    CHECK(exported.status == 0);
    CHECK(count_of(exported.out, "[Game ") == 1);
    CHECK(contains(exported.out, "[Result \"1-0\"]"));
    const CliRun bad = run_gounki_args({"games", "--db", db, "--status", "broken"});
    CHECK(bad.status == 2);
    CHECK(contains(bad.err, "--status must be valid, partial or invalid"));
    // delete chooses by status too.
    CHECK(run_gounki_args({"delete", "--db", db, "--status", "partial", "--yes"}).status == 0);
    CHECK(contains(run_gounki_args({"games", "--db", db, "--json"}).out, "\"total\":2"));
}

// ---------------------------------------------------------------------------------------------
// Importing corrections (import --replace)

namespace {

// Random games of at least 12 plies, each from `file` at line 10 * (i + 1).
std::vector<GameInput> long_games(int n, std::uint64_t seed, const std::string& file) {
    std::vector<GameInput> out;
    for (GameInput& g : random_games(n * 3, seed, 30))
        if (g.moves.size() >= 12 && int(out.size()) < n) {
            g.source_file = file;
            g.source_line = 10 * int(out.size() + 1);
            out.push_back(std::move(g));
        }
    return out;
}

void set_tag(GameInput& g, const std::string& name, const std::string& value) {
    for (auto& [n, v] : g.tags)
        if (n == name) v = value;
}

} // namespace

TEST_CASE("import --replace puts a corrected game in place of the stored one, same id, judgements gone", "[db][edit][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    GameDatabase db(test_database(backend, dir, "replace"), Access::read_write);
    const std::string file = dir.file("club.gpn");
    const auto games = long_games(3, 21, file);
    REQUIRE(games.size() == 3);
    const auto first = import(db, games);
    const std::int64_t second_id = first[1].game_id;
    AnalysisStore(db.sql()).save(second_id, "depth=1", analysis::GameJudgement{});
    const Position old_end = after(games[1].moves, games[1].moves.size());
    REQUIRE(db.search_position(old_end, {}, {}).total == 1);

    // The same file again: game 1 unchanged, game 2 corrected (a move list cut short, another
    // event), and a new game.
    std::vector<GameInput> again = games;
    again[1].moves.resize(8);
    set_tag(again[1], "Event", "Corrected event");
    again.push_back(long_games(1, 22, file)[0]);
    again[3].source_line = 40;
    ImportOptions replace;
    replace.replace = true;
    const auto second = import(db, again, replace);
    REQUIRE(second.size() == 4);
    CHECK(second[0].action == ImportAction::already_imported);
    CHECK(second[1].action == ImportAction::replaced);
    CHECK(second[1].game_id == second_id);
    CHECK(second[2].action == ImportAction::already_imported);
    CHECK(second[3].action == ImportAction::stored);
    CHECK(second[3].game_id > first[2].game_id);

    const auto stored = db.game(second_id);
    REQUIRE(stored);
    CHECK(stored->moves == again[1].moves);
    CHECK(stored->summary.event == "Corrected event");
    CHECK(db.list_games({}, {}).total == 4);
    CHECK(scalar(db, "SELECT count(*) FROM analyses") == 0);
    CHECK(db.search_position(old_end, {}, {}).total == 0);
    CHECK(ids_of(db.search_position(after(again[1].moves, 8), {}, {})) == std::vector<std::int64_t>{second_id});
    check_consistent(db);

    // Another file: matched by White, Black, Date and the first 10 plies.
    GameInput elsewhere = games[0];
    elsewhere.source_file = dir.file("other.gpn");
    elsewhere.source_line = 1;
    elsewhere.moves.resize(11);
    elsewhere.result = ResultCode::draw;
    set_tag(elsewhere, "Result", "1/2-1/2");
    GameInput other_opening = games[2];
    other_opening.source_file = dir.file("other.gpn");
    other_opening.source_line = 20;
    other_opening.moves.resize(9); // fewer than 10 plies: its 9 must match, and do
    const auto third = import(db, {elsewhere, other_opening}, replace);
    CHECK(third[0].action == ImportAction::replaced);
    CHECK(third[0].game_id == first[0].game_id);
    CHECK(third[1].action == ImportAction::replaced);
    CHECK(db.game(first[0].game_id)->summary.result == ResultCode::draw);
    check_consistent(db);

    // Two stored games match: refused, nothing replaced.
    GameInput twin = games[0];
    twin.source_file = dir.file("twin.gpn");
    import(db, {twin}, ImportOptions{.keep_duplicates = true}); // stored beside the replaced one
    GameInput ambiguous = games[0];
    ambiguous.source_file = dir.file("third.gpn");
    const auto fourth = import(db, {ambiguous}, replace);
    CHECK(fourth[0].action == ImportAction::rejected);
    CHECK(contains(fourth[0].reason, "matches 2 stored games"));
    CHECK(db.list_games({}, {}).total == 5);
    check_consistent(db);
}

TEST_CASE("gounki import --replace reports the games replaced, in text and JSON", "[db][edit][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    const std::string db = test_database(backend, dir, "r");
    auto games = random_games(4, 5, 20);
    import_games(db, dir / "club.gpn", games);
    set_tag(games[2], "Round", "final");
    write_gpn(dir.file("club.gpn"), games);
    const CliRun without = run_gounki_args({"import", "--db", db, "--json", dir.file("club.gpn")});
    // Same file, line, players, moves and result: the corrected Round is skipped without --replace.
    CHECK(contains(without.out, "\"already_imported\":4"));
    const CliRun text = run_gounki_args({"import", "--db", db, "--replace", dir.file("club.gpn")});
    CHECK(text.status == 0);
    CHECK(contains(text.out, "replaced game 3"));
    CHECK(contains(text.err, "4 games read: 1 replaced, 0 stored"));
    CHECK(contains(run_gounki_args({"show", "--db", db, "3"}).out, "[Round \"final\"]"));
    set_tag(games[0], "Site", "Lyon");
    write_gpn(dir.file("club.gpn"), games);
    const CliRun json = run_gounki_args({"import", "--db", db, "--replace", "--json", dir.file("club.gpn")});
    CHECK(json.status == 0);
    CHECK(contains(json.out, "\"action\":\"replaced\""));
    CHECK(contains(json.out, "\"id\":1"));
    CHECK(contains(json.out, "\"replaced\":1"));
    CHECK(contains(run_gounki_args({"games", "--db", db, "--json"}).out, "\"total\":4"));

    // Standard input is no place: other games read from it at the same lines replace nothing.
    write_gpn(dir.file("other.gpn"), random_games(2, 99, 20));
    const std::string stdin_db = test_database(backend, dir, "stdin");
    REQUIRE(run_shell(gounki_command() + " import --db " + shell_quoted(stdin_db) + " - < " + shell_quoted(dir.file("club.gpn")))
                .status == 0);
    const CliRun piped = run_shell(gounki_command() + " import --replace --db " + shell_quoted(stdin_db) + " - < " +
                                   shell_quoted(dir.file("other.gpn")));
    CHECK(piped.status == 0);
    CHECK(contains(piped.err, "0 replaced, 2 stored"));
}

TEST_CASE("a game edited since its import is not stored again when its file is imported again", "[db][edit][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    const std::string db = test_database(backend, dir, "edited");
    auto games = random_games(3, 7, 20);
    import_games(db, dir / "club.gpn", games);
    REQUIRE(run_gounki_args({"edit", "--db", db, "2", "--tag", "White=Corrected name", "--tag", "Result=*"}).status == 0);
    // The same file again, a game added to it: the edited game is the file's record, already
    // imported; what differs is named, with the way to take the file's version.
    games.push_back(random_games(1, 8, 20)[0]);
    write_gpn(dir.file("club.gpn"), games);
    const CliRun again = run_gounki_args({"import", "--db", db, dir.file("club.gpn")});
    INFO(again.out << again.err);
    CHECK(again.status == 0);
    CHECK(contains(again.err, "4 games read: 1 stored (0 broken), 0 duplicates, 3 already imported"));
    CHECK(contains(again.out, "already imported as game 2, edited since or changed in the file: White 'Corrected name', the "
                              "record's '" + games[1].tags.at(4).second + "'; Result '*', the record's '"));
    CHECK(contains(again.out, "--replace"));
    CHECK(contains(run_gounki_args({"games", "--db", db, "--json"}).out, "\"total\":4"));
    const CliRun json = run_gounki_args({"import", "--db", db, "--json", dir.file("club.gpn")});
    CHECK(contains(json.out, "\"action\":\"already imported\""));
    CHECK(contains(json.out, "\"reason\":\"edited since or changed in the file: White"));
    CHECK(contains(json.out, "\"already_imported\":4"));
    // A copy of the file elsewhere is another place: its game 2 is stored, flagged as having
    // game 2's moves.
    write_gpn(dir.file("copy.gpn"), games);
    const CliRun copy = run_gounki_args({"import", "--db", db, dir.file("copy.gpn")});
    CHECK(contains(copy.err, "4 games read: 1 stored"));
    // Forty copies of one game, kept: a group of games ending alike, looked up by their moves.
    const std::string many = test_database(backend, dir, "many");
    const std::vector<GameInput> copies(40, random_games(1, 9, 20)[0]);
    write_gpn(dir.file("copies.gpn"), copies);
    REQUIRE(contains(run_gounki_args({"import", "--db", many, "--keep-duplicates", dir.file("copies.gpn")}).err,
                     "40 games read: 40 stored"));
    REQUIRE(run_gounki_args({"edit", "--db", many, "10", "--tag", "Black=Someone else"}).status == 0);
    const CliRun copies_again = run_gounki_args({"import", "--db", many, dir.file("copies.gpn")});
    INFO(copies_again.out << copies_again.err);
    CHECK(contains(copies_again.err, "40 games read: 0 stored (0 broken), 0 duplicates, 40 already imported"));
    CHECK(contains(copies_again.out, "already imported as game 10, edited since or changed in the file: Black 'Someone else'"));
    // --replace takes the file's version.
    const CliRun replace = run_gounki_args({"import", "--db", db, "--replace", dir.file("club.gpn")});
    CHECK(contains(replace.out, "replaced game 2"));
    CHECK_FALSE(contains(run_gounki_args({"show", "--db", db, "2"}).out, "Corrected name"));
}
