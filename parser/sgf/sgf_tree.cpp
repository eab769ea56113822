#include "parser/sgf/sgf_tree.hpp"

#include <algorithm>
#include <utility>

namespace gounki::parser::sgf {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The character at s[i] as a message quotes it: a whole UTF-8 character, never half of one (a
// message cut inside a character would be no UTF-8, nor would a record that keeps it); a byte that
// starts no UTF-8 character is written \xNN.
std::string shown(std::string_view s, std::size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\n') return "a line end";
    if (c < 0x20 || c == 0x7f) return "a control character";
    if (c < 0x80) return std::string("'") + char(c) + "'";
    const std::size_t len = c >= 0xf5 ? 0 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
    bool whole = len != 0 && i + len <= s.size();
    for (std::size_t k = 1; whole && k < len; ++k) whole = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
    if (whole) return "'" + std::string(s.substr(i, len)) + "'";
    static const char hex[] = "0123456789abcdef";
    return std::string("the byte \\x") + hex[c >> 4] + hex[c & 15];
}

} // namespace

namespace {

// The game tree's text, read by recursive descent without recursion: open trees on a stack. Each
// step returns false once the text is done or at fault (Parsed::fault set).
class TreeParser {
public:
    explicit TreeParser(std::string_view s) : s_(s) {}

    Parsed run() {
        skip_blanks();
        if (i_ >= s_.size() || s_[i_] != '(') {
            fail(i_, "an SGF game tree starts with '('");
            return std::move(out_);
        }
        for (;;) {
            skip_blanks();
            if (i_ >= s_.size()) {
                if (!stack_.empty()) fail(i_, "the game tree opened at '(' is never closed: ')' missing at the end of the text");
                break;
            }
            const char c = s_[i_];
            const bool go_on = c == '(' ? open_tree()
                : c == ')'              ? close_tree()
                : c == ';'              ? node()
                                        : (fail(i_, "unexpected " + shown(s_, i_) + ": '(', ')', ';' or a property was expected"), false);
            if (!go_on) break;
        }
        return std::move(out_);
    }

private:
    void fail(std::size_t at, std::string message) {
        const bool main = std::all_of(first_child_.begin(), first_child_.end(), [](bool b) { return b; });
        out_.fault = Fault{std::uint32_t(at), std::move(message), main};
    }
    void skip_blanks() {
        while (i_ < s_.size() && is_blank(s_[i_])) ++i_;
    }
    Tree& open() { return out_.trees[std::size_t(stack_.back())]; }

    bool open_tree() {
        if (!stack_.empty() && open().nodes.empty()) {
            fail(i_, "a variation '(' must follow at least one node ';'");
            return false;
        }
        const int t = int(out_.trees.size());
        out_.trees.push_back(Tree{std::uint32_t(i_), {}, {}});
        first_child_.push_back(stack_.empty() || open().children.empty());
        if (!stack_.empty()) open().children.push_back(t);
        stack_.push_back(t);
        ++i_;
        return true;
    }

    bool close_tree() {
        if (stack_.empty()) {
            fail(i_, "')' without a matching '('");
            return false;
        }
        if (open().nodes.empty()) {
            fail(i_, "an empty game tree '()': a node ';' was expected");
            return false;
        }
        stack_.pop_back();
        first_child_.pop_back();
        ++i_;
        if (!stack_.empty()) return true;
        skip_blanks();
        if (i_ < s_.size()) fail(i_, "text after the end of the game tree");
        return false;
    }

    bool node() {
        if (stack_.empty()) {
            fail(i_, "a node ';' outside a game tree");
            return false;
        }
        Tree& tree = open();
        if (!tree.children.empty()) {
            fail(i_, "a node ';' after a variation: nodes come before the variations of a game tree");
            return false;
        }
        tree.nodes.push_back(Node{std::uint32_t(i_), {}});
        Node& n = tree.nodes.back();
        ++i_;
        for (;;) {
            skip_blanks();
            if (i_ >= s_.size() || !(is_upper(s_[i_]) || is_lower(s_[i_]) || is_digit(s_[i_]))) return true;
            if (!property(n)) return false;
        }
    }

    // A property: its name (the upper-case letters of it, and its digits: Renju servers write `5A`
    // for the offered fifth moves) and one or more values.
    bool property(Node& n) {
        Property p;
        p.offset = std::uint32_t(i_);
        bool letter = false;
        while (i_ < s_.size() && (is_upper(s_[i_]) || is_lower(s_[i_]) || is_digit(s_[i_]))) {
            if (is_upper(s_[i_]) || is_digit(s_[i_])) p.id += s_[i_];
            letter = letter || is_upper(s_[i_]);
            ++i_;
        }
        if (!letter) {
            fail(p.offset, "a property name needs upper-case letters (B, W, C, GM...)");
            return false;
        }
        skip_blanks();
        if (i_ >= s_.size() || s_[i_] != '[') {
            fail(i_, "property " + p.id + " without a value: '[' expected, found " +
                         (i_ < s_.size() ? shown(s_, i_) : std::string("the end of the text")));
            return false;
        }
        while (i_ < s_.size() && s_[i_] == '[') {
            if (!value(p)) {
                n.props.push_back(std::move(p));
                return false;
            }
            const std::size_t after = i_;
            skip_blanks();
            if (i_ >= s_.size() || s_[i_] != '[') i_ = after;
        }
        p.length = std::uint32_t(i_ - p.offset);
        // A property written twice in one node (C[a]C[b], AB[hh]AB[jj]; SGF allows it once) is one
        // property with the values of both, not a second one that find() never reaches. B and W
        // stay apart: several moves in one node are plies in their order.
        if (p.id != "B" && p.id != "W")
            for (Property& earlier : n.props)
                if (earlier.id == p.id) {
                    for (Value& v : p.values) earlier.values.push_back(std::move(v));
                    return true;
                }
        n.props.push_back(std::move(p));
        return true;
    }

    // A value from its '[' to its ']'.
    bool value(Property& p) {
        Value v{{}, std::uint32_t(i_)};
        ++i_;
        while (i_ < s_.size()) {
            const char d = s_[i_++];
            if (d == ']') {
                p.values.push_back(std::move(v));
                return true;
            }
            if (d == '\\' && i_ < s_.size()) {
                const char e = s_[i_++];
                // A backslash before a line end joins the lines (a "soft" break).
                if (e == '\r' && i_ < s_.size() && s_[i_] == '\n') ++i_;
                else if (e != '\n' && e != '\r') v.text += e;
                continue;
            }
            v.text += d;
        }
        fail(v.offset, "the value of " + p.id + " opened by '[' is never closed: ']' missing");
        return false;
    }

    std::string_view s_;
    std::size_t i_ = 0;
    Parsed out_;
    std::vector<int> stack_; // open trees
    std::vector<bool> first_child_; // whether each open tree is its parent's first child
};

} // namespace

Parsed parse_tree(std::string_view s) { return TreeParser(s).run(); }

} // namespace gounki::parser::sgf
