// The RenjuNet database reader (renjunet.hpp): expat streams the XML; the tables are kept by id, each
// game is built and replayed when its </game> is read.

#include "parser/renju/renjunet.hpp"

#include <expat.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <deque>
#include <istream>
#include <sstream>
#include <unordered_map>

#include "core/stones/position.hpp"
#include "parser/dates.hpp"
#include "parser/encoding.hpp"
#include "parser/five_rules.hpp"
#include "parser/renju/stone_line.hpp"

namespace gounki::parser {

namespace {

// The encoding a file's start declares, in lower case: "utf-16" for a UTF-16 byte order mark, the
// XML declaration's `encoding`, or "" when it names none.
std::string declared_encoding(std::string_view head) {
    if (head.starts_with("\xFE\xFF") || head.starts_with("\xFF\xFE")) return "utf-16";
    if (head.starts_with("\xEF\xBB\xBF")) head.remove_prefix(3);
    const std::size_t start = head.find_first_not_of(" \t\r\n");
    // "<?xml" and a blank: the declaration (another instruction, <?xml-stylesheet?>, is no declaration).
    if (start == std::string_view::npos || head.substr(start, 5) != "<?xml" || head.size() <= start + 5 ||
        std::string_view(" \t\r\n").find(head[start + 5]) == std::string_view::npos)
        return "";
    const std::string_view declaration = head.substr(start, head.find("?>", start) - start);
    const std::size_t at = declaration.find("encoding");
    if (at == std::string_view::npos) return "";
    const std::size_t open = declaration.find_first_of("\"'", at);
    if (open == std::string_view::npos) return "";
    const std::size_t close = declaration.find(declaration[open], open + 1);
    std::string name(declaration.substr(open + 1, close == std::string_view::npos ? std::string_view::npos : close - open - 1));
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return name;
}

// A place in the text expat is given: the line ends before it, counted as expat counts them (LF,
// CR, and CR LF as one), and the characters after the last.
struct Position {
    int lines = 0, chars = 0;
    bool after_cr = false; // the last byte was a CR: an LF next ends no other line
    void advance(std::string_view text) {
        if (text.empty()) return;
        if (text.find('\r') == std::string_view::npos) { // LF alone, the common case: counted at speed
            const std::size_t end = text.rfind('\n');
            lines += int(std::count(text.begin(), text.end(), '\n')) - (after_cr && text[0] == '\n' ? 1 : 0);
            chars = (end == std::string_view::npos ? chars : 0) +
                int(utf8_length(end == std::string_view::npos ? text : text.substr(end + 1)));
            after_cr = false;
            return;
        }
        for (const char ch : text) {
            const auto c = static_cast<unsigned char>(ch);
            if (c == '\n' || c == '\r') {
                if (!(c == '\n' && after_cr)) ++lines;
                chars = 0;
                after_cr = c == '\r';
                continue;
            }
            after_cr = false;
            if ((c & 0xC0) != 0x80) ++chars; // a character's first byte
        }
    }
};

using Attributes = std::vector<std::pair<std::string, std::string>>;

const std::string* find(const Attributes& a, std::string_view key) {
    for (const auto& [k, v] : a)
        if (k == key) return &v;
    return nullptr;
}

std::string get(const Attributes& a, std::string_view key) {
    const std::string* v = find(a, key);
    return v ? *v : std::string();
}

// A row's name; some rows have only an abbreviation.
std::string name_of(const Attributes& a) {
    std::string n = get(a, "name");
    return n.empty() ? get(a, "abbr") : n;
}

// The tables a game refers to by id, and the element and table names that hold them.
enum Table { countries, cities, players, tournaments, rules, openings, table_count };
constexpr std::string_view element_names[table_count] = {"country", "city", "player", "tournament", "rule", "opening"};
constexpr std::string_view table_names[table_count] = {"countries", "cities", "players", "tournaments", "rules", "openings"};

} // namespace

struct RenjuNetReader::State {
    std::istream& in;
    std::string name;
    XML_Parser parser = nullptr;
    bool done = false, failed = false, stopped = false;
    std::uint64_t bytes = 0;
    std::vector<Diagnostic> file_diagnostics;
    std::deque<GameRecord> ready;
    std::unordered_map<std::string, Attributes> tables[table_count];
    int depth = 0;
    // The game being read.
    bool in_game = false, in_move = false, in_info = false, move_placed = false;
    Attributes game;
    int game_line = 0, game_column = 0, game_number = 0;
    std::string moves, info;
    int move_line = 0, move_column = 0;
    // The bytes read and what expat is given of them: UTF-8 (`utf8`: the file declares no other
    // encoding) with any byte that is not read as Windows-1252, a character cut at a block's end
    // kept in `rest` for the next.
    std::string raw, cooked, rest;
    std::string encoding; // as the file declares it, in lower case ("": none)
    std::unique_ptr<CharsetDecoder> charset; // a set that is neither UTF-8 nor read by expat
    bool utf8 = true, told_not_utf8 = false;
    Position fed; // where what expat was given ends (UTF-8, until the not-utf8 warning is given)

