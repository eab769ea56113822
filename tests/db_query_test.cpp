// The game database's queries: game lists, exact positions (Gounki and the stone games), notes
// kept with a game, patterns, the opening tree, one game, deleting.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <map>
#include <random>
#include <set>

#include "core/stones/symmetry.hpp"

#include "db/pattern/gounki.hpp"
#include "db/record_bridge.hpp"
#include "parser/reader.hpp"
#include "parser/writer.hpp"

using namespace gounki;
using namespace gounki::db;
using namespace gounki::test;
namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// Queries

namespace {

// Four games: two reach the same position by different move orders.
struct Fixture : ClubDatabase {
    std::vector<Move> a_moves = line_of({"c2-d3", "f7-e6", "g2-f3", "b7-a6"});
    explicit Fixture(const std::string& backend) : ClubDatabase(backend, "q") {}
};

} // namespace

// The count is kept between calls on SQLite (PostgreSQL counts each time).
TEST_CASE("the count of every game follows imports and deletions of any connection", "[db]") {
    Fixture f("sqlite");
    CHECK(f.db.list_games({}, {1, 0}).total == 4);
    CHECK(f.db.list_games({}, {1, 0}).total == 4); // kept
    {
        GameDatabase other(f.dir.file("q.db"), Access::read_write); // another connection adds games
        import(other, random_games(4, 7, 20));
    }
    CHECK(f.db.list_games({}, {1, 0}).total == 8);
    GameFilter by_white;
    by_white.white = "ann";
    CHECK(f.db.list_games(by_white, {}).total == 1); // filtered lists are counted each time
    CHECK(f.db.delete_game(f.id(0))); // this connection deletes one
    CHECK(f.db.list_games({}, {1, 0}).total == 7);
    CHECK(f.db.list_games({}, {}).games.size() == 7);
}

