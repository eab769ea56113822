// Reports and diagrams: board SVG and text, `gounki board`, and the HTML, Markdown and annotated
// record renderers fed with report models built by hand from real games of the rules core.
#include "tests/catch.hpp"

#include "cli/report/board_diagram.hpp"
#include "cli/report/format.hpp"
#include "cli/report/render.hpp"
#include "core/notation.hpp"
#include "parser/reader.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace gounki;
using namespace gounki::report;

namespace {

Position pos_of(const std::string& text) {
    auto r = Position::from_text(text);
    if (auto* e = std::get_if<PositionError>(&r)) FAIL("bad test position '" << text << "': " << e->message);
    return std::get<Position>(r);
}

Move move_of(const Position& pos, const std::string& text) {
    const Resolution r = resolve_move_text(pos, text);
    if (!r.move) FAIL("bad test move '" << text << "': " << r.message);
    return r.move;
}

std::size_t count(const std::string& hay, const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + needle.size())) ++n;
    return n;
}

// The text between the first `open` at or after `from` and the next `close`.
std::string between(const std::string& s, const std::string& open, const std::string& close, std::size_t from = 0) {
    const std::size_t a = s.find(open, from);
    if (a == std::string::npos) return {};
    const std::size_t b = s.find(close, a + open.size());
    return s.substr(a + open.size(), b == std::string::npos ? std::string::npos : b - a - open.size());
}

// Plays `moves` (record notation) from `start` into a GameReport with canonical texts.
GameReport play(const std::string& start, const std::vector<std::string>& moves) {
    GameReport g;
    if (!start.empty()) g.start_position = start;
    Position pos = start.empty() ? Position::start() : pos_of(start);
    for (const std::string& text : moves) {
        const Move m = move_of(pos, text);
        g.plies.push_back({move_to_text(pos, m), pos.side_to_move(), pos.to_text(), std::nullopt});
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
    Position pos = pos_of(p.position_before);
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

Judgement judged(Verdict v, double best, double played, const std::vector<std::string>& line) {
    Judgement j;
    j.verdict = v;
    j.best = {best, 0};
    j.played = {played, 0};
    j.best_move = line.empty() ? "" : line[0];
    j.best_line = line;
    j.expected_before = 0.5 + best / 10;
    j.expected_after = 0.5 + played / 10;
    return j;
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
    m.opening_plies = 2;
    return m;
}

// A small well-formedness checker for the XHTML-compatible markup the renderers write: balanced
// tags (HTML void elements may stay open), quoted attributes, only known entities, no stray `<`
// or `&`, raw text inside <style>. Returns "" when fine, else what is wrong and where.
std::string check_markup(const std::string& s) {
    static const std::vector<std::string> voids = {"meta", "br", "hr", "img", "input", "link", "col", "wbr"};
    std::vector<std::string> open;
    auto entity_ok = [&](std::size_t at) {
        static const char* names[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};
        for (const char* n : names)
            if (s.compare(at, std::strlen(n), n) == 0) return true;
        return false;
    };
    std::size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        if (c == '&' && !entity_ok(i)) return "bad entity at " + std::to_string(i) + ": " + s.substr(i, 12);
        if (c == '>') return "stray '>' at " + std::to_string(i);
        if (c != '<') { ++i; continue; }
        if (s.compare(i, 4, "<!--") == 0) { i = s.find("-->", i); if (i == std::string::npos) return "open comment"; i += 3; continue; }
        if (s.compare(i, 2, "<!") == 0 || s.compare(i, 2, "<?") == 0) { i = s.find('>', i) + 1; continue; }
        const bool closing = s[i + 1] == '/';
        std::size_t j = i + (closing ? 2 : 1);
        std::string name;
        while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '-')) name += s[j++];
        if (name.empty()) return "stray '<' at " + std::to_string(i);
        if (closing) {
            if (open.empty() || open.back() != name) return "</" + name + "> closes <" + (open.empty() ? "" : open.back()) + "> at " + std::to_string(i);
            open.pop_back();
            if (s[j] != '>') return "bad closing tag at " + std::to_string(i);
            i = j + 1;
            continue;
        }
        // Attributes: name="value" with no '<' and only known entities in the value.
        bool self_closed = false;
        for (;;) {
            while (j < s.size() && s[j] == ' ') ++j;
            if (s.compare(j, 2, "/>") == 0) { self_closed = true; j += 2; break; }
            if (j < s.size() && s[j] == '>') { ++j; break; }
            std::size_t k = j;
            while (k < s.size() && (std::isalnum(static_cast<unsigned char>(s[k])) || s[k] == '-' || s[k] == ':')) ++k;
            if (k == j || s.compare(k, 2, "=\"") != 0) return "unquoted or bad attribute at " + std::to_string(j) + ": " + s.substr(j, 20);
            const std::size_t end = s.find('"', k + 2);
            if (end == std::string::npos) return "unterminated attribute at " + std::to_string(j);
            for (std::size_t v = k + 2; v < end; ++v) {
                if (s[v] == '<') return "'<' in attribute at " + std::to_string(v);
                if (s[v] == '&' && !entity_ok(v)) return "bad entity in attribute at " + std::to_string(v);
            }
            j = end + 1;
        }
        i = j;
        if (self_closed || std::find(voids.begin(), voids.end(), name) != voids.end()) continue;
        if (name == "style") {
            const std::size_t end = s.find("</style>", i);
            if (end == std::string::npos) return "open <style>";
            i = end;
        }
        open.push_back(name);
    }
    if (!open.empty()) return "unclosed <" + open.back() + ">";
    return "";
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
    CHECK(count(html, "http") == 0);
    CHECK(count(html, "src=") == 0);
    CHECK(count(html, "<link") == 0);
    CHECK(count(html, "<script") == 0);
    CHECK(count(html, "@import") == 0);
    CHECK(count(html, "url(") == 0);
    for (std::size_t at = html.find("href=\""); at != std::string::npos; at = html.find("href=\"", at + 1))
        CHECK(html[at + 6] == '#');
}

} // namespace