    State(std::istream& input, std::string file) : in(input), name(std::move(file)) {}

    int line() const { return int(XML_GetCurrentLineNumber(parser)); }
    int column() const { return int(XML_GetCurrentColumnNumber(parser)) + 1; }
    void file_error(std::string code, std::string message, int at_line = 0, int at_column = 0,
                    Severity severity = Severity::error) {
        Diagnostic d = file_diagnostic(std::move(code), name, std::move(message), severity);
        d.line = at_line;
        d.column = at_column;
        file_diagnostics.push_back(std::move(d));
    }
    void start(std::string_view element, const XML_Char** atts);
    void end(std::string_view element);
    void feed();
    void choose_encoding(); // from the file's first block
};

namespace {

// ---------------------------------------------------------------------------------------------
// A game from its attributes, the tables and its move text.

class GameBuilder {
public:
    GameBuilder(const RenjuNetReader::State& s, GameRecord& out) : s_(s), out_(out) {}
    void run();

private:
    void warn(std::string message) {
        add_line_diagnostic(out_, Severity::warning, "unknown-id", at_game(), std::move(message));
    }
    StoneLineMove at_game() const {
        StoneLineMove w;
        w.line = s_.game_line;
        w.column = s_.game_column;
        return w;
    }
    // The row of `table` that the game's attribute (or `id`) names; nullptr, with a warning, when none.
    const Attributes* row(Table table, const std::string& id, std::string_view attribute) {
        if (id.empty()) return nullptr;
        const auto it = s_.tables[table].find(id);
        if (it != s_.tables[table].end()) return &it->second;
        warn(std::string(attribute) + " id " + id + " is not in the file's <" + std::string(table_names[table]) + ">");
        return nullptr;
    }
    bool choose_rules();
    void tags();
    std::vector<StoneLineMove> read_moves(bool& whole);
    void offered_fifth_moves();
    std::string stated_result();

