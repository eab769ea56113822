// Reports and diagrams of Gounki games: board SVG and text, and the HTML, Markdown and annotated
// record renderers fed with report models built by hand from real games of the rules core, down to
// a picture of the HTML in headless Chromium; stone-game reports, alone and mixed with Gounki games.
// Stone-game diagrams: report_stones_test.cpp; the commands: report_cli_test.cpp.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>

#include <sstream>
#include <tuple>

#include <boost/property_tree/json_parser.hpp>
#include <unistd.h>

#include "report/board_diagram.hpp"
#include "report/format.hpp"
#include "report/from_record.hpp"
#include "report/render.hpp"
#include "report/viewer.hpp"
#include "parser/reader.hpp"
#include "parser/writer.hpp"

using namespace gounki;
using namespace gounki::report;
using namespace gounki::test;

namespace {

// A ply of a model built by hand: its move, who played it and the position before it.
Ply hand_ply(std::string move, Color side, std::string before) {
    Ply p;
    p.move = std::move(move);
    p.side = side;
    p.position_before = std::move(before);
    return p;
}

// Plays `moves` (record notation) from `start` into a GameReport with canonical texts.
GameReport play(const std::string& start, const std::vector<std::string>& moves) {
    GameReport g;
    if (!start.empty()) g.start_position = start;
    Position pos = start.empty() ? Position::start() : position_of(start);
    for (const std::string& text : moves) {
        const Move m = move_of(pos, text);
        g.plies.push_back(hand_ply(move_to_text(pos, m), pos.side_to_move(), pos.to_text()));
        UndoRecord u;
        pos.do_move(m, u);
    }
    return g;
}

// `n` plies from the start, each the (7i+3)-th legal move mod the count: a real, varied game.
GameReport play_generated(int n) {
    Position pos = Position::start();
    std::vector<std::string> texts;
    for (int i = 0; i < n && !pos.game_over(); ++i) {
        MoveList list;
        generate_moves(pos, list);
        const Move m = list[(7 * i + 3) % list.size()];
        texts.push_back(move_to_text(pos, m));
        UndoRecord u;
        pos.do_move(m, u);
    }
    return play("", texts);
}

// A legal move of the ply's position other than the one played, and a legal reply after it.
std::vector<std::string> other_line(const Ply& p) {
    Position pos = position_of(p.position_before);
    MoveList list;
    generate_moves(pos, list);
    for (Move m : list) {
        if (move_to_text(pos, m) == p.move) continue;
        std::vector<std::string> line{move_to_text(pos, m)};
        UndoRecord u;
        pos.do_move(m, u);
        MoveList replies;
        generate_moves(pos, replies);
        if (!replies.empty()) line.push_back(move_to_text(pos, replies[0]));
        return line;
    }
    FAIL("no other move");
    return {};
}

// The missed win: White's S on d7 wins by d7-d8 then d8-Out (+#3); a1-a2 lets Black's s on e2 get
// there first (e2-e1, e1-Out: -#4 for White).
constexpr const char* race = "8/3S4/8/8/8/8/4s3/S7 w";

GameReport missed_win_game() {
    GameReport g = play(race, {"a1-a2", "e2-e1", "d7-d8", "e1-Out"});
    g.white = "Ann <\"&'> \u00c9mile";
    g.black = "Bob & Co";
    g.event = "Club <evening>";
    g.result = "0-1";
    Judgement j;
    j.verdict = Verdict::missed_win;
    j.best = {0, 3};
    j.played = {0, -4};
    j.best_move = "d7-d8";
    j.best_line = {"d7-d8", "e2-e1", "d8-Out"};
    j.expected_before = 1;
    j.expected_after = 0;
    g.plies[0].judgement = j;
    Judgement k;
    k.verdict = Verdict::allows_loss;
    k.best = {0, 0};
    k.best.pieces = 0.0;
    k.played = {0, -2};
    k.best_move = "a2-a3";
    k.best_line = {"a2-a3"};
    k.expected_before = 0.0;
    k.expected_after = 0.0;
    g.plies[2].judgement = k;
    g.summary[0].accuracy = 41.5;
    return g;
}

// A 12-ply game from the start: blunder at ply 5 (White), mistake at 6, inaccuracy at 7, plain
// judgements elsewhere, ply 12 not judged.
GameReport blunder_game() {
    GameReport g = play_generated(12);
    REQUIRE(g.plies.size() == 12);
    g.white = "Carla";
    g.black = "Bob & Co";
    g.date = "2026.11.02";
    g.result = "1-0";
    g.other_tags.push_back({"Round", "3"});
    for (std::size_t i = 0; i + 1 < g.plies.size(); ++i) g.plies[i].judgement = judged(Verdict::none, 0.3, 0.2, {});
    g.plies[4].judgement = judged(Verdict::blunder, 1.2, -3.4, other_line(g.plies[4]));
    g.plies[5].judgement = judged(Verdict::mistake, 0.5, -0.9, other_line(g.plies[5]));
    g.plies[6].judgement = judged(Verdict::inaccuracy, 0.4, -0.1, other_line(g.plies[6]));
    g.summary[0].accuracy = 77.26;
    g.summary[1].accuracy = 81;
    return g;
}

ReportModel two_games() {
    ReportModel m;
    m.title = "Test report <&>";
    m.annotator = "gounki test";
    m.games = {blunder_game(), missed_win_game()};
    return m;
}

// Every byte sequence is valid UTF-8.
bool valid_utf8(const std::string& s) {
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
        if (extra < 0 || i + std::size_t(extra) >= s.size()) return false;
        for (int k = 1; k <= extra; ++k)
            if ((static_cast<unsigned char>(s[i + std::size_t(k)]) >> 6) != 2) return false;
        i += std::size_t(extra) + 1;
    }
    return true;
}

