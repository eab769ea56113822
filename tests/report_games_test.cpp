// Reports of many games and the interactive board: the viewer's data of a game (its positions,
// the record's comments, NAGs and variations, the engine's line), `gounki report --summary` and
// `--split`, and the statistics per game kind (players, openings at 1-2 plies) in HTML and
// Markdown. One game's renderers: report_test.cpp.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include <boost/property_tree/json_parser.hpp>

#include "report/format.hpp"
#include "report/from_record.hpp"
#include "report/render.hpp"
#include "report/viewer.hpp"
#include "parser/reader.hpp"

using namespace gounki;
using namespace gounki::report;
using namespace gounki::test;

namespace {

using boost::property_tree::ptree;

// The viewer's data of a game, read back with Boost's JSON reader.
ptree viewer_data(const GameReport& g) {
    std::istringstream in(viewer_json(g));
    ptree t;
    boost::property_tree::read_json(in, t);
    return t;
}

// Applies a step's changed cells ("d") to `cells`; a stone's number is left out ("b12" -> "b").
void apply_changes(std::vector<std::string>& cells, const ptree& step) {
    for (const auto& change : step.get_child("d")) {
        auto it = change.second.begin();
        const std::size_t i = std::stoul(it->second.get_value<std::string>());
        std::string v = (++it)->second.get_value<std::string>();
        if (v.size() > 1 && (v[0] == 'b' || v[0] == 'w')) v.resize(1);
        REQUIRE(i < cells.size());
        cells[i] = v;
    }
}

std::vector<std::string> texts(const ptree& list) {
    std::vector<std::string> out;
    for (const auto& item : list) out.push_back(item.second.get_value<std::string>());
    return out;
}

// Follows the data of a game ply by ply and checks each board against `positions` (the start,
// then the position after each ply), and each line of a ply against the positions of `lines`.
void check_steps(const ptree& data, const std::vector<AnyPosition>& positions) {
    std::vector<std::string> cells(board_cells(positions[0]).size());
    apply_changes(cells, data.get_child("start"));
    CHECK(cells == board_cells(positions[0]));
    std::size_t i = 0;
    for (const auto& step : data.get_child("plies")) {
        ++i;
        INFO("ply " << i);
        REQUIRE(i < positions.size());
        apply_changes(cells, step.second);
        CHECK(cells == board_cells(positions[i]));
        CHECK(step.second.get<std::string>("st").find(positions[i].side_to_move() == Color::white ? "White" : "Black") !=
              std::string::npos);
    }
    CHECK(i + 1 == positions.size());
}

// The cells after the moves of a line of the data, from the position before the ply it hangs on.
std::vector<std::vector<std::string>> line_boards(const ptree& line, const AnyPosition& before) {
    std::vector<std::vector<std::string>> out;
    std::vector<std::string> cells = board_cells(before);
    for (const auto& step : line.get_child("moves")) {
        apply_changes(cells, step.second);
        out.push_back(cells);
    }
    return out;
}

} // namespace

