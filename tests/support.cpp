// The bodies of tests/support.hpp.
#include "tests/support.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

#include "db/codec.hpp"
#include "db/position_index.hpp"
#include "db/postgres.hpp"
#include "db/random_games.hpp"
#include "db/record_bridge.hpp"
#include "db/replay.hpp"
#include "parser/writer.hpp"
#include "tests/catch.hpp"

namespace gounki::test {

// ---------------------------------------------------------------------------------------------
// Files and folders

std::string slurp(const std::filesystem::path& p) {
    std::ifstream f(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

void write_text(const std::filesystem::path& p, const std::string& text) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    REQUIRE(out);
}

std::filesystem::path source_path(const std::string& relative) { return std::filesystem::path(GOUNKI_SOURCE_DIR) / relative; }

TempDir::TempDir(const std::string& name) {
    static int serial = 0;
    path_ = std::filesystem::temp_directory_path() /
        ("gounki-" + name + "-" + std::to_string(::getpid()) + "-" + std::to_string(++serial));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

// ---------------------------------------------------------------------------------------------
// The command line

std::string shell_quoted(const std::filesystem::path& p) {
    std::string out = "'";
    for (char c : p.string()) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string gounki_command() { return shell_quoted(GOUNKI_CLI); }

CliRun run_shell(const std::string& command) {
    TempDir dir("run");
    const int raw =
        std::system(("( " + command + " ) >" + shell_quoted(dir / "out") + " 2>" + shell_quoted(dir / "err")).c_str());
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(dir / "out"), slurp(dir / "err")};
}

CliRun run_gounki(const std::string& args) { return run_shell(gounki_command() + " " + args + " </dev/null"); }

void check_error(const std::string& args, int status, const std::string& message) {
    const CliRun r = run_gounki(args);
    INFO("gounki " << args << "\n" << r.err);
    CHECK(r.status == status);
    CHECK(count_of(r.err, message) == 1);
}

void check_prints(const std::string& args, const std::string& text) {
    const CliRun r = run_gounki(args);
    INFO("gounki " << args << "\n" << r.out << r.err);
    CHECK(r.status == 0);
    CHECK(contains(r.out, text));
}

pid_t spawn_gounki(const std::vector<std::string>& args, const std::string& out, const std::string& err) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int in = ::open("/dev/null", O_RDONLY);
        ::dup2(o, 1);
        ::dup2(e, 2);
        ::dup2(in, 0);
        std::vector<char*> argv;
        std::string program = GOUNKI_CLI;
        argv.push_back(program.data());
        std::vector<std::string> copy = args;
        for (std::string& a : copy) argv.push_back(a.data());
        argv.push_back(nullptr);
        ::execv(program.c_str(), argv.data());
        ::_exit(127);
    }
    return pid;
}

int wait_exit(pid_t pid) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

CliRun run_gounki_args(const std::vector<std::string>& args) {
    TempDir dir("run");
    CliRun r;
    r.status = wait_exit(spawn_gounki(args, dir.file("out"), dir.file("err")));
    r.out = slurp(dir / "out");
    r.err = slurp(dir / "err");
    return r;
}

// ---------------------------------------------------------------------------------------------
// System tools

bool have_tool(bool present, const std::string& what) {
    if (present) return true;
    const char* allow = std::getenv("GOUNKI_ALLOW_MISSING_TOOLS");
    if (allow && std::string(allow) == "1") {
        WARN("SKIPPED, not checked: " << what << " is missing (GOUNKI_ALLOW_MISSING_TOOLS=1)");
        return false;
    }
    FAIL(what << " is missing: scripts/test.sh installs it; GOUNKI_ALLOW_MISSING_TOOLS=1 reports this test "
                 "as skipped instead");
    return false;
}

bool command_succeeds(const std::string& command) { return std::system(("( " + command + " ) >/dev/null 2>&1").c_str()) == 0; }

// ---------------------------------------------------------------------------------------------
// Text

std::size_t count_of(const std::string& text, const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++n;
    return n;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

template <class Pos>
void check_text_never_crashes(const std::string& good, const std::string& alphabet) {
    REQUIRE(std::holds_alternative<Pos>(Pos::from_text(good)));
    for_each_prefix_and_change(good, alphabet, [](const std::string& text) {
        const auto r = Pos::from_text(text);
        if (const auto* e = std::get_if<PositionError>(&r)) {
            CHECK(e->column >= 0);
            CHECK(e->column <= int(text.size()));
        } else {
            CHECK(std::get<Pos>(r).key() == std::get<Pos>(r).compute_key());
        }
    });
}

template void check_text_never_crashes<Position>(const std::string&, const std::string&);
template void check_text_never_crashes<stones::StonePosition>(const std::string&, const std::string&);

// ---------------------------------------------------------------------------------------------
// The database

db::GameInput game(const std::vector<std::string>& moves, const std::string& white, const std::string& black,
                   db::ResultCode result, const std::string& date, const std::string& event) {
    db::GameInput g;
    g.moves = line_of(moves);
    g.result = result;
    g.tags = {{"Event", event}, {"White", white}, {"Black", black}, {"Result", std::string(db::result_text(result))}};
    if (!date.empty()) g.tags.emplace_back("Date", date);
    return g;
}

std::vector<db::GameInput> club_games() {
    using db::ResultCode;
    return {game({"c2-d3", "f7-e6", "g2-f3", "b7-a6", "b2-c2"}, "Ann Smith", "Bob", ResultCode::white_wins, "2020.05.01",
                 "Spring Open"),
            game({"g2-f3", "b7-a6", "c2-d3", "f7-e6"}, "Bob", "Cy", ResultCode::black_wins, "2021.01.10", "Winter Cup"),
            game({"c2-d3", "b7-a6"}, "Cy", "Ann Smith", ResultCode::draw, "2019.12.31", "Winter Cup"),
            game({"e2-f3"}, "Dee", "Eve", ResultCode::unknown, "", "Spring Open")};
}

ClubDatabase::ClubDatabase(const std::string& backend, const std::string& name)
    : db(test_database(backend, dir, name), db::Access::read_write) {
    r = import(db, club_games());
}

db::TreeMove ClubDatabase::start_move(const std::string& move) {
    for (const db::TreeMove& m : db.tree(Position::start()).moves)
        if (move_to_text(Position::start(), m.move) == move) return m;
    return {};
}

std::vector<db::GameInput> random_games(int n, std::uint64_t seed, int plies) {
    std::mt19937_64 rng(seed);
    db::RandomGameOptions o;
    o.max_plies = plies;
    o.players = 20;
    o.events = 5;
    std::vector<db::GameInput> out;
    for (int i = 0; i < n; ++i) out.push_back(db::random_game(rng, o, i + 1));
    return out;
}

std::vector<db::ImportReport> import(db::GameDatabase& db, std::vector<db::GameInput> games, db::ImportOptions options) {
    std::vector<db::ImportReport> reports;
    db::Importer importer(db, options, [&](const db::ImportReport& r) { reports.push_back(r); });
    for (db::GameInput& g : games) importer.add(std::move(g));
    importer.finish();
    return reports;
}

void write_gpn(const std::string& path, const std::vector<db::GameInput>& games) {
    std::ofstream out(path, std::ios::binary);
    for (const db::GameInput& g : games) parser::write_record(out, db::game_record(g));
}

namespace {

void import_file(const std::string& db, const std::filesystem::path& file) {
    const CliRun r = run_gounki_args({"import", "--quiet", "--db", db, file.string()});
    INFO("gounki import " << file << ": " << r.err);
    REQUIRE(r.status == 0);
}

} // namespace

void import_text(const std::string& db, const std::filesystem::path& file, const std::string& gpn) {
    write_text(file, gpn);
    import_file(db, file);
}

void import_games(const std::string& db, const std::filesystem::path& file, const std::vector<db::GameInput>& games) {
    write_gpn(file.string(), games);
    import_file(db, file);
}

std::vector<std::string> test_backends() {
    // No check here: a failure inside GENERATE leaves Catch without a generator. Where a server is
    // required and missing, test_database fails the test on its PostgreSQL run.
    const char* url = std::getenv("GOUNKI_TEST_PG");
    const char* required = std::getenv("GOUNKI_TEST_PG_REQUIRED");
    if ((url && db::is_postgres_url(url)) || (required && std::string(required) == "1")) return {"sqlite", "postgresql"};
    return {"sqlite"};
}

bool on_postgres(const std::string& path) { return db::is_postgres_url(path); }

std::string server_database(const std::string& name) {
    const char* env = std::getenv("GOUNKI_TEST_PG");
    INFO("GOUNKI_TEST_PG is not set: run the PostgreSQL tests through scripts/with-postgres.sh (ctest -R postgres)");
    REQUIRE((env && db::is_postgres_url(env)));
    const std::string url = env;
    {
        db::Database admin(url, db::OpenMode::read_write);
        admin.exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        admin.exec("CREATE DATABASE " + name);
    }
    const std::size_t slash = url.find('/', url.find("://") + 3);
    REQUIRE(slash != std::string::npos);
    const std::size_t query = url.find('?', slash);
    return url.substr(0, slash + 1) + name + (query == std::string::npos ? "" : url.substr(query));
}

std::string test_database(const std::string& backend, const TempDir& dir, const std::string& name) {
    if (backend == "sqlite") return dir.file(name + ".db");
    REQUIRE(backend == "postgresql");
    // One database per call: the process id and a counter keep the names apart.
    static int made = 0;
    std::string db_name = "gounki_t" + std::to_string(::getpid()) + "_" + std::to_string(++made) + "_";
    for (char c : name) db_name += std::isalnum(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : '_';
    return server_database(db_name);
}

std::vector<std::int64_t> ids_of(const db::GameList& list) {
    std::vector<std::int64_t> ids;
    for (const db::GameSummary& g : list.games) ids.push_back(g.id);
    return ids;
}

std::int64_t scalar(db::GameDatabase& db, const std::string& sql) {
    db::Statement st(db.sql(), sql);
    return st.step() ? st.get_int64(0) : -1;
}

void check_consistent(db::GameDatabase& db) {
    using namespace gounki::db;
    std::int64_t plies = 0, games = 0, with_moves = 0;
    std::vector<std::int64_t> ids;
    {
        Statement st(db.sql(), "SELECT id FROM games ORDER BY id");
        while (st.step()) ids.push_back(st.get_int64(0));
    }
    for (std::int64_t id : ids) {
        const auto g = db.game(id);
        REQUIRE(g);
        REQUIRE(g->summary.ply_count == int(g->moves.size()));
        const std::vector<std::uint64_t> keys = GameDatabase::position_keys(
            g->start, g->moves);
        std::vector<IndexEntry> found;
        db.index().lookup(keys.back(), found);
        const bool indexed = std::any_of(found.begin(), found.end(),
                                         [&](const IndexEntry& e) { return e.game == id && e.ply == g->moves.size(); });
        REQUIRE(indexed);
        plies += std::int64_t(g->moves.size()) + 1;
        ++games;
        with_moves += !g->moves.empty() && g->standard_start && g->summary.kind == GameKind::gounki;
    }
    CHECK(scalar(db, "SELECT coalesce(sum(entries), 0) FROM position_runs") == plies);
    std::int64_t listed = 0;
    {
        Statement st(db.sql(), "SELECT run_id, first_key, data FROM position_blocks");
        while (st.step()) decode_block(std::uint64_t(st.get_int64(1)), st.get_blob(2), [&](const IndexEntry&) { ++listed; });
    }
    CHECK(listed == plies);
    const std::int64_t start_key = std::int64_t(index_key(GameKind::gounki, Position::start().key()));
    CHECK(scalar(db, "SELECT coalesce(sum(games), 0) FROM tree_stats WHERE key = " + std::to_string(start_key)) == with_moves);
    CHECK(games == std::int64_t(ids.size()));
}

std::size_t check_tree_recount(db::GameDatabase& db) {
    using namespace gounki::db;
    struct Counted {
        std::int64_t games = 0, white_wins = 0, black_wins = 0, draws = 0;
        std::pair<std::string, std::int64_t> latest{"", 0}; // date, id
    };
    struct Expected {
        AnyPosition pos;
        std::int64_t games = 0;
        std::map<std::uint32_t, Counted> moves;
    };
    std::map<std::uint64_t, Expected> by_key;
    for (const GameSummary& s : db.list_games({}, {}).games) {
        const auto g = db.game(s.id);
        REQUIRE(g);
        std::map<std::uint64_t, std::set<std::uint32_t>> played; // this game's moves from each position
        AnyPosition pos = g->start;
        for (std::size_t ply = 0; ply <= g->moves.size(); ++ply) {
            const std::uint64_t key = index_key(pos);
            by_key.try_emplace(key, Expected{pos, 0, {}});
            if (ply == g->moves.size()) break;
            played[key].insert(g->moves[ply].raw());
            pos.play(g->moves[ply]);
        }
        for (const auto& [key, moves] : played) {
            Expected& e = by_key.at(key);
            ++e.games;
            for (std::uint32_t raw : moves) {
                Counted& c = e.moves[raw];
                ++c.games;
                c.white_wins += s.result == ResultCode::white_wins;
                c.black_wins += s.result == ResultCode::black_wins;
                c.draws += s.result == ResultCode::draw;
                // Dates compare as texts when they are whole (YYYY.MM.DD) or missing (earliest).
                c.latest = std::max(c.latest, std::pair(s.date, s.id));
            }
        }
    }
    for (const auto& [key, e] : by_key) {
        INFO("position " << e.pos.to_text());
        const Tree tree = db.tree(e.pos);
        CHECK(tree.games == e.games);
        std::map<std::uint32_t, Counted> got;
        for (const TreeMove& m : tree.moves)
            got[m.move.raw()] = {m.games, m.white_wins, m.black_wins, m.draws, {m.latest.date, m.latest.id}};
        CHECK(got.size() == e.moves.size());
        for (const auto& [raw, c] : e.moves) {
            INFO("move " << e.pos.move_text(Move::from_raw(raw)));
            const auto it = got.find(raw);
            REQUIRE(it != got.end());
            CHECK(it->second.games == c.games);
            CHECK(it->second.white_wins == c.white_wins);
            CHECK(it->second.black_wins == c.black_wins);
            CHECK(it->second.draws == c.draws);
            CHECK(it->second.latest.second == c.latest.second);
        }
    }
    return by_key.size();
}

// ---------------------------------------------------------------------------------------------
// Reports

// The text between the first `open` at or after `from` and the next `close`.
std::string between(const std::string& s, const std::string& open, const std::string& close, std::size_t from) {
    const std::size_t a = s.find(open, from);
    if (a == std::string::npos) return {};
    const std::size_t b = s.find(close, a + open.size());
    return s.substr(a + open.size(), b == std::string::npos ? std::string::npos : b - a - open.size());
}

namespace {

// Whether `s` has one of the entities HTML reports use at `at`.
bool entity_ok(const std::string& s, std::size_t at) {
    static const char* names[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};
    for (const char* n : names)
        if (s.compare(at, std::strlen(n), n) == 0) return true;
    return false;
}

// A tag's attributes from `j` to past its '>': name="value" with no '<' and only known entities in
// the value; `self_closed` when it ends with "/>". The problem, or "" when there is none.
std::string read_attributes(const std::string& s, std::size_t& j, bool& self_closed) {
    self_closed = false;
    for (;;) {
        while (j < s.size() && s[j] == ' ') ++j;
        if (s.compare(j, 2, "/>") == 0) {
            self_closed = true;
            j += 2;
            return "";
        }
        if (j < s.size() && s[j] == '>') {
            ++j;
            return "";
        }
        std::size_t k = j;
        while (k < s.size() && (std::isalnum(static_cast<unsigned char>(s[k])) || s[k] == '-' || s[k] == ':')) ++k;
        if (k == j || s.compare(k, 2, "=\"") != 0)
            return "unquoted or bad attribute at " + std::to_string(j) + ": " + s.substr(j, 20);
        const std::size_t end = s.find('"', k + 2);
        if (end == std::string::npos) return "unterminated attribute at " + std::to_string(j);
        for (std::size_t v = k + 2; v < end; ++v) {
            if (s[v] == '<') return "'<' in attribute at " + std::to_string(v);
            if (s[v] == '&' && !entity_ok(s, v)) return "bad entity in attribute at " + std::to_string(v);
        }
        j = end + 1;
    }
}

} // namespace

std::string check_markup(const std::string& s) {
    static const std::vector<std::string> voids = {"meta", "br", "hr", "img", "input", "link", "col", "wbr"};
    std::vector<std::string> open;
    std::size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        if (c == '&' && !entity_ok(s, i)) return "bad entity at " + std::to_string(i) + ": " + s.substr(i, 12);
        if (c == '>') return "stray '>' at " + std::to_string(i);
        if (c != '<') {
            ++i;
            continue;
        }
        if (s.compare(i, 4, "<!--") == 0) {
            i = s.find("-->", i);
            if (i == std::string::npos) return "open comment";
            i += 3;
            continue;
        }
        if (s.compare(i, 9, "<![CDATA[") == 0) { // an inline script's text
            i = s.find("]]>", i);
            if (i == std::string::npos) return "open CDATA section";
            i += 3;
            continue;
        }
        if (s.compare(i, 2, "<!") == 0 || s.compare(i, 2, "<?") == 0) {
            i = s.find('>', i) + 1;
            continue;
        }
        const bool closing = s[i + 1] == '/';
        std::size_t j = i + (closing ? 2 : 1);
        std::string name;
        while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '-')) name += s[j++];
        if (name.empty()) return "stray '<' at " + std::to_string(i);
        if (closing) {
            if (open.empty() || open.back() != name)
                return "</" + name + "> closes <" + (open.empty() ? "" : open.back()) + "> at " + std::to_string(i);
            open.pop_back();
            if (s[j] != '>') return "bad closing tag at " + std::to_string(i);
            i = j + 1;
            continue;
        }
        bool self_closed = false;
        if (std::string problem = read_attributes(s, j, self_closed); !problem.empty()) return problem;
        i = j;
        if (self_closed || std::find(voids.begin(), voids.end(), name) != voids.end()) continue;
        if (name == "style") {
            const std::size_t end = s.find("</style>", i);
            if (end == std::string::npos) return "open <style>";
            i = end;
        }
        open.push_back(name);
    }
    if (!open.empty()) return "unclosed <" + open.back() + ">";
    return "";
}

