#include "core/gounki/position_lc4.hpp"

#include <array>
#include <optional>

namespace gounki {

namespace {

struct Pieces {
    int rounds = 0;
    int squares = 0;
};

// The stack of each digit 1-9 (index 0 unused: V0 is the empty square).
constexpr std::array<Pieces, 10> digit_stack = {{
    {0, 0},
    {0, 1},
    {1, 0},
    {0, 2},
    {2, 0},
    {0, 3},
    {3, 0},
    {1, 1},
    {1, 2},
    {2, 1},
}};

char digit_of(Stack st) {
    for (int d = 1; d <= 9; ++d)
        if (digit_stack[std::size_t(d)].rounds == st.rounds() && digit_stack[std::size_t(d)].squares == st.squares())
            return char('0' + d);
    return '?'; // not reached: the nine digits are every stack of 1 to 3 pieces
}

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view trimmed(std::string_view line) {
    while (!line.empty() && blank(line.front())) line.remove_prefix(1);
    while (!line.empty() && blank(line.back())) line.remove_suffix(1);
    return line;
}

std::string_view without_bom(std::string_view text) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    return text;
}

// Calls f(line_number, trimmed_line) for each line; stops when f returns false.
template <class F>
void for_each_line(std::string_view text, F&& f) {
    int number = 0;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        const std::string_view line = text.substr(0, end);
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
        if (!f(++number, trimmed(line))) return;
    }
}

bool cell_letter(char c) {
    switch (c) {
    case 'V':
    case 'v':
    case 'B':
    case 'b':
    case 'N':
    case 'n': return true;
    default: return false;
    }
}

bool is_cell_shape(std::string_view t) { return t.size() == 2 && cell_letter(t[0]) && t[1] >= '0' && t[1] <= '9'; }

// The line between quotes, shortened, with control bytes escaped.
std::string quote(std::string_view line) {
    constexpr std::size_t longest = 24;
    std::string out = "'";
    for (std::size_t i = 0; i < line.size() && i < longest; ++i) {
        const auto c = static_cast<unsigned char>(line[i]);
        if (c < 32 || c == 127) {
            static constexpr char hex[] = "0123456789abcdef";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += char(c);
        }
    }
    if (line.size() > longest) out += "...";
    return out + "'";
}

std::string cells_text(int n) { return std::to_string(n) + (n == 1 ? " cell" : " cells"); }

} // namespace

bool looks_like_lc4(std::string_view text, std::string_view file_name) {
    if (file_name.size() > 4) {
        const std::string_view ext = file_name.substr(file_name.size() - 4);
        if (ext[0] == '.' && (ext[1] | 0x20) == 'l' && (ext[2] | 0x20) == 'c' && ext[3] == '4') return true;
    }
    bool cell = false;
    for_each_line(without_bom(text), [&](int, std::string_view line) {
        if (line.empty() || line.front() == '#') return true;
        cell = is_cell_shape(line);
        return false;
    });
    return cell;
}

std::string position_to_lc4(const Position& pos) {
    std::string out;
    out.reserve(64 * 3);
    for (Square s = 0; s < 64; ++s) {
        const Stack st = pos.at(s);
        if (st.is_empty()) {
            out += "V0\n";
        } else {
            out += st.color() == Color::white ? 'B' : 'N';
            out += digit_of(st);
            out += '\n';
        }
    }
    return out;
}

std::variant<Position, PositionFileError> position_from_lc4(std::string_view text, Color side) {
    using Result = std::variant<Position, PositionFileError>;
    Position p;
    std::optional<PositionFileError> error;
    auto fail = [&](int line, std::string message) {
        error = PositionFileError{line, std::move(message)};
        return false;
    };
    static constexpr const char* colour_names[2] = {"White", "Black"};
    int count[2][2] = {{0, 0}, {0, 0}}; // [colour][0] rounds, [colour][1] squares
    int cells = 0;
    int first_cell_line = 0, first_extra_line = 0, last_line = 0, blank_line = 0;
    for_each_line(without_bom(text), [&](int number, std::string_view line) {
        if (line.empty()) {
            if (cells > 0 && blank_line == 0) blank_line = number;
            return true;
        }
        last_line = number;
        if (cells == 0 && line.front() == '#') return true; // a header line
        if (!is_cell_shape(line)) {
            std::string message = quote(line) + " is not a cell (V0, or B/N and a digit 1-9)";
            if (line.front() == '#') message += "; a '#' header line goes before the cells";
            return fail(number, std::move(message));
        }
        const char letter = char(line[0] & ~0x20); // uppercase
        const int digit = line[1] - '0';
        if (letter == 'V' && digit != 0) return fail(number, quote(line) + " is not a cell: an empty square is V0");
        if (letter != 'V' && digit == 0)
            return fail(number,
                        quote(line) + " is not a cell: " + letter + " takes a digit 1-9 (0 is only for V0, an empty square)");
        if (cells >= 64) {
            if (first_extra_line == 0) first_extra_line = number;
            ++cells;
            return true;
        }
        if (blank_line != 0)
            return fail(blank_line,
                        "empty line after the cell of " + square_name(Square(cells - 1)) +
                            "; a position file has one cell on each line, with no gap");
        if (cells == 0) first_cell_line = number;
        const Square s = Square(cells++);
        if (letter == 'V') return true;
        const Color c = letter == 'B' ? Color::white : Color::black;
        const Pieces pieces = digit_stack[std::size_t(digit)];
        int* have = count[index(c)];
        have[0] += pieces.rounds;
        have[1] += pieces.squares;
        if (have[0] > 8 || have[1] > 8)
            return fail(number,
                        std::string(colour_names[index(c)]) + " has more than 8 " + (have[0] > 8 ? "rounds" : "squares") +
                            " (at " + square_name(s) + ")");
        p.put(s, Stack(c, pieces.rounds, pieces.squares));
        return true;
    });
    if (error) return Result(std::move(*error));
    if (cells != 64) {
        const std::string message = cells_text(cells) + "; a position file has 64, one per square from a1 to h8";
        return Result(PositionFileError{cells > 64 ? first_extra_line : last_line + 1, message});
    }
    if (p.occupancy() == 0) return Result(PositionFileError{first_cell_line, "the board is empty"});
    p.set_side_to_move(side);
    p.update_outcome_from_material();
    return Result(std::move(p));
}

} // namespace gounki