TEST_CASE("the interactive board's data: every ply's position, the record's comments, NAGs and variations", "[report][viewer]") {
    // A real game of the rules core, written as a record with comments, NAGs and a variation.
    const GameReport played = generated_game(10);
    REQUIRE(played.plies.size() == 10);
    const std::vector<std::string> alt = other_line(played.plies[3]);
    REQUIRE(alt.size() == 2);
    std::string text = "[Event \"Viewer\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"*\"]\n\n{Before the game.} ";
    for (std::size_t i = 0; i < played.plies.size(); ++i) {
        if (i % 2 == 0) text += std::to_string(i / 2 + 1) + ". ";
        text += move_text(played.plies[i]) + " ";
        if (i == 0) text += "{A quiet start.} ";
        if (i == 2) text += "$1 ";
        if (i == 3) text += "$6 {Bob's doubt.} (2... " + alt[0] + " {The other way.} 3. " + alt[1] + ") ";
    }
    text += "*\n";
    const std::vector<parser::GameRecord> records = parser::read_records(text);
    REQUIRE(records.size() == 1);
    INFO(text);
    REQUIRE(records[0].status == parser::GameStatus::valid);
    const GameReport g = game_report(records[0]);

    // The model keeps what the record says, and a position after every ply and variation move.
    CHECK(g.comments == std::vector<std::string>{"Before the game."});
    CHECK(g.plies[0].comments == std::vector<std::string>{"A quiet start."});
    CHECK(g.plies[2].nags == std::vector<int>{1});
    CHECK(g.plies[3].nags == std::vector<int>{6});
    CHECK(g.plies[3].comments == std::vector<std::string>{"Bob's doubt."});
    REQUIRE(g.plies[3].variations.size() == 1);
    const Variation& var = g.plies[3].variations[0];
    REQUIRE(var.moves.size() == 2);
    CHECK(move_text(played.plies[3].before, var.moves[0].move) == alt[0]);
    CHECK(move_text(var.moves[0].after, var.moves[1].move) == alt[1]);
    CHECK(var.moves[0].comments == std::vector<std::string>{"The other way."});
    AnyPosition replay = played.plies[3].before;
    for (const LineMove& m : var.moves) {
        replay.play(m.move);
        CHECK(m.after == replay);
    }
    const std::vector<AnyPosition> positions = game_positions(g);
    REQUIRE(positions.size() == 11);
    for (std::size_t i = 0; i < 10; ++i) CHECK(positions[i] == played.plies[i].before);
    // The model built by hand gives the same positions, the last one its last move played.
    const std::vector<AnyPosition> by_hand = game_positions(played);
    REQUIRE(by_hand.size() == 11);
    CHECK(by_hand.back() == positions.back());

    // The data: each ply's changes lead to the replayed board; comments, NAGs and the variation come along.
    const ptree data = viewer_data(g);
    CHECK(data.get<std::string>("kind") == "Gounki");
    CHECK(std::stoi(data.get<std::string>("size")) == 8);
    CHECK(texts(data.get_child("start.c")) == std::vector<std::string>{"Before the game."});
    check_steps(data, positions);
    std::vector<ptree> steps;
    for (const auto& step : data.get_child("plies")) steps.push_back(step.second);
    CHECK(steps[0].get<std::string>("m") == move_text(played.plies[0]));
    CHECK(steps[0].get<std::string>("no") == "1.");
    CHECK(steps[3].get<std::string>("no") == "2...");
    CHECK(texts(steps[0].get_child("c")) == std::vector<std::string>{"A quiet start."});
    CHECK(steps[2].get<std::string>("nag") == "!");
    CHECK(steps[3].get<std::string>("nag") == "?!");
    CHECK(std::stoi(steps[0].get<std::string>("pieces")) == 32);
    CHECK_FALSE(steps[1].get_child_optional("lines").has_value());
    const ptree& line = steps[3].get_child("lines").begin()->second;
    CHECK(line.get<std::string>("name") == "Variation 1");
    const auto boards = line_boards(line, positions[3]);
    REQUIRE(boards.size() == 2);
    CHECK(boards[0] == board_cells(var.moves[0].after));
    CHECK(boards[1] == board_cells(var.moves[1].after));
    CHECK(texts(line.get_child("moves").begin()->second.get_child("c")) == std::vector<std::string>{"The other way."});

    // The page: the static move list shows them too, the viewer holds the final position, the
    // markup stays well formed and self-contained.
    ReportModel m;
    m.games = {g};
    const std::string html = render_html(m);
    INFO(check_markup(html));
    CHECK(check_markup(html).empty());
    check_self_contained(html);
    CHECK(count_of(html, "<span class=\"comment\">{A quiet start.}</span>") == 1);
    CHECK(count_of(html, "<span class=\"comment\">{Before the game.}</span>") == 1);
    CHECK(count_of(html, "<span class=\"nag\">?!</span>") == 1);
    CHECK(count_of(html, "<span class=\"vmove\" data-ply=\"4\" data-line=\"0\" data-step=\"1\">" + xml_escape(alt[1])) == 1);
    CHECK(count_of(html, "<div class=\"viewer\" data-for=\"game-1\">") == 1);
    CHECK(count_of(between(html, "<div class=\"vboard\">", "</svg>"), "<title>" + xml_escape(positions.back().to_text())) == 1);
    CHECK(count_of(html, "<script>//<![CDATA[") == 1);
    CHECK(count_of(html, "</script>") == 2);
    // Markdown writes them the same way, in the move text.
    const std::string markdown = render_markdown(m);
    CHECK(count_of(markdown, "_{Before the game.}_ 1. ") == 1);
    CHECK(count_of(markdown, " _{A quiet start.}_ ") == 1);
    CHECK(count_of(markdown, "?! _{Bob's doubt.}_ (2... ") == 1);
    CHECK(count_of(markdown, " _{The other way.}_ 3. ") == 1);
    // The data block cannot be cut short by markup in a comment.
    GameReport tricky = g;
    tricky.plies[0].comments = {"</script><b>&"};
    const std::string json = viewer_json(tricky);
    CHECK(json.find('<') == std::string::npos);
    CHECK(json.find("\\u003c/script\\u003e\\u003cb\\u003e\\u0026") != std::string::npos);
}

