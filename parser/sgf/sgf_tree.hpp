#pragma once
// SGF's syntax (sgf.hpp): one game tree's text into an arena of trees, with the place of the first
// fault. SGF's structure is four characters, ( ) ; and bracketed values with one escape character,
// so this is a small hand-written scanner rather than an X3 grammar: a loop with an explicit stack
// reads any nesting depth without recursion and keeps the exact offset of every fault.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parser/record.hpp"

namespace gounki::parser::sgf {

struct Value {
    std::string text; // unescaped
    std::uint32_t offset; // of the '['
};

struct Property {
    std::string id; // the upper-case letters and digits of the identifier (FF[3] lower-case letters dropped)
    std::uint32_t offset = 0;
    std::uint32_t length = 0; // the whole property as written, identifier to the last ']'
    std::vector<Value> values;
};

struct Node {
    std::uint32_t offset; // of the ';'
    std::vector<Property> props;

    const Property* find(std::string_view id) const {
        for (const Property& p : props)
            if (p.id == id) return &p;
        return nullptr;
    }
    const std::string* value(std::string_view id) const {
        const Property* p = find(id);
        return p && !p->values.empty() ? &p->values.front().text : nullptr;
    }
};

struct Tree {
    std::uint32_t offset; // of the '('
    std::vector<Node> nodes;
    std::vector<int> children; // indexes into the arena
};

struct Fault {
    std::uint32_t offset;
    std::string message;
    bool on_main_line; // every tree open at the fault is a first child: the main line stops there
};

struct Parsed {
    std::vector<Tree> trees; // trees[0] is the game tree
    std::optional<Fault> fault;
};

bool is_blank(char c);
bool is_upper(char c);
bool is_lower(char c);

// The first game tree of `s` (blanks before it allowed); trees[0] is its root when it has one.
Parsed parse_tree(std::string_view s);

// One game tree's text (`chunk`, starting at `line`:`column` of `file`) read and replayed (sgf.cpp).
void read_game(std::string_view chunk, int line, int column, const std::string& file, int number, GameRecord& out);

} // namespace gounki::parser::sgf
