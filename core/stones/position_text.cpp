// A stone position's text (core/stones/position.hpp): written by to_text, read by from_text.
#include <charconv>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/stones/position.hpp"
#include "core/text.hpp"

namespace gounki::stones {

bool is_stone_position_text(std::string_view text) {
    text = trim(text);
    return parse_game_kind(text.substr(0, text.find(' ')), Family::stones).has_value();
}

std::string StonePosition::to_text() const {
    std::string s(game_kind_name(rules_.kind));
    s += ' ';
    s += std::to_string(size());
    s += ' ';
    for (int r = size() - 1; r >= 0; --r) {
        int run = 0;
        for (int f = 0; f < size(); ++f) {
            const Stone st = at(make_point(f, r));
            if (st == Stone::empty) {
                ++run;
                continue;
            }
            if (run) s += std::to_string(run);
            run = 0;
            s += st == Stone::black ? 'x' : 'o';
        }
        if (run) s += std::to_string(run);
        if (r) s += '/';
    }
    s += side_ == Color::black ? " b" : " w";
    if (rules_.captures())
        for (Color c : {Color::black, Color::white}) {
            s += ' ';
            s += std::to_string(captured_[index(c)]);
        }
    if (const std::string options = rules_tag_text(rules_); !options.empty()) {
        s += ' ';
        s += options;
    }
    if (pending_) s += pending_ == 1 + index(Color::black) ? " pending-black" : " pending-white";
    return s;
}

namespace {

struct Token {
    std::string_view text;
    int column;
};

std::vector<Token> tokens_of(std::string_view text) {
    std::vector<Token> tokens;
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] == ' ' || text[i] == '\t') {
            ++i;
            continue;
        }
        const std::size_t start = i;
        while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
        tokens.push_back({text.substr(start, i - start), int(start)});
    }
    return tokens;
}

// The stones of a board token (ranks from the top, 'x' black, 'o' white, digits for runs of empty
// points, '/' between ranks) on an n x n board; the error says where the token breaks.
std::optional<PositionError> read_board(const Token& b, int n, std::vector<std::pair<int, Stone>>& stones) {
    auto fail = [](int column, std::string message) { return PositionError{column, std::move(message)}; };
    int rank = n - 1, file = 0;
    for (std::size_t i = 0; i < b.text.size(); ++i) {
        const char c = b.text[i];
        const int col = b.column + int(i);
        if (c == '/') {
            if (file != n)
                return fail(col,
                            "rank " + std::to_string(rank + 1) + " has " + std::to_string(file) + " points, expected " +
                                std::to_string(n));
            if (rank == 0) return fail(col, "more than " + std::to_string(n) + " ranks");
            --rank;
            file = 0;
        } else if (c >= '0' && c <= '9') {
            int run = 0;
            std::size_t j = i;
            while (j < b.text.size() && b.text[j] >= '0' && b.text[j] <= '9') {
                if (run <= point_count) run = run * 10 + (b.text[j] - '0'); // no overflow: too long anyway
                ++j;
            }
            if (run == 0 || file + run > n)
                return fail(col,
                            "a run of " + std::to_string(run) + " empty points does not fit in rank " + std::to_string(rank + 1));
            file += run;
            i = j - 1;
        } else if (c == 'x' || c == 'X' || c == 'o' || c == 'O') {
            if (file >= n) return fail(col, "rank " + std::to_string(rank + 1) + " has more than " + std::to_string(n) + " points");
            stones.emplace_back(make_point(file++, rank), (c | 0x20) == 'x' ? Stone::black : Stone::white);
        } else {
            return fail(col,
                        std::string("unexpected character '") + c +
                            "' in the board ('x' black, 'o' white, digits for empty points, '/' between ranks)");
        }
    }
    if (file != n || rank != 0)
        return fail(b.column + int(b.text.size()),
                    "the board ends early: expected " + std::to_string(n) + " ranks of " + std::to_string(n) + " points");
    return std::nullopt;
}