TEST_CASE("the interactive board of a stone game: numbered stones, captures and the engine's line", "[report][viewer][stones]") {
    const std::string text = "[Game \"Ninuki\"]\n[Size \"15\"]\n[Black \"Bea\"]\n[White \"Wim\"]\n[Result \"*\"]\n\n"
                             "1. h8 i8 2. a1 j8 3. k8 {Takes two.} ( 3. a2 a3 ) *\n";
    const std::vector<parser::GameRecord> records = parser::read_records(text);
    REQUIRE(records.size() == 1);
    REQUIRE(records[0].status == parser::GameStatus::valid);
    GameReport g = game_report(records[0]);
    REQUIRE(g.plies.size() == 5);
    const std::vector<AnyPosition> positions = game_positions(g);
    REQUIRE(positions.size() == 6);
    CHECK(positions.back().stones()->captured(Color::black) == 2);
    // A judged ply with the engine's line (as report::game_report fills it from a judgement).
    Judgement j = judged(Verdict::mistake, 0, -1.5, positions[4], {"g8", "g9"});
    j.expected_after = 0.3;
    g.plies[4].judgement = j;

    const ptree data = viewer_data(g);
    CHECK(data.get<std::string>("kind") == "Ninuki");
    CHECK(std::stoi(data.get<std::string>("size")) == 15);
    CHECK(data.get<std::string>("fixed") == "Black");
    check_steps(data, positions);
    std::vector<ptree> steps;
    for (const auto& step : data.get_child("plies")) steps.push_back(step.second);
    // The capturing move: its stone numbered 5, the two taken stones emptied, only the new stone marked.
    std::vector<std::string> d;
    for (const auto& c : steps[4].get_child("d")) {
        auto it = c.second.begin();
        const std::string cell = it->second.get_value<std::string>();
        d.push_back(cell + "=" + (++it)->second.get_value<std::string>());
    }
    std::sort(d.begin(), d.end());
    CHECK(d ==
          std::vector<std::string>{std::to_string(8 + 15 * 7) + "=", std::to_string(9 + 15 * 7) + "=",
                                   std::to_string(10 + 15 * 7) + "=b5"});
    CHECK(texts(steps[4].get_child("last")) == std::vector<std::string>{std::to_string(10 + 15 * 7)});
    CHECK(steps[4].get<std::string>("st") == "White to move \u00b7 Captured: Black 2, White 0");
    CHECK(std::stoi(steps[4].get<std::string>("pieces")) == 3);
    // Scores from Black's side: a Black move's score as it is.
    CHECK(steps[4].get<std::string>("eval") == "Black -1.5 (30%)");
    CHECK(steps[4].get<std::string>("v") == "mistake");
    std::vector<ptree> lines;
    for (const auto& l : steps[4].get_child("lines")) lines.push_back(l.second);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].get<std::string>("name") == "Variation 1");
    CHECK(lines[1].get<std::string>("name") == "Engine's best line");
    const auto best = line_boards(lines[1], positions[4]);
    REQUIRE(best.size() == 2);
    CHECK(best[1] == board_cells(line_positions(positions[4], j.best_line)[1]));
    CHECK(lines[1].get_child("moves").begin()->second.get<std::string>("no") == "3.");

    // The page names Black first and gives the result as stone players write it.
    g.result = "0-1";
    ReportModel m;
    m.games = {g};
    const std::string html = render_html(m);
    CHECK(check_markup(html).empty());
    CHECK(count_of(html, "Game 1: Bea \u2013 Wim, B+") == 1);
    CHECK(count_of(html, "<p class=\"legend\">Black's expected result after each ply") == 1);
}

