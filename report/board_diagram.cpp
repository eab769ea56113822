#include "report/board_diagram.hpp"

#include <algorithm>
#include <cmath>

#include "report/format.hpp"
#include "core/gounki/notation.hpp"
#include "core/stones/renju.hpp"

namespace gounki::report {

namespace {

std::string number(double v) { return format_number(v, 1); }

// The height of a diagram whose board (with its labels) ends at `bottom`, with a footer line when
// asked and the caption when there is one.
double svg_height(double bottom, bool footer_line, const std::string& caption) {
    return bottom + (footer_line ? 24 : 0) + (caption.empty() ? 0 : 22);
}

// The start of every diagram: the XML declaration and namespace of a standalone file, the <svg>
// element (`attributes` before its size), its title (`label`: the position's text) and a white
// background.
void begin_svg(std::string& out, bool standalone, const std::string& attributes, double width, double height,
               const std::string& label) {
    const std::string w = number(width), h = number(height);
    if (standalone) out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += "<svg class=\"board\"";
    if (standalone) out += " xmlns=\"http://www.w3.org/2000/svg\"";
    out += attributes + " viewBox=\"0 0 " + w + " " + h + "\" width=\"" + w + "\" height=\"" + h +
        "\" role=\"img\" aria-label=\"" + xml_escape(label) + "\">\n<title>" + xml_escape(label) + "</title>\n";
    out += "<rect class=\"background\" x=\"0\" y=\"0\" width=\"" + w + "\" height=\"" + h + "\" fill=\"#ffffff\"/>\n";
}

// The end of every diagram, from `y` under the board's labels: the footer line (`footer` draws it
// at its baseline) when asked, the caption under it when there is one, and the closing tag.
template <class Footer>
void end_svg(std::string& out, double left, double y, bool footer_line, const std::string& caption, Footer&& footer) {
    if (footer_line) {
        footer(y + 17);
        y += 24;
    }
    if (!caption.empty())
        out += "<text x=\"" + number(left) + "\" y=\"" + number(y + 16) +
            "\" font-family=\"sans-serif\" font-size=\"13\" fill=\"#333\">" + xml_escape(caption) + "</text>\n";
    out += "</svg>\n";
}

struct Point {
    double x = 0, y = 0;
};

// A walk of the stack on `from` as docs/rules.md 1.2-1.3 define it, for drawing: the squares stepped
// on, and whether its last step left the board. A record of the geometry only, not of legality.
struct Walk {
    std::vector<Square> squares;
    int exit_file = -1; // the file of the step that left the board, when it did
};

Walk walk(Square from, int df, int dr, int steps) {
    Walk w;
    int f = file_of(from), r = rank_of(from);
    for (int i = 0; i < steps; ++i) {
        int nf = f + df;
        if (nf < 0 || nf > 7) {
            if (i == 0) return {}; // docs/rules.md 1.2: no bounce at the very first step
            df = -df;
            nf = f + df;
        }
        const int nr = r + dr;
        if (nr < 0 || nr > 7) {
            w.exit_file = nf;
            return w;
        }
        f = nf;
        r = nr;
        w.squares.push_back(make_square(f, r));
    }
    return w;
}

// The shortest walk of the stack on m.from() that ends where the movement or exit `m` ends, with
// every square before the end empty; empty when none is found (then a straight arrow is drawn).
Walk movement_walk(const Position& pos, Move m) {
    const Stack st = pos.at(m.from());
    const int fwd = forward(st.color());
    struct Kind {
        int df, dr, max;
    };
    const Kind kinds[] = {
        {-1, fwd, st.rounds()}, {1, fwd, st.rounds()}, {0, fwd, st.squares()}, {-1, 0, st.squares()}, {1, 0, st.squares()}};
    for (int steps = 1; steps <= 3; ++steps) {
        for (const Kind& k : kinds) {
            if (steps > k.max) continue;
            Walk w = walk(m.from(), k.df, k.dr, steps);
            const bool exits = w.exit_file >= 0;
            if (exits != (m.type() == MoveType::exit)) continue;
            if (!exits && (w.squares.size() != std::size_t(steps) || w.squares.back() != m.to())) continue;
            bool clear = true;
            const std::size_t before_end = exits ? w.squares.size() : w.squares.size() - 1;
            for (std::size_t i = 0; i < before_end; ++i)
                if (w.squares[i] != m.from() && !pos.at(w.squares[i]).is_empty()) clear = false;
            if (clear) return w;
        }
    }
    return {};
}

class Svg {
public:
    Svg(const Position& pos, const BoardStyle& style) : pos_(pos), style_(style), c_(style.cell) { top_ = std::round(c_ * 0.7); }

