#include "protocol/pbrain.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <utility>

#include "analysis/score.hpp"
#include "analysis/stones/search.hpp"
#include "core/game.hpp"
#include "core/stones/rules.hpp"

namespace gounki::protocol {

namespace {

constexpr GameKind brain_game = GameKind::gomoku; // the game of a START, before INFO rule says more
constexpr int rule_exact_five = 1; // INFO rule's bits that gounki plays; the others: 2 continuous, 8 caro
constexpr int rule_renju = 4;
constexpr std::string_view capture_games_text = "ninuki,pente"; // INFO captures' games, as ABOUT lists them

// The game INFO rule names: Renju (bit 4: Black's forbidden points, exact five for Black), else Gomoku.
GameKind game_of_rule(int rule) { return rule & rule_renju ? GameKind::renju : brain_game; }

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

std::string upper(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = char(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

// A whole number, blanks around it allowed; nothing for anything else.
std::optional<std::int64_t> whole_number(std::string_view text) {
    text = trimmed(text);
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return n;
}

// "a,b" (or "a,b,c" with `count` 3) as whole numbers.
bool numbers(std::string_view text, std::size_t count, std::int64_t* out) {
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t comma = i + 1 < count ? text.find(',') : std::string_view::npos;
        if (i + 1 < count && comma == std::string_view::npos) return false;
        const auto n = whole_number(text.substr(0, comma));
        if (!n) return false;
        out[i] = *n;
        text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    }
    return true;
}

// A number with a fraction ("1000.5"), rounded to the nearest whole number; nothing for anything
// else (or a number too large for 64 bits).
std::optional<std::int64_t> rounded_number(std::string_view text) {
    text = trimmed(text);
    double d = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), d, std::chars_format::fixed);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(d) || std::abs(d) > 9e18)
        return std::nullopt;
    return std::int64_t(std::llround(d));
}

std::string eval_text(analysis::Score s) {
    const int w = analysis::win_in(s);
    if (w > 0) return "win" + std::to_string(w);
    if (w < 0) return "loss" + std::to_string(-w);
    return std::to_string(s);
}

// turn_limits without max_node.
analysis::SearchLimits time_limits(const TurnClock& clock) {
    analysis::SearchLimits limits;
    const bool match_clock = clock.time_left >= 0 && clock.timeout_match != 0;
    if (clock.timeout_turn < 0 && !match_clock) {
        limits.nodes = analysis::default_stone_search_nodes;
        return limits;
    }
    if (clock.timeout_turn == 0) {
        limits.nodes = fast_turn_nodes;
        return limits;
    }
    std::int64_t budget = clock.timeout_turn > 0 ? clock.timeout_turn : std::numeric_limits<int>::max();
    if (match_clock) budget = std::min(budget, clock.time_left / 20);
    budget -= std::max<std::int64_t>(budget / 10, 30);
    limits.time_ms = int(std::clamp<std::int64_t>(budget, 1, std::numeric_limits<int>::max()));
    return limits;
}

} // namespace

analysis::SearchLimits turn_limits(const TurnClock& clock) {
    analysis::SearchLimits limits = time_limits(clock);
    if (clock.max_node > 0) limits.nodes = std::uint64_t(clock.max_node);
    return limits;
}

PbrainSession::PbrainSession(EngineOptions options) : options_(std::move(options)) {}
PbrainSession::~PbrainSession() = default;

void PbrainSession::handle(std::string_view line, const Sink& out) {
    line = trimmed(line);
    if (line.empty() || ended_) return;
    if (board_input_) {
        if (upper(line) == "DONE") {
            tell_notes(out);
            board_done(out);
        }
        else board_line(line, out);
        return;
    }
    const std::size_t blank = line.find_first_of(" \t");
    const std::string_view word = line.substr(0, blank);
    const std::string_view args = blank == std::string_view::npos ? std::string_view{} : trimmed(line.substr(blank));
    dispatch(word, args, out);
}

