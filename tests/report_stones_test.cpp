// Reports and diagrams of the stone games (Gomoku, Ninuki): the SVG and text diagrams, report games
// made from a record and its judgement, and a stone game's report in HTML, Markdown and annotated
// records, alone and mixed with a Gounki game.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>

#include <boost/property_tree/json_parser.hpp>

#include "report/board_diagram.hpp"
#include "report/format.hpp"
#include "report/from_record.hpp"
#include "report/render.hpp"
#include "report/viewer.hpp"
#include "core/stones/position.hpp"
#include "core/stones/renju.hpp"
#include "parser/reader.hpp"
#include "parser/sgf/sgf.hpp"

using namespace gounki;
using namespace gounki::report;
using namespace gounki::test;

namespace {

// Points are named by test::P (tests/support.hpp), not by stones::parse_point, so that a bug there
// cannot hide one here.

stones::StonePosition stone_board(GameKind kind, int size, const std::vector<std::string>& black,
                                  const std::vector<std::string>& white, Color side = Color::black) {
    stones::Rules rules = stones::Rules::defaults(kind);
    rules.size = size;
    stones::StonePosition pos(rules);
    for (const std::string& b : black) pos.put(P(b), stones::Stone::black);
    for (const std::string& w : white) pos.put(P(w), stones::Stone::white);
    pos.set_side_to_move(side);
    return pos;
}

// The opening tag of the stone circle on `point`, "" when there is none.
std::string stone_circle(const std::string& svg, const std::string& colour, const std::string& point) {
    const std::string open = "<circle class=\"stone " + colour + "\" data-point=\"" + point + "\"";
    const std::size_t at = svg.find(open);
    return at == std::string::npos ? std::string() : svg.substr(at, svg.find('>', at) - at);
}

double attribute(const std::string& tag, const std::string& name) {
    const std::string v = between(tag, " " + name + "=\"", "\"");
    REQUIRE_FALSE(v.empty());
    return std::stod(v);
}

// The SVG of `pos`, checked for well-formed markup.
std::string stones_svg_checked(const stones::StonePosition& pos, const StoneBoardStyle& style) {
    const std::string svg = stone_board_svg(pos, style);
    INFO(check_markup(svg));
    CHECK(check_markup(svg).empty());
    return svg;
}

} // namespace

TEST_CASE("the SVG of a stone position has one circle per stone, in its colour, at its point", "[report][stones]") {
    const stones::StonePosition pos = stone_board(GameKind::gomoku, 15, {"h8", "j9", "a1"}, {"h9", "o15"}, Color::white);
    StoneBoardStyle style;
    style.marks = {{Move::placement(P("j10")), ArrowKind::best}, {Move::placement(P("k10")), ArrowKind::played}};
    style.last_move = P("h9");
    const std::string svg = stones_svg_checked(pos, style);
    CHECK(svg.rfind("<?xml", 0) == 0);
    CHECK(count_of(svg, "<circle class=\"stone ") == 5);
    CHECK(count_of(svg, "<circle class=\"stone black\"") == 3);
    CHECK(count_of(svg, "<circle class=\"stone white\"") == 2);
    for (const char* b : {"h8", "j9", "a1"}) {
        INFO(b);
        const std::string tag = stone_circle(svg, "black", b);
        REQUIRE_FALSE(tag.empty());
        CHECK(count_of(tag, "fill=\"#1a1a1a\"") == 1);
    }
    for (const char* w : {"h9", "o15"}) {
        INFO(w);
        const std::string tag = stone_circle(svg, "white", w);
        REQUIRE_FALSE(tag.empty());
        CHECK(count_of(tag, "fill=\"#fbfaf5\"") == 1);
    }
    // Places: a1 bottom left, o15 top right, h8 halfway between; h9 one line above h8.
    const std::string a1 = stone_circle(svg, "black", "a1"), h8 = stone_circle(svg, "black", "h8");
    const std::string o15 = stone_circle(svg, "white", "o15"), h9 = stone_circle(svg, "white", "h9");
    CHECK(attribute(a1, "cx") < attribute(h8, "cx"));
    CHECK(attribute(h8, "cx") < attribute(o15, "cx"));
    CHECK(attribute(a1, "cy") > attribute(h8, "cy"));
    CHECK(attribute(h8, "cy") > attribute(o15, "cy"));
    CHECK(attribute(h8, "cx") - attribute(a1, "cx") == Approx(attribute(o15, "cx") - attribute(h8, "cx")));
    CHECK(attribute(h8, "cy") - attribute(h9, "cy") == Approx(32)); // the default cell on 15x15
    CHECK(attribute(h9, "cx") == attribute(h8, "cx"));
    // Grid furniture, marks, the last move, and who moves.
    CHECK(count_of(svg, "class=\"star\"") == 5);
    CHECK(count_of(svg, ">o</text>") == 1);
    CHECK(count_of(svg, ">p</text>") == 0);
    CHECK(count_of(svg, ">15</text>") == 1);
    CHECK(count_of(svg, "<g class=\"mark best\" data-point=\"j10\"") == 1);
    CHECK(count_of(svg, "<g class=\"mark played\" data-point=\"k10\"") == 1);
    CHECK(count_of(svg, "<circle class=\"last\" data-point=\"h9\"") == 1);
    CHECK(count_of(svg, "White to move") == 1);
    CHECK(count_of(svg, "Captured") == 0); // Gomoku has no captures
    CHECK(count_of(svg, "data-game=\"Gomoku\" data-size=\"15\"") == 1);

    // Ninuki on 19x19: nine star points, the captured stones, an empty board drawn as such.
    stones::StonePosition nin = stone_board(GameKind::ninuki, 19, {"j10"}, {"k10", "s19"});
    nin.set_captured(Color::black, 2);
    const std::string n = stones_svg_checked(nin, {});
    CHECK(count_of(n, "class=\"star\"") == 9);
    CHECK(count_of(n, "<circle class=\"stone ") == 3);
    CHECK_FALSE(stone_circle(n, "white", "s19").empty());
    CHECK(count_of(n, ">s</text>") == 1);
    CHECK(count_of(n, ">19</text>") == 1);
    CHECK(count_of(n, "Black to move \u00b7 Captured: Black 2, White 0") == 1);
    CHECK(count_of(stones_svg_checked(stone_board(GameKind::gomoku, 15, {}, {}), {}), "<circle class=\"stone") == 0);
}

