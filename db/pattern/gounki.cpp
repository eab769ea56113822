#include "db/pattern/gounki.hpp"

#include <algorithm>
#include <bit>
#include <cctype>

namespace gounki::db {

namespace {

std::string stack_text(Stack s) {
    const bool black = s.color() == Color::black;
    std::string letters(std::size_t(s.rounds()), black ? 'r' : 'R');
    letters.append(std::size_t(s.squares()), black ? 's' : 'S');
    return letters.size() == 1 ? letters : "(" + letters + ")";
}

struct Parser {
    std::string_view text;
    std::size_t i = 0;
    std::optional<PatternError> error;

    bool fail(std::size_t at, std::string message) {
        if (!error) error = PatternError{int(at), std::move(message)};
        return false;
    }
    bool at_end() const { return i >= text.size(); }
    char peek() const { return at_end() ? '\0' : text[i]; }

    bool number(int& out, int lo, int hi) {
        const std::size_t start = i;
        int v = 0;
        while (!at_end() && std::isdigit(static_cast<unsigned char>(peek())) && i - start < 4) v = v * 10 + (text[i++] - '0');
        if (i == start) return fail(start, "expected a number");
        if (v < lo || v > hi) return fail(start, "the number must be from " + std::to_string(lo) + " to " + std::to_string(hi));
        out = v;
        return true;
    }

