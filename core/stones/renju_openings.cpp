#include "core/stones/renju_openings.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <utility>

#include "core/stones/symmetry.hpp"

namespace gounki::stones {

namespace {

// Black's second stone from the centre, rank counted upwards; White's first stone at (0, 1)
// (direct) or (1, 1) (indirect). docs/rules.md 2.6 draws them.
constexpr std::array<RenjuOpening, 26> openings{{
    {1, true, "Kansei", "寒星", 0, 2},
    {2, true, "Keigetsu", "渓月", 1, 2},
    {3, true, "Sosei", "疎星", 2, 2},
    {4, true, "Kagetsu", "花月", 1, 1},
    {5, true, "Zangetsu", "残月", 2, 1},
    {6, true, "Ugetsu", "雨月", 1, 0},
    {7, true, "Kinsei", "金星", 2, 0},
    {8, true, "Shogetsu", "松月", 0, -1},
    {9, true, "Kyugetsu", "丘月", 1, -1},
    {10, true, "Shingetsu", "新月", 2, -1},
    {11, true, "Zuisei", "瑞星", 0, -2},
    {12, true, "Sangetsu", "山月", 1, -2},
    {13, true, "Yusei", "遊星", 2, -2},
    {1, false, "Chosei", "長星", 2, 2},
    {2, false, "Kyogetsu", "峡月", 2, 1},
    {3, false, "Kosei", "恒星", 2, 0},
    {4, false, "Suigetsu", "水月", 2, -1},
    {5, false, "Ryusei", "流星", 2, -2},
    {6, false, "Ungetsu", "雲月", 1, 0},
    {7, false, "Hogetsu", "浦月", 1, -1},
    {8, false, "Rangetsu", "嵐月", 1, -2},
    {9, false, "Gingetsu", "銀月", 0, -1},
    {10, false, "Myojo", "明星", 0, -2},
    {11, false, "Shagetsu", "斜月", -1, -1},
    {12, false, "Meigetsu", "名月", -1, -2},
    {13, false, "Suisei", "彗星", -2, -2},
}};

constexpr int renju_size = 15;
constexpr int centre = renju_size / 2; // h8

Offset white_offset(const RenjuOpening& o) { return o.direct ? Offset{0, 1} : Offset{1, 1}; }
Offset black_offset(const RenjuOpening& o) { return {o.file_offset, o.rank_offset}; }

bool is_renju_board(const StonePosition& pos) { return pos.rules().kind == GameKind::renju && pos.size() == renju_size; }

// Without the blanks around it (a pasted word, a form's field).
std::string_view trimmed(std::string_view text) {
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
    while (!text.empty() && blank(text.front())) text.remove_prefix(1);
    while (!text.empty() && blank(text.back())) text.remove_suffix(1);
    return text;
}

// Lower case, the long vowels' `u` left out ("shougetsu", "yuusei", "myoujou" as "shogetsu",
// "yusei", "myojo") and their macrons and circumflexes read as the plain vowel ("Shōgetsu",
// "Ryûsei"), so that the spellings in use meet.
std::string folded(std::string_view text) {
    // ō Ō ô Ô ū Ū û Û in UTF-8.
    static constexpr std::pair<std::string_view, char> long_vowels[] = {
        {"\xC5\x8D", 'o'}, {"\xC5\x8C", 'o'}, {"\xC3\xB4", 'o'}, {"\xC3\x94", 'o'},
        {"\xC5\xAB", 'u'}, {"\xC5\xAA", 'u'}, {"\xC3\xBB", 'u'}, {"\xC3\x9B", 'u'}};
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char l = char(std::tolower(static_cast<unsigned char>(text[i])));
        for (const auto& [bytes, vowel] : long_vowels)
            if (text.substr(i, 2) == bytes) {
                l = vowel;
                ++i;
                break;
            }
        if (l == 'u' && !out.empty() && (out.back() == 'o' || out.back() == 'u')) continue;
        out += l;
    }
    return out;
}

} // namespace

std::span<const RenjuOpening> renju_openings() { return openings; }

const RenjuOpening* renju_opening_of(const StonePosition& pos) {
    if (!is_renju_board(pos) || pos.stone_count() != 3 || pos.side_to_move() != Color::white) return nullptr;
    if (pos.at(make_point(centre, centre)) != Stone::black) return nullptr;
    std::optional<Offset> white, black;
    for (int r = 0; r < renju_size; ++r)
        for (int f = 0; f < renju_size; ++f) {
            const Stone s = pos.at(make_point(f, r));
            if (s == Stone::empty || (f == centre && r == centre)) continue;
            std::optional<Offset>& slot = s == Stone::white ? white : black;
            if (slot) return nullptr; // two white stones, or three black ones
            slot = Offset{f - centre, r - centre};
        }
    if (!white || !black) return nullptr;
    for (const RenjuOpening& o : openings)
        for (int s = 0; s < symmetry_count; ++s)
            if (transformed(white_offset(o), s) == *white && transformed(black_offset(o), s) == *black) return &o;
    return nullptr; // White's stone not next to the centre, or Black's second outside the 5x5 square
}

