// Reports and diagrams: board SVG and text, `gounki board`, and the HTML, Markdown and annotated
// record renderers fed with report models built by hand from real games of the rules core.
#include "tests/catch.hpp"

#include "cli/report/board_diagram.hpp"
#include "cli/report/format.hpp"
#include "cli/report/from_record.hpp"
#include "cli/report/render.hpp"
#include "core/notation.hpp"
#include "core/stones.hpp"
#include "parser/reader.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
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

// ---------------------------------------------------------------------------------------------
// Stone games (Gomoku, Ninuki): diagrams, reports, and the command line around them.

namespace {

// Points named by this file's own helper (file letter a..s, rank from the bottom, rank*19+file as
// core/stones.hpp says), not by stones::parse_point, so that a bug there cannot hide one here.
int pt(const std::string& name) { return (std::stoi(name.substr(1)) - 1) * 19 + (name.at(0) - 'a'); }

stones::StonePosition stone_board(GameKind kind, int size, const std::vector<std::string>& black,
                                  const std::vector<std::string>& white, Color side = Color::black) {
    stones::Rules rules = stones::Rules::defaults(kind);
    rules.size = size;
    stones::StonePosition pos(rules);
    for (const std::string& b : black) pos.put(pt(b), stones::Stone::black);
    for (const std::string& w : white) pos.put(pt(w), stones::Stone::white);
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

// `moves` (point names) played from an empty board of `kind` into a GameReport.
GameReport play_stones(GameKind kind, const std::vector<std::string>& moves) {
    GameReport g;
    g.kind = kind;
    stones::StonePosition pos(stones::Rules::defaults(kind));
    for (const std::string& name : moves) {
        const Move m = Move::placement(pt(name));
        REQUIRE(pos.is_legal(m));
        g.plies.push_back({name, pos.side_to_move(), pos.to_text(), std::nullopt});
        stones::StoneUndo u;
        pos.play(m, u);
    }
    return g;
}

// A small strict JSON reader: enough to say that a command's output is one well-formed value and
// to look into it.
struct Json {
    enum class Type { null, boolean, number, string, array, object } type = Type::null;
    bool boolean = false;
    double number = 0;
    std::string text;
    std::vector<Json> items;
    std::vector<std::pair<std::string, Json>> fields;
    const Json& operator[](const std::string& key) const {
        static const Json none;
        for (const auto& [k, v] : fields)
            if (k == key) return v;
        return none;
    }
    bool has(const std::string& key) const {
        return std::any_of(fields.begin(), fields.end(), [&](const auto& f) { return f.first == key; });
    }
};

class JsonReader {
public:
    explicit JsonReader(const std::string& s) : s_(s) {}
    // The one value of the text (whitespace around it allowed); nullopt when it is not JSON.
    std::optional<Json> read() {
        Json v;
        if (!value(v)) return std::nullopt;
        space();
        if (i_ != s_.size()) return std::nullopt;
        return v;
    }

private:
    void space() {
        while (i_ < s_.size() && std::strchr(" \t\r\n", s_[i_])) ++i_;
    }
    bool literal(const char* word) {
        const std::size_t n = std::strlen(word);
        if (s_.compare(i_, n, word) != 0) return false;
        i_ += n;
        return true;
    }
    bool string(std::string& out) {
        if (i_ >= s_.size() || s_[i_] != '"') return false;
        for (++i_; i_ < s_.size(); ++i_) {
            const char c = s_[i_];
            if (c == '"') { ++i_; return true; }
            if (static_cast<unsigned char>(c) < 0x20) return false;
            if (c != '\\') { out += c; continue; }
            if (++i_ >= s_.size()) return false;
            const char e = s_[i_];
            const char* plain = std::strchr("\"\\/bfnrt", e);
            if (!plain) {
                if (e != 'u' || i_ + 4 >= s_.size()) return false;
                const unsigned code = unsigned(std::stoul(s_.substr(i_ + 1, 4), nullptr, 16));
                i_ += 4;
                if (code < 0x80) out += char(code);
                else if (code < 0x800) out += char(0xC0 | (code >> 6)), out += char(0x80 | (code & 0x3F));
                else out += char(0xE0 | (code >> 12)), out += char(0x80 | ((code >> 6) & 0x3F)), out += char(0x80 | (code & 0x3F));
                continue;
            }
            out += "\"\\/\b\f\n\r\t"[plain - "\"\\/bfnrt"];
        }
        return false;
    }
    bool value(Json& v) {
        space();
        if (i_ >= s_.size()) return false;
        const char c = s_[i_];
        if (c == '{') {
            v.type = Json::Type::object;
            ++i_;
            space();
            if (i_ < s_.size() && s_[i_] == '}') return ++i_, true;
            for (;;) {
                space();
                std::string key;
                Json item;
                if (!string(key)) return false;
                space();
                if (i_ >= s_.size() || s_[i_++] != ':' || !value(item)) return false;
                v.fields.emplace_back(key, item);
                space();
                if (i_ < s_.size() && s_[i_] == ',') { ++i_; continue; }
                return i_ < s_.size() && s_[i_++] == '}';
            }
        }
        if (c == '[') {
            v.type = Json::Type::array;
            ++i_;
            space();
            if (i_ < s_.size() && s_[i_] == ']') return ++i_, true;
            for (;;) {
                Json item;
                if (!value(item)) return false;
                v.items.push_back(item);
                space();
                if (i_ < s_.size() && s_[i_] == ',') { ++i_; continue; }
                return i_ < s_.size() && s_[i_++] == ']';
            }
        }
        if (c == '"') return v.type = Json::Type::string, string(v.text);
        if (literal("true")) return v.type = Json::Type::boolean, v.boolean = true, true;
        if (literal("false")) return v.type = Json::Type::boolean, true;
        if (literal("null")) return true;
        const std::size_t start = i_;
        while (i_ < s_.size() && std::strchr("+-0123456789.eE", s_[i_])) ++i_;
        if (i_ == start) return false;
        v.type = Json::Type::number;
        v.number = std::stod(s_.substr(start, i_ - start));
        return true;
    }

    const std::string& s_;
    std::size_t i_ = 0;
};

std::vector<std::string> texts_of(const Json& array) {
    std::vector<std::string> out;
    for (const Json& j : array.items) out.push_back(j.text);
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST_CASE("the SVG of a stone position has one circle per stone, in its colour, at its point", "[report][stones]") {
    const stones::StonePosition pos = stone_board(GameKind::gomoku, 15, {"h8", "j9", "a1"}, {"h9", "o15"}, Color::white);
    StoneBoardStyle style;
    style.marks = {{Move::placement(pt("j10")), ArrowKind::best}, {Move::placement(pt("k10")), ArrowKind::played}};
    style.last_move = pt("h9");
    const std::string svg = stones_svg_checked(pos, style);
    CHECK(svg.rfind("<?xml", 0) == 0);
    CHECK(count(svg, "<circle class=\"stone ") == 5);
    CHECK(count(svg, "<circle class=\"stone black\"") == 3);
    CHECK(count(svg, "<circle class=\"stone white\"") == 2);
    for (const char* b : {"h8", "j9", "a1"}) {
        INFO(b);
        const std::string tag = stone_circle(svg, "black", b);
        REQUIRE_FALSE(tag.empty());
        CHECK(count(tag, "fill=\"#1a1a1a\"") == 1);
    }
    for (const char* w : {"h9", "o15"}) {
        INFO(w);
        const std::string tag = stone_circle(svg, "white", w);
        REQUIRE_FALSE(tag.empty());
        CHECK(count(tag, "fill=\"#fbfaf5\"") == 1);
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
    CHECK(count(svg, "class=\"star\"") == 5);
    CHECK(count(svg, ">o</text>") == 1);
    CHECK(count(svg, ">p</text>") == 0);
    CHECK(count(svg, ">15</text>") == 1);
    CHECK(count(svg, "<g class=\"mark best\" data-point=\"j10\"") == 1);
    CHECK(count(svg, "<g class=\"mark played\" data-point=\"k10\"") == 1);
    CHECK(count(svg, "<circle class=\"last\" data-point=\"h9\"") == 1);
    CHECK(count(svg, "White to move") == 1);
    CHECK(count(svg, "Captured") == 0); // Gomoku has no captures
    CHECK(count(svg, "data-game=\"Gomoku\" data-size=\"15\"") == 1);

    // Ninuki on 19x19: nine star points, the captured stones, an empty board drawn as such.
    stones::StonePosition nin = stone_board(GameKind::ninuki, 19, {"j10"}, {"k10", "s19"});
    nin.set_captured(Color::black, 2);
    const std::string n = stones_svg_checked(nin, {});
    CHECK(count(n, "class=\"star\"") == 9);
    CHECK(count(n, "<circle class=\"stone ") == 3);
    CHECK_FALSE(stone_circle(n, "white", "s19").empty());
    CHECK(count(n, ">s</text>") == 1);
    CHECK(count(n, ">19</text>") == 1);
    CHECK(count(n, "Black to move \u00b7 Captured: Black 2, White 0") == 1);
    CHECK(count(stones_svg_checked(stone_board(GameKind::gomoku, 15, {}, {}), {}), "<circle class=\"stone") == 0);
}

TEST_CASE("the text diagram of a stone position puts x, o and . at their coordinates", "[report][stones]") {
    stones::StonePosition pos = stone_board(GameKind::ninuki, 19, {"a1", "j10", "k11", "s19"}, {"a19", "j11", "s1", "c3"});
    pos.set_captured(Color::white, 4);
    const std::string text = stone_board_text(pos, {{Move::placement(pt("l12")), ArrowKind::best}}, pt("j11"));
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
            const int point = (rank - 1) * 19 + file;
            if (c == 'x' || c == 'X') back.put(point, stones::Stone::black);
            if (c == 'o' || c == 'O') back.put(point, stones::Stone::white);
            CHECK((std::isupper(static_cast<unsigned char>(c)) != 0) == (point == pt("j11")));
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
    CHECK(count(g, "\n 8 . . . . . . . x . . . . . . .\n") == 1);
    CHECK(count(g, "\n   a b c d e f g h i j k l m n o\nWhite to move\n") == 1);
    CHECK(count(g, "Captured") == 0);
}

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
    CHECK(count(html, "<svg class=\"board\"") == flagged.size());
    CHECK(count(html, "data-game=\"Gomoku\"") == flagged.size());
    for (std::size_t i : flagged) {
        const Ply& p = g.plies[i];
        INFO("ply " << i + 1);
        const std::string fig = between(html, "id=\"game-1-d" + std::to_string(i + 1) + "\"", "</figure>");
        CHECK(count(fig, "<svg class=\"board\"") == 1);
        CHECK(count(fig, "<circle class=\"stone ") == i); // no captures in Gomoku: one stone per ply before
        CHECK(count(fig, "<g class=\"mark played\" data-point=\"" + p.move + "\"") == 1);
        CHECK(count(fig, "<g class=\"mark best\" data-point=\"" + p.judgement->best_move + "\"") == 1);
        CHECK(count(fig, "<circle class=\"last\" data-point=\"" + g.plies[i - 1].move + "\"") == 1);
    }
    // Black moves first: "1. h8 h9 2. i9 g7".
    CHECK(count(html, "<span class=\"no\">1.</span> <span class=\"ply\" id=\"game-1-p1\"") == 1);
    CHECK(count(html, "<span class=\"no\">2.</span> <span class=\"ply\" id=\"game-1-p3\"") == 1);
    CHECK(count(html, "...</span>") == 0);
    CHECK(count(html, "<tr><th>Game</th><td>Gomoku</td></tr>") == 1);
    CHECK(count(html, "<tr><th>Size</th><td>15</td></tr>") == 1);
    CHECK(count(html, "<tr><th>Position</th>") == 0); // an empty board is the standard start

    const std::string md = render_markdown(m);
    CHECK(count(md, "```text\n") == flagged.size());
    for (std::size_t i : flagged) {
        const Ply& p = g.plies[i];
        const std::size_t at = md.find("#### " + move_number_text(g, i) + " `" + p.move);
        REQUIRE(at != std::string::npos);
        const std::string block = between(md, "```text\n", "```", at);
        CHECK(count(block, "Played: " + p.move + "\n") == 1);
        CHECK(count(block, "Best: " + p.judgement->best_move + "\n") == 1);
        CHECK(count(block, "Last: " + g.plies[i - 1].move + "\n") == 1);
        CHECK(count(block, "x") + count(block, "X") == (i + 1) / 2); // Black's stones so far
    }
    CHECK(count(md, "1\\. h8 h9 2. i9 **g7??** 3. j10 k11") == 1);

    const std::string gpn = render_annotated_gpn(m);
    INFO(gpn);
    CHECK(gpn.rfind("[Game \"Gomoku\"]\n", 0) == 0);
    CHECK(count(gpn, "[Size") == 0); // 15x15 is Gomoku's default
    CHECK(count(gpn, "[Position") == 0);
    std::string flat = gpn; // lines wrap at 79 columns
    std::replace(flat.begin(), flat.end(), '\n', ' ');
    CHECK(count(flat, "2... g7?? {(+1.0 -> -4.0) Blunder. k11 was best.} (2... k11 3. g7) 3. j10") == 1);
    CHECK(count(flat, "5. g8? {(+#1 -> 0.0) Missed win. e6 was best.} (5. e6) 5... f8") == 1);
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
        CHECK(p.move == Move::placement(pt(g.plies[i].move)));
        const Verdict v = g.plies[i].judgement->verdict;
        CHECK(p.nags == (v == Verdict::none ? std::vector<std::uint8_t>{} : std::vector<std::uint8_t>{std::uint8_t(verdict_nag(v))}));
        CHECK(p.variations.size() == (v == Verdict::none ? 0u : 1u));
    }
    CHECK(back[0].main.plies[3].variations[0].plies.size() == 2);
    const auto gpn_file = scratch_dir() / "stones.gpn";
    std::ofstream(gpn_file) << gpn;
    CHECK(std::system((std::string(GOUNKI_CLI) + " validate " + gpn_file.string() + " >/dev/null").c_str()) == 0);
    CHECK(gpn.find(" *\n\n") == gpn.size() - 4);

    // Mixed with a Gounki game: each keeps its own diagrams and numbering.
    ReportModel mixed;
    mixed.games = {blunder_game(), g};
    const std::string both = render_html(mixed);
    CHECK(count(both, "<svg class=\"board\"") == 2 + flagged.size());
    CHECK(count(both, "data-game=\"Gomoku\"") == flagged.size());
    CHECK(count(both, "class=\"stack ") > 0);
}

TEST_CASE("a report game from a stone game's record and its judgement", "[report][stones]") {
    parser::GameRecord rec;
    rec.kind = GameKind::ninuki;
    rec.stone_start = stones::StonePosition(stones::Rules::defaults(GameKind::ninuki));
    rec.tags = {{"Game", "Ninuki"}, {"White", "W"}, {"Black", "B"}, {"Size", "19"}, {"Round", "2"}};
    rec.result = "0-1";
    const std::vector<std::string> moves{"j10", "k10", "l10", "k11", "m10"};
    for (const std::string& m : moves) rec.main.plies.emplace_back(Move::placement(pt(m)), m);
    analysis::GameJudgement j;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        analysis::PlyJudgement pj;
        pj.ply = int(i);
        pj.played = Move::placement(pt(moves[i]));
        pj.best = pj.played;
        pj.pv = {pj.played};
        j.plies.push_back(pj);
    }
    j.plies[2].verdict = analysis::Verdict::blunder;
    j.plies[2].best = Move::placement(pt("j11"));
    j.plies[2].pv = {Move::placement(pt("j11")), Move::placement(pt("h12"))};
    j.plies[2].best_score = 150;
    j.plies[2].played_score = -420;
    j.plies[4].played = Move::placement(pt("a1")); // judged another move: no judgement shown
    j.sides[index(Color::black)].moves = 3;
    j.sides[index(Color::black)].accuracy = 61.5;

    const GameReport g = game_report(rec, &j);
    CHECK(g.kind == GameKind::ninuki);
    CHECK(g.white == "W");
    CHECK(g.result == "0-1");
    REQUIRE(g.other_tags.size() == 1);
    CHECK(g.other_tags[0].name == "Round");
    REQUIRE(g.plies.size() == moves.size());
    stones::StonePosition pos = rec.stone_start;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        CHECK(g.plies[i].move == moves[i]);
        CHECK(g.plies[i].side == (i % 2 == 0 ? Color::black : Color::white));
        CHECK(g.plies[i].position_before == pos.to_text());
        stones::StoneUndo u;
        pos.play(Move::placement(pt(moves[i])), u);
    }
    REQUIRE(g.plies[2].judgement);
    CHECK(g.plies[2].judgement->verdict == Verdict::blunder);
    CHECK(g.plies[2].judgement->best_move == "j11");
    CHECK(g.plies[2].judgement->best_line == std::vector<std::string>{"j11", "h12"});
    CHECK(g.plies[2].judgement->best.pieces == Approx(1.5));
    CHECK(g.plies[2].judgement->played.pieces == Approx(-4.2));
    CHECK_FALSE(g.plies[4].judgement);
    CHECK(g.summary[index(Color::black)].blunders == 1);
    CHECK(g.summary[index(Color::black)].accuracy == 61.5);
    CHECK_FALSE(g.summary[index(Color::white)].accuracy);