void PbrainSession::dispatch(std::string_view word_text, std::string_view args, const Sink& out) {
    const std::string word = upper(word_text);
    if (word == "START") {
        const auto n = whole_number(args);
        if (!n) return out("ERROR START: expected a board size, got " + quoted_text(args));
        return start(int(std::clamp<std::int64_t>(*n, -1, 1000)), out);
    }
    if (word == "RECTSTART") {
        std::int64_t wh[2];
        if (!numbers(args, 2, wh)) return out("ERROR RECTSTART: expected width,height, got " + quoted_text(args));
        if (wh[0] != wh[1]) return out("ERROR RECTSTART: gounki plays square boards only, not " + quoted_text(args));
        return start(int(std::clamp<std::int64_t>(wh[0], -1, 1000)), out);
    }
    if (word == "RESTART") {
        if (!size_) return out("ERROR RESTART: no board yet (START first)");
        return start(size_, out);
    }
    if (word == "BEGIN" || word == "TURN" || word == "PLAY") tell_notes(out);
    if (word == "BEGIN") return begin(out);
    if (word == "TURN") return turn(args, out);
    if (word == "BOARD" || word == "SWAP2BOARD") {
        board_input_ = BoardInput{};
        board_input_->swap2 = word == "SWAP2BOARD";
        if (!size_) board_input_->error = word + ": no board yet (START first)";
        return;
    }
    if (word == "INFO") return info(args, out);
    if (word == "TAKEBACK") return takeback(args, out);
    if (word == "PLAY") return play_given(args, out);
    if (word == "ABOUT")
        return out("name=\"gounki\", version=\"" + options_.version +
                   "\", author=\"the gounki authors\", country=\"unknown\", captures=\"" + std::string(capture_games_text) + "\"");
    if (word == "END") {
        ended_ = true;
        return;
    }
    out("UNKNOWN " + quoted_text(word_text) + " is not a command of the Gomocup protocol that gounki knows");
}

void PbrainSession::start(int size, const Sink& out) {
    if (!game_info(brain_game).has_size(size))
        return out("ERROR unsupported board size " + std::to_string(size) + ": gounki plays Gomoku on " + sizes_text(brain_game));
    size_ = size;
    board_.assign(stones::point_count, Owner::none);
    order_.clear();
    emptied_.clear();
    captured_by_own_ = captured_by_opponent_ = 0;
    out("OK");
}

std::optional<std::string> PbrainSession::cannot_play() const {
    if (!size_) return std::string("no board yet (START first)");
    if (!capture_rules_error_.empty()) return capture_rules_error_;
    if (capture_rules_) {
        const GameKind kind = capture_rules_->kind;
        if (rule_ != 0)
            return "INFO rule " + std::to_string(rule_) + " does not go with INFO captures " +
                std::string(game_kind_name(kind)) + " (rule 0 with captures: the rule words follow the game's name)";
        if (!game_info(kind).has_size(size_))
            return std::string(game_kind_name(kind)) + " is played on " + sizes_text(kind) + ", not on the " + board_text();
        return std::nullopt;
    }
    if (rule_ & ~(rule_exact_five | rule_renju)) {
        std::string names;
        for (const auto& [bit, name] : {std::pair{2, "continuous game"}, {8, "caro"}})
            if (rule_ & bit) names += (names.empty() ? "" : ", ") + std::string(name);
        return "INFO rule " + std::to_string(rule_) + " (" + (names.empty() ? std::string("unknown bits") : names) +
            ") is not supported: gounki plays freestyle (rule 0), standard, exactly five (rule 1) and renju (rule 4)";
    }
    if (const GameKind kind = game_of_rule(rule_); !game_info(kind).has_size(size_))
        return "INFO rule " + std::to_string(rule_) + ": " + std::string(game_kind_name(kind)) + " is played on " +
            sizes_text(kind) + ", not on the " + board_text();
    return std::nullopt;
}