TEST_CASE("the text diagram of a stone position puts x, o and . at their coordinates", "[report][stones]") {
    stones::StonePosition pos = stone_board(GameKind::ninuki, 19, {"a1", "j10", "k11", "s19"}, {"a19", "j11", "s1", "c3"});
    pos.set_captured(Color::white, 4);
    const std::string text = stone_board_text(pos, {{Move::placement(P("l12")), ArrowKind::best}}, P("j11"));
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    REQUIRE(lines.size() == 19 + 1 + 4);
    // Read the diagram back, point by point, into a board of its own and compare.
    stones::StonePosition back(pos.rules());
    for (int row = 0; row < 19; ++row) {
        const std::string& line = lines[std::size_t(row)];
        const int rank = 19 - row;
        INFO(line);
        REQUIRE(line.size() == 2 + 2 * 19);
        CHECK(std::stoi(line.substr(0, 2)) == rank);
        for (int file = 0; file < 19; ++file) {
            CHECK(line[std::size_t(2 + 2 * file)] == ' ');
            const char c = line[std::size_t(3 + 2 * file)];
            REQUIRE(std::strchr("xoXO.", c));
            const int point = stones::make_point(file, rank - 1);
            if (c == 'x' || c == 'X') back.put(point, stones::Stone::black);
            if (c == 'o' || c == 'O') back.put(point, stones::Stone::white);
            CHECK((std::isupper(static_cast<unsigned char>(c)) != 0) == (point == P("j11")));
        }
    }
    for (int p = 0; p < stones::point_count; ++p)
        if (pos.on_board(p)) CHECK(back.at(p) == pos.at(p));
    CHECK(lines[0] == "19 o . . . . . . . . . . . . . . . . . x");
    CHECK(lines[8] == "11 . . . . . . . . . O x . . . . . . . .");
    CHECK(lines[18] == " 1 x . . . . . . . . . . . . . . . . . o");
    CHECK(lines[19] == "   a b c d e f g h i j k l m n o p q r s");
    CHECK(lines[20] == "Black to move");
    CHECK(lines[21] == "Captured: Black 0, White 4");
    CHECK(lines[22] == "Last: j11");
    CHECK(lines[23] == "Best: l12");

    // Gomoku 15x15: no captures line; the ranks and files stop at 15 and o.
    const std::string g = stone_board_text(stone_board(GameKind::gomoku, 15, {"h8"}, {}, Color::white));
    CHECK(g.rfind("15 . . .", 0) == 0);
    CHECK(count_of(g, "\n 8 . . . . . . . x . . . . . . .\n") == 1);
    CHECK(count_of(g, "\n   a b c d e f g h i j k l m n o\nWhite to move\n") == 1);
    CHECK(count_of(g, "Captured") == 0);
}

