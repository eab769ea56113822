#include "protocol/brain_client.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "core/stones/rules.hpp"
#include "protocol/session.hpp"

extern char** environ;

namespace gounki::protocol {

namespace {

using Clock = std::chrono::steady_clock;

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

std::optional<int> whole(std::string_view s) {
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    int n = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return n;
}

// A MESSAGE or DEBUG line (`low`: the line, or its start, in lower case): what a brain says
// beside its answers, never an answer.
bool is_chatter(std::string_view low) { return low.starts_with("message") || low.starts_with("debug"); }

// "x,y" as two whole numbers.
std::optional<std::pair<int, int>> xy(std::string_view s) {
    const std::size_t comma = s.find(',');
    if (comma == std::string_view::npos) return std::nullopt;
    const auto x = whole(trimmed(s.substr(0, comma))), y = whole(trimmed(s.substr(comma + 1)));
    if (!x || !y) return std::nullopt;
    return std::pair{*x, *y};
}

// An evaluation word: a whole number, winN / lossN, +MN / -MN / MN.
std::optional<analysis::Score> eval_word(std::string_view w) {
    // The nearest result that can be: a win with the brain's move (1 ply) at the soonest, a loss to
    // the opponent's reply (2 plies).
    const auto proven = [](std::string_view digits, bool win) -> std::optional<analysis::Score> {
        const auto n = whole(digits);
        if (!n || *n < 0 || *n > analysis::max_ply) return std::nullopt;
        return win ? analysis::win_at(std::max(*n, 1)) : analysis::loss_at(std::max(*n, 2));
    };
    if (w.rfind("win", 0) == 0) return proven(w.substr(3), true);
    if (w.rfind("loss", 0) == 0) return proven(w.substr(4), false);
    if (w.size() > 1 && w[0] == 'm') return proven(w.substr(1), true);
    if (w.size() > 2 && (w[0] == '+' || w[0] == '-') && w[1] == 'm') return proven(w.substr(2), w[0] == '+');
    // A heuristic value stays heuristic, however large the brain's scale (beyond an int's range too).
    std::string_view digits = w;
    if (!digits.empty() && (digits.front() == '+' || digits.front() == '-')) digits.remove_prefix(1);
    if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    const auto n = whole(w);
    if (!n) return w.front() == '-' ? -analysis::score_heuristic_max : analysis::score_heuristic_max;
    return std::clamp<analysis::Score>(*n, -analysis::score_heuristic_max, analysis::score_heuristic_max);
}

// A brain's text in an error message: cut after 80 bytes, bytes that are not printable written \xNN.
std::string quoted(std::string_view s) { return quoted_text(s, 80); }

} // namespace

std::optional<BrainInfo> parse_brain_message(std::string_view text) {
    std::vector<std::string> words;
    std::string word;
    for (char c : text) {
        if (std::isspace(static_cast<unsigned char>(c)) || c == '|' || c == '=' || c == ':') {
            if (!word.empty()) words.push_back(lower(word));
            word.clear();
        } else word += c;
    }
    if (!word.empty()) words.push_back(lower(word));
    BrainInfo info;
    bool said = false;
    for (std::size_t i = 0; i + 1 < words.size(); ++i) {
        const std::string& key = words[i];
        const std::string& value = words[i + 1];
        if (key == "depth") {
            if (const auto d = whole(value.substr(0, value.find('-'))); d && *d >= 0) info.depth = *d, said = true;
        } else if (key == "eval" || key == "ev" || key == "score" || key == "evaluation") {
            if (const auto e = eval_word(value)) info.eval = e, said = true;
        } else if (key == "pv" || key == "bestline") {
            info.pv.clear();
            for (std::size_t j = i + 1; j < words.size(); ++j) {
                const auto p = xy(words[j]);
                if (!p) break;
                info.pv.push_back(*p);
            }
        }
    }
    if (!said) return std::nullopt;
    return info;
}

std::optional<int> gomocup_rule(const stones::Rules& rules) {
    if (rules.captures()) return std::nullopt;
    if (rules.kind == GameKind::renju) return 4;
    return rules.exact_five ? 1 : 0;
}

namespace {
// INFO captured_by_brain and captured_by_opponent for a position whose side to move is the brain's.
std::string captured_info(const stones::StonePosition& pos) {
    return "INFO captured_by_brain " + std::to_string(pos.captured(pos.side_to_move())) +
        "\nINFO captured_by_opponent " + std::to_string(pos.captured(~pos.side_to_move())) + "\n";
}
} // namespace

std::optional<std::string> captures_info(const stones::Rules& rules) {
    if (!rules.captures()) return std::nullopt;
    std::string value = lower(game_kind_name(rules.kind));
    for (char c : " " + stones::rules_tag_text(rules)) // words separated by blanks or commas
        if (c == ' ' || c == ',') {
            if (value.back() != ',') value += ',';
        } else {
            value += c;
        }
    if (value.back() == ',') value.pop_back();
    return value;
}

namespace {

// The process groups of the brains alive, for kill_all_brains (which a signal handler may call:
// lock-free slots, no allocation).
constexpr std::size_t max_brain_groups = 1024;
std::atomic<pid_t> brain_groups[max_brain_groups];
static_assert(std::atomic<pid_t>::is_always_lock_free);

void add_brain_group(pid_t group) {
    static const bool at_exit = [] { return std::atexit(kill_all_brains) == 0; }();
    (void)at_exit;
    for (auto& slot : brain_groups) {
        pid_t none = 0;
        if (slot.compare_exchange_strong(none, group)) return;
    }
}

void remove_brain_group(pid_t group) {
    for (auto& slot : brain_groups) {
        pid_t mine = group;
        if (slot.compare_exchange_strong(mine, 0)) return;
    }
}

} // namespace

void kill_all_brains() noexcept {
    for (auto& slot : brain_groups)
        if (const pid_t group = slot.load(); group > 0) ::kill(-group, SIGKILL);
}

// The child process: spawned through /bin/sh in its own process group, killed with the group.
class BrainProcess {
public:
    explicit BrainProcess(const std::string& command) {
        int in[2], out[2];
        if (::pipe2(in, O_CLOEXEC) != 0) throw BrainError(std::string("cannot make a pipe: ") + std::strerror(errno));
        if (::pipe2(out, O_CLOEXEC) != 0) {
            ::close(in[0]), ::close(in[1]);
            throw BrainError(std::string("cannot make a pipe: ") + std::strerror(errno));
        }
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in[0], 0);
        posix_spawn_file_actions_adddup2(&actions, out[1], 1);
        posix_spawnattr_t attr;
        posix_spawnattr_init(&attr);
        posix_spawnattr_setpgroup(&attr, 0);
        sigset_t defaults;
        sigemptyset(&defaults);
        sigaddset(&defaults, SIGPIPE);
        sigaddset(&defaults, SIGINT);
        posix_spawnattr_setsigdefault(&attr, &defaults);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
        const std::string script = "exec " + command;
        const char* argv[] = {"sh", "-c", script.c_str(), nullptr};
        const int rc = ::posix_spawn(&pid_, "/bin/sh", &actions, &attr, const_cast<char* const*>(argv), environ);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attr);
        ::close(in[0]);
        ::close(out[1]);
        if (rc != 0) {
            ::close(in[1]), ::close(out[0]);
            throw BrainError(std::string("cannot start /bin/sh: ") + std::strerror(rc));
        }
        to_ = in[1];
        from_ = out[0];
        group_ = pid_;
        add_brain_group(group_);
    }
    ~BrainProcess() { kill(); }
    BrainProcess(const BrainProcess&) = delete;
    BrainProcess& operator=(const BrainProcess&) = delete;

    // False when the brain no longer reads (it exited).
    bool send(std::string_view line) {
        std::string text(line);
        text += '\n';
        // A brain that exited makes write() raise SIGPIPE: blocked here, taken back before returning.
        sigset_t pipe_set, old;
        sigemptyset(&pipe_set);
        sigaddset(&pipe_set, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
        std::size_t done = 0;
        bool ok = true;
        while (done < text.size()) {
            const ssize_t n = ::write(to_, text.data() + done, text.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                ok = false;
                break;
            }
            done += std::size_t(n);
        }
        if (!ok) {
            const timespec zero{0, 0};
            while (sigtimedwait(&pipe_set, nullptr, &zero) == SIGPIPE) {}
        }
        pthread_sigmask(SIG_SETMASK, &old, nullptr);
        return ok;
    }

    enum class Read { line, closed, timeout };
    // The next line that is not empty, waiting until `deadline`. A line ends with LF, CR or CR LF
    // (the protocol allows all three); empty lines are passed over. A line longer than max_line is
    // cut there: its first max_line bytes are the line, the rest up to its end is dropped.
    Read read_line(std::string& line, Clock::time_point deadline) {
        for (;;) {
            if (buffered_line(line)) return Read::line;
            if (closed_) return Read::closed;
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0) return Read::timeout;
            pollfd fd{from_, POLLIN, 0};
            const int r = ::poll(&fd, 1, int(std::min<long long>(left, 1 << 30)));
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) continue; // the deadline is checked above
            read_chunk();
        }
    }

    // Reads what the brain has written and is waiting in the pipe, without waiting for more (at
    // most a few megabytes: a brain that writes without end is not followed).
    void take_waiting() {
        for (int i = 0; i < 1024 && !closed_ && buffer_.size() <= max_line; ++i) {
            pollfd fd{from_, POLLIN, 0};
            const int r = ::poll(&fd, 1, 0);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) return;
            read_chunk();
        }
    }

    // A whole line waiting in the buffer (after take_waiting, or left from an earlier read).
    bool buffered_line(std::string& line) {
        for (;;) {
            const std::size_t end = buffer_.find_first_of("\r\n");
            if (end == 0) { // an empty line, or the LF of a CR LF
                buffer_.erase(0, 1);
                continue;
            }
            if (end != std::string::npos && end <= max_line) {
                line = buffer_.substr(0, end);
                buffer_.erase(0, end + 1);
                if (trimmed(line).empty()) continue; // blanks only: an empty line too
                return true;
            }
            if (buffer_.size() >= max_line) { // too long: cut, the rest of it dropped as it comes
                line = buffer_.substr(0, max_line);
                buffer_.erase(0, max_line);
                dropping_ = true;
                drop_rest();
                return true;
            }
            return false;
        }
    }
    // What is waiting in the buffer without its line end (nothing while a cut line's rest is dropped).
    std::string_view partial_line() const { return dropping_ ? std::string_view() : std::string_view(buffer_); }
    // "exited with status 3", "killed by signal 11 (Segmentation fault)", "still running".
    std::string exit_text() {
        if (pid_ < 0) return status_text_;
        int status = 0;
        for (int i = 0; i < 50; ++i) { // a brain that closed its output is usually exiting: wait up to 0.5 s
            const pid_t r = ::waitpid(pid_, &status, WNOHANG);
            if (r == pid_) {
                pid_ = -1;
                status_text_ = WIFEXITED(status) ? "exited with status " + std::to_string(WEXITSTATUS(status))
                    : WIFSIGNALED(status)        ? "killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
                        std::string(strsignal(WTERMSIG(status))) + ")"
                                          : std::string("stopped");
                return status_text_;
            }
            ::usleep(10'000);
        }
        return "closed its output";
    }

    // Closes the pipes and kills the process group (what the brain started too, when the brain has
    // exited already); waits for the child.
    void kill() {
        if (to_ >= 0) ::close(to_), to_ = -1;
        if (from_ >= 0) ::close(from_), from_ = -1;
        if (group_ > 0) {
            ::kill(-group_, SIGKILL);
            remove_brain_group(group_);
            group_ = -1;
        }
        if (pid_ > 0) {
            int status = 0;
            while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {}
            pid_ = -1;
        }
    }

    // After END: a moment to exit on its own, then the kill.
    void finish() {
        if (to_ >= 0) ::close(to_), to_ = -1;
        for (int i = 0; i < 20 && pid_ > 0; ++i) {
            int status = 0;
            if (::waitpid(pid_, &status, WNOHANG) == pid_) pid_ = -1;
            else ::usleep(10'000);
        }
        kill();
    }

private:
    // One read() into the buffer; the end of the output closes it.
    void read_chunk() {
        char chunk[4096];
        const ssize_t n = ::read(from_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) return;
        if (n <= 0) {
            closed_ = true;
            return;
        }
        buffer_.append(chunk, std::size_t(n));
        drop_rest();
    }
    // The rest of a line that was cut, up to its end: never kept.
    void drop_rest() {
        if (!dropping_) return;
        const std::size_t end = buffer_.find_first_of("\r\n");
        buffer_.erase(0, end);
        dropping_ = end == std::string::npos;
    }

    static constexpr std::size_t max_line = 1 << 20;
    pid_t pid_ = -1;
    pid_t group_ = -1; // the process group (the child's pid), until killed
    int to_ = -1, from_ = -1;
    std::string buffer_;
    bool closed_ = false;
    bool dropping_ = false; // the rest of a line cut at max_line is being dropped
    std::string status_text_;
};

BrainClient::BrainClient(BrainSettings settings) : settings_(std::move(settings)) {
    const std::string_view cmd = trimmed(settings_.command);
    name_ = std::string(cmd.substr(0, cmd.find_first_of(" \t")));
    if (name_.empty()) throw BrainError("the engine command is empty");
    process_ = std::make_unique<BrainProcess>(settings_.command);
    if (!process_->send("ABOUT")) fail("stopped (" + process_->exit_text() + ") before ABOUT");
    const auto deadline = Clock::now() + std::chrono::milliseconds(settings_.start_timeout_ms);
    do { // a brain may greet with MESSAGE or DEBUG lines first
        about_ = std::string(trimmed(read_line_until(deadline, settings_.start_timeout_ms, "its ABOUT line")));
    } while (is_chatter(lower(about_)));
    if (about_.rfind("UNKNOWN", 0) == 0 || about_.rfind("ERROR", 0) == 0) return; // no ABOUT: named by its command
    // name="Rapfi", version="2023", author="...": the name and version.
    const auto field = [&](std::string_view key) -> std::string {
        const std::string low = lower(about_);
        const std::size_t at = low.find(std::string(key) + "=\"");
        if (at == std::string::npos) return {};
        const std::size_t from = at + key.size() + 2, to = about_.find('"', from);
        return to == std::string::npos ? std::string() : about_.substr(from, to - from);
    };
    // The name is stored with every judgement and shown in reports: control bytes and bytes that
    // are not UTF-8 are written \xNN, and a name of megabytes is cut (protocol/session.hpp).
    const std::string name = shown_text(field("name"), 80), version = shown_text(field("version"), 40);
    captures_ = lower(field("captures"));
    if (!name.empty()) name_ = version.empty() ? name : name + " " + version;
}

BrainClient::~BrainClient() {
    if (!process_) return;
    process_->send("END");
    process_->finish();
}

void BrainClient::fail(const std::string& what) {
    std::string text = "engine " + quoted(name_) + " " + what;
    if (process_) {
        process_->kill();
        process_.reset();
    }
    throw BrainError(text);
}

std::string BrainClient::read_line_until(std::chrono::steady_clock::time_point deadline, int timeout_ms,
                                         std::string_view waiting_for) {
    if (!process_) fail("was stopped after an earlier failure");
    std::string line;
    switch (process_->read_line(line, deadline)) {
    case BrainProcess::Read::line: return line;
    case BrainProcess::Read::closed:
        fail("stopped (" + process_->exit_text() + ") while gounki waited for " + std::string(waiting_for) + unended());
    case BrainProcess::Read::timeout:
        fail("hung: no answer within " + std::to_string(timeout_ms) + " ms while gounki waited for " + std::string(waiting_for) +
             unended());
    }
    fail("read nothing");
}

std::string BrainClient::unended() const {
    // Text the brain wrote without ending its line (a line is read only once it ends): named, since
    // a move printed without its line end is a brain's usual slip.
    const std::string_view t = trimmed(process_->partial_line());
    return t.empty() ? std::string() : " (it wrote " + quoted(t) + " with no line end after it)";
}

std::string BrainClient::answer_to(std::string_view after) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(settings_.start_timeout_ms);
    for (;;) {
        const std::string line = read_line_until(deadline, settings_.start_timeout_ms, "OK after " + std::string(after));
        const std::string_view t = trimmed(line);
        if (!is_chatter(lower(t))) return std::string(t);
    }
}