TEST_CASE("gounki report --summary and --split DIR: the statistics alone, or one page per game and an index",
          "[report][viewer]") {
    const TempDir scratch("report");
    const std::string db = scratch.file("games.db");
    const GameReport a = generated_game(9);
    std::string records = "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"*\"]\n\n";
    for (std::size_t i = 0; i < a.plies.size(); ++i)
        records += (i % 2 == 0 ? std::to_string(i / 2 + 1) + ". " : std::string()) + move_text(a.plies[i]) + " ";
    records += "{The end.} *\n\n[Game \"Ninuki\"]\n[Size \"15\"]\n[Result \"*\"]\n\n1. h8 i8 2. a1 j8 3. k8 *\n\n";
    records += "[Game \"Gomoku\"]\n[Black \"Bea\"]\n[White \"Wim\"]\n[Result \"0-1\"]\n\n1. h8 h9 2. i8 i9 3. j8 j9 4. k8 k9 5. "
               "l8 0-1\n";
    write_text(scratch / "games.gpn", records);
    REQUIRE(run_gounki("import --quiet --db " + shell_quoted(db) + " " + shell_quoted(scratch / "games.gpn")).status == 0);

    CliRun r = run_gounki("report --quiet --db " + shell_quoted(db) + " --all --summary -o " + shell_quoted(scratch / "s.html"));
    INFO(r.err);
    REQUIRE(r.status == 0);
    const std::string summary = slurp(scratch / "s.html");
    CHECK(check_markup(summary).empty());
    for (const char* kind : {"gounki", "gomoku", "ninuki"}) // one set of tables per game kind
        for (const char* what : {"players", "openings", "games"})
            CHECK(count_of(summary, "<section id=\"" + std::string(what) + "-" + kind + "\">") == 1);
    CHECK(count_of(summary, "<table class=\"games\">") == 3);
    CHECK(count_of(summary, "<section class=\"game") == 0);
    CHECK(count_of(summary, "<script") == 0);
    CHECK(count_of(summary, "<td>Bea</td><td>Wim</td><td>B+</td>") == 1);

    const auto dir = scratch / "split";
    r = run_gounki("report --db " + shell_quoted(db) + " --all --split " + shell_quoted(dir) + " --json");
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(count_of(r.out, "\"files\":4") == 1);
    const std::string index = slurp(dir / "index.html");
    CHECK(check_markup(index).empty());
    CHECK(count_of(index, "<section class=\"game") == 0);
    for (const char* id : {"1", "2", "3"}) {
        INFO(id);
        const std::string name = std::string("game-") + id + ".html";
        CHECK(count_of(index, "<a href=\"" + name + "\">") == 1);
        const std::string page = slurp(dir / name);
        CHECK(check_markup(page).empty());
        CHECK(count_of(page, "<section class=\"game") == 1);
        CHECK(count_of(page, "<div class=\"viewer\"") == 1);
        CHECK(count_of(page, "<script type=\"application/json\" class=\"viewer-data\"") == 1);
        CHECK(count_of(page, "<a href=\"index.html\">") == 1);
        CHECK(count_of(page, std::string("<h2>Game ") + id + " (#" + id + "): ") == 1); // numbered as in the index
    }
    CHECK(count_of(slurp(dir / "game-1.html"), "<span class=\"comment\">{The end.}</span>") == 1);
    const std::string gomoku = slurp(dir / "game-3.html");
    CHECK(count_of(gomoku, "Bea \u2013 Wim, B+</h2>") == 1);
    CHECK(count_of(gomoku, "Not judged (gounki analyze judges it): no evaluation graph.") == 1); // a flat line says nothing
    CHECK(count_of(gomoku, "<svg class=\"graph\"") == 0);

    // What does not fit is refused before anything is written.
    for (const std::string& bad :
         {std::string(" --split ") + shell_quoted(dir) + " -o x.html", std::string(" --summary --format md -o -"),
          std::string(" --split ") + shell_quoted(scratch / "md") + " --format md",
          std::string(" --summary --split ") + shell_quoted(scratch / "both")}) {
        INFO(bad);
        r = run_gounki("report --db " + shell_quoted(db) + " --all" + bad);
        CHECK(r.status == 2);
        CHECK(count_of(r.err, "gounki report:") == 1);
    }
    CHECK_FALSE(std::filesystem::exists(scratch / "md"));
    CHECK_FALSE(std::filesystem::exists(scratch / "both"));
    // A file where the directory should be.
    write_text(scratch / "file", "x");
    r = run_gounki("report --db " + shell_quoted(db) + " --all --split " + shell_quoted(scratch / "file"));
    CHECK(r.status != 0);
    CHECK(count_of(r.err, "cannot make the directory") == 1);
}

