#include "parser/resolve.hpp"

#include <algorithm>
#include <climits>
#include <cstring>

#include "core/gounki/notation.hpp"
#include "parser/encoding.hpp"
#include "parser/web_text.hpp"

namespace gounki::parser {

SourceMap::Place SourceMap::locate(std::uint32_t offset) const {
    // Lines and columns are those of the text as written.
    if (offset > places_.size()) offset = std::uint32_t(places_.size());
    std::uint32_t from = 0;
    Place p{line0_, column0_};
    if (cached_ && cache_offset_ <= offset) {
        from = cache_offset_;
        p = cache_;
    }
    // Line ends by memchr; columns only on the last line (UTF-8 characters, CR not counted).
    const char* s = places_.data() + from;
    const char* const e = places_.data() + offset;
    for (const char* q = s; q != e;) {
        const void* nl = std::memchr(q, '\n', std::size_t(e - q));
        if (!nl) break;
        q = static_cast<const char*>(nl) + 1;
        ++p.line;
        p.column = 1;
        s = q;
    }
    for (; s != e; ++s) {
        const auto c = static_cast<unsigned char>(*s);
        p.column += (c & 0xC0) != 0x80 && c != '\r';
    }
    cached_ = true;
    cache_offset_ = offset;
    cache_ = p;
    return p;
}

namespace {

std::string_view marker_code(MarkerWarning w) {
    switch (w) {
    case MarkerWarning::plus_without_join: return "plus-without-join";
    case MarkerWarning::join_without_plus: return "join-without-plus";
    case MarkerWarning::dash_on_capture: return "dash-on-capture";
    case MarkerWarning::x_without_capture: return "x-without-capture";
    case MarkerWarning::deploy_exit_as_deploy: return "deploy-exit-as-deploy";
    case MarkerWarning::wrong_deploy_order: return "wrong-deploy-order";
    }
    return "marker";
}

std::string_view result_text(ast::Result r) {
    switch (r) {
    case ast::Result::white_wins: return "1-0";
    case ast::Result::black_wins: return "0-1";
    case ast::Result::draw: return "1/2-1/2";
    case ast::Result::unfinished: return "*";
    case ast::Result::none: break;
    }
    return "";
}

bool is_result_text(std::string_view s) { return s == "1-0" || s == "0-1" || s == "1/2-1/2" || s == "*"; }

// A Result tag's value as a result: trimmed, and `1 - 0` (the official site's records space it) read
// as `1-0`.
std::string result_tag_value(std::string_view v) {
    std::string out;
    for (char c : v)
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n') out += c;
    return out;
}

std::string trim(std::string_view s);

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = char(c | 0x20);
    return out;
}

// A comment's text: trimmed, with Windows line ends read as '\n'.
std::string comment_text(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i)
        if (!(s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n')) out += s[i];
    return trim(out);
}

std::string trim(std::string_view s) {
    std::size_t b = 0, e = s.size();
    while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r' || s[b] == '\n')) ++b;
    while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r' || s[e - 1] == '\n')) --e;
    return std::string(s.substr(b, e - b));
}

// The comparable core of a move's text: lower case, no blanks, no `+`, `x` read as `-`.
std::string normalize_move(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '+') continue;
        if (c >= 'A' && c <= 'Z') c = char(c | 0x20);
        if (c == 'x') c = '-';
        out += c;
    }
    return out;
}

// Edit distance with adjacent transpositions (optimal string alignment), capped texts only.
int edit_distance(std::string_view a, std::string_view b) {
    if (a.size() > 40 || b.size() > 40) return INT_MAX;
    int d[41][41];
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = int(i);
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = int(j);
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const int cost = a[i - 1] != b[j - 1];
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

// The legal move the writer obviously meant: the only candidate one edit away from what was written,
// or the only deployment placing on the same squares in another order. Empty when in doubt.
std::string nearest_move(const Position& pos, std::string_view written, const MoveList& candidates) {
    const std::string w = normalize_move(written);
    std::string best;
    int best_d = INT_MAX, ties = 0;
    for (Move m : candidates) {
        const std::string text = move_to_text(pos, m);
        const int d = edit_distance(w, normalize_move(text));
        if (d < best_d) {
            best_d = d;
            best = text;
            ties = 1;
        } else if (d == best_d) {
            ++ties;
        }
    }
    if (best_d <= 1 && ties == 1) return best;
    // Same squares, another order: compare the sorted target lists.
    const std::size_t star = w.find('*');
    if (star == std::string::npos) return {};
    auto squares_of = [](std::string_view t) {
        std::vector<std::string> parts;
        std::size_t i = t.find('*') + 1;
        while (i < t.size()) {
            std::size_t j = t.find(',', i);
            if (j == std::string_view::npos) j = t.size();
            parts.emplace_back(t.substr(i, j - i));
            i = j + 1;
        }
        std::sort(parts.begin(), parts.end());
        return parts;
    };
    const auto ws = squares_of(w);
    std::string found;
    int matches = 0;
    for (Move m : candidates) {
        if (m.type() != MoveType::deployment) continue;
        const std::string text = move_to_text(pos, m);
        const std::string n = normalize_move(text);
        if (n.substr(0, n.find('*')) == w.substr(0, star) && squares_of(n) == ws) {
            found = text;
            ++matches;
        }
    }
    return matches == 1 ? found : std::string();
}

std::string join_moves(const std::vector<std::string>& moves) {
    std::string out;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (i) out += i + 1 == moves.size() ? " or " : ", ";
        out += moves[i];
    }
    return out;
}

const Position& initial_position() {
    static const Position p = Position::start();
    return p;
}

std::string color_name(Color c) { return c == Color::white ? "White" : "Black"; }

