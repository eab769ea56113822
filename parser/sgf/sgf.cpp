// SGF import (sgf.hpp), the rules: what a game tree (sgf_tree.hpp) means, replayed through
// core/stones, as a GameRecord. The syntax is its own step (sgf_tree.cpp), as for GPN, and so is
// cutting a collection into game trees (sgf_reader.cpp).

#include "parser/sgf/sgf.hpp"
#include "core/text.hpp"
#include "parser/sgf/sgf_tree.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <istream>
#include <optional>
#include <sstream>
#include <utility>

#include "core/stones/position.hpp"
#include "parser/dates.hpp"
#include "parser/encoding.hpp"
#include "parser/five_rules.hpp"
#include "parser/resolve.hpp" // SourceMap, add_diagnostic

namespace gounki::parser {

namespace {

using namespace sgf; // the syntax tree of sgf_tree.hpp

// ---------------------------------------------------------------------------------------------
// Rules: the tree as a GameRecord, replayed.

std::string trim(std::string_view s) {
    std::size_t b = 0, e = s.size();
    while (b < e && is_blank(s[b])) ++b;
    while (e > b && is_blank(s[e - 1])) --e;
    return std::string(s.substr(b, e - b));
}

// RE as SGF writes it: the winner (B+, W+, with the reason: R or Resign, T or Time, F or Forfeit,
// or a score), 0 / Draw / D / Jigo, and no result (Void, ?, empty). Anything else: no value.
struct SgfResult {
    std::string result; // 1-0, 0-1, 1/2-1/2 or *
    std::string termination; // the reason as PGN's Termination tag says it (sgf.hpp), or empty
};
// The board sizes of the five-in-a-row games (15, 19, 20), as SZ writes them.
bool five_board(std::string_view sz) { return sz == "15" || sz == "19" || sz == "20"; }

// A point as SGF writes it for Go and Gomoku: two lower-case letters (hh).
bool is_sgf_point(std::string_view v) {
    return v.size() == 2 && v[0] >= 'a' && v[0] <= 'z' && v[1] >= 'a' && v[1] <= 'z';
}

std::optional<SgfResult> result_of(std::string_view re) {
    const std::string v = lower(trim(re));
    if (v.rfind("b+", 0) == 0 || v.rfind("w+", 0) == 0 || v == "b" || v == "w") {
        const std::string reason = v.size() > 2 ? v.substr(2) : std::string();
        std::string termination;
        for (const auto& [letter, word, name] : sgf_result_reasons)
            if (reason == letter || reason == word) termination = name;
        return SgfResult{v[0] == 'b' ? "0-1" : "1-0", termination};
    }
    if (v == "0" || v == "draw" || v == "d" || v == "jigo") return SgfResult{"1/2-1/2", {}};
    if (v.empty() || v == "?" || v == "void" || v == "*") return SgfResult{"*", {}};
    return std::nullopt;
}

// An SGF point ("hh": column, then row from the top) of a board of `size`; no_point when `t` is none.
int sgf_point(std::string_view t, int size) {
    if (t.size() != 2 || !is_lower(t[0]) || !is_lower(t[1]) || t[0] - 'a' >= size || t[1] - 'a' >= size)
        return stones::no_point;
    return stones::make_point(t[0] - 'a', size - 1 - (t[1] - 'a'));
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
        return std::to_string(move_number(ply)) + (side == first_ ? "." : "...");
    }
    // Rules and start position from the root node. False when the moves cannot be replayed.
    bool set_up(const Node& root);
    bool set_up_start(const Node& root, Color first);
    bool place_setup(const Property& prop, stones::Stone stone, stones::StonePosition& pos);
    // Replays tree `t` from node `first` into `line`; recursion only for the alternatives.
    void walk(int t, std::size_t first, Line& line, stones::StonePosition pos, int ply, bool main, int depth);
    // One node: its moves (false when one stops the line) and comments.
    bool node(const Node& n, bool root, Line& line, stones::StonePosition& pos, int& ply, bool main);
    // One move B[..] or W[..]: checked, played and added to `line`; false when it stops the line.
    bool place(const Property& prop, Color side, Line& line, stones::StonePosition& pos, int& ply, bool main);
    void check_result(const stones::StonePosition& final_pos);
    // A property gounki does not read: a warning, once per identifier and game.
    void check_known(const Property& prop, bool root);
    // 5A (Renju servers: the fifth moves Black offered) as one-move variations of the fifth move.
    void offered_fifth_moves(const Node& root);
    std::string alt_text(const Property& alt) const;