namespace {

// `moves` (point names) played from an empty board of `kind`.
GameReport stones_game(GameKind kind, const std::vector<std::string>& moves) {
    return report_game(AnyPosition::start(kind), moves);
}

GameReport with_players(GameReport g, std::string white, std::string black, std::string result) {
    g.white = std::move(white);
    g.black = std::move(black);
    g.result = std::move(result);
    return g;
}

// The text of a table row's cells after `head` (its first cell's text), up to the row's end.
std::string row_after(const std::string& html, const std::string& head) {
    return between(html, "<td>" + head + "</td>", "</tr>");
}

// Games of every kind for the tables over many games: Ann plays Gounki against Bob and Gomoku
// against Cid; the other kinds a game or two each. Two first moves a table, one reply each.
ReportModel several_kinds() {
    const std::vector<std::tuple<std::size_t, std::size_t, std::string>> gounki_games{
        {0, 0, "1-0"}, {0, 0, "0-1"}, {0, 1, "1/2-1/2"}, {1, 0, "1-0"}, {1, 0, "*"}, {2, 0, "1-0"}};
    ReportModel m;
    for (const auto& [first, reply, result] : gounki_games)
        m.games.push_back(with_players(generated_game(5, first, reply), "Ann", "Bob", result));
    m.games[0].summary[0].accuracy = 80; // Ann's Gounki accuracy: (80 + 90) / 2
    m.games[3].summary[0].accuracy = 90;
    m.games.push_back(with_players(stones_game(GameKind::gomoku, {"h8", "h9", "i9"}), "Cid", "Ann", "0-1"));
    m.games.push_back(with_players(stones_game(GameKind::gomoku, {"h8", "h9", "j10"}), "Cid", "Ann", "1-0"));
    m.games.push_back(with_players(stones_game(GameKind::gomoku, {"h8", "i9", "g7"}), "Ann", "Cid", "0-1"));
    m.games.push_back(with_players(stones_game(GameKind::gomoku, {"i8", "h9"}), "Ann", "Cid", "*"));
    m.games.back().summary[0].accuracy = 60; // Ann's Gomoku accuracy, as White
    m.games.push_back(with_players(stones_game(GameKind::ninuki, {"h8", "i9", "j10"}), "Dan", "Eve", "1/2-1/2"));
    m.games.push_back(with_players(stones_game(GameKind::ninuki, {"h8", "i9"}), "Dan", "Eve", "*"));
    m.games.back().status = "partial"; // broken: left out of Ninuki's tables
    m.games.push_back(with_players(stones_game(GameKind::pente, {"h8", "i9"}), "Fay", "Gil", "0-1"));
    m.games.push_back(with_players(stones_game(GameKind::renju, {"h8"}), "Hal", "Ivy", "*")); // too short for openings
    m.opening_rows = 2;
    m.opening_replies = 1;
    return m;
}

} // namespace