// Do the written capture and join markers say what `m` does in `pos`?
bool markers_canonical(const Position& pos, const MoveSpec& spec, Move m) {
    switch (m.type()) {
    case MoveType::exit: return spec.separator == MoveSeparator::dash;
    case MoveType::movement: {
        const Stack there = pos.at(m.to());
        const bool capture = !there.is_empty() && there.color() != pos.side_to_move();
        const bool joins = !capture && m.to() != m.from() && !there.is_empty();
        if (spec.optional_markers) // only a marker written and wrong is a finding
            return (spec.separator != MoveSeparator::capture || capture) && (!spec.targets[0].joins || joins);
        return (spec.separator == MoveSeparator::capture) == capture && spec.targets[0].joins == joins;
    }
    case MoveType::deployment:
        for (int i = 0; i < m.placed(); ++i) {
            const Square s = m.placed_square(i);
            bool joins = s != m.from() && !pos.at(s).is_empty();
            for (int j = 0; j < i; ++j) joins |= m.placed_square(j) == s;
            if (spec.targets[i].joins ? !joins : joins && !spec.optional_markers) return false;
        }
        return spec.order == DeployOrder::unwritten || spec.order == deploy_order_of(pos, m);
    case MoveType::placement: // not a Gounki move
        break;
    }
    return false;
}

// The common case without core's resolve_move, which builds strings and a fresh move list on every
// call: the written squares are checked against the stack's walks (movement_targets,
// find_deployment) and the markers here, with the same meaning as core's notation.cpp. Anything
// else (no such move, a marker that disagrees, no stack of the side to move, the game over)
// returns none and goes to resolve_move, the authority, which says what is wrong. The random
// round-trip test runs both on every move.
Move quick_resolve(const Position& pos, const MoveSpec& spec) {
    if (pos.game_over() || !is_square(spec.from)) return Move::none();
    const Stack st = pos.at(spec.from);
    if (st.is_empty() || st.color() != pos.side_to_move()) return Move::none();
    if (spec.separator != MoveSeparator::deploy) { // a movement or an exit: no need to build every move
        Move m = Move::none();
        if (spec.out) {
            if (movement_targets(pos, spec.from).exits) m = Move::exit(spec.from);
        } else if (spec.target_count == 1 && movement_reaches(pos, spec.from, spec.targets[0].square)) {
            m = Move::movement(spec.from, spec.targets[0].square);
        }
        return m && markers_canonical(pos, spec, m) ? m : Move::none();
    }
    if (spec.target_count == 0) { // `*out`: the exit
        const Move m = spec.out && movement_targets(pos, spec.from).exits ? Move::exit(spec.from) : Move::none();
        return m && markers_canonical(pos, spec, m) ? m : Move::none();
    }
    Square squares[3];
    if (spec.target_count > 3) return Move::none();
    for (int i = 0; i < spec.target_count; ++i) squares[i] = spec.targets[i].square;
    const Move m = find_deployment(pos, spec.from, squares, spec.target_count, spec.out);
    return m && markers_canonical(pos, spec, m) ? m : Move::none();
}

// The position of a line being replayed: a Gounki position or a stone game's.
struct Undo {
    UndoRecord gounki;
    stones::StoneUndo stone;
};

struct GameState {
    Position g = initial_position();
    stones::StonePosition s;
    bool stone = false;

    Color side_to_move() const { return stone ? s.side_to_move() : g.side_to_move(); }
    Outcome outcome() const { return stone ? s.outcome() : g.outcome(); }
    bool game_over() const { return outcome() != Outcome::none; }
    void do_move(Move m, Undo& u) {
        if (stone) s.play(m, u.stone);
        else g.do_move(m, u.gounki);
    }
    void undo_move(Move m, const Undo& u) {
        if (stone) s.undo(u.stone);
        else g.undo_move(m, u.gounki);
    }
};

// Concatenation without `"literal" + std::string` chains (GCC 12 warns falsely about them).
template <typename... Parts>
std::string cat(const Parts&... parts) {
    std::string s;
    ((s += parts), ...);
    return s;
}

std::string files_and_ranks(int size) {
    return cat("files a-", std::string(1, char('a' + size - 1)), ", ranks 1-", std::to_string(size));
}

class Resolver {
public:
    Resolver(const ast::Game& game, const SourceMap& source, std::span<const ast::SyntaxError> errors, const std::string& file,
             int number, GameRecord& out, Notation notation)
        : game_(game), src_(source), errors_(errors), file_(file), number_(number), out_(out), forced_(notation) {}

    void run();

private:
    struct LineState {
        GameState pos;
        int ply = 0; // plies from the game's start to `pos`
        bool number_checked = false;
    };

    Diagnostic& report(Severity sev, std::string_view code, std::uint32_t offset, std::string message);
    Diagnostic& report_move(Severity sev, std::string_view code, const ast::Move& m, const LineState& st, std::string message);
    int move_number(int ply) const;
    std::string move_label(const LineState& st) const;

    Move full_resolve(const ast::Move& m, const LineState& st, bool main);
    // The official and LC4 notations: the pieces of one written move, from elements[i] on, grouped
    // into `out` (i moves to the last piece taken). `none` when elements[i] is a move as it stands.
    enum class Group { none, grouped, failed };
    Group group(const std::vector<ast::Element>& elements, std::size_t& i, const LineState& st, ast::Move& out);
    // LC4's `g8#`: the stack on the square leaves the board, how is not written.
    Move resolve_exit_from(const ast::Move& m, const LineState& st, bool main);
    // A stone game's move (or a Gounki move written in one, or a point in a Gounki game): the move,
    // or none after reporting why there is none.
    Move resolve_stone(const ast::Move& m, const LineState& st, bool main);
    bool set_up_stones();
    void read_tags();
    bool set_up();
    void read_players(const ast::TableHeader& h);
    // Replays `elements` from st into `line`; returns false when the line stopped at an error.
    bool resolve_line(const std::vector<ast::Element>& elements, LineState st, Line& line, int depth);
    void check_result();

