// The only translation unit that instantiates the record grammar.
#include "parser/config.hpp"
#include "parser/grammar_def.hpp"
#include "parser/syntax.hpp"

namespace gounki::parser {

namespace grammar {

game_type const& game() { return game_rule; }

// The one instantiation: parse_chunk below calls the rule with exactly this context.
BOOST_SPIRIT_INSTANTIATE(game_type, iterator_type, context_type)

} // namespace grammar

namespace {

bool has_content(const ast::Game& g) { return !g.tags.empty() || !g.elements.empty() || g.result.value != ast::Result::none; }

} // namespace

void parse_chunk(std::string_view text, ChunkSyntax& out) {
    using grammar::iterator_type;
    grammar::ParseState state;
    state.begin = text.data();
    state.errors = &out.errors;
    iterator_type first = text.data();
    const iterator_type last = text.data() + text.size();
    // An x3::context holds its outer context by reference: both must be named, not temporaries.
    namespace x3 = grammar::x3;
    const grammar::phrase_context_type skip_context = x3::make_context<x3::skipper_tag>(grammar::skipper);
    const grammar::context_type context = grammar::x3::make_context<grammar::state_tag>(state, skip_context);
    for (;;) {
        grammar::skipper.parse(first, last, grammar::x3::unused, grammar::x3::unused, grammar::x3::unused);
        if (first == last) break;
        const iterator_type before = first;
        const std::size_t errors_before = out.errors.size();
        ast::Game g;
        const bool ok = grammar::game().parse(first, last, context, grammar::x3::unused, g);
        if (!ok || first == before) {
            // Only a too-deep variation stops the grammar without consuming anything; say so once.
            const std::uint32_t at = state.offset_of(before);
            bool known = false;
            for (const ast::SyntaxError& e : out.errors) known |= e.truncates && e.offset <= at;
            if (!known) {
                ast::SyntaxError e;
                e.offset = e.start = at;
                e.code = "syntax";
                e.message = "cannot read the text from here on";
                e.truncates = true;
                out.errors.push_back(std::move(e));
            }
            break;
        }
        // A game that is only a broken tag pair still stands, to carry its error.
        if (has_content(g) || out.errors.size() > errors_before) out.games.push_back(std::move(g));
    }
}

} // namespace gounki::parser
