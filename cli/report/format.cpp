#include "cli/report/format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/notation.hpp"

namespace gounki::report {

std::string xml_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default:
            // Control characters other than tab and newline are not allowed in XML 1.0 at all.
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') out += ' ';
            else out += c;
        }
    }
    return out;
}

std::string format_number(double value, int decimals) {
    if (!std::isfinite(value)) return "0";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    std::string s = buf;
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0') s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    if (s == "-0") s = "0";
    return s;
}

std::string format_score(const ScoreView& score) {
    if (score.win_in > 0) return "+#" + std::to_string(score.win_in);
    if (score.win_in < 0) return "-#" + std::to_string(-score.win_in);
    char buf[64];
    const double v = std::isfinite(score.pieces) ? score.pieces : 0.0;
    std::snprintf(buf, sizeof buf, "%+.1f", v);
    std::string s = buf;
    if (s == "-0.0" || s == "+0.0") s = "0.0";
    return s;
}

std::string judgement_comment(const Judgement& j) {
    std::string out = "(";
    out += format_score(j.best);
    out += " -> ";
    out += format_score(j.played);
    out += ")";
    if (j.verdict == Verdict::none) return out;
    out += " ";
    out += verdict_label(j.verdict);
    out += ".";
    if (!j.best_move.empty()) out += " " + j.best_move + " was best.";
    return out;
}

std::string_view verdict_suffix(Verdict v) {
    switch (v) {
    case Verdict::blunder:
    case Verdict::allows_loss: return "??";
    case Verdict::mistake:
    case Verdict::missed_win: return "?";
    case Verdict::inaccuracy: return "?!";
    case Verdict::none: break;
    }
    return "";
}

int verdict_nag(Verdict v) {
    const std::string_view s = verdict_suffix(v);
    return s == "??" ? 4 : s == "?" ? 2 : s == "?!" ? 6 : 0;
}

std::string_view verdict_badge(Verdict v) {
    return v == Verdict::missed_win ? "missed win" : v == Verdict::allows_loss ? "allows loss" : "";
}

std::vector<double> white_curve(const GameReport& game) {
    std::vector<double> curve;
    double value = 0.5;
    for (std::size_t i = 0; i < game.plies.size(); ++i) {
        const Ply& p = game.plies[i];
        if (p.judgement) {
            const double e = std::clamp(p.judgement->expected_after, 0.0, 1.0);
            value = p.side == Color::white ? e : 1.0 - e;
        } else if (i + 1 == game.plies.size() && (game.result == "1-0" || game.result == "0-1")) {
            value = game.result == "1-0" ? 1.0 : 0.0;
        }
        curve.push_back(value);
    }
    return curve;
}

int move_number(const GameReport& game, std::size_t ply) {
    int number = 1;
    for (std::size_t i = 0; i < ply && i < game.plies.size(); ++i)
        if (game.plies[i].side == Color::black) ++number;
    return number;
}

std::string move_number_text(const GameReport& game, std::size_t ply) {
    const bool black = ply < game.plies.size() && game.plies[ply].side == Color::black;
    return std::to_string(move_number(game, ply)) + (black ? "..." : ".");
}

std::string opening_text(const OpeningLine& line) {
    std::string out;
    for (std::size_t i = 0; i < line.moves.size(); ++i) {
        if (i) out += ' ';
        if (i % 2 == 0) out.append(std::to_string(i / 2 + 1)).append(". ");
        out += line.moves[i];
    }
    return out;
}

std::string players_line(const GameReport& game) {
    return (game.white.empty() ? "?" : game.white) + " \u2013 " + (game.black.empty() ? "?" : game.black);
}

std::string start_position_text(const GameReport& game) {
    if (game.start_position.empty()) return Position::start().to_text();
    auto parsed = Position::from_text(game.start_position);
    if (auto* pos = std::get_if<Position>(&parsed)) return pos->to_text();
    return game.start_position;
}

bool starts_from_standard_position(const GameReport& game) {
    return start_position_text(game) == Position::start().to_text();
}

bool diagram_of(const Ply& p, Position& pos, std::vector<Arrow>& arrows) {
    arrows.clear();
    auto parsed = Position::from_text(p.position_before);
    if (!std::holds_alternative<Position>(parsed)) return false;
    pos = std::get<Position>(parsed);
    const Resolution played = resolve_move_text(pos, p.move);
    if (played.move) arrows.push_back({played.move, ArrowKind::played});
    if (p.judgement && !p.judgement->best_move.empty()) {
        const Resolution best = resolve_move_text(pos, p.judgement->best_move);
        if (best.move) arrows.push_back({best.move, ArrowKind::best});
    }
    return true;
}

} // namespace gounki::report