    std::string render() {
        const double bottom = top_ + 8 * c_ + 22;
        begin_svg(out_, style_.standalone, "", left_ + 8 * c_ + right_, svg_height(bottom, style_.side_to_move, style_.caption),
                  pos_.to_text());
        squares();
        labels();
        for (Square s = 0; s < 64; ++s) stack(s);
        for (const Arrow& a : style_.arrows) arrow(a);
        end_svg(out_, left_, bottom, style_.side_to_move, style_.caption, [this](double y) { footer(y); });
        return std::move(out_);
    }

private:
    static std::string n(double v) { return number(v); }

    // Screen column and row of a board file and rank (which may lie one step off the board).
    double col(int file) const { return style_.flip ? 7 - file : file; }
    double row(int rank) const { return style_.flip ? rank : 7 - rank; }
    Point centre(int file, int rank) const { return {left_ + (col(file) + 0.5) * c_, top_ + (row(rank) + 0.5) * c_}; }
    Point centre(Square s) const { return centre(file_of(s), rank_of(s)); }

    void squares() {
        out_ += "<g class=\"squares\">\n";
        for (int rank = 0; rank < 8; ++rank)
            for (int file = 0; file < 8; ++file) {
                const bool dark = (file + rank) % 2 == 0; // a1 is dark (docs/rules.md 1.1)
                out_ += "<rect x=\"" + n(left_ + col(file) * c_) + "\" y=\"" + n(top_ + row(rank) * c_) + "\" width=\"" + n(c_) +
                    "\" height=\"" + n(c_) + "\" fill=\"" + (dark ? "#b58863" : "#f0d9b5") + "\"/>\n";
            }
        out_ += "<rect x=\"" + n(left_) + "\" y=\"" + n(top_) + "\" width=\"" + n(8 * c_) + "\" height=\"" + n(8 * c_) +
            "\" fill=\"none\" stroke=\"#5a4030\" stroke-width=\"1.5\"/>\n</g>\n";
    }

    void labels() {
        out_ += "<g class=\"labels\" font-family=\"sans-serif\" font-size=\"13\" fill=\"#444\" text-anchor=\"middle\">\n";
        for (int i = 0; i < 8; ++i) {
            const Point f = centre(i, 0);
            out_ += "<text x=\"" + n(f.x) + "\" y=\"" + n(top_ + 8 * c_ + 16) + "\">" + char('a' + i) + "</text>\n";
            const Point r = centre(0, i);
            out_ += "<text x=\"" + n(left_ / 2) + "\" y=\"" + n(r.y + 5) + "\">" + char('1' + i) + "</text>\n";
        }
        out_ += "</g>\n";
    }