    // One cell; a digit in a board (allow_empties) gives `run` empty cells.
    bool cell(CellCondition& out, int& run, bool allow_empties) {
        run = 1;
        out = CellCondition{};
        const std::size_t start = i;
        const char c = peek();
        if (c == '\0') return fail(i, "expected a cell: R S r s (..) . ? W B X [..] or a digit");
        if (allow_empties && c >= '1' && c <= '8') {
            run = c - '0';
            ++i;
            out.kind = CellCondition::Kind::empty;
            return true;
        }
        ++i;
        switch (c) {
        case '.': out.kind = CellCondition::Kind::empty; return true;
        case '?': out.kind = CellCondition::Kind::any; return true;
        case 'W':
            out.kind = CellCondition::Kind::stack;
            out.color = Color::white;
            return true;
        case 'B':
            out.kind = CellCondition::Kind::stack;
            out.color = Color::black;
            return true;
        case 'X': out.kind = CellCondition::Kind::stack; return true;
        case 'R':
        case 'S':
        case 'r':
        case 's':
            out.kind = CellCondition::Kind::exact;
            out.exact = Stack(std::isupper(static_cast<unsigned char>(c)) ? Color::white : Color::black, c == 'R' || c == 'r',
                              c == 'S' || c == 's');
            return true;
        case '(': {
            int rounds = 0, squares = 0, upper = 0, lower = 0;
            while (!at_end() && peek() != ')') {
                const char l = text[i];
                if (l != 'R' && l != 'S' && l != 'r' && l != 's') return fail(i, "a stack holds only R S (white) or r s (black)");
                (l == 'R' || l == 'r' ? rounds : squares)++;
                (std::isupper(static_cast<unsigned char>(l)) ? upper : lower)++;
                ++i;
            }
            if (at_end()) return fail(start, "unclosed '('");
            ++i;
            if (upper && lower) return fail(start, "a stack holds pieces of one colour only");
            if (rounds + squares < 2 || rounds + squares > 3) return fail(start, "a stack in parentheses holds 2 or 3 pieces");
            out.kind = CellCondition::Kind::exact;
            out.exact = Stack(upper ? Color::white : Color::black, rounds, squares);
            return true;
        }
        case '[': {
            out.kind = CellCondition::Kind::stack;
            if (peek() == 'W' || peek() == 'B') out.color = text[i++] == 'W' ? Color::white : Color::black;
            while (!at_end() && peek() != ']') {
                const char what = text[i];
                int* target = what == 'r' ? &out.min_rounds
                    : what == 's'         ? &out.min_squares
                    : what == 'n'         ? &out.min_pieces
                                          : nullptr;
                if (!target)
                    return fail(i, "inside [ ] expected W or B first, then rN, sN or nN (at least N rounds, squares, pieces)");
                ++i;
                if (!number(*target, 0, 3)) return false;
            }
            if (at_end()) return fail(start, "unclosed '['");
            ++i;
            return true;
        }
        default: break;
        }
        return fail(start,
                    std::string("unknown cell '") + c + "': expected R S r s (..) . ? W B X [..]" +
                        (allow_empties ? " or a digit" : ""));
    }
};

int rounds_needed(const CellCondition& c) {
    if (c.kind == CellCondition::Kind::exact) return c.exact.rounds();
    return c.kind == CellCondition::Kind::stack ? c.min_rounds : 0;
}
int squares_needed(const CellCondition& c) {
    if (c.kind == CellCondition::Kind::exact) return c.exact.squares();
    return c.kind == CellCondition::Kind::stack ? c.min_squares : 0;
}
int pieces_needed(const CellCondition& c) {
    if (c.kind == CellCondition::Kind::exact) return c.exact.size();
    if (c.kind != CellCondition::Kind::stack) return 0;
    return std::max({1, c.min_pieces, c.min_rounds + c.min_squares});
}
std::optional<Color> color_needed(const CellCondition& c) {
    if (c.kind == CellCondition::Kind::exact) return c.exact.color();
    return c.kind == CellCondition::Kind::stack ? c.color : std::nullopt;
}

} // namespace

bool CellCondition::matches(Stack s) const {
    switch (kind) {
    case Kind::any: return true;
    case Kind::empty: return s.is_empty();
    case Kind::exact: return s == exact;
    case Kind::stack:
        return !s.is_empty() && (!color || s.color() == *color) && s.rounds() >= min_rounds && s.squares() >= min_squares &&
            s.size() >= min_pieces;
    }
    return false;
}

std::string CellCondition::text() const {
    switch (kind) {
    case Kind::any: return "?";
    case Kind::empty: return ".";
    case Kind::exact: return stack_text(exact);
    case Kind::stack: {
        if (!min_rounds && !min_squares && !min_pieces) return color ? (*color == Color::white ? "W" : "B") : "X";
        std::string t = "[";
        if (color) t += *color == Color::white ? 'W' : 'B';
        // Appends one piece at a time: GCC 12 warns falsely (-Wrestrict) on "r" + std::string.
        const auto bound = [&t](char what, int n) {
            if (!n) return;
            t += what;
            t += char('0' + n);
        };
        bound('r', min_rounds);
        bound('s', min_squares);
        bound('n', min_pieces);
        t += ']';
        return t;
    }
    }
    return "?";
}

bool count_holds(CountOp op, int n, int value) {
    switch (op) {
    case CountOp::ge: return n >= value;
    case CountOp::le: return n <= value;
    case CountOp::eq: return n == value;
    case CountOp::gt: return n > value;
    case CountOp::lt: return n < value;
    }
    return false;
}

std::string_view count_op_text(CountOp op) {
    static constexpr std::string_view ops[] = {">=", "<=", "=", ">", "<"};
    return ops[int(op)];
}

std::size_t read_count_op(std::string_view text, CountOp& op) {
    // Two-character operators first: ">=" is not ">" followed by "=".
    for (CountOp o : {CountOp::ge, CountOp::le, CountOp::eq, CountOp::gt, CountOp::lt})
        if (text.starts_with(count_op_text(o))) {
            op = o;
            return count_op_text(o).size();
        }
    return 0;
}

bool MaterialTerm::holds(int n) const { return count_holds(op, n, value); }

std::string MaterialTerm::text() const {
    std::string t;
    if (count == Count::stacks) {
        t = '#';
        t += cell.text();
    } else {
        t += color == Color::white ? 'W' : 'B';
        t += count == Count::rounds ? 'r' : count == Count::squares ? 's' : 'p';
    }
    t += count_op_text(op);
    t += std::to_string(value);
    return t;
}

namespace {

// A board term from p.i to `end`: ranks of 8 cells from the 8th, separated by '/'.
std::optional<PatternError> read_board(Parser& p, std::size_t end, std::array<CellCondition, 64>& cells) {
    int rank = 7, file = 0;
    while (p.i < end) {
        if (p.peek() == '/') {
            if (file != 8)
                return PatternError{int(p.i),
                                    "rank " + std::to_string(rank + 1) + " has " + std::to_string(file) + " cells, not 8"};
            if (rank == 0) return PatternError{int(p.i), "more than 8 ranks"};
            --rank;
            file = 0;
            ++p.i;
            continue;
        }
        const std::size_t at = p.i;
        CellCondition c;
        int run = 1;
        if (!p.cell(c, run, true)) return *p.error;
        if (file + run > 8) return PatternError{int(at), "rank " + std::to_string(rank + 1) + " has more than 8 cells"};
        for (int k = 0; k < run; ++k) cells[std::size_t(make_square(file++, rank))] = c;
    }
    if (p.i != end) return PatternError{int(p.i), "unexpected character in the board"};
    if (rank != 0 || file != 8) return PatternError{int(end), "a board has 8 ranks of 8 cells, separated by '/'"};
    return std::nullopt;
}

// A count term ("#[Wn3]>=2", "Wp>=10"), the token starting at p.i and ending at `end`.
std::variant<MaterialTerm, PatternError> read_material(Parser& p, std::string_view token, std::size_t end) {
    const std::size_t start = p.i;
    MaterialTerm term;
    if (p.peek() == '#') {
        ++p.i;
        term.count = MaterialTerm::Count::stacks;
        int run = 1;
        if (!p.cell(term.cell, run, false)) return *p.error;
        if (term.cell.kind != CellCondition::Kind::exact && term.cell.kind != CellCondition::Kind::stack)
            return PatternError{int(start + 1), "# counts stacks: follow it with a stack cell (R, (RS), W, B, X, [..])"};
    } else if (token.size() >= 2 && (token[0] == 'W' || token[0] == 'B') &&
               (token[1] == 'r' || token[1] == 's' || token[1] == 'p')) {
        term.color = token[0] == 'W' ? Color::white : Color::black;
        term.count = token[1] == 'r' ? MaterialTerm::Count::rounds
            : token[1] == 's'        ? MaterialTerm::Count::squares
                                     : MaterialTerm::Count::pieces;
        p.i += 2;
    } else {
        return PatternError{
            int(start),
            "unknown term '" + std::string(token) +
                "': expected a board (ranks separated by '/'), SQ=CELL, w, b, or a count such as #[Wn3]>=2 or Wp>=10"};
    }
    const std::size_t op_length = read_count_op(p.text.substr(p.i, end - p.i), term.op);
    if (op_length == 0) return PatternError{int(p.i), "expected a comparison: >= <= = > <"};
    p.i += op_length;
    if (!p.number(term.value, 0, 64)) return *p.error;
    if (p.i != end) return PatternError{int(p.i), "unexpected text after the number"};
    return term;
}

} // namespace

std::variant<Pattern, PatternError> Pattern::parse(std::string_view text) {
    Pattern pat;
    Parser p{text, 0, std::nullopt};
    bool any_term = false;
    // The board goes under the square terms, wherever it stands; two square
    // terms on one square must agree (every term holds in one position).
    std::optional<std::array<CellCondition, 64>> board;
    std::array<std::optional<CellCondition>, 64> squares{};
    while (true) {
        while (!p.at_end() && (std::isspace(static_cast<unsigned char>(p.peek())) || p.peek() == ';')) ++p.i;
        if (p.at_end()) break;
        std::size_t end = p.i;
        while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) && text[end] != ';') ++end;
        const std::string_view token = text.substr(p.i, end - p.i);
        any_term = true;
        const int at = int(p.i);
        if (token.find('/') != std::string_view::npos) { // a board
            if (board) return PatternError{at, "a second board: a pattern has at most one board"};
            board.emplace();
            if (auto e = read_board(p, end, *board)) return *e;
        } else if (token == "w" || token == "b") {
            const Color side = token == "w" ? Color::white : Color::black;
            if (pat.side_ && *pat.side_ != side)
                return PatternError{at, "the side to move is given twice, as w and as b: no position has both"};
            pat.side_ = side;
            p.i = end;
        } else if (token.size() >= 3 && token[2] == '=' && token[0] >= 'a' && token[0] <= 'h' && token[1] >= '1' &&
                   token[1] <= '8') {
            const Square sq = make_square(token[0] - 'a', token[1] - '1');
            p.i += 3;
            CellCondition c;
            int run = 1;
            if (!p.cell(c, run, false)) return *p.error;
            if (p.i != end) return PatternError{int(p.i), "unexpected text after the cell"};
            std::optional<CellCondition>& given = squares[std::size_t(sq)];
            if (given && given->text() != c.text())
                return PatternError{at, square_name(sq) + " is given twice, as " + given->text() + " and as " + c.text() +
                                            ": no position has both"};
            given = c;
        } else {
            auto term = read_material(p, token, end);
            if (auto* e = std::get_if<PatternError>(&term)) return *e;
            pat.terms_.push_back(std::get<MaterialTerm>(term));
        }
    }
    if (!any_term) return PatternError{0, "empty pattern"};
    if (board) pat.cells_ = *board;
    for (int sq = 0; sq < 64; ++sq)
        if (squares[std::size_t(sq)]) pat.cells_[std::size_t(sq)] = *squares[std::size_t(sq)];
    pat.finish();
    return pat;
}

