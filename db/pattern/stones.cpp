#include "db/pattern/stones.hpp"

#include <algorithm>
#include <cctype>

#include "core/stones/symmetry.hpp"

namespace gounki::db {

namespace {

using stones::Stone;

constexpr int max_count = stones::point_count; // no count of a stone game goes past 400 (20x20)

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
char lower(char c) { return char(std::tolower(static_cast<unsigned char>(c))); }

bool equals_lower(std::string_view a, std::string_view lower_b) {
    if (a.size() != lower_b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower_b[i]) return false;
    return true;
}

std::optional<StoneCell> cell_of(char c) {
    switch (c) {
    case 'x':
    case 'X': return StoneCell::black;
    case 'o':
    case 'O': return StoneCell::white;
    case '.': return StoneCell::empty;
    case '?': return StoneCell::any;
    case '*': return StoneCell::stone;
    default: return std::nullopt;
    }
}

constexpr std::uint8_t bit(Stone s) { return std::uint8_t(1u << unsigned(s)); }

// What stands on the point of `pos` where the pattern's `point` goes, the pattern turned by `symmetry`.
Stone stone_under(const stones::StonePosition& pos, int point, int symmetry) {
    return pos.at(symmetry ? stones::transformed_point(point, symmetry, pos.size()) : point);
}

std::uint8_t allowed_stones(StoneCell c) {
    switch (c) {
    case StoneCell::any: return bit(Stone::empty) | bit(Stone::black) | bit(Stone::white);
    case StoneCell::empty: return bit(Stone::empty);
    case StoneCell::black: return bit(Stone::black);
    case StoneCell::white: return bit(Stone::white);
    case StoneCell::stone: return bit(Stone::black) | bit(Stone::white);
    }
    return 0;
}

// Messages are built by appending: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
void append(std::string& s, std::string_view v) { s += v; }
void append(std::string& s, char c) { s += c; }
void append(std::string& s, int n) { s += std::to_string(n); }
template <class... Parts>
std::string cat(const Parts&... parts) {
    std::string s;
    (append(s, parts), ...);
    return s;
}

std::string size_text(int n) { return cat(n, 'x', n); }

// One term of the text: where it starts and ends.
struct Token {
    std::string_view text;
    std::size_t column;
};

std::optional<PatternError> parse_board(const Token& t, GameKind kind, std::array<StoneCell, stones::point_count>& cells,
                                        int& size) {
    const auto fail = [&t](std::size_t at, std::string message) { return PatternError{int(t.column + at), std::move(message)}; };
    const int ranks = int(std::count(t.text.begin(), t.text.end(), '/')) + 1;
    if (!game_info(kind).has_size(ranks))
        return fail(
            0, cat("a ", game_kind_name(kind), " board has ", sizes_text(kind), " ranks separated by '/', this one has ", ranks));
    size = ranks;
    cells.fill(StoneCell::any);
    int rank = size - 1, file = 0;
    for (std::size_t i = 0; i < t.text.size(); ++i) {
        const char c = t.text[i];
        if (c == '/') {
            if (file != size) return fail(i, cat("rank ", rank + 1, " has ", file, " cells, not ", size));
            --rank;
            file = 0;
            continue;
        }
        if (is_digit(c)) {
            if (c == '0') return fail(i, cat("a run of empty points is a number from 1 to ", size));
            int run = 0;
            std::size_t j = i;
            while (j < t.text.size() && is_digit(t.text[j]) && run <= size) run = run * 10 + (t.text[j++] - '0');
            if (file + run > size) return fail(i, cat("rank ", rank + 1, " has more than ", size, " cells"));
            for (int k = 0; k < run; ++k) cells[std::size_t(stones::make_point(file++, rank))] = StoneCell::empty;
            i = j - 1;
            continue;
        }
        const std::optional<StoneCell> cell = cell_of(c);
        if (!cell)
            return fail(
                i, cat("unknown cell '", c, "' in the board: expected x o . ? * or a number of empty points, '/' between ranks"));
        if (file >= size) return fail(i, cat("rank ", rank + 1, " has more than ", size, " cells"));
        cells[std::size_t(stones::make_point(file++, rank))] = *cell;
    }
    if (file != size) return fail(t.text.size(), cat("rank 1 has ", file, " cells, not ", size));
    return std::nullopt;
}

std::optional<StoneCountTerm::Count> count_named(std::string_view name) {
    if (equals_lower(name, "bc")) return StoneCountTerm::Count::black_captured;
    if (equals_lower(name, "wc")) return StoneCountTerm::Count::white_captured;
    if (equals_lower(name, "bs")) return StoneCountTerm::Count::black_stones;
    if (equals_lower(name, "ws")) return StoneCountTerm::Count::white_stones;
    return std::nullopt;
}

// "Bc<=4" and the like; the count's name is the token's first two characters.
std::variant<StoneCountTerm, PatternError> parse_count(const Token& t, StoneCountTerm::Count count) {
    StoneCountTerm term;
    term.count = count;
    std::size_t i = 2;
    const std::string_view rest = t.text.substr(i);
    const auto fail = [&t](std::size_t at, std::string message) { return PatternError{int(t.column + at), std::move(message)}; };
    const std::size_t op_length = read_count_op(rest, term.op);
    if (op_length == 0) return fail(i, cat("expected a comparison after ", t.text.substr(0, 2), ": >= <= = > <"));
    i += op_length;
    const std::size_t start = i;
    int v = 0;
    while (i < t.text.size() && is_digit(t.text[i]) && v <= max_count) v = v * 10 + (t.text[i++] - '0');
    if (i == start) return fail(start, "expected a number after the comparison");
    if (v > max_count) return fail(start, cat("the number must be from 0 to ", max_count));
    if (i != t.text.size()) return fail(i, "unexpected text after the number");
    term.value = v;
    return term;
}

// The terms of a pattern: runs of text between blanks and ';', with their columns.
std::vector<Token> tokens_of(std::string_view text) {
    std::vector<Token> tokens;
    for (std::size_t i = 0; i < text.size();) {
        if (is_space(text[i]) || text[i] == ';') {
            ++i;
            continue;
        }
        const std::size_t start = i;
        while (i < text.size() && !is_space(text[i]) && text[i] != ';') ++i;
        tokens.push_back({text.substr(start, i - start), start});
    }
    return tokens;
}

// A point term `h8=x`, its point read against the largest board of `kind` (the pattern's own board
// may come later).
struct PointTerm {
    int point;
    StoneCell cell;
    std::size_t column;
};
std::variant<PointTerm, PatternError> parse_point_term(const Token& t, GameKind kind) {
    const auto fail = [&t](std::size_t at, std::string message) { return PatternError{int(t.column + at), std::move(message)}; };
    const std::size_t eq = std::min(t.text.find('='), t.text.size());
    const std::string_view name = t.text.substr(0, eq);
    const int largest = game_info(kind).largest_size();
    const int p = stones::parse_point(name, largest);
    if (p == stones::no_point)
        return fail(0, cat("'", name, "' is not a point of ", game_kind_name(kind), ": files a to ", char('a' + largest - 1),
                           ", ranks 1 to ", largest, ", e.g. h8 or j10"));
    if (eq == t.text.size()) return fail(eq, "expected '=' and a cell (x o . ? *) after the point");
    if (eq + 1 >= t.text.size()) return fail(eq + 1, "expected a cell after '=': x o . ? *");
    const std::optional<StoneCell> cell = cell_of(t.text[eq + 1]);
    if (!cell) return fail(eq + 1, cat("unknown cell '", t.text[eq + 1], "': expected x o . ? *"));
    if (eq + 2 != t.text.size()) return fail(eq + 2, "unexpected text after the cell");
    return PointTerm{p, *cell, t.column};
}

} // namespace

char stone_cell_char(StoneCell c) {
    switch (c) {
    case StoneCell::any: return '?';
    case StoneCell::empty: return '.';
    case StoneCell::black: return 'x';
    case StoneCell::white: return 'o';
    case StoneCell::stone: return '*';
    }
    return '?';
}

bool StoneCountTerm::holds(int n) const { return count_holds(op, n, value); }

bool StoneCountTerm::exceeded(int n) const {
    switch (op) {
    case Op::le:
    case Op::eq: return n > value;
    case Op::lt: return n >= value;
    case Op::ge:
    case Op::gt: return false;
    }
    return false;
}

std::string StoneCountTerm::text() const {
    static const char* const names[] = {"Bc", "Wc", "Bs", "Ws"};
    std::string t = names[int(count)];
    t += count_op_text(op);
    t += std::to_string(value);
    return t;
}

std::variant<StonePattern, PatternError> StonePattern::parse(std::string_view text) {
    const std::vector<Token> tokens = tokens_of(text);
    if (tokens.empty()) return PatternError{0, cat("empty pattern: expected the game first: ", game_ids_text(Family::stones))};

    StonePattern pat;
    if (const auto kind = parse_game_kind(tokens[0].text, Family::stones)) pat.kind_ = *kind;
    else
        return PatternError{int(tokens[0].column),
                            cat("expected the game first (", game_ids_text(Family::stones), "), not '", tokens[0].text, "'")};

    // Point terms are read against the 19x19 board and checked against the pattern's board at the end,
    // so a board may come after them. The board goes under the point terms wherever it stands; two
    // terms on one point must ask the same (every term holds in one position).
    std::vector<PointTerm> points;
    std::array<StoneCell, stones::point_count> board{};
    std::size_t board_column = 0;
    for (std::size_t k = 1; k < tokens.size(); ++k) {
        const Token& t = tokens[k];
        const auto fail = [&t](std::size_t at, std::string message) {
            return PatternError{int(t.column + at), std::move(message)};
        };

        if (t.text.find('/') != std::string_view::npos) {
            if (pat.size_) return fail(0, "a second board: a pattern has at most one board");
            int size = 0;
            if (auto e = parse_board(t, pat.kind_, board, size)) return *e;
            pat.size_ = size;
            board_column = t.column;
            continue;
        }
        if (t.text.size() == 1 && (lower(t.text[0]) == 'b' || lower(t.text[0]) == 'w')) {
            const Color c = lower(t.text[0]) == 'b' ? Color::black : Color::white;
            if (pat.side_ && *pat.side_ != c) return fail(0, "the side to move is already given as the other side");
            pat.side_ = c;
            continue;
        }
        if (t.text.size() >= 2 && count_named(t.text.substr(0, 2))) {
            const StoneCountTerm::Count count = *count_named(t.text.substr(0, 2));
            if (!stones::Rules::defaults(pat.kind_).captures() &&
                (count == StoneCountTerm::Count::black_captured || count == StoneCountTerm::Count::white_captured))
                return fail(0, cat(game_kind_name(pat.kind_), " has no captures: Bc and Wc are for games with captures"));
            auto term = parse_count(t, count);
            if (auto* e = std::get_if<PatternError>(&term)) return *e;
            pat.terms_.push_back(std::get<StoneCountTerm>(term));
            continue;
        }
        if (t.text.size() >= 2 && std::isalpha(static_cast<unsigned char>(t.text[0])) && is_digit(t.text[1])) {
            auto term = parse_point_term(t, pat.kind_);
            if (auto* e = std::get_if<PatternError>(&term)) return *e;
            const PointTerm& pt = std::get<PointTerm>(term);
            for (const PointTerm& given : points)
                if (given.point == pt.point && given.cell != pt.cell)
                    return fail(0, cat(stones::point_name(pt.point), " is given twice, as ", stone_cell_char(given.cell),
                                       " and as ", stone_cell_char(pt.cell), ": no position has both"));
            points.push_back(pt);
            continue;
        }
        return fail(0,
                    cat("unknown term '", t.text,
                        "': expected a board (ranks separated by '/'), a point such as h8=x, b, w, or a count such as Bs>=5"));
    }

    if (pat.size_) {
        for (const PointTerm& pt : points)
            if (stones::point_file(pt.point) >= *pat.size_ || stones::point_rank(pt.point) >= *pat.size_)
                return PatternError{int(pt.column),
                                    cat("'", stones::point_name(pt.point), "' is off the ", size_text(*pat.size_),
                                        " board given at column ", int(board_column))};
    }
    if (pat.size_) pat.cells_ = board;
    for (const PointTerm& pt : points) pat.cells_[std::size_t(pt.point)] = pt.cell;
    pat.finish();
    return pat;
}

void StonePattern::finish() {
    checks_.clear();
    int stones = 0, black = 0, white = 0;
    extent_ = 0;
    for (int pass = 0; pass < 2; ++pass) // the stones first, then the empty points
        for (int p = 0; p < stones::point_count; ++p) {
            const StoneCell c = cells_[std::size_t(p)];
            if (c == StoneCell::any || (c == StoneCell::empty) != (pass == 1)) continue;
            checks_.push_back({std::int16_t(p), allowed_stones(c)});
            extent_ = std::max({extent_, stones::point_file(p) + 1, stones::point_rank(p) + 1});
            stones += c != StoneCell::empty;
            black += c == StoneCell::black;
            white += c == StoneCell::white;
        }
    // Lower bounds on Bs and Ws raise the fewest stones a matching board has.
    for (const StoneCountTerm& t : terms_) {
        if (t.op != StoneCountTerm::Op::ge && t.op != StoneCountTerm::Op::gt && t.op != StoneCountTerm::Op::eq) continue;
        const int n = t.op == StoneCountTerm::Op::gt ? t.value + 1 : t.value;
        if (t.count == StoneCountTerm::Count::black_stones) black = std::max(black, n);
        if (t.count == StoneCountTerm::Count::white_stones) white = std::max(white, n);
    }
    min_stones_ = std::max(stones, black + white);

    prunes_ = false;
    const bool no_captures = !stones::Rules::defaults(kind_).captures(); // stones never leave the board
    for (const StoneCountTerm& t : terms_) {
        const bool captured =
            t.count == StoneCountTerm::Count::black_captured || t.count == StoneCountTerm::Count::white_captured;
        const bool upper = t.op == StoneCountTerm::Op::le || t.op == StoneCountTerm::Op::lt || t.op == StoneCountTerm::Op::eq;
        prunes_ |= upper && (captured || no_captures);
    }
    if (no_captures)
        for (const Check& c : checks_) prunes_ |= c.allowed != allowed_stones(StoneCell::stone);
}

int StonePattern::count_of(StoneCountTerm::Count c, const stones::StonePosition& pos, int& black_stones) const {
    switch (c) {
    case StoneCountTerm::Count::black_captured: return pos.captured(Color::black);
    case StoneCountTerm::Count::white_captured: return pos.captured(Color::white);
    case StoneCountTerm::Count::black_stones:
    case StoneCountTerm::Count::white_stones:
        // The position keeps only the total; count the black stones once per call.
        if (black_stones < 0) {
            black_stones = 0;
            for (int p = 0; p < stones::point_count; ++p) black_stones += pos.at(p) == Stone::black;
        }
        return c == StoneCountTerm::Count::black_stones ? black_stones : pos.stone_count() - black_stones;
    }
    return 0;
}

bool StonePattern::matches(const stones::StonePosition& pos, int symmetry) const {
    if (pos.rules().kind != kind_) return false;
    if (size_ ? pos.size() != *size_ : pos.size() < extent_) return false;
    if (side_ && pos.side_to_move() != *side_) return false;
    if (pos.stone_count() < min_stones_) return false;
    for (const Check& c : checks_)
        if (!((c.allowed >> unsigned(stone_under(pos, c.point, symmetry))) & 1u)) return false;
    int black_stones = -1;
    for (const StoneCountTerm& t : terms_)
        if (!t.holds(count_of(t.count, pos, black_stones))) return false;
    return true;
}

bool StonePattern::reachable(const stones::StonePosition& pos, int symmetry) const {
    if (pos.rules().kind != kind_) return false;
    if (size_ ? pos.size() != *size_ : pos.size() < extent_) return false;
    if (!prunes_) return true;
    const bool no_captures = !stones::Rules::defaults(kind_).captures(); // stones never leave the board
    int black_stones = -1;
    for (const StoneCountTerm& t : terms_) {
        const bool captured =
            t.count == StoneCountTerm::Count::black_captured || t.count == StoneCountTerm::Count::white_captured;
        if ((captured || no_captures) && t.exceeded(count_of(t.count, pos, black_stones))) return false;
    }
    if (no_captures)
        for (const Check& c : checks_) {
            const Stone s = stone_under(pos, c.point, symmetry);
            if (s != Stone::empty && !((c.allowed >> unsigned(s)) & 1u)) return false;
        }
    return true;
}

std::string StonePattern::text() const {
    std::string t(game_kind_name(kind_));
    if (size_) {
        t += ' ';
        for (int rank = *size_ - 1; rank >= 0; --rank) {
            int run = 0;
            for (int file = 0; file < *size_; ++file) {
                const StoneCell c = cells_[std::size_t(stones::make_point(file, rank))];
                if (c == StoneCell::empty) {
                    ++run;
                    continue;
                }
                if (run) t += std::to_string(run);
                run = 0;
                t += stone_cell_char(c);
            }
            if (run) t += std::to_string(run);
            if (rank) t += '/';
        }
    } else {
        for (int rank = stones::max_size - 1; rank >= 0; --rank)
            for (int file = 0; file < stones::max_size; ++file) {
                const int p = stones::make_point(file, rank);
                if (cells_[std::size_t(p)] == StoneCell::any) continue;
                t += ' ';
                t += stones::point_name(p);
                t += '=';
                t += stone_cell_char(cells_[std::size_t(p)]);
            }
    }
    if (side_) t += *side_ == Color::black ? " b" : " w";
    for (const StoneCountTerm& m : terms_) {
        t += ' ';
        t += m.text();
    }
    return t;
}

} // namespace gounki::db