    // Rounds as circles above, squares as squares below; smaller pieces in taller stacks so that
    // three still fit in one board square.
    void stack(Square s) {
        const Stack st = pos_.at(s);
        if (st.is_empty()) return;
        const bool white = st.color() == Color::white;
        const int count = st.size();
        const double piece = c_ * (count == 1 ? 0.52 : count == 2 ? 0.37 : 0.265);
        const double gap = c_ * 0.05;
        const Point mid = centre(s);
        double y = mid.y - (count * piece + (count - 1) * gap) / 2;
        const std::string fill = white ? "#fbfaf5" : "#222222";
        const std::string stroke = white ? "#222222" : "#000000";
        out_ += "<g class=\"stack " + std::string(white ? "white" : "black") + "\" data-square=\"" + square_name(s) +
            "\" data-stack=\"" + stack_letters(st) + "\" fill=\"" + fill + "\" stroke=\"" + stroke +
            "\" stroke-width=\"1.6\">\n<title>" + (white ? "White " : "Black ") + stack_letters(st) + " on " + square_name(s) +
            "</title>\n";
        for (int i = 0; i < count; ++i, y += piece + gap) {
            if (i < st.rounds())
                out_ += "<circle class=\"round\" cx=\"" + n(mid.x) + "\" cy=\"" + n(y + piece / 2) + "\" r=\"" + n(piece / 2) +
                    "\"/>\n";
            else
                out_ += "<rect class=\"square\" x=\"" + n(mid.x - piece / 2) + "\" y=\"" + n(y) + "\" width=\"" + n(piece) +
                    "\" height=\"" + n(piece) + "\" rx=\"" + n(piece * 0.08) + "\"/>\n";
        }
        out_ += "</g>\n";
    }

    // The points an arrow goes through, and whether it ends off the board.
    std::vector<Point> arrow_points(Move m) const {
        std::vector<Point> pts{centre(m.from())};
        const int fwd = forward(pos_.at(m.from()).color());
        if (m.type() == MoveType::deployment) {
            for (int i = 0; i < m.placed(); ++i) pts.push_back(centre(m.placed_square(i)));
            if (m.ends_out()) {
                const Square last = m.placed() ? m.placed_square(m.placed() - 1) : m.from();
                pts.push_back(centre(file_of(last), rank_of(last) + fwd));
            }
            // A bounce straight back (`f3*g3,h3,g3+`) would draw over itself: shift the way back
            // sideways so both legs show.
            for (std::size_t i = 2; i < pts.size(); ++i) {
                const double ax = pts[i - 1].x - pts[i - 2].x, ay = pts[i - 1].y - pts[i - 2].y;
                const double bx = pts[i].x - pts[i - 1].x, by = pts[i].y - pts[i - 1].y;
                if (std::abs(ax * by - ay * bx) > 1e-6 || ax * bx + ay * by >= 0) continue;
                const double len = std::hypot(ax, ay), shift = c_ * 0.16;
                for (std::size_t k = i; k < pts.size(); ++k) pts[k] = {pts[k].x - ay / len * shift, pts[k].y + ax / len * shift};
            }
            return pts;
        }
        const Walk w = movement_walk(pos_, m);
        if (w.squares.empty() && w.exit_file < 0) {
            pts.push_back(m.type() == MoveType::exit ? centre(file_of(m.from()), fwd > 0 ? 8 : -1) : centre(m.to()));
            return pts;
        }
        for (Square s : w.squares) pts.push_back(centre(s));
        if (w.exit_file >= 0) pts.push_back(centre(w.exit_file, fwd > 0 ? 8 : -1));
        return pts;
    }