void Pattern::finish() {
    empty_mask_ = white_mask_ = black_mask_ = occupied_mask_ = detail_mask_ = 0;
    for (int c = 0; c < 2; ++c) min_rounds_[c] = min_squares_[c] = min_pieces_[c] = 0;
    for (Square s = 0; s < 64; ++s) {
        const CellCondition& c = cells_[std::size_t(s)];
        const std::uint64_t bb = square_bb(s);
        switch (c.kind) {
        case CellCondition::Kind::any: break;
        case CellCondition::Kind::empty: empty_mask_ |= bb; break;
        case CellCondition::Kind::exact:
        case CellCondition::Kind::stack:
            if (auto col = color_needed(c)) (*col == Color::white ? white_mask_ : black_mask_) |= bb;
            else occupied_mask_ |= bb;
            if (c.kind == CellCondition::Kind::exact || c.min_rounds || c.min_squares || c.min_pieces) detail_mask_ |= bb;
            break;
        }
        if (auto col = color_needed(c)) {
            min_rounds_[index(*col)] += rounds_needed(c);
            min_squares_[index(*col)] += squares_needed(c);
            min_pieces_[index(*col)] += pieces_needed(c);
        }
    }
    for (const MaterialTerm& t : terms_) {
        const bool lower = t.op == MaterialTerm::Op::ge || t.op == MaterialTerm::Op::eq || t.op == MaterialTerm::Op::gt;
        if (!lower) continue;
        const int n = t.op == MaterialTerm::Op::gt ? t.value + 1 : t.value;
        if (t.count == MaterialTerm::Count::stacks) {
            if (auto col = color_needed(t.cell)) {
                const int c = index(*col);
                min_rounds_[c] = std::max(min_rounds_[c], n * rounds_needed(t.cell));
                min_squares_[c] = std::max(min_squares_[c], n * squares_needed(t.cell));
                min_pieces_[c] = std::max(min_pieces_[c], n * pieces_needed(t.cell));
            }
            continue;
        }
        const int c = index(t.color);
        int& bound = t.count == MaterialTerm::Count::rounds ? min_rounds_[c]
            : t.count == MaterialTerm::Count::squares       ? min_squares_[c]
                                                            : min_pieces_[c];
        bound = std::max(bound, n);
    }
    for (MaterialTerm& t : terms_) {
        t.weights.clear();
        for (int code = 1; code < stack_codes; ++code) {
            const Stack st = Stack::from_code(std::uint8_t(code));
            if (st.size() < 1 || st.size() > 3) continue;
            int w = 0;
            switch (t.count) {
            case MaterialTerm::Count::stacks: w = t.cell.matches(st); break;
            case MaterialTerm::Count::rounds: w = st.color() == t.color ? st.rounds() : 0; break;
            case MaterialTerm::Count::squares: w = st.color() == t.color ? st.squares() : 0; break;
            case MaterialTerm::Count::pieces: w = st.color() == t.color ? st.size() : 0; break;
            }
            if (w) t.weights.emplace_back(std::uint8_t(code), std::uint8_t(w));
        }
    }
    prunes_ = false;
    for (int c = 0; c < 2; ++c) {
        min_pieces_[c] = std::max(min_pieces_[c], min_rounds_[c] + min_squares_[c]);
        prunes_ |= min_pieces_[c] > 0;
    }
}

