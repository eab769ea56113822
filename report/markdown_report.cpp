// render_markdown: the HTML report's content as CommonMark with pipe tables.
#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/game.hpp"
#include "report/format.hpp"
#include "report/render.hpp"
#include "report/viewer.hpp"

namespace gounki::report {

namespace {

// Backslash before the characters Markdown could read as inline markup (and `|`, for table cells).
// Text never starts a line here (tables, headings and move lists put something before it), so
// the line-start markers (`-`, `+`, `1.`) need no escape.
std::string md(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c == '\n' || c == '\r') {
            out += ' ';
            continue;
        }
        if (c == '&') {
            out += "&amp;";
            continue;
        }
        if (std::string_view("\\`*_{}[]<>|~#").find(c) != std::string_view::npos) out += '\\';
        out += c;
    }
    return out;
}

// Inside inline code nothing is markup; only backticks need care (none in moves or positions).
std::string code(std::string_view s) {
    std::string t(s);
    std::replace(t.begin(), t.end(), '`', '\'');
    return "`" + t + "`";
}

std::string marked_move(const Ply& p) {
    const Verdict v = p.judgement ? p.judgement->verdict : Verdict::best;
    const std::string move = move_text(p);
    if (v == Verdict::best) return md(move);
    if (v == Verdict::book) return md(move) + " _(book)_";
    std::string out = "**" + md(move + std::string(verdict_suffix(v))) + "**";
    if (!verdict_badge(v).empty()) out += " _(" + std::string(verdict_badge(v)) + ")_";
    return out;
}

void tags(std::string& out, const GameReport& g) {
    out += "| Tag | Value |\n|---|---|\n";
    auto row = [&](std::string_view name, const std::string& value) {
        if (!value.empty()) out += "| " + md(name) + " | " + md(value) + " |\n";
    };
    for (const Tag& t : shown_tags(g)) row(t.name, t.value);
    if (!starts_from_standard_position(g)) out += "| Position | " + code(start_position_text(g)) + " |\n";
    out += "\n";
}

std::string comments(const std::vector<std::string>& texts) {
    std::string out;
    for (const std::string& c : texts) out += " _{" + md(c) + "}_";
    return out;
}

// A variation in parentheses from `before`, its first move numbered `number`, the variations
// inside nested.
std::string variation_text(const GameReport& g, const Variation& v, int number, AnyPosition before) {
    std::string line = comments(v.comments);
    bool restate = false; // after a comment or a variation inside, the next move's number is written again
    for (std::size_t j = 0; j < v.moves.size(); ++j) {
        const LineMove& m = v.moves[j];
        const bool first = m.side == first_mover(g);
        const int at = number;
        if (j == 0 || first || restate) line += " " + std::to_string(number) + (first ? "." : "...");
        restate = !m.variations.empty() || !m.comments.empty();
        if (!first) ++number;
        line += " " + md(move_text(before, m.move));
        for (int n : m.nags) line += md(nag_text(n));
        line += comments(m.comments);
        for (const Variation& inner : m.variations) line += " " + variation_text(g, inner, at, before);
        before = m.after;
    }
    return "(" + line.substr(line.empty() ? 0 : 1) + ")";
}

// The record's own NAGs, comments and variations of ply i, after its move.
std::string record_notes(const GameReport& g, std::size_t i) {
    const Ply& p = g.plies[i];
    std::string out;
    for (int n : p.nags) out += md(nag_text(n));
    out += comments(p.comments);
    for (const Variation& v : p.variations) out += " " + variation_text(g, v, move_number(g, i), p.before);
    return out;
}

void moves(std::string& out, const GameReport& g) {
    std::string line = comments(g.comments);
    if (!line.empty()) line.erase(0, 1);
    for (std::size_t i = 0; i < g.plies.size(); ++i) {
        if (numbered(g, i)) line.append(line.empty() ? "" : " ").append(move_number_text(g, i));
        line.append(" ").append(marked_move(g.plies[i])).append(record_notes(g, i));
    }
    if (g.status == "partial") line.append(line.empty() ? "" : " ").append("_(the record breaks here)_");
    line.append(line.empty() ? "" : " ").append(md(result_text(g)));
    // A paragraph starting "1. " would be an ordered list.
    if (!line.empty() && std::isdigit(static_cast<unsigned char>(line[0])) && line.find('.') != std::string::npos)
        line.insert(line.find('.'), 1, '\\');
    out += line + "\n\n";
}