    void arrow(const Arrow& a) {
        if (!a.move || pos_.at(a.move.from()).is_empty()) return;
        const char* colour = a.kind == ArrowKind::best ? "#1e8c3a" : a.kind == ArrowKind::played ? "#c0392b" : "#1f5fbf";
        const char* kind = a.kind == ArrowKind::best ? "best" : a.kind == ArrowKind::played ? "played" : "move";
        std::vector<Point> pts = arrow_points(a.move);
        const double width = c_ * 0.11;
        out_ += std::string("<g class=\"arrow ") + kind + "\" data-move=\"" + xml_escape(move_to_text(pos_, a.move)) +
            "\" fill=\"" + colour + "\" stroke=\"" + colour + "\" opacity=\"0.82\">\n";
        if (pts.size() == 2 && std::abs(pts[0].x - pts[1].x) < 0.1 && std::abs(pts[0].y - pts[1].y) < 0.1) {
            // A pass (`g2-g2`): a ring around the square.
            out_ += "<circle cx=\"" + n(pts[0].x) + "\" cy=\"" + n(pts[0].y) + "\" r=\"" + n(c_ * 0.36) +
                "\" fill=\"none\" stroke-width=\"" + n(width) + "\"/>\n</g>\n";
            return;
        }
        // A dot on each placed square but the one under the arrow's head.
        if (a.move.type() == MoveType::deployment)
            for (int i = 0; i < a.move.placed() - (a.move.ends_out() ? 0 : 1); ++i) {
                const Point p = centre(a.move.placed_square(i));
                out_ += "<circle cx=\"" + n(p.x) + "\" cy=\"" + n(p.y) + "\" r=\"" + n(c_ * 0.12) + "\" stroke=\"none\"/>\n";
            }
        // The shaft stops where the head begins, so the tip stays sharp.
        const double head = c_ * 0.34;
        Point tip = pts.back();
        const Point prev = pts[pts.size() - 2];
        const double dx = tip.x - prev.x, dy = tip.y - prev.y, len = std::hypot(dx, dy);
        const double ux = dx / len, uy = dy / len;
        pts.back() = {tip.x - ux * head * 0.8, tip.y - uy * head * 0.8};
        out_ += "<polyline fill=\"none\" stroke-width=\"" + n(width) +
            "\" stroke-linecap=\"round\" stroke-linejoin=\"round\" points=\"";
        for (std::size_t i = 0; i < pts.size(); ++i)
            out_.append(i ? " " : "").append(n(pts[i].x)).append(",").append(n(pts[i].y));
        out_ += "\"/>\n";
        const Point base{tip.x - ux * head, tip.y - uy * head};
        const double half = head * 0.55;
        out_ += "<polygon stroke=\"none\" points=\"" + n(tip.x) + "," + n(tip.y) + " " + n(base.x - uy * half) + "," +
            n(base.y + ux * half) + " " + n(base.x + uy * half) + "," + n(base.y - ux * half) + "\"/>\n</g>\n";
    }

    void footer(double y) {
        std::string text;
        bool white = pos_.side_to_move() == Color::white;
        if (pos_.outcome() == Outcome::white_wins) text = "White has won", white = true;
        else if (pos_.outcome() == Outcome::black_wins) text = "Black has won", white = false;
        else text = white ? "White to move" : "Black to move";
        out_ += "<g class=\"side-to-move\"><circle cx=\"" + n(left_ + 7) + "\" cy=\"" + n(y - 5) + "\" r=\"7\" fill=\"" +
            (white ? "#fbfaf5" : "#222222") + "\" stroke=\"#222222\" stroke-width=\"1.5\"/><text x=\"" + n(left_ + 20) +
            "\" y=\"" + n(y) + "\" font-family=\"sans-serif\" font-size=\"14\" fill=\"#222\">" + text + "</text></g>\n";
    }

    const Position& pos_;
    const BoardStyle& style_;
    double c_;
    double left_ = 24, right_ = 12, top_ = 40;
    std::string out_;
};

const char* mark_colour(ArrowKind k) { return k == ArrowKind::best ? "#1e8c3a" : k == ArrowKind::played ? "#c0392b" : "#1f5fbf"; }
const char* mark_word(ArrowKind k) { return k == ArrowKind::best ? "best" : k == ArrowKind::played ? "played" : "move"; }

// Who moves, or the result; and for a five that may still be broken, whose it is.
std::string stone_status(const stones::StonePosition& pos) {
    std::string text = outcome_text(pos.outcome(), pos.side_to_move());
    if (const auto five = pos.pending_five())
        text += std::string(*five == Color::white ? ", White's" : ", Black's") + " five may still be broken";
    return text;
}

std::string captured_text(const stones::StonePosition& pos) {
    return "Captured: Black " + std::to_string(pos.captured(Color::black)) + ", White " +
        std::to_string(pos.captured(Color::white));
}

// A mark is drawn only for a point of the board.
bool markable(const stones::StonePosition& pos, const Arrow& a) {
    return a.move && a.move.type() == MoveType::placement && pos.on_board(a.move.point());
}

class StoneSvg {
public:
    StoneSvg(const stones::StonePosition& pos, const StoneBoardStyle& style)
        : pos_(pos), style_(style), n_(pos.size()), c_(style.cell > 0        ? style.cell
                                                           : pos.size() > 15 ? 26
                                                                             : 32) {
        top_ = std::round(c_ * 0.5);
    }

