// Reports and diagrams of Gounki games: board SVG and text, and the HTML, Markdown and annotated
// record renderers fed with report models built by hand from real games of the rules core, down to
// a picture of the HTML in headless Chromium; the annotated record beside the record's own notes.
// Stone-game reports: report_stones_test.cpp; many games and the interactive board:
// report_games_test.cpp; the commands: report_cli_test.cpp.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

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

// The texts of the engine's line at a judged ply.
std::vector<std::string> best_texts(const Ply& p) { return line_texts(p.before, p.judgement->best_line); }

// The missed win: White's S on d7 wins by d7-d8 then d8-Out (+#3); a1-a2 lets Black's s on e2 get
// there first (e2-e1, e1-Out: -#4 for White).
constexpr const char* race = "8/3S4/8/8/8/8/4s3/S7 w";

GameReport missed_win_game() {
    GameReport g = report_game(position_of(race), {"a1-a2", "e2-e1", "d7-d8", "e1-Out"});
    g.white = "Ann <\"&'> \u00c9mile";
    g.black = "Bob & Co";
    g.event = "Club <evening>";
    g.result = "0-1";
    Judgement j = judged(Verdict::missed_win, 0, 0, g.plies[0].before, {"d7-d8", "e2-e1", "d8-Out"});
    j.best = {0, 3};
    j.played = {0, -4};
    j.expected_before = 1;
    j.expected_after = 0;
    g.plies[0].judgement = j;
    Judgement k = judged(Verdict::allows_loss, 0, 0, g.plies[2].before, {"a2-a3"});
    k.played = {0, -2};
    k.expected_before = 0.0;
    k.expected_after = 0.0;
    g.plies[2].judgement = k;
    g.summary[0].accuracy = 41.5;
    return g;
}