bool Pattern::matches(const Position& pos) const {
    if (side_ && pos.side_to_move() != *side_) return false;
    const std::uint64_t white = pos.occupancy(Color::white), black = pos.occupancy(Color::black);
    if ((white | black) & empty_mask_) return false;
    if ((white & white_mask_) != white_mask_ || (black & black_mask_) != black_mask_) return false;
    if (((white | black) & occupied_mask_) != occupied_mask_) return false;
    for (std::uint64_t b = detail_mask_; b; b &= b - 1) {
        const Square s = std::countr_zero(b);
        if (!cells_[std::size_t(s)].matches(pos.at(s))) return false;
    }
    for (const MaterialTerm& t : terms_) {
        int n = 0;
        for (const auto& [code, weight] : t.weights) n += weight * std::popcount(pos.stacks_of(Stack::from_code(code)));
        if (!t.holds(n)) return false;
    }
    return true;
}

bool Pattern::reachable(const Position& pos) const {
    for (Color c : {Color::white, Color::black}) {
        const int i = index(c);
        if (!min_pieces_[i]) continue;
        int rounds = 0, squares = 0;
        for (int r = 0; r <= 3; ++r)
            for (int q = 0; r + q <= 3; ++q) {
                if (r + q == 0) continue;
                const int n = std::popcount(pos.stacks_of(Stack(c, r, q)));
                rounds += n * r;
                squares += n * q;
            }
        if (rounds < min_rounds_[i] || squares < min_squares_[i] || rounds + squares < min_pieces_[i]) return false;
    }
    return true;
}