    const Parsed& p_;
    const SourceMap& src_;
    const std::string& file_;
    int number_;
    GameRecord& out_;
    stones::Rules rules_;
    bool white_first_ = false; // the start has the second player of a move pair to move
    Color first_ = Color::black; // the game's first mover
    bool main_cut_ = false;
    int end_ply_ = -1;
    std::string end_text_;
    std::string re_result_; // from RE; empty when there is no RE
    std::uint32_t re_offset_ = 0;
    // The main line's last move (B or W) as written, where a Renju game lost by Black's foul ends
    // (five_rules.hpp, foul_ending); no_offset when the main line has none.
    static constexpr std::uint32_t no_offset = std::uint32_t(-1);
    std::uint32_t last_move_offset_ = no_offset;
    const Property* first_move_ = nullptr; // the main line's first move (B or W), if any
    std::vector<std::string> unknown_ids_; // properties already reported as not read
    std::vector<std::string> misplaced_ids_; // game information already reported outside the first node
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

    // The game. RU and GN are read first: a five-in-a-row rule named there says what a wrong GM
    // meant (Renju servers write GM[5]).
    GameKind kind = GameKind::gomoku;
    bool replay = true;
    // RU names the rule set and the opening rule (five_rules.hpp); GN too, when RU does not. RU's
    // other words are the game's options (RU[Ninuki simple]); Gomoku has none: they are unknown-rule.
    const Property* ru = root.find("RU");
    FiveRuleNames names = ru && !ru->values.empty() ? read_five_rule_names(ru->values.front().text) : FiveRuleNames{};
    const Property* named_by = names.rule.empty() ? nullptr : ru;
    const Property* five_by = names.rule.empty() && names.opening.empty() ? nullptr : ru;
    if (const Property* gn = root.find("GN"); gn && !gn->values.empty()) {
        const bool ru_names = !names.rule.empty() || !names.opening.empty(); // then GN is only a name
        const FiveRuleNames g = read_five_rule_names(gn->values.front().text, RuleText::free_text);
        if (names.rule.empty() && !g.rule.empty()) named_by = gn;
        // GN is free text: its plain "free" or "gomoku" is no evidence against GM, a rule's name is.
        if (!five_by && ((!g.rule.empty() && g.rule != "freestyle") || !g.opening.empty())) five_by = gn;
        if (names.rule.empty()) names.rule = g.rule;
        if (!ru_names) names.opening = g.opening;
    }
    if (!five_by) five_by = root.find("5A");
    const std::string* size = root.value("SZ");
    if (const std::string* gm = root.value("GM")) {
        if (trim(*gm) != "4" && five_by) {
            report(Severity::warning, "wrong-game-number", offset_of("GM"),
                   "GM[" + trim(*gm) + "] is not Gomoku (GM[4]), but " + five_by->id + "[" +
                       (five_by->values.empty() ? std::string() : five_by->values.front().text) +
                       "] belongs to a five-in-a-row game; read as GM[4]");
        } else if (trim(*gm) == "5" && size && trim(*size) == "15") {
            // GM[5] alone on the 15x15 board: Renju programs write it for their games (a server's,
            // an app's records) even where nothing names a rule.
            report(Severity::warning, "wrong-game-number", offset_of("GM"),
                   "GM[5] is not Gomoku (GM[4]), but Renju programs write GM[5] for their games on the 15x15 board "
                   "(SZ[15]); read as GM[4]");
        } else if (const std::string n = trim(*gm); (n == "2" || n == "11") && size && five_board(trim(*size)) && first_move_ &&
                   is_sgf_point(first_move_->values.empty() ? std::string() : trim(first_move_->values.front().text))) {
            // GM[2] (Othello, an 8x8 game) and GM[11] (Hex, whose moves SGF writes as a1) on a Gomoku
            // board with moves written as SGF points: Gomoku apps write these numbers for their games.
            report(Severity::warning, "wrong-game-number", offset_of("GM"),
                   "GM[" + n + "] is " + (n == "2" ? "Othello" : "Hex") + ", not Gomoku (GM[4]), but Gomoku apps write GM[" + n +
                       "] for their games; on the " + trim(*size) + "x" + trim(*size) +
                       " board with moves such as B[" + trim(first_move_->values.front().text) + "], read as GM[4]");
        } else if (trim(*gm) != "4") {
            report(Severity::error, "unsupported-game", offset_of("GM"),
                   "GM[" + trim(*gm) + "] is not Gomoku (GM[4]); the moves are not replayed");
            replay = false;
        }
    } else {
        report(Severity::warning, "missing-game", root.offset,
               "no GM property (SGF's default is Go, GM[1]); read as Gomoku, GM[4]");
    }
    std::string option_words; // blanks between, as in a Rules tag
    for (const std::string& w : names.others)
        if (w != "rules" && w != "rule") option_words += (option_words.empty() ? "" : " ") + w;
    const FiveRuleChoice choice = choose_five_rules(names.rule);
    if (!choice.error.empty()) {
        report(Severity::error, "unsupported-game", named_by->offset,
               named_by->id + "[" + named_by->values.front().text + "]: " + choice.error + "; the moves are not replayed");
        replay = false;
    } else {
        kind = choice.kind;
    }
    out_.set_kind(kind);
    rules_ = stones::Rules::defaults(kind);
    if (!choice.rules_tag.empty()) stones::apply_rules_tag(rules_, choice.rules_tag);
    tag("Game", std::string(game_kind_name(kind)));
    for (const auto& [id, name] : sgf_info_tags)
        if (const std::string* v = root.value(id); v && !trim(*v).empty()) tag(std::string(name), trim(*v));
    if (const std::string* v = root.value("DT")) tag("Date", project_date(*v));
    const std::pair<const char*, const char*> players[] = {
        {"PB", "Black"}, {"PW", "White"}, {"BR", "BlackElo"}, {"WR", "WhiteElo"}};
    for (const auto& [id, name] : players)
        if (const std::string* v = root.value(id)) {
            // BR and WR are ranks: a number is a rating (Elo), a rank such as "3d*" is kept as one.
            const std::string t = trim(*v);
            const bool rank = id[1] == 'R' && t.find_first_not_of("0123456789") != std::string::npos;
            tag(rank ? (id[0] == 'B' ? "BlackRank" : "WhiteRank") : name, t);
        }
    if (const Property* re = root.find("RE"); re && !re->values.empty()) {
        const std::optional<SgfResult> r = result_of(re->values.front().text);
        if (!r)
            report(Severity::warning, "bad-result-tag", re->offset,
                   "RE[" + re->values.front().text +
                       "] is no result SGF writes (B+, W+ with R, T or F, 0, Draw, Void, ?); read as unknown (*)");
        re_result_ = r ? r->result : "*";
        re_offset_ = re->offset;
        out_.result = re_result_;
        tag("Result", re_result_);
        if (r && !r->termination.empty()) tag("Termination", r->termination);
    }
    if (const std::string* tm = root.value("TM")) tag("TimeControl", trim(*tm)); // seconds, as PGN's
    // GC, the game's comment (a server writes its game number there): a comment before the first move.
    if (const std::string* gc = root.value("GC"); gc && !trim(*gc).empty()) out_.main.comments.push_back(trim(*gc));
    if (const std::string* sz = root.value("SZ")) {
        tag("Size", trim(*sz));
        if (auto e = stones::apply_size_tag(rules_, trim(*sz))) {
            if (replay)
                report(Severity::error, "bad-rules", offset_of("SZ"), "SZ[" + *sz + "]: " + *e + "; the moves are not replayed");
            replay = false;
        }
    }
    if (kind == GameKind::gomoku && !option_words.empty() && replay && ru) {
        // Gomoku has no options: a word here names nothing gounki knows (a Go rule set, another
        // program's rule name); the game is read as freestyle, and said so.
        report(Severity::warning, "unknown-rule", ru->offset,
               "RU[" + ru->values.front().text + "]: '" + option_words +
                   "' names no rule of the five-in-a-row games gounki knows; read as Gomoku freestyle");
    }
    if (kind != GameKind::gomoku && !option_words.empty()) { // Gomoku's words are rule names (above)
        if (auto e = stones::apply_rules_tag(rules_, option_words)) {
            if (replay)
                report(Severity::error, "bad-rules", offset_of("RU"),
                       "RU[" + *root.value("RU") + "]: " + *e + "; the moves are not replayed");
            replay = false;
        }
    }
    if (const std::string t = stones::rules_tag_text(rules_); !t.empty()) tag("Rules", t);
    if (!names.opening.empty()) tag("OpeningRule", names.opening);
    if (const Property* alt = root.find("5A")) tag("Alt", alt_text(*alt));
    return replay && set_up_start(root, first_mover(kind));
}

// The start position: AB/AW stones and PL, as SetUp and Position tags when they change the empty
// board with the first mover to move.
bool Builder::set_up_start(const Node& root, Color first) {
    auto tag = [&](std::string name, std::string value) { out_.tags.emplace_back(std::move(name), std::move(value)); };
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
        const bool w = v == "w" || v == "white", b = v == "b" || v == "black";
        if ((w || b) && (w ? Color::white : Color::black) != start.side_to_move()) {
            start.set_side_to_move(w ? Color::white : Color::black);
            set = true;
        }
    } else if (set) {
        // No PL: the second player moves when the first has one stone more (an opening laid out as AB/AW).
        int own = 0, other = 0;
        for (int p = 0; p < stones::point_count; ++p) {
            own += start.at(p) == stones::stone_of(first);
            other += start.at(p) == stones::stone_of(~first);
        }
        if (own == other + 1) start.set_side_to_move(~first);
    }
    if (set) {
        start.update_outcome();
        tag("SetUp", "1");
        tag("Position", start.to_text());
    }
    out_.start = start;
    white_first_ = start.side_to_move() != first;
    first_ = first;
    return true;
}

