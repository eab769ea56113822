#include "core/game.hpp"

#include <algorithm>

namespace gounki {

namespace {

// One row per GameKind, in its order (the values are stored in databases: append only).
constexpr std::array<GameInfo, 5> table{{
    {GameKind::gounki,
     "Gounki",
     "gounki",
     {},
     Family::gounki,
     {8, 0, 0},
     Color::white,
     "stacks of rounds and squares on an 8x8 board; White moves first"},
    {GameKind::gomoku,
     "Gomoku",
     "gomoku",
     {"freestyle gomoku", "gomoku freestyle", "speed gomoku"}, // pente.org's on a faster clock
     Family::stones,
     {15, 19, 20},
     Color::black,
     "five in a row (or more; exactly five with the standard option) wins; 15x15, 19x19 or 20x20; Black moves first"},
    {GameKind::ninuki,
     "Ninuki",
     "ninuki",
     {"gomoku ninuki", "ninuki renju"},
     Family::stones,
     {19, 15, 0},
     Color::black,
     "five in a row or ten captured stones win; pairs are captured; 19x19 or 15x15"},
    {GameKind::pente,
     "Pente",
     "pente",
     {"speed pente"}, // pente.org's on a faster clock
     Family::stones,
     {19, 0, 0},
     Color::white,
     "five or more in a row or ten captured stones win; pairs are captured; 19x19; White moves first, on the centre"},
    {GameKind::renju,
     "Renju",
     "renju",
     {"speed renju"}, // pente.org's on a faster clock
     Family::stones,
     {15, 0, 0},
     Color::black,
     "Black wins with exactly five and may not make a double-three, a double-four or an overline; White wins with five "
     "or more; 15x15; Black moves first"},
}};

static_assert([] {
    for (std::size_t i = 0; i < table.size(); ++i)
        if (std::size_t(table[i].kind) != i) return false;
    return true;
}());

// Lower case, blanks trimmed, '-' and '_' read as one blank, runs of blanks as one.
std::string normalised(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c == '-' || c == '_' || c == ' ' || c == '\t') {
            if (!out.empty() && out.back() != ' ') out += ' ';
        } else {
            out += c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
        }
    }
    if (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

} // namespace

std::span<const GameInfo> games() { return table; }

const GameInfo& game_info(GameKind kind) {
    const auto i = std::size_t(kind);
    return i < table.size() ? table[i] : table[0];
}

std::optional<GameKind> parse_game_kind(std::string_view text) {
    const std::string name = normalised(text);
    if (name.empty()) return std::nullopt;
    for (const GameInfo& g : table) {
        if (name == g.id) return g.kind;
        for (std::string_view alias : g.aliases)
            if (!alias.empty() && name == alias) return g.kind;
    }
    return std::nullopt;
}

std::optional<GameKind> parse_game_kind(std::string_view text, Family family) {
    const auto kind = parse_game_kind(text);
    if (kind && family_of(*kind) == family) return kind;
    return std::nullopt;
}

std::string sizes_text(GameKind kind) {
    std::array<int, 3> sizes = game_info(kind).sizes;
    std::sort(sizes.begin(), sizes.end());
    std::string out;
    const auto count = std::size_t(std::count_if(sizes.begin(), sizes.end(), [](int n) { return n > 0; }));
    std::size_t written = 0;
    for (int n : sizes) {
        if (n <= 0) continue;
        if (written > 0) out += written + 1 == count ? " or " : ", ";
        out += std::to_string(n);
        ++written;
    }
    return out;
}

std::string game_ids_text(std::optional<Family> family) {
    std::string out;
    std::size_t count = 0, total = 0;
    for (const GameInfo& g : table) total += !family || g.family == *family;
    for (const GameInfo& g : table) {
        if (family && g.family != *family) continue;
        if (count > 0) out += count + 1 == total ? " or " : ", ";
        out += g.id;
        ++count;
    }
    return out;
}

} // namespace gounki
