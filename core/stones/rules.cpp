#include "core/stones/rules.hpp"
#include "core/text.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <vector>

namespace gounki::stones {

namespace {

using Use = RuleOption::Use;

// The traits of each stone game's rule set that no tag changes, in GameKind order.
struct RuleSet {
    GameKind kind;
    bool captures; // pair captures, ten captured stones win
    bool black_forbidden; // Renju: Black may not make a double-three, a double-four or an overline
};
constexpr std::array<RuleSet, 5> rule_sets{{
    {GameKind::gounki, false, false},
    {GameKind::gomoku, false, false},
    {GameKind::ninuki, true, false},
    {GameKind::pente, true, false},
    {GameKind::renju, false, true},
}};
static_assert([] {
    for (std::size_t i = 0; i < rule_sets.size(); ++i)
        if (std::size_t(rule_sets[i].kind) != i) return false;
    return true;
}());

// Per option, one Use per game in GameKind order (Gounki first: it has no stone rules).
// Renju's rules are its traits above (Black's exact five among them): exact five is off for White.
constexpr Use endgame_uses[] = {Use::none, Use::none, Use::default_on, Use::fixed_off, Use::none};
constexpr Use double_three_uses[] = {Use::none, Use::none, Use::default_on, Use::fixed_off, Use::none};
constexpr Use exact_five_uses[] = {Use::none, Use::default_off, Use::fixed_off, Use::fixed_off, Use::fixed_off};
constexpr Use tournament_uses[] = {Use::none, Use::none, Use::none, Use::default_on, Use::none};

constexpr RuleOption options[] = {
    {&Rules::endgame_capture, "end-game capture", "endgame-capture", "no-endgame-capture",
     "a five that the opponent can break by a capture does not win at once", true, endgame_uses},
    {&Rules::no_double_three, "no double-three", "no-double-three", "allow-double-three",
     "a stone may not make two free threes at once (double-three)", true, double_three_uses},
    {&Rules::exact_five, "exact five", "standard", "freestyle",
     "only exactly five in a row wins; six or more in a row does not win (and is allowed)", true, exact_five_uses},
    {&Rules::tournament_rule, "tournament rule", "tournament-rule", "no-tournament-rule",
     "the first player's first stone is on the centre and their second at least three points from it (outside the "
     "5x5 square around it); a record that breaks it gets a warning, the engine keeps it",
     true, tournament_uses},
};

// Words that set several options of one game at once.
struct Preset {
    std::string_view word;
    GameKind kind;
    std::array<std::pair<bool Rules::*, bool>, 2> sets;
    std::string_view meaning;
    bool listed; // named in the list of known words (false for a second name of another word)
};
constexpr Preset presets[] = {
    {"simple",
     GameKind::ninuki,
     {{{&Rules::endgame_capture, false}, {&Rules::no_double_three, false}}},
     "both options off: every five wins at once, double-threes are allowed",
     true},
    {"standard",
     GameKind::ninuki,
     {{{&Rules::endgame_capture, true}, {&Rules::no_double_three, true}}},
     "both options on (the default)",
     true},
    {"full",
     GameKind::ninuki,
     {{{&Rules::endgame_capture, true}, {&Rules::no_double_three, true}}},
     "the same as standard",
     false},
    {"ninuki",
     GameKind::ninuki,
     {{{&Rules::endgame_capture, true}, {&Rules::no_double_three, true}}},
     "the same as standard",
     false},
};

// The words `kind` knows. With `listed_only`, the ones messages list, in their order: the words
// that change the defaults (presets first, then the options' words), then the presets that restore
// them.
template <class F>
void for_each_word(GameKind kind, bool listed_only, F&& f) {
    const Rules base = Rules::defaults(kind);
    auto changes = [&](const Preset& p) {
        Rules r = base;
        for (const auto& [field, value] : p.sets)
            if (field) r.*field = value;
        return !(r == base);
    };
    for (const Preset& p : presets)
        if (p.kind == kind && (!listed_only || (p.listed && changes(p)))) f(p.word);
    for (const RuleOption& o : options) {
        if (!o.accepted(kind)) continue;
        const bool on_by_default = o.use(kind) == Use::default_on;
        if (!listed_only || !on_by_default) f(o.on_word);
        if (!listed_only || on_by_default) f(o.off_word);
    }
    if (listed_only)
        for (const Preset& p : presets)
            if (p.kind == kind && p.listed && !changes(p)) f(p.word);
}

// Applies one word (lower case) to `rules`: true when `kind` knows it.
bool apply_word(Rules& rules, const std::string& w) {
    for (const Preset& p : presets) {
        if (p.kind != rules.kind || p.word != w) continue;
        for (const auto& [field, value] : p.sets)
            if (field) rules.*field = value;
        return true;
    }
    for (const RuleOption& o : options) {
        if (!o.accepted(rules.kind) || (w != o.on_word && w != o.off_word)) continue;
        rules.*(o.field) = w == o.on_word;
        return true;
    }
    return false;
}

// The stone games that know the word, for the message about a word of another game.
std::string games_knowing(std::string_view w) {
    std::string out;
    for (const GameInfo& g : games()) {
        if (!is_stone_game(g.kind)) continue;
        bool known = false;
        for_each_word(g.kind, false, [&](std::string_view word) { known = known || word == w; });
        if (known) out += (out.empty() ? "" : " and ") + std::string(g.name);
    }
    return out;
}

constexpr Named<Use> use_texts[] = {
    {Use::none, "-"},
    {Use::fixed_off, "off"},
    {Use::fixed_on, "on"},
    {Use::default_off, "option, off by default"},
    {Use::default_on, "option, on by default"},
};
std::string_view use_text(Use u) { return name_of(use_texts, u); }

} // namespace

Rules Rules::defaults(GameKind kind) {
    Rules r;
    r.kind = kind;
    r.size = game_info(kind).default_size();
    for (const RuleOption& o : options)
        if (o.use(kind) != Use::none) r.*(o.field) = o.use(kind) == Use::fixed_on || o.use(kind) == Use::default_on;
    return r;
}

bool Rules::captures() const {
    const auto i = std::size_t(kind);
    return i < rule_sets.size() && rule_sets[i].captures;
}

bool Rules::forbidden_for(Color c) const {
    const auto i = std::size_t(kind);
    return c == Color::black && i < rule_sets.size() && rule_sets[i].black_forbidden;
}

std::span<const RuleOption> rule_options() { return options; }

std::optional<std::string> apply_size_tag(Rules& rules, std::string_view value) {
    const std::string_view v = trim(value);
    int n = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    const std::string_view rest(end, std::size_t(v.data() + v.size() - end));
    const std::string_view digits = v.substr(0, v.size() - rest.size());
    const bool square = rest.empty() || (rest.size() > 1 && rest[0] == 'x' && rest.substr(1) == digits); // "15x15"
    if (ec != std::errc() || !square || !game_info(rules.kind).has_size(n))
        return "board size \"" + std::string(value) + "\" is not supported (" + sizes_text(rules.kind) + ")";
    rules.size = n;
    return std::nullopt;
}

std::optional<std::string> apply_rules_tag(Rules& rules, std::string_view value) {
    std::string word;
    auto apply = [&](const std::string& w) -> std::optional<std::string> {
        if (w.empty() || apply_word(rules, w)) return std::nullopt;
        const std::string name(game_kind_name(rules.kind));
        if (const std::string others = games_knowing(w); !others.empty())
            return "rule option \"" + w + "\" applies to " + others + " only (not to " + name + ")";
        return "unknown rule option \"" + w + "\" (known: " + rule_words_text(rules.kind) + ")";
    };
    for (char c : value) {
        if (c == ' ' || c == ',' || c == '\t' || c == ';') {
            if (auto e = apply(lower(word))) return e;
            word.clear();
        } else {
            word += c;
        }
    }
    return apply(lower(word));
}

std::string rules_tag_text(const Rules& rules) {
    const Rules base = Rules::defaults(rules.kind);
    auto same_options = [&](const Rules& a) {
        for (const RuleOption& o : options)
            if (a.*(o.field) != rules.*(o.field)) return false;
        return true;
    };
    if (same_options(base)) return {};
    for (const Preset& p : presets) { // one word for all of it, if there is one
        if (p.kind != rules.kind) continue;
        Rules r = base;
        for (const auto& [field, value] : p.sets)
            if (field) r.*field = value;
        if (same_options(r)) return std::string(p.word);
    }
    std::string out;
    for (const RuleOption& o : options) {
        if (!o.accepted(rules.kind) || rules.*(o.field) == base.*(o.field)) continue;
        if (!out.empty()) out += ' ';
        out += rules.*(o.field) ? o.on_word : o.off_word;
    }
    return out;
}

std::string rule_words_text(GameKind kind) {
    std::vector<std::string_view> words;
    for_each_word(kind, true, [&](std::string_view w) {
        if (std::find(words.begin(), words.end(), w) == words.end()) words.push_back(w);
    });
    std::string out;
    for (std::string_view w : words) out += (out.empty() ? "" : ", ") + std::string(w);
    return out.empty() ? "none" : out;
}

std::string rule_options_text() {
    std::string out;
    for (const GameInfo& g : games()) {
        if (!is_stone_game(g.kind)) continue;
        for (const Preset& p : presets)
            if (p.kind == g.kind) out += std::string(g.name) + ": " + std::string(p.word) + ": " + std::string(p.meaning) + "\n";
        for (const RuleOption& o : options) {
            if (!o.accepted(g.kind)) continue;
            const bool on = o.use(g.kind) == Use::default_on;
            out += std::string(g.name) + ": " + std::string(o.on_word) + " / " + std::string(o.off_word) + ": " +
                std::string(o.meaning) + " (" + (on ? "on" : "off") + " by default)\n";
        }
    }
    return out;
}

std::string rule_options_markdown() {
    std::string out = "| Option | On / off words | Meaning when on |";
    for (const GameInfo& g : games())
        if (is_stone_game(g.kind)) out.append(" ").append(g.name).append(" |");
    out += "\n|---|---|---|";
    for (const GameInfo& g : games())
        if (is_stone_game(g.kind)) out += "---|";
    out += "\n";
    for (const RuleOption& o : options) {
        out += "| " + std::string(o.name) + " | `" + std::string(o.on_word) + "` / `" + std::string(o.off_word) + "` | " +
            std::string(o.meaning) + " |";
        for (const GameInfo& g : games())
            if (is_stone_game(g.kind)) out.append(" ").append(use_text(o.use(g.kind))).append(" |");
        out += "\n";
    }
    out += "\n| Word | Game | Effect |\n|---|---|---|\n";
    for (const Preset& p : presets)
        out +=
            "| `" + std::string(p.word) + "` | " + std::string(game_kind_name(p.kind)) + " | " + std::string(p.meaning) + " |\n";
    return out;
}

} // namespace gounki::stones