    const RenjuNetReader::State& s_;
    GameRecord& out_;
    const Attributes* tournament_ = nullptr;
    std::string opening_rule_;
};

// The rule's name from the rule table (the game's rule, else its tournament's); none: Renju.
bool GameBuilder::choose_rules() {
    out_.set_kind(GameKind::renju);
    std::string id = get(s_.game, "rule");
    if (id.empty() && tournament_) id = get(*tournament_, "rule");
    std::string rule_name;
    if (!id.empty()) {
        const auto it = s_.tables[rules].find(id);
        auto fail = [&](std::string why) {
            add_line_diagnostic(out_, Severity::error, "unsupported-game", at_game(), why + "; the moves are not replayed");
            return false;
        };
        if (it == s_.tables[rules].end()) return fail("rule id " + id + " is not in the file's <rules>");
        rule_name = name_of(it->second);
        const FiveRuleNames names = read_five_rule_names(rule_name);
        if (names.rule.empty()) return fail("rule '" + rule_name + "' (id " + id + ") names no rule set gounki knows");
        const FiveRuleChoice choice = choose_five_rules(names.rule);
        if (!choice.error.empty()) return fail("rule '" + rule_name + "' (id " + id + "): " + choice.error);
        out_.set_kind(choice.kind);
        opening_rule_ = names.opening;
        stones::Rules r = stones::Rules::defaults(out_.kind);
        if (!choice.rules_tag.empty()) stones::apply_rules_tag(r, choice.rules_tag);
        out_.start = stones::StonePosition(r);
    }
    return true;
}

void GameBuilder::tags() {
    auto tag = [&](std::string name, std::string value) {
        if (!value.empty()) out_.tags.emplace_back(std::move(name), std::move(value));
    };
    tag("Game", std::string(game_kind_name(out_.kind)));
    std::string site, date;
    if (tournament_) {
        tag("Event", get(*tournament_, "name"));
        std::string country_id = get(*tournament_, "country");
        if (const Attributes* city = row(cities, get(*tournament_, "city"), "the tournament's city")) {
            site = name_of(*city);
            if (country_id.empty()) country_id = get(*city, "country");
        }
        if (const Attributes* country = row(countries, country_id, "the tournament's country")) {
            const std::string c = name_of(*country);
            site += (site.empty() || c.empty() ? "" : ", ") + c;
        }
        date = get(*tournament_, "start");
        if (date.empty()) date = get(*tournament_, "year");
    }
    tag("Site", site);
    if (const std::string d = get(s_.game, "date"); !d.empty()) date = d;
    tag("Date", date.empty() ? date : project_date(date));
    if (const std::string r = get(s_.game, "round"); r != "0") tag("Round", r);
    for (const char* colour : {"black", "white"}) {
        const Attributes* p = row(players, get(s_.game, colour), std::string("the ") + colour + " player");
        if (!p) continue;
        const std::string first = get(*p, "name"), last = get(*p, "surname");
        tag(colour[0] == 'b' ? "Black" : "White", last.empty() ? first : first.empty() ? last : last + ", " + first);
    }
    if (const Attributes* o = row(openings, get(s_.game, "opening"), "the opening")) tag("Opening", name_of(*o));
    tag("OpeningRule", opening_rule_);
    tag("RenjuNetId", get(s_.game, "id"));
    tag("Alt", get(s_.game, "alt"));
    tag("Swap", get(s_.game, "swap"));
    tag("Info", s_.info);
    if (const std::string r = stones::rules_tag_text(out_.start.as_stones().rules()); !r.empty()) tag("Rules", r);
}

// The points of the move text, each with its line and column; stops at a word that is no point.
std::vector<StoneLineMove> GameBuilder::read_moves(bool& whole) {
    std::vector<StoneLineMove> out;
    const std::string& t = s_.moves;
    const int size = out_.start.as_stones().size();
    int line = s_.move_line, column = s_.move_column;
    for (std::size_t i = 0; i < t.size();) {
        if (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n') {
            if (t[i] == '\n') ++line, column = 1;
            else ++column;
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < t.size() && t[end] != ' ' && t[end] != '\t' && t[end] != '\r' && t[end] != '\n') ++end;
        StoneLineMove m;
        m.written = t.substr(i, end - i);
        m.line = line;
        m.column = column;
        m.point = stones::parse_point(m.written, size);
        if (m.point == stones::no_point) {
            const std::string last = stones::point_name(stones::make_point(size - 1, size - 1));
            add_line_diagnostic(out_, Severity::error, "bad-move", m,
                                "'" + m.written + "' is not a point of the " + std::to_string(size) + "x" + std::to_string(size) +
                                    " board (a1 to " + last + "); the moves stop here");
            whole = false;
            return out;
        }
        column += int(end - i);
        i = end;
        out.push_back(std::move(m));
    }
    return out;
}

// The fifth moves Black offered (Yamaguchi, Soosyrv-n, Taraguchi-n: the game's `alt`, points
// separated by blanks, commas or semicolons), each but the one White chose as a one-move variation of the fifth move,
// checked as a move there; a word that is no point, or a point not playable after the fourth move,
// is a warning and the offers stay in the Alt tag only. A whole number (renju.net's file writes
// alt="51" in some games; what it counts is not published) lists no points: the tag keeps it.
void GameBuilder::offered_fifth_moves() {
    const std::string alt = get(s_.game, "alt");
    if (alt.empty() || out_.main.plies.size() < 5) return;
    if (alt.find_first_not_of("0123456789") == std::string::npos) return;
    stones::StonePosition pos = out_.start.as_stones();
    stones::StoneUndo undo;
    for (std::size_t i = 0; i < 4; ++i) pos.play(out_.main.plies[i].move, undo);
    std::vector<Line> offers;
    std::string list = alt;
    std::replace_if(list.begin(), list.end(), [](char c) { return c == ',' || c == ';'; }, ' ');
    std::istringstream words(list);
    std::vector<int> points;
    std::vector<std::string> written;
    for (std::string w; words >> w;) {
        const int point = stones::parse_point(w, pos.size());
        if (point == stones::no_point || !pos.is_legal(Move::placement(point))) {
            add_line_diagnostic(out_, Severity::warning, "bad-alt", at_game(),
                                "alt='" + alt + "': '" + w + "' is " +
                                    (point == stones::no_point ? std::string("not a point of the board")
                                                               : "no fifth move Black could play") +
                                    "; the offered fifth moves are kept in the Alt tag only");
            return;
        }
        points.push_back(point);
        written.push_back(w);
        const Move m = Move::placement(point);
        if (m == out_.main.plies[4].move) continue; // the offer White chose: the move played
        offers.push_back(offered_fifth_move(m, w));
    }
    if (const std::string same = same_fifth_offers_text(pos, points, written); !same.empty())
        add_line_diagnostic(out_, Severity::warning, "opening-rule", at_game(), "alt='" + alt + "': " + same);
    for (Line& l : offers) out_.main.plies[4].variations.push_back(std::move(l));
}

// bresult is Black's score; gounki's results name White first ("0-1": Black won).
std::string GameBuilder::stated_result() {
    const std::string b = get(s_.game, "bresult");
    if (b.empty()) return "*";
    if (b == "1") return "0-1";
    if (b == "0") return "1-0";
    if (b == "0.5" || b == "1/2") return "1/2-1/2";
    add_line_diagnostic(out_, Severity::warning, "bad-result-tag", at_game(),
                        "bresult='" + b + "': Black's score is 1, 0.5 or 0; read as no result");
    return "*";
}

void GameBuilder::run() {
    tournament_ = row(tournaments, get(s_.game, "tournament"), "the tournament");
    const bool replayable = choose_rules();
    bool whole = replayable;
    stones::StonePosition pos = out_.start.as_stones();
    tags(); // before the moves: their checks read the OpeningRule tag
    const std::string stated = stated_result();
    if (replayable) {
        const std::vector<StoneLineMove> moves = read_moves(whole);
        whole = replay_stone_line(out_, moves, pos, stated) && whole;
        offered_fifth_moves();
    }
    settle_stone_result(out_, pos, stated, at_game());
    out_.tags.emplace_back("Result", out_.result);
    std::stable_sort(out_.diagnostics.begin(), out_.diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
        return a.line != b.line ? a.line < b.line : a.column < b.column;
    });
    out_.status = !whole ? GameStatus::partial : out_.error_count() > 0 ? GameStatus::invalid : GameStatus::valid;
}

void on_start(void* user, const XML_Char* element, const XML_Char** atts) {
    static_cast<RenjuNetReader::State*>(user)->start(element, atts);
}
void on_end(void* user, const XML_Char* element) { static_cast<RenjuNetReader::State*>(user)->end(element); }
void on_text(void* user, const XML_Char* text, int length) {
    auto* s = static_cast<RenjuNetReader::State*>(user);
    if (s->in_info) s->info.append(text, std::size_t(length));
    if (!s->in_move) return;
    if (!s->move_placed) {
        s->move_placed = true;
        s->move_line = s->line();
        s->move_column = s->column();
    }
    s->moves.append(text, std::size_t(length));
}

} // namespace