    ReportModel m;
    m.games = {g};
    const std::string html = render_html(m);
    CHECK(count(html, "<svg class=\"board\"") == 1);
    CHECK(count(html, "data-game=\"Ninuki\" data-size=\"19\"") == 1);
    CHECK(count(html, "<g class=\"mark best\" data-point=\"j11\"") == 1);
    CHECK(count(html, "Captured: Black 0, White 0") == 1);
}

TEST_CASE("gounki board draws stone positions and prints --json that parses", "[report][stones]") {
    const std::string cli = GOUNKI_CLI;
    const std::string gomoku = "'Gomoku 15 15/15/15/15/15/15/7o7/7x7/15/15/15/15/15/15/15 b'";
    Run r = run_shell(cli + " board --format text --move j9 --last h9 --position " + gomoku);
    CHECK(r.code == 0);
    CHECK(count(r.out, "\n 9 . . . . . . . O . . . . . . .\n 8 . . . . . . . x . . . . . . .\n") == 1);
    CHECK(count(r.out, "Black to move\nLast: h9\nMove: j9\n") == 1);
    const auto file = scratch_dir() / "stones.svg";
    r = run_shell(cli + " board --move j9 --position " + gomoku + " -o " + file.string());
    CHECK(r.code == 0);
    const std::string svg = slurp(file);
    CHECK(count(svg, "<circle class=\"stone ") == 2);
    CHECK(count(svg, "<g class=\"mark move\" data-point=\"j9\"") == 1);
    r = run_shell(cli + " board --move h8 --position " + gomoku);
    CHECK(r.code == 2);
    CHECK(count(r.err, "h8 cannot be played") == 1);
    r = run_shell(cli + " board --move p9 --position " + gomoku);
    CHECK(r.code == 2);
    CHECK(count(r.err, "not a point of the 15x15 board") == 1);
    r = run_shell(cli + " board --position 'Gomoku 15 16/15 b'");
    CHECK(r.code == 2);
    CHECK(count(r.err, "bad position at character") == 1);

    // --json: a stone position, the diagram inside the object when it goes to standard output.
    r = run_shell(cli + " board --json --move k10 --position 'Ninuki 19 19/19/19/19/19/19/19/19/9x9/9o9/8xo9/19/19/19/19/19/19/19/19 w 2 0'");
    CHECK(r.code == 0);
    std::optional<Json> j = JsonReader(r.out).read();
    INFO(r.out);
    REQUIRE(j);
    CHECK((*j)["kind"].text == "Ninuki");
    CHECK((*j)["size"].number == 19);
    CHECK((*j)["side"].text == "white");
    CHECK((*j)["move"].text == "k10");
    CHECK((*j)["captured"]["black"].number == 2);
    CHECK((*j)["captured"]["white"].number == 0);
    CHECK(texts_of((*j)["stones"]["black"]) == std::vector<std::string>{"i9", "j11"});
    CHECK(texts_of((*j)["stones"]["white"]) == std::vector<std::string>{"j10", "j9"});
    CHECK((*j)["output"].type == Json::Type::null);
    CHECK(count((*j)["diagram"].text, "<circle class=\"stone ") == 4);

    // A Gounki position written to a file: the object names the file; the stacks are listed.
    const auto gounki_svg = scratch_dir() / "gounki.svg";
    std::filesystem::remove(gounki_svg);
    r = run_shell(cli + " board --json --move c2-d3 -o " + gounki_svg.string());
    CHECK(r.code == 0);
    j = JsonReader(r.out).read();
    REQUIRE(j);
    CHECK((*j)["kind"].text == "Gounki");
    CHECK((*j)["side"].text == "white");
    CHECK((*j)["move"].text == "c2-d3");
    CHECK((*j)["format"].text == "svg");
    CHECK((*j)["output"].text == gounki_svg.string());
    CHECK_FALSE(j->has("diagram"));
    CHECK((*j)["stacks"].items.size() == 32);
    CHECK((*j)["stacks"].items[0]["square"].text == "a1");
    CHECK((*j)["stacks"].items[0]["stack"].text == "S");
    CHECK(count(slurp(gounki_svg), "data-move=\"c2-d3\"") == 1);
    CHECK_FALSE(JsonReader("{\"a\":1,}").read()); // the reader itself is strict
}

