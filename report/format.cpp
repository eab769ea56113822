#include "report/format.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "core/game.hpp"

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

std::string engine_line_comment() { return "Engine's best line"; }

std::string move_text(const AnyPosition& before, Move m) { return m ? before.move_text(m) : std::string(); }

std::string move_text(const Ply& p) { return move_text(p.before, p.move); }

std::vector<AnyPosition> line_positions(AnyPosition before, const std::vector<Move>& moves) {
    std::vector<AnyPosition> out;
    for (Move m : moves) {
        if (!before.is_legal(m)) break;
        before.play(m);
        out.push_back(before);
    }
    return out;
}

std::vector<std::string> line_texts(const AnyPosition& before, const std::vector<Move>& moves) {
    const std::vector<AnyPosition> after = line_positions(before, moves);
    std::vector<std::string> out;
    for (std::size_t k = 0; k < after.size(); ++k) out.push_back(move_text(k ? after[k - 1] : before, moves[k]));
    return out;
}

std::string judgement_comment(const Judgement& j, const AnyPosition& before, Move played) {
    if (j.verdict == Verdict::book) return "Book move, not judged.";
    if (!j.scored) {
        static constexpr std::string_view why = " (no evaluation to grade the move with).";
        if (!j.best_move) return "No evaluation to grade the move with.";
        if (j.best_move == played) return "Engine's move" + std::string(why);
        return "Engine prefers " + move_text(before, j.best_move) + std::string(why);
    }
    std::string out = "(";
    out += format_score(j.best);
    out += " -> ";
    out += format_score(j.played);
    out += ")";
    if (j.verdict == Verdict::best) return out;
    out += " ";
    out += verdict_label(j.verdict);
    out += ".";
    if (j.best_move) out += " " + move_text(before, j.best_move) + " was best.";
    return out;
}

std::string judgement_comment(const Ply& p) { return judgement_comment(*p.judgement, p.before, p.move); }

std::string_view verdict_suffix(Verdict v) {
    switch (v) {
    case Verdict::blunder:
    case Verdict::allows_loss: return "??";
    case Verdict::mistake:
    case Verdict::missed_win: return "?";
    case Verdict::inaccuracy: return "?!";
    case Verdict::book:
    case Verdict::best: break;
    }
    return "";
}

int verdict_nag(Verdict v) {
    const std::string_view s = verdict_suffix(v);
    return s == "??" ? 4 : s == "?" ? 2 : s == "?!" ? 6 : 0;
}

std::string_view verdict_badge(Verdict v) {
    return v == Verdict::missed_win ? "missed win" : v == Verdict::allows_loss ? "allows loss" : v == Verdict::book ? "book" : "";
}

std::vector<std::vector<std::string>> summary_rows(const GameReport& game) {
    std::vector<std::vector<std::string>> rows;
    for (Color c : named_order(game)) {
        const SideSummary s = summarize_side(game, c);
        const std::string& name = c == Color::white ? game.white : game.black;
        std::vector<std::string>& row = rows.emplace_back();
        row = {name.empty() ? "?" : name, c == Color::white ? "White" : "Black"};
        for (int v : {s.judged, s.inaccuracies, s.mistakes, s.blunders, s.missed_wins, s.allowed_losses})
            row.push_back(std::to_string(v));
        row.push_back(s.accuracy ? format_number(*s.accuracy, 1) + "%" : std::string("\u2013"));
    }
    return rows;
}

std::string book_note(const GameReport& game) {
    const auto book = std::count_if(game.plies.begin(), game.plies.end(),
                                    [](const Ply& p) { return p.judgement && p.judgement->verdict == Verdict::book; });
    if (book == 0) return {};
    return (book == 1 ? std::string("The first ply is a book move")
                      : "The first " + std::to_string(book) + " plies are book moves") +
        " (played in many games of the database), not judged.";
}

std::string ungraded_note(const GameReport& game) {
    const auto n = std::count_if(game.plies.begin(), game.plies.end(),
                                 [](const Ply& p) { return p.judgement && !p.judgement->scored; });
    if (n == 0) return {};
    return n == 1 ? std::string("1 move not graded: the engine gave no evaluation to grade it with.")
                  : std::to_string(n) + " moves not graded: the engine gave no evaluation to grade them with.";
}

std::vector<double> white_curve(const GameReport& game) {
    std::vector<double> curve;
    double value = 0.5;
    for (std::size_t i = 0; i < game.plies.size(); ++i) {
        const Ply& p = game.plies[i];
        if (p.judgement && p.judgement->scored) {
            const double e = std::clamp(p.judgement->expected_after, 0.0, 1.0);
            value = p.side() == Color::white ? e : 1.0 - e;
        } else if (i + 1 == game.plies.size() && (game.result == "1-0" || game.result == "0-1")) {
            value = game.result == "1-0" ? 1.0 : 0.0;
        }
        curve.push_back(value);
    }
    return curve;
}