TEST_CASE("a report game from a stone game's record and its judgement", "[report][stones]") {
    parser::GameRecord rec;
    rec.kind = GameKind::ninuki;
    rec.start = stones::StonePosition(stones::Rules::defaults(GameKind::ninuki));
    rec.tags = {{"Game", "Ninuki"}, {"White", "W"}, {"Black", "B"}, {"Size", "19"}, {"Round", "2"}};
    rec.result = "0-1";
    const std::vector<std::string> moves{"j10", "k10", "l10", "k11", "m10"};
    for (const std::string& m : moves) rec.main.plies.emplace_back(Move::placement(P(m)), m);
    analysis::GameJudgement j;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        analysis::PlyJudgement pj;
        pj.ply = int(i);
        pj.played = Move::placement(P(moves[i]));
        pj.best = pj.played;
        pj.pv = {pj.played};
        j.plies.push_back(pj);
    }
    j.plies[2].verdict = analysis::Verdict::blunder;
    j.plies[2].best = Move::placement(P("j11"));
    j.plies[2].pv = {Move::placement(P("j11")), Move::placement(P("h12"))};
    j.plies[2].best_score = 150;
    j.plies[2].played_score = -420;
    j.plies[4].played = Move::placement(P("a1")); // judged another move: no judgement shown
    j.sides[index(Color::black)].moves = 3;
    j.sides[index(Color::black)].accuracy = 61.5;

    const GameReport g = game_report(rec, &j);
    CHECK(g.kind == GameKind::ninuki);
    CHECK(g.white == "W");
    CHECK(g.result == "0-1");
    REQUIRE(g.other_tags.size() == 1);
    CHECK(g.other_tags[0].name == "Round");
    REQUIRE(g.plies.size() == moves.size());
    stones::StonePosition pos = rec.start.as_stones();
    for (std::size_t i = 0; i < moves.size(); ++i) {
        CHECK(g.plies[i].move == Move::placement(P(moves[i])));
        CHECK(move_text(g.plies[i]) == moves[i]);
        CHECK(g.plies[i].side() == (i % 2 == 0 ? Color::black : Color::white));
        CHECK(g.plies[i].before == AnyPosition(pos));
        stones::StoneUndo u;
        pos.play(Move::placement(P(moves[i])), u);
    }
    REQUIRE(g.plies[2].judgement);
    CHECK(g.plies[2].judgement->verdict == Verdict::blunder);
    CHECK(g.plies[2].judgement->best_move == Move::placement(P("j11")));
    CHECK(line_texts(g.plies[2].before, g.plies[2].judgement->best_line) == std::vector<std::string>{"j11", "h12"});
    CHECK(g.plies[2].judgement->best.pieces == Approx(1.5));
    CHECK(g.plies[2].judgement->played.pieces == Approx(-4.2));
    CHECK_FALSE(g.plies[4].judgement);
    CHECK(g.summary[index(Color::black)].blunders == 1);
    CHECK(g.summary[index(Color::black)].accuracy == 61.5);
    CHECK_FALSE(g.summary[index(Color::white)].accuracy);

    ReportModel m;
    m.games = {g};
    const std::string html = render_html(m);
    CHECK(count_of(html, "<svg class=\"board\"") == 2); // the flagged ply's and the viewer's final position
    CHECK(count_of(html, "data-game=\"Ninuki\" data-size=\"19\"") == 2);
    CHECK(count_of(html, "<g class=\"mark best\" data-point=\"j11\"") == 1);
    CHECK(count_of(between(html, "<figure", "</figure>"), "Captured: Black 0, White 0") == 1);
    // Black named first and the result as stone players write it, in every heading and table.
    CHECK(count_of(html, "Game 1: B \u2013 W, B+") == 1);
    const std::string sides = between(html, "<table class=\"summary\">", "</table>");
    CHECK(sides.find("<td>Black</td>") < sides.find("<td>White</td>"));
    CHECK(sides.find("<td>Black</td>") != std::string::npos);
    const std::string md = render_markdown(m);
    CHECK(count_of(md, "## Game 1: B \u2013 W, B+\n") == 1);
    CHECK(count_of(md, " m10 B+\n") == 1); // the move text ends with the result
    CHECK(md.find("| B | Black |") < md.find("| W | White |"));
    CHECK(md.find("| W | White |") != std::string::npos);
    CHECK(count_of(md, "Black's expected result after each ply (one character per ply, high: Black is better)") == 1);
    CHECK(count_of(md, "| Result | B+ |") == 1);
    CHECK(md.find("| Black | B |") < md.find("| White | W |"));
    CHECK(count_of(md, "0-1") == 0);
    // A Gounki game keeps White first and 1-0.
    GameReport gounki_game;
    gounki_game.white = "Ann";
    gounki_game.black = "Bob";
    gounki_game.result = "1-0";
    CHECK(players_text(gounki_game) == "Ann \u2013 Bob");
    CHECK(result_text(gounki_game) == "1-0");
    CHECK(named_order(gounki_game) == std::vector<Color>{Color::white, Color::black});
    m.games = {gounki_game};
    const std::string gmd = render_markdown(m);
    CHECK(count_of(gmd, "## Game 1: Ann \u2013 Bob, 1-0\n") == 1);
    CHECK(gmd.find("| Ann | White |") < gmd.find("| Bob | Black |"));
}

