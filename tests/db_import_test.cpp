// The game database's import: duplicates, prefixes, broken games, index runs and the lookup
// indexes of a large import.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

#include "core/stones/symmetry.hpp"
#include "db/record_bridge.hpp"
#include "parser/writer.hpp"
#include "pipeline/import.hpp"

using namespace gounki;
using namespace gounki::db;
using namespace gounki::test;
namespace fs = std::filesystem;

namespace {

// Games shorter than 8 plies are found by final position through a partial SQL index, longer ones
// through the position index: the first two tests run every check both ways, the second time with
// these 8 plies played in front of every game.
const std::vector<std::string> eight_plies = {"h2-h3", "a7-a6", "h3-h4", "a6-a5", "h4-h5", "a5-a4", "h5-h6", "a4-a3"};

// Makes test games (test::game) with `opening` played in front of their moves.
struct GamesAfter {
    std::vector<std::string> opening;
    GameInput operator()(std::vector<std::string> moves, const std::string& white, const std::string& black,
                         ResultCode result) const {
        moves.insert(moves.begin(), opening.begin(), opening.end());
        return test::game(moves, white, black, result);
    }
};

// A Renju game of `points` (Black first) as it lies under `symmetry` (core/stones/symmetry.hpp), from
// `start` turned likewise when there is one.
GameInput renju(const std::vector<std::string>& points, const std::string& white, const std::string& black, ResultCode result,
                int symmetry = 0, const std::optional<stones::StonePosition>& start = std::nullopt) {
    GameInput g;
    g.kind = GameKind::renju;
    if (start) g.start = AnyPosition(stones::transformed(*start, symmetry));
    for (const std::string& point : points) g.moves.push_back(Move::placement(stones::transformed_point(P(point), symmetry, 15)));
    g.result = result;
    g.tags = {{"Event", "Test event"}, {"White", white}, {"Black", black}, {"Result", std::string(result_text(result))}};
    return g;
}

} // namespace

TEST_CASE("duplicates are reported and skipped, or kept on request; rerunning an import stores nothing twice", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    const GamesAfter game{GENERATE(std::vector<std::string>{}, eight_plies)};
    TempDir dir;
    GameDatabase db(test_database(backend, dir, "dup"), Access::read_write);
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
    // Another result, or other players: not a duplicate (records of their own lines: a stored game
    // from the same line with these moves would be this record, edited since).
    auto other_result = copy;
    other_result.result = ResultCode::black_wins;
    other_result.source_line = 20;
    auto other_player = copy;
    other_player.tags[1].second = "Anne";
    other_player.source_line = 40;
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
    auto r7 = import(db,
                     {game({}, "P", "Q", ResultCode::unknown), game({}, "P", "Q", ResultCode::unknown),
                      game({}, "P", "R", ResultCode::unknown)});
    CHECK(r7[0].action == ImportAction::stored);
    CHECK(r7[1].action == ImportAction::duplicate);
    CHECK(r7[2].action == ImportAction::stored);
    CHECK(r7[2].has_prefix.empty());
    auto r8 = import(db, {game({}, "P", "R", ResultCode::unknown)});
    CHECK(r8[0].action == ImportAction::duplicate);
    CHECK(r8[0].other_id == r7[2].game_id);
    check_consistent(db);
}

