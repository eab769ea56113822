// render_html: one self-contained HTML5 file. Markup is XHTML-compatible (void elements closed with
// `/>`, every attribute quoted) so that an XML-minded checker can read it too.
#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/game.hpp"
#include "report/format.hpp"
#include "report/render.hpp"
#include "report/viewer.hpp"

namespace gounki::report {

namespace {

constexpr const char* css = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#222;background:#fafaf7;margin:0 auto;max-width:980px;padding:16px 24px 48px;line-height:1.45}
h1{font-size:1.7em;margin:.4em 0}
h2{border-bottom:2px solid #b58863;padding-bottom:.2em;margin-top:2em}
h3{margin:1.4em 0 .5em;font-size:1.15em}
table{border-collapse:collapse;margin:.4em 0 1em}
th,td{border:1px solid #d8d2c4;padding:3px 9px;text-align:left}
th{background:#efe8da}
td.num{text-align:right}
table.openings tr.first td{font-weight:600}
table.openings tr.reply td:first-child{padding-left:2em}
table.openings tr.more td{color:#666;font-style:italic}
table.tags th{width:8em}
.movelist{background:#fff;border:1px solid #d8d2c4;border-radius:6px;padding:10px 12px;font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:.95em}
.movelist .no{color:#888;margin-left:.5em}
.ply{padding:1px 3px;border-radius:3px;white-space:nowrap}
.ply a{color:inherit;text-decoration:none}
.mark{font-weight:bold}
.badge{font-family:system-ui,sans-serif;font-size:.75em;padding:0 4px;border-radius:3px;color:#fff;margin-left:3px}
.ply.blunder{background:#fbd5d2;color:#a0160d}
.ply.mistake{background:#fde3c8;color:#9a4a00}
.ply.inaccuracy{background:#f6f0c4;color:#6d6100}
.ply.missed-win{background:#ead8f3;color:#6a1f8e}
.ply.missed-win .badge{background:#8e44ad}
.ply.allows-loss{background:#3a0a0a;color:#ffd9d4}
.ply.allows-loss .badge{background:#c0392b}
.ply.book{color:#6b6b6b;font-style:italic}
.ply.book .badge{background:#9a9a9a}
figure.blunder strong{color:#a0160d}
figure.mistake strong{color:#9a4a00}
figure.missed-win strong{color:#6a1f8e}
figure.allows-loss strong{color:#7b0d0d}
figure.flagged{border-left:5px solid #b58863}
figure.blunder{border-left-color:#d62728}
figure.mistake{border-left-color:#e67e22}
figure.missed-win{border-left-color:#8e44ad}
figure.allows-loss{border-left-color:#7b0d0d}
.graph{width:100%;height:auto;background:#fff;border:1px solid #d8d2c4;border-radius:6px}
.flags{display:flex;flex-wrap:wrap;gap:18px}
figure.flagged{margin:0;background:#fff;border:1px solid #d8d2c4;border-radius:6px;padding:10px;max-width:480px}
figure.flagged figcaption{font-size:.92em;margin-bottom:6px}
figure.flagged svg{max-width:100%;height:auto}
.legend{font-size:.85em;color:#555}
.key-played{color:#c0392b;font-weight:bold}
.key-best{color:#1e8c3a;font-weight:bold}
nav ol{columns:2}
.broken{background:#fdecea;border-left:4px solid #c0392b;padding:.4em .8em;font-weight:bold}
)";

std::string e(std::string_view s) { return xml_escape(s); }

std::string game_title(const GameReport& g, std::size_t k, bool with_kind = false) {
    std::string t = "Game " + std::to_string(k + 1);
    if (!g.id.empty()) t += " (#" + g.id + ")";
    return t + ": " + (with_kind ? std::string(game_kind_name(g.kind)) + ", " : std::string()) + players_text(g) + ", " +
        result_text(g) + (g.broken() ? " (" + g.status + ")" : "");
}

std::string verdict_class(Verdict v) { return std::string(verdict_name(v)); }

void tags_table(std::string& out, const GameReport& g) {
    out += "<table class=\"tags\">\n";
    auto row = [&](std::string_view name, const std::string& value) {
        if (!value.empty()) out += "<tr><th>" + e(name) + "</th><td>" + e(value) + "</td></tr>\n";
    };
    for (const Tag& t : shown_tags(g)) row(t.name, t.value);
    if (!starts_from_standard_position(g)) row("Position", start_position_text(g));
    out += "</table>\n";
}

void comments(std::string& out, const std::vector<std::string>& texts) {
    for (const std::string& c : texts) out += "<span class=\"comment\">{" + e(c) + "}</span>\n";
}

// A variation of ply i, its first move numbered `number`: each move a span the script steps into
// (data-ply, data-line: the line's path, "K" the ply's variation K, "K.S.L" variation L of that
// line's move S, ...; data-step), the variations inside each move nested in it.
void variation_html(std::string& out, const GameReport& g, std::size_t i, const Variation& var, const std::string& path,
                    int number, AnyPosition before) {
    out += "<span class=\"variation\">(";
    comments(out, var.comments);
    bool restate = false; // after a comment or a variation inside, the next move's number is written again
    for (std::size_t j = 0; j < var.moves.size(); ++j) {
        const LineMove& m = var.moves[j];
        const bool first = m.side == first_mover(g);
        const int at = number;
        if (j == 0 || first || restate) out += std::to_string(number) + (first ? ". " : "... ");
        restate = !m.variations.empty() || !m.comments.empty();
        if (!first) ++number;
        out += "<span class=\"vmove\" data-ply=\"" + std::to_string(i + 1) + "\" data-line=\"" + path + "\" data-step=\"" +
            std::to_string(j) + "\">" + e(move_text(before, m.move));
        for (int n : m.nags) out += e(nag_text(n));
        out += "</span> ";
        comments(out, m.comments);
        for (std::size_t k = 0; k < m.variations.size(); ++k)
            variation_html(out, g, i, m.variations[k], path + "." + std::to_string(j) + "." + std::to_string(k), at, before);
        before = m.after;
    }
    out += ")</span>\n";
}

// What the record says of ply i: its NAGs, comments and variations.
void record_notes(std::string& out, const GameReport& g, std::size_t i) {
    const Ply& p = g.plies[i];
    if (!p.nags.empty()) {
        out += "<span class=\"nag\">";
        for (int n : p.nags) out += e(nag_text(n));
        out += "</span>\n";
    }
    comments(out, p.comments);
    for (std::size_t k = 0; k < p.variations.size(); ++k)
        variation_html(out, g, i, p.variations[k], std::to_string(k), move_number(g, i), p.before);
}

void move_list(std::string& out, const GameReport& g, const std::string& anchor) {
    out += "<div class=\"movelist\">\n";
    comments(out, g.comments);
    for (std::size_t i = 0; i < g.plies.size(); ++i) {
        const Ply& p = g.plies[i];
        if (numbered(g, i)) out += "<span class=\"no\">" + move_number_text(g, i) + "</span> ";
        const Verdict v = p.judgement ? p.judgement->verdict : Verdict::best;
        const std::string id = anchor + "-p" + std::to_string(i + 1);
        out += "<span class=\"ply" + (v == Verdict::best ? std::string() : " " + verdict_class(v)) + "\" id=\"" + id + "\"";
        if (p.judgement) out += " title=\"" + e(judgement_comment(p)) + "\"";
        out += ">";
        std::string body = e(move_text(p));
        if (v != Verdict::best) body += "<span class=\"mark\">" + e(verdict_suffix(v)) + "</span>";
        if (!verdict_badge(v).empty()) body += "<span class=\"badge\">" + e(verdict_badge(v)) + "</span>";
        if (is_flagged(v)) body = "<a href=\"#" + anchor + "-d" + std::to_string(i + 1) + "\">" + body + "</a>";
        out += body + "</span>\n";
        record_notes(out, g, i);
    }
    if (g.plies.empty()) out += "<em>No moves.</em>\n";
    out += "<span class=\"no\">" + e(result_text(g)) + "</span>\n</div>\n";
}

// One point per ply: the expected result after it from the side every score is shown from (White
// in Gounki, Black in the stone games), 1 at the top; the area under the line is that side's share,
// as on the usual evaluation charts. Move numbers along the bottom.
void eval_graph(std::string& out, const GameReport& g) {
    const std::size_t n = g.plies.size();
    if (n == 0) return;
    const double w = 720, h = 170, pad = 14;
    const bool black_view = is_stone_game(g);
    const std::string side = black_view ? "Black" : "White";
    std::vector<double> curve = white_curve(g);
    if (black_view)
        for (double& v : curve) v = 1 - v;
    const double step = n > 1 ? (w - 2 * pad) / double(n - 1) : 0;
    auto x = [&](std::size_t i) { return n > 1 ? pad + step * double(i) : w / 2; };
    auto y = [&](double v) { return pad + (1 - v) * (h - 2 * pad); };
    std::string pts;
    for (std::size_t i = 0; i < n; ++i) pts += (i ? " " : "") + format_number(x(i)) + "," + format_number(y(curve[i]));
    out += "<svg class=\"graph\" viewBox=\"0 0 " + format_number(w) + " " + format_number(h) + "\" data-pad=\"" +
        format_number(n > 1 ? pad : w / 2, 3) + "\" data-step=\"" + format_number(step, 6) +
        "\" role=\"img\" aria-label=\"Evaluation graph: " + side + "'s expected result after each ply\">\n";
    out += "<rect x=\"0\" y=\"0\" width=\"" + format_number(w) + "\" height=\"" + format_number(h) + "\" fill=\"#3d3d3d\"/>\n";
    // The area runs from edge to edge, level with the first and last points.
    const std::string y0 = format_number(y(curve[0])), yn = format_number(y(curve[n - 1]));
    out += "<polygon class=\"area\" fill=\"#f4f1ea\" points=\"0," + format_number(h) + " 0," + y0 + " " + pts + " " +
        format_number(w) + "," + yn + " " + format_number(w) + "," + format_number(h) + "\"/>\n";
    out += "<line x1=\"0\" x2=\"" + format_number(w) + "\" y1=\"" + format_number(y(0.5)) + "\" y2=\"" + format_number(y(0.5)) +
        "\" stroke=\"#999\" stroke-dasharray=\"4 4\"/>\n";
    // Move numbers: about ten ticks, at the first mover's moves.
    const int every = std::max(1, int(n / 10 + 1) / 2 * 2);
    out += "<g class=\"axis\">";
    for (std::size_t i = 0; i < n; ++i)
        if (i % std::size_t(every) == 0 && g.plies[i].side() == first_mover(g))
            out += "<text x=\"" + format_number(x(i)) + "\" y=\"" + format_number(h - 3) + "\" text-anchor=\"middle\">" +
                std::to_string(move_number(g, i)) + "</text>";
    out += "</g>\n";
    out += "<polyline class=\"eval\" fill=\"none\" stroke=\"#b58863\" stroke-width=\"2\" points=\"" + pts + "\"/>\n";
    for (std::size_t i = 0; i < n; ++i) {
        const Ply& p = g.plies[i];
        const Verdict v = p.judgement ? p.judgement->verdict : Verdict::best;
        const char* colour = v == Verdict::blunder ? "#d62728"
            : v == Verdict::mistake                ? "#e67e22"
            : v == Verdict::inaccuracy             ? "#c9b000"
            : v == Verdict::missed_win             ? "#8e44ad"
            : v == Verdict::allows_loss            ? "#7b0d0d"
            : v == Verdict::book                   ? "#9a9a9a"
                                                   : "#b58863";
        const double r = v == Verdict::best || v == Verdict::book ? 2.5 : 5;
        std::string tip = move_number_text(g, i) + " " + move_text(p) + std::string(verdict_suffix(v));
        if (p.judgement) tip += " " + judgement_comment(p);
        tip += " (" + side + " " + format_number(curve[i] * 100, 0) + "%)";
        out += "<circle class=\"point" + (v == Verdict::best ? std::string() : " " + verdict_class(v)) + "\" data-ply=\"" +
            std::to_string(i + 1) + "\" cx=\"" + format_number(x(i)) + "\" cy=\"" + format_number(y(curve[i])) + "\" r=\"" +
            format_number(r) + "\" fill=\"" + colour + "\" stroke=\"#fff\" stroke-width=\"1\"><title>" + e(tip) +
            "</title></circle>\n";
    }
    out += "</svg>\n<p class=\"legend\">" + side + "'s expected result after each ply (top: " + side +
        " wins, bottom: " + (black_view ? "White" : "Black") + " wins), by move number. Large dots mark verdicts.</p>\n";
}

void summary_table(std::string& out, const GameReport& g) {
    out += "<table class=\"summary\">\n<tr><th>Player</th><th>Colour</th><th>Judged moves</th><th>Inaccuracies "
           "?!</th><th>Mistakes ?</th><th>Blunders ?\?</th><th>Missed wins</th><th>Allowed losses</th><th>Accuracy</th></tr>\n";
    for (const std::vector<std::string>& row : summary_rows(g)) { // Black's row first in the stone games
        out += "<tr><td>" + e(row[0]) + "</td><td>" + row[1] + "</td>";
        for (std::size_t k = 2; k < row.size(); ++k) out += "<td class=\"num\">" + row[k] + "</td>";
        out += "</tr>\n";
    }
    out += "</table>\n";
    if (const std::string book = book_note(g); !book.empty()) out += "<p class=\"legend book\">" + e(book) + "</p>\n";
    if (const std::string ungraded = ungraded_note(g); !ungraded.empty()) out += "<p class=\"legend\">" + e(ungraded) + "</p>\n";
}

void flagged_diagrams(std::string& out, const GameReport& g, const std::string& anchor) {
    bool any = false;
    for (std::size_t i = 0; i < g.plies.size(); ++i) {
        const Ply& p = g.plies[i];
        if (!p.judgement || !is_flagged(p.judgement->verdict)) continue;
        if (!any) {
            out += "<h3>Turning points</h3>\n<p class=\"legend\">Position before the move: <span "
                   "class=\"key-played\">red</span> the move played, <span class=\"key-best\">green</span> the best move.</p>\n"
                   "<div class=\"flags\">\n";
            any = true;
        }
        const Judgement& j = *p.judgement;
        out += "<figure class=\"flagged " + verdict_class(j.verdict) + "\" id=\"" + anchor + "-d" + std::to_string(i + 1) +
            "\" data-ply=\"" + std::to_string(i + 1) + "\">\n<figcaption><strong>" + e(move_number_text(g, i)) + " " +
            e(move_text(p)) + e(verdict_suffix(j.verdict)) + "</strong> " + e(judgement_comment(p));
        if (const std::vector<std::string> best = line_texts(p.before, j.best_line); best.size() > 1) {
            out += "<br/>Best line:";
            for (const std::string& m : best) out.append(" ").append(e(m));
        }
        out += "</figcaption>\n" + ply_diagram_svg(g, i, 48) + "</figure>\n";
    }
    if (any) out += "</div>\n";
}

std::string result_cells(const int (&r)[4]) {
    std::string out;
    for (int i = 0; i < 4; ++i) out += "<td class=\"num\">" + std::to_string(r[i]) + "</td>";
    return out;
}

std::string colour_name(Color c) { return c == Color::white ? "White" : "Black"; }

// The id of a section over many games: "players", or "players-gomoku" when the report mixes kinds.
std::string section_id(const std::string& what, GameKind kind, bool mixed) {
    std::string id = what;
    if (mixed)
        for (char c : "-" + std::string(game_kind_name(kind))) id += char(std::tolower(static_cast<unsigned char>(c)));
    return id;
}

void players_section(std::string& out, const KindTables& t, bool mixed) {
    const std::vector<Color> colours = result_columns(t.kind);
    out += "<section id=\"" + section_id("players", t.kind, mixed) + "\">\n<h2>" + e(kind_heading("Players", t.kind, mixed)) +
        "</h2>\n<table class=\"players\">\n<tr><th rowspan=\"2\">Player</th><th rowspan=\"2\">Games</th>";
    for (Color c : colours) out += "<th colspan=\"4\">As " + colour_name(c) + "</th>";
    out += "<th rowspan=\"2\">Average accuracy</th></tr>\n<tr>";
    for (int k = 0; k < 2; ++k) out += "<th>won</th><th>drawn</th><th>lost</th><th>unfinished</th>";
    out += "</tr>\n";
    for (const PlayerStats& p : t.players)
        out += "<tr><td>" + e(p.name) + "</td><td class=\"num\">" + std::to_string(p.games) + "</td>" +
            result_cells(p.results[index(colours[0])]) + result_cells(p.results[index(colours[1])]) + "<td class=\"num\">" +
            (p.average_accuracy ? format_number(*p.average_accuracy, 1) + "%" : std::string("\u2013")) + "</td></tr>\n";
    out += "</table>\n</section>\n";
}

void opening_row(std::string& out, const OpeningLine& l, const KindTables& t, const char* cls) {
    out += "<tr class=\"" + std::string(cls) + "\"><td>" + e(opening_text(l, t.openings)) + "</td><td class=\"num\">" +
        std::to_string(l.games) + "</td>";
    for (Color c : result_columns(t.kind)) out += "<td class=\"num\">" + count_share(wins_of(l, c), l.games) + "</td>";
    out += "<td class=\"num\">" + count_share(l.draws, l.games) + "</td><td class=\"num\">" + count_share(l.unfinished, l.games) +
        "</td></tr>\n";
}

// The first moves (ply 1) with their top replies (the first two plies) under each.
void openings_section(std::string& out, const KindTables& t, bool mixed, int rows, int replies) {
    out += "<section id=\"" + section_id("openings", t.kind, mixed) + "\">\n<h2>" + e(kind_heading("Openings", t.kind, mixed)) +
        "</h2>\n<p class=\"legend\">" + e(openings_legend(t.openings, rows, replies)) + "</p>\n";
    if (t.openings.groups.empty()) {
        out += "<p>No game is long enough.</p>\n</section>\n";
        return;
    }
    out += "<table class=\"openings\">\n<tr><th>Moves</th><th>Games</th>";
    for (Color c : result_columns(t.kind)) out += "<th>" + colour_name(c) + " wins</th>";
    out += "<th>Draws</th><th>Unfinished</th></tr>\n";
    for (const OpeningGroup& g : t.openings.groups) {
        opening_row(out, g.first, t, "first");
        for (const OpeningLine& r : g.replies) opening_row(out, r, t, "reply");
        if (const std::string more = more_replies_note(g); !more.empty())
            out += "<tr class=\"reply more\"><td colspan=\"6\">" + e(more) + "</td></tr>\n";
    }
    out += "</table>\n";
    if (const std::string more = more_openings_note(t.openings); !more.empty())
        out += "<p class=\"more-openings\">" + e(more) + "</p>\n";
    if (!t.named_openings.empty()) {
        out += "<h3>" + e(named_openings_heading) + "</h3>\n<table class=\"named-openings\">\n<tr><th>Opening</th><th>Games</th>";
        for (Color c : result_columns(t.kind)) out += "<th>" + colour_name(c) + " wins</th>";
        out += "<th>Draws</th><th>Unfinished</th></tr>\n";
        for (const OpeningLine& l : t.named_openings) opening_row(out, l, t, "named");
        out += "</table>\n";
    }
    out += "</section>\n";
}

// The games of a summary or of a split report's index (those of one kind when the report mixes
// kinds): one row each, numbered as in the whole report, with accuracy; in an index each links
// to its file.
void games_table(std::string& out, const ReportModel& model, const std::vector<std::string>& links, const KindTables& t,
                 bool mixed) {
    out += "<section id=\"" + section_id("games", t.kind, mixed) + "\">\n<h2>" + e(kind_heading("Games", t.kind, mixed)) +
        "</h2>\n<table class=\"games\">\n<tr><th>#</th>";
    // The players by colour, the first player's first (one kind a table: one order for all rows).
    const Color first = gounki::first_mover(t.kind);
    for (Color c : {first, ~first}) out += "<th>" + colour_name(c) + "</th>";
    out += "<th>Result</th><th>Plies</th>";
    for (Color c : {first, ~first}) out += "<th>Accuracy (" + colour_name(c) + ")</th>";
    out += "<th>Event</th></tr>\n";
    for (std::size_t k : t.games) {
        const GameReport& g = model.games[k];
        auto name = [&](Color c) {
            const std::string& n = c == Color::white ? g.white : g.black;
            return e(n.empty() ? "?" : n);
        };
        const std::string cell = k < links.size() ? "<a href=\"" + e(links[k]) + "\">" + name(first) + "</a>" : name(first);
        out += "<tr><td class=\"num\">" + std::to_string(k + 1) + "</td><td>" + cell + "</td><td>" + name(~first) + "</td><td>" +
            e(result_text(g)) + (g.broken() ? " (" + e(g.status) + ")" : "") + "</td><td class=\"num\">" +
            std::to_string(g.plies.size()) + "</td>";
        for (Color c : {first, ~first}) {
            const auto& a = g.summary[index(c)].accuracy;
            out += "<td class=\"num\">" + (a ? format_number(*a, 1) + "%" : std::string("\u2013")) + "</td>";
        }
        out += "<td>" + e(g.event) + "</td></tr>\n";
    }
    out += "</table>\n</section>\n";
}

// Per game kind: players, openings, the left-out note, and (a summary or an index) the games.
void statistics(std::string& out, const ReportModel& model, const std::vector<std::string>& links, bool with_games) {
    const std::vector<KindTables> kinds = kind_tables(model.games, model.opening_rows, model.opening_replies);
    const bool mixed = kinds.size() > 1;
    for (const KindTables& t : kinds) {
        players_section(out, t, mixed);
        openings_section(out, t, mixed, model.opening_rows, model.opening_replies);
        if (const std::string note = left_out_note(t.broken); !note.empty())
            out += "<p class=\"legend broken-note\">" + e(note) + "</p>\n";
        if (with_games) games_table(out, model, links, t, mixed);
    }
}

void game_section(std::string& out, const GameReport& g, std::size_t k) {
    const std::string anchor = "game-" + std::to_string(k + 1);
    out += "<section class=\"game" + std::string(g.broken() ? " broken" : "") + "\" id=\"" + anchor + "\">\n<h2>" +
        e(game_title(g, k)) + "</h2>\n";
    if (g.broken()) out += "<p class=\"broken\">" + e(broken_note(g)) + "</p>\n";
    tags_table(out, g);
    out += "<h3>Board</h3>\n" + viewer_html(g, anchor);
    out += "<h3>Moves</h3>\n";
    move_list(out, g, anchor);
    out += "<h3>Evaluation</h3>\n";
    // An unjudged game's curve would be a flat line: a note instead (and a lighter page).
    // No graph of expected results an engine never gave (every judged move ungraded).
    if (std::any_of(g.plies.begin(), g.plies.end(), [](const Ply& p) { return p.judgement && p.judgement->scored; }))
        eval_graph(out, g);
    else out += "<p class=\"legend\">Not judged (gounki analyze judges it): no evaluation graph.</p>\n";
    out += "<h3>Summary</h3>\n";
    summary_table(out, g);
    flagged_diagrams(out, g, anchor);
    out += "</section>\n";
}

} // namespace

std::string render_html(const ReportModel& model, const HtmlOptions& options) {
    std::string out =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<meta name=\"generator\" content=\"" +
        e(model.annotator) + "\"/>\n<title>" + e(model.title) + "</title>\n<style>" + css + std::string(viewer_css()) +
        "</style>\n</head>\n<body>\n";
    if (!options.back_link.empty())
        out += "<p class=\"back\"><a href=\"" + e(options.back_link) + "\">\u2190 All games</a></p>\n";
    out += "<h1>" + e(model.title) + "</h1>\n";
    const bool games = !options.summary && options.game_links.empty();
    const bool many = model.games.size() > 1 || !games;
    if (many) {
        if (games) {
            // A list of several kinds names each game's kind (its players named first mover first).
            const bool mixed_kinds = std::any_of(model.games.begin(), model.games.end(),
                                                 [&](const GameReport& g) { return g.kind != model.games.front().kind; });
            out += "<nav>\n<ol>\n";
            for (std::size_t k = 0; k < model.games.size(); ++k)
                out += "<li><a href=\"#game-" + std::to_string(k + 1) + "\">" + e(game_title(model.games[k], k, mixed_kinds)) +
                    "</a></li>\n";
            out += "</ol>\n</nav>\n";
        }
        statistics(out, model, options.game_links, !games);
    }
    if (games)
        for (std::size_t k = 0; k < model.games.size(); ++k) game_section(out, model.games[k], options.games_before + k);
    if (model.games.empty()) out += "<p>No games.</p>\n";
    out += "<footer class=\"legend\"><p>Scores in the move comments are from the side that moved, in pieces; beside "
           "the board and on the graph, from White's side (Black's in the stone games); +#n: a forced win, the "
           "winning move n plies ahead. Marks: ?? blunder, ? mistake, ?! inaccuracy. Board: click a move or the graph; "
           "keys Left/Right step, Home/End, Down steps into a line, Up leaves it, F flips.</p><p>" +
        e(model.annotator) + "</p></footer>\n";
    if (games && !model.games.empty()) out += viewer_script();
    return out + "</body>\n</html>\n";
}

} // namespace gounki::report