    std::string render() {
        const double bottom = top_ + n_ * c_ + 22;
        const std::string game =
            " data-game=\"" + std::string(game_kind_name(pos_.rules().kind)) + "\" data-size=\"" + std::to_string(n_) + "\"";
        begin_svg(out_, style_.standalone, game, left_ + n_ * c_ + right_,
                  svg_height(bottom, style_.side_to_move, style_.caption), pos_.to_text());
        grid();
        labels();
        for (int p = 0; p < stones::point_count; ++p)
            if (pos_.on_board(p) && pos_.at(p) != stones::Stone::empty) stone(p);
        for (const Arrow& a : style_.marks)
            if (markable(pos_, a)) mark(a);
        if (style_.forbidden)
            for (const auto& [p, why] : stones::forbidden_points(pos_)) forbidden(p, why);
        end_svg(out_, left_, bottom, style_.side_to_move, style_.caption, [this](double y) { footer(y); });
        return std::move(out_);
    }

private:
    static std::string n(double v) { return number(v); }
    Point centre(int p) const {
        return {left_ + (stones::point_file(p) + 0.5) * c_, top_ + (n_ - 1 - stones::point_rank(p) + 0.5) * c_};
    }

    // A wooden board one cell wider than the grid, the lines through the points' centres.
    void grid() {
        const double first = 0.5 * c_, last = (n_ - 0.5) * c_;
        out_ += "<g class=\"grid\">\n<rect x=\"" + n(left_) + "\" y=\"" + n(top_) + "\" width=\"" + n(n_ * c_) + "\" height=\"" +
            n(n_ * c_) + "\" fill=\"#e4b96e\" stroke=\"#5a4030\" stroke-width=\"1.5\"/>\n";
        out_ += "<path stroke=\"#3b2a1a\" stroke-width=\"1\" d=\"";
        for (int i = 0; i < n_; ++i) {
            const double at = (i + 0.5) * c_;
            // Appended piece by piece: `"M" + std::string` chains make GCC 12 warn falsely (-Wrestrict).
            for (const std::string& part :
                 {std::string("M"), n(left_ + first), std::string(" "), n(top_ + at), std::string("H"), n(left_ + last),
                  std::string("M"), n(left_ + at), std::string(" "), n(top_ + first), std::string("V"), n(top_ + last)})
                out_ += part;
        }
        out_ += "\"/>\n";
        if (style_.star_points)
            for (int p : star_points(n_)) {
                const Point c = centre(p);
                out_ += "<circle class=\"star\" cx=\"" + n(c.x) + "\" cy=\"" + n(c.y) + "\" r=\"" + n(c_ * 0.1) +
                    "\" fill=\"#3b2a1a\"/>\n";
            }
        out_ += "</g>\n";
    }

    void labels() {
        out_ += "<g class=\"labels\" font-family=\"sans-serif\" font-size=\"" + n(std::min(13.0, c_ * 0.45)) +
            "\" fill=\"#444\" text-anchor=\"middle\">\n";
        for (int i = 0; i < n_; ++i) {
            const Point f = centre(stones::make_point(i, 0));
            out_ += "<text x=\"" + n(f.x) + "\" y=\"" + n(top_ + n_ * c_ + 16) + "\">" + char('a' + i) + "</text>\n";
            const Point r = centre(stones::make_point(0, i));
            out_ += "<text x=\"" + n(left_ / 2) + "\" y=\"" + n(r.y + 4) + "\">" + std::to_string(i + 1) + "</text>\n";
        }
        out_ += "</g>\n";
    }

    void stone(int p) {
        const bool white = pos_.at(p) == stones::Stone::white;
        const Point c = centre(p);
        const std::string name = stones::point_name(p);
        out_ += std::string("<circle class=\"stone ") + (white ? "white" : "black") + "\" data-point=\"" + name + "\" cx=\"" +
            n(c.x) + "\" cy=\"" + n(c.y) + "\" r=\"" + n(c_ * 0.46) + "\" fill=\"" + (white ? "#fbfaf5" : "#1a1a1a") +
            "\" stroke=\"" + (white ? "#222222" : "#000000") + "\" stroke-width=\"1.2\"><title>" + (white ? "White" : "Black") +
            " on " + name + "</title></circle>\n";
        if (p == style_.last_move)
            out_ += "<circle class=\"last\" data-point=\"" + name + "\" cx=\"" + n(c.x) + "\" cy=\"" + n(c.y) + "\" r=\"" +
                n(c_ * 0.14) + "\" fill=\"#d62728\"/>\n";
    }