void BrainClient::expect_ok(std::string_view after) {
    const std::string t = answer_to(after);
    if (lower(t) != "ok") fail("answered " + quoted(t) + " to " + std::string(after) + " (expected OK)");
}

void BrainClient::new_game(const stones::Rules& rules) {
    const std::optional<std::string> captures = captures_info(rules);
    const int rule = captures ? 0 : *gomocup_rule(rules);
    if (captures && !plays_captures(rules.kind))
        throw BrainError("engine " + quoted(name_) + " does not say it plays " + std::string(game_kind_name(rules.kind)) +
                         " (its ABOUT line has no captures=\"..." + lower(game_kind_name(rules.kind)) +
                         "...\"): the Gomocup protocol has no rule for captures, and a brain that ignored INFO "
                         "captures would judge another game");
    if (!process_) fail("was stopped after an earlier failure");
    // INFO captures only to a brain that has had a game with captures (others need not know the key).
    const std::string captures_line =
        captures || !captures_line_.empty() ? "INFO captures " + captures.value_or("none") : std::string();
    if (size_ != rules.size) {
        rule_ = rule;
        captures_line_ = captures_line;
        start_board(rules.size);
        return;
    }
    if (rule_ != rule && !process_->send("INFO rule " + std::to_string(rule)))
        fail("stopped (" + process_->exit_text() + ") while reading INFO");
    rule_ = rule;
    if (captures_line != captures_line_ && !process_->send(captures_line))
        fail("stopped (" + process_->exit_text() + ") while reading INFO");
    captures_line_ = captures_line;
}