    const ast::Game& game_;
    const SourceMap& src_;
    std::span<const ast::SyntaxError> errors_;
    const std::string& file_;
    int number_;
    GameRecord& out_;
    Notation forced_; // Notation::automatic: detected from the game's moves
    Notation notation_ = Notation::wikipedia;

    bool black_first_ = false; // the start position has the second player of a move pair to move
    Color pair_first_ = Color::white; // who plays first in a numbered move pair: White in Gounki, Black in stone games
    bool set_up_ = false; // the game starts from a position other than the start
    int number_base_ = 1; // the number of the first move
    bool main_cut_ = false; // the main line stopped at an error
    bool players_read_ = false;
    // How the main line ended the game, for messages: the ply and its text.
    int end_ply_ = -1;
    std::string end_text_;
    std::uint32_t last_offset_ = 0;
    GameState main_end_; // the position after the main line
};

Diagnostic& Resolver::report(Severity sev, std::string_view code, std::uint32_t offset, std::string message) {
    return add_diagnostic(out_, src_, file_, number_, sev, code, offset, std::move(message));
}

int Resolver::move_number(int ply) const { return number_base_ + (ply + (black_first_ ? 1 : 0)) / 2; }

std::string Resolver::move_label(const LineState& st) const {
    return std::to_string(move_number(st.ply)) + (st.pos.side_to_move() == pair_first_ ? "." : "...");
}

Diagnostic& Resolver::report_move(Severity sev, std::string_view code, const ast::Move& m, const LineState& st,
                                  std::string message) {
    const std::string written(src_.slice(m.offset, m.length));
    Diagnostic& d = report(sev, code, m.offset, move_label(st) + " " + written + ": " + std::move(message));
    d.move_number = move_number(st.ply);
    d.side = st.pos.side_to_move();
    d.written = written;
    return d;
}

// Core's resolve_move, the authority on what a written move names, with every diagnostic: for the
// moves quick_resolve leaves alone. Returns the move, or none after reporting why there is none.
Move Resolver::full_resolve(const ast::Move& m, const LineState& st, bool main) {
    const Position& pos = st.pos.g;
    Resolution r = resolve_move(pos, m.spec);
    if (r.move) {
        for (MarkerWarning w : r.warnings)
            report_move(Severity::warning, marker_code(w), m, st,
                        std::string(marker_warning_text(w)) + " (canonical: " + move_to_text(pos, r.move) + ")");
        return r.move;
    }
    if (r.failure == ResolveFailure::game_over) {
        std::string how = "the game is already over";
        if (main && end_ply_ >= 0)
            how += " (" + std::string(pos.outcome() == Outcome::white_wins ? "White" : "Black") + " won with " + end_text_ + ")";
        report_move(Severity::error, "move-after-end", m, st, how + "; no move can follow");
        return Move::none();
    }
    MoveList candidates = r.stack_moves;
    if (candidates.empty()) generate_moves(pos, candidates);
    std::string message = r.message;
    std::vector<std::string> legal;
    for (Move lm : r.stack_moves) legal.push_back(move_to_text(pos, lm));
    if (!legal.empty()) message += "; the stack on " + square_name(m.spec.from) + " can play " + join_moves(legal);
    else if (r.failure == ResolveFailure::illegal) message += "; the stack on " + square_name(m.spec.from) + " has no legal move";
    const std::string near = nearest_move(pos, src_.slice(m.offset, m.length), candidates);
    if (!near.empty()) message += "; did you mean " + near + "?";
    Diagnostic& d = report_move(Severity::error, "illegal-move", m, st, message);
    d.legal_moves = std::move(legal);
    d.suggestion = near;
    return Move::none();
}

namespace {

const ast::Move* move_at(const std::vector<ast::Element>& elements, std::size_t k) {
    if (k >= elements.size() || elements[k].get().which() != 1) return nullptr;
    return &boost::get<ast::Move>(elements[k].get());
}

bool is_board_square(const ast::Move& m) { return m.is_placement() && m.place_file < 8 && m.place_rank < 8; }
Square square_of(const ast::Move& m) { return make_square(m.place_file, m.place_rank); }

// What a game's moves say of their notation: LC4's forms, else the official site's loose squares.
Notation detect_notation(const std::vector<ast::Element>& elements) {
    constexpr std::uint8_t lc4_forms =
        ast::Move::point_exit | ast::Move::plus_deploy | ast::Move::dashed_targets | ast::Move::hash_out;
    bool official = false;
    for (const ast::Element& e : elements) {
        if (e.get().which() != 1) continue;
        const ast::Move& m = boost::get<ast::Move>(e.get());
        if (m.form & lc4_forms) return Notation::lc4;
        official |= m.is_placement() || m.is_lone_out();
    }
    return official ? Notation::official : Notation::wikipedia;
}

} // namespace