TEST_CASE("a stone-game report draws one stone diagram per flagged ply, in HTML, Markdown and records", "[report][stones]") {
    const std::vector<std::string> names{"h8", "h9", "i9", "g7", "j10", "k11", "i8", "i10", "g8", "f8"};
    GameReport g = report_game(AnyPosition::start(GameKind::gomoku), names);
    g.white = "Wanda";
    g.black = "Boris";
    g.result = "*";
    for (std::size_t i = 0; i < g.plies.size(); ++i)
        g.plies[i].judgement = judged(Verdict::best, 0.2, 0.1, g.plies[i].before, {});
    g.plies[3].judgement = judged(Verdict::blunder, 1.0, -4.0, g.plies[3].before, {"k11", "g7"});
    g.plies[6].judgement = judged(Verdict::mistake, 0.5, -1.0, g.plies[6].before, {"l12"});
    g.plies[7].judgement = judged(Verdict::inaccuracy, 0.3, 0.0, g.plies[7].before, {"l12"});
    g.plies[8].judgement = judged(Verdict::missed_win, 0.0, 0.0, g.plies[8].before, {"e6"});
    g.plies[8].judgement->best = {0, 1};
    ReportModel m;
    m.games = {g};
    const std::vector<std::size_t> flagged{3, 6, 8};

    const std::string html = render_html(m);
    INFO(check_markup(html));
    CHECK(check_markup(html).empty());
    CHECK(count_of(html, "<svg class=\"board\"") == flagged.size() + 1); // and the final position
    CHECK(count_of(html, "data-game=\"Gomoku\"") == flagged.size() + 1);
    for (std::size_t i : flagged) {
        const Ply& p = g.plies[i];
        INFO("ply " << i + 1);
        const std::string fig = between(html, "id=\"game-1-d" + std::to_string(i + 1) + "\"", "</figure>");
        CHECK(count_of(fig, "<svg class=\"board\"") == 1);
        CHECK(count_of(fig, "<circle class=\"stone ") == i); // no captures in Gomoku: one stone per ply before
        CHECK(count_of(fig, "<g class=\"mark played\" data-point=\"" + names[i] + "\"") == 1);
        CHECK(count_of(fig, "<g class=\"mark best\" data-point=\"" + move_text(p.before, p.judgement->best_move) + "\"") == 1);
        CHECK(count_of(fig, "<circle class=\"last\" data-point=\"" + names[i - 1] + "\"") == 1);
    }
    // Black moves first: "1. h8 h9 2. i9 g7".
    CHECK(count_of(html, "<span class=\"no\">1.</span> <span class=\"ply\" id=\"game-1-p1\"") == 1);
    CHECK(count_of(html, "<span class=\"no\">2.</span> <span class=\"ply\" id=\"game-1-p3\"") == 1);
    CHECK(count_of(html, "...</span>") == 0);
    CHECK(count_of(html, "<tr><th>Game</th><td>Gomoku</td></tr>") == 1);
    CHECK(count_of(html, "<tr><th>Size</th><td>15</td></tr>") == 1);
    CHECK(count_of(html, "<tr><th>Position</th>") == 0); // an empty board is the standard start

    const std::string md = render_markdown(m);
    CHECK(count_of(md, "```text\n") == flagged.size());
    for (std::size_t i : flagged) {
        const Ply& p = g.plies[i];
        const std::size_t at = md.find("#### " + move_number_text(g, i) + " `" + names[i]);
        REQUIRE(at != std::string::npos);
        const std::string block = between(md, "```text\n", "```", at);
        CHECK(count_of(block, "Played: " + names[i] + "\n") == 1);
        CHECK(count_of(block, "Best: " + move_text(p.before, p.judgement->best_move) + "\n") == 1);
        CHECK(count_of(block, "Last: " + names[i - 1] + "\n") == 1);
        CHECK(count_of(block, "x") + count_of(block, "X") == (i + 1) / 2); // Black's stones so far
    }
    CHECK(count_of(md, "1\\. h8 h9 2. i9 **g7??** 3. j10 k11") == 1);

    const std::string gpn = render_annotated_gpn(m);
    INFO(gpn);
    CHECK(gpn.rfind("[Game \"Gomoku\"]\n", 0) == 0);
    CHECK(count_of(gpn, "[Size") == 0); // 15x15 is Gomoku's default
    CHECK(count_of(gpn, "[Position") == 0);
    std::string flat = gpn; // lines wrap at 79 columns
    std::replace(flat.begin(), flat.end(), '\n', ' ');
    CHECK(count_of(flat, "2... g7?? {(+1.0 -> -4.0) Blunder. k11 was best.} ({Engine's best line} 2... k11 3. g7) 3. j10") == 1);
    CHECK(count_of(flat, "5. g8? {(+#1 -> 0.0) Missed win. e6 was best.} ({Engine's best line} 5. e6) 5... f8") == 1);
    for (std::size_t at = 0, next; (next = gpn.find('\n', at)) != std::string::npos; at = next + 1) CHECK(next - at <= 79);
    // Read back by the record parser: the same Gomoku game with its marks and variations.
    std::vector<parser::Diagnostic> file_diagnostics;
    const std::vector<parser::GameRecord> back = parser::read_records(gpn, "stones.gpn", &file_diagnostics);
    CHECK(file_diagnostics.empty());
    REQUIRE(back.size() == 1);
    for (const parser::Diagnostic& d : back[0].diagnostics) FAIL_CHECK(parser::format_diagnostic(d));
    CHECK(back[0].kind == GameKind::gomoku);
    CHECK(back[0].status == parser::GameStatus::valid);
    REQUIRE(back[0].main.plies.size() == g.plies.size());
    for (std::size_t i = 0; i < g.plies.size(); ++i) {
        const parser::Ply& p = back[0].main.plies[i];
        CHECK(p.move == Move::placement(P(names[i])));
        const Verdict v = g.plies[i].judgement->verdict;
        CHECK(p.nags ==
              (v == Verdict::best ? std::vector<std::uint8_t>{} : std::vector<std::uint8_t>{std::uint8_t(verdict_nag(v))}));
        CHECK(p.variations.size() == (v == Verdict::best ? 0u : 1u));
    }
    CHECK(back[0].main.plies[3].variations[0].plies.size() == 2);
    const TempDir scratch("report");
    std::ofstream(scratch / "stones.gpn") << gpn;
    CHECK(run_gounki("validate " + shell_quoted(scratch / "stones.gpn")).status == 0);
    CHECK(gpn.find(" *\n\n") == gpn.size() - 4);

    // Mixed with a Gounki game: each keeps its own diagrams and numbering.
    GameReport gounki_game = generated_game(12);
    gounki_game.plies[4].judgement =
        judged(Verdict::blunder, 1.2, -3.4, gounki_game.plies[4].before, other_line(gounki_game.plies[4]));
    ReportModel mixed;
    mixed.games = {gounki_game, g};
    const std::string both = render_html(mixed);
    CHECK(count_of(both, "<svg class=\"board\"") == 2 + flagged.size() + 1); // Gounki: its blunder and final position
    CHECK(count_of(both, "data-game=\"Gomoku\"") == flagged.size() + 1);
    CHECK(count_of(both, "class=\"stack ") > 0);
}