void RenjuNetReader::State::start(std::string_view element, const XML_Char** atts) {
    if (++depth == 1 && element != "database") {
        file_error("syntax",
                   "the root element is <" + std::string(element) + ">: a RenjuNet database's is <database>; not read",
                   line(), column());
        stopped = true;
        XML_StopParser(parser, XML_FALSE);
        return;
    }
    if (element == "game") {
        in_game = true;
        move_placed = false;
        moves.clear();
        info.clear();
        game.clear();
        for (int i = 0; atts[i]; i += 2) game.emplace_back(atts[i], atts[i + 1]);
        game_line = line();
        game_column = column();
        ++game_number;
        return;
    }
    if (in_game) {
        if (element == "move") in_move = true;
        if (element == "info") in_info = true;
        return;
    }
    for (int t = 0; t < table_count; ++t) {
        if (element != element_names[t]) continue;
        Attributes row;
        for (int i = 0; atts[i]; i += 2) row.emplace_back(atts[i], atts[i + 1]);
        std::string id = get(row, "id");
        if (id.empty())
            file_error("unknown-id", "a <" + std::string(element) + "> without an id: no game can refer to it", line(),
                       column(), Severity::warning);
        else
            tables[t][std::move(id)] = std::move(row);
    }
}

void RenjuNetReader::State::end(std::string_view element) {
    --depth;
    if (element == "move") in_move = false;
    if (element == "info") in_info = false;
    if (element != "game" || !in_game) return;
    in_game = false;
    GameRecord& g = ready.emplace_back();
    g.clear();
    g.file = name;
    g.number = game_number;
    g.line = game_line;
    GameBuilder(*this, g).run();
}

