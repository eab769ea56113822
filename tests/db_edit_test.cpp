// Correcting a stored collection: editing a game's tags (columns, filters, tree counts, result
// checks), deleting many games at once, and the status filter; in the library and through the
// command line.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <array>
#include <cstdio>
#include <map>
#include <random>
#include <tuple>

#include "db/analysis_store.hpp"
#include "db/record_bridge.hpp"
#include "parser/reader.hpp"

using namespace gounki;
using namespace gounki::db;
using namespace gounki::test;

namespace {

// Four games, the first three from the start with c2-d3 or g2-f3.
struct Fixture {
    TempDir dir;
    GameDatabase db;
    std::vector<ImportReport> r;
    explicit Fixture(const std::string& backend) : db(test_database(backend, dir, "edit"), Access::read_write) {
        r = import(db, club_games());
    }
    std::int64_t id(int i) const { return r[std::size_t(i)].game_id; }
    // The tree row of `move` from the start position.
    TreeMove start_move(const std::string& move) {
        for (const TreeMove& m : db.tree(Position::start()).moves)
            if (move_to_text(Position::start(), m.move) == move) return m;
        return {};
    }
};

std::vector<std::int64_t> ids_of(const GameList& l) {
    std::vector<std::int64_t> ids;
    for (const GameSummary& g : l.games) ids.push_back(g.id);
    return ids;
}

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
    Fixture f(backend);
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
    Fixture f(backend);
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
    Fixture f(backend);
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
    CHECK_FALSE(f.db.edit_tags(999, {{{"Annotator", "Ann"}}, {}}));
}

