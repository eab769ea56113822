#include "core/gounki/position.hpp"

#include <bit>
#include <cassert>
#include <optional>
#include <string>

#include "core/gounki/tables.hpp"

namespace gounki {

Position::Position() = default;

Position Position::start() {
    // Squares on dark squares, rounds on light squares; a1 is dark.
    Position p;
    for (int file = 0; file < 8; ++file) {
        for (int rank : {0, 1, 6, 7}) {
            const bool dark = (file + rank) % 2 == 0;
            const Color c = rank < 2 ? Color::white : Color::black;
            p.put(make_square(file, rank), dark ? Stack(c, 0, 1) : Stack(c, 1, 0));
        }
    }
    return p;
}

template <bool Hash>
inline void Position::set_square(Square s, Stack st) {
    const Stack old = board_[s];
    if constexpr (Hash) key_ ^= zobrist_square(s, old) ^ zobrist_square(s, st);
    if (!old.is_empty()) {
        occupied_[index(old.color())] &= ~square_bb(s);
        by_code_[old.code()] &= ~square_bb(s);
    }
    if (!st.is_empty()) {
        occupied_[index(st.color())] |= square_bb(s);
        by_code_[st.code()] |= square_bb(s);
    }
    board_[s] = st;
}

void Position::put(Square s, Stack st) { set_square<true>(s, st); }

void Position::set_side_to_move(Color c) {
    if (c != side_) key_ ^= zobrist_black_to_move();
    side_ = c;
}

std::uint64_t Position::key_with_outcome(Outcome o) const { return key_ ^ zobrist_outcome(outcome_) ^ zobrist_outcome(o); }

void Position::update_outcome_from_material() {
    key_ ^= zobrist_outcome(outcome_);
    if (occupied_[0] == 0 && occupied_[1] != 0) outcome_ = Outcome::black_wins;
    else if (occupied_[1] == 0 && occupied_[0] != 0) outcome_ = Outcome::white_wins;
    else outcome_ = Outcome::none;
    key_ ^= zobrist_outcome(outcome_);
}

int Position::piece_count(Color c) const {
    int n = 0;
    for (std::uint64_t b = occupied_[index(c)]; b; b &= b - 1) n += board_[std::countr_zero(b)].size();
    return n;
}

std::uint64_t Position::compute_key() const {
    std::uint64_t k = 0;
    for (Square s = 0; s < 64; ++s) k ^= zobrist_square(s, board_[s]);
    if (side_ == Color::black) k ^= zobrist_black_to_move();
    return k ^ zobrist_outcome(outcome_);
}

template <bool Hash>
void Position::apply(Move m, UndoRecord& undo) {
    const Color us = side_;
    const Square from = m.from();
    const Stack mover = board_[from];
    assert(!mover.is_empty() && mover.color() == us && outcome_ == Outcome::none);

    undo.key = key_;
    undo.outcome = outcome_;
    undo.squares[0] = from;
    undo.before[0] = mover;
    undo.count = 1;
    set_square<Hash>(from, Stack::empty());

    Outcome result = Outcome::none;
    switch (m.type()) {
    case MoveType::movement: {
        const Square to = m.to();
        const Stack target = board_[to];
        undo.squares[1] = to;
        undo.before[1] = target;
        undo.count = 2;
        if (!target.is_empty() && target.color() == us) set_square<Hash>(to, target.plus(mover.rounds(), mover.squares()));
        else set_square<Hash>(to, mover); // empty, the origin itself, or a capture
        if (occupied_[index(~us)] == 0) result = win_for(us);
        break;
    }
    case MoveType::exit: result = win_for(us); break;
    case MoveType::placement: // a stone game's move: never given to a Gounki position
        break;
    case MoveType::deployment: {
        const int n = m.placed();
        for (int i = 0; i < n; ++i) {
            const Square s = m.placed_square(i);
            // A square may receive two pieces of one deployment (a3*b4,a4,b4+): save it once.
            bool saved = false;
            for (int j = 0; j < undo.count; ++j) saved |= undo.squares[j] == s;
            if (!saved) {
                undo.squares[undo.count] = s;
                undo.before[undo.count] = board_[s];
                ++undo.count;
            }
            const Stack cur = board_[s];
            const bool round = m.placed_round(i);
            set_square<Hash>(s, cur.is_empty() ? Stack(us, round, !round) : cur.plus(round, !round));
        }
        if (m.ends_out()) result = win_for(us);
        break;
    }
    }

    if (result != outcome_) {
        if constexpr (Hash) key_ ^= zobrist_outcome(outcome_) ^ zobrist_outcome(result);
        outcome_ = result;
    }
    side_ = ~us;
    if constexpr (Hash) key_ ^= zobrist_black_to_move();
}

template void Position::apply<true>(Move, UndoRecord&);
template void Position::apply<false>(Move, UndoRecord&);

void Position::undo_move(Move, const UndoRecord& undo) {
    for (int i = undo.count - 1; i >= 0; --i) set_square<false>(undo.squares[i], undo.before[i]);
    side_ = ~side_;
    outcome_ = undo.outcome;
    key_ = undo.key;
}

std::string square_name(Square s) { return std::string{char('a' + file_of(s)), char('1' + rank_of(s))}; }

Square parse_square(std::string_view t) {
    if (t.size() != 2) return no_square;
    const char f = char(t[0] | 0x20), r = t[1];
    if (f < 'a' || f > 'h' || r < '1' || r > '8') return no_square;
    return make_square(f - 'a', r - '1');
}

namespace {

char piece_letter(Color c, bool round) {
    const char l = round ? 'R' : 'S';
    return c == Color::white ? l : char(l | 0x20);
}

} // namespace

std::string Position::to_text() const {
    std::string out;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const Stack st = board_[make_square(file, rank)];
            if (st.is_empty()) {
                ++empty;
                continue;
            }
            if (empty) {
                out += char('0' + empty);
                empty = 0;
            }
            if (st.size() > 1) out += '(';
            out.append(std::size_t(st.rounds()), piece_letter(st.color(), true));
            out.append(std::size_t(st.squares()), piece_letter(st.color(), false));
            if (st.size() > 1) out += ')';
        }
        if (empty) out += char('0' + empty);
        if (rank) out += '/';
    }
    out += side_ == Color::white ? " w" : " b";
    return out;
}