TEST_CASE("variations inside variations: kept at every depth in the model, the viewer's data and the move lists",
          "[report][viewer][stones]") {
    const std::string text = "[Game \"Ninuki\"]\n[Size \"15\"]\n[Black \"Bea\"]\n[White \"Wim\"]\n[Result \"*\"]\n\n"
                             "1. h8 i8 2. a1 j8 3. k8 (3. a2 a3 (3... b2 {Inside.} 4. c3 (4. c4 d4) d3) 4. a4) *\n";
    const std::vector<parser::GameRecord> records = parser::read_records(text);
    REQUIRE(records.size() == 1);
    REQUIRE(records[0].status == parser::GameStatus::valid);
    const GameReport g = game_report(records[0]);
    REQUIRE(g.plies.size() == 5);
    REQUIRE(g.plies[4].variations.size() == 1);
    const Variation& outer = g.plies[4].variations[0];
    REQUIRE(outer.moves.size() == 3);
    REQUIRE(outer.moves[1].variations.size() == 1); // alternatives to 3... a3
    const Variation& middle = outer.moves[1].variations[0];
    REQUIRE(middle.moves.size() == 3);
    CHECK(middle.moves[0].move == Move::placement(P("b2")));
    CHECK(middle.moves[0].comments == std::vector<std::string>{"Inside."});
    REQUIRE(middle.moves[1].variations.size() == 1); // alternatives to 4. c3
    const Variation& inner = middle.moves[1].variations[0];
    REQUIRE(inner.moves.size() == 2);
    CHECK(inner.moves[1].move == Move::placement(P("d4")));
    // Each line is replayed from the position before the move it replaces.
    const stones::StonePosition& deepest = *inner.moves[1].after.stones();
    for (const char* b : {"h8", "a1", "a2", "c4"}) CHECK(deepest.at(P(b)) == stones::Stone::black);
    for (const char* w : {"i8", "j8", "b2", "d4"}) CHECK(deepest.at(P(w)) == stones::Stone::white);
    for (const char* none : {"k8", "a3", "c3"}) CHECK(deepest.at(P(none)) == stones::Stone::empty);

    // The viewer's data: each move of a line holds the lines inside it, named by their place.
    std::istringstream json(viewer_json(g));
    boost::property_tree::ptree data;
    boost::property_tree::read_json(json, data);
    std::vector<boost::property_tree::ptree> plies;
    for (const auto& p : data.get_child("plies")) plies.push_back(p.second);
    const auto nth = [](const boost::property_tree::ptree& t, const char* child, std::size_t n) {
        auto it = t.get_child(child).begin();
        std::advance(it, n);
        return it->second;
    };
    const auto l1 = nth(plies[4], "lines", 0);
    CHECK(l1.get<std::string>("name") == "Variation 1");
    const auto l11 = nth(nth(l1, "moves", 1), "lines", 0);
    CHECK(l11.get<std::string>("name") == "Variation 1.1");
    CHECK(nth(l11, "moves", 0).get<std::string>("no") == "3...");
    const auto l111 = nth(nth(l11, "moves", 1), "lines", 0);
    CHECK(l111.get<std::string>("name") == "Variation 1.1.1");
    CHECK(nth(l111, "moves", 0).get<std::string>("no") == "4.");
    CHECK(nth(l111, "moves", 1).get<std::string>("m") == "d4");
    CHECK_FALSE(nth(l111, "moves", 0).get_child_optional("lines").has_value());

    // The move lists: nested in parentheses, each move a span naming its line's path.
    ReportModel m;
    m.games = {g};
    const std::string html = render_html(m);
    CHECK(check_markup(html).empty());
    CHECK(count_of(html, "<span class=\"vmove\" data-ply=\"5\" data-line=\"0\" data-step=\"1\">a3") == 1);
    CHECK(count_of(html, "<span class=\"vmove\" data-ply=\"5\" data-line=\"0.1.0\" data-step=\"2\">d3") == 1);
    CHECK(count_of(html, "<span class=\"vmove\" data-ply=\"5\" data-line=\"0.1.0.1.0\" data-step=\"1\">d4") == 1);
    CHECK(count_of(render_markdown(m), "(3. a2 a3 (3... b2 _{Inside.}_ 4. c3 (4. c4 d4) 4... d3) 4. a4)") == 1);

    // The same from SGF: a branch inside a branch inside a branch.
    const std::vector<parser::GameRecord> sgf = parser::read_sgf(
        "(;GM[4]SZ[15]PB[Bea]PW[Wim];B[hh];W[ii](;B[jj];W[kk];B[ll])(;B[aa];W[bb](;B[cc])(;B[dd];W[ee](;B[ff])(;B[gg]))))\n",
        "nested.sgf");
    REQUIRE(sgf.size() == 1);
    REQUIRE(sgf[0].status == parser::GameStatus::valid);
    m.games = {game_report(sgf[0])};
    CHECK(count_of(render_markdown(m), "2. j6 (2. a15 b14 3. c13 (3. d12 e11 4. f10 (4. g9))) 2... k5") == 1);
    const std::string sgf_html = render_html(m);
    CHECK(count_of(sgf_html, "data-line=\"0.2.0.2.0\" data-step=\"0\">g9") == 1);
}