std::optional<std::string> PbrainSession::read_point(std::string_view text, std::string_view what, int& point) const {
    std::int64_t xy[2];
    if (!numbers(text, 2, xy)) return std::string(what) + ": expected x,y, got " + quoted_text(text);
    if (xy[0] < 0 || xy[1] < 0 || xy[0] >= size_ || xy[1] >= size_)
        return std::string(what) + " " + shown_text(text) + ": off the " + std::to_string(size_) + "x" + std::to_string(size_) +
            " board (x and y from 0 to " + std::to_string(size_ - 1) + ")";
    point = stones::point_from_top_left(int(xy[0]), int(xy[1]), size_);
    return std::nullopt;
}

std::string PbrainSession::board_text() const {
    return std::to_string(size_) + "x" + std::to_string(size_) + " board (x and y from 0 to " + std::to_string(size_ - 1) + ")";
}

std::string PbrainSession::coords(int point) const {
    return std::to_string(stones::top_left_x(point)) + "," + std::to_string(stones::top_left_y(point, size_));
}

void PbrainSession::begin(const Sink& out) {
    if (auto why = cannot_play()) return out("ERROR BEGIN: " + *why);
    think_and_play(out);
}

int PbrainSession::place_given(std::string_view args, const char* command, Owner who, const Sink& out) {
    const std::string name(command);
    int p = 0;
    if (auto why = cannot_play()) {
        out("ERROR " + name + ": " + *why);
        return -1;
    }
    if (auto why = read_point(args, command, p)) {
        out("ERROR " + *why);
        return -1;
    }
    std::string problem;
    if (board_[std::size_t(p)] != Owner::none) problem = "the point is occupied";
    else if (position().game_over()) problem = "the game is already over";
    // A stone the rules forbid there (Renju's Black: double-three, double-four, overline), said in
    // the rules' own words; the position stays as it was.
    else if (const stones::PlaceError e = mover_position(p, who).check(Move::placement(p)); e != stones::PlaceError::none)
        problem = stones::place_error_text(e);
    if (!problem.empty()) {
        out("ERROR " + name + " " + shown_text(args) + ": " + problem);
        return -1;
    }
    place(p, who);
    return p;
}

stones::StonePosition PbrainSession::mover_position(int point, Owner who) {
    // own_colour() tells the brain's colour when the brain is to move: before its own stone, and
    // once the opponent's is down (before it, the counts may not tell them).
    board_[std::size_t(point)] = who == Owner::own ? Owner::none : who;
    const Color mine = own_colour();
    board_[std::size_t(point)] = Owner::none;
    stones::StonePosition pos = position(mine);
    pos.set_side_to_move(who == Owner::own ? mine : ~mine);
    return pos;
}

void PbrainSession::place(int point, Owner who) {
    std::vector<int> emptied;
    if (rules().captures()) {
        const stones::StonePosition pos = mover_position(point, who);
        std::array<std::int16_t, 16> taken{};
        const int n = pos.captures_at(point, pos.side_to_move(), taken);
        for (int i = 0; i < n; ++i) {
            board_[std::size_t(taken[std::size_t(i)])] = Owner::none;
            emptied.push_back(taken[std::size_t(i)]);
        }
        (who == Owner::own ? captured_by_own_ : captured_by_opponent_) += n;
    }
    board_[std::size_t(point)] = who;
    order_.push_back(point);
    emptied_.push_back(std::move(emptied));
}

void PbrainSession::turn(std::string_view args, const Sink& out) {
    if (place_given(args, "TURN", Owner::opponent, out) >= 0) think_and_play(out);
}

void PbrainSession::play_given(std::string_view args, const Sink& out) {
    if (const int p = place_given(args, "PLAY", Owner::own, out); p >= 0) out(coords(p));
}

