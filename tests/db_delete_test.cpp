// Deleting stored games, many at once: the index, the opening tree, the import's notes and the
// judgements are those of a database of only the games that stay, all or nothing; `gounki delete`.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <array>
#include <map>
#include <random>
#include <tuple>

#include "db/analysis_store.hpp"

using namespace gounki;
using namespace gounki::db;
using namespace gounki::test;

TEST_CASE("deleting several games takes them out of the index, the tree and the judgements, all or none", "[db][edit][both]") {
    GOUNKI_EACH_BACKEND(backend);
    ClubDatabase f(backend, "delete");
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

TEST_CASE("a judgement of a game deleted while it was judged is not stored, and fails nothing", "[db][edit][both]") {
    GOUNKI_EACH_BACKEND(backend);
    ClubDatabase f(backend, "judged-deleted");
    CHECK(f.db.delete_game(f.id(0)));
    AnalysisStore store(f.db.sql());
    Transaction tx(f.db.sql(), TransactionKind::immediate);
    CHECK_FALSE(store.save(f.id(0), "depth=1", analysis::GameJudgement{}));
    CHECK(store.save(f.id(1), "depth=1", analysis::GameJudgement{}));
    tx.commit();
    CHECK(scalar(f.db, "SELECT count(*) FROM analyses") == 1);
    CHECK(store.load(f.id(1)));
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
        out.emplace_back(std::int64_t(stored_raw(m.move)),
                         m.games * 1000000 + m.white_wins * 10000 + m.black_wins * 100 + m.draws);
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
    GameFilter player1;
    player1.white = "Player 1";
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