TEST_CASE("many games of several kinds: players and openings per kind, openings at 1-2 plies", "[report]") {
    const ReportModel m = several_kinds();
    // What the tables should say, counted here from the games themselves.
    struct Tally {
        int games = 0, white = 0, black = 0, draws = 0, unfinished = 0;
    };
    std::map<GameKind, std::map<std::vector<std::string>, Tally>> lines; // kind -> first 1 or 2 plies -> results
    std::map<GameKind, std::map<std::string, int>> games_of; // kind -> player -> games
    std::set<GameKind> kinds;
    for (const GameReport& g : m.games) {
        kinds.insert(g.kind);
        if (g.broken()) continue;
        ++games_of[g.kind][g.white];
        ++games_of[g.kind][g.black];
        if (g.plies.size() < 2) continue;
        for (std::size_t n : {std::size_t(1), std::size_t(2)}) {
            std::vector<std::string> key;
            for (std::size_t i = 0; i < n; ++i) key.push_back(move_text(g.plies[i]));
            Tally& t = lines[g.kind][key];
            ++t.games;
            (g.result == "1-0" ? t.white : g.result == "0-1" ? t.black : g.result == "1/2-1/2" ? t.draws : t.unfinished)++;
        }
    }
    const std::vector<KindTables> tables = kind_tables(m.games, m.opening_rows, m.opening_replies);
    REQUIRE(tables.size() == kinds.size());
    REQUIRE(tables.size() == 5);
    for (const KindTables& t : tables) {
        INFO(game_kind_name(t.kind));
        // Players: each kind's own games only.
        REQUIRE(t.players.size() == games_of[t.kind].size());
        for (const PlayerStats& p : t.players) CHECK(p.games == games_of[t.kind][p.name]);
        // Openings: first moves with their replies; every count as tallied, what is left out counted.
        int firsts = 0, counted = 0;
        for (const auto& [key, tally] : lines[t.kind])
            if (key.size() == 1) ++firsts, counted += tally.games;
        CHECK(t.openings.games == counted);
        CHECK(int(t.openings.groups.size()) == std::min(firsts, m.opening_rows));
        CHECK(t.openings.more_openings == firsts - int(t.openings.groups.size()));
        int shown = 0;
        for (const OpeningGroup& g : t.openings.groups) {
            REQUIRE(g.first.moves.size() == 1);
            const Tally& tally = lines[t.kind][g.first.moves];
            CHECK(g.first.games == tally.games);
            CHECK(g.first.white_wins == tally.white);
            CHECK(g.first.black_wins == tally.black);
            CHECK(g.first.draws == tally.draws);
            CHECK(g.first.unfinished == tally.unfinished);
            shown += g.first.games;
            int reply_games = 0;
            for (const OpeningLine& r : g.replies) {
                REQUIRE(r.moves.size() == 2);
                CHECK(r.moves[0] == g.first.moves[0]);
                CHECK(r.games == lines[t.kind][r.moves].games);
                CHECK(r.white_wins == lines[t.kind][r.moves].white);
                reply_games += r.games;
            }
            CHECK(reply_games + g.more_reply_games == g.first.games);
            CHECK(int(g.replies.size()) <= m.opening_replies);
        }
        CHECK(shown + t.openings.more_games == counted);
    }

    // Gounki: first moves 0 (3 games: reply 0 twice, reply 1 once), 1 (2 games), 2 (1 game, left out).
    const KindTables& gounki = tables[0];
    REQUIRE(gounki.kind == GameKind::gounki);
    REQUIRE(gounki.openings.groups.size() == 2);
    CHECK(gounki.openings.groups[0].first.moves[0] == move_text(m.games[0].plies[0]));
    CHECK(gounki.openings.groups[0].first.games == 3);
    CHECK(gounki.openings.groups[0].replies[0].games == 2);
    CHECK(gounki.openings.groups[0].more_replies == 1);
    CHECK(gounki.openings.groups[0].more_reply_games == 1);
    CHECK(gounki.openings.groups[1].first.moves[0] == move_text(m.games[3].plies[0]));
    CHECK(gounki.openings.more_openings == 1);
    CHECK(gounki.openings.more_games == 1);
    const PlayerStats& ann = gounki.players[0];
    CHECK(ann.name == "Ann");
    CHECK(ann.games == 6);
    CHECK(ann.results[0][0] == 3); // three Gounki wins with White, none of Gomoku's counted
    CHECK(ann.average_accuracy == 85);
    const KindTables& gomoku = tables[1];
    REQUIRE(gomoku.kind == GameKind::gomoku);
    const auto ann_gomoku = std::find_if(gomoku.players.begin(), gomoku.players.end(), [](auto& p) { return p.name == "Ann"; });
    REQUIRE(ann_gomoku != gomoku.players.end());
    CHECK(ann_gomoku->games == 4);
    CHECK(ann_gomoku->results[1][0] == 1); // won with Black against Cid (h8 h9 i9, 0-1)
    CHECK(ann_gomoku->results[1][2] == 1);
    CHECK(ann_gomoku->results[0][0] == 0);
    CHECK(ann_gomoku->results[0][2] == 1);
    CHECK(ann_gomoku->average_accuracy == 60);
    CHECK(tables[2].broken == 1); // Ninuki's partial game
    CHECK(tables[2].players.size() == 2);
    CHECK(tables[4].kind == GameKind::renju);
    CHECK(tables[4].openings.groups.empty());
}