// A 12-ply game from the start: blunder at ply 5 (White), mistake at 6, inaccuracy at 7, plain
// judgements elsewhere, ply 12 not judged.
GameReport blunder_game() {
    GameReport g = generated_game(12);
    REQUIRE(g.plies.size() == 12);
    g.white = "Carla";
    g.black = "Bob & Co";
    g.date = "2026.11.02";
    g.result = "1-0";
    g.other_tags.push_back({"Round", "3"});
    for (std::size_t i = 0; i + 1 < g.plies.size(); ++i)
        g.plies[i].judgement = judged(Verdict::best, 0.3, 0.2, g.plies[i].before, {});
    g.plies[4].judgement = judged(Verdict::blunder, 1.2, -3.4, g.plies[4].before, other_line(g.plies[4]));
    g.plies[5].judgement = judged(Verdict::mistake, 0.5, -0.9, g.plies[5].before, other_line(g.plies[5]));
    g.plies[6].judgement = judged(Verdict::inaccuracy, 0.4, -0.1, g.plies[6].before, other_line(g.plies[6]));
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
    const AnyPosition deploy = position_of("s7/8/8/8/3(RR)4/8/8/8 w");
    const Judgement j = judged(Verdict::blunder, 1.2, -3.4, deploy, {"d4*e5,f6"});
    CHECK(judgement_comment(j, deploy, Move::none()) == "(+1.2 -> -3.4) Blunder. d4*e5,f6 was best.");
    CHECK(verdict_nag(Verdict::blunder) == 4);
    CHECK(verdict_nag(Verdict::mistake) == 2);
    CHECK(verdict_nag(Verdict::inaccuracy) == 6);
    CHECK(parse_verdict("missed-win") == Verdict::missed_win);
    CHECK(parse_verdict("allows-loss") == Verdict::allows_loss);
    CHECK(parse_verdict("none") == Verdict::best);
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
    const std::vector<std::string> b = best_texts(g.plies[4]), mi = best_texts(g.plies[5]);
    CHECK(count_of(flat,
                   "3. " + move_text(g.plies[4]) + "?? {(+1.2 -> -3.4) Blunder. " + b[0] +
                       " was best.} ({Engine's best line} 3. " + b[0] + " " + b[1] + ") 3... " + move_text(g.plies[5])) == 1);
    CHECK(count_of(flat,
                   "3... " + move_text(g.plies[5]) + "? {(+0.5 -> -0.9) Mistake. " + mi[0] +
                       " was best.} ({Engine's best line} 3... " + mi[0] + " 4. " + mi[1] + ")") == 1);
    CHECK(count_of(flat, move_text(g.plies[6]) + "?! {(+0.4 -> -0.1) Inaccuracy.") == 1);
    CHECK(count_of(flat, "1. " + move_text(g.plies[0]) + " {(+0.3 -> +0.2)} 1... " + move_text(g.plies[1])) == 1);
    // The missed win and the allowed loss.
    CHECK(
        count_of(
            flat,
            "1. a1-a2? {(+#3 -> -#4) Missed win. d7-d8 was best.} ({Engine's best line} 1. d7-d8 e2-e1 2. d8-Out) 1... e2-e1") ==
        1);
    CHECK(count_of(flat,
                   "2. d7-d8?? {(0.0 -> -#2) Allows a loss. a2-a3 was best.} ({Engine's best line} 2. a2-a3) 2... e1-Out 0-1") ==
          1);

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
        for (std::size_t i = 0; i < r.main.plies.size(); ++i) {
            const parser::Ply& p = r.main.plies[i];
            const Ply& want = m.games[k].plies[i];
            CHECK(p.move == want.move);
            const Verdict v = want.judgement ? want.judgement->verdict : Verdict::best;
            CHECK(p.nags ==
                  (v == Verdict::best ? std::vector<std::uint8_t>{} : std::vector<std::uint8_t>{std::uint8_t(verdict_nag(v))}));
            CHECK(p.comments.size() == (want.judgement ? 1u : 0u));
            CHECK(p.variations.size() == (v == Verdict::best ? 0u : 1u));
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

    // A model whose moves do not replay from its start (a hand-made slip) is cut off where they
    // stop, with a comment saying so, rather than written as a broken record.
    ReportModel slip;
    slip.games = {m.games[0]};
    slip.games[0].start = position_of(race);
    const std::string cut = render_annotated_gpn(slip);
    CHECK(count_of(cut,
                   "{gounki report: the move " + move_text(m.games[0].plies[0]) + " is not legal here; the game is cut off}") ==
          1);
    const std::vector<parser::GameRecord> cut_back = parser::read_records(cut);
    REQUIRE(cut_back.size() == 1);
    CHECK(cut_back[0].main.plies.empty());
    CHECK(cut_back[0].status == parser::GameStatus::valid);
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
            CHECK(count_of(fig, "class=\"arrow best\" data-move=\"" + xml_escape(best_texts(p)[0]) + "\"") == 1);
            CHECK(count_of(fig, "class=\"arrow played\" data-move=\"" + xml_escape(move_text(p)) + "\"") == 1);
        }
        CHECK(count_of(section, "<figure class=\"flagged") == flagged);
        CHECK(count_of(section, "<svg class=\"board\"") == flagged + 1); // and the viewer's final position
        flagged_total += flagged;
    }
    CHECK(flagged_total == 4); // blunder, mistake, missed win, allowed loss; not the inaccuracy
    CHECK(count_of(html, "<svg class=\"board\"") == flagged_total + m.games.size());

    const GameReport& g = m.games[0];
    CHECK(count_of(html, xml_escape(move_text(g.plies[4])) + "<span class=\"mark\">?\?</span>") == 1);
    CHECK(count_of(html, xml_escape(move_text(g.plies[5])) + "<span class=\"mark\">?</span>") == 1);
    CHECK(count_of(html, xml_escape(move_text(g.plies[6])) + "<span class=\"mark\">?!</span>") == 1);
    CHECK(count_of(html, "a1-a2<span class=\"mark\">?</span><span class=\"badge\">missed win</span>") == 1);
    CHECK(count_of(html, "d7-d8<span class=\"mark\">?\?</span><span class=\"badge\">allows loss</span>") == 1);
    CHECK(count_of(html, "<td class=\"num\">77.3%</td>") == 2); // Carla's accuracy, rounded: game and players

    // Many games: per-player statistics and the opening table.
    CHECK(count_of(html, "<section id=\"players\">") == 1);
    CHECK(count_of(html, "<section id=\"openings\">") == 1);
    CHECK(count_of(html, "<tr><td>Bob &amp; Co</td><td class=\"num\">2</td>") == 1);
    CHECK(count_of(html, "1. " + xml_escape(move_text(g.plies[0]) + " " + move_text(g.plies[1])) + "</td>") == 1);

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
    CHECK(count_of(md, "**" + md_move(move_text(g.plies[4])) + "??**") == 1);
    CHECK(count_of(md, "**" + md_move(move_text(g.plies[5])) + "?**") == 1);
    CHECK(count_of(md, "**a1-a2?** _(missed win)_") == 1);
    CHECK(count_of(md, "**d7-d8??** _(allows loss)_") == 1);
    CHECK(count_of(md, "```text\n") == 4); // one text diagram per flagged move
    CHECK(count_of(md, "Best: " + best_texts(g.plies[4])[0]) == 1);
    CHECK(count_of(md, "`(+1.2 -> -3.4) Blunder. " + best_texts(g.plies[4])[0] + " was best.`") == 1);
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
    // One name on both sides of a game (self-play): one game, its result on each side.
    GameReport self = m.games[0];
    self.black = self.white;
    const std::vector<PlayerStats> alone = player_statistics(std::vector<GameReport>{self});
    REQUIRE(alone.size() == 1);
    CHECK(alone[0].games == 1);
    CHECK(alone[0].results[0][0] + alone[0].results[0][1] + alone[0].results[0][2] + alone[0].results[0][3] == 1);
    CHECK(alone[0].results[1][0] + alone[0].results[1][1] + alone[0].results[1][2] + alone[0].results[1][3] == 1);
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
        const parser::Line best = some_line(g.plies[3].before, 2, 7, rec.main.plies[3].move);
        Judgement blunder;
        blunder.verdict = Verdict::blunder;
        blunder.best = {1.5, 0};
        blunder.played = {-2, 0};
        for (const parser::Ply& b : best.plies) blunder.best_line.push_back(b.move);
        blunder.best_move = blunder.best_line[0];
        g.plies[3].judgement = blunder;
        Judgement mistake = blunder;
        mistake.verdict = Verdict::mistake;
        mistake.best_line = {some_move(g.plies[2].before, 9, rec.main.plies[2].move)};
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
        CHECK(main.plies[0].comments == std::vector<std::string>{"A quiet start.", judgement_comment(g.plies[0])});
        CHECK(main.plies[0].nags.empty());
        // Ply 2: the record's NAGs, then the engine's mark; the engine's line alone as a variation.
        CHECK(main.plies[2].nags == std::vector<std::uint8_t>{1, 14, 2});
        REQUIRE(main.plies[2].variations.size() == 1);
        CHECK(main.plies[2].variations[0].comments == std::vector<std::string>{"Engine's best line"});
        // Ply 3: the record's NAG and comment first; its two variations as they were, nested; the
        // engine's line after them, marked as the engine's.
        const parser::Ply& p = main.plies[3];
        CHECK(p.nags == std::vector<std::uint8_t>{6, 4});
        CHECK(p.comments == std::vector<std::string>{"A doubt.", judgement_comment(g.plies[3])});
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
        CHECK(count_of(gpn, "1... " + move_text(g.plies[1])) == 1);
    }
}

TEST_CASE("the markup check of the report tests finds what is broken", "[report]") {
    CHECK(check_markup("<p class=\"a\">x &amp; y<br></p><svg><rect x=\"1\"/></svg>").empty());
    CHECK(check_markup("<p>a</div>").find("</div> closes <p>") == 0);
    CHECK(check_markup("<p class=a>x</p>").find("unquoted or bad attribute") == 0);
    CHECK(check_markup("<p title=\"a<b\">x</p>").find("'<' in attribute") == 0);
    CHECK(check_markup("<p title=\"&nbsp;\">x</p>").find("bad entity in attribute") == 0);
    CHECK(check_markup("<p title=\"x>x</p>").find("unterminated attribute") == 0);
    CHECK(check_markup("<p>a & b</p>").find("bad entity at") == 0);
    CHECK(check_markup("<div><p>x</p>") == "unclosed <div>");
}