void BrainClient::start_board(int size) {
    // START, then every INFO again: the protocol has START initialise the brain, and a brain may
    // take that to forget what INFO said before. Once per board size: a brain may load its network
    // or tables on START.
    if (!process_->send("START " + std::to_string(size))) fail("stopped (" + process_->exit_text() + ") before START");
    expect_ok("START " + std::to_string(size));
    size_ = size;
    board_used_ = false;
    send_info();
}

void BrainClient::send_info() {
    for (const std::string& line :
         {"INFO timeout_turn " + std::to_string(settings_.turn_ms), std::string("INFO timeout_match 0"),
          std::string("INFO time_left 2147483647"), "INFO max_memory " + std::to_string(settings_.max_memory),
          settings_.max_node ? "INFO max_node " + std::to_string(settings_.max_node) : std::string(),
          rule_ >= 0 ? "INFO rule " + std::to_string(rule_) : std::string(), captures_line_})
        if (!line.empty() && !process_->send(line)) fail("stopped (" + process_->exit_text() + ") while reading INFO");
}

bool BrainClient::plays_captures(GameKind kind) const {
    // captures="ninuki,pente" in the ABOUT line (gounki pbrain's; README "gounki pbrain").
    std::string games = "," + captures_ + ",";
    std::replace(games.begin(), games.end(), ' ', ',');
    return games.find("," + lower(game_kind_name(kind)) + ",") != std::string::npos;
}

