// PSQ export of a Gomoku or Renju game (psq.hpp write_psq): what the PSQ reader reads back as the same game.

#include <algorithm>
#include <string>
#include <vector>

#include "core/stones/position.hpp"
#include "parser/five_rules.hpp"
#include "parser/psq/psq.hpp"

namespace gounki::parser {

namespace {

int opening_stones(const GameRecord& game) {
    const std::string* t = game.tag("OpeningStones");
    if (!t || t->empty() || t->size() > 4 || t->find_first_not_of("0123456789") != std::string::npos) return 0;
    return std::min(std::stoi(*t), int(game.main.plies.size()));
}

// The MoveTimes tag's words (what a PSQ file gave: milliseconds, "-" for none), one per move of the
// main line; empty when there is no such tag or it does not fit the moves.
std::vector<std::string> move_times(const GameRecord& game) {
    const std::string* t = game.tag("MoveTimes");
    if (!t) return {};
    std::vector<std::string> words;
    std::size_t at = 0;
    while (at < t->size()) {
        const std::size_t end = std::min(t->find(' ', at), t->size());
        const std::string w = t->substr(at, end - at);
        at = end + 1;
        if (w.empty()) continue;
        if (w != "-" && (w.size() > 9 || w.find_first_not_of("0123456789") != std::string::npos)) return {};
        words.push_back(w);
    }
    if (words.size() != game.main.plies.size()) return {};
    return words;
}

// PSQ's games: no captures, Black first, so that the stones alternate from Black (Gomoku, Renju).
bool psq_game(GameKind kind) {
    return is_stone_game(kind) && !stones::Rules::defaults(kind).captures() && first_mover(kind) == Color::black;
}

std::string psq_games_text() {
    std::string out;
    for (const GameInfo& g : games())
        if (psq_game(g.kind)) out += (out.empty() ? "" : " and ") + std::string(g.name);
    return out;
}

// The rule word that read_five_rule_names reads back as this game's rules: Gomoku's rule, or the
// game's name.
std::string rule_word(const GameRecord& game) {
    if (game.kind != GameKind::gomoku) return std::string(game_info(game.kind).id);
    const std::string words = stones::rules_tag_text(game.start.as_stones().rules());
    return words.empty() ? "freestyle" : words;
}

// A name on a line of its own: no line ends, and not a line the reader takes for a number or a move
// ("_" before it then).
std::string name_line(std::string name) {
    for (char& c : name)
        if (c == '\n' || c == '\r') c = ' ';
    if (psq_name_marked(name)) name = "_" + name;
    return name;
}

// The group of the result line: the Event when it names the game's rule (or no rule, for freestyle),
// else the rule's name, capitalised, and the board's size ("Standard15").
std::string group(const GameRecord& game) {
    const std::string rule = rule_word(game);
    if (const std::string* e = game.tag("Event"); e && !e->empty() && e->find_first_of("\r\n") == std::string::npos) {
        std::size_t letters = 0;
        while (letters < e->size() && (((*e)[letters] | 0x20) >= 'a' && ((*e)[letters] | 0x20) <= 'z')) ++letters;
        const std::string named = read_five_rule_names(e->substr(0, letters)).rule;
        if (named == rule || (named.empty() && rule == "freestyle")) return *e;
    }
    std::string g = rule;
    g[0] = char(g[0] & ~0x20);
    return g + std::to_string(game.start.as_stones().size());
}

} // namespace

std::string psq_cannot_hold(const GameRecord& game) {
    if (!psq_game(game.kind))
        return "PSQ holds " + psq_games_text() + " games only; this is a " + std::string(game_kind_name(game.kind)) + " game";
    if (!(game.start.as_stones() == stones::StonePosition(game.start.as_stones().rules())))
        return "PSQ cannot hold a start position other than the empty board";
    if (game.result == "*" && rule_word(game) != "freestyle")
        return "PSQ names the rule (" + rule_word(game) + ") in the result line only, which a game without a result has not";
    return {};
}

std::string write_psq(const GameRecord& game) {
    const int size = game.start.as_stones().size();
    std::string out = "Piskvorky " + std::to_string(size) + "x" + std::to_string(size) + ", 11:11, 0\n";
    // The thinking times the PSQ file gave (its MoveTimes tag, one per move, "-" for none), else
    // the opening's stones with time 0 and the others with 1 ms.
    const int opening = opening_stones(game);
    const std::vector<std::string> times = move_times(game);
    int ply = 0;
    for (const Ply& p : game.main.plies) {
        const int x = stones::top_left_x(p.move.point()) + 1;
        const int y = stones::top_left_y(p.move.point(), size) + 1;
        const std::string time = !times.empty() ? times[std::size_t(ply)] : ply < opening ? "0" : "1";
        out += std::to_string(x) + "," + std::to_string(y) + (time == "-" ? "" : "," + time) + "\n";
        ++ply;
    }
    // The engine that plays the first stone after the opening is named first.
    const bool black_first = opening % 2 == 0;
    const std::string* first = game.tag(black_first ? "Black" : "White");
    const std::string* second = game.tag(black_first ? "White" : "Black");
    if (first || second) {
        out += name_line(first ? *first : "?") + "\n";
        out += name_line(second ? *second : "?") + "\n";
    }
    out += "-1\n";
    const std::string& r = game.result;
    if (r == "1/2-1/2") out += "0," + group(game) + "\n";
    else if (r == "1-0" || r == "0-1") out += std::string((r == "0-1") == black_first ? "1," : "2,") + group(game) + "\n";
    return out;
}

} // namespace gounki::parser