TEST_CASE("a stone game turned or mirrored is a duplicate of the stored game, in each of the eight orientations", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    // Black's five along rank 8, White's stones beside it and in the corners: no two images alike. Short
    // games are found by final position through SQL, longer ones through the position index.
    const std::vector<std::string> line = GENERATE(std::vector<std::string>{"h8", "h9", "i8", "i10", "j8"},
                                                   std::vector<std::string>{"h8", "h9", "i8", "i10", "j8", "a1", "k8", "b2", "l8"});
    INFO(line.size() << " plies");
    TempDir dir;
    GameDatabase db(test_database(backend, dir, "turned"), Access::read_write);
    const auto r1 = import(db, {renju(line, "Wu", "Bo", ResultCode::black_wins)});
    REQUIRE(r1[0].action == ImportAction::stored);
    const std::int64_t id = r1[0].game_id;

    // Each image alone, then all eight in one import: duplicates of the stored game, each saying how
    // it lies (the identity: a plain duplicate).
    std::vector<GameInput> images;
    for (int s = 0; s < stones::symmetry_count; ++s) {
        INFO("symmetry " << s);
        GameInput image = renju(line, "Wu", "Bo", ResultCode::black_wins, s);
        image.source_file = dir.file("turned.gpn");
        image.source_line = 10 * (s + 1);
        const auto r = import(db, {image});
        CHECK(r[0].action == ImportAction::duplicate);
        CHECK(r[0].other_id == id);
        CHECK(r[0].symmetry == s);
        CHECK(r[0].noteworthy());
        images.push_back(image);
    }
    const auto all = import(db, images);
    for (int s = 0; s < stones::symmetry_count; ++s) {
        INFO("symmetry " << s);
        CHECK(all[std::size_t(s)].action == ImportAction::duplicate);
        CHECK(all[std::size_t(s)].other_id == id);
        CHECK(all[std::size_t(s)].symmetry == s);
    }
    CHECK(db.list_games({}, {}).total == 1);

    // Turned, with one move other (White's second stone one point off), another result, other players:
    // games of their own.
    std::vector<std::string> other_move = line;
    other_move[3] = "i11";
    const auto r2 = import(db,
                           {renju(other_move, "Wu", "Bo", ResultCode::black_wins, 3), renju(line, "Wu", "Bo", ResultCode::draw, 5),
                            renju(line, "Wu", "Al", ResultCode::black_wins, 6), renju(line, "Al", "Bo", ResultCode::black_wins, 6)});
    for (const ImportReport& r : r2) {
        CHECK(r.action == ImportAction::stored);
        CHECK(r.other_id == 0);
        CHECK(r.symmetry == 0);
    }

    // Kept on request, still reported.
    ImportOptions keep;
    keep.keep_duplicates = true;
    const auto r3 = import(db, {renju(line, "Wu", "Bo", ResultCode::black_wins, 2)}, keep);
    CHECK(r3[0].action == ImportAction::stored);
    CHECK(r3[0].other_id == id);
    CHECK(r3[0].symmetry == 2);
    CHECK(db.list_games({}, {}).total == 6);
    check_consistent(db);
}

TEST_CASE("turned copies of one stone game in one import: the first is stored, the others are its duplicates", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    const std::vector<std::string> line = GENERATE(std::vector<std::string>{"h8", "h9", "i8", "i10", "j8"},
                                                   std::vector<std::string>{"h8", "h9", "i8", "i10", "j8", "a1", "k8", "b2", "l8"});
    INFO(line.size() << " plies");
    TempDir dir;
    GameDatabase db(test_database(backend, dir, "turned-batch"), Access::read_write);
    // The mirror image left to right (file f to -f), the one about the falling diagonal ((f, r) to
    // (-r, -f)), and the game as it lies. The second is the first turned a quarter anticlockwise
    // ((-f, r) to (-r, -f)); the third the first mirrored back.
    const auto r = import(db,
                          {renju(line, "Wu", "Bo", ResultCode::black_wins, 4), renju(line, "Wu", "Bo", ResultCode::black_wins, 7),
                           renju(line, "Wu", "Bo", ResultCode::black_wins, 0), renju(line, "Wu", "Bo", ResultCode::white_wins, 1)});
    REQUIRE(r.size() == 4);
    CHECK(r[0].action == ImportAction::stored);
    CHECK(r[1].action == ImportAction::duplicate);
    CHECK(r[1].other_id == r[0].game_id);
    CHECK(r[1].symmetry == 1);
    CHECK(r[2].action == ImportAction::duplicate);
    CHECK(r[2].other_id == r[0].game_id);
    CHECK(r[2].symmetry == 4);
    CHECK(r[3].action == ImportAction::stored); // another result
    CHECK(r[3].other_id == 0);

    // From set-up stones: the set-up turns with the moves. The moves turned on the set-up as it lay are
    // another game.
    const stones::StonePosition start = setup(stones::Rules::defaults(GameKind::renju), {"c3", "d3"}, {"m13"});
    const std::vector<std::string> after = {"k4", "k5", "l4"};
    const auto r4 = import(db,
                           {renju(after, "Wu", "Bo", ResultCode::unknown, 0, start), renju(after, "Wu", "Bo", ResultCode::unknown, 2, start),
                            renju(after, "Wu", "Bo", ResultCode::unknown, 0, stones::transformed(start, 6))});
    CHECK(r4[0].action == ImportAction::stored);
    CHECK(r4[1].action == ImportAction::duplicate);
    CHECK(r4[1].other_id == r4[0].game_id);
    CHECK(r4[1].symmetry == 2);
    CHECK(r4[2].action == ImportAction::stored);
    CHECK(r4[2].other_id == 0);

    // Among many games that end alike (other players, the same moves), a turned copy finds its own.
    std::vector<GameInput> many;
    for (int i = 0; i < 40; ++i) many.push_back(renju(line, "Player " + std::to_string(i), "Bo", ResultCode::black_wins));
    const auto r5 = import(db, many);
    const auto r6 = import(db, {renju(line, "Player 33", "Bo", ResultCode::black_wins, 5),
                                renju(line, "Player 40", "Bo", ResultCode::black_wins, 5)});
    CHECK(r6[0].action == ImportAction::duplicate);
    CHECK(r6[0].other_id == r5[33].game_id);
    CHECK(r6[0].symmetry == 5);
    CHECK(r6[1].action == ImportAction::stored);
    check_consistent(db);
}

