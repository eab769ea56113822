#include "parser/psq/openings.hpp"

#include <cctype>
#include <filesystem>
#include <sstream>

#include "core/stones/position.hpp"
#include "core/stones/rules.hpp"
#include "core/text.hpp"
#include "parser/five_rules.hpp"
#include "parser/renju/stone_line.hpp"
#include "parser/resolve.hpp" // shortened

namespace gounki::parser {

namespace {

// A line in pos notation: letters and row numbers with nothing between them (`d3e5f6`).
bool is_pos_line(std::string_view line) {
    const std::size_t first = line.find_first_not_of(" \t");
    return first != std::string_view::npos && std::isalpha(static_cast<unsigned char>(line[first]));
}

// A pos line's stones (`d3e5f6`: the column's letter from a, the row's number from 1 at the top),
// or a syntax error at a column.
bool parse_pos_line(std::string_view line, int line_number, int size, std::vector<StoneLineMove>& moves, int& column,
                    std::string& why) {
    std::size_t i = line.find_first_not_of(" \t");
    const std::size_t end = line.find_last_not_of(" \t") + 1;
    while (i < end) {
        const std::size_t start = i;
        const char letter = char(std::tolower(static_cast<unsigned char>(line[i])));
        std::size_t digits = ++i;
        while (i < end && std::isdigit(static_cast<unsigned char>(line[i])) && i - digits < 3) ++i;
        if (letter < 'a' || letter > 'z' || i == digits || line[digits] == '0' ||
            (i < end && std::isdigit(static_cast<unsigned char>(line[i]))))
            return column = int(start) + 1,
                   why = "a point (a column's letter and a row's number counted from 1 at the top, such as d3) expected", false;
        const int x = letter - 'a', y = std::stoi(std::string(line.substr(digits, i - digits))) - 1;
        StoneLineMove& m = moves.emplace_back();
        m.line = line_number;
        m.column = int(start) + 1;
        m.written = std::string(line.substr(start, i - start));
        if (x >= size || y >= size)
            m.why = "the point is off the " + std::to_string(size) + "x" + std::to_string(size) + " board (columns a to " +
                std::string(1, char('a' + size - 1)) + ", rows 1 to " + std::to_string(size) + " from the top)";
        else m.point = stones::point_from_top_left(x, y, size);
    }
    return true;
}

// A line of offsets: the opening's stones, or a syntax error at a column.
bool parse_offset_line(std::string_view line, int line_number, int size, std::vector<StoneLineMove>& moves, int& column,
                       std::string& why) {
    std::vector<std::pair<int, int>> numbers; // value, column
    std::size_t i = 0;
    bool expect_number = true;
    while (i < line.size()) {
        const char c = line[i];
        if (c == ' ' || c == '\t') {
            ++i;
            continue;
        }
        if (!expect_number) {
            // Between two stones a blank is enough (`0,0 1,1`, as engine-match programs also take).
            const bool next_stone = numbers.size() % 2 == 0 && i > 0 && (line[i - 1] == ' ' || line[i - 1] == '\t') &&
                (c == '-' || c == '+' || std::isdigit(static_cast<unsigned char>(c)));
            if (next_stone) {
                expect_number = true;
                continue;
            }
            if (c != ',') return column = int(i) + 1, why = "a comma between the numbers expected", false;
            expect_number = true;
            ++i;
            continue;
        }
        const std::size_t start = i;
        if (c == '-' || c == '+') ++i;
        const std::size_t digits = i;
        while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])) && i - digits < 4) ++i;
        if (i == digits || (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))))
            return column = int(start) + 1, why = "an offset from the centre (a whole number such as -3) expected", false;
        numbers.emplace_back(std::stoi(std::string(line.substr(start, i - start))), int(start) + 1);
        expect_number = false;
    }
    if (expect_number) return column = int(line.size()) + 1, why = "the line ends after a comma", false;
    if (numbers.size() % 2) return column = numbers.back().second, why = "an x offset without its y", false;
    const int centre = size / 2;
    for (std::size_t k = 0; k < numbers.size(); k += 2) {
        StoneLineMove& m = moves.emplace_back();
        const int x = numbers[k].first + centre, y = numbers[k + 1].first + centre;
        m.line = line_number;
        m.column = numbers[k].second;
        m.written = std::to_string(numbers[k].first) + "," + std::to_string(numbers[k + 1].first);
        if (x < 0 || y < 0 || x >= size || y >= size)
            m.why = "the point is off the " + std::to_string(size) + "x" + std::to_string(size) + " board (offsets from " +
                std::to_string(-centre) + " to " + std::to_string(size - 1 - centre) + " from its centre)";
        else m.point = stones::point_from_top_left(x, y, size);
    }
    return true;
}

// The board and rule a list's file name gives (openings.hpp).
struct ListRules {
    GameKind kind = GameKind::gomoku;
    stones::Rules rules = stones::Rules::defaults(GameKind::gomoku);
    std::string size_error; // not empty: the name gives a size the game does not have
};

// The line that starts at `at` in `text`, without its line end (LF or CRLF); `at` moves past it.
std::string_view take_line(std::string_view text, std::size_t& at) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
}

// Whether a stone of the list lies off the 15x15 board (an offset beyond 7, a column after o, a row
// after 15): then the list can only be of a larger board.
bool reaches_beyond_15(std::string_view text) {
    std::vector<StoneLineMove> moves;
    int column = 0;
    std::string why;
    for (std::size_t at = 0; at < text.size();) {
        const std::string_view line = take_line(text, at);
        if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
        moves.clear();
        (is_pos_line(line) ? parse_pos_line : parse_offset_line)(line, 0, 15, moves, column, why);
        for (const StoneLineMove& m : moves)
            if (!m.why.empty()) return true;
    }
    return false;
}