void check_self_contained(const std::string& html) {
    for (const char* outside : {"http", "src=", "<link", "@import", "url(", "fetch(", "XMLHttpRequest"}) {
        INFO(outside);
        CHECK(count_of(html, outside) == 0);
    }
    // Scripts are inline: the viewer's data blocks and its one script.
    const std::size_t script = count_of(html, "<script>//<![CDATA[");
    CHECK(script <= 1);
    CHECK(count_of(html, "<script") == script + count_of(html, "<script type=\"application/json\" class=\"viewer-data\""));
    for (std::size_t at = html.find("href=\""); at != std::string::npos; at = html.find("href=\"", at + 1))
        CHECK(html[at + 6] == '#');
}

namespace {

// The move `text` names in `pos`; the test stops when it names none.
Move legal_move(const AnyPosition& pos, const std::string& text) {
    auto parsed = pos.parse_move(text);
    INFO(text << " in " << pos.to_text());
    REQUIRE(std::holds_alternative<Move>(parsed));
    return std::get<Move>(parsed);
}

} // namespace

report::GameReport report_game(const AnyPosition& start, const std::vector<std::string>& moves) {
    report::GameReport g;
    g.kind = start.kind();
    g.start = start;
    AnyPosition pos = start;
    for (const std::string& text : moves) {
        report::Ply& p = g.plies.emplace_back();
        p.move = legal_move(pos, text);
        p.before = pos;
        pos.play(p.move);
    }
    return g;
}