namespace {

// Reads one piece letter; false when `ch` is not one.
bool piece_of_letter(char ch, Color& c, bool& round) {
    switch (ch) {
    case 'R': c = Color::white, round = true; return true;
    case 'S': c = Color::white, round = false; return true;
    case 'r': c = Color::black, round = true; return true;
    case 's': c = Color::black, round = false; return true;
    default: return false;
    }
}

std::string describe_char(char ch) {
    if (ch == ' ') return "a space";
    if (static_cast<unsigned char>(ch) < 32 || static_cast<unsigned char>(ch) > 126) return "a non-printable byte";
    std::string quoted(3, '\'');
    quoted[1] = ch;
    return quoted;
}

std::string rank_name(int rank) { return "rank " + std::to_string(rank + 1); }

// The position text read left to right (docs/rules.md 1.7); each step returns an error or nothing.
class PositionTextReader {
public:
    explicit PositionTextReader(std::string_view text) : text_(text) {}

    std::optional<PositionError> read(Position& p) {
        for (int rank = 7; rank >= 0; --rank) {
            if (auto e = read_rank(p, rank)) return e;
            if (rank > 0) {
                if (at_end() || text_[i_] != '/') return fail("expected '/' after " + rank_name(rank) + " (8 ranks are needed)");
                ++i_;
            }
        }
        if (!at_end() && text_[i_] == '/') return fail("more than 8 ranks");
        if (at_end() || text_[i_] != ' ') return fail("expected a space and the side to move (w or b)");
        ++i_;
        if (at_end()) return fail("missing side to move (w or b)");
        if (text_[i_] == 'w' || text_[i_] == 'W') p.set_side_to_move(Color::white);
        else if (text_[i_] == 'b' || text_[i_] == 'B') p.set_side_to_move(Color::black);
        else return fail("the side to move must be w or b, found " + describe_char(text_[i_]));
        ++i_;
        while (!at_end() && (text_[i_] == ' ' || text_[i_] == '\t' || text_[i_] == '\r' || text_[i_] == '\n')) ++i_;
        if (!at_end()) return fail("unexpected text after the side to move");
        if (p.occupancy() == 0) return PositionError{0, "the board is empty"};
        return std::nullopt;
    }

private:
    bool at_end() const { return i_ >= text_.size(); }
    PositionError fail(std::string message, std::optional<std::size_t> col = std::nullopt) const {
        return PositionError{int(col.value_or(i_)), std::move(message)};
    }