// beyond_15: reaches_beyond_15 of the whole list, which decides a freestyle list's board when its
// name gives none.
ListRules rules_of_list(const std::string& file, bool beyond_15) {
    std::string stem = std::filesystem::path(file).stem().string();
    for (char& c : stem) c = char(std::tolower(static_cast<unsigned char>(c)));
    ListRules out;
    const bool renju = stem.find("renju") != std::string::npos, standard = stem.find("standard") != std::string::npos;
    const FiveRuleChoice choice = choose_five_rules(renju ? "renju" : standard ? "standard" : "freestyle");
    out.kind = choice.kind;
    out.rules = stones::Rules::defaults(choice.kind);
    if (!choice.rules_tag.empty()) stones::apply_rules_tag(out.rules, choice.rules_tag);
    std::string size;
    const std::size_t digit = stem.find_first_of("0123456789");
    if (digit != std::string::npos) size = stem.substr(digit, stem.find_first_not_of("0123456789", digit) - digit);
    else if (!renju && !standard && (stem.find("freestyle") != std::string::npos || beyond_15)) size = "20";
    if (!size.empty() && stones::apply_size_tag(out.rules, size))
        out.size_error = "the file's name gives a " + size + "x" + size + " board; gounki plays " +
            std::string(game_kind_name(out.kind)) + " on " + sizes_text(out.kind) + " points a side";
    return out;
}

} // namespace

bool OpeningsReader::next(GameRecord& game) {
    if (!in_) return false;
    if (!loaded_) {
        loaded_ = true;
        if (!read_whole(text_, max_bytes, "an opening list holds a few dozen lines; not read")) return false;
        if (text_.starts_with("\xEF\xBB\xBF")) at_ = 3;
        beyond_15_ = reaches_beyond_15(std::string_view(text_).substr(at_));
    }
    while (at_ < text_.size()) {
        const std::string_view line = take_line(text_, at_);
        ++line_;
        if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
        game.clear();
        game.file = name_;
        game.number = ++games_;
        game.line = line_;
        game.column = 1;
        const ListRules list = rules_of_list(name_, beyond_15_);
        game.set_kind(list.kind);
        game.set_start(stones::StonePosition(list.rules));
        game.tags.emplace_back("Game", std::string(game_kind_name(list.kind)));
        if (list.rules.size != stones::Rules::defaults(list.kind).size) game.tags.emplace_back("Size", std::to_string(list.rules.size));
        if (const std::string r = stones::rules_tag_text(list.rules); !r.empty()) game.tags.emplace_back("Rules", r);
        std::vector<StoneLineMove> moves;
        StoneLineMove at;
        at.line = line_;
        std::string why;
        bool whole = false;
        stones::StonePosition pos = game.start.as_stones();
        if (!list.size_error.empty()) {
            at.column = 1;
            add_line_diagnostic(game, Severity::error, "bad-rules", at, list.size_error + "; the stones are not placed");
        } else if (const bool pos_line = is_pos_line(line);
                   !(pos_line ? parse_pos_line : parse_offset_line)(line, line_, list.rules.size, moves, at.column, why)) {
            add_line_diagnostic(game, Severity::error, "syntax", at,
                                "'" + shortened(std::string(line)) + "' is no opening (" +
                                    (pos_line ? "points such as d3e5 in pos notation" : "x,y offsets from the centre, separated by commas") +
                                    "): " + why + "; the stones are not placed");
        } else {
            whole = replay_stone_line(game, moves, pos);
        }
        settle_stone_result(game, pos, "*", moves.empty() ? at : moves.back());
        game.tags.emplace_back("Result", game.result);
        game.status = !whole ? GameStatus::partial : game.error_count() > 0 ? GameStatus::invalid : GameStatus::valid;
        return true;
    }
    return false;
}

std::vector<GameRecord> read_openings(std::string_view text, const std::string& name, std::vector<Diagnostic>* file_diagnostics) {
    std::istringstream in{std::string(text)};
    OpeningsReader reader(in, name);
    std::vector<Diagnostic> ignored;
    return read_all(reader, file_diagnostics ? file_diagnostics : &ignored);
}

bool claims_openings(std::string_view head) {
    std::string_view first = head.substr(0, head.find_first_of("\r\n"));
    if (first.starts_with("\xEF\xBB\xBF")) first.remove_prefix(3);
    const std::size_t from = first.find_first_not_of(" \t");
    if (from == std::string_view::npos) return false;
    first = first.substr(from, first.find_last_not_of(" \t") + 1 - from);
    if (std::isalpha(static_cast<unsigned char>(first[0]))) { // pos notation: two points or more, nothing between them
        int points = 0;
        for (std::size_t i = 0; i < first.size(); ++points) {
            if (!std::isalpha(static_cast<unsigned char>(first[i++]))) return false;
            const std::size_t digits = i;
            while (i < first.size() && std::isdigit(static_cast<unsigned char>(first[i]))) ++i;
            if (i == digits || i - digits > 2) return false;
        }
        return points >= 2;
    }
    if (first.find(',') == std::string_view::npos || first.find_first_of("0123456789") == std::string_view::npos) return false;
    return first.find_first_not_of("0123456789-+, \t") == std::string_view::npos;
}

std::string openings_cannot_hold(const GameRecord&) { return "gounki reads Gomocup opening lists but does not write them"; }

} // namespace gounki::parser