BrainAnswer BrainClient::read_move(const stones::StonePosition& pos, std::string_view after) {
    BrainAnswer answer;
    const int timeout = settings_.turn_ms + settings_.grace_ms();
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout);
    std::string_view asked = after;
    std::string play; // the PLAY that confirms a SUGGEST
    for (;;) {
        const std::string line = read_line_until(deadline, timeout, "a move after " + std::string(asked));
        const std::string_view t = trimmed(line);
        const std::string low = lower(t.substr(0, 8));
        if (is_chatter(low)) {
            keep_message(answer, t);
            if (low.rfind("message", 0) != 0) continue;
            if (const auto info = parse_brain_message(t.substr(7))) {
                if (info->eval) answer.eval = info->eval;
                if (info->depth) answer.depth = info->depth;
                if (!info->pv.empty()) {
                    answer.pv.clear();
                    for (const auto& [x, y] : info->pv) {
                        if (x < 0 || y < 0 || x >= pos.size() || y >= pos.size()) break;
                        answer.pv.push_back(stones::point_from_top_left(x, y, pos.size()));
                    }
                }
            }
            continue;
        }
        if (low.rfind("error", 0) == 0 || low.rfind("unknown", 0) == 0) fail("refused " + std::string(asked) + ": " + quoted(t));
        // SUGGEST x,y: the brain's move, which it plays once the manager sends PLAY x,y; the answer to
        // PLAY (the same point) is then the move.
        const bool suggest = play.empty() && low.rfind("suggest", 0) == 0 && t.size() > 7 &&
            std::isspace(static_cast<unsigned char>(t[7]));
        const auto p = xy(suggest ? trimmed(t.substr(7)) : t);
        if (!p) fail("answered " + quoted(t) + " to " + std::string(asked) + " (expected a move x,y)");
        answer.x = p->first;
        answer.y = p->second;
        if (p->first < 0 || p->second < 0 || p->first >= pos.size() || p->second >= pos.size())
            fail("answered " + quoted(t) + " to " + std::string(asked) + ": off the " + std::to_string(pos.size()) + "x" +
                 std::to_string(pos.size()) + " board");
        answer.point = stones::point_from_top_left(p->first, p->second, pos.size());
        // PLAY x,y is answered with x,y (the protocol): another point is not the move it suggested.
        if (!play.empty() && play != "PLAY " + std::to_string(p->first) + "," + std::to_string(p->second))
            fail("answered " + quoted(t) + " to " + play + ": not the point it was told to play");
        if (const auto e = pos.check(Move::placement(answer.point)); e != stones::PlaceError::none)
            fail("answered " + quoted(t) + " to " + std::string(asked) + ": not a legal move (" +
                 std::string(stones::place_error_text(e)) + ")");
        if (suggest) {
            play = "PLAY " + std::to_string(p->first) + "," + std::to_string(p->second);
            if (!process_->send(play)) fail("stopped (" + process_->exit_text() + ") before " + play);
            asked = play;
            continue;
        }
        check_answered_once(asked);
        return answer;
    }
}

