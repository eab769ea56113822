#include "protocol/uci.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <memory>
#include <istream>
#include <limits>
#include <optional>
#include <ostream>
#include <variant>

#include "analysis/score.hpp"
#include "analysis/tt.hpp"
#include "core/gounki/notation.hpp"

namespace gounki::protocol {

namespace {

bool blank(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && blank(s.back())) s.remove_suffix(1);
    return s;
}

// The first word of `s`; `s` keeps the rest, trimmed.
std::string_view next_word(std::string_view& s) {
    s = trimmed(s);
    std::size_t n = 0;
    while (n < s.size() && !blank(s[n])) ++n;
    const std::string_view word = s.substr(0, n);
    s = trimmed(s.substr(n));
    return word;
}

std::optional<std::int64_t> whole_number(std::string_view text) {
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return n;
}

void error(const UciSession::Sink& out, const std::string& message) { out("info string error: " + message); }

// "cp X", or "mate N" for a result proven N moves of the side to move away (negative: lost).
std::string score_text(analysis::Score s) {
    const int plies = analysis::win_in(s);
    if (plies > 0) return "mate " + std::to_string((plies + 1) / 2);
    if (plies < 0) return "mate -" + std::to_string(-plies / 2);
    return "cp " + std::to_string(s);
}

std::string info_line(const Position& root, const analysis::SearchInfo& info) {
    const std::uint64_t nps = info.time_ms > 0 ? info.nodes * 1000 / std::uint64_t(info.time_ms) : 0; // 0: too fast to tell
    std::string line = "info depth " + std::to_string(info.depth) + " seldepth " + std::to_string(info.seldepth) +
        " score " + score_text(info.score) + " nodes " + std::to_string(info.nodes) + " nps " + std::to_string(nps) +
        " time " + std::to_string(info.time_ms) + " pv";
    Position pos = root;
    for (const Move m : info.pv) {
        line += " " + move_to_text(pos, m);
        UndoRecord undo;
        pos.do_move(m, undo);
    }
    return line;
}

// A position and the keys before it, built by a `position` command before it replaces the session's.
struct PositionSetup {
    Position position;
    std::vector<std::uint64_t> history;
};

// Plays the words of `moves` on `setup`; an error message (naming the move and its number) or nothing.
std::optional<std::string> play_moves(std::string_view moves, PositionSetup& setup) {
    for (int number = 1; !trimmed(moves).empty(); ++number) {
        const std::string_view text = next_word(moves);
        const std::string where = "position: move " + std::to_string(number) + " " + quoted_text(text);
        if (setup.position.game_over()) return where + ": the game is already over";
        const Resolution r = resolve_move_text(setup.position, text);
        if (r.move == Move::none()) return where + ": " + r.message;
        setup.history.push_back(setup.position.key());
        UndoRecord undo;
        setup.position.do_move(r.move, undo);
    }
    return std::nullopt;
}

// The words of a `go` command as limits; an error message or nothing.
std::optional<std::string> go_limits(std::string_view args, Color side, analysis::SearchLimits& limits, bool& infinite) {
    UciClock clock;
    infinite = false;
    for (std::string_view rest = args; !rest.empty();) {
        const std::string word(next_word(rest));
        if (word == "infinite") {
            infinite = true;
            continue;
        }
        if (word == "ponder") return "go: 'ponder' is not supported (gounki does not think on the opponent's time)";
        static const char* const keys[] = {"depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo"};
        if (std::find_if(std::begin(keys), std::end(keys), [&](const char* k) { return word == k; }) == std::end(keys))
            return "go: unknown word " + quoted_text(word) +
                " (expected depth, nodes, movetime, wtime, btime, winc, binc, movestogo or infinite)";
        const std::string_view value = next_word(rest);
        const auto n = whole_number(value);
        // A depth, node count or move time of 0 would be no limit at all (the default budget searched).
        const int least = word == "depth" || word == "nodes" || word == "movetime" ? 1 : 0;
        if (!n || *n < least || *n > std::numeric_limits<int>::max())
            return "go " + word + ": expected a whole number from " + std::to_string(least) + " to " +
                std::to_string(std::numeric_limits<int>::max()) + ", got " +
                (value.empty() ? std::string("nothing") : quoted_text(value));
        const bool mine = (word[0] == 'w') == (side == Color::white);
        if (word == "depth") limits.depth = int(std::min<std::int64_t>(*n, analysis::max_search_depth));
        else if (word == "nodes") limits.nodes = std::uint64_t(*n);
        else if (word == "movetime") limits.time_ms = int(*n);
        else if (word == "movestogo") clock.moves_to_go = *n;
        else if ((word == "wtime" || word == "btime") && mine) clock.time_left = *n;
        else if ((word == "winc" || word == "binc") && mine) clock.increment = *n;
    }
    if (infinite) {
        if (limits.depth || limits.nodes || limits.time_ms || clock.time_left >= 0)
            return std::string("go infinite: no depth, nodes, movetime or clock with it (it searches until stop)");
        limits.depth = analysis::max_search_depth;
        return std::nullopt;
    }
    if (clock.time_left >= 0 && !limits.time_ms) limits.time_ms = uci_move_time(clock);
    if (!limits.depth && !limits.nodes && !limits.time_ms) limits = analysis::default_search_limits();
    return std::nullopt;
}

} // namespace