    std::optional<PositionError> read_rank(Position& p, int rank) {
        int file = 0;
        while (!at_end() && text_[i_] != '/' && text_[i_] != ' ') {
            const char ch = text_[i_];
            if (file >= 8) return fail(rank_name(rank) + " has more than 8 files");
            if (ch >= '1' && ch <= '8') {
                file += ch - '0';
                if (file > 8) return fail(rank_name(rank) + " has more than 8 files");
                ++i_;
                continue;
            }
            const std::size_t start = i_;
            Stack stack;
            if (auto e = read_stack(stack)) return e;
            static constexpr const char* colour_names[2] = {"White", "Black"};
            int* have = count_[index(stack.color())];
            have[0] += stack.rounds();
            have[1] += stack.squares();
            if (have[0] > 8 || have[1] > 8)
                return fail(std::string(colour_names[index(stack.color())]) + " has more than 8 " +
                                (have[0] > 8 ? "rounds" : "squares") + " (at " + square_name(make_square(file, rank)) + ")",
                            start);
            p.put(make_square(file, rank), stack);
            ++file;
        }
        if (file != 8) return fail(rank_name(rank) + " has " + std::to_string(file) + " files, expected 8");
        return std::nullopt;
    }

    // One stack: a piece letter, or two or three of one colour in parentheses.
    std::optional<PositionError> read_stack(Stack& out) {
        Color c = Color::white, stack_color = Color::white;
        bool round = false;
        int r = 0, s = 0;
        if (text_[i_] != '(') {
            if (!piece_of_letter(text_[i_], c, round))
                return fail("expected a piece letter (R, S, r, s), a stack in parentheses, a digit 1-8, '/' or a space, found " +
                            describe_char(text_[i_]));
            ++i_;
            out = Stack(c, round ? 1 : 0, round ? 0 : 1);
            return std::nullopt;
        }
        const std::size_t open = i_++;
        int n = 0;
        while (!at_end() && text_[i_] != ')') {
            if (!piece_of_letter(text_[i_], c, round))
                return fail("expected a piece letter R, S, r or s inside parentheses, found " + describe_char(text_[i_]));
            if (n > 0 && c != stack_color) return fail("a stack mixes white and black pieces");
            stack_color = c;
            ++(round ? r : s);
            if (++n > 3) return fail("a stack holds more than 3 pieces");
            ++i_;
        }
        if (at_end()) return fail("unclosed parenthesis", open);
        if (n == 0) return fail("empty parentheses", open);
        if (n == 1) return fail("a single piece is written without parentheses", open);
        ++i_;
        out = Stack(stack_color, r, s);
        return std::nullopt;
    }

    std::string_view text_;
    std::size_t i_ = 0;
    int count_[2][2] = {{0, 0}, {0, 0}}; // [colour][0] rounds, [colour][1] squares
};

} // namespace

std::variant<Position, PositionError> Position::from_text(std::string_view text) {
    Position p;
    if (auto e = PositionTextReader(text).read(p)) return *e;
    p.update_outcome_from_material();
    return p;
}

} // namespace gounki