void PbrainSession::takeback(std::string_view args, const Sink& out) {
    if (!size_) return out("ERROR TAKEBACK: no board yet (START first)");
    int p = 0;
    if (auto why = read_point(args, "TAKEBACK", p)) return out("ERROR " + *why);
    if (board_[std::size_t(p)] == Owner::none) return out("ERROR TAKEBACK " + shown_text(args) + ": no stone there");
    const Owner who = board_[std::size_t(p)];
    const auto at = std::find(order_.rbegin(), order_.rend(), p).base() - 1;
    const std::size_t i = std::size_t(at - order_.begin());
    if (rules().captures()) {
        // Stones it captured come back; only the last stone, whose captures are known, goes back.
        if (i + 1 != order_.size())
            return out("ERROR TAKEBACK " + shown_text(args) + ": in a game with captures only the last stone can be taken back");
        for (int q : emptied_[i]) board_[std::size_t(q)] = who == Owner::own ? Owner::opponent : Owner::own;
        (who == Owner::own ? captured_by_own_ : captured_by_opponent_) -= int(emptied_[i].size());
    }
    board_[std::size_t(p)] = Owner::none;
    order_.erase(at);
    emptied_.erase(emptied_.begin() + std::ptrdiff_t(i));
    out("OK");
}

void PbrainSession::info(std::string_view args, const Sink&) {
    // INFO has no answer (a manager does not read one): a value that cannot be used is passed over,
    // and said in a MESSAGE before the answer of the next command that asks for a move.
    const std::size_t blank = args.find_first_of(" \t");
    const std::string key = upper(args.substr(0, blank));
    const std::string_view value = blank == std::string_view::npos ? std::string_view{} : trimmed(args.substr(blank));
    const auto pass_over = [&](const std::string& why) {
        notes_.push_back("MESSAGE INFO " + shown_text(args.substr(0, blank)) + " " + quoted_text(value) + " passed over: " + why);
    };
    std::int64_t* field = key == "TIMEOUT_TURN" ? &clock_.timeout_turn
        : key == "TIMEOUT_MATCH"                ? &clock_.timeout_match
        : key == "TIME_LEFT"                    ? &clock_.time_left
        : key == "MAX_MEMORY"                   ? &max_memory_
        : key == "MAX_NODE"                     ? &clock_.max_node
                                                : nullptr;
    if (key == "CAPTURES") return read_captures(value);
    if (key == "CAPTURED_BY_BRAIN" || key == "CAPTURED_BY_OPPONENT") {
        const auto n = whole_number(value);
        if (!n || *n < 0 || *n > stones::point_count) return pass_over("expected a number of stones");
        (key == "CAPTURED_BY_BRAIN" ? captured_by_own_ : captured_by_opponent_) = int(*n);
        return;
    }
    const bool numeric = field || key == "RULE" || key == "GAME_TYPE";
    if (!numeric) return; // folder, evaluate and keys of later protocols: nothing gounki uses
    std::optional<std::int64_t> n = whole_number(value);
    if (!n && field) n = rounded_number(value); // a time or a size with a fraction: rounded
    if (!n) return pass_over("expected a whole number");
    if (key == "TIME_LEFT" && *n < 0) n = 0; // the match's time has run out: the next move is played at once
    if (*n < 0) return pass_over("expected a whole number, 0 or more");
    if (field) *field = *n;
    if (key == "RULE") rule_ = int(std::min<std::int64_t>(*n, 1 << 16));
}

void PbrainSession::tell_notes(const Sink& out) {
    for (const std::string& note : notes_) out(note);
    notes_.clear();
}