TEST_CASE("a game that is a prefix of a stored game, or has one as a prefix, is flagged both ways", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    const GamesAfter game{GENERATE(std::vector<std::string>{}, eight_plies)};
    TempDir dir;
    GameDatabase db(test_database(backend, dir, "prefix"), Access::read_write);
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
        auto r = import(db,
                        {game(part, "Ann", "Bob", ResultCode::unknown), game(full, "Cy", "Di", ResultCode::black_wins),
                         game(part, "Eve", "Fay", ResultCode::unknown)});
        CHECK(r[1].has_prefix == std::vector<std::int64_t>{r[0].game_id});
        CHECK(r[2].prefix_of == std::vector<std::int64_t>{r[1].game_id});
    }
    SECTION("deleting a game drops the other games' notes that name it, and only those") {
        auto r = import(db,
                        {game(part, "Ann", "Bob", ResultCode::unknown), game(full, "Cy", "Di", ResultCode::black_wins),
                         game(part, "Eve", "Fay", ResultCode::unknown)});
        const auto notes = [&](std::int64_t id) {
            std::vector<std::string> out;
            const auto g = db.game(id);
            REQUIRE(g);
            for (const Diagnostic& d : g->diagnostics)
                if (d.code == "prefix") out.push_back(d.message);
            std::sort(out.begin(), out.end());
            return out;
        };
        const std::int64_t a = r[0].game_id, b = r[1].game_id, c = r[2].game_id;
        REQUIRE(notes(a) == std::vector<std::string>{GameDatabase::note_same_moves(c), GameDatabase::note_is_prefix_of(b)});
        REQUIRE(notes(b).size() == 2);
        CHECK(db.delete_game(c));
        CHECK(notes(a) == std::vector<std::string>{GameDatabase::note_is_prefix_of(b)});
        CHECK(notes(b) == std::vector<std::string>{GameDatabase::note_has_prefix(a)});
        const std::int64_t longer[] = {b};
        CHECK(db.delete_games(longer) == 1);
        CHECK(notes(a).empty());
    }
    SECTION("a transposition is not a prefix") {
        import(db, {game({"g2-f3", "f7-e6", "c2-d3", "b7-a6", "b2-c2"}, "Ann", "Bob", ResultCode::white_wins)});
        auto r = import(db, {game({"c2-d3", "f7-e6", "g2-f3", "b7-a6"}, "Cy", "Di", ResultCode::unknown)});
        CHECK(r[0].prefix_of.empty());
        CHECK(r[0].has_prefix.empty());
    }
    check_consistent(db);
}