const RenjuOpening* find_renju_opening(std::string_view text) {
    text = trimmed(text);
    const std::string key = folded(text);
    if (key.empty()) return nullptr;
    for (const RenjuOpening& o : openings) {
        const std::string number = std::to_string(o.number);
        const char family = o.direct ? 'd' : 'i';
        if (key == folded(o.name) || text == o.kanji || key == number + family || key == family + number) return &o;
    }
    // Spellings some programs and books use: 11D as "Zuigetsu", 2D with the traditional 溪.
    if (key == "zuigetsu") return find_renju_opening("Zuisei");
    if (text == "溪月") return find_renju_opening("Keigetsu");
    return nullptr;
}

std::vector<StonePosition> renju_opening_positions(const RenjuOpening& o) {
    StonePosition pos(Rules::defaults(GameKind::renju));
    pos.put(make_point(centre, centre), Stone::black);
    pos.put(make_point(centre + white_offset(o).file, centre + white_offset(o).rank), Stone::white);
    pos.put(make_point(centre + black_offset(o).file, centre + black_offset(o).rank), Stone::black);
    pos.set_side_to_move(Color::white);
    pos.update_outcome();
    std::vector<StonePosition> out;
    for (Image& i : images(pos)) out.push_back(std::move(i.position));
    return out;
}

std::string renju_opening_names() {
    std::string out;
    for (const RenjuOpening& o : openings) out += (out.empty() ? "" : ", ") + o.label();
    return out;
}

bool places_canonical_opening(std::string_view opening_rule) {
    const auto starts = [&](std::string_view stem) { return opening_rule.substr(0, stem.size()) == stem; };
    return opening_rule == "RIF" || opening_rule == "Yamaguchi" || opening_rule == "Tarannikov" || starts("Soosyrv") ||
        starts("Taraguchi");
}

std::string opening_rule_breach(const StonePosition& before, int point, std::string_view opening_rule) {
    if (!is_renju_board(before) || before.stone_count() >= 5 || !places_canonical_opening(opening_rule)) return {};
    const auto away_of = [](int p) { // the smallest square around the centre that holds p
        return std::max(std::abs(point_file(p) - centre), std::abs(point_rank(p) - centre));
    };
    const int away = away_of(point);
    const std::string under = "under the " + std::string(opening_rule) + " opening rule ";
    const bool centre_black = before.at(make_point(centre, centre)) == Stone::black;
    // The stones of each colour so far, each by its square around the centre.
    int black_far = 0, white_far = 0; // the widest square holding a stone of that colour
    bool white_next = false;
    for (int f = 0; f < renju_size; ++f)
        for (int r = 0; r < renju_size; ++r) {
            const int p = make_point(f, r);
            const Stone s = before.at(p);
            if (s == Stone::black) black_far = std::max(black_far, away_of(p));
            if (s == Stone::white) {
                white_far = std::max(white_far, away_of(p));
                white_next |= away_of(p) == 1;
            }
        }
    // Only where the stones before kept to the rule: one warning for one slip.
    switch (before.stone_count()) {
    case 0:
        return away == 0 ? std::string() : under + "Black's first stone is on the centre, h8";
    case 1:
        if (!centre_black || away == 1) return {};
        return under + "White's first stone is next to the centre (h8), in the central 3x3 square g7-i9";
    case 2:
        if (!centre_black || !white_next || away <= 2) return {};
        return under + "Black's second stone is within the central 5x5 square f6-j10";
    default: {
        // Tarannikov and Taraguchi-N go on with squares: White's second stone within 7x7, and
        // under Tarannikov Black's third within 9x9 (Taraguchi-N's Black may offer fifth moves
        // anywhere instead, a choice the records do not keep: not checked).
        const bool tarannikov = opening_rule == "Tarannikov";
        if (!tarannikov && opening_rule.substr(0, 9) != "Taraguchi") return {};
        if (!centre_black || !white_next || black_far > 2) return {};
        if (before.stone_count() == 3)
            return away <= 3 ? std::string() : under + "White's second stone is within the central 7x7 square e5-k11";
        if (!tarannikov || white_far > 3 || away <= 4) return {};
        return under + "Black's third stone is within the central 9x9 square d4-l12";
    }
    }
}

std::optional<SameFifthOffers> same_fifth_offers(const StonePosition& after_four, std::span<const int> offers) {
    const std::vector<int> own = own_symmetries(after_four);
    for (std::size_t second = 1; second < offers.size(); ++second)
        for (std::size_t first = 0; first < second; ++first) {
            if (offers[first] == offers[second]) return SameFifthOffers{first, second, 0};
            for (const int s : own)
                if (transformed_point(offers[first], s, after_four.size()) == offers[second]) return SameFifthOffers{first, second, s};
        }
    return std::nullopt;
}

} // namespace gounki::stones