std::string Pattern::text() const {
    std::string t;
    // A few squares read better as SQ=CELL terms, many as a board; a pattern without any term is
    // written as a board of '?'.
    int constrained = 0;
    for (const CellCondition& c : cells_) constrained += c.kind != CellCondition::Kind::any;
    const bool board = constrained > 8 || (constrained == 0 && !side_ && terms_.empty());
    if (!board) {
        for (int rank = 7; rank >= 0; --rank)
            for (int file = 0; file < 8; ++file) {
                const CellCondition& c = cells_[std::size_t(make_square(file, rank))];
                if (c.kind == CellCondition::Kind::any) continue;
                if (!t.empty()) t += ' ';
                t += square_name(make_square(file, rank));
                t += '=';
                t += c.text();
            }
    }
    if (board) {
        for (int rank = 7; rank >= 0; --rank) {
            for (int file = 0; file < 8; ++file) t += cells_[std::size_t(make_square(file, rank))].text();
            if (rank) t += '/';
        }
    }
    const auto term = [&t](const std::string& x) {
        if (!t.empty()) t += ' ';
        t += x;
    };
    if (side_) term(*side_ == Color::white ? "w" : "b");
    for (const MaterialTerm& m : terms_) term(m.text());
    return t;
}

} // namespace gounki::db