void PbrainSession::board_line(std::string_view line, const Sink&) {
    BoardInput& in = *board_input_;
    ++in.line;
    if (!in.error.empty()) return;
    const std::string where = "BOARD line " + std::to_string(in.line) + " " + quoted_text(line);
    std::int64_t v[3];
    if (!numbers(line, 3, v)) {
        in.error = where + ": expected x,y,who";
        return;
    }
    if (v[0] < 0 || v[1] < 0 || v[0] >= size_ || v[1] >= size_) {
        in.error = where + ": off the " + board_text();
        return;
    }
    const int p = stones::point_from_top_left(int(v[0]), int(v[1]), size_);
    if (v[2] == 3) in.error = where + ": who 3 (a continuous game's winning line) is not supported";
    else if (v[2] != 1 && v[2] != 2) in.error = where + ": who must be 1 (own stone) or 2 (opponent's)";
    else if (std::any_of(in.stones.begin(), in.stones.end(), [p](const auto& s) { return s.first == p; }))
        in.error = where + ": a second stone on the same point";
    else {
        in.stones.emplace_back(p, v[2] == 1 ? Owner::own : Owner::opponent);
        in.texts.emplace_back(line);
    }
}

void PbrainSession::board_done(const Sink& out) {
    BoardInput in = std::move(*board_input_);
    board_input_.reset();
    if (in.swap2) return out("ERROR SWAP2BOARD is not supported: gounki plays no swap2 opening");
    if (!in.error.empty()) return out("ERROR " + in.error);
    std::vector<Owner> board_before = std::exchange(board_, std::vector<Owner>(stones::point_count, Owner::none));
    std::vector<int> order_before = std::exchange(order_, {});
    std::vector<std::vector<int>> emptied_before = std::exchange(emptied_, {});
    for (const auto& [p, owner] : in.stones) {
        board_[std::size_t(p)] = owner;
        order_.push_back(p);
        emptied_.emplace_back();
    }
    if (auto why = cannot_play()) return out("ERROR BOARD: " + *why);
    if (auto refused = refused_board_stone(in)) {
        // Refused as a TURN with that stone would be: the brain's position stays as it was.
        board_ = std::move(board_before);
        order_ = std::move(order_before);
        emptied_ = std::move(emptied_before);
        return out("ERROR " + *refused);
    }
    think_and_play(out);
}

std::optional<std::string> PbrainSession::refused_board_stone(const BoardInput& in) const {
    // A board with captures shows only the stones left, so its stones cannot be replayed; without
    // captures only Renju's forbidden points can refuse a stone on an empty point.
    const stones::Rules r = rules();
    if (r.captures()) return std::nullopt;
    const Color mine = own_colour(); // told by the whole board's counts
    stones::StonePosition pos(r);
    for (std::size_t i = 0; i < in.stones.size(); ++i) {
        const auto [point, owner] = in.stones[i];
        const Color c = owner == Owner::own ? mine : ~mine;
        pos.set_side_to_move(c);
        if (const stones::PlaceError e = pos.check(Move::placement(point)); e != stones::PlaceError::none)
            return "BOARD line " + std::to_string(i + 1) + " " + quoted_text(in.texts[i]) + ": " +
                std::string(stones::place_error_text(e)) + " (the lines of a Renju BOARD come in the order of the moves)";
        pos.put(point, stones::stone_of(c));
    }
    return std::nullopt;
}

void PbrainSession::read_captures(std::string_view value) {
    capture_rules_.reset();
    capture_rules_error_.clear();
    const std::size_t cut = value.find_first_of(", \t");
    const std::string game = upper(value.substr(0, cut));
    if (game.empty() || game == "NONE" || game == "0") return;
    const auto kind = parse_game_kind(game);
    stones::Rules r = stones::Rules::defaults(kind.value_or(brain_game));
    if (!kind || !r.captures()) {
        capture_rules_error_ = "INFO captures " + quoted_text(value) + ": expected none or a game with captures (" +
            std::string(capture_games_text) + "), then its rule words";
        return;
    }
    if (cut != std::string_view::npos)
        if (const auto error = stones::apply_rules_tag(r, value.substr(cut + 1))) {
            capture_rules_error_ = "INFO captures " + quoted_text(value) + ": " + *error;
            return;
        }
    capture_rules_ = r;
}