// What the HTML may not contain: anything that loads from outside the file.
void check_self_contained(const std::string& html) {
    for (const char* outside : {"http", "src=", "<link", "@import", "url(", "fetch(", "XMLHttpRequest"}) {
        INFO(outside);
        CHECK(count_of(html, outside) == 0);
    }
    // Scripts are inline: the viewer's data blocks and its one script.
    const std::size_t script = count_of(html, "<script>//<![CDATA[");
    CHECK(script <= 1);
    CHECK(count_of(html, "<script") == script + count_of(html, "<script type=\"application/json\" class=\"viewer-data\""));
    for (std::size_t at = html.find("href=\""); at != std::string::npos; at = html.find("href=\"", at + 1))
        CHECK(html[at + 6] == '#');
}

// `moves` (point names) played from an empty board of `kind` into a GameReport.
GameReport play_stones(GameKind kind, const std::vector<std::string>& moves) {
    GameReport g;
    g.kind = kind;
    stones::StonePosition pos(stones::Rules::defaults(kind));
    for (const std::string& name : moves) {
        const Move m = Move::placement(P(name));
        REQUIRE(pos.is_legal(m));
        g.plies.push_back(hand_ply(name, pos.side_to_move(), pos.to_text()));
        stones::StoneUndo u;
        pos.play(m, u);
    }
    return g;
}

} // namespace

TEST_CASE("the SVG board draws one shape per simple piece, rounds above squares", "[report]") {
    const std::string svg = board_svg(Position::start());
    CHECK(svg.rfind("<?xml", 0) == 0);
    CHECK(count_of(svg, "class=\"round\"") == 16);
    CHECK(count_of(svg, "class=\"square\"") == 16);
    CHECK(count_of(svg, "class=\"stack white\"") == 16);
    CHECK(check_markup(svg).empty());

    const Position p = position_of("8/8/8/8/3(rrs)4/8/1(RS)6/8 b");
    BoardStyle inline_style;
    inline_style.standalone = false;
    const std::string s = board_svg(p, inline_style);
    CHECK(count_of(s, "http") == 0); // no xmlns inside HTML
    CHECK(count_of(s, "data-stack=\"rrs\"") == 1);
    CHECK(count_of(s, "data-stack=\"RS\"") == 1);
    CHECK(count_of(s, "Black to move") == 1);
    // RS on b2: the circle's centre lies above the square's top edge.
    const std::size_t at = s.find("data-square=\"b2\"");
    const double cy = std::stod(between(s, "cy=\"", "\"", at));
    const double top = std::stod(between(s, "y=\"", "\"", s.find("class=\"square\"", at)));
    CHECK(cy < top);
}

TEST_CASE("SVG arrows: movement, bounce, deployment path and exit off the board", "[report]") {
    const Position p = position_of("r7/8/2(RS)3(RRR)1/8/3(rrs)4/5(SSS)2/1(RR)3(ss)2/(RSS)6S w");
    auto svg_with = [&](const std::string& move, ArrowKind kind = ArrowKind::move) {
        BoardStyle st;
        st.arrows.push_back({move_of(p, move), kind});
        return board_svg(p, st);
    };
    auto polyline_points = [](const std::string& svg) { return count_of(between(svg, "<polyline", "/>"), ","); };

    const std::string deploy = svg_with("c6*c7,d8", ArrowKind::best);
    CHECK(count_of(deploy, "class=\"arrow best\" data-move=\"c6*c7,d8\"") == 1);
    CHECK(polyline_points(deploy) == 3); // c6, c7, d8
    CHECK(check_markup(deploy).empty());

    const std::string bounce = svg_with("b2-b4"); // a round bouncing off file a: a3, b4
    CHECK(polyline_points(bounce) == 3);

    // The exit's head lies above the board (rank 8 is at the top, the board starts at y=39).
    const std::string exit = svg_with("g6-Out", ArrowKind::played);
    const std::string head = between(exit, "<polygon stroke=\"none\" points=\"", "\"");
    const double tip_y = std::stod(head.substr(head.find(',') + 1));
    CHECK(tip_y < 39);
    const std::string deploy_out = svg_with("g6*h7,g8,out");
    CHECK(polyline_points(deploy_out) == 4); // g6, h7, g8, off the board
}

TEST_CASE("the text diagram shows stacks, side to move and arrows as lines", "[report]") {
    const Position p = position_of("8/8/8/8/3(rrs)4/8/1(RS)6/8 w");
    const std::string expected = "8 .   .   .   .   .   .   .   .\n"
                                 "7 .   .   .   .   .   .   .   .\n"
                                 "6 .   .   .   .   .   .   .   .\n"
                                 "5 .   .   .   .   .   .   .   .\n"
                                 "4 .   .   .   rrs .   .   .   .\n"
                                 "3 .   .   .   .   .   .   .   .\n"
                                 "2 .   RS  .   .   .   .   .   .\n"
                                 "1 .   .   .   .   .   .   .   .\n"
                                 "  a   b   c   d   e   f   g   h\n"
                                 "White to move\n"
                                 "Best: b2*c3,c4\n";
    CHECK(board_text(p, {{move_of(p, "b2*c3,c4"), ArrowKind::best}}) == expected);
    const std::string flipped = board_text(p, {}, true);
    CHECK(flipped.rfind("1 .", 0) == 0);
    CHECK(count_of(flipped, "  h   g   f   e   d   c   b   a\n") == 1);
}

