// SGF import (sgf.hpp). SGF's syntax is four characters of structure ( ) ; and bracketed values
// with one escape character, so this is a small hand-written scanner rather than an X3 grammar: a
// loop with an explicit stack reads any nesting depth without recursion, keeps the exact offset of
// every fault, and compiles in a fraction of the time the X3 machinery takes. The rules (what a game
// tree means, replay through core/stones) are a separate step, as for GPN.

#include "parser/sgf/sgf.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <istream>
#include <optional>
#include <sstream>
#include <utility>

#include "core/stones/position.hpp"
#include "parser/encoding.hpp"
#include "parser/resolve.hpp" // SourceMap, add_diagnostic

namespace gounki::parser {

namespace {

// ---------------------------------------------------------------------------------------------
// Syntax: one game tree's text into an arena of trees.

struct Value {
    std::string text; // unescaped
    std::uint32_t offset; // of the '['
};

struct Property {
    std::string id; // the upper-case letters of the identifier (FF[3] lower-case letters dropped)
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

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

std::string shown(char c) {
    if (c == '\n') return "a line end";
    if (static_cast<unsigned char>(c) < 0x20) return "a control character";
    return std::string("'") + c + "'";
}

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

// ---------------------------------------------------------------------------------------------
// Rules: the tree as a GameRecord, replayed.

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = char(c | 0x20);
    return out;
}

std::string trim(std::string_view s) {
    std::size_t b = 0, e = s.size();
    while (b < e && is_blank(s[b])) ++b;
    while (e > b && is_blank(s[e - 1])) --e;
    return std::string(s.substr(b, e - b));
}

// RE: B+R, B+5, W+Time... ; 0, Draw, D; anything else is unknown.
std::string result_of(std::string_view re) {
    const std::string v = lower(trim(re));
    if (v.rfind("b+", 0) == 0 || v == "b") return "0-1";
    if (v.rfind("w+", 0) == 0 || v == "w") return "1-0";
    if (v == "0" || v == "draw" || v == "d" || v == "jigo") return "1/2-1/2";
    return "*";
}

// DT: "2024-05-01" (and "2024-05-01,02" or "2024-05-01 12:00") as "2024.05.01"; else as written.
std::string date_of(std::string_view dt) {
    std::string v = trim(dt);
    const std::size_t cut = v.find_first_of(", ");
    if (cut != std::string::npos) v.resize(cut);
    auto digits = [&](std::size_t from, std::size_t n) {
        if (from + n > v.size()) return false;
        for (std::size_t k = from; k < from + n; ++k)
            if (v[k] < '0' || v[k] > '9') return false;
        return true;
    };
    if (v.size() == 10 && digits(0, 4) && v[4] == '-' && digits(5, 2) && v[7] == '-' && digits(8, 2)) {
        v[4] = v[7] = '.';
        return v;
    }
    return trim(dt);
}

class Builder {
public:
    Builder(const Parsed& parsed, const SourceMap& src, const std::string& file, int number, GameRecord& out)
        : p_(parsed), src_(src), file_(file), number_(number), out_(out) {}

    void run();

private:
    Diagnostic& report(Severity sev, std::string_view code, std::uint32_t offset, std::string message);
    Diagnostic& report_move(Severity sev, std::string_view code, const Property& prop, int ply, std::string message);
    int move_number(int ply) const { return 1 + (ply + (white_first_ ? 1 : 0)) / 2; }
    std::string move_label(int ply, Color side) const {
        return std::to_string(move_number(ply)) + (side == Color::black ? "." : "...");
    }
    // Rules and start position from the root node. False when the moves cannot be replayed.
    bool set_up(const Node& root);
    bool place_setup(const Property& prop, stones::Stone stone, stones::StonePosition& pos);
    // Replays tree `t` from node `first` into `line`; recursion only for the alternatives.
    void walk(int t, std::size_t first, Line& line, stones::StonePosition pos, int ply, bool main, int depth);
    // One node: its move (false when it stops the line) and comments.
    bool node(const Node& n, bool root, Line& line, stones::StonePosition& pos, int& ply, bool main);
    void check_result(const stones::StonePosition& final_pos);