Resolver::Group Resolver::group(const std::vector<ast::Element>& elements, std::size_t& i, const LineState& st, ast::Move& out) {
    const ast::Move& m = boost::get<ast::Move>(elements[i].get());
    const Position& pos = st.pos.g;
    auto extend = [&](const ast::Move& piece) { out.length = piece.offset + piece.length - out.offset; };
    auto fail = [&](const ast::Move& at, std::string message) {
        report_move(Severity::error, "bad-move", at, st, std::move(message));
        return Group::failed;
    };
    if (m.is_lone_out()) return fail(m, "OUT alone: no square before it says which stack leaves the board");
    if (notation_ == Notation::wikipedia) return Group::none; // squares alone are reported as they stand
    out = m;
    out.spec.optional_markers = true;
    if (m.is_placement()) {
        if (!is_board_square(m) || (m.form & ast::Move::point_exit)) return Group::none;
        const Square first = square_of(m);
        const Stack there = pos.at(first);
        if ((there.is_empty() || there.color() != pos.side_to_move()) && !pos.game_over()) {
            // `[<from> <sep>] <to>`: a square that holds none of the mover's stacks is where a move
            // goes, its origin left out. Named by the only movement that lands there.
            MoveList moves;
            generate_moves(pos, moves);
            std::vector<Move> landing;
            for (Move mv : moves)
                if (mv.type() == MoveType::movement && mv.to() == first) landing.push_back(mv);
            if (landing.size() == 1) {
                out.place_file = out.place_rank = -1;
                out.form = 0;
                out.spec.from = landing[0].from();
                out.spec.separator = MoveSeparator::dash;
                out.spec.targets[0] = WrittenTarget{first, bool(m.form & ast::Move::point_join)};
                out.spec.target_count = 1;
                return Group::grouped;
            }
            std::vector<std::string> texts;
            for (Move mv : landing) texts.push_back(move_to_text(pos, mv));
            if (landing.empty())
                return fail(m,
                            "no stack of " + color_name(pos.side_to_move()) + " on " + square_name(first) +
                                ", and none can move there");
            Diagnostic& d =
                report_move(Severity::error, "ambiguous-move", m, st,
                            "a square alone names a move by where it goes, but " + std::to_string(landing.size()) +
                                " stacks can go to " + square_name(first) + " (" + join_moves(texts) + "); write the origin");
            d.legal_moves = std::move(texts);
            return Group::failed;
        }
        if (m.form & ast::Move::point_join)
            return fail(m, "'+' after the square a stack leaves from; '+' marks the square where it joins a stack");
        const ast::Move* to = move_at(elements, i + 1);
        if (!to || !(to->is_lone_out() || is_board_square(*to)) || (to->form & ast::Move::point_exit))
            return fail(m,
                        "a square alone; a move names the stack's square and where it goes (c2 d3, b1 x c2, "
                        "d4 * d5 d6, a1 OUT)");
        out.place_file = out.place_rank = -1;
        out.form = 0;
        out.spec.from = square_of(m);
        out.spec.separator = MoveSeparator::dash;
        if (to->is_lone_out()) {
            out.spec.out = true;
        } else {
            out.spec.targets[0] = WrittenTarget{square_of(*to), bool(to->form & ast::Move::point_join)};
            out.spec.target_count = 1;
        }
        extend(*to);
        ++i;
        return Group::grouped;
    }
    if (m.spec.separator != MoveSeparator::deploy) return Group::grouped;
    if (m.form & ast::Move::plus_deploy) out.spec.order = DeployOrder::squares_first;
    else if (notation_ == Notation::lc4 && m.spec.target_count > 0) out.spec.order = DeployOrder::rounds_first;
    // `b2 * c3 c4 c5`: the squares after the first are elements of their own; the stack's size says
    // how many belong to the deployment.
    const Stack stack = pos.at(m.spec.from);
    const int pieces = stack.is_empty() ? 0 : stack.size();
    while (!out.spec.out && out.spec.target_count < std::min(pieces, 3)) {
        const ast::Move* next = move_at(elements, i + 1);
        if (!next || !(next->is_lone_out() || is_board_square(*next))) break;
        if (next->is_lone_out()) {
            out.spec.out = true;
        } else {
            out.spec.targets[out.spec.target_count++] = WrittenTarget{square_of(*next), bool(next->form & ast::Move::point_join)};
            out.spec.out = next->form & ast::Move::point_exit;
        }
        extend(*next);
        ++i;
    }
    return Group::grouped;
}

Move Resolver::resolve_exit_from(const ast::Move& m, const LineState& st, bool main) {
    const Position& pos = st.pos.g;
    const Square from = square_of(m);
    ast::Move exit = m; // the same move as `g8-Out`, for the errors of full_resolve
    exit.place_file = exit.place_rank = -1;
    exit.spec = MoveSpec{};
    exit.spec.from = from;
    exit.spec.out = true;
    exit.spec.optional_markers = true;
    const Stack st_from = pos.at(from);
    if (pos.game_over() || st_from.is_empty() || st_from.color() != pos.side_to_move()) return full_resolve(exit, st, main);
    MoveList moves;
    generate_moves_from(pos, from, moves);
    Move whole = Move::none();
    std::vector<Move> ways;
    for (Move mv : moves) {
        if (mv.type() == MoveType::exit) whole = mv;
        if (mv.type() == MoveType::exit || (mv.type() == MoveType::deployment && mv.ends_out())) ways.push_back(mv);
    }
    if (ways.empty()) return full_resolve(exit, st, main);
    if (ways.size() == 1) return ways[0];
    std::vector<std::string> texts;
    for (Move mv : ways) texts.push_back(move_to_text(pos, mv));
    if (whole) {
        Diagnostic& d =
            report_move(Severity::warning, "ambiguous-exit", m, st,
                        "the stack can leave the board in " + std::to_string(ways.size()) + " ways (" + join_moves(texts) +
                            "); read as " + move_to_text(pos, whole) + ", the whole stack leaving");
        d.legal_moves = texts;
        return whole;
    }
    Diagnostic& d = report_move(Severity::error, "ambiguous-move", m, st,
                                "the stack can leave the board in " + std::to_string(ways.size()) + " ways (" +
                                    join_moves(texts) + "); write the deployment's squares");
    d.legal_moves = std::move(texts);
    return Move::none();
}