TEST_CASE("scores, comments and marks are worded as docs/rules.md 1.8 records expect", "[report]") {
    CHECK(format_score({1.2, 0}) == "+1.2");
    CHECK(format_score({-3.44, 0}) == "-3.4");
    CHECK(format_score({-0.01, 0}) == "0.0");
    CHECK(format_score({0, 3}) == "+#3");
    CHECK(format_score({0, -2}) == "-#2");
    Judgement j = judged(Verdict::blunder, 1.2, -3.4, {"d4*e5,f6"});
    CHECK(judgement_comment(j) == "(+1.2 -> -3.4) Blunder. d4*e5,f6 was best.");
    CHECK(verdict_nag(Verdict::blunder) == 4);
    CHECK(verdict_nag(Verdict::mistake) == 2);
    CHECK(verdict_nag(Verdict::inaccuracy) == 6);
    CHECK(parse_verdict("missed-win") == Verdict::missed_win);
    CHECK(parse_verdict("allows-loss") == Verdict::allows_loss);
    CHECK(parse_verdict("none") == Verdict::none);
    CHECK_FALSE(parse_verdict("dubious"));
    CHECK(xml_escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;");
    // The evaluation curve: White's view; unjudged plies keep the value, a decided game ends on its result.
    const std::vector<double> race_curve = white_curve(missed_win_game());
    CHECK(race_curve == std::vector<double>{0, 0, 0, 0});
    const std::vector<double> curve = white_curve(blunder_game());
    REQUIRE(curve.size() == 12);
    CHECK(curve[0] == Approx(0.52));
    CHECK(curve[1] == Approx(0.48));
    CHECK(curve[4] == Approx(0.16)); // White's blunder: 0.5 - 3.4 / 10
    CHECK(curve[11] == 1.0);
}

TEST_CASE("annotated records carry marks, comments and best lines, and read back as valid games", "[report]") {
    const ReportModel m = two_games();
    const std::string gpn = render_annotated_gpn(m);
    INFO(gpn);
    const GameReport& g = m.games[0];
    CHECK(count_of(gpn, "[Annotator \"gounki test\"]") == 2);
    CHECK(count_of(gpn, "[White \"Ann <\\\"&'> \u00c9mile\"]") == 1);
    CHECK(count_of(gpn, "[SetUp \"1\"]") == 1);
    CHECK(count_of(gpn, std::string("[Position \"") + race + "\"]") == 1);
    CHECK(count_of(gpn, "[Round \"3\"]") == 1);

    // The blunder at ply 5 (White's third move): mark, comment, the best line as a variation.
    std::string flat = gpn;
    std::replace(flat.begin(), flat.end(), '\n', ' ');
    const Ply& b = g.plies[4];
    CHECK(count_of(flat,
                   "3. " + b.move + "?? {(+1.2 -> -3.4) Blunder. " + b.judgement->best_move + " was best.} ({Engine's best line} 3. " +
                       b.judgement->best_line[0] + " " + b.judgement->best_line[1] + ") 3... " + g.plies[5].move) == 1);
    const Ply& mi = g.plies[5];
    CHECK(count_of(flat,
                   "3... " + mi.move + "? {(+0.5 -> -0.9) Mistake. " + mi.judgement->best_move + " was best.} ({Engine's best line} 3... " +
                       mi.judgement->best_line[0] + " 4. " + mi.judgement->best_line[1] + ")") == 1);
    CHECK(count_of(flat, g.plies[6].move + "?! {(+0.4 -> -0.1) Inaccuracy.") == 1);
    CHECK(count_of(flat, "1. " + g.plies[0].move + " {(+0.3 -> +0.2)} 1... " + g.plies[1].move) == 1);
    // The missed win and the allowed loss.
    CHECK(count_of(flat, "1. a1-a2? {(+#3 -> -#4) Missed win. d7-d8 was best.} ({Engine's best line} 1. d7-d8 e2-e1 2. d8-Out) 1... e2-e1") == 1);
    CHECK(count_of(flat, "2. d7-d8?? {(0.0 -> -#2) Allows a loss. a2-a3 was best.} ({Engine's best line} 2. a2-a3) 2... e1-Out 0-1") == 1);

    // Read back by the record parser: valid games with the same moves, marks and variations.
    std::vector<parser::Diagnostic> file_diagnostics;
    const std::vector<parser::GameRecord> games = parser::read_records(gpn, "annotated.gpn", &file_diagnostics);
    CHECK(file_diagnostics.empty());
    REQUIRE(games.size() == 2);
    for (std::size_t k = 0; k < 2; ++k) {
        const parser::GameRecord& r = games[k];
        for (const parser::Diagnostic& d : r.diagnostics) FAIL_CHECK(parser::format_diagnostic(d));
        CHECK(r.status == parser::GameStatus::valid);
        CHECK(*r.tag("Annotator") == "gounki test");
        REQUIRE(r.main.plies.size() == m.games[k].plies.size());
        Position pos = r.start.as_gounki();
        for (std::size_t i = 0; i < r.main.plies.size(); ++i) {
            const parser::Ply& p = r.main.plies[i];
            const Ply& want = m.games[k].plies[i];
            CHECK(move_to_text(pos, p.move) == want.move);
            const Verdict v = want.judgement ? want.judgement->verdict : Verdict::none;
            CHECK(p.nags ==
                  (v == Verdict::none ? std::vector<std::uint8_t>{} : std::vector<std::uint8_t>{std::uint8_t(verdict_nag(v))}));
            CHECK(p.comments.size() == (want.judgement ? 1u : 0u));
            CHECK(p.variations.size() == (v == Verdict::none ? 0u : 1u));
            UndoRecord u;
            pos.do_move(p.move, u);
        }
    }
    CHECK(games[1].main.plies[0].variations[0].plies.size() == 3);

    // And by `gounki validate`.
    const TempDir scratch("report");
    std::ofstream(scratch / "annotated.gpn") << gpn;
    CHECK(run_gounki("validate " + shell_quoted(scratch / "annotated.gpn")).status == 0);

    GpnOptions terse;
    terse.comment_every_judged_move = false;
    terse.variations = false;
    const std::string t = render_annotated_gpn(m, terse);
    CHECK(count_of(t, "{(+0.3 -> +0.2)}") == 0);
    CHECK(count_of(t, "(") == count_of(t, "{(")); // no variations: every '(' opens a comment's score
    CHECK(count_of(t, "{") == 5);
}

TEST_CASE("the HTML report: marks, one graph point per ply, one diagram per flagged move", "[report]") {
    const ReportModel m = two_games();
    const std::string html = render_html(m);
    INFO(check_markup(html));
    CHECK(check_markup(html).empty());
    CHECK(valid_utf8(html));
    check_self_contained(html);

    // Escaping: names with markup characters and accents come out as text, UTF-8.
    CHECK(count_of(html, "Ann &lt;&quot;&amp;&#39;&gt; \u00c9mile") >= 2);
    CHECK(count_of(html, "Ann <") == 0);
    CHECK(count_of(html, "<title>Test report &lt;&amp;&gt;</title>") == 1);

    std::size_t flagged_total = 0;
    for (std::size_t k = 0; k < m.games.size(); ++k) {
        const GameReport& g = m.games[k];
        const std::string anchor = "game-" + std::to_string(k + 1);
        const std::size_t from = html.find("<section class=\"game\" id=\"" + anchor + "\"");
        REQUIRE(from != std::string::npos);
        const std::string section = html.substr(from, html.find("</section>", from) - from);
        const std::string graph = between(section, "<svg class=\"graph\"", "</svg>");
        CHECK(count_of(graph, "<circle class=\"point") == g.plies.size());
        CHECK(count_of(graph, "data-ply=\"") == g.plies.size());
        CHECK(count_of(between(graph, "<polyline class=\"eval\"", "/>"), ",") == g.plies.size());
        for (std::size_t i = 0; i < g.plies.size(); ++i)
            CHECK(count_of(graph, "data-ply=\"" + std::to_string(i + 1) + "\"") == 1);

        std::size_t flagged = 0;
        for (std::size_t i = 0; i < g.plies.size(); ++i) {
            const Ply& p = g.plies[i];
            if (!p.judgement || !is_flagged(p.judgement->verdict)) continue;
            ++flagged;
            const std::string id = anchor + "-d" + std::to_string(i + 1);
            const std::string fig = between(section, "id=\"" + id + "\"", "</figure>");
            CHECK(count_of(fig, "<svg class=\"board\"") == 1);
            CHECK(count_of(fig, "class=\"arrow best\" data-move=\"" + xml_escape(p.judgement->best_move) + "\"") == 1);
            CHECK(count_of(fig, "class=\"arrow played\" data-move=\"" + xml_escape(p.move) + "\"") == 1);
        }
        CHECK(count_of(section, "<figure class=\"flagged") == flagged);
        CHECK(count_of(section, "<svg class=\"board\"") == flagged + 1); // and the viewer's final position
        flagged_total += flagged;
    }
    CHECK(flagged_total == 4); // blunder, mistake, missed win, allowed loss; not the inaccuracy
    CHECK(count_of(html, "<svg class=\"board\"") == flagged_total + m.games.size());

    const GameReport& g = m.games[0];
    CHECK(count_of(html, xml_escape(g.plies[4].move) + "<span class=\"mark\">?\?</span>") == 1);
    CHECK(count_of(html, xml_escape(g.plies[5].move) + "<span class=\"mark\">?</span>") == 1);
    CHECK(count_of(html, xml_escape(g.plies[6].move) + "<span class=\"mark\">?!</span>") == 1);
    CHECK(count_of(html, "a1-a2<span class=\"mark\">?</span><span class=\"badge\">missed win</span>") == 1);
    CHECK(count_of(html, "d7-d8<span class=\"mark\">?\?</span><span class=\"badge\">allows loss</span>") == 1);
    CHECK(count_of(html, "<td class=\"num\">77.3%</td>") == 2); // Carla's accuracy, rounded: game and players

    // Many games: per-player statistics and the opening table.
    CHECK(count_of(html, "<section id=\"players\">") == 1);
    CHECK(count_of(html, "<section id=\"openings\">") == 1);
    CHECK(count_of(html, "<tr><td>Bob &amp; Co</td><td class=\"num\">2</td>") == 1);
    CHECK(count_of(html, "1. " + xml_escape(g.plies[0].move + " " + g.plies[1].move) + "</td>") == 1);

    // One game: no statistics sections.
    ReportModel one = m;
    one.games.resize(1);
    const std::string single = render_html(one);
    CHECK(check_markup(single).empty());
    CHECK(count_of(single, "id=\"players\"") == 0);
    CHECK(count_of(single, "<svg class=\"board\"") == 3);
}

TEST_CASE("the Markdown report has the same content with text diagrams and a sparkline", "[report]") {
    const ReportModel m = two_games();
    const std::string md = render_markdown(m);
    auto md_move = [](std::string s) {
        std::string out;
        for (char c : s) out += c == '*' ? std::string("\\*") : std::string(1, c);
        return out;
    };
    const GameReport& g = m.games[0];
    CHECK(count_of(md, "**" + md_move(g.plies[4].move) + "??**") == 1);
    CHECK(count_of(md, "**" + md_move(g.plies[5].move) + "?**") == 1);
    CHECK(count_of(md, "**a1-a2?** _(missed win)_") == 1);
    CHECK(count_of(md, "**d7-d8??** _(allows loss)_") == 1);
    CHECK(count_of(md, "```text\n") == 4); // one text diagram per flagged move
    CHECK(count_of(md, "Best: " + g.plies[4].judgement->best_move) == 1);
    CHECK(count_of(md, "`(+1.2 -> -3.4) Blunder. " + g.plies[4].judgement->best_move + " was best.`") == 1);
    // Sparklines: one block character (3 bytes in UTF-8) per ply.
    std::size_t blocks = 0;
    for (const char* b : {"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588"})
        blocks += count_of(md, b);
    CHECK(blocks == g.plies.size() + m.games[1].plies.size());
    CHECK(count_of(md, "Ann <") == 0);
    CHECK(count_of(md, "Ann \\<\"&amp;'\\> \u00c9mile") >= 1);
    CHECK(count_of(md, "## Players") == 1);
    CHECK(count_of(md, "## Openings") == 1);
    CHECK(count_of(md, "\n1\\. ") == 2); // move lists are no ordered lists
}

TEST_CASE("player statistics and the opening table count results by colour", "[report]") {
    const ReportModel m = two_games();
    const std::vector<PlayerStats> players = player_statistics(m.games);
    REQUIRE(players.size() == 3);
    CHECK(players[0].name == "Bob & Co");
    CHECK(players[0].games == 2);
    CHECK(players[0].results[1][2] == 1); // lost with Black against Carla
    CHECK(players[0].results[1][0] == 1); // won with Black against Ann
    CHECK(players[0].average_accuracy == 81);
    const std::vector<OpeningLine> openings = opening_table(m.games, 2);
    REQUIRE(openings.size() == 1); // the race game starts from a set-up position
    CHECK(openings[0].games == 1);
    CHECK(openings[0].white_wins == 1);
    GameReport g = m.games[0];
    summarize(g);
    CHECK(g.summary[0].blunders == 1);
    CHECK(g.summary[0].inaccuracies == 1);
    CHECK(g.summary[1].mistakes == 1);
    CHECK(g.summary[0].judged + g.summary[1].judged == 11);
    CHECK(g.summary[0].accuracy == 77.26);
}

// A stone-game report, alone and mixed with a Gounki game.
TEST_CASE("a stone-game report draws one stone diagram per flagged ply, in HTML, Markdown and records", "[report][stones]") {
    GameReport g = play_stones(GameKind::gomoku, {"h8", "h9", "i9", "g7", "j10", "k11", "i8", "i10", "g8", "f8"});
    g.white = "Wanda";
    g.black = "Boris";
    g.result = "*";
    for (std::size_t i = 0; i < g.plies.size(); ++i) g.plies[i].judgement = judged(Verdict::none, 0.2, 0.1, {});
    g.plies[3].judgement = judged(Verdict::blunder, 1.0, -4.0, {"k11", "g7"});
    g.plies[6].judgement = judged(Verdict::mistake, 0.5, -1.0, {"l12"});
    g.plies[7].judgement = judged(Verdict::inaccuracy, 0.3, 0.0, {"l12"});
    g.plies[8].judgement = judged(Verdict::missed_win, 0.0, 0.0, {"e6"});
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
        CHECK(count_of(fig, "<g class=\"mark played\" data-point=\"" + p.move + "\"") == 1);
        CHECK(count_of(fig, "<g class=\"mark best\" data-point=\"" + p.judgement->best_move + "\"") == 1);
        CHECK(count_of(fig, "<circle class=\"last\" data-point=\"" + g.plies[i - 1].move + "\"") == 1);
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
        const std::size_t at = md.find("#### " + move_number_text(g, i) + " `" + p.move);
        REQUIRE(at != std::string::npos);
        const std::string block = between(md, "```text\n", "```", at);
        CHECK(count_of(block, "Played: " + p.move + "\n") == 1);
        CHECK(count_of(block, "Best: " + p.judgement->best_move + "\n") == 1);
        CHECK(count_of(block, "Last: " + g.plies[i - 1].move + "\n") == 1);
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
        CHECK(p.move == Move::placement(P(g.plies[i].move)));
        const Verdict v = g.plies[i].judgement->verdict;
        CHECK(p.nags ==
              (v == Verdict::none ? std::vector<std::uint8_t>{} : std::vector<std::uint8_t>{std::uint8_t(verdict_nag(v))}));
        CHECK(p.variations.size() == (v == Verdict::none ? 0u : 1u));
    }
    CHECK(back[0].main.plies[3].variations[0].plies.size() == 2);
    const TempDir scratch("report");
    std::ofstream(scratch / "stones.gpn") << gpn;
    CHECK(run_gounki("validate " + shell_quoted(scratch / "stones.gpn")).status == 0);
    CHECK(gpn.find(" *\n\n") == gpn.size() - 4);

    // Mixed with a Gounki game: each keeps its own diagrams and numbering.
    ReportModel mixed;
    mixed.games = {blunder_game(), g};
    const std::string both = render_html(mixed);
    CHECK(count_of(both, "<svg class=\"board\"") == 2 + flagged.size() + 2);
    CHECK(count_of(both, "data-game=\"Gomoku\"") == flagged.size() + 1);
    CHECK(count_of(both, "class=\"stack ") > 0);
}