void BrainClient::keep_message(BrainAnswer& answer, std::string_view line) {
    // The last max_messages lines, each cut at max_message_chars: what best --progress shows, in
    // bounded memory however much a brain writes.
    if (answer.messages.size() == BrainAnswer::max_messages) {
        answer.messages.erase(answer.messages.begin());
        ++answer.messages_dropped;
    }
    answer.messages.emplace_back(line.substr(0, BrainAnswer::max_message_chars));
    if (line.size() > BrainAnswer::max_message_chars) answer.messages.back() += "...";
}

void BrainClient::refuse_waiting_lines(std::string_view command) {
    // A move line still unread when the next position is asked for: the brain answered twice, and
    // every later answer would belong to the position before. MESSAGE and DEBUG lines written after
    // a move are dropped (they say nothing of the next position).
    process_->take_waiting();
    std::string line;
    while (process_->buffered_line(line)) {
        const std::string_view t = trimmed(line);
        const std::string low = lower(t.substr(0, 8));
        if (is_chatter(low)) continue;
        fail("answered twice: " + quoted(t) + " came after its answer, unasked, before " + std::string(command));
    }
}

void BrainClient::check_answered_once(std::string_view command) {
    // ABOUT, and its answer read: a brain answers in order, so whatever comes between its move and
    // that answer (but MESSAGE and DEBUG lines) it wrote after the move, unasked. Caught here, at
    // the position it answered; the check before the next request alone would miss a line written a
    // moment late and take it for the next position's answer.
    if (!process_->send("ABOUT")) fail("stopped (" + process_->exit_text() + ") before ABOUT");
    const auto deadline = Clock::now() + std::chrono::milliseconds(settings_.start_timeout_ms);
    const std::string waiting_for = "its ABOUT line after its answer to " + std::string(command);
    for (;;) {
        const std::string line = read_line_until(deadline, settings_.start_timeout_ms, waiting_for);
        const std::string_view t = trimmed(line);
        const std::string low = lower(t);
        if (is_chatter(low)) continue;
        // Its ABOUT line as it gave it when it started (or any ABOUT line: name="...").
        if (t == about_ || low.find("name=\"") != std::string::npos) return;
        if (xy(t) || (low.starts_with("suggest") && xy(trimmed(t.substr(7)))))
            fail("answered twice: " + quoted(t) + " came after its answer to " + std::string(command) + ", unasked");
        fail("wrote " + quoted(t) + " after its answer to " + std::string(command) + ", unasked");
    }
}

