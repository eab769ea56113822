// SGF export of a stone game (sgf.hpp write_sgf): what the SGF reader reads back as the same game.

#include <sstream>
#include <string>

#include "core/stones/position.hpp"
#include "core/text.hpp"
#include "parser/dates.hpp"
#include "parser/five_rules.hpp"
#include "parser/sgf/sgf.hpp"

namespace gounki::parser {

namespace {

// A property value: ']' and '\' escaped.
std::string value(std::string_view v) {
    std::string out;
    for (char c : v) {
        if (c == ']' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

void property(std::string& out, std::string_view id, std::string_view v) {
    out += id;
    out += '[';
    out += value(v);
    out += ']';
}

// Column letter, then row letter counted from the top.
std::string point_text(int point, int size) {
    std::string s(2, 'a');
    s[0] = char('a' + stones::point_file(point));
    s[1] = char('a' + (size - 1 - stones::point_rank(point)));
    return s;
}

class Writer {
public:
    explicit Writer(std::string& out) : out_(out) {}

    // Plies k.. of `line` from `pos`; where a ply has alternatives, the line goes on as the first
    // child and each alternative is a sibling (the reader takes the first child as the main line).
    void plies(const Line& line, std::size_t k, stones::StonePosition pos, bool alternatives_done) {
        for (std::size_t i = k; i < line.plies.size(); ++i) {
            const Ply& p = line.plies[i];
            if (!p.variations.empty() && !(i == k && alternatives_done)) {
                out_ += "\n(";
                plies(line, i, pos, true);
                out_ += ')';
                for (const Line& v : p.variations) {
                    if (v.plies.empty()) continue;
                    out_ += "\n(";
                    // A tree starts with a node: when the first move has alternatives of its own
                    // (children of this tree), a node without a move comes first, holding the
                    // line's comments if it has any.
                    if (!v.comments.empty() || !v.plies[0].variations.empty()) {
                        out_ += ';';
                        comments(v.comments);
                    }
                    plies(v, 0, pos, false);
                    out_ += ')';
                }
                return;
            }
            if (pos.game_over() || !pos.is_legal(p.move)) return; // never read; a record built by hand may hold it
            out_ += ';';
            property(out_, pos.side_to_move() == Color::black ? "B" : "W", point_text(p.move.point(), pos.size()));
            nags(p.nags);
            comments(p.comments);
            stones::StoneUndo undo;
            pos.play(p.move, undo);
        }
    }

    // SGF's C holds one text: several comments are its paragraphs, a line end between them (C[a][b]
    // is no SGF, and other programs read its first value only).
    void comments(const std::vector<std::string>& texts) {
        if (texts.empty()) return;
        std::string joined;
        for (const std::string& c : texts) joined += (joined.empty() ? "" : "\n") + c;
        out_ += "C[" + value(joined) + ']';
    }

private:
    // SGF's move annotations: ! TE[1], ? BM[1], !! TE[2], ?? BM[2], !? IT, ?! DO; other NAGs have none.
    void nags(const std::vector<std::uint8_t>& list) {
        bool te = false, bm = false, it = false, d = false;
        for (std::uint8_t n : list) {
            if ((n == 1 || n == 3) && !te) property(out_, "TE", n == 3 ? "2" : "1"), te = true;
            else if ((n == 2 || n == 4) && !bm) property(out_, "BM", n == 4 ? "2" : "1"), bm = true;
            else if (n == 5 && !it) out_ += "IT[]", it = true;
            else if (n == 6 && !d) out_ += "DO[]", d = true;
        }
    }

    std::string& out_;
};

// RU: the game and its rule words (read_five_rule_names reads them back), then the opening rule.
std::string rule_text(const GameRecord& game) {
    const stones::Rules& rules = game.start.as_stones().rules();
    std::string out = game.kind == GameKind::gomoku ? std::string() : std::string(game_kind_name(game.kind));
    const std::string words = stones::rules_tag_text(rules);
    if (!words.empty()) out += (out.empty() ? "" : " ") + words;
    if (const std::string* opening = game.tag("OpeningRule")) {
        // A Renju opening rule alone reads as Renju: a Gomoku game names its game before it.
        if (out.empty() && game.kind == GameKind::gomoku) out = "Gomoku";
        out += (out.empty() ? "" : " ") + *opening;
    }
    // A GN that names a rule decides the game when RU names none (the reader's rule): RU then names
    // Gomoku, so that a freestyle game called "Renju practice" reads back as freestyle.
    if (const std::string* name = game.tag("GameName"); name && read_five_rule_names(out).rule.empty()) {
        const FiveRuleNames g = read_five_rule_names(*name, RuleText::free_text);
        if (!g.rule.empty() || !g.opening.empty()) out = "Gomoku" + (out.empty() ? "" : " " + out);
    }
    return out;
}

void root(std::string& out, const GameRecord& game) {
    const stones::StonePosition& start = game.start.as_stones();
    out += "(;FF[4]GM[4]CA[UTF-8]";
    property(out, "SZ", std::to_string(start.size()));
    if (const std::string ru = rule_text(game); !ru.empty()) property(out, "RU", ru);
    for (const auto& [id, name] : sgf_info_tags)
        if (const std::string* v = game.tag(name)) property(out, id, *v);
    const std::pair<const char*, const char*> ids[] = {
        {"Black", "PB"}, {"White", "PW"}, {"BlackElo", "BR"}, {"WhiteElo", "WR"}};
    for (const auto& [name, id] : ids)
        if (const std::string* v = game.tag(name)) property(out, id, *v);
    for (const auto& [name, id] : {std::pair{"BlackRank", "BR"}, std::pair{"WhiteRank", "WR"}})
        if (const std::string* v = game.tag(name); v && !game.tag(id[0] == 'B' ? "BlackElo" : "WhiteElo")) property(out, id, *v);
    if (const std::string* d = game.tag("Date"); d && d->find_first_not_of("?.-/ ") != std::string::npos) // not "????.??.??"
        property(out, "DT", sgf_date(*d));
    // TimeControl in seconds (PGN's, SGF's TM): a number only; "40/7200:3600" has no TM.
    if (const std::string* t = game.tag("TimeControl"); t && !t->empty() && t->find_first_not_of("0123456789.") == std::string::npos)
        property(out, "TM", *t);
    const std::string& r = game.result;
    std::string reason; // B+R: the Termination tag's reason, for a won game
    if (const std::string* t = game.tag("Termination"); t && (r == "1-0" || r == "0-1"))
        for (const SgfResultReason& rr : sgf_result_reasons)
            if (lower(*t) == rr.termination) reason = std::string(1, char(rr.letter[0] - 'a' + 'A'));
    property(out, "RE", (r == "1-0" ? "W+" : r == "0-1" ? "B+" : r == "1/2-1/2" ? "0" : "?") + reason);
    // The offered fifth moves (RenjuNet's alt, a Renju server's 5A) as 5A, when each is a point.
    if (const std::string* alt = game.tag("Alt")) {
        std::string list = *alt, points;
        for (char& c : list)
            if (c == ',' || c == ';') c = ' ';
        std::istringstream words(list);
        bool all = true;
        for (std::string w; all && words >> w;) {
            const int p = stones::parse_point(w, start.size());
            all = p != stones::no_point;
            if (all) points += '[' + point_text(p, start.size()) + ']';
        }
        if (all && !points.empty()) out += "5A" + points;
    }
    for (const auto& [id, stone] : {std::pair{"AB", stones::Stone::black}, std::pair{"AW", stones::Stone::white}}) {
        std::string points;
        for (int p = 0; p < stones::point_count; ++p)
            if (start.on_board(p) && start.at(p) == stone) points += '[' + point_text(p, start.size()) + ']';
        if (!points.empty()) out += id + points;
    }
    // PL whenever it is not the reader's guess without one: with set-up stones (where stone counts
    // decide), or a side to move other than the first mover.
    if (start.stone_count() > 0 || start.side_to_move() != first_mover(game.kind))
        out += start.side_to_move() == Color::white ? "PL[W]" : "PL[B]";
}

} // namespace

std::string sgf_cannot_hold(const GameRecord& game) {
    if (!game.is_stone_game())
        return "SGF holds the stone games only; this is a " + std::string(game_kind_name(game.kind)) + " game";
    const stones::StonePosition& start = game.start.as_stones();
    if (start.captured(Color::black) || start.captured(Color::white) || start.pending_five())
        return "its start position has captured stones or a pending five, which SGF cannot say";
    return {};
}

std::string write_sgf(const GameRecord& game) {
    std::string out;
    root(out, game);
    Writer w(out);
    w.comments(game.main.comments);
    w.plies(game.main, 0, game.start.as_stones(), false);
    out += ")\n";
    return out;
}

} // namespace gounki::parser