TEST_CASE("among many games ending alike, duplicates, records imported again and prefixes are found, and an older game "
          "keeps ten notes of a kind",
          "[db][both]") {
    // More games ending on one position than the importer compares one by one: it groups them by
    // line, in memory, for the rest of the import.
    GOUNKI_EACH_BACKEND(backend);
    const GamesAfter game{GENERATE(std::vector<std::string>{}, eight_plies)};
    TempDir dir;
    GameDatabase db(test_database(backend, dir, "alike"), Access::read_write);
    const std::vector<std::string> line = {"c2-d3", "f7-e6", "g2-f3"}, transposed = {"g2-f3", "f7-e6", "c2-d3"};
    constexpr int many = 40;
    std::vector<GameInput> first;
    for (int i = 0; i < many; ++i) {
        first.push_back(game(line, "W" + std::to_string(i), "B" + std::to_string(i), ResultCode::unknown));
        first.push_back(game(transposed, "TW" + std::to_string(i), "TB" + std::to_string(i), ResultCode::unknown));
    }
    for (std::size_t i = 0; i < first.size(); ++i) {
        first[i].source_file = dir.file("a.gpn");
        first[i].source_line = std::uint32_t(1 + 10 * i);
    }
    ImportOptions small;
    small.batch_games = 16; // games stored before and games of the same batch
    const auto r1 = import(db, first, small);
    REQUIRE(r1.size() == first.size());
    std::vector<std::int64_t> of_line, of_transposed;
    for (std::size_t i = 0; i < r1.size(); ++i) {
        REQUIRE(r1[i].action == ImportAction::stored);
        (i % 2 ? of_transposed : of_line).push_back(r1[i].game_id);
    }
    const auto within = [](const std::vector<std::int64_t>& ids, const std::vector<std::int64_t>& set) {
        return std::all_of(ids.begin(), ids.end(), [&](std::int64_t id) { return std::count(set.begin(), set.end(), id) == 1; });
    };
    // The same moves: the games of the same line only, ten at most.
    CHECK(r1[1].same_moves.empty());
    CHECK(r1[2].same_moves == std::vector<std::int64_t>{of_line[0]});
    CHECK(r1.back().same_moves.size() == 10);
    CHECK(within(r1.back().same_moves, of_transposed));
    CHECK(within(r1[r1.size() - 2].same_moves, of_line));

    // A copy from another file is a duplicate of its own game; the same record is imported already;
    // another result is a game of its own; a longer game has the line's games as prefixes.
    auto copy = first[30];
    copy.source_file = dir.file("b.gpn");
    auto again = first[50];
    auto other_result = first[30];
    other_result.result = ResultCode::draw;
    other_result.tags[3].second = "1/2-1/2";
    other_result.source_file = dir.file("b.gpn");
    std::vector<std::string> longer = line;
    longer.insert(longer.end(), {"b7-a6", "b2-c2"});
    const auto r2 = import(db, {copy, again, other_result, game(longer, "L", "M", ResultCode::white_wins)});
    CHECK(r2[0].action == ImportAction::duplicate);
    CHECK(r2[0].other_id == r1[30].game_id);
    CHECK(r2[1].action == ImportAction::already_imported);
    CHECK(r2[1].other_id == r1[50].game_id);
    CHECK(r2[2].action == ImportAction::stored);
    CHECK(r2[2].other_id == 0);
    CHECK(r2[2].same_moves.size() == 10);
    CHECK(within(r2[2].same_moves, of_line));
    CHECK(r2[3].has_prefix.size() == 10);
    CHECK(within(r2[3].has_prefix, of_line));

    // The first game was named by every later game of its line: it keeps ten notes of that kind.
    const auto stored = db.game(of_line[0]);
    REQUIRE(stored);
    std::map<std::string, int> kinds;
    for (const Diagnostic& d : stored->diagnostics)
        if (d.code == "prefix") ++kinds[d.message.find("same moves") != std::string::npos ? "same" : "prefix"];
    CHECK(kinds["same"] == 10);
    CHECK(kinds["prefix"] == 1);

    // In one batch, behind 300 games that end on the same position by another order of moves (a
    // line no stored game plays).
    const std::vector<std::string> line2 = {"c2-d3", "b7-a6", "g2-f3"}, transposed2 = {"g2-f3", "b7-a6", "c2-d3"};
    std::vector<std::string> longer2 = line2;
    longer2.insert(longer2.end(), {"f7-e6", "b2-c2"});
    std::vector<GameInput> batch;
    for (int i = 0; i < 300; ++i) batch.push_back(game(transposed2, "U" + std::to_string(i), "V", ResultCode::draw));
    batch.push_back(game(line2, "U", "V", ResultCode::draw));
    batch.push_back(game(longer2, "U", "V", ResultCode::draw));
    batch.push_back(game(line2, "U2", "V", ResultCode::draw));
    const auto r3 = import(db, batch);
    REQUIRE(r3.size() == 303);
    CHECK(r3[301].has_prefix.size() == 1);
    CHECK(std::count(r3[301].has_prefix.begin(), r3[301].has_prefix.end(), r3[300].game_id) == 1);
    CHECK(std::count(r3[302].same_moves.begin(), r3[302].same_moves.end(), r3[300].game_id) == 1);
    CHECK(std::count(r3[302].prefix_of.begin(), r3[302].prefix_of.end(), r3[301].game_id) == 1);

    // A game another importer stores while this one goes on is seen by this one's later batches.
    std::vector<ImportReport> reports;
    {
        ImportOptions eight;
        eight.batch_games = 8;
        Importer importer(db, eight, [&](const ImportReport& r) { reports.push_back(r); });
        const std::vector<std::string> third = {"e2-d3", "b7-a6"};
        for (int i = 0; i < 48; ++i) importer.add(game(third, "X" + std::to_string(i), "Y", ResultCode::unknown));
        // Five batches are written by now (the sixth is being prepared): the group is made.
        const auto other = import(db, {game(third, "Zed", "Y", ResultCode::unknown)});
        REQUIRE(other[0].action == ImportAction::stored);
        importer.add(game(third, "Zed", "Y", ResultCode::unknown));
        importer.finish();
        REQUIRE(reports.size() == 49);
        CHECK(reports.back().action == ImportAction::duplicate);
        CHECK(reports.back().other_id == other[0].game_id);
    }
    check_consistent(db);
}

