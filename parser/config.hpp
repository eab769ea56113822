#pragma once
// The types the grammar is instantiated with: contiguous chunks of bytes, our skipper, and the parse
// state injected with x3::with (error_handler.hpp).

#include <boost/spirit/home/x3.hpp>

#include "parser/error_handler.hpp"
#include "parser/grammar.hpp"

namespace gounki::parser::grammar {

using iterator_type = const char*;
using skipper_type = skipper_parser;
using phrase_context_type = x3::phrase_parse_context<skipper_type>::type;
using context_type = x3::context<state_tag, ParseState, phrase_context_type>;

} // namespace gounki::parser::grammar