stones::Rules PbrainSession::rules() const {
    stones::Rules rules;
    if (capture_rules_) {
        rules = *capture_rules_;
    } else {
        const GameKind kind = game_of_rule(rule_);
        rules = stones::Rules::defaults(kind);
        if (kind == brain_game) rules.exact_five = (rule_ & rule_exact_five) != 0;
    }
    rules.size = size_;
    return rules;
}

Color PbrainSession::own_colour() const {
    // Stones each side has put on the board: those there and those captured since.
    int own = captured_by_opponent_, opponent = captured_by_own_;
    for (Owner o : board_) {
        own += o == Owner::own;
        opponent += o == Owner::opponent;
    }
    // The brain is the first mover (Black; White in Pente) when the counts are level (or it has
    // fewer stones), the second when the opponent has one stone more: in Renju, where the colours
    // differ, that is the colour its stones have.
    const Color first = first_mover(rules().kind);
    return own + 1 == opponent || own > opponent ? ~first : first;
}

stones::StonePosition PbrainSession::position() const { return position(own_colour()); }

stones::StonePosition PbrainSession::position(Color mine) const {
    const stones::Rules r = rules();
    stones::StonePosition pos(r);
    for (int p = 0; p < stones::point_count; ++p)
        if (board_[std::size_t(p)] != Owner::none) pos.put(p, stones::stone_of(board_[std::size_t(p)] == Owner::own ? mine : ~mine));
    if (r.captures()) {
        pos.set_captured(mine, captured_by_own_);
        pos.set_captured(~mine, captured_by_opponent_);
    }
    pos.set_side_to_move(mine);
    pos.update_outcome();
    return pos;
}

void PbrainSession::think_and_play(const Sink& out) {
    const stones::StonePosition pos = position();
    if (pos.game_over()) {
        const Outcome o = pos.outcome();
        const bool mine = o == win_for(pos.side_to_move());
        const Color winner = mine ? pos.side_to_move() : ~pos.side_to_move();
        const char* how = pos.rules().captures() && pos.captured(winner) >= 10 ? " has captured ten stones" : " has five in a row";
        return out(std::string("ERROR the game is over: ") +
                   (o == Outcome::draw ? "the board is full" : (mine ? "gounki" : "the opponent") + std::string(how)));
    }
    int point = stones::point_from_top_left(size_ / 2, size_ / 2, size_);
    if (pos.stone_count() > 0) {
        std::size_t hash_mb = options_.hash_mb;
        if (max_memory_ > 0) hash_mb = std::clamp<std::size_t>(std::size_t(max_memory_ / 2 / (1 << 20)), 1, hash_mb);
        if (!searcher_ || searcher_hash_mb_ != hash_mb) {
            analysis::StoneSearchOptions so;
            so.hash_mb = hash_mb;
            searcher_ = std::make_unique<analysis::StoneSearcher>(so);
            searcher_hash_mb_ = hash_mb;
            // Memory the machine could not give: a smaller table, told before the answer.
            if (const std::size_t mb = searcher_->table_bytes() >> 20; mb < hash_mb)
                out("MESSAGE the table of " + std::to_string(hash_mb) + " MiB could not be allocated: it takes " +
                    std::to_string(mb) + " MiB");
        }
        const auto on_info = [&](const analysis::SearchInfo& info) {
            std::string line = "MESSAGE depth " + std::to_string(info.depth) + " seldepth " + std::to_string(info.seldepth) +
                " eval " + eval_text(info.score) + " nodes " + std::to_string(info.nodes) + " time " +
                std::to_string(info.time_ms) + " pv";
            for (Move m : info.pv) line += " " + coords(m.point());
            out(line);
        };
        const analysis::SearchResult r = searcher_->search(pos, turn_limits(clock_), on_info);
        if (!r.best) return out("ERROR the engine found no move");
        point = r.best.point();
    }
    place(point, Owner::own);
    out(coords(point));
}

void run_pbrain(std::istream& in, std::ostream& out, EngineOptions options) {
    PbrainSession session(std::move(options));
    run_session(session, in, out);
}

} // namespace gounki::protocol