TEST_CASE("prefix flags are found behind many games that end alike, pass the same way or repeat one game", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    GameDatabase db(test_database(backend, dir, "behind"), Access::read_write);
    const std::vector<std::string> line = {"c2-d3", "f7-e6", "g2-f3"}, transposed = {"g2-f3", "f7-e6", "c2-d3"};
    const auto plus = [](std::vector<std::string> moves, const std::string& more) {
        moves.push_back(more);
        return moves;
    };
    const auto has = [](const std::vector<std::int64_t>& ids, std::int64_t id) { return std::count(ids.begin(), ids.end(), id) == 1; };

    SECTION("the games of one batch linked at one ply do not use up another ply's links") {
        std::vector<GameInput> games;
        for (int i = 0; i < 40; ++i) games.push_back(game({"c2-d3"}, "A" + std::to_string(i), "B", ResultCode::unknown));
        for (int i = 0; i < 3; ++i) games.push_back(game({"c2-d3", "f7-e6"}, "C" + std::to_string(i), "D", ResultCode::unknown));
        const auto r = import(db, games);
        CHECK(r[41].same_moves == std::vector<std::int64_t>{r[40].game_id});
        CHECK(r[42].same_moves == (std::vector<std::int64_t>{r[40].game_id, r[41].game_id}));
        CHECK(r[42].has_prefix.size() == 10);
    }
    SECTION("copies of one game, skipped as duplicates, do not take the places of other games") {
        std::vector<GameInput> games(33, game(line, "A", "B", ResultCode::unknown));
        games.push_back(game(line, "C", "D", ResultCode::unknown));
        games.push_back(game(plus(line, "b7-a6"), "E", "F", ResultCode::unknown));
        std::vector<GameInput> longer(33, game(plus(line, "b7-a6"), "G", "H", ResultCode::unknown));
        longer.push_back(game(plus(line, "b7-a6"), "I", "J", ResultCode::unknown));
        longer.push_back(game(line, "K", "L", ResultCode::unknown));
        const auto r = import(db, games);
        REQUIRE(r[33].action == ImportAction::stored);
        CHECK(r[34].has_prefix == (std::vector<std::int64_t>{r[0].game_id, r[33].game_id}));
        const auto q = import(db, longer);
        CHECK(has(q[34].prefix_of, q[0].game_id));
        CHECK(has(q[34].prefix_of, q[33].game_id));
    }
    SECTION("stored games that pass the same position by other moves do not hide the ones that play the moves") {
        std::vector<GameInput> games;
        for (int i = 0; i < 300; ++i) games.push_back(game(plus(transposed, "b7-a6"), "T" + std::to_string(i), "U", ResultCode::draw));
        for (int i = 0; i < 3; ++i) games.push_back(game(plus(line, "b7-a6"), "V" + std::to_string(i), "U", ResultCode::draw));
        const auto r = import(db, games);
        const auto q = import(db, {game(line, "W", "U", ResultCode::unknown)});
        CHECK(q[0].prefix_of == (std::vector<std::int64_t>{r[300].game_id, r[301].game_id, r[302].game_id}));
    }
    check_consistent(db);
}