int uci_move_time(const UciClock& clock) {
    const std::int64_t moves = clock.moves_to_go > 0 ? clock.moves_to_go : 20;
    std::int64_t budget = std::min(clock.time_left, clock.time_left / moves + clock.increment / 2);
    budget -= std::max<std::int64_t>(budget / 10, 30);
    return int(std::clamp<std::int64_t>(budget, 1, std::numeric_limits<int>::max()));
}

UciSession::UciSession(EngineOptions options) : options_(std::move(options)), position_(Position::start()) {}
UciSession::~UciSession() { stop_search(true); }

void UciSession::handle(std::string_view line, const Sink& out) {
    std::string_view args = line;
    const std::string_view word = next_word(args);
    if (word.empty()) return;
    const Sink locked = [this, &out](std::string_view l) {
        const std::lock_guard lock(mutex_);
        out(l);
    };
    dispatch(word, args, locked, out);
}

bool UciSession::busy(std::string_view word, const Sink& out) {
    if (word != "ucinewgame" && word != "position" && word != "setoption" && word != "go") return false;
    if (!searching()) return false;
    bool infinite = false;
    {
        const std::lock_guard lock(mutex_);
        infinite = infinite_;
    }
    // A go during a search (which UCI has a GUI never send) is refused at once, whatever the
    // search: the running search goes on and gives its bestmove, and the command loop stays free
    // for stop, isready and quit.
    if (word == "go") {
        error(out, "go: a search is running (its bestmove comes first; send stop to end it now, then go)");
        return true;
    }
    if (infinite) {
        error(out, std::string(word) + ": a search is running (send stop first)");
        return true;
    }
    wait(); // a search with limits ends by itself: position, ucinewgame, setoption wait for its bestmove
    return false;
}

bool UciSession::searching() const {
    const std::lock_guard lock(mutex_);
    return searching_;
}

void UciSession::wait() {
    if (!search_.joinable()) return;
    bool infinite = false;
    {
        const std::lock_guard lock(mutex_);
        infinite = infinite_;
    }
    if (infinite) stop_search(false);
    else search_.join();
}

void UciSession::stop_search(bool quiet) {
    if (!search_.joinable()) return;
    std::unique_lock lock(mutex_);
    stop_ = true;
    quiet_ = quiet;
    changed_.notify_all();
    // Asked again until the thread is done: a stop that came before its search began is forgotten
    // when the search starts.
    while (searching_) {
        lock.unlock();
        if (searcher_) searcher_->stop(); // the one member another thread may call
        lock.lock();
        changed_.wait_for(lock, std::chrono::milliseconds(5), [this] { return !searching_; });
    }
    lock.unlock();
    search_.join();
}

void UciSession::dispatch(std::string_view word, std::string_view args, const Sink& out, const Sink& unlocked) {
    const auto no_arguments = [&] {
        if (args.empty()) return true;
        error(out, std::string(word) + ": unexpected " + quoted_text(args));
        return false;
    };
    if (word == "uci") {
        if (!no_arguments()) return;
        out("id name gounki " + options_.version);
        out("id author the gounki authors");
        out("option name Hash type spin default " + std::to_string(options_.hash_mb) + " min 1 max 65536");
        out("uciok");
    } else if (word == "isready") {
        if (no_arguments()) out("readyok");
    } else if (word == "stop") {
        if (no_arguments()) stop_search(false);
    } else if (word == "quit") {
        stop_search(false);
        quit_ = true;
    } else if (busy(word, out)) {
        return;
    } else if (word == "ucinewgame") {
        if (!no_arguments()) return;
        position_ = Position::start();
        history_.clear();
        searcher_.reset();
    } else if (word == "position") {
        set_position(args, out);
    } else if (word == "setoption") {
        set_option(args, out);
    } else if (word == "go") {
        go(args, out, unlocked);
    } else {
        error(out, "unknown command " + quoted_text(word) +
                  " (expected uci, isready, setoption, ucinewgame, position, go, stop or quit)");
    }
}