TEST_CASE("many games of several kinds: the players, openings and games tables of each kind in HTML and Markdown", "[report]") {
    const ReportModel m = several_kinds();
    const std::vector<GameKind> kinds{GameKind::gounki, GameKind::gomoku, GameKind::ninuki, GameKind::pente, GameKind::renju};
    // The HTML summary: one set of tables per kind, each headed by the game's name.
    HtmlOptions summary;
    summary.summary = true;
    const std::string html = render_html(m, summary);
    INFO(check_markup(html));
    CHECK(check_markup(html).empty());
    for (const char* kind : {"Gounki", "Gomoku", "Ninuki", "Pente", "Renju"}) {
        INFO(kind);
        std::string id = kind;
        id[0] = char(std::tolower(id[0]));
        for (const char* what : {"players", "openings", "games"}) {
            CHECK(count_of(html, "<section id=\"" + std::string(what) + "-" + id + "\">\n<h2>" + kind + ": " + what + "</h2>") ==
                  1);
        }
    }
    CHECK(count_of(html, "<section id=\"players\">") == 0);
    CHECK(count_of(html, "<table class=\"games\">") == 5);
    CHECK(count_of(html, "<h2>Players</h2>") == 0);
    // Ann twice, with each kind's own figures: 6 Gounki games, 4 Gomoku games.
    CHECK(count_of(html, "<tr><td>Ann</td>") == 2);
    CHECK(count_of(html, "<tr><td>Ann</td><td class=\"num\">6</td>") == 1);
    CHECK(count_of(html, "<tr><td>Ann</td><td class=\"num\">4</td>") == 1);
    CHECK(count_of(html, "85%</td></tr>") == 1);
    // Gomoku's columns name Black first: "1. h8" has 3 games, Black won 2, White 1.
    const std::string gomoku_html = between(html, "<section id=\"openings-gomoku\">", "</section>");
    CHECK(count_of(gomoku_html, "<th>Black wins</th><th>White wins</th><th>Draws</th>") == 1);
    CHECK(row_after(gomoku_html, "1. h8") ==
          "<td class=\"num\">3</td><td class=\"num\">2 (67%)</td><td class=\"num\">1 "
          "(33%)</td><td class=\"num\">0</td><td class=\"num\">0</td>");
    CHECK(count_of(gomoku_html, "<tr class=\"reply\"><td>1. h8 h9</td><td class=\"num\">2</td>") == 1);
    CHECK(count_of(gomoku_html, "1 more reply in 1 game") == 1);
    CHECK(count_of(gomoku_html, "<tr class=\"first\"><td>1. i8</td>") == 1);
    const std::string gounki_html = between(html, "<section id=\"openings-gounki\">", "</section>");
    CHECK(count_of(gounki_html, "<p class=\"more-openings\">1 more opening (first moves) in 1 game.</p>") == 1);
    CHECK(count_of(gounki_html, "<tr class=\"first\">") == 2);
    CHECK(count_of(gounki_html, "<tr class=\"reply\">") == 2);
    CHECK(count_of(html, "1 broken game (partial or invalid) is left out of these tables.") == 1);
    CHECK(count_of(between(html, "<section id=\"openings-renju\">", "</section>"), "No game is long enough.") == 1);
    // Every game has its row, numbered as in the whole report.
    for (std::size_t k = 0; k < m.games.size(); ++k)
        CHECK(count_of(html, "<tr><td class=\"num\">" + std::to_string(k + 1) + "</td>") == 1);

    // Markdown: the same tables per kind.
    const std::string md = render_markdown(m);
    for (const char* kind : {"Gounki", "Gomoku", "Ninuki", "Pente", "Renju"})
        for (const char* what : {"players", "openings"}) CHECK(count_of(md, "## " + std::string(kind) + ": " + what + "\n") == 1);
    CHECK(count_of(md, "## Players") == 0);
    CHECK(count_of(md, "| `1. h8` | 3 | 2 (67%) | 1 (33%) | 0 | 0 |") == 1);
    CHECK(count_of(md, "| \u21b3 `1. h8 h9` | 2 | 1 (50%) | 1 (50%) | 0 | 0 |") == 1);
    // The first mover's column first: Black in Gomoku, Ninuki and Renju.
    const auto black_first = std::count_if(kinds.begin(), kinds.end(), [](GameKind k) { return first_mover(k) == Color::black; });
    CHECK(black_first == 3);
    CHECK(count_of(md, "| Player | Games | As Black | As White | Average accuracy |") == std::size_t(black_first));
    CHECK(count_of(md, "| Player | Games | As White | As Black | Average accuracy |") == kinds.size() - std::size_t(black_first));
    CHECK(count_of(md, "1 more opening (first moves) in 1 game.") == 1);
    CHECK(count_share(1, 3) == "1 (33%)");
    CHECK(count_share(1, 202) == "1 (<1%)"); // not "0%"
    CHECK(count_share(201, 202) == "201 (>99%)"); // not "100%"
    CHECK(count_share(5, 5) == "5 (100%)");
    CHECK(count_share(0, 5) == "0");

    // One kind: the tables as before, without the game's name.
    ReportModel one;
    one.games.assign(m.games.begin(), m.games.begin() + 6);
    const std::string single = render_html(one, summary);
    CHECK(check_markup(single).empty());
    CHECK(count_of(single, "<section id=\"players\">\n<h2>Players</h2>") == 1);
    CHECK(count_of(single, "<section id=\"openings\">\n<h2>Openings</h2>") == 1);
    CHECK(count_of(single, "<section id=\"games\">\n<h2>Games</h2>") == 1);
    CHECK(count_of(single, "Gounki:") == 0);
    // The default: ten first moves; the sixth Gounki game's first move is shown now.
    CHECK(count_of(single, "<tr class=\"first\">") == 3);
    CHECK(count_of(single, "more opening") == 0);
}