TEST_CASE("an import in one transaction is stored whole or not at all, written in batches of the usual size", "[db][both]") {
    // As `serve` imports an upload: an error after the first batches leaves nothing behind.
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    GameDatabase db(test_database(backend, dir, "whole"), Access::read_write);
    std::ostringstream text;
    for (int i = 0; i < 5; ++i)
        parser::write_record(text, db::game_record(game({"c2-d3"}, "W" + std::to_string(i), "B", ResultCode::unknown)));
    pipeline::ImportRequest request;
    request.options.batch_games = 2;
    int reports = 0;
    pipeline::ImportEvents events;
    events.report = [&](const ImportReport&) {
        if (++reports == 3) throw std::runtime_error("stopped at the third game");
    };
    const auto run = [&](bool whole) {
        request.one_transaction = whole;
        reports = 0;
        std::istringstream in(text.str());
        return pipeline::import_stream(db, in, "five.gpn", request, events);
    };
    // The third game's report comes once the second batch is written.
    CHECK_THROWS_WITH(run(true), "stopped at the third game");
    CHECK(db.list_games({}, {}).total == 0);
    CHECK_THROWS_WITH(run(false), "stopped at the third game");
    CHECK(db.list_games({}, {}).total == 4);

    events.report = [&](const ImportReport&) { ++reports; };
    const auto result = run(true);
    CHECK(reports == 5);
    CHECK(result.stats.stored == 1);
    CHECK(result.stats.already_imported == 4);
    CHECK(db.list_games({}, {}).total == 5);
    check_consistent(db);
}

TEST_CASE("an import in one transaction that cannot read a file whole stores nothing; without, the rest is stored", "[db][serve]") {
    TempDir dir;
    GameDatabase db(dir.file("io.db"), Access::read_write);
    std::ostringstream text;
    parser::write_record(text, db::game_record(game({"c2-d3"}, "Ann", "Bob", ResultCode::unknown)));
    write_text(dir.file("one.gpn"), text.str());
    pipeline::ImportRequest request;
    request.files = {dir.file("one.gpn"), dir.file("missing.gpn")};
    request.one_transaction = true;
    const auto whole = pipeline::import_files(db, request, {});
    CHECK(whole.io_errors);
    CHECK(whole.rolled_back);
    CHECK(db.list_games({}, {}).total == 0);
    request.one_transaction = false; // the command line's import: the files read are stored
    const auto each = pipeline::import_files(db, request, {});
    CHECK(each.io_errors);
    CHECK(!each.rolled_back);
    CHECK(db.list_games({}, {}).total == 1);
    check_consistent(db);
}

TEST_CASE("source names are stored as absolute paths, or as given when they are labels", "[db][serve]") {
    TempDir dir;
    GameDatabase db(dir.file("names.db"), Access::read_write);
    ImportOptions labels;
    labels.names_are_labels = true;
    auto label = game({"c2-d3"}, "Ann", "Bob", ResultCode::unknown);
    label.source_file = "../../../../etc/passwd";
    auto file = game({"c2-d3", "f7-e6"}, "Ann", "Bob", ResultCode::unknown);
    file.source_file = "games.gpn";
    const auto stored_label = import(db, {label}, labels);
    const auto stored_file = import(db, {file});
    CHECK(db.game(stored_label[0].game_id)->source_file == "../../../../etc/passwd");
    CHECK(db.game(stored_file[0].game_id)->source_file == (fs::current_path() / "games.gpn").string());
}

TEST_CASE("broken games are stored as partial with their diagnostics unless rejected", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    GameDatabase db(test_database(backend, dir, "broken"), Access::read_write);
    auto broken = game({"c2-d3", "f7-e6"}, "Ann", "Bob", ResultCode::unknown);
    broken.status = GameStatus::partial;
    broken.diagnostics = {{Severity::error, "illegal-move", 3, 7, "c2-c5 is not a legal move"},
                          {Severity::warning, "no-result", 0, 0, "no result"}};
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
    CHECK(db.search_position(after(g->moves, 2), {}, {}).total == 1);
}

TEST_CASE("many small batches make many index runs, merged as they pile up, and every position stays found", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    GameDatabase db(test_database(backend, dir, "runs"), Access::read_write);
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

TEST_CASE("a large import builds the lookup indexes at its end; without them queries are right, and a write open builds them",
          "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    const auto games = random_games(1200, 9, 30);
    const auto lookup_indexes = [&](GameDatabase& db) {
        const std::string names = "('games_white', 'games_black', 'games_event', 'games_date')";
        return scalar(db, backend == "sqlite" ? "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN " + names
                                              : "SELECT count(*) FROM pg_indexes WHERE indexname IN " + names);
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
    GameDatabase plain(test_database(backend, dir, "plain"), Access::read_write);
    {
        Importer importer(plain, {});
        for (const GameInput& g : games) importer.add(g);
        importer.finish();
        CHECK(importer.stats().lookup_indexes_s == 0);
    }
    const auto expected = totals(plain);
    CHECK(expected[0] > 0);
    CHECK(expected[0] < 1200);
    const std::string path = test_database(backend, dir, "bulk");
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
