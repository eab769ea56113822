#include "parser/sgf/sgf_tree.hpp"

#include <algorithm>
#include <utility>

namespace gounki::parser::sgf {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

namespace {

std::string shown(char c) {
    if (c == '\n') return "a line end";
    if (static_cast<unsigned char>(c) < 0x20) return "a control character";
    return std::string("'") + c + "'";
}

} // namespace

Parsed parse_tree(std::string_view s) {
    Parsed out;
    std::vector<int> stack; // open trees
    std::vector<bool> first_child; // whether each open tree is its parent's first child
    std::size_t i = 0;
    auto fail = [&](std::size_t at, std::string message) {
        const bool main = std::all_of(first_child.begin(), first_child.end(), [](bool b) { return b; });
        out.fault = Fault{std::uint32_t(at), std::move(message), main};
    };
    auto skip_blanks = [&] {
        while (i < s.size() && is_blank(s[i])) ++i;
    };
    skip_blanks();
    if (i >= s.size() || s[i] != '(') {
        fail(i, "an SGF game tree starts with '('");
        return out;
    }
    for (;;) {
        skip_blanks();
        if (i >= s.size()) {
            if (!stack.empty()) fail(i, "the game tree opened at '(' is never closed: ')' missing at the end of the text");
            return out;
        }
        const char c = s[i];
        if (c == '(') {
            if (!stack.empty() && out.trees[std::size_t(stack.back())].nodes.empty()) {
                fail(i, "a variation '(' must follow at least one node ';'");
                return out;
            }
            const int t = int(out.trees.size());
            out.trees.push_back(Tree{std::uint32_t(i), {}, {}});
            first_child.push_back(stack.empty() || out.trees[std::size_t(stack.back())].children.empty());
            if (!stack.empty()) out.trees[std::size_t(stack.back())].children.push_back(t);
            stack.push_back(t);
            ++i;
        } else if (c == ')') {
            if (stack.empty()) {
                fail(i, "')' without a matching '('");
                return out;
            }
            if (out.trees[std::size_t(stack.back())].nodes.empty()) {
                fail(i, "an empty game tree '()': a node ';' was expected");
                return out;
            }
            stack.pop_back();
            first_child.pop_back();
            ++i;
            if (stack.empty()) {
                skip_blanks();
                if (i < s.size()) fail(i, "text after the end of the game tree");
                return out;
            }
        } else if (c == ';') {
            if (stack.empty()) {
                fail(i, "a node ';' outside a game tree");
                return out;
            }
            Tree& tree = out.trees[std::size_t(stack.back())];
            if (!tree.children.empty()) {
                fail(i, "a node ';' after a variation: nodes come before the variations of a game tree");
                return out;
            }
            tree.nodes.push_back(Node{std::uint32_t(i), {}});
            Node& node = tree.nodes.back();
            ++i;
            for (;;) {
                skip_blanks();
                if (i >= s.size() || !(is_upper(s[i]) || is_lower(s[i]))) break;
                Property p;
                p.offset = std::uint32_t(i);
                while (i < s.size() && (is_upper(s[i]) || is_lower(s[i]))) {
                    if (is_upper(s[i])) p.id += s[i];
                    ++i;
                }
                if (p.id.empty()) {
                    fail(p.offset, "a property name needs upper-case letters (B, W, C, GM...)");
                    return out;
                }
                skip_blanks();
                if (i >= s.size() || s[i] != '[') {
                    fail(i,
                         "property " + p.id + " without a value: '[' expected, found " +
                             (i < s.size() ? shown(s[i]) : std::string("the end of the text")));
                    return out;
                }
                while (i < s.size() && s[i] == '[') {
                    Value v{{}, std::uint32_t(i)};
                    ++i;
                    bool closed = false;
                    while (i < s.size()) {
                        const char d = s[i++];
                        if (d == ']') {
                            closed = true;
                            break;
                        }
                        if (d == '\\' && i < s.size()) {
                            const char e = s[i++];
                            // A backslash before a line end joins the lines (a "soft" break).
                            if (e == '\r' && i < s.size() && s[i] == '\n') ++i;
                            else if (e != '\n' && e != '\r') v.text += e;
                            continue;
                        }
                        v.text += d;
                    }
                    if (!closed) {
                        fail(v.offset, "the value of " + p.id + " opened by '[' is never closed: ']' missing");
                        node.props.push_back(std::move(p));
                        return out;
                    }
                    p.values.push_back(std::move(v));
                    const std::size_t after = i;
                    skip_blanks();
                    if (i >= s.size() || s[i] != '[') i = after;
                }
                p.length = std::uint32_t(i - p.offset);
                node.props.push_back(std::move(p));
            }
        } else {
            fail(i, "unexpected " + shown(c) + ": '(', ')', ';' or a property was expected");
            return out;
        }
    }
}

} // namespace gounki::parser::sgf