TEST_CASE("an edit that cannot be made is refused whole, with nothing written", "[db][edit][both]") {
    GOUNKI_EACH_BACKEND(backend);
    Fixture f(backend);
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
    refused({{{"White", "Changed"}, {"Game", "Gomoku"}}, {}}, "the Game tag defines the game");
    refused({{{"White", "Changed"}, {"SetUp", "1"}}, {}}, "replaying");
    refused({{{"White", "Changed"}}, {"Game"}}, "the Game tag defines the game");
    refused({{{"White", "Changed"}, {"white", "Twice"}}, {}}, "named twice");
    refused({{{"White", "Changed"}, {"Bad\"Name", "x"}}, {}}, "is not a tag name");
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
// Deleting many games

TEST_CASE("deleting several games takes them out of the index, the tree and the judgements, all or none", "[db][edit][both]") {
    GOUNKI_EACH_BACKEND(backend);
    Fixture f(backend);
    // A game that stays: deleting every game takes another way (the tables emptied at once).
    const std::int64_t kept = import(f.db, {game({"a2-b3"}, "Keep", "Me", ResultCode::unknown)})[0].game_id;
    AnalysisStore store(f.db.sql());
    analysis::GameJudgement judged;
    store.save(f.id(0), "depth=1", judged);
    store.save(f.id(1), "depth=1", judged);
    REQUIRE(scalar(f.db, "SELECT count(*) FROM analyses") == 2);

    const std::vector<std::int64_t> ids = {f.id(0), f.id(2), 999};
    CHECK(f.db.delete_games(ids) == 2);
    CHECK(ids_of(f.db.list_games({}, {})) == std::vector<std::int64_t>{f.id(1), f.id(3), kept});
    const Position reached = after(line_of({"c2-d3", "f7-e6", "g2-f3", "b7-a6"}), 4);
    CHECK(ids_of(f.db.search_position(reached, {}, {})) == std::vector<std::int64_t>{f.id(1)});
    CHECK(f.start_move("c2-d3").games == 0);
    CHECK(f.start_move("g2-f3").games == 1);
    CHECK(f.db.tree(Position::start()).games == 3); // g2-f3, e2-f3 and a2-b3
    CHECK(scalar(f.db, "SELECT count(*) FROM analyses") == 1);
    CHECK(scalar(f.db, "SELECT count(*) FROM analyses WHERE game_id = " + std::to_string(f.id(1))) == 1);
    check_consistent(f.db);

    // A damaged game among them: the error undoes the deletions before it.
    const std::vector<std::uint8_t> damaged{0xff};
    Statement(f.db.sql(), "UPDATE games SET moves = ?1 WHERE id = ?2").bind_blob(1, damaged).bind(2, f.id(3)).run();
    const std::vector<std::int64_t> with_damaged = {f.id(1), f.id(3)};
    CHECK_THROWS_AS(f.db.delete_games(with_damaged), DbError);
    CHECK(f.db.game(f.id(1)));
    CHECK(f.start_move("g2-f3").games == 1);
    CHECK(scalar(f.db, "SELECT count(*) FROM analyses") == 1);
}

namespace {

// The games of the subset tests: random games of up to 14 plies (so they share openings), with some
// stored twice over (identical games) and some again under another result (the same moves).
std::vector<GameInput> shared_opening_games() {
    std::vector<GameInput> games = random_games(1500, 7, 14);
    for (int i = 0; i < 60; ++i) games.push_back(games[std::size_t(i * 7)]);
    for (int i = 0; i < 30; ++i) {
        GameInput again = games[std::size_t(i * 11)];
        again.result = again.result == ResultCode::draw ? ResultCode::unknown : ResultCode::draw;
        for (auto& [name, value] : again.tags)
            if (name == "Result") value = std::string(result_text(again.result));
        games.push_back(again);
    }
    return games;
}

// Maps the game ids of one database to another's (identity when empty).
struct IdMap {
    std::map<std::int64_t, std::int64_t> to;
    std::int64_t operator()(std::int64_t id) const {
        if (to.empty() || id == 0) return id;
        const auto it = to.find(id);
        return it == to.end() ? -id : it->second; // a game that should have gone shows as negative
    }
};

// The whole opening tree: (key, move, games, white wins, black wins, draws, latest game, its date).
std::vector<std::array<std::int64_t, 8>> tree_table(GameDatabase& db, const IdMap& map) {
    std::vector<std::array<std::int64_t, 8>> rows;
    Statement st(db.sql(), "SELECT key, move, games, white_wins, black_wins, draws, latest_game, latest_date FROM tree_stats");
    while (st.step()) {
        std::array<std::int64_t, 8> r{};
        for (int i = 0; i < 8; ++i) r[std::size_t(i)] = st.get_int64(i);
        r[6] = map(r[6]);
        rows.push_back(r);
    }
    std::sort(rows.begin(), rows.end());
    return rows;
}

// Every entry of the position index, as (key, game, ply), whatever its runs and blocks.
std::vector<std::tuple<std::int64_t, std::int64_t, std::uint32_t>> index_table(GameDatabase& db, const IdMap& map) {
    std::vector<std::tuple<std::int64_t, std::int64_t, std::uint32_t>> out;
    Statement st(db.sql(), "SELECT first_key, data FROM position_blocks");
    while (st.step())
        REQUIRE(decode_block(std::uint64_t(st.get_int64(0)), st.get_blob(1),
                             [&](const IndexEntry& e) { out.emplace_back(std::int64_t(e.key), map(e.game), e.ply); }));
    std::sort(out.begin(), out.end());
    return out;
}

// The import's notes naming other games, with both ids mapped.
std::vector<std::pair<std::int64_t, std::string>> prefix_notes(GameDatabase& db, const IdMap& map) {
    std::vector<std::pair<std::int64_t, std::string>> out;
    Statement st(db.sql(), "SELECT game_id, message FROM diagnostics WHERE code = 'prefix'");
    while (st.step()) {
        std::string message = st.get_string(1);
        const std::size_t at = message.find("game ") + 5, end = message.find_first_not_of("0123456789", at);
        message.replace(at, end - at, std::to_string(map(std::stoll(message.substr(at, end - at)))));
        out.emplace_back(map(st.get_int64(0)), message);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::int64_t> judged_games(GameDatabase& db, const IdMap& map) {
    std::vector<std::int64_t> out;
    Statement st(db.sql(), "SELECT game_id FROM analyses");
    while (st.step()) out.push_back(map(st.get_int64(0)));
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::pair<std::int64_t, std::int64_t>> tree_answer(GameDatabase& db, const Position& pos, const IdMap& map) {
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    for (const TreeMove& m : db.tree(pos).moves) {
        out.emplace_back(std::int64_t(stored_raw(m.move)), m.games * 1000000 + m.white_wins * 10000 + m.black_wins * 100 + m.draws);
        out.emplace_back(-std::int64_t(stored_raw(m.move)), map(m.latest.id));
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST_CASE("deleting any subset leaves the index, tree, notes and judgements of a database of only the games that stay",
          "[db][edit][both]") {
    GOUNKI_EACH_BACKEND(backend);
    const std::vector<GameInput> games = shared_opening_games();
    ImportOptions options;
    options.keep_duplicates = true;
    options.batch_games = 400; // several index runs
    const std::size_t n = games.size();
    std::mt19937_64 rng(11);
    // Which games go (indexes into `games`): one game that has an identical twin, three at random,
    // every game opening with the most played first move, half at random, all but one.
    std::map<std::int64_t, int> first_moves;
    for (const GameInput& g : games)
        if (!g.moves.empty()) ++first_moves[std::int64_t(stored_raw(g.moves[0]))];
    const std::int64_t popular =
        std::max_element(first_moves.begin(), first_moves.end(), [](auto& a, auto& b) { return a.second < b.second; })->first;
    std::vector<std::pair<std::string, std::vector<bool>>> subsets;
    subsets.push_back({"one game with a twin", std::vector<bool>(n, false)});
    subsets.back().second[7] = true;
    subsets.push_back({"three games", std::vector<bool>(n, false)});
    for (int i = 0; i < 3; ++i) subsets.back().second[std::size_t(rng() % n)] = true;
    subsets.push_back({"the most played opening", std::vector<bool>(n, false)});
    for (std::size_t i = 0; i < n; ++i)
        subsets.back().second[i] = !games[i].moves.empty() && std::int64_t(stored_raw(games[i].moves[0])) == popular;
    subsets.push_back({"half", std::vector<bool>(n, false)});
    for (std::size_t i = 0; i < n; ++i) subsets.back().second[i] = rng() % 2;
    subsets.push_back({"all but one", std::vector<bool>(n, true)});
    subsets.back().second[n / 2] = false;

    int round = 0;
    for (const auto& [name, gone] : subsets) {
        INFO("deleting " << name);
        TempDir dir;
        GameDatabase a(test_database(backend, dir, "whole" + std::to_string(round)), Access::read_write);
        GameDatabase b(test_database(backend, dir, "kept" + std::to_string(round)), Access::read_write);
        ++round;
        const std::vector<ImportReport> ra = import(a, games, options);
        REQUIRE(ra.size() == n);
        std::vector<GameInput> kept;
        std::vector<std::int64_t> doomed, kept_ids;
        for (std::size_t i = 0; i < n; ++i) {
            REQUIRE(ra[i].game_id > 0);
            if (gone[i]) doomed.push_back(ra[i].game_id);
            else {
                kept.push_back(games[i]);
                kept_ids.push_back(ra[i].game_id);
            }
        }
        const std::vector<ImportReport> rb = import(b, kept, options);
        REQUIRE(rb.size() == kept.size());
        IdMap map;
        for (std::size_t i = 0; i < kept.size(); ++i) map.to[kept_ids[i]] = rb[i].game_id;
        AnalysisStore judgements_a(a.sql()), judgements_b(b.sql());
        const analysis::GameJudgement judged;
        for (const ImportReport& r : ra) judgements_a.save(r.game_id, "depth=1", judged);
        for (const ImportReport& r : rb) judgements_b.save(r.game_id, "depth=1", judged);

        CHECK(a.delete_games(doomed) == std::int64_t(doomed.size()));
        check_consistent(a);
        CHECK(tree_table(a, map) == tree_table(b, {}));
        CHECK(index_table(a, map) == index_table(b, {}));
        CHECK(prefix_notes(a, map) == prefix_notes(b, {}));
        CHECK(judged_games(a, map) == judged_games(b, {}));
        CHECK(scalar(a, "SELECT sum(entries) FROM position_runs") == scalar(b, "SELECT sum(entries) FROM position_runs"));
        // The answers themselves: searches and trees (deeper ones come from the index) over the first
        // plies of games that stayed and went.
        for (std::size_t i = 0; i < n; i += 97) {
            Position pos = Position::start();
            UndoRecord undo;
            for (std::size_t ply = 0; ply <= std::min<std::size_t>(games[i].moves.size(), 5); ++ply) {
                std::vector<std::int64_t> found_a, found_b;
                for (const GameSummary& g : a.search_position(pos, {}, {}).games) found_a.push_back(map(g.id));
                for (const GameSummary& g : b.search_position(pos, {}, {}).games) found_b.push_back(g.id);
                std::sort(found_a.begin(), found_a.end());
                std::sort(found_b.begin(), found_b.end());
                CHECK(found_a == found_b);
                CHECK(tree_answer(a, pos, map) == tree_answer(b, pos, {}));
                if (ply < games[i].moves.size()) pos.do_move(games[i].moves[ply], undo);
            }
        }
    }
}

TEST_CASE("a delete that fails on its last step leaves the index, the tree and the games as they were", "[db][edit][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    GameDatabase db(test_database(backend, dir, "failing"), Access::read_write);
    ImportOptions options;
    options.keep_duplicates = true;
    options.batch_games = 400;
    const std::vector<ImportReport> r = import(db, shared_opening_games(), options);
    AnalysisStore store(db.sql());
    for (const ImportReport& g : r) store.save(g.game_id, "depth=1", analysis::GameJudgement{});
    const auto tree = tree_table(db, {});
    const auto index = index_table(db, {});
    const auto notes = prefix_notes(db, {});
    // Games go last (after the index and the tree): a trigger makes that step fail.
    std::vector<std::int64_t> doomed;
    for (std::size_t i = 0; i < r.size(); i += 2) doomed.push_back(r[i].game_id);
    const std::string last = std::to_string(doomed.back());
    if (on_postgres(db.sql().path()))
        db.sql().exec("CREATE FUNCTION refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF OLD.id = " + last +
                      " THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN OLD; END $$; CREATE TRIGGER refuse_delete "
                      "BEFORE DELETE ON games FOR EACH ROW EXECUTE FUNCTION refuse_delete()");
    else
        db.sql().exec("CREATE TRIGGER refuse_delete BEFORE DELETE ON games WHEN old.id = " + last +
                      " BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
    CHECK_THROWS_AS(db.delete_games(doomed), DbError);
    CHECK(scalar(db, "SELECT count(*) FROM games") == std::int64_t(r.size()));
    CHECK(tree_table(db, {}) == tree);
    CHECK(index_table(db, {}) == index);
    CHECK(prefix_notes(db, {}) == notes);
    CHECK(scalar(db, "SELECT count(*) FROM analyses") == std::int64_t(r.size()));
    check_consistent(db);
    // Without the failure the same delete goes through.
    db.sql().exec("DROP TRIGGER refuse_delete" + std::string(on_postgres(db.sql().path()) ? " ON games" : ""));
    CHECK(db.delete_games(doomed) == std::int64_t(doomed.size()));
    check_consistent(db);
}

TEST_CASE("gounki delete takes ids, ranges and filters, and asks for --yes before deleting more than one", "[db][edit][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    const std::string db = test_database(backend, dir, "del");
    const auto games = random_games(30, 8, 20);
    import_games(db, dir / "g.gpn", games);
    const auto total = [&] {
        GameDatabase check(db, Access::read_only);
        return check.list_games({}, {}).total;
    };

    const CliRun ask = run_gounki_args({"delete", "--db", db, "3-7"});
    CHECK(ask.status == 1);
    CHECK(contains(ask.err, "5 games would be deleted (ids 3-7)"));
    CHECK(contains(ask.err, "--yes"));
    CHECK(lines_of(ask.out).size() == 6); // the header and the five games
    CHECK(total() == 30);
    const CliRun ask_json = run_gounki_args({"delete", "--db", db, "--all", "--json"});
    CHECK(ask_json.status == 1);
    CHECK(contains(ask_json.out, "\"would_delete\":30"));
    CHECK(total() == 30);

    const Position ninth = after(games[8].moves, games[8].moves.size());
    CHECK(contains(run_gounki_args({"search", "--db", db, "--position", ninth.to_text(), "--json"}).out, "\"id\":9"));
    const CliRun many = run_gounki_args({"delete", "--db", db, "3-7", "9", "5", "--yes", "--json"});
    CHECK(many.status == 0);
    CHECK(many.out == "{\"deleted\":6,\"ids\":[3,4,5,6,7,9]}\n");
    CHECK(total() == 24);
    CHECK_FALSE(contains(run_gounki_args({"search", "--db", db, "--position", ninth.to_text(), "--json"}).out, "\"id\":9"));

    // Ids and filters together: only the games the filters keep.
    GameDatabase before(db, Access::read_only);
    GameFilter player1 = white("Player 1");
    player1.id_from = 10;
    player1.id_to = 20;
    const auto expected = ids_of(before.list_games(player1, {}));
    REQUIRE_FALSE(expected.empty());
    const CliRun filtered = run_gounki_args({"delete", "--db", db, "10-20", "--white", "Player 1", "--yes"});
    CHECK(filtered.status == 0);
    CHECK(
        contains(filtered.out,
                 expected.size() == 1 ? std::string("deleted game ") : "deleted " + std::to_string(expected.size()) + " games"));
    CHECK(before.list_games(player1, {}).total == 0);
    CHECK(total() == 24 - std::int64_t(expected.size()));

    // One game needs no --yes; a gone one is an error; nothing chosen is a usage error.
    CHECK(run_gounki_args({"delete", "--db", db, "8"}).out == "deleted game 8\n");
    const CliRun gone = run_gounki_args({"delete", "--db", db, "8"});
    CHECK(gone.status == 2);
    CHECK(contains(gone.err, "no game 8"));
    CHECK(run_gounki_args({"delete", "--db", db}).status == 2);
    CHECK(run_gounki_args({"delete", "--db", db, "2-x"}).status == 2);
    // With --yes only the ids are read: a range of no game is still an error, and one whose games
    // the filters leave out deletes nothing.
    const CliRun empty_range = run_gounki_args({"delete", "--db", db, "500-600", "--yes"});
    CHECK(empty_range.status == 2);
    CHECK(contains(empty_range.err, "no game from 500 to 600"));
    const std::int64_t before_none = total();
    const CliRun none = run_gounki_args({"delete", "--db", db, "9-12", "--white", "Nobody at all", "--yes", "--json"});
    CHECK(none.status == 0);
    CHECK(none.out == "{\"deleted\":0,\"ids\":[]}\n");
    CHECK(total() == before_none);
    CHECK(run_gounki_args({"delete", "--db", dir.file("none.db"), "1"}).status == 2);
    CHECK_FALSE(std::filesystem::exists(dir.file("none.db")));

    const CliRun all = run_gounki_args({"delete", "--db", db, "--all", "--yes"});
    CHECK(all.status == 0);
    CHECK(total() == 0);
    GameDatabase empty(db, Access::read_write);
    check_consistent(empty);
    CHECK(scalar(empty, "SELECT count(*) FROM tree_stats") == 0);
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