TEST_CASE("the HTML report renders in headless Chromium to a picture that is not blank", "[report]") {
    const char* chromium = "/usr/bin/chromium";
    if (!have_tool(std::filesystem::exists(chromium), "Chromium at /usr/bin/chromium (Debian package chromium)")) return;
    // Kept after the test, for people looking at what the renderers make.
    const auto dir = std::filesystem::temp_directory_path() / ("gounki-report-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    {
        std::ofstream(dir / "report.html") << render_html(two_games());
        // Beside it, for people looking at what the renderers make.
        std::ofstream(dir / "report.md") << render_markdown(two_games());
        std::ofstream(dir / "report.gpn") << render_annotated_gpn(two_games());
        std::ofstream(dir / "blank.html") << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"/></head><body></body></html>";
    }
    auto shoot = [&](const std::string& page) {
        const auto png = dir / (page + ".png");
        std::filesystem::remove(png);
        run_shell(std::string("timeout 120 ") + chromium +
                  " --headless --no-sandbox --disable-gpu --hide-scrollbars --screenshot=" + png.string() +
                  " --window-size=1000,1400 file://" + (dir / (page + ".html")).string());
        return slurp(png);
    };
    const std::string blank = shoot("blank");
    const std::string report = shoot("report");
    REQUIRE(report.size() > 24);
    CHECK(report.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
    auto be32 = [&](std::size_t at) {
        return (unsigned(static_cast<unsigned char>(report[at])) << 24) |
            (unsigned(static_cast<unsigned char>(report[at + 1])) << 16) |
            (unsigned(static_cast<unsigned char>(report[at + 2])) << 8) | unsigned(static_cast<unsigned char>(report[at + 3]));
    };
    CHECK(be32(16) == 1000); // IHDR width and height
    CHECK(be32(20) == 1400);
    // A blank page compresses to a few kilobytes; boards, tables and text take many times that.
    INFO("blank " << blank.size() << " bytes, report " << report.size() << " bytes, in " << dir.string());
    CHECK(report.size() > 5 * std::max<std::size_t>(blank.size(), 1000));
}

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
    const GameReport played = play_generated(10);
    REQUIRE(played.plies.size() == 10);
    const std::vector<std::string> alt = other_line(played.plies[3]);
    REQUIRE(alt.size() == 2);
    std::string text = "[Event \"Viewer\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"*\"]\n\n{Before the game.} ";
    for (std::size_t i = 0; i < played.plies.size(); ++i) {
        if (i % 2 == 0) text += std::to_string(i / 2 + 1) + ". ";
        text += played.plies[i].move + " ";
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
    CHECK(var.moves[0].move == alt[0]);
    CHECK(var.moves[1].move == alt[1]);
    CHECK(var.moves[0].comments == std::vector<std::string>{"The other way."});
    Position replay = position_of(played.plies[3].position_before);
    for (const LineMove& m : var.moves) {
        UndoRecord u;
        replay.do_move(move_of(replay, m.move), u);
        CHECK(m.after.to_text() == replay.to_text());
    }
    const std::vector<AnyPosition> positions = game_positions(g);
    REQUIRE(positions.size() == 11);
    for (std::size_t i = 0; i < 10; ++i) CHECK(positions[i].to_text() == played.plies[i].position_before);
    // A model built by hand (no positions held) gives the same positions from its texts.
    const std::vector<AnyPosition> by_text = game_positions(played);
    REQUIRE(by_text.size() == 11);
    CHECK(by_text.back() == positions.back());

    // The data: each ply's changes lead to the replayed board; comments, NAGs and the variation come along.
    const ptree data = viewer_data(g);
    CHECK(data.get<std::string>("kind") == "Gounki");
    CHECK(std::stoi(data.get<std::string>("size")) == 8);
    CHECK(texts(data.get_child("start.c")) == std::vector<std::string>{"Before the game."});
    check_steps(data, positions);
    std::vector<ptree> steps;
    for (const auto& step : data.get_child("plies")) steps.push_back(step.second);
    CHECK(steps[0].get<std::string>("m") == played.plies[0].move);
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
    // A judged ply with the engine's line and its positions (as report::game_report fills them from a judgement).
    Judgement j;
    j.best_move = "g8";
    j.best_line = {"g8", "g9"};
    AnyPosition after = positions[4];
    for (const std::string& m : j.best_line) {
        after.play(std::get<Move>(after.parse_move(m)));
        j.best_line_after.push_back(after);
    }
    j.verdict = Verdict::mistake;
    j.played = {-1.5, 0};
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
    CHECK(best[1] == board_cells(j.best_line_after[1]));
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
    const GameReport a = play_generated(9);
    std::string records = "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"*\"]\n\n";
    for (std::size_t i = 0; i < a.plies.size(); ++i)
        records += (i % 2 == 0 ? std::to_string(i / 2 + 1) + ". " : std::string()) + a.plies[i].move + " ";
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

// A Gounki game whose first ply is the `first`-th legal move at the start and whose second is the
// `reply`-th legal move after it, then `more` plies of play_generated's kind.
GameReport gounki_opening(std::size_t first, std::size_t reply, int more) {
    Position pos = Position::start();
    std::vector<std::string> texts;
    for (int i = 0; i < 2 + more && !pos.game_over(); ++i) {
        MoveList list;
        generate_moves(pos, list);
        const std::size_t k = i == 0 ? first : i == 1 ? reply : std::size_t(7 * i + 3);
        const Move m = list[k % list.size()];
        texts.push_back(move_to_text(pos, m));
        UndoRecord u;
        pos.do_move(m, u);
    }
    return play("", texts);
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

} // namespace

TEST_CASE("many games of several kinds: players, openings and games tables per kind; openings at 1-2 plies", "[report]") {
    // Ann plays Gounki against Bob and Gomoku against Cid; the other kinds a game or two each.
    const std::vector<std::tuple<std::size_t, std::size_t, std::string>> gounki_games{
        {0, 0, "1-0"}, {0, 0, "0-1"}, {0, 1, "1/2-1/2"}, {1, 0, "1-0"}, {1, 0, "*"}, {2, 0, "1-0"}};
    ReportModel m;
    for (const auto& [first, reply, result] : gounki_games)
        m.games.push_back(with_players(gounki_opening(first, reply, 3), "Ann", "Bob", result));
    m.games[0].summary[0].accuracy = 80; // Ann's Gounki accuracy: (80 + 90) / 2
    m.games[3].summary[0].accuracy = 90;
    m.games.push_back(with_players(play_stones(GameKind::gomoku, {"h8", "h9", "i9"}), "Cid", "Ann", "0-1"));
    m.games.push_back(with_players(play_stones(GameKind::gomoku, {"h8", "h9", "j10"}), "Cid", "Ann", "1-0"));
    m.games.push_back(with_players(play_stones(GameKind::gomoku, {"h8", "i9", "g7"}), "Ann", "Cid", "0-1"));
    m.games.push_back(with_players(play_stones(GameKind::gomoku, {"i8", "h9"}), "Ann", "Cid", "*"));
    m.games.back().summary[0].accuracy = 60; // Ann's Gomoku accuracy, as White
    m.games.push_back(with_players(play_stones(GameKind::ninuki, {"h8", "i9", "j10"}), "Dan", "Eve", "1/2-1/2"));
    m.games.push_back(with_players(play_stones(GameKind::ninuki, {"h8", "i9"}), "Dan", "Eve", "*"));
    m.games.back().status = "partial"; // broken: left out of Ninuki's tables
    m.games.push_back(with_players(play_stones(GameKind::pente, {"h8", "i9"}), "Fay", "Gil", "0-1"));
    m.games.push_back(with_players(play_stones(GameKind::renju, {"h8"}), "Hal", "Ivy", "*")); // too short for openings
    m.opening_rows = 2;
    m.opening_replies = 1;

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
            for (std::size_t i = 0; i < n; ++i) key.push_back(g.plies[i].move);
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
    CHECK(gounki.openings.groups[0].first.moves[0] == m.games[0].plies[0].move);
    CHECK(gounki.openings.groups[0].first.games == 3);
    CHECK(gounki.openings.groups[0].replies[0].games == 2);
    CHECK(gounki.openings.groups[0].more_replies == 1);
    CHECK(gounki.openings.groups[0].more_reply_games == 1);
    CHECK(gounki.openings.groups[1].first.moves[0] == m.games[3].plies[0].move);
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
    m.games.push_back(with_players(play_stones(GameKind::gomoku, {"h8", "h9"}), "Cid", "Ann", "0-1"));
    GameReport on_19 = with_players(play_stones(GameKind::gomoku, {"h8", "h9"}), "Cid", "Ann", "1-0");
    on_19.start_position = stones::StonePosition(big).to_text();
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

namespace {

// The `k`-th legal move of `pos` (mod their count) other than `not_this`.
Move some_move(const AnyPosition& pos, std::size_t k, Move not_this = Move::none()) {
    std::vector<Move> moves = pos.legal_moves();
    moves.erase(std::remove(moves.begin(), moves.end(), not_this), moves.end());
    REQUIRE(!moves.empty());
    return moves[k % moves.size()];
}

// A line of `n` moves from `pos`, the i-th the (5i+k)-th legal move.
parser::Line some_line(AnyPosition pos, std::size_t n, std::size_t k, Move not_first = Move::none()) {
    parser::Line line;
    for (std::size_t i = 0; i < n && !pos.game_over(); ++i) {
        const Move m = some_move(pos, 5 * i + k, i == 0 ? not_first : Move::none());
        line.plies.emplace_back(m);
        pos.play(m);
    }
    return line;
}

// A game of `kind` as a player annotates one: comments before the game and after moves, NAGs
// (a suffix, and $n), and at ply 3 a variation holding a comment, a NAG and a variation of its
// own, beside a second variation; written and read back as any record is.
parser::GameRecord annotated_record(GameKind kind) {
    parser::GameRecord rec;
    rec.kind = kind;
    rec.set_start(AnyPosition::start(kind));
    rec.tags = {{"White", "Wim"}, {"Black", "Bea"}};
    rec.result = "*";
    rec.main = some_line(AnyPosition::start(kind), 8, 3);
    REQUIRE(rec.main.plies.size() == 8);
    rec.main.comments = {"Before the game."};
    rec.main.plies[0].comments = {"A quiet start."};
    rec.main.plies[2].nags = {1, 14};
    AnyPosition before = AnyPosition::start(kind);
    for (std::size_t i = 0; i < 3; ++i) before.play(rec.main.plies[i].move);
    parser::Ply& p = rec.main.plies[3];
    p.nags = {6};
    p.comments = {"A doubt."};
    parser::Line v = some_line(before, 3, 1, p.move);
    v.comments = {"The other way."};
    v.plies[0].nags = {5};
    AnyPosition inner = before;
    inner.play(v.plies[0].move);
    parser::Line nested = some_line(inner, 2, 2, v.plies[1].move);
    nested.plies[1].comments = {"Deeper still."};
    v.plies[1].variations.push_back(nested);
    v.plies[1].comments = {"Inside."};
    p.variations.push_back(v);
    p.variations.push_back(some_line(before, 1, 4, p.move));
    const std::vector<parser::GameRecord> read = parser::read_records(parser::write_record(rec));
    REQUIRE(read.size() == 1);
    REQUIRE(read[0].status == parser::GameStatus::valid);
    return read[0];
}

} // namespace

TEST_CASE("the annotated record keeps the record's comments, NAGs and nested variations beside the engine's",
          "[report][stones]") {
    for (GameKind kind : {GameKind::gounki, GameKind::gomoku, GameKind::pente}) {
        INFO(game_kind_name(kind));
        const parser::GameRecord rec = annotated_record(kind);
        REQUIRE(rec.main.plies[3].variations.size() == 2);
        REQUIRE(rec.main.plies[3].variations[0].plies[1].variations.size() == 1);
        ReportModel m;
        m.annotator = "gounki test";
        m.games.push_back(game_report(rec));
        GameReport& g = m.games[0];
        // The engine's word: a blunder at ply 3 (a line of two moves unlike the record's), a mistake
        // at ply 2 (which has the record's NAG 1), a plain judged ply 0.
        AnyPosition before = AnyPosition::start(kind);
        std::vector<AnyPosition> positions;
        for (const parser::Ply& p : rec.main.plies) {
            positions.push_back(before);
            before.play(p.move);
        }
        const parser::Line best = some_line(positions[3], 2, 7, rec.main.plies[3].move);
        Judgement blunder;
        blunder.verdict = Verdict::blunder;
        blunder.best = {1.5, 0};
        blunder.played = {-2, 0};
        for (const parser::Ply& b : best.plies) blunder.best_line.push_back(positions[3].move_text(b.move));
        positions[3].play(best.plies[0].move);
        blunder.best_line[1] = positions[3].move_text(best.plies[1].move);
        blunder.best_move = blunder.best_line[0];
        g.plies[3].judgement = blunder;
        Judgement mistake = blunder;
        mistake.verdict = Verdict::mistake;
        mistake.best_line = {positions[2].move_text(some_move(positions[2], 9, rec.main.plies[2].move))};
        mistake.best_move = mistake.best_line[0];
        g.plies[2].judgement = mistake;
        Judgement fine;
        fine.best_move = g.plies[0].move;
        g.plies[0].judgement = fine;

        const std::string gpn = render_annotated_gpn(m);
        INFO(gpn);
        const std::vector<parser::GameRecord> back = parser::read_records(gpn);
        REQUIRE(back.size() == 1);
        // (The Pente game's moves are any legal ones: its first stone off the centre is a warning.)
        for (const parser::Diagnostic& d : back[0].diagnostics)
            if (d.code != "tournament-rule") FAIL_CHECK(parser::format_diagnostic(d));
        CHECK(back[0].status == parser::GameStatus::valid);
        const parser::Line& main = back[0].main;
        // The same main line, the record's comment before it.
        REQUIRE(main.plies.size() == rec.main.plies.size());
        for (std::size_t i = 0; i < main.plies.size(); ++i) CHECK(main.plies[i].move == rec.main.plies[i].move);
        CHECK(main.comments == rec.main.comments);
        // Ply 0: the record's comment, then the engine's.
        CHECK(main.plies[0].comments == std::vector<std::string>{"A quiet start.", judgement_comment(fine)});
        CHECK(main.plies[0].nags.empty());
        // Ply 2: the record's NAGs, then the engine's mark; the engine's line alone as a variation.
        CHECK(main.plies[2].nags == std::vector<std::uint8_t>{1, 14, 2});
        REQUIRE(main.plies[2].variations.size() == 1);
        CHECK(main.plies[2].variations[0].comments == std::vector<std::string>{"Engine's best line"});
        // Ply 3: the record's NAG and comment first; its two variations as they were, nested; the
        // engine's line after them, marked as the engine's.
        const parser::Ply& p = main.plies[3];
        CHECK(p.nags == std::vector<std::uint8_t>{6, 4});
        CHECK(p.comments == std::vector<std::string>{"A doubt.", judgement_comment(blunder)});
        REQUIRE(p.variations.size() == 3);
        CHECK(same_notes(p.variations[0], rec.main.plies[3].variations[0]));
        CHECK(same_notes(p.variations[1], rec.main.plies[3].variations[1]));
        CHECK(p.variations[0].plies[1].variations[0].plies[1].comments == std::vector<std::string>{"Deeper still."});
        CHECK(p.variations[2].comments == std::vector<std::string>{"Engine's best line"});
        REQUIRE(p.variations[2].plies.size() == 2);
        CHECK(p.variations[2].plies[0].move == best.plies[0].move);
        CHECK(p.variations[2].plies[1].move == best.plies[1].move);
        // Every other ply as the record has it.
        for (std::size_t i : {1, 4, 5, 6, 7}) {
            parser::Line a, b;
            a.plies = {main.plies[i]};
            b.plies = {rec.main.plies[i]};
            CHECK(same_notes(a, b));
        }
        // Written again, the annotated record reads back as itself (nothing added a second time).
        CHECK(parser::write_record(back[0]) == gpn);
        // The move lists number the second mover's move after the record's comment (ply 0), and
        // inside the variation after the variation nested in it, as the record does.
        const std::string md = render_markdown(m), html = render_html(m);
        CHECK(count_of(md, "_{A quiet start.}_ 1... ") == 1);
        CHECK(count_of(html, "<span class=\"no\">1...</span>") == 1);
        CHECK(count_of(html, "<span class=\"no\">2...</span>") == 0); // ply 2 has NAGs only
        CHECK(count_of(md, "_{Deeper still.}_) 3... ") == 1);
        CHECK(count_of(html, ")</span>\n3... <span class=\"vmove\"") == 1);
        CHECK(count_of(gpn, "1... " + g.plies[1].move) == 1);
    }
}