Move Resolver::resolve_stone(const ast::Move& m, const LineState& st, bool main) {
    if (!st.pos.stone) { // a point alone in a Gounki game
        report_move(Severity::error, "bad-move", m, st,
                    "a point alone is a Gomoku or Ninuki move; a Gounki move names a stack and where it goes "
                    "(e.g. c2-d3); for a stone game, add a [Game \"Gomoku\"] or [Game \"Ninuki\"] tag");
        return Move::none();
    }
    const stones::StonePosition& pos = st.pos.s;
    if (!m.is_placement() || m.form) {
        report_move(Severity::error, "bad-move", m, st,
                    cat("a ", game_kind_name(out_.kind), " move is a point such as h8, not a Gounki move"));
        return Move::none();
    }
    const int size = pos.size();
    if (m.place_file >= size || m.place_rank >= size) {
        report_move(Severity::error, "illegal-move", m, st,
                    cat("the point is off the ", std::to_string(size), "x", std::to_string(size), " board (",
                        files_and_ranks(size), ")"));
        return Move::none();
    }
    const Move move = Move::placement(stones::make_point(m.place_file, m.place_rank));
    const stones::PlaceError e = pos.check(move);
    if (e == stones::PlaceError::none) return move;
    if (e == stones::PlaceError::game_over) {
        std::string how = "the game is already over";
        if (main && end_ply_ >= 0)
            how += pos.outcome() == Outcome::draw
                ? cat(" (drawn after ", end_text_, ")")
                : cat(" (", pos.outcome() == Outcome::white_wins ? "White" : "Black", " won with ", end_text_, ")");
        report_move(Severity::error, "move-after-end", m, st, how + "; no move can follow");
        return Move::none();
    }
    std::string message(stones::place_error_text(e));
    if (e == stones::PlaceError::occupied)
        message = cat("the point is occupied by a ", pos.at(move.point()) == stones::Stone::black ? "black" : "white", " stone");
    report_move(Severity::error, "illegal-move", m, st, message);
    return Move::none();
}

void Resolver::read_tags() {
    for (const ast::Tag& t : game_.tags) {
        const std::string& raw = t.raw_value;
        std::string value(raw, 0, std::min(raw.find('\\'), raw.size())); // up to the first escape, if any
        for (std::size_t i = value.size(); i < raw.size(); ++i) {
            if (raw[i] != '\\' || i + 1 == raw.size()) {
                value += raw[i];
                continue;
            }
            const char next = raw[i + 1];
            if (next == '"' || next == '\\') {
                value += next;
                ++i;
                continue;
            }
            // The value starts after `[Name "`: find the backslash in the source for its column.
            const std::string_view src = src_.slice(t.offset, t.length);
            const std::size_t quote = src.find('"');
            const std::uint32_t at = t.offset + std::uint32_t(quote == std::string_view::npos ? 0 : quote + 1 + i);
            Diagnostic& d = report(Severity::warning, "bad-escape", at,
                                   "unknown escape '\\" + std::string(1, next) + "' in the value of tag " + t.name +
                                       " (only \\\" and \\\\ exist); kept as written");
            d.written = std::string(src);
            value += '\\';
        }
        for (const auto& [name, v] : out_.tags) {
            if (name == t.name) {
                Diagnostic& d = report(Severity::warning, "duplicate-tag", t.offset,
                                       "tag " + t.name + " appears twice; the first value \"" + v + "\" is used");
                d.written = std::string(src_.slice(t.offset, t.length));
                break;
            }
        }
        out_.tags.emplace_back(t.name, std::move(value));
    }
}

// A stone game's rules (Game, Size and Rules tags) and start (Position tag, else an empty board).
bool Resolver::set_up_stones() {
    auto tag_offset = [&](std::string_view name) {
        for (const ast::Tag& t : game_.tags)
            if (t.name == name) return t.offset;
        return game_.offset;
    };
    pair_first_ = Color::black;
    stones::Rules rules = stones::Rules::defaults(out_.kind);
    out_.stone_start = stones::StonePosition(rules); // until the tags say otherwise
    if (const std::string* size = out_.tag("Size"))
        if (auto e = stones::apply_size_tag(rules, *size)) {
            report(Severity::error, "bad-rules", tag_offset("Size"), *e + "; the moves are not replayed");
            return false;
        }
    if (const std::string* r = out_.tag("Rules"))
        if (auto e = stones::apply_rules_tag(rules, *r)) {
            report(Severity::error, "bad-rules", tag_offset("Rules"), *e + "; the moves are not replayed");
            return false;
        }
    out_.stone_start = stones::StonePosition(rules);
    if (const std::string* position = out_.tag("Position")) {
        auto parsed = stones::StonePosition::from_text(trim(*position));
        if (auto* e = std::get_if<PositionError>(&parsed)) {
            report(Severity::error, "bad-position", tag_offset("Position"),
                   "bad Position tag at character " + std::to_string(e->column + 1) + ": " + e->message);
            return false;
        }
        const stones::StonePosition& p = std::get<stones::StonePosition>(parsed);
        if (!(p.rules() == rules)) {
            report(Severity::error, "bad-position", tag_offset("Position"),
                   cat("the Position tag is a ", game_kind_name(p.rules().kind), " ", std::to_string(p.size()), "x",
                       std::to_string(p.size()), " position with other rules than the Game, Size and Rules tags say"));
            return false;
        }
        out_.stone_start = p;
        set_up_ = !(p == stones::StonePosition(rules));
    }
    black_first_ = out_.stone_start.side_to_move() != pair_first_;
    return true;
}

