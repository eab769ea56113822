// Piskvork PSQ files (psq.hpp). Syntax first (the lines into a plain struct, with the place of the
// first fault), then rules (the group's rule, the board, the moves replayed through core/stones,
// the engines' colours and the result), as for the other formats.

#include "parser/psq/psq.hpp"

#include <algorithm>
#include <charconv>
#include <istream>
#include <optional>
#include <sstream>
#include <utility>

#include "core/stones/position.hpp"
#include "parser/encoding.hpp"
#include "parser/five_rules.hpp"
#include "parser/resolve.hpp" // SourceMap, add_diagnostic

namespace gounki::parser {

namespace {

// ---------------------------------------------------------------------------------------------
// Syntax

struct PsqMove {
    int x = 0, y = 0;
    long ms = 0; // -1: not written (x,y alone)
    std::uint32_t offset = 0, length = 0; // the line as written
};

struct PsqName {
    std::string text;
    std::uint32_t offset = 0;
};

struct PsqFault {
    std::uint32_t offset = 0;
    std::string message;
    bool in_moves = false; // the moves stop there (the game is partial)
};

struct PsqText {
    int width = 0, height = 0;
    std::uint32_t header_offset = 0, size_offset = 0;
    std::vector<PsqMove> moves;
    std::vector<PsqName> names;
    PsqName end_code; // the end code's line as written: a name, should another end code follow
    int result = -1; // -1: no result line; else 0, 1 or 2
    std::string group;
    std::uint32_t result_offset = 0, group_offset = 0;
    std::optional<PsqFault> fault;
};

bool is_blank(char c) { return c == ' ' || c == '\t'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
// A blank or a control character: none of a name's or a number's text at a line's ends.
bool junk(char c) { return static_cast<unsigned char>(c) < 0x20 || c == ' ' || c == 0x7F; }

// A cursor over one line: whole numbers, commas, blanks around them.
struct Cursor {
    std::string_view line;
    std::size_t i = 0;

    void blanks() {
        while (i < line.size() && is_blank(line[i])) ++i;
    }
    bool number(long& out, bool sign = false) {
        blanks();
        const std::size_t from = i;
        if (sign && i < line.size() && line[i] == '-') ++i;
        if (i >= line.size() || !is_digit(line[i])) return i = from, false;
        const auto [end, ec] = std::from_chars(line.data() + from, line.data() + line.size(), out);
        if (ec != std::errc()) return i = from, false;
        i = std::size_t(end - line.data());
        blanks();
        return true;
    }
    bool comma() {
        if (i < line.size() && line[i] == ',') return ++i, true;
        return false;
    }
    bool at_end() const { return i >= line.size(); }
};

enum class Phase { moves, names, end_code, result };

// A line that starts with a digit, holds a letter and no comma is an engine's name ("3dgomoku.exe"):
// no move, end code or result line is written so.
bool digits_first_name(std::string_view line) {
    if (line.empty() || !is_digit(line[0]) || line.find(',') != std::string_view::npos) return false;
    return std::any_of(line.begin(), line.end(), [](char ch) { return (ch | 0x20) >= 'a' && (ch | 0x20) <= 'z'; });
}

// "Piskvorky 15x15, 11:11, 0": the first word and the board; what follows is the manager's own.
void read_header(std::string_view line, std::uint32_t offset, PsqText& out) {
    out.header_offset = offset;
    const std::string_view word = "piskvorky";
    bool ok = line.size() > word.size() && is_blank(line[word.size()]);
    for (std::size_t k = 0; ok && k < word.size(); ++k) ok = char(line[k] | 0x20) == word[k];
    const char* expected = "a PSQ file starts with a header such as 'Piskvorky 15x15, 11:11, 0'";
    if (!ok) {
        out.fault = PsqFault{offset, expected, true};
        return;
    }
    Cursor c{line, word.size()};
    c.blanks();
    out.size_offset = offset + std::uint32_t(c.i);
    long w = 0, h = 0;
    const bool size = c.number(w) && c.i < line.size() && (line[c.i] == 'x' || line[c.i] == 'X') && (++c.i, c.number(h));
    if (!size || !(c.at_end() || c.comma()) || w <= 0 || h <= 0 || w > 1000 || h > 1000) {
        out.fault = PsqFault{offset + std::uint32_t(c.i), std::string(expected) + ": the board's size is not readable", true};
        return;
    }
    out.width = int(w);
    out.height = int(h);
}

// One line after the header. False when it is a fault (out.fault set).
bool read_line(std::string_view line, std::uint32_t offset, Phase& phase, PsqText& out) {
    auto fail = [&](std::size_t at, std::string message) {
        out.fault = PsqFault{offset + std::uint32_t(at), std::move(message), phase == Phase::moves};
        return false;
    };
    // A number alone after the moves is the end code, unless a name or another number alone follows
    // while fewer than two engines are named: then it was an engine's name made of digits ("2024").
    const auto end_code_was_name = [&] {
        if (phase != Phase::end_code || out.names.size() >= 2 || out.end_code.text.find('-') != std::string::npos)
            return false;
        out.names.push_back(out.end_code);
        phase = Phase::names;
        return true;
    };
    Cursor c{line};
    // Blanks and control characters before the text (a stray CR or NUL) do not make a move a name.
    while (c.i < line.size() && junk(line[c.i])) ++c.i;
    if (c.i < line.size() && !digits_first_name(line.substr(c.i)) && (is_digit(line[c.i]) || line[c.i] == '-')) {
        const std::size_t text_at = c.i;
        long a = 0, b = 0, t = 0;
        if (!c.number(a, true)) return fail(c.i, "a move x,y,milliseconds, an end code or a result line was expected");
        if (c.at_end()) { // the end code
            if (!end_code_was_name() && (phase == Phase::end_code || phase == Phase::result))
                return fail(0, "a second end code");
            std::string_view written = line.substr(text_at);
            while (!written.empty() && junk(written.back())) written.remove_suffix(1);
            out.end_code = PsqName{std::string(written), offset + std::uint32_t(text_at)};
            phase = Phase::end_code;
            return true;
        }
        if (!c.comma()) return fail(c.i, "',' expected after " + std::to_string(a));
        const std::size_t second = c.i;
        // A move: x,y,milliseconds, or x,y alone (programs that keep no times write it so, and the
        // Piskvork manager reads it, as no time).
        bool move = c.number(b) && c.at_end();
        if (!move) {
            c.i = second;
            move = c.number(b) && c.comma() && c.number(t) && c.at_end();
        } else {
            t = -1;
        }
        if (move) {
            if (phase != Phase::moves) return fail(0, "a move after the engines' names or the end code");
            out.moves.push_back(PsqMove{int(a), int(b), t, offset, std::uint32_t(line.size())});
            return true;
        }
        // Not a move: a result line "1,Freestyle15_2" has a name, with no comma, after the code.
        const std::string_view rest = line.substr(second);
        const std::size_t name = rest.find_first_not_of(" \t");
        if (name == std::string_view::npos || is_digit(rest[name]) || rest.find(',') != std::string_view::npos)
            return fail(c.i, "a move is written x,y,milliseconds (or x,y): whole numbers separated by commas");
        c.i = second + name;
        if (phase == Phase::result) return fail(0, "a second result line");
        if (a < 0 || a > 2) return fail(0, "the result code is 0 (a draw), 1 (the first engine won) or 2 (the second)");
        out.result = int(a);
        out.result_offset = offset;
        out.group = std::string(line.substr(c.i));
        while (!out.group.empty() && is_blank(out.group.back())) out.group.pop_back();
        out.group_offset = offset + std::uint32_t(c.i);
        phase = Phase::result;
        return true;
    }
    if (phase != Phase::moves && phase != Phase::names && !end_code_was_name()) return fail(c.i, "text after the end code");
    if (out.names.size() == 2) return fail(c.i, "a third engine's name: a PSQ file names two");
    // A name is the line's text without the blanks and control characters around it, and with a
    // blank for one inside it (a stray CR would not survive being written on a line of its own).
    std::string name(line.substr(c.i));
    while (!name.empty() && junk(name.back())) name.pop_back();
    for (char& ch : name) // one inside it (a lone CR) reads as a blank
        if (junk(ch)) ch = ' ';
    if (name.empty()) return true; // only control characters: as a blank line
    // gounki's writer puts `_` before a name this reader would take for a number or a move (`-1`,
    // `7,7`): taken off again, so that such a name reads back as it was (psq_name_reads_back).
    if (name[0] == '_' && name.size() > 1 && psq_name_marked(std::string_view(name).substr(1))) name.erase(0, 1);
    out.names.push_back(PsqName{std::move(name), offset + std::uint32_t(c.i)});
    phase = Phase::names;
    return true;
}

PsqText parse_psq(std::string_view text) {
    PsqText out;
    bool header = false;
    Phase phase = Phase::moves;
    std::size_t at = 0;
    while (at < text.size() && !out.fault) {
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(at, end - at);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        const auto offset = std::uint32_t(at);
        at = end + 1;
        std::size_t b = 0;
        while (b < line.size() && is_blank(line[b])) ++b;
        if (b == line.size()) continue; // blank lines are passed over
        if (!header) {
            header = true;
            read_header(line, offset, out);
        } else {
            read_line(line, offset, phase, out);
        }
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Rules

class Builder {
public:
    Builder(const PsqText& psq, const SourceMap& src, const std::string& file, GameRecord& out)
        : p_(psq), src_(src), file_(file), out_(out) {}
    void run();

private:
    Diagnostic& report(Severity sev, std::string_view code, std::uint32_t offset, std::string message) {
        return add_diagnostic(out_, src_, file_, 1, sev, code, offset, std::move(message));
    }
    // The rule and the board from the group and the header; false when the moves cannot be replayed.
    bool set_rules();
    // Replays the moves; false when the main line stopped at an error.
    bool replay(stones::StonePosition& pos);
    // The opening's length, the engines' colours, the Result tag.
    void finish(const stones::StonePosition& pos, bool whole);

    const PsqText& p_;
    const SourceMap& src_;
    const std::string& file_;
    GameRecord& out_;
    stones::Rules rules_;
    int end_ply_ = -1;
    bool foul_ = false; // the last stone was Black's foul in Renju (foul_ending_text): White won
};

bool Builder::set_rules() {
    // The group's first word names the rule ("Freestyle15_2", "Standard", "Renju"); none: freestyle.
    std::size_t letters = 0;
    while (letters < p_.group.size() && ((p_.group[letters] | 0x20) >= 'a' && (p_.group[letters] | 0x20) <= 'z')) ++letters;
    const FiveRuleNames names = read_five_rule_names(p_.group.substr(0, letters));
    const FiveRuleChoice choice = choose_five_rules(names.rule);
    if (!choice.error.empty()) {
        report(Severity::error, "unsupported-game", p_.group_offset,
               "group '" + p_.group + "': " + choice.error + "; the moves are not replayed");
        return false;
    }
    out_.set_kind(choice.kind);
    rules_ = stones::Rules::defaults(choice.kind);
    const std::string size = std::to_string(p_.width) + "x" + std::to_string(p_.height);
    if (p_.width != p_.height) {
        report(Severity::error, "bad-rules", p_.size_offset,
               "a " + size + " board: gounki plays on square boards only; the moves are not replayed");
        return false;
    }
    if (stones::apply_size_tag(rules_, std::to_string(p_.width))) {
        report(Severity::error, "bad-rules", p_.size_offset,
               "a " + size + " board: gounki plays " + std::string(game_kind_name(choice.kind)) + " on " +
                   sizes_text(choice.kind) + " points a side only; the moves are not replayed");
        return false;
    }
    if (!choice.rules_tag.empty()) stones::apply_rules_tag(rules_, choice.rules_tag);
    return true;
}

bool Builder::replay(stones::StonePosition& pos) {
    const int size = pos.size();
    int ply = 0;
    for (const PsqMove& m : p_.moves) {
        const Color side = pos.side_to_move();
        const std::string written(src_.slice(m.offset, m.length));
        auto fail = [&](std::string_view code, std::string why) {
            Diagnostic& d = report(Severity::error, code, m.offset,
                                   std::to_string(ply / 2 + 1) + (side == Color::black ? ". " : "... ") + written + ": " + why);
            d.move_number = ply / 2 + 1;
            d.side = side;
            d.written = written;
            return false;
        };
        if (m.x < 1 || m.y < 1 || m.x > size || m.y > size)
            return fail("illegal-move",
                        "the point is off the " + std::to_string(size) + "x" + std::to_string(size) +
                            " board (x and y from 1 to " + std::to_string(size) + ")");
        const int point = stones::point_from_top_left(m.x - 1, m.y - 1, size);
        const std::string name = stones::point_name(point);
        if (pos.game_over())
            return fail("move-after-end", "(" + name + ") " + stones::game_over_text(pos));
        if (const stones::PlaceError e = pos.check(Move::placement(point)); e != stones::PlaceError::none) {
            if (e == stones::PlaceError::occupied)
                return fail("illegal-move", stones::occupied_text(pos, point));
            if (const auto foul = foul_ending(pos, point, e, written); foul && &m == &p_.moves.back()) {
                // Gomocup's manager writes the foul, then gives White the game: a whole game.
                Diagnostic& d = report(Severity::warning, "foul", m.offset,
                                       std::to_string(ply / 2 + 1) + ". " + written + ": " + foul->warning);
                d.move_number = ply / 2 + 1;
                d.side = side;
                d.written = written;
                d.left_out = true; // the stone is in no line: `format` keeps the file as written
                (out_.main.plies.empty() ? out_.main.comments : out_.main.plies.back().comments).push_back(foul->comment);
                foul_ = true;
                return true;
            }
            return fail("illegal-move", name + ": " + std::string(stones::place_error_text(e)));
        }
        stones::StoneUndo undo;
        pos.play(Move::placement(point), undo);
        out_.main.plies.emplace_back(Move::placement(point), written);
        if (pos.game_over() && end_ply_ < 0) end_ply_ = ply;
        ++ply;
    }
    return true;
}

void Builder::finish(const stones::StonePosition& pos, bool whole) {
    int opening = 0;
    while (opening < int(p_.moves.size()) && p_.moves[std::size_t(opening)].ms == 0) ++opening;
    const Outcome o = pos.outcome();
    const bool won =
        whole && (foul_ || ((o == Outcome::black_wins || o == Outcome::white_wins) && end_ply_ + 1 == int(p_.moves.size())));
    const Color winner = foul_ || o == Outcome::white_wins ? Color::white : Color::black; // when won
    if (won && opening > 0 && opening < int(p_.moves.size()) && (p_.result == 1 || p_.result == 2)) {
        // The winner's colour says which engine played Black: when the run of 0 ms stones says the
        // other, its last stone was the first engine's instant answer, not part of the opening.
        const Color first_named = p_.result == 1 ? winner : ~winner;
        if ((opening % 2 == 0 ? Color::black : Color::white) != first_named) --opening;
    }
    // Every stone at 0 ms in a game played out (a program that keeps no times writes them so): the
    // times tell no opening. The winner's colour, where a result line names the winner, tells which
    // engine played Black; else the first-named engine did.
    const bool timeless = won && !p_.moves.empty() && opening == int(p_.moves.size());
    Color first_named = opening % 2 == 0 ? Color::black : Color::white;
    if (timeless) {
        opening = 0;
        first_named = Color::black;
        if (p_.result == 1 || p_.result == 2) first_named = p_.result == 1 ? winner : ~winner;
    }
    auto tag = [&](std::string name, std::string value) { out_.tags.emplace_back(std::move(name), std::move(value)); };
    if (!p_.group.empty()) tag("Event", p_.group);
    const std::string* names[2] = {p_.names.size() > 0 ? &p_.names[0].text : nullptr,
                                   p_.names.size() > 1 ? &p_.names[1].text : nullptr};
    const std::string* black = first_named == Color::black ? names[0] : names[1];
    const std::string* white = first_named == Color::black ? names[1] : names[0];
    if (black) tag("Black", *black);
    if (white) tag("White", *white);
    std::string result = "*";
    if (p_.result == 0) result = "1/2-1/2";
    else if (p_.result > 0) result = (p_.result == 1) == (first_named == Color::black) ? "0-1" : "1-0";
    else if (pos.game_over()) result = std::string(outcome_text(o));
    else if (foul_) result = "1-0";
    if (foul_ && result != "1-0")
        report(Severity::error, "result-contradicts", p_.result_offset,
               "the result line says " + result + " but Black's last stone is a foul, which loses the game (1-0)");
    out_.result = result;
    tag("Result", result);
    if (opening > 0) tag("OpeningStones", std::to_string(opening));
    // The thinking times of the moves replayed, as written ("-" for a move without one), so that
    // export and format write them back: nothing else keeps them. Times of 0 and 1 ms only are what
    // gounki writes when it knows none (0 for the opening, 1 for the rest): no tag then.
    std::string times;
    bool timed = false;
    for (std::size_t i = 0; i < out_.main.plies.size() && i < p_.moves.size(); ++i) {
        timed = timed || p_.moves[i].ms > 1;
        if (i) times += ' ';
        times += p_.moves[i].ms >= 0 ? std::to_string(p_.moves[i].ms) : std::string("-");
    }
    if (timed) tag("MoveTimes", times);
    if (p_.result >= 0 && pos.game_over() && result != outcome_text(o)) {
        const std::string what = o == Outcome::draw ? "the board is full and the game drawn"
                                                    : std::string(o == Outcome::black_wins ? "Black" : "White") + " made five";
        report(Severity::error, "result-contradicts", p_.result_offset,
               "the result line says " + result + " but " + what + " (" + std::string(outcome_text(o)) + ")");
    }
}

void Builder::run() {
    out_.tags.emplace_back("Game", "Gomoku");
    bool whole = !(p_.fault && p_.fault->in_moves);
    const bool replayable = p_.width > 0 && set_rules();
    stones::StonePosition pos(rules_);
    if (replayable) {
        out_.tags.front().second = std::string(game_kind_name(out_.kind));
        out_.start = pos;
        whole = replay(pos) && whole;
    }
    finish(pos, replayable && whole);
    if (replayable && rules_.size != stones::Rules::defaults(out_.kind).size)
        out_.tags.emplace_back("Size", std::to_string(rules_.size));
    if (const std::string r = stones::rules_tag_text(rules_); replayable && !r.empty()) out_.tags.emplace_back("Rules", r);
    if (p_.fault) report(Severity::error, "syntax", p_.fault->offset, p_.fault->message);
    std::stable_sort(out_.diagnostics.begin(), out_.diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
        return a.line != b.line ? a.line < b.line : a.column < b.column;
    });
    out_.status = !(replayable && whole) ? GameStatus::partial : out_.error_count() > 0 ? GameStatus::invalid : GameStatus::valid;
}

void read_game(std::string_view text, const std::string& file, GameRecord& out) {
    out.clear();
    out.set_kind(GameKind::gomoku);
    out.file = file;
    out.number = 1;
    out.line = 1;
    const PsqText psq = parse_psq(text);
    const SourceMap src(text, 1, 1);
    Builder(psq, src, file, out).run();
}

} // namespace

// ---------------------------------------------------------------------------------------------
// The reader: the whole file is one game.

bool PsqReader::next(GameRecord& game) {
    if (!in_ || done_) return false;
    done_ = true;
    std::string text;
    if (!read_whole(text, max_bytes, "a PSQ file holds one game of a few kilobytes; not read")) return false;
    std::string_view view = text;
    if (view.substr(0, 3) == "\xEF\xBB\xBF") view.remove_prefix(3);
    std::string converted;
    std::size_t bad = 0;
    if (!valid_utf8(view, bad)) {
        cp1252_to_utf8(view, converted);
        view = converted;
        file_error("not-utf8", "the file is not UTF-8; read as Windows-1252", Severity::warning);
    }
    if (view.find_first_not_of(" \t\r\n") == std::string_view::npos) { // not a game: said, and passed over
        file_error("syntax", "the file is empty: a PSQ file holds one game, after a header such as 'Piskvorky 15x15, 11:11, 0'");
        return false;
    }
    read_game(view, name_, game);
    return true;
}

bool psq_name_reads_back(std::string_view name) {
    if (name.empty() || name.find_first_of("\r\n") != std::string_view::npos) return false;
    if (junk(name.front()) || junk(name.back())) return false;
    if (name[0] == '-') return false;
    if (!is_digit(name[0])) return true;
    return digits_first_name(name) || std::all_of(name.begin(), name.end(), is_digit);
}

bool psq_name_marked(std::string_view name) {
    return name.empty() || (!psq_name_reads_back(name) && (is_digit(name[0]) || name[0] == '-'));
}

GameRecord read_psq(std::string_view text, const std::string& name, std::vector<Diagnostic>* file_diagnostics) {
    std::istringstream in{std::string(text)};
    PsqReader reader(in, name);
    GameRecord g;
    if (!reader.next(g)) g.clear();
    if (file_diagnostics) *file_diagnostics = reader.take_file_diagnostics();
    return g;
}

bool claims_psq(std::string_view head) {
    std::size_t i = 0;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) ++i;
    const std::string_view word = "piskvorky";
    if (head.size() - i < word.size()) return false;
    for (std::size_t k = 0; k < word.size(); ++k)
        if (char(head[i + k] | 0x20) != word[k]) return false;
    return true;
}

} // namespace gounki::parser