    const Parsed& p_;
    const SourceMap& src_;
    const std::string& file_;
    int number_;
    GameRecord& out_;
    stones::Rules rules_;
    bool white_first_ = false;
    bool main_cut_ = false;
    int end_ply_ = -1;
    std::string end_text_;
    std::string re_result_; // from RE; empty when there is no RE
    std::uint32_t re_offset_ = 0;
};

Diagnostic& Builder::report(Severity sev, std::string_view code, std::uint32_t offset, std::string message) {
    return add_diagnostic(out_, src_, file_, number_, sev, code, offset, std::move(message));
}

Diagnostic& Builder::report_move(Severity sev, std::string_view code, const Property& prop, int ply, std::string message) {
    const std::string written(src_.slice(prop.offset, prop.length));
    const Color side = prop.id == "W" ? Color::white : Color::black;
    Diagnostic& d = report(sev, code, prop.offset, move_label(ply, side) + " " + written + ": " + std::move(message));
    d.move_number = move_number(ply);
    d.side = side;
    d.written = written;
    return d;
}

bool Builder::place_setup(const Property& prop, stones::Stone stone, stones::StonePosition& pos) {
    const int size = rules_.size;
    for (const Value& v : prop.values) {
        // A point "hh" or a rectangle "aa:cc" (SGF's compressed point lists).
        const std::string t = trim(v.text);
        auto point = [&](std::string_view s, int& file, int& row) {
            if (s.size() != 2 || !is_lower(s[0]) || !is_lower(s[1])) return false;
            file = s[0] - 'a';
            row = s[1] - 'a';
            return file < size && row < size;
        };
        int f1 = 0, r1 = 0, f2 = 0, r2 = 0;
        bool ok = false;
        if (t.size() == 5 && t[2] == ':')
            ok = point(std::string_view(t).substr(0, 2), f1, r1) && point(std::string_view(t).substr(3, 2), f2, r2);
        else if ((ok = point(t, f1, r1))) f2 = f1, r2 = r1;
        if (!ok) {
            report(Severity::error, "bad-position", v.offset,
                   prop.id + "[" + v.text + "]: not a point of the " + std::to_string(size) + "x" + std::to_string(size) +
                       " board; the moves are not replayed");
            return false;
        }
        for (int f = std::min(f1, f2); f <= std::max(f1, f2); ++f)
            for (int r = std::min(r1, r2); r <= std::max(r1, r2); ++r) pos.put(stones::make_point(f, size - 1 - r), stone);
    }
    return true;
}

bool Builder::set_up(const Node& root) {
    auto offset_of = [&](std::string_view id) {
        const Property* p = root.find(id);
        return p ? p->offset : root.offset;
    };
    auto tag = [&](std::string name, std::string value) { out_.tags.emplace_back(std::move(name), std::move(value)); };

    // The game.
    GameKind kind = GameKind::gomoku;
    bool replay = true;
    if (const std::string* gm = root.value("GM")) {
        if (trim(*gm) != "4") {
            report(Severity::error, "unsupported-game", offset_of("GM"),
                   "GM[" + trim(*gm) + "] is not Gomoku (GM[4]); the moves are not replayed");
            replay = false;
        }
    } else {
        report(Severity::warning, "missing-game", root.offset,
               "no GM property (SGF's default is Go, GM[1]); read as Gomoku, GM[4]");
    }
    std::vector<std::string> option_words;
    if (const std::string* ru = root.value("RU")) {
        std::string words = lower(*ru);
        for (char& c : words)
            if (c == ',' || c == ';' || c == '/' || c == '(' || c == ')') c = ' ';
        std::size_t at = 0;
        while (at < words.size()) {
            const std::size_t b = words.find_first_not_of(' ', at);
            if (b == std::string::npos) break;
            const std::size_t e = std::min(words.find(' ', b), words.size());
            const std::string w = words.substr(b, e - b);
            at = e;
            if (w.find("ninuki") != std::string::npos) kind = GameKind::ninuki;
            else if (w == "renju") {
                if (replay)
                    report(Severity::error, "unsupported-game", offset_of("RU"),
                           "RU[" + *ru + "]: Renju has other rules than freestyle Gomoku; the moves are not replayed");
                replay = false;
            } else if (w != "gomoku" && w != "freestyle" && w != "free" && w != "rules") {
                option_words.push_back(w);
            }
        }
    }
    out_.kind = kind;
    rules_ = stones::Rules::defaults(kind);
    tag("Game", std::string(game_kind_name(kind)));
    const std::pair<const char*, const char*> plain[] = {{"EV", "Event"}, {"PC", "Site"}, {"RO", "Round"}};
    for (const auto& [id, name] : plain)
        if (const std::string* v = root.value(id)) tag(name, trim(*v));
    if (const std::string* v = root.value("DT")) tag("Date", date_of(*v));
    const std::pair<const char*, const char*> players[] = {
        {"PB", "Black"}, {"PW", "White"}, {"BR", "BlackElo"}, {"WR", "WhiteElo"}};
    for (const auto& [id, name] : players)
        if (const std::string* v = root.value(id)) tag(name, trim(*v));
    if (const Property* re = root.find("RE"); re && !re->values.empty()) {
        re_result_ = result_of(re->values.front().text);
        re_offset_ = re->offset;
        out_.result = re_result_;
        tag("Result", re_result_);
    }
    if (const std::string* sz = root.value("SZ")) {
        tag("Size", trim(*sz));
        if (auto e = stones::apply_size_tag(rules_, trim(*sz))) {
            if (replay)
                report(Severity::error, "bad-rules", offset_of("SZ"), "SZ[" + *sz + "]: " + *e + "; the moves are not replayed");
            replay = false;
        }
    }
    if (kind == GameKind::ninuki && !option_words.empty()) {
        std::string joined;
        for (const std::string& w : option_words) joined += (joined.empty() ? "" : " ") + w;
        if (auto e = stones::apply_rules_tag(rules_, joined)) {
            if (replay)
                report(Severity::error, "bad-rules", offset_of("RU"),
                       "RU[" + *root.value("RU") + "]: " + *e + "; the moves are not replayed");
            replay = false;
        }
    }
    if (const std::string t = stones::rules_tag_text(rules_); !t.empty()) tag("Rules", t);
    if (!replay) return false;

    // The start position.
    stones::StonePosition start(rules_);
    bool set = false;
    for (const char* id : {"AB", "AW"}) {
        const Property* p = root.find(id);
        if (!p) continue;
        if (!place_setup(*p, id[1] == 'B' ? stones::Stone::black : stones::Stone::white, start)) return false;
        set = true;
    }
    if (const std::string* pl = root.value("PL")) {
        const std::string v = lower(trim(*pl));
        if (v == "w" || v == "white") {
            start.set_side_to_move(Color::white);
            set = true;
        }
    }
    if (set) {
        start.update_outcome();
        tag("SetUp", "1");
        tag("Position", start.to_text());
    }
    out_.stone_start = start;
    white_first_ = start.side_to_move() == Color::white;
    return true;
}

bool Builder::node(const Node& n, bool root, Line& line, stones::StonePosition& pos, int& ply, bool main) {
    if (!root)
        for (const char* id : {"AB", "AW", "AE"})
            if (const Property* p = n.find(id))
                report(Severity::warning, "setup-ignored", p->offset,
                       std::string(id) +
                           " after the first node: set-up stones inside a game are not supported and "
                           "are left out");
    const Property* b = n.find("B");
    const Property* w = n.find("W");
    bool placed = false;
    if (b && w) {
        report_move(Severity::error, "illegal-move", *w, ply, "a node with both a black and a white move");
        return false;
    }
    if (const Property* m = b ? b : w) {
        const Color side = b ? Color::black : Color::white;
        const std::string v = m->values.empty() ? std::string() : trim(m->values.front().text);
        const int size = pos.size();
        if (pos.game_over()) {
            std::string how = "the game is already over";
            if (main && end_ply_ >= 0)
                how += pos.outcome() == Outcome::draw ? " (drawn after " + end_text_ + ")"
                                                      : " (" +
                        std::string(pos.outcome() == Outcome::white_wins ? "White" : "Black") + " won with " + end_text_ + ")";
            report_move(Severity::error, "move-after-end", *m, ply, how + "; no move can follow");
            return false;
        }
        if (v.empty() || (v == "tt" && size <= 19)) {
            report_move(Severity::error, "illegal-move", *m, ply,
                        "a pass: " + std::string(game_kind_name(pos.rules().kind)) + " has no passes");
            return false;
        }
        if (v.size() != 2 || !is_lower(v[0]) || !is_lower(v[1])) {
            report_move(Severity::error, "bad-move", *m, ply,
                        "not a point: SGF writes a point as two lower-case letters, column then row from the top "
                        "(e.g. hh)");
            return false;
        }
        const int file = v[0] - 'a', row = v[1] - 'a';
        if (file >= size || row >= size) {
            report_move(Severity::error, "illegal-move", *m, ply,
                        "the point is off the " + std::to_string(size) + "x" + std::to_string(size) + " board (letters a-" +
                            std::string(1, char('a' + size - 1)) + ")");
            return false;
        }
        const int point = stones::make_point(file, size - 1 - row);
        const std::string name = stones::point_name(point);
        if (side != pos.side_to_move()) {
            report_move(Severity::error, "illegal-move", *m, ply,
                        std::string(side == Color::black ? "a black" : "a white") + " stone on " + name + ", but " +
                            (pos.side_to_move() == Color::black ? "Black" : "White") + " is to move");
            return false;
        }
        const Move move = Move::placement(point);
        const stones::PlaceError e = pos.check(move);
        if (e != stones::PlaceError::none) {
            std::string why(stones::place_error_text(e));
            if (e == stones::PlaceError::occupied)
                why = "the point " + name + " is occupied by a " + (pos.at(point) == stones::Stone::black ? "black" : "white") +
                    " stone";
            else if (e == stones::PlaceError::double_three)
                why = name + " makes two free threes at once: a forbidden double-three";
            report_move(Severity::error, "illegal-move", *m, ply, why);
            return false;
        }
        stones::StoneUndo undo;
        pos.play(move, undo);
        if (main && pos.game_over() && end_ply_ < 0) {
            end_ply_ = ply;
            end_text_ = move_label(ply, side) + " " + name;
        }
        ++ply;
        Ply& p = line.plies.emplace_back();
        p.move = move;
        p.written = std::string(src_.slice(m->offset, m->length));
        placed = true;
    }
    // Annotations: SGF's move properties as NAGs (TE !, BM ?, IT !?, DO ?!; value 2 doubles them).
    if (placed) {
        auto twice = [&](const char* id) {
            const std::string* v = n.value(id);
            return v && trim(*v) == "2";
        };
        if (n.find("TE")) line.plies.back().nags.push_back(twice("TE") ? 3 : 1);
        if (n.find("BM")) line.plies.back().nags.push_back(twice("BM") ? 4 : 2);
        if (n.find("IT")) line.plies.back().nags.push_back(5);
        if (n.find("DO")) line.plies.back().nags.push_back(6);
    }
    if (const Property* c = n.find("C"))
        for (const Value& v : c->values) {
            std::string text = trim(v.text);
            if (text.empty()) continue;
            if (!line.plies.empty()) line.plies.back().comments.push_back(std::move(text));
            else line.comments.push_back(std::move(text));
        }
    return true;
}

void Builder::walk(int t, std::size_t first, Line& line, stones::StonePosition pos, int ply, bool main, int depth) {
    struct Pending {
        std::size_t at;
        std::vector<Line> alternatives;
    };
    std::vector<Pending> pending;
    for (;;) {
        const Tree& tree = p_.trees[std::size_t(t)];
        bool stopped = false;
        for (std::size_t k = first; k < tree.nodes.size() && !stopped; ++k)
            stopped = !node(tree.nodes[k], main && t == 0 && k == 0, line, pos, ply, main);
        if (stopped) {
            if (main) main_cut_ = true;
            break;
        }
        first = 0;
        if (tree.children.empty()) break;
        Pending alt{line.plies.size(), {}};
        for (std::size_t c = 1; c < tree.children.size(); ++c) {
            const int child = tree.children[c];
            if (depth >= 200) {
                report(Severity::error, "too-deep", p_.trees[std::size_t(child)].offset,
                       "variations nested more than 200 deep are left out");
                continue;
            }
            Line l;
            walk(child, 0, l, pos, ply, false, depth + 1);
            // Comments alone would be written as an empty variation, which reads back as nothing.
            if (l.plies.empty())
                report(Severity::warning, "empty-variation", p_.trees[std::size_t(child)].offset,
                       "a variation without moves is left out");
            else alt.alternatives.push_back(std::move(l));
        }
        if (!alt.alternatives.empty()) pending.push_back(std::move(alt));
        t = tree.children.front();
    }
    if (main) check_result(pos);
    for (Pending& pd : pending) {
        if (pd.at < line.plies.size()) {
            for (Line& l : pd.alternatives) line.plies[pd.at].variations.push_back(std::move(l));
        } else if (!(main && main_cut_)) {
            report(Severity::warning, "misplaced-variation", p_.trees[0].offset,
                   "variations at a point where the main line has no move are left out");
        }
    }
}

void Builder::check_result(const stones::StonePosition& final_pos) {
    const bool over = final_pos.game_over();
    const std::string winner(outcome_text(final_pos.outcome()));
    if (re_result_.empty()) {
        out_.result = over ? winner : "*";
        return;
    }
    out_.result = re_result_;
    if (!over) return; // a decisive result on an open position: a resignation (or a time loss)
    const std::string what = final_pos.outcome() == Outcome::draw
        ? "the board is full and the game drawn"
        : std::string(final_pos.outcome() == Outcome::white_wins ? "White" : "Black") + " won" +
            (end_ply_ >= 0 ? " with " + end_text_ : " in the start position");
    if (re_result_ == "*")
        report(Severity::warning, "result-incomplete", re_offset_, "RE does not name a winner but " + what + " (" + winner + ")");
    else if (re_result_ != winner)
        report(Severity::error, "result-contradicts", re_offset_, "RE says " + re_result_ + " but " + what + " (" + winner + ")");
}

void Builder::run() {
    if (p_.trees.empty() || p_.trees.front().nodes.empty()) {
        main_cut_ = true;
    } else {
        const Node& root = p_.trees.front().nodes.front();
        if (set_up(root)) walk(0, 0, out_.main, out_.stone_start, 0, true, 0);
        else main_cut_ = true;
    }
    if (p_.fault) {
        Diagnostic& d = report(Severity::error, "syntax", p_.fault->offset, p_.fault->message);
        const std::string_view rest = src_.text().substr(std::min<std::size_t>(p_.fault->offset, src_.text().size()));
        d.written = std::string(rest.substr(0, std::min(rest.find('\n'), std::size_t(40))));
        while (!d.written.empty() && (d.written.back() == '\r' || d.written.back() == ' ')) d.written.pop_back();
        if (p_.fault->on_main_line) main_cut_ = true;
    }
    std::stable_sort(out_.diagnostics.begin(), out_.diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
        return a.line != b.line ? a.line < b.line : a.column < b.column;
    });
    out_.status = main_cut_ ? GameStatus::partial : out_.error_count() > 0 ? GameStatus::invalid : GameStatus::valid;
}

void read_game(std::string_view chunk, int line, int column, const std::string& file, int number, GameRecord& out) {
    out.clear();
    out.kind = GameKind::gomoku;
    out.file = file;
    out.number = number;
    out.line = line;
    const Parsed parsed = parse_tree(chunk);
    const SourceMap src(chunk, line, column);
    Builder(parsed, src, file, number, out).run();
}

} // namespace

