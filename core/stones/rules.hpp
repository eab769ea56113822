#pragma once
// The rules of the stone games as data (docs/rules.md section 2). Two tables in rules.cpp say
// everything that differs between the stone games:
//   - per game, the traits of its rule set that no tag changes (captures, forbidden points);
//   - per rule option, one row: its field in Rules, the words that switch it on and off, what it
//     means, and for each game whether the game accepts it and its default there.
// The Rules tag's reader (apply_rules_tag) and writer (rules_tag_text), the option lists of the
// --help texts (rule_options_text) and the option table of docs/rules.md (rule_options_markdown,
// which a test compares with the document) all read those tables; nothing else names an option.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/game.hpp"
#include "core/types.hpp"

namespace gounki::stones {

// Which game, which board size and which options. The options are plain fields so that hot code
// reads them directly; an option a game does not accept keeps the game's fixed value (Pente has
// endgame_capture and no_double_three off, Gomoku ignores both: it has no captures).
struct Rules {
    GameKind kind = GameKind::gomoku;
    int size = 15;
    bool endgame_capture = true; // Ninuki: a five that a capture may still break does not win at once
    bool no_double_three = true; // Ninuki: double-threes are forbidden
    bool exact_five = false; // Gomoku standard: only exactly five in a row wins, six or more does not
    bool tournament_rule = false; // Pente: the first player opens on the centre, their second stone 3+ points away

    // The rules a game is played by when no Size or Rules tag says otherwise.
    static Rules defaults(GameKind kind);
    // Pair captures and the win by ten captured stones (Ninuki, Pente).
    bool captures() const;
    // Whether `c` has Renju's forbidden points (core/stones/renju.hpp): Black in Renju. Such a colour
    // wins with exactly five only.
    bool forbidden_for(Color c) const;
    // Whether a line of six or more of `c` wins as five does.
    bool overline_wins(Color c) const { return !exact_five && !forbidden_for(c); }
    // Whether a double-three of `c` is forbidden: Ninuki's option, or Renju's Black.
    bool double_three_forbidden(Color c) const { return (captures() && no_double_three) || forbidden_for(c); }
    // Whether a player may pass instead of placing a stone: RIF's Renju rules allow it (two passes
    // in a row draw). gounki does not replay a pass (docs/rules.md 2.3): readers stop the game there.
    bool pass_allowed() const { return kind == GameKind::renju; }
    bool operator==(const Rules&) const = default;
};

// One rule option: a bool field of Rules with the words that set it.
struct RuleOption {
    bool Rules::*field;
    std::string_view name; // "exact five", in the rules document
    std::string_view on_word; // the word that switches it on ("no-double-three")
    std::string_view off_word; // the word that switches it off ("allow-double-three")
    std::string_view meaning; // what "on" means, for --help texts and the rules document
    bool in_key; // whether it changes play (and so is part of every position key)
    // Per game, in GameKind order: whether the game accepts the option, and its default there; `none`
    // when it means nothing to the game (the field keeps the value Rules{} gives it).
    enum class Use : std::uint8_t { none, fixed_off, fixed_on, default_off, default_on };
    std::span<const Use> uses;
    Use use(GameKind kind) const { return std::size_t(kind) < uses.size() ? uses[std::size_t(kind)] : Use::none; }
    bool accepted(GameKind kind) const { return use(kind) == Use::default_off || use(kind) == Use::default_on; }
};

// Every option, in the order the Rules tag's writer prints them.
std::span<const RuleOption> rule_options();

// The `Size` tag ("15", "19", "15x15"): an error message when the game is not played on that size.
std::optional<std::string> apply_size_tag(Rules& rules, std::string_view value);
// The `Rules` tag: words separated by blanks, commas or semicolons, any case, applied left to right:
// an option's on or off word, or a word that sets several at once ("simple"). An error message for
// a word the game does not know (naming the game that knows it, if any).
std::optional<std::string> apply_rules_tag(Rules& rules, std::string_view value);
// The Rules tag value a writer prints for `rules`; empty when the options are the game's defaults.
std::string rules_tag_text(const Rules& rules);
// "simple, no-endgame-capture, allow-double-three, standard": the words `kind` accepts, for messages.
std::string rule_words_text(GameKind kind);
// The options of every stone game, one line per game and word, for --help texts.
std::string rule_options_text();
// The table of docs/rules.md section 2 ("The Rules tag"), rows `| word | games | effect |`.
std::string rule_options_markdown();

} // namespace gounki::stones
