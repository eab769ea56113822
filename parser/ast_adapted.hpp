#pragma once
// Fusion adaptation of the syntax tree, so that sequences in the grammar fill the structs directly.
// Must stay at global scope. Nodes filled by semantic actions instead (Move, Annotation, Comment,
// Variation, Game) are not adapted: their attributes are built field by field.

#include <boost/fusion/include/adapt_struct.hpp>

#include "parser/ast.hpp"

BOOST_FUSION_ADAPT_STRUCT(gounki::parser::ast::Tag, name, raw_value)
BOOST_FUSION_ADAPT_STRUCT(gounki::parser::ast::MoveNumber, number, ellipsis)