// ---------------------------------------------------------------------------------------------
// The reader: splits the collection into game trees.

SgfReader::SgfReader(const std::filesystem::path& path) : name_(path.string()) {
    auto f = std::make_unique<std::ifstream>(path, std::ios::binary);
    if (!*f) {
        io_error("cannot open " + name_);
        return;
    }
    owned_ = std::move(f);
    in_ = owned_.get();
}

SgfReader::SgfReader(std::istream& in, std::string name) : in_(&in), name_(std::move(name)) {}

SgfReader::~SgfReader() = default;

void SgfReader::io_error(std::string message) {
    io_failed_ = true;
    Diagnostic d;
    d.code = "io-error";
    d.message = std::move(message);
    d.file = name_;
    file_diagnostics_.push_back(std::move(d));
}

std::vector<Diagnostic> SgfReader::take_file_diagnostics() { return std::exchange(file_diagnostics_, {}); }

bool SgfReader::read_more() {
    if (eof_ || !in_) return false;
    if (pos_ > 0 && pos_ >= buf_.size() / 2) { // keep the buffer to the unread part
        buf_.erase(0, pos_);
        pos_ = 0;
    }
    char block[1 << 16];
    in_->read(block, sizeof block);
    const std::streamsize n = in_->gcount();
    if (in_->bad()) io_error("error reading " + name_);
    if (n <= 0) {
        eof_ = true;
        return false;
    }
    bytes_read_ += std::uint64_t(n);
    buf_.append(block, std::size_t(n));
    return true;
}