void RenjuNetReader::State::choose_encoding() {
    encoding = declared_encoding(raw);
    // UTF-8's byte order mark says the file is UTF-8, whatever the declaration says (as SGF's CA).
    utf8 = encoding.empty() || encoding == "utf-8" || encoding == "utf8" || raw.starts_with("\xEF\xBB\xBF");
    // A UTF-16 file (its byte order mark), and the sets expat reads itself, are left to expat.
    const bool utf16 = raw.starts_with("\xFE\xFF") || raw.starts_with("\xFF\xFE");
    if (!utf8 && !utf16 && encoding != "iso-8859-1" && encoding != "us-ascii") {
        // Another set (windows-1251, Shift_JIS...): ICU decodes it. A set ICU does not know either
        // is expat's "unknown encoding".
        charset = CharsetDecoder::open(encoding);
        if (charset && !charset->ascii_compatible()) {
            // The declaration was read one byte a character: the file is in no such set (UTF-16
            // without its byte order mark, UTF-32).
            file_error("bad-charset",
                       "the file declares the encoding '" + encoding +
                           "', but writes its declaration in one byte a character; read as UTF-8 (Windows-1252 where it is not)",
                       1, 1, Severity::warning);
            charset.reset();
            utf8 = true;
        }
    }
    // What expat is given is then UTF-8, whatever the declaration says (expat knows no "utf8").
    if (charset || utf8) XML_SetEncoding(parser, "UTF-8");
}