    // A ring round the point, and a dot in it when it is empty: the target of the move.
    void mark(const Arrow& a) {
        const int p = a.move.point();
        const Point c = centre(p);
        const char* colour = mark_colour(a.kind);
        out_ += std::string("<g class=\"mark ") + mark_word(a.kind) + "\" data-point=\"" + stones::point_name(p) +
            "\" stroke=\"" + colour + "\" fill=\"" + colour + "\" opacity=\"0.85\">\n<circle cx=\"" + n(c.x) + "\" cy=\"" +
            n(c.y) + "\" r=\"" + n(c_ * 0.44) + "\" fill=\"none\" stroke-width=\"" + n(c_ * 0.1) + "\"/>\n";
        if (pos_.at(p) == stones::Stone::empty)
            out_ += "<circle cx=\"" + n(c.x) + "\" cy=\"" + n(c.y) + "\" r=\"" + n(c_ * 0.13) + "\" stroke=\"none\"/>\n";
        out_ += "</g>\n";
    }

    // A red cross on a point Black may not play (Renju), its reason in the title.
    void forbidden(int p, stones::Forbidden why) {
        const Point c = centre(p);
        const double h = c_ * 0.22;
        const std::string name = stones::point_name(p);
        out_ += "<path class=\"forbidden\" data-point=\"" + name + "\" d=\"M" + n(c.x - h) + " " + n(c.y - h) + "L" + n(c.x + h) +
            " " + n(c.y + h) + "M" + n(c.x - h) + " " + n(c.y + h) + "L" + n(c.x + h) + " " + n(c.y - h) +
            "\" stroke=\"#d62728\" stroke-width=\"" + n(c_ * 0.09) + "\"><title>" + name + ": " +
            std::string(stones::forbidden_name(why)) + ", forbidden to Black</title></path>\n";
    }

    void footer(double y) {
        const Outcome o = pos_.outcome();
        const bool white = o == Outcome::white_wins || (o == Outcome::none && pos_.side_to_move() == Color::white);
        std::string text = stone_status(pos_);
        if (pos_.rules().captures()) text += " \u00b7 " + captured_text(pos_);
        out_ += "<g class=\"side-to-move\">";
        if (o != Outcome::draw)
            out_ += "<circle cx=\"" + n(left_ + 7) + "\" cy=\"" + n(y - 5) + "\" r=\"7\" fill=\"" +
                (white ? "#fbfaf5" : "#1a1a1a") + "\" stroke=\"#222222\" stroke-width=\"1.5\"/>";
        out_ += "<text x=\"" + n(left_ + 20) + "\" y=\"" + n(y) +
            "\" font-family=\"sans-serif\" font-size=\"14\" fill=\"#222\">" + xml_escape(text) + "</text></g>\n";
    }