// Game kind and start position. False when the moves cannot be replayed.
bool Resolver::set_up() {
    auto tag_offset = [&](std::string_view name) {
        for (const ast::Tag& t : game_.tags)
            if (t.name == name) return t.offset;
        return game_.offset;
    };
    if (const std::string* g = out_.tag("Game")) {
        const auto kind = parse_game_kind(*g);
        if (!kind) {
            std::string known;
            for (const GameInfo& info : games()) known += cat(known.empty() ? "" : ", ", info.name);
            report(Severity::error, "unknown-game", tag_offset("Game"),
                   "unknown game \"" + *g + "\" (known: " + known + "); the moves are not replayed");
            return false;
        }
        if (is_stone_game(*kind)) {
            out_.kind = *kind;
            return set_up_stones();
        }
    }
    const std::string* setup = out_.tag("SetUp");
    const std::string* position = out_.tag("Position");
    if (!position) {
        if (setup && trim(*setup) == "1") {
            report(Severity::error, "missing-position", tag_offset("SetUp"),
                   "SetUp \"1\" without a Position tag: the start position is unknown");
            return false;
        }
        return true;
    }
    auto parsed = Position::from_text(trim(*position));
    if (auto* e = std::get_if<PositionError>(&parsed)) {
        // Point at the offending character inside the value (escapes aside, the value is as written).
        std::uint32_t at = tag_offset("Position");
        for (const ast::Tag& t : game_.tags) {
            if (t.name != "Position") continue;
            const std::size_t quote = src_.slice(t.offset, t.length).find('"');
            const std::size_t lead = t.raw_value.find_first_not_of(" \t\r\n");
            if (quote != std::string_view::npos && lead != std::string::npos)
                at = t.offset + std::uint32_t(quote + 1 + lead + std::size_t(e->column));
            break;
        }
        Diagnostic& d = report(Severity::error, "bad-position", at,
                               "bad Position tag at character " + std::to_string(e->column + 1) + ": " + e->message);
        d.written = *position;
        return false;
    }
    if (!setup || trim(*setup) != "1")
        report(Severity::warning, "missing-setup", tag_offset("Position"),
               "a Position tag without SetUp \"1\"; the position is used");
    out_.start = std::get<Position>(parsed);
    set_up_ = !(out_.start == initial_position());
    black_first_ = out_.start.side_to_move() == Color::black;
    return true;
}

void Resolver::read_players(const ast::TableHeader& h) {
    if (players_read_) return;
    players_read_ = true;
    std::vector<std::string> names;
    for (const std::string& c : h.cells) {
        const std::string l = lower(c);
        if (l.empty() || l == "#" || l == "move" || l == "moves" || l == "no" || l == "no." || l == "n°" ||
            l.find_first_not_of("-:.") == std::string::npos)
            continue;
        // A third column for notes (as the Wikipedia article's example game has) names no player.
        if (l == "notes" || l == "note" || l == "comments" || l == "comment" || l == "remarks" || l == "remarques" ||
            l == "commentaires")
            continue;
        names.push_back(c);
    }
    if (names.size() != 2) return;
    auto generic = [](const std::string& n, std::string_view label) { return lower(n) == label; };
    if (!out_.tag("White") && !generic(names[0], "white")) out_.tags.emplace_back("White", names[0]);
    if (!out_.tag("Black") && !generic(names[1], "black")) out_.tags.emplace_back("Black", names[1]);
}