TEST_CASE("--quiet is an option of every command and silences progress lines", "[report]") {
    const std::string cli = GOUNKI_CLI;
    Run r = run_shell(cli + " --help");
    CHECK(count(r.out, "--quiet") == 1);
    for (const char* command : {"board", "analyze", "report", "import", "perft"}) {
        INFO(command);
        r = run_shell(cli + " help " + command);
        CHECK(count(r.out, "--quiet") == 1);
    }
    r = run_shell(cli + " perft --quiet 1");
    CHECK(r.code == 0);
    CHECK(r.out == "36\n");

    // Progress lines are drawn only on a terminal: run under script(1) for one.
    if (std::system("script -qec true /dev/null >/dev/null 2>&1") != 0) {
        WARN("script(1) is not available: the terminal part of the --quiet test is skipped");
        return;
    }
    const auto dir = scratch_dir();
    const std::string db = (dir / "quiet.db").string();
    std::filesystem::remove(db);
    const std::string game = std::string(GOUNKI_SOURCE_DIR) + "/samples/games/01-deployment-out.gpn";
    REQUIRE(run_shell(cli + " import --quiet --db " + db + " " + game).code == 0);
    auto on_terminal = [&](const std::string& args) {
        return run_shell("script -qec '" + cli + " " + args + "' /dev/null");
    };
    // import draws its own progress bar; --quiet drops it (print_err drops '\r' redraws).
    const std::string games = std::string(GOUNKI_SOURCE_DIR) + "/samples/games/0*.gpn";
    std::filesystem::remove(dir / "loud.db");
    r = on_terminal("import --db " + (dir / "loud.db").string() + " " + games);
    CHECK(r.code == 0);
    CHECK(count(r.out, "100%") == 1);
    std::filesystem::remove(dir / "hushed.db");
    r = on_terminal("import --quiet --db " + (dir / "hushed.db").string() + " " + games);
    CHECK(r.code == 0);
    CHECK(count(r.out, "%") == 0);
    CHECK(count(r.out, "\033[K") == 0);
    r = on_terminal("analyze --db " + db + " 1 --nodes 200 --force");
    CHECK(r.code == 0);
    CHECK(count(r.out, "judging") >= 1); // the progress line
    CHECK(count(r.out, "game 1:") == 1);
    r = on_terminal("analyze --quiet --db " + db + " 1 --nodes 200 --force");
    CHECK(r.code == 0);
    CHECK(count(r.out, "judging") == 0);
    CHECK(count(r.out, "\r") == 0);
    CHECK(count(r.out, "game 1:") == 0);
    // Errors still come through.
    r = on_terminal("analyze --quiet --db " + db + " 99");
    CHECK(r.code == 2);
    CHECK(count(r.out, "no game 99") == 1);
    // A report of an unjudged game says so, except under --quiet.
    REQUIRE(run_shell(cli + " import --quiet --db " + db + " " + std::string(GOUNKI_SOURCE_DIR) +
                      "/samples/games/02-triples-too-early.gpn").code == 0);
    r = run_shell(cli + " report --db " + db + " 2 --format md -o " + (dir / "r.md").string());
    CHECK(count(r.err, "no stored judgement") == 1);
    r = run_shell(cli + " report --quiet --db " + db + " 2 --format md -o " + (dir / "r.md").string());
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    CHECK(r.out.empty());
}