    const stones::StonePosition& pos_;
    const StoneBoardStyle& style_;
    int n_;
    double c_;
    double left_ = 28, right_ = 12, top_ = 16;
    std::string out_;
};

} // namespace

std::string outcome_text(Outcome outcome, Color to_move) {
    switch (outcome) {
    case Outcome::white_wins: return "White has won";
    case Outcome::black_wins: return "Black has won";
    case Outcome::draw: return "Draw";
    case Outcome::none: break;
    }
    return to_move == Color::white ? "White to move" : "Black to move";
}

std::string stack_letters(Stack st) {
    if (st.is_empty()) return "";
    const bool white = st.color() == Color::white;
    return std::string(std::size_t(st.rounds()), white ? 'R' : 'r') + std::string(std::size_t(st.squares()), white ? 'S' : 's');
}

std::string board_svg(const Position& pos, const BoardStyle& style) { return Svg(pos, style).render(); }

std::vector<int> star_points(int size) {
    std::vector<int> out;
    if (size % 2 == 0) { // no centre: the four points on the fourth lines (20x20)
        for (int r : {3, size - 4})
            for (int f : {3, size - 4}) out.push_back(stones::make_point(f, r));
        return out;
    }
    const std::vector<int> lines = size >= 19 ? std::vector<int>{3, 9, 15} : std::vector<int>{3, size / 2, size - 4};
    for (int r : lines)
        for (int f : lines)
            // 15x15 has the centre and the four corner points only.
            if (size >= 19 || (f == size / 2) == (r == size / 2)) out.push_back(stones::make_point(f, r));
    return out;
}

std::string stone_board_svg(const stones::StonePosition& pos, const StoneBoardStyle& style) {
    return StoneSvg(pos, style).render();
}

std::string stone_board_text(const stones::StonePosition& pos, const std::vector<Arrow>& marks, int last_move) {
    const int size = pos.size();
    std::string out;
    for (int rank = size - 1; rank >= 0; --rank) {
        const std::string number = std::to_string(rank + 1);
        out += std::string(2 - number.size(), ' ') + number;
        for (int file = 0; file < size; ++file) {
            const int p = stones::make_point(file, rank);
            const stones::Stone s = pos.at(p);
            char c = s == stones::Stone::black ? 'x' : s == stones::Stone::white ? 'o' : '.';
            if (p == last_move && s != stones::Stone::empty) c = char(c - 'a' + 'A');
            out += ' ';
            out += c;
        }
        out += '\n';
    }
    out += "  ";
    for (int file = 0; file < size; ++file) {
        out += ' ';
        out += char('a' + file);
    }
    out += '\n' + stone_status(pos) + "\n";
    if (pos.rules().captures()) out += captured_text(pos) + "\n";
    if (const auto points = stones::forbidden_points(pos); !points.empty()) {
        out += "Forbidden to Black:";
        for (std::size_t i = 0; i < points.size(); ++i)
            out += (i ? ", " : " ") + stones::point_name(points[i].first) + " (" + std::string(stones::forbidden_name(points[i].second)) + ")";
        out += "\n";
    }
    if (pos.on_board(last_move) && pos.at(last_move) != stones::Stone::empty)
        out += "Last: " + stones::point_name(last_move) + "\n";
    for (const Arrow& a : marks) {
        if (!markable(pos, a)) continue;
        out += a.kind == ArrowKind::best ? "Best: " : a.kind == ArrowKind::played ? "Played: " : "Move: ";
        out += stones::point_name(a.move.point()) + "\n";
    }
    return out;
}

std::string board_text(const Position& pos, const std::vector<Arrow>& arrows, bool flip) {
    std::string out;
    for (int row = 0; row < 8; ++row) {
        const int rank = flip ? row : 7 - row;
        out += char('1' + rank);
        out += ' ';
        for (int col = 0; col < 8; ++col) {
            const int file = flip ? 7 - col : col;
            std::string cell = stack_letters(pos.at(make_square(file, rank)));
            if (cell.empty()) cell.push_back('.');
            if (col < 7) cell.resize(4, ' ');
            out += cell;
        }
        while (out.back() == ' ') out.pop_back();
        out += '\n';
    }
    out += "  ";
    for (int col = 0; col < 8; ++col) {
        out += char('a' + (flip ? 7 - col : col));
        if (col < 7) out += "   ";
    }
    out += '\n';
    if (pos.outcome() == Outcome::white_wins) out += "White has won\n";
    else if (pos.outcome() == Outcome::black_wins) out += "Black has won\n";
    else out += pos.side_to_move() == Color::white ? "White to move\n" : "Black to move\n";
    for (const Arrow& a : arrows) {
        if (!a.move || pos.at(a.move.from()).is_empty()) continue;
        out += a.kind == ArrowKind::best ? "Best: " : a.kind == ArrowKind::played ? "Played: " : "Move: ";
        out += move_to_text(pos, a.move) + "\n";
    }
    return out;
}

} // namespace gounki::report