void RenjuNetReader::State::feed() {
    constexpr std::size_t block = 1 << 16;
    raw.resize(block);
    in.read(raw.data(), std::streamsize(block));
    const auto n = std::size_t(std::max<std::streamsize>(in.gcount(), 0));
    raw.resize(n);
    bytes += n;
    if (in.bad()) {
        failed = true;
        done = true;
        file_error("io-error", "error reading " + name);
        return;
    }
    const bool last = n < block;
    if (bytes == n) choose_encoding();
    std::string_view text = raw;
    if (charset) { // a set expat does not read, decoded to UTF-8 by ICU
        cooked.clear();
        charset->decode(raw, false, cooked);
        if (last) {
            charset->decode({}, true, cooked);
            if (charset->replaced())
                file_error("bad-charset", charset->replaced_message(encoding, "the file declares that encoding"), 0, 0,
                           Severity::warning);
        }
        text = cooked;
    } else if (utf8) {
        // UTF-8, as the file says (or says nothing): a byte that is not is read as Windows-1252,
        // with one warning at the first (expat would stop the whole file there).
        std::size_t bad = 0;
        if (!rest.empty() || !valid_utf8(raw, bad)) { // else the block goes to expat as it is
            const std::string whole = std::exchange(rest, {}) + raw;
            cooked.clear();
            bad = utf8_else_cp1252(whole, last, cooked, rest);
            if (bad != std::string::npos && !told_not_utf8) {
                told_not_utf8 = true;
                Position at = fed;
                at.advance(std::string_view(whole).substr(0, bad));
                char byte[8];
                std::snprintf(byte, sizeof byte, "0x%02X", unsigned(static_cast<unsigned char>(whole[bad])));
                file_error("not-utf8",
                           std::string("the byte ") + byte +
                               " is not UTF-8, as the rest of the file is: it and every other such byte are read as Windows-1252",
                           at.lines + 1, at.chars + 1, Severity::warning);
            }
            text = cooked;
        }
        if (!told_not_utf8) fed.advance(text);
    }
    if (XML_Parse(parser, text.data(), int(text.size()), last) == XML_STATUS_ERROR) {
        done = true;
        if (stopped) return;
        std::string message = std::string("broken XML: ") + XML_ErrorString(XML_GetErrorCode(parser));
        if (XML_GetErrorCode(parser) == XML_ERROR_UNKNOWN_ENCODING)
            message = "the file declares the encoding '" + encoding + "', which gounki does not know";
        if (in_game)
            message += "; game " + std::to_string(game_number) + " (line " + std::to_string(game_line) +
                ") and what follows are not read";
        file_error("syntax", std::move(message), line(), column());
        return;
    }
    done = last;
}

RenjuNetReader::RenjuNetReader(std::istream& in, std::string name) : s_(std::make_unique<State>(in, std::move(name))) {
    s_->parser = XML_ParserCreate(nullptr);
    XML_SetUserData(s_->parser, s_.get());
    XML_SetElementHandler(s_->parser, on_start, on_end);
    XML_SetCharacterDataHandler(s_->parser, on_text);
}

RenjuNetReader::~RenjuNetReader() {
    if (s_->parser) XML_ParserFree(s_->parser);
}

bool RenjuNetReader::next(GameRecord& game) {
    while (s_->ready.empty() && !s_->done) s_->feed();
    if (s_->ready.empty()) return false;
    game = std::move(s_->ready.front());
    s_->ready.pop_front();
    return true;
}

std::vector<Diagnostic> RenjuNetReader::take_file_diagnostics() { return std::exchange(s_->file_diagnostics, {}); }
std::uint64_t RenjuNetReader::bytes_read() const { return s_->bytes; }
bool RenjuNetReader::io_failed() const { return s_->failed; }

std::vector<GameRecord> read_renjunet(std::string_view text, const std::string& name, std::vector<Diagnostic>* file_diagnostics) {
    std::istringstream in{std::string(text)};
    RenjuNetReader reader(in, name);
    return read_all(reader, file_diagnostics);
}

bool claims_renjunet(std::string_view head) {
    const std::size_t start = head.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos || head.substr(start, 5) != "<?xml") return false;
    const std::size_t root = head.find("<database");
    return root != std::string_view::npos && root + 9 < head.size() &&
        (head[root + 9] == '>' || head[root + 9] == ' ' || head[root + 9] == '\t' || head[root + 9] == '\r' ||
         head[root + 9] == '\n' || head[root + 9] == '/');
}

std::string renjunet_cannot_hold(const GameRecord&) { return "gounki reads RenjuNet databases but does not write them"; }

} // namespace gounki::parser