void UciSession::set_position(std::string_view args, const Sink& out) {
    PositionSetup setup;
    std::string_view moves;
    const std::size_t at = args.find(" moves");
    std::string_view head = args;
    if (at != std::string_view::npos && (at + 6 == args.size() || blank(args[at + 6]))) {
        head = args.substr(0, at);
        moves = args.substr(at + 6);
    } else if (args == "moves" || args.starts_with("moves ")) {
        return error(out, "position: expected startpos or fen before 'moves'");
    }
    const std::string_view kind = next_word(head);
    if (kind == "startpos") {
        if (!head.empty()) return error(out, "position startpos: unexpected " + quoted_text(head) + " (expected moves)");
        setup.position = Position::start();
    } else if (kind == "fen") {
        if (head.empty()) return error(out, "position fen: expected a position text");
        auto parsed = Position::from_text(head);
        if (const auto* e = std::get_if<PositionError>(&parsed))
            return error(out, "position fen " + quoted_text(head) + ": bad position at character " + std::to_string(e->column + 1) +
                                  ": " + e->message);
        setup.position = std::get<Position>(parsed);
    } else {
        return error(out, "position: expected startpos or fen, got " +
                              (kind.empty() ? std::string("nothing") : quoted_text(kind)));
    }
    if (const auto bad = play_moves(moves, setup)) return error(out, *bad + " (the position is unchanged)");
    position_ = std::move(setup.position);
    history_ = std::move(setup.history);
}

void UciSession::set_option(std::string_view args, const Sink& out) {
    std::string_view rest = args;
    const std::string_view name_word = next_word(rest);
    const std::string_view name = next_word(rest);
    const std::string_view value_word = next_word(rest);
    if (name_word != "name") return error(out, "setoption: expected 'name', got " + quoted_text(name_word));
    if (name != "Hash" && name != "hash") return error(out, "setoption: unknown option " + quoted_text(name) + " (gounki has Hash)");
    const auto mb = whole_number(rest);
    if (value_word != "value" || !mb || *mb < 1 || *mb > 65536)
        return error(out, "setoption name Hash: expected 'value N', N a size in MiB from 1 to 65536");
    if (const std::size_t most = analysis::max_table_megabytes(); std::size_t(*mb) > most)
        return error(out, "setoption name Hash value " + std::to_string(*mb) + ": more than this machine can hold (at most " +
                              std::to_string(most) + " MiB, half its memory; the table keeps " +
                              std::to_string(options_.hash_mb) + " MiB)");
    options_.hash_mb = std::size_t(*mb);
    searcher_.reset();
}

void UciSession::go(std::string_view args, const Sink& out, const Sink& unlocked) {
    analysis::SearchLimits limits;
    bool infinite = false;
    if (const auto bad = go_limits(args, position_.side_to_move(), limits, infinite)) return error(out, *bad);
    const bool over = position_.game_over();
    if (over) {
        out("info string the game is over");
        if (!infinite) return out("bestmove (none)");
    }
    if (!searcher_ && !over) {
        analysis::SearchOptions options;
        options.hash_mb = options_.hash_mb;
        searcher_ = std::make_unique<analysis::Searcher>(options);
        // Memory the machine could not give at this moment: a smaller table, said once.
        if (const std::size_t mb = searcher_->table_bytes() >> 20; mb < options_.hash_mb)
            error(out, "Hash " + std::to_string(options_.hash_mb) + " MiB could not be allocated: the table takes " +
                      std::to_string(mb) + " MiB");
    }
    if (search_.joinable()) search_.join(); // the thread of a search that has ended
    {
        const std::lock_guard lock(mutex_);
        searching_ = true;
        infinite_ = infinite;
        stop_ = quiet_ = false;
    }
    if (over) { // go infinite: no search, and its bestmove (none) only after stop, as for any go infinite
        search_ = std::thread([this, sink = unlocked] {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [this] { return stop_; });
            if (!quiet_) sink("bestmove (none)");
            searching_ = false;
            changed_.notify_all();
        });
        return;
    }
    search_ = std::thread([this, root = position_, history = history_, limits, infinite, sink = unlocked] {
        const auto emit = [&](const std::string& line) {
            const std::lock_guard lock(mutex_);
            if (!quiet_) sink(line);
        };
        const analysis::SearchResult r =
            searcher_->search(root, limits, [&](const analysis::SearchInfo& info) { emit(info_line(root, info)); }, history);
        std::unique_lock lock(mutex_);
        if (infinite) changed_.wait(lock, [this] { return stop_; }); // no bestmove before stop
        if (!quiet_) sink(r.best == Move::none() ? std::string("bestmove (none)") : "bestmove " + move_to_text(root, r.best));
        searching_ = false;
        changed_.notify_all();
    });
}

void run_uci(std::istream& in, std::ostream& out, EngineOptions options) {
    UciSession session(std::move(options));
    run_session(session, in, out);
}

} // namespace gounki::protocol