TEST_CASE("gounki report writes a stored Gomoku game with its stone moves and rules", "[report][stones]") {
    const std::string cli = GOUNKI_CLI;
    const auto dir = scratch_dir();
    const std::string db = (dir / "stones.db").string();
    std::filesystem::remove(db);
    const auto record = dir / "one-gomoku.gpn";
    std::ofstream(record) << "[Game \"Gomoku\"]\n[Size \"19\"]\n[White \"Wanda\"]\n[Black \"Bert\"]\n[Result \"0-1\"]\n\n"
                             "1. j10 j11 2. k10 k11 3. l10 l11 4. m10 m11 5. n10 0-1\n";
    Run r = run_shell(cli + " import --quiet --db " + db + " " + record.string());
    REQUIRE(r.code == 0);
    r = run_shell(cli + " report --quiet --db " + db + " 1 --format md -o -");
    CHECK(r.code == 0);
    CHECK(r.out.rfind("# Gomoku game report\n", 0) == 0);
    CHECK(count(r.out, "| Game | Gomoku |") == 1);
    CHECK(count(r.out, "| Size | 19 |") == 1);
    CHECK(count(r.out, "1\\. j10 j11 2. k10 k11 3. l10 l11 4. m10 m11 5. n10 0-1") == 1);
    r = run_shell(cli + " report --quiet --db " + db + " 1 --format gpn -o -");
    CHECK(r.code == 0);
    CHECK(count(r.out, "[Game \"Gomoku\"]") == 1);
    CHECK(count(r.out, "[Size \"19\"]") == 1);
    CHECK(count(r.out, "1. j10 j11 2. k10 k11 3. l10 l11 4. m10 m11 5. n10 0-1") == 1);
}