bool Builder::place(const Property& prop, Color side, Line& line, stones::StonePosition& pos, int& ply, bool main) {
    const Property* m = &prop;
    const std::string v = m->values.empty() ? std::string() : trim(m->values.front().text);
    const int size = pos.size();
    if (pos.game_over()) {
        std::string how = "the game is already over";
        if (main && end_ply_ >= 0)
            how += pos.outcome() == Outcome::draw
                ? " (drawn after " + end_text_ + ")"
                : " (" + std::string(pos.outcome() == Outcome::white_wins ? "White" : "Black") + " won with " + end_text_ + ")";
        report_move(Severity::error, "move-after-end", *m, ply, how + "; no move can follow");
        return false;
    }
    if (v.empty() || (v == "tt" && size <= 19)) {
        const std::string kind(game_kind_name(pos.rules().kind));
        if (pos.rules().pass_allowed())
            report_move(Severity::error, "unsupported-move", *m, ply,
                        "a pass: " + kind + "'s rules allow it, but gounki does not replay passes; the game stops here");
        else
            report_move(Severity::error, "illegal-move", *m, ply, "a pass: " + kind + " has no passes");
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
            why = stones::occupied_text(pos, point);
        else if (e == stones::PlaceError::double_three) why = name + " makes two free threes at once: a forbidden double-three";
        const bool last = main && m->offset == last_move_offset_;
        if (const auto foul = last ? foul_ending(pos, point, e, v) : std::nullopt) {
            if (re_result_ == "1-0") { // Black lost by the foul: the game ends before it, whole
                report_move(Severity::warning, "foul", *m, ply, foul->warning).left_out = true;
                (line.plies.empty() ? line.comments : line.plies.back().comments).push_back(foul->comment);
                return true;
            }
            why += foul_result_hint();
        }
        report_move(Severity::error, "illegal-move", *m, ply, why);
        return false;
    }
    if (pos.breaks_tournament_rule(point))
        report_move(Severity::warning, "tournament-rule", *m, ply, std::string(pos.tournament_rule_text()));
    if (const std::string breach = opening_rule_breach(out_, pos, point); !breach.empty())
        report_move(Severity::warning, "opening-rule", *m, ply, breach);
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
    return true;
}