report::GameReport generated_game(int n, std::size_t first, std::size_t reply) {
    AnyPosition pos = AnyPosition::start(GameKind::gounki);
    std::vector<std::string> texts;
    for (int i = 0; i < n && !pos.game_over(); ++i) {
        const std::vector<Move> list = pos.legal_moves();
        const std::size_t k = i == 0 ? first : i == 1 ? reply : std::size_t(7 * i + 3);
        const Move m = list[k % list.size()];
        texts.push_back(pos.move_text(m));
        pos.play(m);
    }
    return report_game(AnyPosition::start(GameKind::gounki), texts);
}

std::vector<std::string> other_line(const report::Ply& p) {
    for (Move m : p.before.legal_moves()) {
        if (m == p.move) continue;
        AnyPosition after = p.before;
        after.play(m);
        std::vector<std::string> line{p.before.move_text(m)};
        if (const std::vector<Move> replies = after.legal_moves(); !replies.empty()) line.push_back(after.move_text(replies[0]));
        return line;
    }
    FAIL("no other move");
    return {};
}

report::Judgement judged(report::Verdict v, double best, double played, const AnyPosition& before,
                         const std::vector<std::string>& line) {
    report::Judgement j;
    j.verdict = v;
    j.best = {best, 0};
    j.played = {played, 0};
    AnyPosition pos = before;
    for (const std::string& text : line) {
        j.best_line.push_back(legal_move(pos, text));
        pos.play(j.best_line.back());
    }
    j.best_move = j.best_line.empty() ? Move::none() : j.best_line[0];
    j.expected_before = 0.5 + best / 10;
    j.expected_after = 0.5 + played / 10;
    return j;
}

} // namespace gounki::test