bool Resolver::resolve_line(const std::vector<ast::Element>& elements, LineState st, Line& line, int depth) {
    // The last ply and its undo record: a variation after it starts from the position before it,
    // rebuilt on demand rather than copied at every ply.
    Move last = Move::none();
    Undo undo;
    const bool main = depth == 0;
    auto finish = [&](bool complete) {
        if (main) main_end_ = st.pos;
        return complete;
    };
    for (std::size_t i = 0; i < elements.size(); ++i) {
        const auto& node = elements[i].get();
        switch (node.which()) {
        case 0: { // MoveNumber
            const auto& n = boost::get<ast::MoveNumber>(node);
            last_offset_ = std::max(last_offset_, n.offset + n.length);
            if (main && st.ply == 0 && set_up_ && !st.number_checked && n.number >= 1 && n.number <= 100000) {
                // A set-up game may go on from any move number: its first number sets the count.
                number_base_ = int(n.number);
                out_.first_number = number_base_;
                st.number_checked = true;
                break;
            }
            if (st.number_checked) break; // one warning per line: after a slip every number is off
            const int expected = move_number(st.ply);
            const bool first = st.pos.side_to_move() == pair_first_;
            if (int(n.number) != expected || (n.ellipsis && first)) {
                st.number_checked = true;
                const std::string want = std::to_string(expected) + (first ? "." : "...");
                report(Severity::warning, "wrong-move-number", n.offset,
                       "move number " + std::string(src_.slice(n.offset, n.length)) + " where " + want + " was expected (" +
                           color_name(st.pos.side_to_move()) + " to play)" +
                           (int(n.number) > expected && !n.ellipsis ? "; is a move missing before it?" : ""));
            }
            break;
        }
        case 1: { // Move
            const ast::Move* written_move = &boost::get<ast::Move>(node);
            ast::Move grouped;
            const ast::Move* next = move_at(elements, i + 1);
            if (!st.pos.stone &&
                (written_move->is_placement() || written_move->form || notation_ != Notation::wikipedia ||
                 (written_move->spec.separator == MoveSeparator::deploy && next && next->is_placement()))) {
                switch (group(elements, i, st, grouped)) {
                case Group::failed: return finish(false);
                case Group::grouped: written_move = &grouped; break;
                case Group::none: break;
                }
            }
            const ast::Move& m = *written_move;
            last_offset_ = std::max(last_offset_, m.offset + m.length);
            Move move = Move::none();
            if (!st.pos.stone && (m.form & ast::Move::point_exit) && is_board_square(m)) {
                if (!(move = resolve_exit_from(m, st, main))) return finish(false);
            } else if (st.pos.stone || m.is_placement()) {
                if (!(move = resolve_stone(m, st, main))) return finish(false);
            } else {
                move = quick_resolve(st.pos.g, m.spec);
                if (!move && !(move = full_resolve(m, st, main))) return finish(false);
            }
            st.pos.do_move(move, undo);
            last = move;
            if (main && st.pos.game_over()) { // only the last move of a game can end it
                end_ply_ = st.ply;
                GameState before = st.pos;
                before.undo_move(move, undo);
                end_text_ = move_label(LineState{before, st.ply, false}) + " " + move_to_text(before.g, move);
            }
            ++st.ply;
            Ply& p = line.plies.emplace_back();
            p.move = move;
            const std::string_view written = src_.slice(m.offset, m.length);
            p.written.append(written.data(), written.size()); // new and empty: append costs less than assign
            break;
        }
        case 2: { // Annotation
            const auto& a = boost::get<ast::Annotation>(node);
            last_offset_ = std::max(last_offset_, a.offset + a.length);
            const std::string text(src_.slice(a.offset, a.length));
            if (line.plies.empty()) {
                report(Severity::warning, "misplaced-annotation", a.offset,
                       "'" + text + "' before any move of the line; ignored");
            } else if (a.value > 255) {
                report(Severity::warning, "bad-nag", a.offset, "NAG " + text + " is out of range ($0..$255); ignored");
            } else {
                line.plies.back().nags.push_back(std::uint8_t(a.value));
            }
            break;
        }
        case 3: { // Comment
            const auto& c = boost::get<ast::Comment>(node);
            last_offset_ = std::max(last_offset_, c.offset + c.length);
            if (!c.closed) {
                report(Severity::error, "unterminated-comment", c.offset,
                       "comment '{' is never closed: the rest of the game is inside it");
                return finish(false);
            }
            std::string text = comment_text(c.text);
            if (line.plies.empty()) line.comments.push_back(std::move(text));
            else line.plies.back().comments.push_back(std::move(text));
            break;
        }
        case 4: { // Variation
            const auto& v = boost::get<ast::x3::forward_ast<ast::Variation>>(node).get();
            last_offset_ = std::max(last_offset_, v.offset + v.length);
            bool has_move = false;
            for (const ast::Element& e : v.elements) has_move |= e.get().which() == 1 || e.get().which() == 6;
            if (line.plies.empty()) {
                report(Severity::warning, "misplaced-variation", v.offset,
                       "a variation before any move of the line has nothing to be an alternative to; ignored");
            } else if (!has_move && v.closed) {
                report(Severity::warning, "empty-variation", v.offset, "empty variation; ignored");
            } else {
                Line alt;
                GameState before = st.pos;
                before.undo_move(last, undo);
                LineState vs{before, st.ply - 1, false};
                resolve_line(v.elements, vs, alt, depth + 1);
                // A variation broken before its first move holds nothing to keep (its comments
                // alone would be written as an empty variation, which reads back as nothing).
                if (!alt.plies.empty()) line.plies.back().variations.push_back(std::move(alt));
            }
            if (!v.closed) {
                report(Severity::error, "unterminated-variation", v.offset,
                       "variation '(' is never closed: the rest of the game is inside it");
                return finish(false);
            }
            break;
        }
        case 5: { // TableHeader
            const auto& h = boost::get<ast::TableHeader>(node);
            if (main && line.plies.empty()) read_players(h);
            break;
        }
        case 6: { // Unknown
            const auto& u = boost::get<ast::Unknown>(node);
            last_offset_ = std::max(last_offset_, u.offset + u.length);
            const std::string text(src_.slice(u.offset, u.length));
            if (text == ")") {
                report(Severity::error, "unmatched-paren", u.offset, "')' closes no variation");
                break;
            }
            if (text == "-" || text == "--") { // a table's empty cell, as a notes column writes it
                report(Severity::warning, "placeholder", u.offset, "'" + text + "' alone read as an empty table cell; ignored");
                break;
            }
            std::string message;
            auto parsed = parse_move_text(text);
            if (auto* e = std::get_if<MoveTextError>(&parsed); e && e->column > 0)
                message = "cannot be read as a move: at character " + std::to_string(e->column + 1) + ", " + e->message;
            else message = "not a move, move number, comment, NAG or result";
            // A character that is not plain ASCII may be invisible, or look like one that is: name it.
            for (std::size_t k = 0; k < text.size(); ++k) {
                if (static_cast<unsigned char>(text[k]) < 0x80) continue;
                std::size_t length = 0;
                const char32_t cp = first_code_point(std::string_view(text).substr(k), length);
                message += cat("; it holds ", describe_code_point(cp), ", which is not part of any move");
                break;
            }
            MoveList all;
            if (!st.pos.stone) generate_moves(st.pos.g, all);
            const std::string near = st.pos.stone ? std::string() : nearest_move(st.pos.g, text, all);
            if (!near.empty()) message += "; did you mean " + near + "?";
            if (st.pos.stone) {
                const int size = st.pos.s.size();
                message += cat("; a ", game_kind_name(out_.kind), " move is a point such as h8 (", files_and_ranks(size), ")");
            }
            Diagnostic& d = report(Severity::error, "bad-move", u.offset, move_label(st) + " " + text + ": " + message);
            d.move_number = move_number(st.ply);
            d.side = st.pos.side_to_move();
            d.written = text;
            d.suggestion = near;
            return finish(false);
        }
        }
    }
    return finish(true);
}

