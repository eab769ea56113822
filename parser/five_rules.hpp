#pragma once
// The rule sets and opening rules of the five-in-a-row games as programs name them: SGF's RU and GN
// properties, Gomocup's group names in PSQ files ("Freestyle15_2", "Standard", "Renju"). The one
// place that reads those names, and that says what each means for gounki (docs/rules.md 4.3).

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.hpp"
#include "core/stones/position.hpp"
#include "parser/record.hpp"

namespace gounki::parser {

struct FiveRuleNames {
    // The rule set named first: "freestyle", "standard", "renju", "caro", or the id of a stone game
    // of the registry ("ninuki"); empty when the text names none.
    std::string rule;
    // The opening rule: "RIF", "Sakata", "Yamaguchi", "Soosyrv-N", "Taraguchi-N", "swap1" or "swap2";
    // empty when none. The renju opening rules (all but the swaps) name the rule "renju" when the
    // text names no rule.
    std::string opening;
    std::vector<std::string> others; // every other word, in lower case, in order
};

// Where the text comes from: a field that names rules (SGF's RU, a PSQ group, a RenjuNet rule), or
// free text that may name one among other words (SGF's GN, a game's name: "Kim - Lee (B) : Yamaguchi
// rule", "Jonsson - Karlsson, club final").
enum class RuleText { rule_field, free_text };

// The words of `text`, in any case, separated by blanks, commas, semicolons, slashes or parentheses.
// A rule field that is a number alone is the Gomocup protocol's rule code, as engine-match programs
// write RU (`RU[4]`): 0 freestyle, 1 standard, 4 Renju, 8 caro, any other a rule gounki does not play.
// A text that is a game's name as a whole ("Ninuki Renju", "Gomoku Freestyle") names that game.
// In free text an opening rule named after a person (all but RIF and the swaps: Sakata, Yamaguchi,
// Soosyrv, Taraguchi, Tarannikov, Jonsson are surnames too) counts only followed by the word "rule"
// or "opening", or where the text names Renju as well.
FiveRuleNames read_five_rule_names(std::string_view text, RuleText from = RuleText::rule_field);

// What a rule name of read_five_rule_names means for gounki.
struct FiveRuleChoice {
    GameKind kind = GameKind::gomoku;
    std::string rules_tag; // words for the Rules tag (stones::apply_rules_tag), empty for the defaults
    std::string error; // not empty: gounki does not play this rule; says which rule and why
};
FiveRuleChoice choose_five_rules(std::string_view rule);

// The `opening-rule` warning's text for a stone on `point` of `before` in `game` (a Renju game
// whose OpeningRule tag names a rule that places the 26 openings: stones::opening_rule_breach),
// or "" when there is nothing to say (also for a game from set-up stones: its start is no empty
// board). Every reader asks it before playing one of the first three stones.
std::string opening_rule_breach(const GameRecord& game, const stones::StonePosition& before, int point);

// The `opening-rule` warning's text when two of the fifth moves Black offered after `after_four`
// (`offers`, each as `written`) are one move (stones::same_fifth_offers), "" otherwise. The
// readers of offers (RenjuNet's alt, SGF's 5A, kurnik's two fifth moves) ask it.
std::string same_fifth_offers_text(const stones::StonePosition& after_four, std::span<const int> offers,
                                   std::span<const std::string> written);

// Renju: a record whose last stone is Black's on a forbidden point (a double-three, a double-four,
// an overline) and whose result gives White the game ends with a foul, which loses (RIF rules):
// Gomocup's manager and pente.org write such games so, the stone, then White's win. What a reader
// says of that stone (`e` the reason `before.check` gave, `written` the stone as the record writes
// it), or nullopt when it is no foul of Black's in Renju (an occupied point, a stone of White's,
// another game). The reader then ends the game there, without the stone, its result White's win,
// the warning `foul` on the stone (left out: `format` keeps the file as written) and the comment on
// the last move kept (docs/rules.md 2.5). Whether the stone ends the record and the result is 1-0
// is the reader's to tell.
struct FoulEnding {
    std::string warning; // "Black's h8 is a foul: double-three, forbidden; Black loses by it ..."
    std::string comment; // "Black's h8 (H8) is a foul: double-three, forbidden; Black loses"
};
std::optional<FoulEnding> foul_ending(const stones::StonePosition& before, int point, stones::PlaceError e,
                                      std::string_view written);
// What the `illegal-move` error on a forbidden black stone that ends a Renju record adds when the
// record's result does not give White the game: how to have it read as the foul.
std::string foul_result_hint();

// A fifth move Black offered in Renju and White did not choose (RenjuNet's `alt`, SGF's offers,
// kurnik's two fifth moves): a one-move variation of the fifth move, so marked in a comment.
Line offered_fifth_move(Move move, std::string written);

} // namespace gounki::parser