bool is_stone_game(const GameReport& game) { return gounki::is_stone_game(game.kind); }

Color first_mover(const GameReport& game) { return gounki::first_mover(game.kind); }

int move_number(const GameReport& game, std::size_t ply) {
    const Color second = ~first_mover(game);
    int number = 1;
    for (std::size_t i = 0; i < ply && i < game.plies.size(); ++i)
        if (game.plies[i].side() == second) ++number;
    return number;
}

std::string move_number_text(const GameReport& game, std::size_t ply) {
    const bool second = ply < game.plies.size() && game.plies[ply].side() != first_mover(game);
    return std::to_string(move_number(game, ply)) + (second ? "..." : ".");
}

bool numbered(const GameReport& game, std::size_t ply) {
    if (ply == 0 || ply >= game.plies.size() || game.plies[ply].side() == first_mover(game)) return true;
    const Ply& before = game.plies[ply - 1];
    return !before.comments.empty() || !before.variations.empty();
}

std::string opening_text(const OpeningLine& line) {
    if (!line.name.empty()) return line.name;
    std::string out;
    for (std::size_t i = 0; i < line.moves.size(); ++i) {
        if (i) out += ' ';
        if (i % 2 == 0) out.append(std::to_string(i / 2 + 1)).append(". ");
        out += line.moves[i];
    }
    return out;
}

std::string opening_text(const OpeningLine& line, const OpeningGroups& table) {
    if (!table.several_variants || line.variant.empty()) return opening_text(line);
    return opening_text(line) + " (" + line.variant + ")";
}

std::string players_line(const GameReport& game) {
    return (game.white.empty() ? "?" : game.white) + " \u2013 " + (game.black.empty() ? "?" : game.black);
}

std::string players_text(const GameReport& game) {
    if (first_mover(game) == Color::white) return players_line(game);
    return (game.black.empty() ? "?" : game.black) + " \u2013 " + (game.white.empty() ? "?" : game.white);
}

std::string result_text(const GameReport& game) {
    if (!is_stone_game(game)) return game.result;
    return game.result == "0-1" ? "B+" : game.result == "1-0" ? "W+" : game.result == "1/2-1/2" ? "Draw" : game.result;
}

std::vector<Color> named_order(const GameReport& game) {
    if (first_mover(game) == Color::black) return {Color::black, Color::white};
    return {Color::white, Color::black};
}

AnyPosition start_position(const GameReport& game) { return game.start ? *game.start : AnyPosition::start(game.kind); }

std::vector<Tag> shown_tags(const GameReport& game) {
    std::vector<Tag> out{{"Event", game.event}, {"Date", game.date}};
    for (Color c : named_order(game)) // Black first in the stone games
        out.push_back(c == Color::white ? Tag{"White", game.white.empty() ? "?" : game.white}
                                        : Tag{"Black", game.black.empty() ? "?" : game.black});
    out.push_back({"Result", result_text(game)});
    out.insert(out.end(), game.other_tags.begin(), game.other_tags.end());
    // A Renju game whose record names no opening: the one its first three stones make.
    const bool named = std::any_of(game.other_tags.begin(), game.other_tags.end(), [](const Tag& t) { return t.name == "Opening"; });
    if (const stones::RenjuOpening* o = renju_opening(game); o && !named) out.push_back({"Opening", o->label()});
    for (Tag& t : stone_rule_tags(game)) out.push_back(std::move(t));
    return out;
}

std::vector<Tag> stone_rule_tags(const GameReport& game) {
    if (!is_stone_game(game)) return {};
    std::vector<Tag> out{{"Game", std::string(game_kind_name(game.kind))}};
    const AnyPosition start = start_position(game);
    if (const stones::StonePosition* pos = start.stones()) {
        out.push_back({"Size", std::to_string(pos->size())});
        const std::string rules = stones::rules_tag_text(pos->rules());
        if (!rules.empty()) out.push_back({"Rules", rules});
    }
    return out;
}

std::string start_position_text(const GameReport& game) { return start_position(game).to_text(); }

bool starts_from_standard_position(const GameReport& game) {
    const AnyPosition pos = start_position(game);
    // A stone game of any size and options (stone_rule_tags shows them): the board is empty and Black moves.
    if (const stones::StonePosition* stone = pos.stones()) return *stone == stones::StonePosition(stone->rules());
    return pos == AnyPosition::start(game.kind);
}