void Resolver::check_result() {
    const std::string* tag = out_.tag("Result");
    std::uint32_t tag_at = game_.offset;
    for (const ast::Tag& t : game_.tags)
        if (t.name == "Result") {
            tag_at = t.offset;
            break;
        }
    std::string tag_result;
    if (tag) {
        tag_result = result_tag_value(*tag);
        if (!is_result_text(tag_result)) {
            report(Severity::warning, "bad-result-tag", tag_at,
                   "Result tag \"" + *tag + "\" is not 1-0, 0-1, 1/2-1/2 or *; ignored");
            tag_result.clear();
        }
    }
    // Who won on the board, when the main line was read to its end.
    const bool over = !main_cut_ && main_end_.game_over();
    const Outcome outcome = main_end_.outcome();
    const std::string_view winner = over ? outcome_text(outcome) : "";

    const bool written = game_.result.value != ast::Result::none;
    std::uint32_t at = tag ? tag_at : game_.offset;
    if (written) {
        at = game_.result.offset;
        out_.result = std::string(result_text(game_.result.value));
        out_.result_written = true;
        if (!tag_result.empty() && tag_result != out_.result)
            report(Severity::error, "result-mismatch", at,
                   "the game ends with " + out_.result + " but its Result tag says " + tag_result);
    } else {
        out_.result = !tag_result.empty() ? tag_result : over ? std::string(winner) : "*";
        if (!main_cut_)
            report(Severity::warning, "no-result", std::max(last_offset_, game_.offset + game_.length),
                   "the game has no termination marker (1-0, 0-1, 1/2-1/2 or *); read as " + out_.result);
    }
    if (!over || out_.result == winner) return; // open: a resignation or unfinished; or agreed
    const std::string who = outcome == Outcome::white_wins ? "White" : "Black";
    const std::string how = end_ply_ >= 0 ? " with " + end_text_ : " already in the start position";
    const std::string what = outcome == Outcome::draw ? "the board is full and the game drawn" : who + " won" + how;
    if (out_.result == "*") {
        report(Severity::warning, "result-incomplete", at, cat("the result is * but ", what, " (write ", winner, ")"));
    } else if (out_.result != winner) {
        report(Severity::error, "result-contradicts", at,
               "the result " + out_.result + " contradicts the final position: " + what);
    }
}

void Resolver::run() {
    out_.clear();
    out_.file = file_;
    out_.number = number_;
    out_.line = src_.locate(game_.offset).line;
    read_tags();
    for (const ast::SyntaxError& e : errors_) {
        Diagnostic& d = report(Severity::error, e.code, e.offset, e.message);
        d.written = std::string(src_.slice(e.start, std::uint32_t(src_.text().find('\n', e.start) - e.start)));
        while (!d.written.empty() && (d.written.back() == '\r' || d.written.back() == ' ')) d.written.pop_back();
        if (e.truncates) main_cut_ = true;
    }
    for (const ast::Comment& c : game_.header_comments) {
        if (!c.closed) {
            report(Severity::error, "unterminated-comment", c.offset,
                   "comment '{' is never closed: the rest of the game is inside it");
            main_cut_ = true;
        } else {
            out_.main.comments.push_back(comment_text(c.text));
        }
    }
    main_end_ = GameState{out_.start, stones::StonePosition(), false};
    if (!set_up()) {
        main_cut_ = true;
    } else {
        std::size_t moves = 0;
        for (const ast::Element& e : game_.elements) moves += e.get().which() == 1;
        out_.main.plies.reserve(moves);
        GameState start;
        if (out_.kind == GameKind::gounki) {
            start.g = out_.start;
        } else {
            start.stone = true;
            start.s = out_.stone_start;
        }
        main_end_ = start;
        if (out_.kind == GameKind::gounki) {
            notation_ = forced_ != Notation::automatic ? forced_ : detect_notation(game_.elements);
            out_.notation = notation_;
        }
        LineState st{start, 0, false};
        if (!resolve_line(game_.elements, st, out_.main, 0)) main_cut_ = true;
    }
    if (!main_cut_) {
        for (const ast::Comment& c : game_.trailing_comments) {
            std::string text = comment_text(c.text);
            if (out_.main.plies.empty()) out_.main.comments.push_back(std::move(text));
            else out_.main.plies.back().comments.push_back(std::move(text));
        }
    }
    check_result();
    std::stable_sort(out_.diagnostics.begin(), out_.diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
        return a.line != b.line ? a.line < b.line : a.column < b.column;
    });
    if (main_cut_) out_.status = GameStatus::partial;
    else if (out_.error_count()) out_.status = GameStatus::invalid;
    else out_.status = GameStatus::valid;
}

} // namespace

Diagnostic& add_diagnostic(GameRecord& out, const SourceMap& source, const std::string& file, int game, Severity sev,
                           std::string_view code, std::uint32_t offset, std::string message) {
    Diagnostic d;
    d.severity = sev;
    d.code = std::string(code);
    d.message = std::move(message);
    d.file = file;
    const SourceMap::Place p = source.locate(offset);
    d.line = p.line;
    d.column = p.column;
    d.game = game;
    out.diagnostics.push_back(std::move(d));
    return out.diagnostics.back();
}

void resolve_game(const ast::Game& game, const SourceMap& source, std::span<const ast::SyntaxError> errors,
                  const std::string& file, int number, GameRecord& out, Notation notation) {
    Resolver(game, source, errors, file, number, out, notation).run();
}

void read_game_header(const ast::Game& game, const SourceMap& source, const std::string& file, int number, GameRecord& out) {
    out.clear();
    out.file = file;
    out.number = number;
    out.line = source.locate(game.offset).line;
    for (const ast::Tag& t : game.tags) {
        std::string value;
        for (std::size_t i = 0; i < t.raw_value.size(); ++i) {
            const char c = t.raw_value[i];
            if (c == '\\' && i + 1 < t.raw_value.size() && (t.raw_value[i + 1] == '"' || t.raw_value[i + 1] == '\\'))
                value += t.raw_value[++i];
            else value += c;
        }
        out.tags.emplace_back(t.name, std::move(value));
    }
    if (const std::string* g = out.tag("Game"))
        if (const auto kind = parse_game_kind(*g)) out.kind = *kind;
    if (game.result.value != ast::Result::none) {
        out.result = std::string(result_text(game.result.value));
        out.result_written = true;
    } else if (const std::string* r = out.tag("Result"); r && is_result_text(result_tag_value(*r))) {
        out.result = result_tag_value(*r);
    }
}

} // namespace gounki::parser
