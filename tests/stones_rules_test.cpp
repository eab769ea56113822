// The stone games' rule options as data (core/stones/rules.hpp): the Rules tag read and written
// through one table, per game, with the messages that name what is known; the rules document's
// table is the one the code prints.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <string>

#include "core/stones/rules.hpp"

using namespace gounki;
using namespace gounki::stones;
using namespace gounki::test;

namespace {

Rules with(GameKind kind, const std::string& tag) {
    Rules r = Rules::defaults(kind);
    const auto e = apply_rules_tag(r, tag);
    INFO(tag << ": " << e.value_or(""));
    CHECK_FALSE(e.has_value());
    return r;
}

std::string error_of(GameKind kind, const std::string& tag) {
    Rules r = Rules::defaults(kind);
    return apply_rules_tag(r, tag).value_or("");
}

} // namespace

TEST_CASE("rule options: every on and off word of every option each game accepts reads and writes back", "[stones]") {
    for (const GameInfo& g : games()) {
        if (!is_stone_game(g.kind)) continue;
        for (const RuleOption& o : rule_options()) {
            if (!o.accepted(g.kind)) continue;
            for (bool on : {false, true}) {
                const std::string word(on ? o.on_word : o.off_word);
                INFO(g.name << " " << word);
                const Rules r = with(g.kind, word);
                CHECK(r.*(o.field) == on);
                // Everything else keeps its default.
                Rules expected = Rules::defaults(g.kind);
                expected.*(o.field) = on;
                CHECK(r == expected);
                // The writer prints nothing for the default and a word that reads back otherwise.
                const std::string text = rules_tag_text(r);
                CHECK(text.empty() == (r == Rules::defaults(g.kind)));
                CHECK(with(g.kind, text) == r);
            }
        }
    }
}

TEST_CASE("rule options: words in any case, separated by blanks, commas or semicolons, applied left to right", "[stones]") {
    Rules off = Rules::defaults(GameKind::ninuki);
    off.endgame_capture = off.no_double_three = false;
    CHECK(with(GameKind::ninuki, "NO-ENDGAME-CAPTURE;Allow-Double-Three") == off);
    CHECK(with(GameKind::ninuki, "simple, standard") == Rules::defaults(GameKind::ninuki));
    CHECK(with(GameKind::ninuki, "standard simple") == off);
    CHECK(rules_tag_text(off) == "simple"); // one word says it all
    CHECK(with(GameKind::ninuki, "") == Rules::defaults(GameKind::ninuki));
}

TEST_CASE("rule options: a word the game does not know is an error that says what the game knows", "[stones]") {
    const std::string unknown = error_of(GameKind::ninuki, "no-captures");
    CHECK(contains(unknown, "unknown rule option \"no-captures\""));
    CHECK(contains(unknown, rule_words_text(GameKind::ninuki)));
    for (const char* w : {"simple", "no-endgame-capture", "allow-double-three", "standard"})
        CHECK(contains(rule_words_text(GameKind::ninuki), w));
    // A Ninuki word on a Gomoku game names the game that has it.
    CHECK(error_of(GameKind::gomoku, "allow-double-three") ==
          "rule option \"allow-double-three\" applies to Ninuki only (not to Gomoku)");
    CHECK(contains(error_of(GameKind::gomoku, "simple"), "applies to Ninuki only"));
    CHECK_FALSE(error_of(GameKind::gomoku, "bogus").empty());
}

TEST_CASE("rule options: the rules document's table is the one the code prints", "[stones]") {
    const std::string doc = slurp(source_path("docs/rules.md"));
    const std::string table = rule_options_markdown();
    INFO(table);
    CHECK(contains(doc, table));
    // Every word appears in the --help text of the options.
    const std::string help = rule_options_text();
    for (const RuleOption& o : rule_options()) {
        CHECK(contains(help, std::string(o.on_word)));
        CHECK(contains(help, std::string(o.off_word)));
    }
}
