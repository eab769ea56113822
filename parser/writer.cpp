#include "parser/writer.hpp"

#include <ostream>

#include "core/gounki/notation.hpp"

namespace gounki::parser {

namespace {

constexpr std::size_t line_width = 79;

// Joins tokens with single spaces and wraps lines; no space after `(` or before `)`.
class Movetext {
public:
    explicit Movetext(std::string& out) : out_(out), line_start_(out.size()) {}

    void token(std::string_view t) {
        const bool glue = !first_ && (last_open_ || t == ")");
        if (!first_ && !glue) {
            if (out_.size() - line_start_ + 1 + t.size() > line_width) newline();
            else out_ += ' ';
        } else if (last_open_ && open_at_ > line_start_ && out_[open_at_ - 1] == ' ' &&
                   out_.size() - line_start_ + t.size() > line_width) {
            // What follows a `(` stays with it: the line breaks before the `(` instead.
            out_[open_at_ - 1] = '\n';
            line_start_ = open_at_;
        }
        if (t == "(") open_at_ = out_.size();
        out_ += t;
        first_ = false;
        last_open_ = t == "(";
        const std::size_t nl = t.rfind('\n');
        if (nl != std::string_view::npos) line_start_ = out_.size() - (t.size() - nl - 1);
    }
    // After a `;` comment nothing else may stand on the line.
    void newline() {
        out_ += '\n';
        line_start_ = out_.size();
        first_ = true;
    }

private:
    std::string& out_;
    std::size_t line_start_;
    bool first_ = true;
    bool last_open_ = false;
    std::size_t open_at_ = 0; // where the last `(` stands
};

constexpr const char* suffix_text[7] = {"", "!", "?", "!!", "??", "!?", "?!"};

void write_comment(Movetext& mt, const std::string& text) {
    if (text.find('}') == std::string::npos) {
        // A line that starts with '[' reads as a new game's tag pair, even inside a comment (so that
        // an unclosed comment cannot swallow the games after it): such a line joins the one before.
        std::string body;
        body.reserve(text.size());
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (text[i] == '\n' || text[i] == '\r') {
                std::size_t j = i + 1;
                while (j < text.size() && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r' || text[j] == '\n')) ++j;
                if (j < text.size() && text[j] == '[') {
                    body += ' ';
                    i = j - 1;
                    continue;
                }
            }
            body += text[i];
        }
        body.insert(body.begin(), '{');
        body += '}';
        mt.token(body);
        return;
    }
    // A brace comment cannot hold `}` and a `;` comment ends at the line end: one `;` comment per
    // line (an SGF comment may hold both).
    std::size_t start = 0;
    for (;;) {
        const std::size_t end = text.find_first_of("\r\n", start);
        std::string line(1, ';');
        line.append(text, start, end == std::string::npos ? std::string::npos : end - start);
        mt.token(line);
        mt.newline();
        if (end == std::string::npos) break;
        start = end + (text.compare(end, 2, "\r\n") == 0 ? 2 : 1);
    }
}

// How the writer replays a line: Gounki positions, or stone games' (where the game's first mover
// plays first: Black in Gomoku and Ninuki, White in Pente).
struct GounkiReplay {
    using Pos = Position;
    using Undo = UndoRecord;
    static Color pair_first(const Pos&) { return Color::white; }
    static std::string text(const Pos& pos, Move m, Notation n, StonePoints) { return move_to_text(pos, m, n); }
    static void play(Pos& pos, Move m, Undo& u) { pos.do_move(m, u); }
};
struct StoneReplay {
    using Pos = stones::StonePosition;
    using Undo = stones::StoneUndo;
    static Color pair_first(const Pos& pos) { return first_mover(pos.rules().kind); }
    static std::string text(const Pos& pos, Move m, Notation, StonePoints points) {
        if (points == StonePoints::go && pos.size() == 19) { // A-H, then J-T: no I
            const int f = stones::point_file(m.point());
            return char('A' + f + (f >= 8 ? 1 : 0)) + std::to_string(stones::point_rank(m.point()) + 1);
        }
        return stones::point_name(m.point());
    }
    static void play(Pos& pos, Move m, Undo& u) { pos.play(m, u); }
};

template <typename Replay>
void write_plies(Movetext& mt, const Line& line, typename Replay::Pos pos, int ply, bool black_first, int first_number,
                 Notation notation, StonePoints points = StonePoints::gounki) {
    bool number = true; // the second player's next move needs its number
    for (const std::string& c : line.comments) write_comment(mt, c);
    typename Replay::Undo undo;
    for (const Ply& p : line.plies) {
        const int move_number = first_number + (ply + (black_first ? 1 : 0)) / 2;
        const bool white = pos.side_to_move() == Replay::pair_first(pos);
        // The number and its move are one token, so that a line never ends with a bare number.
        std::string text;
        if (white || number) text = std::to_string(move_number) + (white ? ". " : "... ");
        number = false;
        text += Replay::text(pos, p.move, notation, points);
        std::size_t first_nag = 0;
        if (!p.nags.empty() && p.nags[0] >= 1 && p.nags[0] <= 6) {
            text += suffix_text[p.nags[0]];
            first_nag = 1;
        }
        mt.token(text);
        for (std::size_t i = first_nag; i < p.nags.size(); ++i) mt.token(std::string(1, '$').append(std::to_string(p.nags[i])));
        for (const std::string& c : p.comments) {
            write_comment(mt, c);
            number = true;
        }
        for (const Line& v : p.variations) {
            if (v.plies.empty()) continue; // nothing to be an alternative with (the reader drops these)
            mt.token("(");
            write_plies<Replay>(mt, v, pos, ply, black_first, first_number, notation, points);
            mt.token(")");
            number = true;
        }
        if (pos.game_over()) break; // never written by the reader; a record built by hand may hold it
        Replay::play(pos, p.move, undo);
        ++ply;
    }
}

std::string escape(const std::string& v) {
    std::string out;
    for (char c : v) {
        if (c == '"' || c == '\\') out += '\\';
        out += (c == '\n' || c == '\r') ? ' ' : c;
    }
    return out;
}

} // namespace

std::string write_line(const Line& line, const Position& pos, Notation notation) {
    std::string out;
    Movetext mt(out);
    write_plies<GounkiReplay>(mt, line, pos, 0, pos.side_to_move() == Color::black, 1, notation);
    return out;
}

namespace {

// Whether a line (and its variations, when `deep`) holds a point past column H.
bool past_h(const Line& line, bool deep) {
    for (const Ply& p : line.plies) {
        if (stones::point_file(p.move.point()) >= 8) return true;
        if (deep)
            for (const Line& v : p.variations)
                if (past_h(v, true)) return true;
    }
    return false;
}

// Go-style points read back as written when the main line has one past column H (the reader then
// reads the game in Go style) or no point is past H (where both styles name the same points);
// otherwise (only a variation goes past H) the game keeps gounki's points.
StonePoints readable_points(const GameRecord& game, StonePoints points) {
    if (points != StonePoints::go || !game.is_stone_game() || game.start.as_stones().size() != 19) return StonePoints::gounki;
    return past_h(game.main, false) || !past_h(game.main, true) ? StonePoints::go : StonePoints::gounki;
}

} // namespace

std::string write_record(const GameRecord& game, Notation notation, StonePoints points) {
    points = readable_points(game, points);
    std::string out;
    auto tag = [&](std::string_view name, const std::string& value) {
        out += '[';
        out += name;
        out += " \"";
        out += escape(value);
        out += "\"]\n";
    };
    tag("Game", std::string(game_kind_name(game.kind)));
    static constexpr std::string_view roster[] = {"Event", "Site", "Date", "Round", "White", "Black"};
    for (std::string_view name : roster)
        if (const std::string* v = game.tag(name)) tag(name, *v);
    tag("Result", game.result);
    const bool stone = game.is_stone_game();
    if (stone) { // the rules as tags, unless the record has its own (kept below, as written)
        const stones::Rules& rules = game.start.as_stones().rules();
        if (!game.tag("Size") && rules.size != stones::Rules::defaults(game.kind).size) tag("Size", std::to_string(rules.size));
        if (const std::string r = stones::rules_tag_text(rules); !game.tag("Rules") && !r.empty()) tag("Rules", r);
    }
    const bool set_up =
        stone ? !(game.start.as_stones() == stones::StonePosition(game.start.as_stones().rules())) : !(game.start == AnyPosition::start(game.kind));
    if (set_up) {
        tag("SetUp", "1");
        tag("Position", game.start.to_text());
    }
    static constexpr std::string_view fixed[] = {"Game",  "Event", "Site",   "Date",  "Round",
                                                 "White", "Black", "Result", "SetUp", "Position"};
    for (std::size_t i = 0; i < game.tags.size(); ++i) {
        const auto& [name, value] = game.tags[i];
        bool skip = false;
        for (std::string_view f : fixed) skip |= name == f;
        for (std::size_t j = 0; j < i && !skip; ++j) skip = game.tags[j].first == name; // duplicates
        if (!skip) tag(name, value);
    }
    out += '\n';
    Movetext mt(out);
    if (stone)
        write_plies<StoneReplay>(mt, game.main, game.start.as_stones(), 0, game.start.as_stones().side_to_move() != first_mover(game.kind),
                                 game.first_number, notation, points);
    else
        write_plies<GounkiReplay>(mt, game.main, game.start.as_gounki(), 0, game.start.side_to_move() == Color::black, game.first_number,
                                  notation);
    mt.token(game.result);
    out += "\n\n";
    return out;
}

void write_record(std::ostream& out, const GameRecord& game, Notation notation, StonePoints points) {
    out << write_record(game, notation, points);
}

} // namespace gounki::parser