TEST_CASE("the SVG board draws one shape per simple piece, rounds above squares", "[report]") {
    const std::string svg = board_svg(Position::start());
    CHECK(svg.rfind("<?xml", 0) == 0);
    CHECK(count(svg, "class=\"round\"") == 16);
    CHECK(count(svg, "class=\"square\"") == 16);
    CHECK(count(svg, "class=\"stack white\"") == 16);
    CHECK(check_markup(svg).empty());

    const Position p = pos_of("8/8/8/8/3(rrs)4/8/1(RS)6/8 b");
    BoardStyle inline_style;
    inline_style.standalone = false;
    const std::string s = board_svg(p, inline_style);
    CHECK(count(s, "http") == 0); // no xmlns inside HTML
    CHECK(count(s, "data-stack=\"rrs\"") == 1);
    CHECK(count(s, "data-stack=\"RS\"") == 1);
    CHECK(count(s, "Black to move") == 1);
    // RS on b2: the circle's centre lies above the square's top edge.
    const std::size_t at = s.find("data-square=\"b2\"");
    const double cy = std::stod(between(s, "cy=\"", "\"", at));
    const double top = std::stod(between(s, "y=\"", "\"", s.find("class=\"square\"", at)));
    CHECK(cy < top);
}

TEST_CASE("SVG arrows: movement, bounce, deployment path and exit off the board", "[report]") {
    const Position p = pos_of("r7/8/2(RS)3(RRR)1/8/3(rrs)4/5(SSS)2/1(RR)3(ss)2/(RSS)6S w");
    auto svg_with = [&](const std::string& move, ArrowKind kind = ArrowKind::move) {
        BoardStyle st;
        st.arrows.push_back({move_of(p, move), kind});
        return board_svg(p, st);
    };
    auto polyline_points = [](const std::string& svg) { return count(between(svg, "<polyline", "/>"), ",") ; };

    const std::string deploy = svg_with("c6*c7,d8", ArrowKind::best);
    CHECK(count(deploy, "class=\"arrow best\" data-move=\"c6*c7,d8\"") == 1);
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
    const Position p = pos_of("8/8/8/8/3(rrs)4/8/1(RS)6/8 w");
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
    CHECK(count(flipped, "  h   g   f   e   d   c   b   a\n") == 1);
}

