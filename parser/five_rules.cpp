#include "parser/five_rules.hpp"

#include <optional>
#include <utility>

#include "core/stones/position.hpp"
#include "core/stones/renju_openings.hpp"
#include "core/stones/symmetry.hpp"

namespace gounki::parser {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

constexpr std::string_view gomocup_rule_prefix = "gomocup-rule-";

std::vector<std::string> words_of(std::string_view text) {
    std::vector<std::string> out;
    std::string w;
    for (char c : text) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ';' || c == '/' || c == '(' || c == ')') {
            if (!w.empty()) out.push_back(std::exchange(w, {}));
            continue;
        }
        w += (c >= 'A' && c <= 'Z') ? char(c | 0x20) : c;
    }
    if (!w.empty()) out.push_back(w);
    return out;
}

// "soosyrv-8", "soosyrv8", "soosyrv" followed by the word "8": the opening's name and its number;
// "soosyrv-n" is the rule's family name, its number left open ("Soosyrv-N").
std::optional<std::string> numbered_opening(const std::vector<std::string>& words, std::size_t& i, std::string_view stem,
                                            std::string_view name) {
    const std::string& w = words[i];
    if (w.compare(0, stem.size(), stem) != 0) return std::nullopt;
    std::string_view rest = std::string_view(w).substr(stem.size());
    if (!rest.empty() && rest[0] == '-') rest.remove_prefix(1);
    if (rest == "n") return std::string(name) + "-N";
    for (char c : rest)
        if (!is_digit(c)) return std::nullopt;
    std::string number(rest);
    if (number.empty() && i + 1 < words.size() && !words[i + 1].empty() && is_digit(words[i + 1][0])) {
        bool digits = true;
        for (char c : words[i + 1]) digits &= is_digit(c);
        if (digits) number = words[++i];
    }
    return std::string(name) + (number.empty() ? "" : "-" + number);
}

std::optional<std::string> opening_of(const std::vector<std::string>& words, std::size_t& i) {
    const std::string& w = words[i];
    if (w == "rif") return "RIF";
    if (w == "sakata") return "Sakata";
    if (w == "yamaguchi") return "Yamaguchi";
    if (w == "swap2") return "swap2";
    if (w == "swap" || w == "swap1") return "swap1";
    if (w == "tarannikov") return "Tarannikov";
    if (w == "jonsson") return "Jonsson";
    // Soosyrv as its Estonian name is written (renju.net: "Soosõrv-8"; the words are lower-cased
    // in ASCII only, so "Õ" stays), or without the letter.
    for (std::string_view stem : {"soosyrv", "soosõrv", "soosÕrv", "soosorv"})
        if (auto s = numbered_opening(words, i, stem, "Soosyrv")) return s;
    if (auto t = numbered_opening(words, i, "taraguchi", "Taraguchi")) return t;
    return std::nullopt;
}

std::optional<std::string> rule_of(const std::string& w) {
    if (w == "freestyle" || w == "free" || w == "free-style" || w == "gomoku") return "freestyle";
    if (w == "standard" || w == "exact") return "standard";
    if (w == "caro") return "caro";
    if (const auto kind = parse_game_kind(w, Family::stones)) return std::string(game_info(*kind).id);
    return std::nullopt;
}

// A rule field that is a number alone: the Gomocup protocol's rule code (its INFO rule), which
// engine-match programs write in SGF's RU (`RU[4]`): 0 freestyle, 1 exactly five wins (standard),
// 4 Renju, 8 caro; any other number ("gomocup-rule-2", 2 being its continuous game) is refused by
// choose_five_rules.
std::optional<std::string> gomocup_rule_code(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    if (text.empty() || text.size() > 5) return std::nullopt;
    for (char c : text)
        if (!is_digit(c)) return std::nullopt;
    const int code = std::stoi(std::string(text));
    switch (code) {
    case 0: return "freestyle";
    case 1: return "standard";
    case 4: return "renju";
    case 8: return "caro";
    default: return std::string(gomocup_rule_prefix) + std::to_string(code);
    }
}

} // namespace