bool Builder::node(const Node& n, bool root, Line& line, stones::StonePosition& pos, int& ply, bool main) {
    for (const Property& p : n.props) check_known(p, root);
    if (!root)
        for (const char* id : {"AB", "AW", "AE"})
            if (const Property* p = n.find(id))
                report(Severity::warning, "setup-ignored", p->offset,
                       std::string(id) +
                           " after the first node: set-up stones inside a game are not supported and "
                           "are left out")
                    .left_out = true;
    // Programs write several moves in one node (;B[hh]W[ii]B[jj]): each is a ply, in order.
    bool placed = false;
    for (const Property& m : n.props) {
        if (m.id != "B" && m.id != "W") continue;
        if (!place(m, m.id == "B" ? Color::black : Color::white, line, pos, ply, main)) return false;
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
    } else {
        // A move's annotation in a node without a move annotates nothing (an engine-match program
        // writes its game's end, TE[Black win by five connection], in the root): said, not lost.
        for (const char* id : {"TE", "BM", "IT", "DO"})
            if (const Property* a = n.find(id);
                a && std::find(misplaced_ids_.begin(), misplaced_ids_.end(), a->id) == misplaced_ids_.end()) {
                misplaced_ids_.push_back(a->id);
                report(Severity::warning, "misplaced-property", a->offset,
                       shortened(std::string(src_.slice(a->offset, a->length))) +
                           ": a move's annotation, in a node without a move; left out")
                    .left_out = true;
            }
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
                   "variations at a point where the main line has no move are left out")
                .left_out = true;
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

// The SGF properties gounki reads, and those it knows and leaves out on purpose: the file's and the
// program's (FF CA AP ST), Go's komi and handicap (KM HA, which Gomoku programs write as 0),
// markup and board display (LB MA TR SQ CR AR LN DD VW FG PM SL), timing (BL WL OB OW), node names
// and values (N V MN KO), position judgements (GB GW DM UC HO) and the swap answer of Renju servers
// (SW). Any other property is reported, so that nothing a producer wrote vanishes unsaid.
void Builder::check_known(const Property& prop, bool root) {
    static constexpr std::string_view known[] = {
        "B",  "W",  "C",  "AB", "AW", "AE", "PL", "TE", "BM", "IT", "DO", "FF", "CA", "AP", "ST", "GM",
        "SZ", "GN", "EV", "PC", "RO", "DT", "PB", "PW", "BR", "WR", "BT", "WT", "RE", "RU", "GC", "SO",
        "US", "AN", "CP", "ON", "OT", "TM", "KM", "HA", "LB", "MA", "TR", "SQ", "CR", "AR", "LN", "DD",
        "VW", "FG", "PM", "SL", "BL", "WL", "OB", "OW", "N",  "V",  "MN", "KO", "GB", "GW", "DM", "UC",
        "HO", "SW", "5A"};
    // Game information belongs in the game's first node, where it is read: elsewhere it is said.
    static constexpr std::string_view root_only[] = {"SZ", "GN", "EV", "PC", "RO", "DT", "PB", "PW", "BR", "WR", "BT",
                                                     "WT", "RE", "RU", "GC", "SO", "US", "AN", "CP", "ON", "OT", "TM", "5A"};
    if (!root && std::find(std::begin(root_only), std::end(root_only), prop.id) != std::end(root_only)) {
        if (std::find(misplaced_ids_.begin(), misplaced_ids_.end(), prop.id) != misplaced_ids_.end()) return;
        misplaced_ids_.push_back(prop.id);
        const std::string written = shortened(std::string(src_.slice(prop.offset, prop.length)));
        report(Severity::warning, "misplaced-property", prop.offset,
               written + ": game information belongs in the game's first node, where gounki reads it; left out")
            .left_out = true;
        return;
    }
    // Passed over, but what a reader of the game would miss: markup, node names, timing and
    // judgements, which gounki keeps nowhere (the display's and the program's properties, komi
    // and a server's swap answer are only passed over).
    static constexpr std::string_view kept_nowhere[] = {"LB", "MA", "TR", "SQ", "CR", "AR", "LN", "DD", "SL", "N", "BL",
                                                        "WL", "OB", "OW", "V",  "GB", "GW", "DM", "UC", "HO"};
    if (std::find(std::begin(kept_nowhere), std::end(kept_nowhere), prop.id) != std::end(kept_nowhere)) {
        if ((" " + out_.passed_over + " ").find(" " + prop.id + " ") == std::string::npos)
            out_.passed_over += (out_.passed_over.empty() ? "" : " ") + prop.id;
        return;
    }
    if (std::find(std::begin(known), std::end(known), prop.id) != std::end(known)) return;
    if (std::find(unknown_ids_.begin(), unknown_ids_.end(), prop.id) != unknown_ids_.end()) return;
    unknown_ids_.push_back(prop.id);
    const std::string written = shortened(std::string(src_.slice(prop.offset, prop.length)));
    report(Severity::warning, "unknown-property", prop.offset,
           written + ": " + prop.id + " is no SGF property of the stone games that gounki reads; left out")
        .left_out = true;
}

// 5A's values as points in algebraic notation ("gg" on 15x15 is g9), blanks between; a value that
// is no point of the board is kept as written.
std::string Builder::alt_text(const Property& alt) const {
    std::string out;
    for (const Value& v : alt.values) {
        const std::string t = trim(v.text);
        const int p = sgf_point(t, rules_.size);
        out += (out.empty() ? "" : " ") + (p != stones::no_point ? stones::point_name(p) : t);
    }
    return out;
}

// The fifth moves Black offered (5A, as RenjuNet's alt: 4.5 of docs/rules.md): each but the one
// played becomes a one-move variation of the fifth move; an offer that is no point, or no move
// Black could play after the fourth, is the warning bad-alt and the offers stay in the Alt tag.
void Builder::offered_fifth_moves(const Node& root) {
    const Property* alt = root.find("5A");
    if (!alt || out_.main.plies.size() < 5 || out_.tag("SetUp")) return;
    stones::StonePosition pos = out_.start.as_stones();
    stones::StoneUndo undo;
    for (std::size_t i = 0; i < 4; ++i) pos.play(out_.main.plies[i].move, undo);
    std::vector<Line> offers;
    std::vector<int> points;
    std::vector<std::string> written;
    bool said_same = false;
    for (const Value& v : alt->values) {
        const std::string t = trim(v.text);
        const int p = sgf_point(t, pos.size());
        const bool point = p != stones::no_point;
        if (!point || !pos.is_legal(Move::placement(p))) {
            report(Severity::warning, "bad-alt", v.offset,
                   "5A[" + t + "]: " +
                       (point ? stones::point_name(p) + " is no fifth move Black could play" : "not a point of the board") +
                       "; the offered fifth moves are kept in the Alt tag only");
            return;
        }
        points.push_back(p);
        written.push_back(stones::point_name(p));
        // Said at the offer that makes the first pair (each offer before it differed).
        if (const std::string same = said_same ? std::string() : same_fifth_offers_text(pos, points, written); !same.empty()) {
            report(Severity::warning, "opening-rule", v.offset, "5A[" + t + "]: " + same);
            said_same = true;
        }
        if (Move::placement(p) == out_.main.plies[4].move) continue; // the offer White chose: the move played
        const std::vector<Line>& variations = out_.main.plies[4].variations; // an offer the file also has as a variation
        if (std::any_of(variations.begin(), variations.end(),
                        [&](const Line& l) { return !l.plies.empty() && l.plies[0].move == Move::placement(p); }))
            continue;
        offers.push_back(offered_fifth_move(Move::placement(p), t));
    }
    for (Line& l : offers) out_.main.plies[4].variations.push_back(std::move(l));
}

void Builder::run() {
    if (p_.trees.empty() || p_.trees.front().nodes.empty()) {
        main_cut_ = true;
    } else {
        const Node& root = p_.trees.front().nodes.front();
        // The main line's first and last moves; the last is none when a variation is its alternative
        // (it starts the first of several subtrees), as a PGN move followed by a variation.
        bool alternatives = false;
        for (int t = 0;; t = p_.trees[std::size_t(t)].children.front()) {
            const Tree& tree = p_.trees[std::size_t(t)];
            for (std::size_t k = 0; k < tree.nodes.size(); ++k)
                for (const Property& m : tree.nodes[k].props)
                    if (m.id == "B" || m.id == "W") {
                        last_move_offset_ = alternatives && k == 0 ? no_offset : m.offset;
                        if (!first_move_) first_move_ = &m;
                    }
            if (tree.children.empty()) break;
            alternatives = tree.children.size() > 1;
        }
        if (set_up(root)) {
            walk(0, 0, out_.main, out_.start.as_stones(), 0, true, 0);
            offered_fifth_moves(root);
        } else {
            main_cut_ = true;
        }
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

} // namespace

void sgf::read_game(std::string_view chunk, int line, int column, const std::string& file, int number, GameRecord& out) {
    out.clear();
    out.set_kind(GameKind::gomoku);
    out.file = file;
    out.number = number;
    out.line = line;
    out.column = column;
    const Parsed parsed = parse_tree(chunk);
    const SourceMap src(chunk, line, column);
    Builder(parsed, src, file, number, out).run();
}

} // namespace gounki::parser