std::vector<Arrow> ply_arrows(const Ply& p) {
    std::vector<Arrow> arrows;
    if (p.before.is_legal(p.move)) arrows.push_back({p.move, ArrowKind::played});
    if (p.judgement && p.judgement->best_move && p.before.is_legal(p.judgement->best_move))
        arrows.push_back({p.judgement->best_move, ArrowKind::best});
    return arrows;
}

namespace {

// The stone of the ply before `ply`, when it still stands in the position before `ply`.
int last_stone(const GameReport& game, std::size_t ply) {
    if (ply == 0 || ply > game.plies.size()) return stones::no_point;
    const Move m = game.plies[ply - 1].move;
    const stones::StonePosition& pos = game.plies[ply].before.as_stones();
    return m.type() == MoveType::placement && pos.on_board(m.point()) && pos.at(m.point()) != stones::Stone::empty
        ? m.point()
        : stones::no_point;
}

} // namespace

std::string ply_diagram_svg(const GameReport& game, std::size_t ply, int cell) {
    const Ply& p = game.plies[ply];
    if (const stones::StonePosition* pos = p.before.stones()) {
        StoneBoardStyle style;
        style.marks = ply_arrows(p);
        style.standalone = false;
        style.last_move = last_stone(game, ply);
        return stone_board_svg(*pos, style);
    }
    BoardStyle style;
    style.standalone = false;
    style.cell = cell;
    style.arrows = ply_arrows(p);
    return board_svg(p.before.as_gounki(), style);
}

std::string ply_diagram_text(const GameReport& game, std::size_t ply) {
    const Ply& p = game.plies[ply];
    if (const stones::StonePosition* pos = p.before.stones()) return stone_board_text(*pos, ply_arrows(p), last_stone(game, ply));
    return board_text(p.before.as_gounki(), ply_arrows(p));
}

std::string broken_note(const GameReport& game) {
    if (!game.broken()) return {};
    std::string out = game.status == "partial" ? "Partial game: the moves stop at an error" : "Invalid game";
    std::string problems;
    for (const std::string& p : game.problems) problems += (problems.empty() ? "" : "; ") + p;
    return out + (problems.empty() ? "" : ": " + problems);
}

std::string left_out_note(const std::vector<GameReport>& games) { return left_out_note(broken_games(games)); }

std::string left_out_note(int n) {
    if (n == 0) return {};
    return std::to_string(n) + (n == 1 ? " broken game (partial or invalid) is" : " broken games (partial or invalid) are") +
        " left out of these tables.";
}

std::string kind_heading(std::string_view what, GameKind kind, bool mixed) {
    if (!mixed) return std::string(what);
    std::string lower(what);
    if (!lower.empty()) lower[0] = char(std::tolower(static_cast<unsigned char>(lower[0])));
    return std::string(game_kind_name(kind)) + ": " + lower;
}

std::string count_share(int count, int total) {
    if (count == 0 || total <= 0) return std::to_string(count);
    const double share = 100.0 * count / total;
    // A share that would round to 0% or 100% without being so says it is near.
    const std::string text = share < 0.5 ? "<1" : share > 99.5 && count < total ? ">99" : format_number(share, 0);
    return std::to_string(count) + " (" + text + "%)";
}

std::string openings_legend(const OpeningGroups& table, int rows, int replies) {
    return "Games grouped by their first move and their first two plies (" + std::to_string(table.games) +
        (table.games == 1 ? " game" : " games") + " of two plies or more from the start position): the " + std::to_string(rows) +
        " most played first moves, each with its " + std::to_string(replies) + " most played replies.";
}

std::string more_openings_note(const OpeningGroups& table) {
    if (table.more_openings == 0) return {};
    return std::to_string(table.more_openings) + (table.more_openings == 1 ? " more opening" : " more openings") +
        " (first moves) in " + std::to_string(table.more_games) + (table.more_games == 1 ? " game." : " games.");
}

std::string more_replies_note(const OpeningGroup& group) {
    if (group.more_replies == 0) return {};
    return std::to_string(group.more_replies) + (group.more_replies == 1 ? " more reply" : " more replies") + " in " +
        std::to_string(group.more_reply_games) + (group.more_reply_games == 1 ? " game" : " games");
}

std::vector<Color> result_columns(GameKind kind) {
    const Color first = gounki::first_mover(kind);
    return {first, ~first};
}

int wins_of(const OpeningLine& line, Color side) { return side == Color::white ? line.white_wins : line.black_wins; }

} // namespace gounki::report