TEST_CASE("scores, comments and marks are worded as RULES.md 1.8 records expect", "[report]") {
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
    const GameReport& g = m.games[0];
    CHECK(count(gpn, "[Annotator \"gounki test\"]") == 2);
    CHECK(count(gpn, "[White \"Ann <\\\"&'> \u00c9mile\"]") == 1);
    CHECK(count(gpn, "[SetUp \"1\"]") == 1);
    CHECK(count(gpn, std::string("[Position \"") + race + "\"]") == 1);
    CHECK(count(gpn, "[Round \"3\"]") == 1);

    // The blunder at ply 5 (White's third move): mark, comment, the best line as a variation.
    std::string flat = gpn;
    std::replace(flat.begin(), flat.end(), '\n', ' ');
    const Ply& b = g.plies[4];
    CHECK(count(flat, "3. " + b.move + "?? {(+1.2 -> -3.4) Blunder. " + b.judgement->best_move + " was best.} (3. " +
                          b.judgement->best_line[0] + " " + b.judgement->best_line[1] + ") 3... " + g.plies[5].move) == 1);
    const Ply& mi = g.plies[5];
    CHECK(count(flat, "3... " + mi.move + "? {(+0.5 -> -0.9) Mistake. " + mi.judgement->best_move + " was best.} (3... " +
                          mi.judgement->best_line[0] + " 4. " + mi.judgement->best_line[1] + ")") == 1);
    CHECK(count(flat, g.plies[6].move + "?! {(+0.4 -> -0.1) Inaccuracy.") == 1);
    CHECK(count(flat, "1. " + g.plies[0].move + " {(+0.3 -> +0.2)} 1... " + g.plies[1].move) == 1);
    // The missed win and the allowed loss.
    CHECK(count(flat, "1. a1-a2? {(+#3 -> -#4) Missed win. d7-d8 was best.} (1. d7-d8 e2-e1 2. d8-Out) 1... e2-e1") == 1);
    CHECK(count(flat, "2. d7-d8?? {(0.0 -> -#2) Allows a loss. a2-a3 was best.} (2. a2-a3) 2... e1-Out 0-1") == 1);

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
        Position pos = r.start;
        for (std::size_t i = 0; i < r.main.plies.size(); ++i) {
            const parser::Ply& p = r.main.plies[i];
            const Ply& want = m.games[k].plies[i];
            CHECK(move_to_text(pos, p.move) == want.move);
            const Verdict v = want.judgement ? want.judgement->verdict : Verdict::none;
            CHECK(p.nags == (v == Verdict::none ? std::vector<std::uint8_t>{} : std::vector<std::uint8_t>{std::uint8_t(verdict_nag(v))}));
            CHECK(p.comments.size() == (want.judgement ? 1u : 0u));
            CHECK(p.variations.size() == (v == Verdict::none ? 0u : 1u));
            UndoRecord u;
            pos.do_move(p.move, u);
        }
    }
    CHECK(games[1].main.plies[0].variations[0].plies.size() == 3);

    // And by `gounki validate`.
    const auto file = std::filesystem::temp_directory_path() / ("gounki-report-annotated-" + std::to_string(::getpid()) + ".gpn");
    std::ofstream(file) << gpn;
    CHECK(std::system((std::string(GOUNKI_CLI) + " validate " + file.string() + " >/dev/null").c_str()) == 0);
    std::filesystem::remove(file);

    GpnOptions terse;
    terse.comment_every_judged_move = false;
    terse.variations = false;
    const std::string t = render_annotated_gpn(m, terse);
    CHECK(count(t, "{(+0.3 -> +0.2)}") == 0);
    CHECK(count(t, "(") == count(t, "{(")); // no variations: every '(' opens a comment's score
    CHECK(count(t, "{") == 5);
}