FiveRuleNames read_five_rule_names(std::string_view text, RuleText from) {
    FiveRuleNames out;
    if (from == RuleText::rule_field)
        if (auto code = gomocup_rule_code(text)) {
            out.rule = std::move(*code);
            return out;
        }
    if (const auto kind = parse_game_kind(text, Family::stones)) {
        out.rule = *kind == GameKind::gomoku ? "freestyle" : std::string(game_info(*kind).id);
        return out;
    }
    const std::vector<std::string> words = words_of(text);
    bool generic = false; // the rule so far is "gomoku", which a more precise word replaces
    bool named_as_rule = false; // the opening is followed by "rule" or "opening"
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (auto o = opening_of(words, i)) {
            if (out.opening.empty()) {
                out.opening = *o;
                named_as_rule = i + 1 < words.size() && (words[i + 1] == "rule" || words[i + 1] == "opening");
            }
            continue;
        }
        if (auto r = rule_of(words[i])) {
            const bool word_generic = words[i] == "gomoku";
            if (out.rule.empty() || (generic && !word_generic)) {
                out.rule = *r;
                generic = word_generic;
            } else if (*r != out.rule && !word_generic) {
                out.others.push_back(words[i]);
            }
            continue;
        }
        out.others.push_back(words[i]);
    }
    const bool after_a_person = !out.opening.empty() && out.opening != "RIF" && out.opening.rfind("swap", 0) != 0;
    if (from == RuleText::free_text && after_a_person && !named_as_rule && out.rule != "renju") {
        out.others.push_back(out.opening); // a name (a cup, a player), not the rule
        out.opening.clear();
    }
    if (out.rule.empty() && !out.opening.empty() && out.opening.rfind("swap", 0) != 0) out.rule = "renju";
    return out;
}

FiveRuleChoice choose_five_rules(std::string_view rule) {
    FiveRuleChoice out;
    if (rule.empty() || rule == "freestyle") return out;
    if (rule == "standard") {
        // Gomoku standard is a Rules word of Gomoku once the rules code gives it a meaning (exactly
        // five wins); while the word changes nothing, a standard game would be judged as freestyle.
        stones::Rules r = stones::Rules::defaults(GameKind::gomoku);
        if (!stones::apply_rules_tag(r, "standard") && !(r == stones::Rules::defaults(GameKind::gomoku))) {
            out.rules_tag = "standard";
            return out;
        }
        out.error = "Gomoku standard (only a line of exactly five wins) is not a rule gounki plays yet";
        return out;
    }
    if (rule == "caro") {
        out.error = "Caro (a line of five blocked at both ends does not win) is not a rule gounki plays";
        return out;
    }
    if (rule.starts_with(gomocup_rule_prefix)) {
        out.error = "the Gomocup rule code " + std::string(rule.substr(gomocup_rule_prefix.size())) +
            " is not a rule gounki plays (it reads 0: freestyle, 1: standard, 4: Renju; 2 is the continuous game, 8 Caro)";
        return out;
    }
    if (const auto kind = parse_game_kind(rule, Family::stones)) {
        out.kind = *kind;
        return out;
    }
    out.error = "'" + std::string(rule) + "' is not a game gounki plays";
    return out;
}

std::string opening_rule_breach(const GameRecord& game, const stones::StonePosition& before, int point) {
    if (before.rules().kind != GameKind::renju || before.stone_count() >= 5) return {}; // the cheap test first
    // A game from set-up stones (a Position tag, SGF's AB/AW) did not start on the empty board: its
    // first stones are no opening rule's.
    const stones::StonePosition* start = game.start.stones();
    if (!start || start->stone_count() != 0 || start->side_to_move() != Color::black) return {};
    const std::string* rule = game.tag("OpeningRule");
    return rule ? stones::opening_rule_breach(before, point, read_five_rule_names(*rule).opening) : std::string();
}

std::string same_fifth_offers_text(const stones::StonePosition& after_four, std::span<const int> offers,
                                   std::span<const std::string> written) {
    const auto same = stones::same_fifth_offers(after_four, offers);
    if (!same) return {};
    const std::string& a = written[same->first];
    if (same->symmetry == 0)
        return "Black offered " + a + " twice as a fifth move; the opening rules that have Black offer fifth moves want "
               "them to differ, so that White chooses";
    return "Black offered " + a + " and " + written[same->second] + " as fifth moves, and they are one move: the first four "
           "stones lie the same " + std::string(stones::symmetry_name(same->symmetry)) +
           "; the opening rules that have Black offer fifth moves want them to differ, so that White chooses";
}

std::optional<FoulEnding> foul_ending(const stones::StonePosition& before, int point, stones::PlaceError e,
                                      std::string_view written) {
    const bool forbidden =
        e == stones::PlaceError::double_three || e == stones::PlaceError::double_four || e == stones::PlaceError::overline;
    if (!forbidden || before.rules().kind != GameKind::renju || before.side_to_move() != Color::black) return std::nullopt;
    const std::string name = stones::point_name(point), shape(stones::place_error_text(e));
    FoulEnding out;
    out.warning = "Black's " + name + " is a foul: " + shape +
        "; Black loses by it (Renju), and the game ends before it, White's win (1-0)";
    out.comment = "Black's " + name + (written == name ? std::string() : " (" + std::string(written) + ")") +
        " is a foul: " + shape + "; Black loses";
    return out;
}

std::string foul_result_hint() {
    return "; if Black lost the game by this foul, a result of 1-0 (White's win) has it read so";
}

Line offered_fifth_move(Move move, std::string written) {
    Line offer;
    offer.plies.emplace_back(move, std::move(written));
    offer.plies.back().comments.push_back("offered fifth move, not chosen");
    return offer;
}

} // namespace gounki::parser