TEST_CASE("games are listed with tag filters and paging", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    Fixture f(backend);
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

TEST_CASE("exact position search finds a position whatever the move order, with filters and paging", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    Fixture f(backend);
    const Position pos = after(f.a_moves, 4);
    const GameList all = f.db.search_position(pos, {}, {});
    CHECK(ids_of(all) == std::vector<std::int64_t>{f.id(0), f.id(1)});
    CHECK(all.games[0].ply == 4);
    CHECK(all.games[1].ply == 4);
    CHECK(all.games[0].white == "Ann Smith");
    CHECK(all.games[0].date == "2020.05.01");
    CHECK(all.games[0].result == ResultCode::white_wins);

    GameFilter filter;
    filter.result = ResultCode::black_wins;
    CHECK(ids_of(f.db.search_position(pos, filter, {})) == std::vector<std::int64_t>{f.id(1)});
    CHECK(f.db.search_position(pos, {}, {1, 1}).games.size() == 1);
    CHECK(f.db.search_position(pos, {}, {1, 1}).total == 2);

    CHECK(f.db.search_position(Position::start(), {}, {}).total == 4);
    CHECK(f.db.search_position(after(f.a_moves, 1), {}, {}).total == 2); // games 0 and 2
    // The same board with the other side to move is another position.
    Position other = pos;
    other.set_side_to_move(Color::black);
    CHECK(f.db.search_position(other, {}, {}).total == 0);
    // The game kind is part of the key.
    CHECK(f.db.search_position(AnyPosition::start(GameKind::gomoku), {}, {}).total == 0);
}

TEST_CASE("Gomoku and Ninuki games are stored with their rules, found by position, in the tree, and deleted", "[db][stones][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    GameDatabase db(test_database(backend, dir, "stones"), Access::read_write);
    const std::string text =
        "[Game \"Gomoku\"]\n[White \"W1\"]\n[Black \"B1\"]\n[Date \"2026.01.02\"]\n\n1. h8 h9 2. i8 i9 3. j8 j9 4. k8 k9 5. l8 "
        "0-1\n\n"
        "[Game \"Gomoku\"]\n[White \"W2\"]\n[Black \"B2\"]\n[Date \"2026.02.03\"]\n\n1. i8 h9 2. h8 i9 3. a1 *\n\n"
        "[Game \"Gomoku\"]\n[Size \"19\"]\n[White \"W3\"]\n[Black \"B3\"]\n\n1. h8 h9 2. i8 *\n\n"
        "[Game \"Ninuki\"]\n[Rules \"no-endgame-capture\"]\n[White \"W4\"]\n[Black \"B4\"]\n\n1. j10 k10 2. a1 l10 3. m10 k10 "
        "*\n";
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
    stones::StonePosition nin(stored4->start.as_stones());
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
    CHECK(again[0].start.as_stones() == g4->start.as_stones());

    // Deleting takes the game out of the index and the tree.
    CHECK(db.delete_game(reports[0].game_id));
    CHECK(ids_of(db.search_position(pos, {}, {})) == std::vector<std::int64_t>{reports[1].game_id});
    CHECK(db.tree(stones::StonePosition(stones::Rules::defaults(GameKind::gomoku))).games == 1);
    check_consistent(db);
}

TEST_CASE("comments, NAGs and variations come back with the game they were imported with", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    GameDatabase db(test_database(backend, dir, "notes"), Access::read_write);
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

TEST_CASE("pattern search tests every position of every game, with filters", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    Fixture f(backend);
    const auto search = [&](const std::string& text, const GameFilter& filter = {}) {
        return f.db.search_pattern(std::get<Pattern>(Pattern::parse(text)), filter, {});
    };
    const GameList d3 = search("d3=R e6=r");
    CHECK(ids_of(d3) == std::vector<std::int64_t>{f.id(0), f.id(1)});
    CHECK(d3.games[0].ply == 2);
    CHECK(d3.games[1].ply == 4);
    CHECK(search("d3=R e6=r",
                 [] {
                     GameFilter g;
                     g.white = "bob";
                     return g;
                 }())
              .total == 1);
    CHECK(search("a6=r c2=S").total == 1); // b2-c2 joins nothing: c2 was emptied by c2-d3
    CHECK(search("Wp=16").total == 4);
    CHECK(search("#[Wn2]>=1").total == 0);
    CHECK(search("b").total == 4);
}

TEST_CASE("pattern search over random games agrees with replaying them one by one", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    GameDatabase db(test_database(backend, dir, "pat"), Access::read_write);
    const auto games = random_games(150, 21, 50);
    import(db, games);
    for (const char* text : {"#[Wn3]>=1", "e4=W d5=B", "Bp<=12 #[n2]>=3", "Wr>=8 Ws>=8 #W<=10",
                             "????????"
                             "/????????"
                             "/8/????????"
                             "/????????"
                             "/????????"
                             "/????????"
                             "/????????"}) {
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

TEST_CASE("the opening tree counts moves, results and the latest game, deep and shallow", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    Fixture f(backend);
    const Tree start = f.db.tree(Position::start());
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
    const Tree deep = f.db.tree(pos);
    REQUIRE(deep.moves.size() == 1);
    CHECK(move_to_text(pos, deep.moves[0].move) == "b2-c2");
    CHECK(deep.moves[0].games == 1);
    CHECK(deep.moves[0].white_wins == 1);
    CHECK(deep.games == 1); // game 1 ended there

    // A shallow position: from the precomputed counts.
    const Tree after_two = f.db.tree(after(line_of({"c2-d3", "f7-e6"}), 2));
    REQUIRE(after_two.moves.size() == 1);
    CHECK(after_two.moves[0].games == 1);
    CHECK(f.db.tree(after(line_of({"e2-f3"}), 1)).games == 0);
}

TEST_CASE("the tree agrees with counting the games by hand over a random collection", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    GameDatabase db(test_database(backend, dir, "tree"), Access::read_write);
    const auto games = random_games(300, 5, 8);
    ImportOptions o;
    o.batch_games = 64;
    import(db, games, o);
    for (int plies = 0; plies <= 5; ++plies) {
        const Position pos = after(games[0].moves, std::size_t(plies));
        std::map<std::uint32_t, std::int64_t> expected;
        for (const GameInput& g : games) {
            std::set<std::uint32_t> played; // a game counts once per move, however often it came back
            Position p = Position::start();
            UndoRecord undo;
            for (std::size_t i = 0; i < g.moves.size(); ++i) {
                if (p.key() == pos.key()) played.insert(g.moves[i].raw());
                p.do_move(g.moves[i], undo);
            }
            for (std::uint32_t raw : played) ++expected[raw];
        }
        std::map<std::uint32_t, std::int64_t> got;
        for (const TreeMove& m : db.tree(pos).moves) got[m.move.raw()] = m.games;
        CHECK(got == expected);
    }
}

// The tree of a stone position's turns and mirror images (tree --symmetric), against counting by
// hand: games played near the centre in random orientations; for each position of the first game
// and a random image of it, each game that came to an image counts once, its move turned back by
// a point search (not by the inverse symmetry the database uses), and the moves the position's
// own symmetries exchange count as one. Pente has captures; Renju's h8 alone has all eight.
TEST_CASE("the symmetric tree of a stone position agrees with counting its images' games by hand", "[db][stones][both]") {
    GOUNKI_EACH_BACKEND(backend);
    for (const GameKind kind : {GameKind::renju, GameKind::pente}) {
        INFO(game_kind_name(kind));
        TempDir dir;
        GameDatabase db(test_database(backend, dir, "symmetric"), Access::read_write);
        const stones::Rules rules = stones::Rules::defaults(kind);
        const int size = rules.size, centre = size / 2;
        std::mt19937 rng(11);
        std::vector<std::vector<int>> games; // the points played, as stored
        std::string text;
        for (int g = 0; g < 80; ++g) {
            stones::StonePosition pos(rules);
            std::vector<int> points;
            for (int ply = 0; ply < 14 && !pos.game_over(); ++ply) {
                std::vector<int> near; // legal points within two of the centre, else any
                for (const Move m : pos.legal_moves())
                    if (std::abs(stones::point_file(m.point()) - centre) <= 2 && std::abs(stones::point_rank(m.point()) - centre) <= 2)
                        near.push_back(m.point());
                if (near.empty())
                    for (const Move m : pos.legal_moves()) near.push_back(m.point());
                if (near.empty()) break;
                const int p = near[std::uniform_int_distribution<std::size_t>(0, near.size() - 1)(rng)];
                stones::StoneUndo undo;
                pos.play(Move::placement(p), undo);
                points.push_back(p);
            }
            const int turn = int(rng() % stones::symmetry_count); // the game as played in another orientation
            text += "[Game \"" + std::string(game_kind_name(kind)) + "\"]\n[Result \"" + (g % 3 ? "1-0" : "0-1") + "\"]\n\n";
            for (int& p : points) {
                p = stones::transformed_point(p, turn, size);
                text += stones::point_name(p) + " ";
            }
            text += g % 3 ? "1-0\n\n" : "0-1\n\n";
            games.push_back(points);
        }
        std::vector<GameInput> inputs;
        for (parser::GameRecord& r : parser::read_records(text, "symmetric.gpn")) inputs.push_back(game_input(std::move(r)));
        REQUIRE(inputs.size() == games.size());
        import(db, inputs);

        const auto play_out = [&](const std::vector<int>& points, std::size_t plies) {
            stones::StonePosition pos(rules);
            for (std::size_t i = 0; i < plies; ++i) {
                stones::StoneUndo undo;
                pos.play(Move::placement(points[i]), undo);
            }
            return pos;
        };
        for (std::size_t plies = 0; plies <= 6; ++plies) {
            INFO("plies " << plies);
            const stones::StonePosition here = play_out(games[0], plies);
            for (const stones::StonePosition& asked : {here, stones::transformed(here, int(rng() % stones::symmetry_count))}) {
                std::vector<int> own; // the symmetries that leave `asked` as it is
                for (int s = 0; s < stones::symmetry_count; ++s)
                    if (stones::transformed(asked, s) == asked) own.push_back(s);
                const auto orbit = [&](int p) {
                    std::set<int> out;
                    for (int s : own) out.insert(stones::transformed_point(p, s, size));
                    return out;
                };
                std::map<std::set<int>, std::int64_t> expected;
                std::map<int, std::int64_t> by_point; // the games of each point, before the orbits join them
                std::int64_t continued = 0;
                for (const std::vector<int>& g : games) {
                    std::set<std::set<int>> played;
                    for (std::size_t ply = 0; ply < g.size(); ++ply) {
                        const stones::StonePosition at = play_out(g, ply);
                        for (int s = 0; s < stones::symmetry_count; ++s) {
                            if (!(stones::transformed(asked, s) == at)) continue;
                            int back = stones::no_point; // the point of `asked` that s takes to the move played
                            for (int p = 0; p < stones::point_count; ++p)
                                if (asked.on_board(p) && stones::transformed_point(p, s, size) == g[ply]) back = p;
                            REQUIRE(back != stones::no_point);
                            if (played.insert(orbit(back)).second) ++by_point[back];
                            break;
                        }
                    }
                    for (const auto& o : played) ++expected[o];
                    continued += !played.empty();
                }
                const Tree tree = db.tree(AnyPosition(asked), true);
                std::map<std::set<int>, std::int64_t> got;
                for (const TreeMove& m : tree.moves) {
                    CHECK(asked.is_legal(m.move));
                    got[orbit(m.move.point())] += m.games;
                    // One row an orbit, shown as its point played most (the first in point order among equals).
                    int shown = stones::no_point;
                    for (const int p : orbit(m.move.point()))
                        if (by_point.count(p) && (shown == stones::no_point || by_point[p] > by_point[shown])) shown = p;
                    CHECK(stones::point_name(m.move.point()) == stones::point_name(shown));
                }
                CHECK(got == expected);
                CHECK(tree.moves.size() == expected.size());
                CHECK(tree.games == continued);
                CHECK(!expected.empty());
            }
        }
    }
}

// The row of points a position's own symmetries exchange shows the first point in point order
// among equally played ones, also on 20x20, where the points of the 20th rank and file are stored
// after all the others (t3, rank 3, comes before c20).
TEST_CASE("the symmetric tree shows the first point in point order among equals on a 20x20 board", "[db][stones]") {
    TempDir dir;
    GameDatabase db(dir.file("tie.db"), Access::read_write);
    std::vector<GameInput> inputs;
    // Other players: t3 is c20 turned, and so a duplicate of the same players' game.
    for (parser::GameRecord& r : parser::read_records("[Game \"Gomoku\"]\n[Size \"20\"]\n[White \"a\"]\n[Result \"*\"]\n\nc20 *\n\n"
                                                      "[Game \"Gomoku\"]\n[Size \"20\"]\n[White \"b\"]\n[Result \"*\"]\n\nt3 *\n\n",
                                                      "tie.gpn"))
        inputs.push_back(game_input(std::move(r)));
    REQUIRE(inputs.size() == 2);
    import(db, inputs);
    stones::Rules rules = stones::Rules::defaults(GameKind::gomoku);
    rules.size = 20;
    const Tree tree = db.tree(AnyPosition(stones::StonePosition(rules)), true);
    REQUIRE(tree.moves.size() == 1);
    CHECK(tree.moves[0].games == 2);
    CHECK(stones::point_name(tree.moves[0].move.point()) == "t3");
}

namespace {

// `moves` played from the Gounki position `start` (a set-up game), with the usual tags.
GameInput set_up_game(const std::string& start, const std::vector<std::string>& moves, ResultCode result,
                      const std::string& date) {
    GameInput g = game({}, "Set", "Up", result, date);
    g.start = position_of(start);
    g.moves = line_of(moves, g.start->as_gounki());
    return g;
}

} // namespace

// A game counts once per position it passes and once per move it plays from there, however often
// it comes back: in the precomputed plies (a set-up game whose first moves are two passes is back
// at its start at ply 2), in the deeper ones, and across the two.
TEST_CASE("a game that passes a position twice counts once in the tree and the search, edited and deleted too",
          "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    GameDatabase db(test_database(backend, dir, "repeat"), Access::read_write);
    const std::vector<std::string> cycle = {"b3-c3", "a6-b6", "c3-b3", "b6-a6"};
    std::vector<std::string> bouncing = {"b2-b3", "a7-a6"}; // at K after ply 2 (precomputed), 6, 10, 14
    for (int i = 0; i < 3; ++i) bouncing.insert(bouncing.end(), cycle.begin(), cycle.end());
    bouncing.push_back("b3-b4"); // another move from K on its last visit
    const std::string passes = "8/6(ss)1/8/8/8/8/6(SS)1/8 w"; // g2-g2 and g7-g7 pass (docs/rules.md 1.3)
    const auto r = import(db, {game(bouncing, "Bo", "Unce", ResultCode::draw, "2026.01.01"),
                               game({"b2-b3", "a7-a6", "b3-c3"}, "Once", "Through", ResultCode::white_wins, "2026.02.01"),
                               set_up_game(passes, {"g2-g2", "g7-g7", "g2-g2", "g7-g7", "g2-f2"}, ResultCode::black_wins, "2026.03.01"),
                               set_up_game(passes, {"g2-g2", "g7-g7", "g2-g3"}, ResultCode::unknown, "2026.04.01")});
    REQUIRE(r.size() == 4);
    const auto moves_of = [&](const AnyPosition& pos) {
        std::map<std::string, std::int64_t> out;
        for (const TreeMove& m : db.tree(pos).moves) out[pos.move_text(m.move)] = m.games;
        return out;
    };
    const Position k = after(line_of({"b2-b3", "a7-a6"}), 2);
    CHECK(db.search_position(k, {}, {}).total == 2);
    CHECK(db.tree(k).games == 2);
    CHECK(moves_of(k) == std::map<std::string, std::int64_t>{{"b3-c3", 2}, {"b3-b4", 1}});
    const Position start = position_of(passes);
    CHECK(db.search_position(start, {}, {}).total == 2);
    CHECK(db.tree(start).games == 2);
    CHECK(moves_of(start) == std::map<std::string, std::int64_t>{{"g2-g2", 2}, {"g2-f2", 1}, {"g2-g3", 1}});
    CHECK(moves_of(after(line_of({"g2-g2"}, start), 1, start)) == std::map<std::string, std::int64_t>{{"g7-g7", 2}});
    CHECK(check_tree_recount(db) == 11); // every position of the four games

    // A new result and date, each game once.
    REQUIRE(db.edit_tags(r[0].game_id, {{{"Result", "0-1"}, {"Date", "2026.05.01"}}, {}}));
    REQUIRE(db.edit_tags(r[2].game_id, {{{"Result", "1-0"}, {"Date", "2026.06.01"}}, {}}));
    for (const TreeMove& m : db.tree(start).moves)
        if (move_to_text(start, m.move) == "g2-g2") {
            CHECK(m.white_wins == 1);
            CHECK(m.black_wins == 0);
            CHECK(m.latest.id == r[2].game_id);
        }
    check_tree_recount(db);
    // Deleting a game that came back takes it off once.
    REQUIRE(db.delete_game(r[1].game_id));
    CHECK(moves_of(k) == std::map<std::string, std::int64_t>{{"b3-c3", 1}, {"b3-b4", 1}});
    CHECK(db.tree(k).games == 1);
    REQUIRE(db.delete_game(r[2].game_id));
    CHECK(moves_of(start) == std::map<std::string, std::int64_t>{{"g2-g2", 1}, {"g2-g3", 1}});
    CHECK(db.tree(start).games == 1);
    check_tree_recount(db);
    check_consistent(db);
    REQUIRE(db.delete_game(r[0].game_id));
    CHECK(db.tree(k).games == 0);
    check_tree_recount(db);
}

TEST_CASE("one game comes back with its tags, start, moves, source and diagnostics", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    GameDatabase db(test_database(backend, dir, "show"), Access::read_write);
    auto g = game({"c2-d3", "f7-e6"}, "Ann", "Bob", ResultCode::white_wins, "2024.02.03");
    g.tags.emplace_back("Annotator", "Zed");
    g.tags.emplace_back("Round", "4");
    g.source_file = dir.file("src.gpn");
    g.source_line = 12;
    auto setup = game({}, "Cy", "Di", ResultCode::unknown);
    setup.start = std::get<Position>(Position::from_text("8/8/8/3r4/8/8/8/3R4 w"));
    setup.moves = line_of({"d1-e2"}, setup.start->as_gounki());
    auto r = import(db, {g, setup});

    const auto s = db.game(r[0].game_id);
    REQUIRE(s);
    CHECK(s->moves == g.moves);
    CHECK(s->standard_start);
    CHECK(s->source_file == g.source_file);
    CHECK(s->source_line == 12);
    const std::vector<std::pair<std::string, std::string>> tags = {
        {"Game", "Gounki"}, {"Event", "Test event"}, {"Date", "2024.02.03"}, {"Round", "4"},
        {"White", "Ann"},   {"Black", "Bob"},        {"Result", "1-0"},      {"Annotator", "Zed"}};
    CHECK(s->tags == tags);
    const std::string text = parser::write_record(game_record(*s));
    CHECK(contains(text, "[Annotator \"Zed\"]"));
    CHECK(contains(text, "1. c2-d3 f7-e6 1-0"));

    const auto t = db.game(r[1].game_id);
    REQUIRE(t);
    CHECK_FALSE(t->standard_start);
    CHECK(t->start == *setup.start);
    CHECK(contains(parser::write_record(game_record(*t)), "[Position \"8/8/8/3r4/8/8/8/3R4 w\"]"));
    CHECK(db.search_position(setup.start->as_gounki(), {}, {}).total == 1);
    CHECK_FALSE(db.game(999));
}

TEST_CASE("deleting a game removes it from the index, the tree and the lists", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    Fixture f(backend);
    // Game 0 is the latest game of c2-d3 from the start; after it goes, game 2 is.
    REQUIRE(f.db.delete_game(f.id(0)));
    CHECK_FALSE(f.db.delete_game(f.id(0)));
    CHECK_FALSE(f.db.game(f.id(0)));
    CHECK(f.db.list_games({}, {}).total == 3);
    CHECK(ids_of(f.db.search_position(after(f.a_moves, 4), {}, {})) == std::vector<std::int64_t>{f.id(1)});
    const Tree start = f.db.tree(Position::start());
    CHECK(start.games == 3);
    for (const TreeMove& m : start.moves)
        if (move_to_text(Position::start(), m.move) == "c2-d3") {
            CHECK(m.games == 1);
            CHECK(m.white_wins == 0);
            CHECK(m.latest.id == f.id(2));
        }
    CHECK(f.db.tree(after(f.a_moves, 4)).games == 0);
    CHECK(scalar(f.db, "SELECT count(*) FROM tags WHERE game_id = " + std::to_string(f.id(0))) == 0);
    check_consistent(f.db);
    // Ids are never reused, not even the greatest one.
    REQUIRE(f.db.delete_game(f.id(3)));
    auto r = import(f.db, {game({"a2-b3"}, "New", "Game", ResultCode::unknown)});
    CHECK(r[0].game_id > f.id(3));
    check_consistent(f.db);
}