void BrainClient::settle() {
    if (!process_) fail("was stopped after an earlier failure");
    refuse_waiting_lines("the end of the game");
}

void BrainClient::clear_board(int size) {
    // BEGIN plays on the brain's own board, and BOARD puts its stones on it (the protocol's manager
    // clears it first, and its brain template does not), which an earlier game, BOARD or move may
    // have left full: RESTART clears it, as the protocol's manager does before a BOARD in a game
    // under way, then the INFO lines again (cheap, and a brain may take RESTART to forget them).
    // START stays once per size: a brain may load its network on it. A brain that answers RESTART
    // with anything but OK (UNKNOWN: an older brain) gets START in its place, now and from then on.
    if (!board_used_) return;
    if (size != size_ || !restart_known_) return start_board(size);
    if (!process_->send("RESTART")) fail("stopped (" + process_->exit_text() + ") before RESTART");
    if (lower(answer_to("RESTART")) != "ok") {
        restart_known_ = false;
        return start_board(size);
    }
    board_used_ = false;
    send_info();
}

BrainAnswer BrainClient::think(const stones::StonePosition& pos, std::span<const int> order) {
    if (!process_) fail("was stopped after an earlier failure");
    if (pos.stone_count() == 0) return begin(pos);
    std::vector<int> points(order.begin(), order.end());
    if (points.empty())
        for (int p = 0; p < stones::point_count; ++p)
            if (pos.on_board(p) && pos.at(p) != stones::Stone::empty) points.push_back(p);
    const stones::Stone own = stones::stone_of(pos.side_to_move());
    std::string text;
    if (pos.rules().captures()) {
        // The stones there now, each once (a captured point may have been played again), and the
        // captured counts the board cannot show.
        std::vector<int> there;
        std::vector<bool> seen(stones::point_count, false);
        for (auto p = points.rbegin(); p != points.rend(); ++p)
            if (pos.at(*p) != stones::Stone::empty && !seen[std::size_t(*p)]) {
                seen[std::size_t(*p)] = true;
                there.push_back(*p);
            }
        points.assign(there.rbegin(), there.rend());
        text = captured_info(pos);
    }
    text += "BOARD\n";
    for (int p : points)
        text += std::to_string(stones::top_left_x(p)) + "," + std::to_string(stones::top_left_y(p, pos.size())) + "," +
            (pos.at(p) == own ? "1" : "2") + "\n";
    text += "DONE";
    refuse_waiting_lines("BOARD");
    clear_board(pos.size());
    board_used_ = true;
    if (!process_->send(text)) fail("stopped (" + process_->exit_text() + ") before BOARD");
    return read_move(pos, "BOARD");
}

BrainAnswer BrainClient::turn(const stones::StonePosition& after_opponent, int point) {
    if (!process_) fail("was stopped after an earlier failure");
    const std::string cmd = "TURN " + std::to_string(stones::top_left_x(point)) + "," +
        std::to_string(stones::top_left_y(point, after_opponent.size()));
    refuse_waiting_lines(cmd);
    if (!process_->send(cmd)) fail("stopped (" + process_->exit_text() + ") before " + cmd);
    board_used_ = true;
    return read_move(after_opponent, cmd);
}

BrainAnswer BrainClient::begin(const stones::StonePosition& empty) {
    if (!process_) fail("was stopped after an earlier failure");
    refuse_waiting_lines("BEGIN");
    clear_board(empty.size());
    board_used_ = true;
    const std::string text = empty.rules().captures() ? captured_info(empty) : std::string();
    if (!process_->send(text + "BEGIN")) fail("stopped (" + process_->exit_text() + ") before BEGIN");
    return read_move(empty, "BEGIN");
}

} // namespace gounki::protocol