TEST_CASE("Renju diagrams and the viewer mark the points forbidden to Black when Black is to move", "[report][viewer][stones]") {
    // h8 makes two open threes (f8 g8 across, h9 h10 up); a4 makes six in a row on the a-file.
    const std::vector<std::string> black{"f8", "g8", "h9", "h10", "a1", "a2", "a3", "a5", "a6"};
    const std::vector<std::string> white{"o1", "o3", "o5", "o7", "o9", "o11", "o13", "o15", "m1"};
    const stones::StonePosition pos = stone_board(GameKind::renju, 15, black, white, Color::black);
    const auto points = stones::forbidden_points(pos);
    REQUIRE(points.size() == 2);
    CHECK(points[0] == std::pair(P("a4"), stones::Forbidden::overline));
    CHECK(points[1] == std::pair(P("h8"), stones::Forbidden::double_three));
    // Every other empty point is allowed, as the rules' own test says.
    for (int p = 0; p < stones::point_count; ++p)
        if (pos.on_board(p) && pos.at(p) == stones::Stone::empty && p != P("a4") && p != P("h8"))
            CHECK(stones::renju_forbidden(pos, p) == stones::Forbidden::none);

    const std::string svg = stones_svg_checked(pos, {});
    CHECK(count_of(svg, "class=\"forbidden\"") == 2);
    CHECK(contains(svg, "<path class=\"forbidden\" data-point=\"h8\""));
    CHECK(contains(svg, "<title>h8: double-three, forbidden to Black</title>"));
    CHECK(contains(svg, "<title>a4: overline, forbidden to Black</title>"));
    CHECK(contains(stone_board_text(pos), "\nBlack to move\nForbidden to Black: a4 (overline), h8 (double-three)\n"));
    StoneBoardStyle plain;
    plain.forbidden = false;
    CHECK(!contains(stones_svg_checked(pos, plain), "forbidden"));
    // White to move, or the same stones in Gomoku: nothing is forbidden.
    CHECK(!contains(stones_svg_checked(stone_board(GameKind::renju, 15, black, white, Color::white), {}), "forbidden"));
    CHECK(!contains(stone_board_text(stone_board(GameKind::renju, 15, black, white, Color::white)), "Forbidden"));
    CHECK(!contains(stones_svg_checked(stone_board(GameKind::gomoku, 15, black, white, Color::black), {}), "forbidden"));

    // The viewer's data: the forbidden cells (file + 15 * rank) after each ply with Black to move.
    const std::string text = "[Game \"Renju\"]\n[Result \"*\"]\n\n"
                             "1. f8 o1 2. g8 o3 3. h9 o5 4. h10 o7 5. a1 o9 6. a2 o11 7. a3 o13 8. a5 o15 9. a6 m1 10. b1 *\n";
    const std::vector<parser::GameRecord> records = parser::read_records(text);
    REQUIRE(records.size() == 1);
    REQUIRE(records[0].status == parser::GameStatus::valid);
    const std::string json = viewer_json(game_report(records[0]));
    const std::string h8 = std::to_string(7 + 15 * 7), a4 = std::to_string(0 + 15 * 3);
    // h8 from 4... o7 on, after each White move (5 of them); a4 only once a6 is on the board (after
    // 9... m1): with a5 alone, a4 makes an exact five, which wins. None after a Black move.
    CHECK(count_of(json, "\"fb\":[" + h8 + "]") == 5);
    CHECK(count_of(json, "\"fb\":[" + a4 + "," + h8 + "]") == 1);
    CHECK(count_of(json, "\"fb\"") == 6);
}