// The captured counts, Black's then White's, from tokens[next...] (next moves past them).
std::optional<PositionError> read_captured(const std::vector<Token>& tokens, std::size_t& next, int end_column, int (&counts)[2]) {
    for (Color c : {Color::black, Color::white}) {
        if (tokens.size() <= next)
            return PositionError{end_column, std::string("the number of stones captured by ") +
                                     (c == Color::black ? "Black" : "White") + " is missing"};
        int v = -1;
        const auto t = tokens[next].text;
        auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
        if (ec != std::errc() || ptr != t.data() + t.size() || v < 0 || v > 2 * point_count)
            return PositionError{tokens[next].column, "a captured count must be a whole number"};
        if (v % 2) return PositionError{tokens[next].column, "stones are captured in pairs: the count must be even"};
        counts[index(c)] = v;
        ++next;
    }
    return std::nullopt;
}

} // namespace

// The text's parts in order: the game, the size, the board, the side, the captured counts (games
// with captures), then rule words and a pending five.
std::variant<StonePosition, PositionError> StonePosition::from_text(std::string_view text) {
    const std::vector<Token> tokens = tokens_of(text);
    auto fail = [](int column, std::string message) -> std::variant<StonePosition, PositionError> {
        return PositionError{column, std::move(message)};
    };
    const int end_column = int(text.size());
    if (tokens.empty()) return fail(0, "empty position (expected the game, the size, the board, the side)");
    const auto kind = parse_game_kind(tokens[0].text, Family::stones);
    if (!kind)
        return fail(tokens[0].column,
                    "unknown game \"" + std::string(tokens[0].text) + "\" (" + game_ids_text(Family::stones) + ")");
    Rules rules = Rules::defaults(*kind);
    if (tokens.size() < 2) return fail(end_column, "the board size (" + sizes_text(*kind) + ") is missing");
    if (apply_size_tag(rules, tokens[1].text)) return fail(tokens[1].column, "the board size must be " + sizes_text(*kind));
    if (tokens.size() < 3) return fail(end_column, "the board is missing");

    StonePosition pos(rules);
    std::vector<std::pair<int, Stone>> stones;
    if (auto e = read_board(tokens[2], rules.size, stones)) return std::move(*e);
    for (const auto& [point, stone] : stones) pos.set(point, stone);
    if (tokens.size() < 4) return fail(end_column, "the side to move ('b' or 'w') is missing");
    const std::string side = lower(tokens[3].text);
    if (side != "b" && side != "w") return fail(tokens[3].column, "the side to move must be 'b' or 'w'");
    pos.set_side_to_move(side == "b" ? Color::black : Color::white);
    std::size_t next = 4;
    if (rules.captures()) {
        int counts[2] = {0, 0};
        if (auto e = read_captured(tokens, next, end_column, counts)) return std::move(*e);
        for (Color c : {Color::black, Color::white}) pos.set_captured(c, counts[index(c)]);
    }
    Rules options = rules;
    for (; next < tokens.size(); ++next) {
        const std::string w = lower(tokens[next].text);
        if (w == "pending-black" || w == "pending-white") {
            if (!rules.captures() || !rules.endgame_capture)
                return fail(tokens[next].column, "a pending five exists only with the end-game capture rule");
            pos.pending_ = w == "pending-black" ? 1 + index(Color::black) : 1 + index(Color::white);
            continue;
        }
        if (auto e = apply_rules_tag(options, w)) return fail(tokens[next].column, *e);
    }
    pos.rules_ = options;
    if (pos.pending_ && !options.endgame_capture)
        return fail(end_column, "a pending five exists only with the end-game capture rule");
    pos.key_ = pos.compute_key(); // the options and a pending five are parts of the key
    pos.update_outcome();
    return pos;
}

} // namespace gounki::stones