// One block character per ply, the expected result after it from the side every score is shown
// from (White's in Gounki, Black's in the stone games; high: that side is better).
void sparkline(std::string& out, const GameReport& g) {
    static const char* blocks[] = {"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588"};
    if (g.plies.empty()) return;
    std::vector<double> curve = white_curve(g);
    const bool black_view = is_stone_game(g);
    if (black_view)
        for (double& v : curve) v = 1 - v;
    const std::string side = black_view ? "Black" : "White";
    out += side + "'s expected result after each ply (one character per ply, high: " + side + " is better):\n\n```\n";
    for (std::size_t start = 0; start < g.plies.size(); start += 50) {
        std::string label = std::to_string(start + 1);
        label.resize(5, ' ');
        out += label;
        for (std::size_t i = start; i < std::min(g.plies.size(), start + 50); ++i) {
            const int level = std::clamp(int(std::floor(curve[i] * 8)), 0, 7);
            out += blocks[level];
        }
        out += "\n";
    }
    out += "```\n\n";
}

void summary(std::string& out, const GameReport& g) {
    out += "| Player | Colour | Judged | ?! | ? | ?? | Missed wins | Allowed losses | Accuracy |\n"
           "|---|---|--:|--:|--:|--:|--:|--:|--:|\n";
    for (const std::vector<std::string>& row : summary_rows(g)) { // Black's row first in the stone games
        out += "| " + md(row[0]) + " |";
        for (std::size_t k = 1; k < row.size(); ++k) out.append(" ").append(row[k]).append(" |");
        out += "\n";
    }
    out += "\n";
    if (const std::string book = book_note(g); !book.empty()) out += "_" + book + "_\n\n";
    if (const std::string ungraded = ungraded_note(g); !ungraded.empty()) out += "_" + ungraded + "_\n\n";
}

void flagged(std::string& out, const GameReport& g) {
    bool any = false;
    for (std::size_t i = 0; i < g.plies.size(); ++i) {
        const Ply& p = g.plies[i];
        if (!p.judgement || !is_flagged(p.judgement->verdict)) continue;
        if (!any) out += "### Turning points\n\n";
        any = true;
        const Judgement& j = *p.judgement;
        out += "#### " + move_number_text(g, i) + " " + code(move_text(p) + std::string(verdict_suffix(j.verdict))) + " \u2014 " +
            std::string(verdict_label(j.verdict)) + "\n\n" + code(judgement_comment(p)) + "\n\n";
        if (const std::vector<std::string> best = line_texts(p.before, j.best_line); best.size() > 1) {
            std::string line;
            for (const std::string& m : best) line += (line.empty() ? "" : " ") + m;
            out += "Best line: " + code(line) + "\n\n";
        }
        out += "```text\n" + ply_diagram_text(g, i) + "```\n\n";
    }
}

void players(std::string& out, const KindTables& t, bool mixed) {
    const std::vector<Color> colours = result_columns(t.kind);
    auto name = [](Color c) { return std::string(c == Color::white ? "White" : "Black"); };
    out += "## " + md(kind_heading("Players", t.kind, mixed)) + "\n\nResults as won/drawn/lost/unfinished.\n\n" +
        "| Player | Games | As " + name(colours[0]) + " | As " + name(colours[1]) +
        " | Average accuracy |\n|---|--:|--:|--:|--:|\n";
    auto results = [](const int(&r)[4]) {
        return std::to_string(r[0]) + "/" + std::to_string(r[1]) + "/" + std::to_string(r[2]) + "/" + std::to_string(r[3]);
    };
    for (const PlayerStats& p : t.players)
        out += "| " + md(p.name) + " | " + std::to_string(p.games) + " | " + results(p.results[index(colours[0])]) + " | " +
            results(p.results[index(colours[1])]) + " | " +
            (p.average_accuracy ? format_number(*p.average_accuracy, 1) + "%" : std::string("\u2013")) + " |\n";
    out += "\n";
}