TEST_CASE("an opening table of one kind on boards of two sizes names the board of each row", "[report][stones]") {
    stones::Rules big = stones::Rules::defaults(GameKind::gomoku);
    big.size = 19;
    ReportModel m;
    m.games.push_back(with_players(stones_game(GameKind::gomoku, {"h8", "h9"}), "Cid", "Ann", "0-1"));
    GameReport on_19 = with_players(report_game(stones::StonePosition(big), {"h8", "h9"}), "Cid", "Ann", "1-0");
    m.games.push_back(on_19);
    const std::vector<KindTables> tables = kind_tables(m.games, 10, 3);
    REQUIRE(tables.size() == 1);
    CHECK(tables[0].openings.several_variants);
    REQUIRE(tables[0].openings.groups.size() == 2); // the same move on two boards: two openings
    CHECK(tables[0].openings.groups[0].first.games == 1);
    const std::string md = render_markdown(m);
    CHECK(count_of(md, "| `1. h8 (15x15)` | 1 | 1 (100%) | 0 |") == 1);
    CHECK(count_of(md, "| `1. h8 (19x19)` | 1 | 0 | 1 (100%) |") == 1);
    CHECK(count_of(md, "| \u21b3 `1. h8 h9 (19x19)` | 1 |") == 1);
    // One size: no board named.
    m.games.pop_back();
    m.games.push_back(m.games.front());
    CHECK(count_of(render_markdown(m), "| `1. h8` | 2 | 2 (100%) | 0 |") == 1);
}