TEST_CASE("the HTML report: marks, one graph point per ply, one diagram per flagged move", "[report]") {
    const ReportModel m = two_games();
    const std::string html = render_html(m);
    INFO(check_markup(html));
    CHECK(check_markup(html).empty());
    CHECK(valid_utf8(html));
    check_self_contained(html);

    // Escaping: names with markup characters and accents come out as text, UTF-8.
    CHECK(count(html, "Ann &lt;&quot;&amp;&#39;&gt; \u00c9mile") >= 2);
    CHECK(count(html, "Ann <") == 0);
    CHECK(count(html, "<title>Test report &lt;&amp;&gt;</title>") == 1);

    std::size_t flagged_total = 0;
    for (std::size_t k = 0; k < m.games.size(); ++k) {
        const GameReport& g = m.games[k];
        const std::string anchor = "game-" + std::to_string(k + 1);
        const std::size_t from = html.find("<section class=\"game\" id=\"" + anchor + "\"");
        REQUIRE(from != std::string::npos);
        const std::string section = html.substr(from, html.find("</section>", from) - from);
        const std::string graph = between(section, "<svg class=\"graph\"", "</svg>");
        CHECK(count(graph, "<circle class=\"point") == g.plies.size());
        CHECK(count(graph, "data-ply=\"") == g.plies.size());
        CHECK(count(between(graph, "<polyline class=\"eval\"", "/>"), ",") == g.plies.size());
        for (std::size_t i = 0; i < g.plies.size(); ++i)
            CHECK(count(graph, "data-ply=\"" + std::to_string(i + 1) + "\"") == 1);

        std::size_t flagged = 0;
        for (std::size_t i = 0; i < g.plies.size(); ++i) {
            const Ply& p = g.plies[i];
            if (!p.judgement || !is_flagged(p.judgement->verdict)) continue;
            ++flagged;
            const std::string id = anchor + "-d" + std::to_string(i + 1);
            const std::string fig = between(section, "id=\"" + id + "\"", "</figure>");
            CHECK(count(fig, "<svg class=\"board\"") == 1);
            CHECK(count(fig, "class=\"arrow best\" data-move=\"" + xml_escape(p.judgement->best_move) + "\"") == 1);
            CHECK(count(fig, "class=\"arrow played\" data-move=\"" + xml_escape(p.move) + "\"") == 1);
        }
        CHECK(count(section, "<figure class=\"flagged") == flagged);
        CHECK(count(section, "<svg class=\"board\"") == flagged);
        flagged_total += flagged;
    }
    CHECK(flagged_total == 4); // blunder, mistake, missed win, allowed loss; not the inaccuracy
    CHECK(count(html, "<svg class=\"board\"") == flagged_total);

    const GameReport& g = m.games[0];
    CHECK(count(html, xml_escape(g.plies[4].move) + "<span class=\"mark\">?\?</span>") == 1);
    CHECK(count(html, xml_escape(g.plies[5].move) + "<span class=\"mark\">?</span>") == 1);
    CHECK(count(html, xml_escape(g.plies[6].move) + "<span class=\"mark\">?!</span>") == 1);
    CHECK(count(html, "a1-a2<span class=\"mark\">?</span><span class=\"badge\">missed win</span>") == 1);
    CHECK(count(html, "d7-d8<span class=\"mark\">?\?</span><span class=\"badge\">allows loss</span>") == 1);
    CHECK(count(html, "<td class=\"num\">77.3%</td>") == 2); // Carla's accuracy, rounded: game and players

    // Many games: per-player statistics and the opening table.
    CHECK(count(html, "<section id=\"players\">") == 1);
    CHECK(count(html, "<section id=\"openings\">") == 1);
    CHECK(count(html, "<tr><td>Bob &amp; Co</td><td class=\"num\">2</td>") == 1);
    CHECK(count(html, "1. " + xml_escape(g.plies[0].move + " " + g.plies[1].move) + "</td>") == 1);

    // One game: no statistics sections.
    ReportModel one = m;
    one.games.resize(1);
    const std::string single = render_html(one);
    CHECK(check_markup(single).empty());
    CHECK(count(single, "id=\"players\"") == 0);
    CHECK(count(single, "<svg class=\"board\"") == 2);
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
    CHECK(count(md, "**" + md_move(g.plies[4].move) + "??**") == 1);
    CHECK(count(md, "**" + md_move(g.plies[5].move) + "?**") == 1);
    CHECK(count(md, "**a1-a2?** _(missed win)_") == 1);
    CHECK(count(md, "**d7-d8??** _(allows loss)_") == 1);
    CHECK(count(md, "```text\n") == 4); // one text diagram per flagged move
    CHECK(count(md, "Best: " + g.plies[4].judgement->best_move) == 1);
    CHECK(count(md, "`(+1.2 -> -3.4) Blunder. " + g.plies[4].judgement->best_move + " was best.`") == 1);
    // Sparklines: one block character (3 bytes in UTF-8) per ply.
    std::size_t blocks = 0;
    for (const char* b : {"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588"}) blocks += count(md, b);
    CHECK(blocks == g.plies.size() + m.games[1].plies.size());
    CHECK(count(md, "Ann <") == 0);
    CHECK(count(md, "Ann \\<\"&amp;'\\> \u00c9mile") >= 1);
    CHECK(count(md, "## Players") == 1);
    CHECK(count(md, "## Openings") == 1);
    CHECK(count(md, "\n1\\. ") == 2); // move lists are no ordered lists
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

namespace {

struct Run {
    int code = -1;
    std::string out, err;
};

std::string slurp(const std::filesystem::path& p) {
    std::ifstream f(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

std::filesystem::path scratch_dir() {
    const auto dir = std::filesystem::temp_directory_path() / ("gounki-report-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return dir;
}

Run run_shell(const std::string& command) {
    const auto dir = scratch_dir();
    const int status = std::system((command + " >" + (dir / "out").string() + " 2>" + (dir / "err").string()).c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir / "out"), slurp(dir / "err")};
}

} // namespace

TEST_CASE("gounki board writes SVG or text and names the legal moves of a bad --move", "[report]") {
    const std::string cli = GOUNKI_CLI;
    Run r = run_shell(cli + " board --move c2-d3");
    CHECK(r.code == 0);
    CHECK(count(r.out, "data-move=\"c2-d3\"") == 1);
    r = run_shell(cli + " board --format text --position '8/8/8/8/3(srr)4/8/8/S7 b' -o -");
    CHECK(r.code == 0);
    CHECK(count(r.out, "4 .   .   .   rrs .") == 1);
    CHECK(count(r.out, "Black to move") == 1);
    const auto file = scratch_dir() / "b.svg";
    r = run_shell(cli + " board --move 'c2 * c3, d4' --position '7r/8/8/8/8/8/2(RS)5/8 w' -o " + file.string());
    CHECK(r.code == 0);
    CHECK(count(slurp(file), "data-move=\"c2*c3,d4\"") == 1);

    r = run_shell(cli + " board --move c2-c5");
    CHECK(r.code == 2);
    CHECK(count(r.err, "c2-c5 is not a legal move") == 1);
    CHECK(count(r.err, "legal moves of that stack: c2-b3 c2-d3") == 1);
    r = run_shell(cli + " board --position '8/8/9/8/8/8/8/8 w'");
    CHECK(r.code == 2);
    CHECK(count(r.err, "bad position at character") == 1);
    r = run_shell(cli + " board --format png");
    CHECK(r.code == 2);
    CHECK(count(r.err, "--format 'png'") == 1);
}

TEST_CASE("the HTML report renders in headless Chromium to a picture that is not blank", "[report]") {
    const char* chromium = "/usr/bin/chromium";
    if (!std::filesystem::exists(chromium)) {
        WARN("Chromium is not installed at /usr/bin/chromium: render test skipped");
        return;
    }
    const auto dir = scratch_dir();
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
        run_shell(std::string("timeout 120 ") + chromium + " --headless --no-sandbox --disable-gpu --hide-scrollbars --screenshot=" +
                  png.string() + " --window-size=1000,1400 file://" + (dir / (page + ".html")).string());
        return slurp(png);
    };
    const std::string blank = shoot("blank");
    const std::string report = shoot("report");
    REQUIRE(report.size() > 24);
    CHECK(report.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
    auto be32 = [&](std::size_t at) {
        return (unsigned(static_cast<unsigned char>(report[at])) << 24) | (unsigned(static_cast<unsigned char>(report[at + 1])) << 16) |
               (unsigned(static_cast<unsigned char>(report[at + 2])) << 8) | unsigned(static_cast<unsigned char>(report[at + 3]));
    };
    CHECK(be32(16) == 1000); // IHDR width and height
    CHECK(be32(20) == 1400);
    // A blank page compresses to a few kilobytes; boards, tables and text take many times that.
    INFO("blank " << blank.size() << " bytes, report " << report.size() << " bytes, in " << dir.string());
    CHECK(report.size() > 5 * std::max<std::size_t>(blank.size(), 1000));
}