void opening_row(std::string& out, const OpeningLine& l, const KindTables& t, bool reply) {
    out +=
        "| " + std::string(reply ? "\u21b3 " : "") + (l.name.empty() ? code(opening_text(l, t.openings)) : md(l.name)) + " | " +
        std::to_string(l.games) + " |";
    for (Color c : result_columns(t.kind)) out += " " + count_share(wins_of(l, c), l.games) + " |";
    out += " " + count_share(l.draws, l.games) + " | " + count_share(l.unfinished, l.games) + " |\n";
}

// The first moves (ply 1), each followed by its top replies (the first two plies, marked \u21b3).
void openings(std::string& out, const KindTables& t, bool mixed, int rows, int replies) {
    out += "## " + md(kind_heading("Openings", t.kind, mixed)) + "\n\n" + md(openings_legend(t.openings, rows, replies)) + "\n\n";
    if (t.openings.groups.empty()) {
        out += "No game is long enough.\n\n";
        return;
    }
    out += "| Moves | Games |";
    for (Color c : result_columns(t.kind)) out += c == Color::white ? " White wins |" : " Black wins |";
    out += " Draws | Unfinished |\n|---|--:|--:|--:|--:|--:|\n";
    for (const OpeningGroup& g : t.openings.groups) {
        opening_row(out, g.first, t, false);
        for (const OpeningLine& r : g.replies) opening_row(out, r, t, true);
        if (const std::string more = more_replies_note(g); !more.empty()) out += "| \u21b3 _" + md(more) + "_ | | | | | |\n";
    }
    out += "\n";
    if (const std::string more = more_openings_note(t.openings); !more.empty()) out += md(more) + "\n\n";
    if (!t.named_openings.empty()) {
        out += "### " + md(named_openings_heading) + "\n\n| Opening | Games |";
        for (Color c : result_columns(t.kind)) out += c == Color::white ? " White wins |" : " Black wins |";
        out += " Draws | Unfinished |\n|---|--:|--:|--:|--:|--:|\n";
        for (const OpeningLine& l : t.named_openings) opening_row(out, l, t, false);
        out += "\n";
    }
}

} // namespace

std::string render_markdown(const ReportModel& model) {
    std::string out = "# " + md(model.title) + "\n\n";
    if (model.games.size() > 1) {
        const std::vector<KindTables> kinds = kind_tables(model.games, model.opening_rows, model.opening_replies);
        for (const KindTables& t : kinds) {
            players(out, t, kinds.size() > 1);
            openings(out, t, kinds.size() > 1, model.opening_rows, model.opening_replies);
            if (const std::string note = left_out_note(t.broken); !note.empty()) out += md(note) + "\n\n";
        }
    }
    for (std::size_t k = 0; k < model.games.size(); ++k) {
        const GameReport& g = model.games[k];
        out += "## Game " + std::to_string(k + 1) + (g.id.empty() ? "" : " (" + md("#" + g.id) + ")") + ": " +
            md(players_text(g)) + ", " + md(result_text(g)) + (g.broken() ? " (" + g.status + ")" : "") + "\n\n";
        if (g.broken()) out += "> **" + md(broken_note(g)) + "**\n\n";
        tags(out, g);
        out += "### Moves\n\n";
        moves(out, g);
        out += "### Evaluation\n\n";
        sparkline(out, g);
        out += "### Summary\n\n";
        summary(out, g);
        flagged(out, g);
    }
    if (model.games.empty()) out += "No games.\n\n";
    out += "---\n\nScores are from the side that moved, in pieces; +#n: a forced win, the winning move n plies ahead. "
           "Marks: ?? blunder, ? mistake, ?! inaccuracy. " +
        md(model.annotator) + "\n";
    return out;
}

} // namespace gounki::report