void SgfReader::advance(std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
        const auto c = static_cast<unsigned char>(buf_[i]);
        if (c == '\n') {
            ++line_;
            column_ = 1;
        } else if ((c & 0xC0) != 0x80 && c != '\r') {
            ++column_;
        }
    }
}

bool SgfReader::next(GameRecord& game) {
    if (!in_) return false;
    if (!started_) {
        started_ = true;
        while (buf_.size() < 3 && read_more()) {}
        if (buf_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = 3;
    }
    // To the next '(' that opens a node: anything else before it is reported and passed over.
    std::size_t junk = std::string::npos;
    int junk_line = 0, junk_column = 0;
    for (;;) {
        if (pos_ >= buf_.size() && !read_more()) break;
        const char c = buf_[pos_];
        if (c == '(') {
            // Look past blanks for ';' ("(;"): a '(' in junk text is not a game.
            std::size_t k = pos_ + 1;
            for (;;) {
                if (k >= buf_.size()) {
                    const std::size_t before = pos_;
                    if (!read_more()) break;
                    k -= before - pos_; // the buffer may have been compacted
                    continue;
                }
                if (!is_blank(buf_[k])) break;
                ++k;
            }
            if (k >= buf_.size() || buf_[k] == ';' || junk == std::string::npos) break;
        }
        if (!is_blank(c) && junk == std::string::npos) {
            junk = pos_;
            junk_line = line_;
            junk_column = column_;
        }
        advance(pos_, pos_ + 1);
        ++pos_;
    }
    if (junk != std::string::npos) {
        Diagnostic d;
        d.code = "syntax";
        d.message = "text outside any game tree is ignored (an SGF game starts with \"(;\")";
        d.file = name_;
        d.line = junk_line;
        d.column = junk_column;
        file_diagnostics_.push_back(std::move(d));
    }
    if (pos_ >= buf_.size()) return false;

    // The game tree: to the ')' that closes the first '(', outside property values.
    std::size_t k = pos_;
    int depth = 0;
    bool in_value = false, escaped = false, done = false;
    while (!done) {
        if (k >= buf_.size()) {
            const std::size_t before = pos_;
            if (!read_more()) break;
            k -= before - pos_;
            continue;
        }
        const char c = buf_[k++];
        if (in_value) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == ']') in_value = false;
        } else if (c == '[') {
            in_value = true;
        } else if (c == '(') {
            ++depth;
        } else if (c == ')') {
            done = --depth == 0;
        }
    }
    const std::string_view raw(buf_.data() + pos_, k - pos_);
    std::string converted;
    std::string_view chunk = raw;
    std::size_t bad = 0;
    if (!valid_utf8(raw, bad)) {
        cp1252_to_utf8(raw, converted);
        chunk = converted;
        if (!warned_encoding_) {
            warned_encoding_ = true;
            Diagnostic d;
            d.severity = Severity::warning;
            d.code = "not-utf8";
            d.message = "the file is not UTF-8; read as Windows-1252";
            d.file = name_;
            file_diagnostics_.push_back(std::move(d));
        }
    }
    read_game(chunk, line_, column_, name_, ++number_, game);
    advance(pos_, k);
    pos_ = k;
    return true;
}

std::vector<GameRecord> read_sgf(std::string_view text, const std::string& name, std::vector<Diagnostic>* file_diagnostics) {
    std::istringstream in{std::string(text)};
    SgfReader reader(in, name);
    std::vector<GameRecord> games;
    GameRecord g;
    while (reader.next(g)) games.push_back(g);
    if (file_diagnostics) *file_diagnostics = reader.take_file_diagnostics();
    return games;
}

bool looks_like_sgf(const std::filesystem::path& name, std::string_view head) {
    if (lower(name.extension().string()) == ".sgf") return true;
    if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);
    std::size_t i = 0;
    while (i < head.size() && is_blank(head[i])) ++i;
    if (i >= head.size() || head[i] != '(') return false;
    ++i;
    while (i < head.size() && is_blank(head[i])) ++i;
    return i < head.size() && head[i] == ';';
}

} // namespace gounki::parser
