// Export of stone games as SGF and PSQ (parser/sgf/sgf.hpp write_sgf, parser/psq/psq.hpp write_psq,
// `gounki export --format`): random games of each stone game written, read back, and compared;
// games a format cannot hold left out with a reason; the command line's files and folders.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <fstream>
#include <optional>
#include <random>

#include "core/stones/position.hpp"
#include "parser/formats.hpp"
#include "parser/psq/psq.hpp"
#include "parser/sgf/sgf.hpp"
#include "parser/writer.hpp"
#include "pipeline/output_file.hpp"

using namespace gounki;
using namespace gounki::parser;
using namespace gounki::test;
namespace fs = std::filesystem;

namespace {

// A random legal move, mostly near the centre so that fives happen.
Move random_move(std::mt19937& rng, const stones::StonePosition& pos) {
    const std::vector<Move> moves = pos.legal_moves();
    std::vector<Move> near;
    const int c = pos.size() / 2;
    for (Move m : moves)
        if (std::abs(stones::point_file(m.point()) - c) <= 3 && std::abs(stones::point_rank(m.point()) - c) <= 3)
            near.push_back(m);
    const std::vector<Move>& from = near.empty() || rng() % 8 == 0 ? moves : near;
    return from[rng() % from.size()];
}

std::string random_comment(std::mt19937& rng) {
    static const char* words[] = {"threat", "a ] bracket", "back\\slash", "five?", "line\nbreak", "{brace}"};
    return words[rng() % std::size(words)];
}

// A line of at most `plies` plies from `pos`, with comments, NAGs and variations when `extras`.
Line random_line(std::mt19937& rng, stones::StonePosition pos, int plies, bool extras, int depth = 0) {
    Line line;
    stones::StoneUndo undo;
    for (int i = 0; i < plies && !pos.game_over(); ++i) {
        Ply p(random_move(rng, pos));
        if (extras && rng() % 6 == 0) p.comments.push_back(random_comment(rng));
        if (extras && rng() % 8 == 0) p.nags.push_back(std::uint8_t(1 + rng() % 6));
        if (extras && depth < 2 && rng() % 7 == 0) {
            stones::StonePosition before = pos;
            Line v = random_line(rng, before, 1 + int(rng() % 4), extras, depth + 1);
            if (!v.plies.empty() && v.plies[0].move != p.move) {
                if (rng() % 3 == 0) v.comments.push_back(random_comment(rng));
                p.variations.push_back(std::move(v));
            }
        }
        pos.play(p.move, undo);
        line.plies.push_back(std::move(p));
    }
    return line;
}

GameRecord random_stone_game(std::mt19937& rng, const stones::Rules& rules, int number, bool extras) {
    GameRecord g;
    g.kind = rules.kind;
    g.start = stones::StonePosition(rules);
    g.main = random_line(rng, g.start.as_stones(), 20 + int(rng() % 100), extras);
    const stones::StonePosition end = g.final_stone_position();
    static const char* open_results[] = {"*", "1-0", "0-1", "1/2-1/2"};
    g.result = end.game_over() ? std::string(outcome_text(end.outcome())) : open_results[rng() % 4];
    g.tags = {{"Game", std::string(game_kind_name(rules.kind))},      {"Event", "Random " + std::to_string(number)},
              {"Date", "2026.03.0" + std::to_string(1 + number % 9)}, {"Black", "Black " + std::to_string(number)},
              {"White", "White ] " + std::to_string(number)},         {"Result", g.result}};
    if (extras && rng() % 3 == 0) g.main.comments.push_back(random_comment(rng));
    return g;
}

// SGF's C holds one text: several comments come back as its paragraphs.
std::string joined(const std::vector<std::string>& comments) {
    std::string out;
    for (const std::string& c : comments) out += (out.empty() ? "" : "\n") + c;
    return out;
}

void same_line(const Line& a, const Line& b, bool comments) {
    REQUIRE(a.plies.size() == b.plies.size());
    if (comments) CHECK(joined(a.comments) == joined(b.comments));
    if (comments) CHECK(b.comments.size() <= 1);
    for (std::size_t i = 0; i < a.plies.size(); ++i) {
        CHECK(a.plies[i].move == b.plies[i].move);
        if (!comments) continue;
        CHECK(joined(a.plies[i].comments) == joined(b.plies[i].comments));
        CHECK(b.plies[i].comments.size() <= 1);
        // SGF holds one annotation of each kind per move: the first of each.
        CHECK(a.plies[i].nags.size() >= b.plies[i].nags.size());
        REQUIRE(a.plies[i].variations.size() == b.plies[i].variations.size());
        for (std::size_t v = 0; v < a.plies[i].variations.size(); ++v)
            same_line(a.plies[i].variations[v], b.plies[i].variations[v], comments);
    }
}

// Built inside a test: the helpers check their input with Catch's macros.
std::vector<stones::Rules> every_rule_set() {
    stones::Rules pente_free = stones::Rules::defaults(GameKind::pente);
    pente_free.tournament_rule = false;
    return {gomoku(15),
            gomoku(19),
            ninuki(19),
            ninuki(15),
            ninuki_with("simple"),
            ninuki_with("allow-double-three", 15),
            stones::Rules::defaults(GameKind::pente),
            pente_free,
            stones::Rules::defaults(GameKind::renju)};
}

} // namespace

TEST_CASE("SGF export: random games of each stone game read back as the same games", "[parser][sgf][export]") {
    std::mt19937 rng(20260301);
    int games = 0;
    for (const stones::Rules& rules : every_rule_set())
        for (int i = 0; i < 25; ++i) {
            const GameRecord g = random_stone_game(rng, rules, i, true);
            REQUIRE(sgf_cannot_hold(g).empty());
            const std::string text = write_sgf(g);
            CAPTURE(text);
            const auto back = read_sgf(text, "x.sgf");
            REQUIRE(back.size() == 1);
            const GameRecord& b = back[0];
            CHECK(b.kind == g.kind);
            CHECK(b.start.as_stones() == g.start.as_stones());
            CHECK(b.result == g.result);
            for (const char* tag : {"Event", "Date", "Black", "White"}) CHECK(*b.tag(tag) == *g.tag(tag));
            same_line(g.main, b.main, true);
            for (const Diagnostic& d : b.diagnostics) CHECK(d.severity == Severity::warning);
            ++games;
        }
    CHECK(games == 225);
}

TEST_CASE("SGF export: set-up stones and White to move, several games in one file", "[parser][sgf][export]") {
    GameRecord g = read_sgf("(;GM[4]SZ[15]AB[hh][ji]AW[ih]PL[W]RU[swap2]C[root];W[gi]C[x];B[hg])")[0];
    REQUIRE(g.status == GameStatus::valid);
    const std::string text = write_sgf(g) + write_sgf(g);
    const auto back = read_sgf(text, "two.sgf");
    REQUIRE(back.size() == 2);
    CHECK(back[1].start.as_stones() == g.start.as_stones());
    CHECK(back[1].start.as_stones().side_to_move() == Color::white);
    CHECK(*back[1].tag("OpeningRule") == "swap2");
    same_line(g.main, back[1].main, true);
    CHECK(back[1].line == 2);
}

TEST_CASE("PSQ export: random Gomoku games read back as the same games; other games are refused", "[parser][psq][export]") {
    std::mt19937 rng(7);
    for (int i = 0; i < 60; ++i) {
        GameRecord g = random_stone_game(rng, gomoku(i % 3 == 0 ? 19 : 15), i, false);
        if (i % 4 == 1) g.tags.emplace_back("OpeningStones", std::to_string(1 + i % 5));
        REQUIRE(psq_cannot_hold(g).empty());
        const std::string text = write_psq(g);
        CAPTURE(text);
        const GameRecord b = read_psq(text, "x.psq");
        CHECK(b.status == GameStatus::valid);
        CHECK(b.start.as_stones() == g.start.as_stones());
        CHECK(b.result == g.result);
        CHECK(*b.tag("Black") == *g.tag("Black"));
        CHECK(*b.tag("White") == *g.tag("White"));
        const std::string* opening = g.tag("OpeningStones");
        CHECK((b.tag("OpeningStones") ? *b.tag("OpeningStones") : "0") ==
              (opening ? std::to_string(std::min<std::size_t>(std::stoul(*opening), g.main.plies.size())) : "0"));
        same_line(g.main, b.main, false);
    }
    CHECK(contains(psq_cannot_hold(random_stone_game(rng, ninuki(19), 1, false)), "PSQ holds Gomoku and Renju games only"));
    // Renju's games go as Gomocup's Renju group, and read back as Renju.
    for (int i = 0; i < 10; ++i) {
        GameRecord g = random_stone_game(rng, stones::Rules::defaults(GameKind::renju), i, false);
        if (g.result == "*") { // the rule is named in the result line: a game without one cannot say it
            CHECK(contains(psq_cannot_hold(g), "result line"));
            g.result = "1/2-1/2";
        }
        REQUIRE(psq_cannot_hold(g).empty());
        const std::string text = write_psq(g);
        CAPTURE(text);
        CHECK(contains(text, ",Renju15"));
        const GameRecord b = read_psq(text, "r.psq");
        CHECK(b.kind == GameKind::renju);
        CHECK(b.status == GameStatus::valid);
        CHECK(b.result == g.result);
        same_line(g.main, b.main, false);
    }
    GameRecord set_up = read_sgf("(;GM[4]AB[hh];W[ii])")[0];
    CHECK(contains(psq_cannot_hold(set_up), "start position"));
    GameRecord gounki_game;
    CHECK(contains(sgf_cannot_hold(gounki_game), "stone games only"));
}

TEST_CASE("gounki export --format sgf and psq: files that import back to the same games", "[parser][export][cli]") {
    TempDir dir("export-formats");
    const std::string db = "--db " + shell_quoted(dir / "a.db");
    std::mt19937 rng(11);
    std::string gpn;
    for (int i = 0; i < 6; ++i) gpn += write_record(random_stone_game(rng, i < 4 ? gomoku(15) : ninuki(19), i, false));
    { std::ofstream(dir / "games.gpn") << gpn; }
    const std::string gounki_game = GOUNKI_SOURCE_DIR "/samples/games/03-pass-and-exit.gpn";
    REQUIRE(run_gounki("import " + db + " " + shell_quoted(dir / "games.gpn") + " " + gounki_game).status == 0);

    const CliRun sgf = run_gounki("export " + db + " --format sgf -o " + shell_quoted(dir / "all.sgf"));
    CHECK(sgf.status == 1); // the Gounki game is left out, and said
    CHECK(contains(sgf.err, "game 7 left out: SGF holds the stone games only"));
    CHECK(contains(sgf.err, "exported 6 games"));
    const CliRun psq = run_gounki("export " + db + " --format psq --game gomoku -o " + shell_quoted(dir / "psq"));
    CHECK(psq.status == 0);
    CHECK(contains(psq.err, "exported 4 games"));
    CHECK(fs::exists(dir / "psq/1.psq"));
    CHECK(run_gounki("export " + db + " --format psq -o -").status == 2);
    CHECK(contains(run_gounki("export " + db + " --format txt -o x").err, "--format must be gpn, sgf, psq, renjunet, renlib or openings"));

    const std::string db2 = "--db " + shell_quoted(dir / "b.db");
    const CliRun again = run_gounki("import " + db2 + " " + shell_quoted(dir / "all.sgf") + " " + shell_quoted(dir / "psq"));
    CHECK(again.status == 1); // the PSQ copies duplicate the SGF ones
    CHECK(contains(again.err, "10 games read: 6 stored (0 broken), 4 duplicates"));
    const CliRun first = run_gounki("export " + db + " --game gomoku -o -");
    const CliRun second = run_gounki("export " + db2 + " --game gomoku -o -");
    // The same records, but the Size tag that SGF's SZ gives.
    std::string second_text;
    for (const std::string& line : lines_of(second.out))
        if (line != "[Size \"15\"]") second_text += line + "\n";
    std::string first_text;
    for (const std::string& line : lines_of(first.out)) first_text += line + "\n";
    CHECK(first_text == second_text);
    CHECK(count_of(first_text, "[Game \"Gomoku\"]") == 4);
}

TEST_CASE("export format and report: what -o names is written into and never replaced by something else", "[export][cli]") {
    TempDir dir("export-target");
    const fs::path db = dir / "g.db";
    const std::string on = " --db " + shell_quoted(db);
    REQUIRE(run_gounki("import --quiet" + on + " " + shell_quoted(GOUNKI_SOURCE_DIR "/samples/games/10-gomoku.gpn")).status == 0);
    const std::string listing = run_gounki("games" + on).out;

    SECTION("the database read is never the file written") {
        for (const std::string& cmd : {"export" + on + " -o ", "report" + on + " 1 -o "}) {
            const CliRun r = run_gounki(cmd + shell_quoted(db));
            CHECK(r.status == 2);
            CHECK(contains(r.err, "is the database the games are read from: name another file"));
        }
        fs::create_symlink(db, dir / "alias.gpn");
        CHECK(contains(run_gounki("export" + on + " -o " + shell_quoted(dir / "alias.gpn")).err, "is the database"));
        CHECK(run_gounki("games" + on).out == listing);
    }
    SECTION("a link is followed, a file's permissions and other names are kept") {
        { std::ofstream(dir / "t.gpn") << "old\n"; }
        fs::permissions(dir / "t.gpn", fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
        fs::create_symlink("t.gpn", dir / "link.gpn");
        fs::create_hard_link(dir / "t.gpn", dir / "hard.gpn");
        const CliRun r = run_gounki("export" + on + " --quiet -o " + shell_quoted(dir / "link.gpn"));
        CHECK(r.status == 0);
        CHECK(r.err.empty()); // --quiet: no "exported 2 games"
        CHECK(fs::is_symlink(dir / "link.gpn"));
        CHECK(contains(slurp(dir / "t.gpn"), "[Game \"Gomoku\"]"));
        CHECK(slurp(dir / "hard.gpn") == slurp(dir / "t.gpn"));
        CHECK(fs::status(dir / "t.gpn").permissions() == (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
        // format --in-place through a link: the file pointed at is rewritten, the link stays.
        REQUIRE(run_gounki("format --in-place " + shell_quoted(dir / "link.gpn")).status == 0);
        CHECK(fs::is_symlink(dir / "link.gpn"));
        CHECK(contains(slurp(dir / "hard.gpn"), "[Game \"Gomoku\"]"));
        CHECK_FALSE(fs::exists(dir / "t.gpn.part"));
    }
    SECTION("a device or a pipe is written into, a folder refused") {
        const CliRun null = run_gounki("export" + on + " -o /dev/null");
        CHECK(null.status == 0);
        CHECK(fs::is_character_file("/dev/null"));
        CHECK(run_gounki("report" + on + " 1 -o /dev/null").status == 0);
        CHECK(fs::is_character_file("/dev/null"));
        REQUIRE(run_shell("mkfifo " + shell_quoted(dir / "pipe")).status == 0);
        const CliRun piped = run_shell("cat " + shell_quoted(dir / "pipe") + " > " + shell_quoted(dir / "got") + " & " + gounki_command() +
                                       " export" + on + " -o " + shell_quoted(dir / "pipe") + "; wait");
        CHECK(piped.status == 0);
        CHECK(fs::is_fifo(dir / "pipe"));
        CHECK(contains(slurp(dir / "got"), "[Game \"Gomoku\"]"));
        const CliRun folder = run_gounki("export" + on + " -o " + shell_quoted(dir.path()));
        CHECK(folder.status == 2);
        CHECK(contains(folder.err, "is a folder"));
        const CliRun nowhere = run_gounki("export" + on + " -o " + shell_quoted(dir / "no-such-folder" / "g.gpn"));
        CHECK(nowhere.status == 2);
        CHECK(contains(nowhere.err, "cannot write '" + (dir / "no-such-folder" / "g.gpn.part").string() + "': No such file or directory"));
    }
}

namespace {

// While it lives, no file may grow past `bytes` (writes past it fail with EFBIG): a disk that fills up.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) : handler_(std::signal(SIGXFSZ, SIG_IGN)) {
        ::getrlimit(RLIMIT_FSIZE, &old_);
        rlimit limited = old_;
        limited.rlim_cur = bytes;
        REQUIRE(::setrlimit(RLIMIT_FSIZE, &limited) == 0);
    }
    ~FileSizeLimit() {
        ::setrlimit(RLIMIT_FSIZE, &old_);
        std::signal(SIGXFSZ, handler_);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

private:
    rlimit old_{};
    void (*handler_)(int);
};

// The names in `dir`, sorted.
std::vector<std::string> names_in(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace

TEST_CASE("a file with other names is rewritten in place whole or not at all", "[export]") {
    TempDir dir("in-place");
    const auto rewrite = [&](const std::string& old_text, const std::string& new_text, rlim_t limit, std::string& error) {
        { std::ofstream(dir / "t.gpn", std::ios::binary) << old_text; }
        if (!fs::exists(dir / "other.gpn")) fs::create_hard_link(dir / "t.gpn", dir / "other.gpn");
        pipeline::OutputFile out((dir / "t.gpn").string());
        REQUIRE(out.open(error));
        out.stream() << new_text;
        REQUIRE(out.stream().flush()); // the new text is whole in t.gpn.part before the limit comes
        std::optional<FileSizeLimit> full;
        if (limit) full.emplace(limit);
        return out.commit(error);
    };
    const std::string small(3000, 's'), large(20000, 'L');
    std::string error;
    SECTION("written whole: both names see the new text, nothing is left beside them") {
        CHECK(rewrite(small, large, 0, error));
        CHECK(slurp(dir / "t.gpn") == large);
        CHECK(slurp(dir / "other.gpn") == large);
        CHECK(names_in(dir.path()) == std::vector<std::string>{"other.gpn", "t.gpn"});
        CHECK(rewrite(large, small, 0, error)); // and back to a shorter text: cut to its length
        CHECK(slurp(dir / "other.gpn") == small);
    }
    SECTION("the disk fills up while the longer text is written: the old text is put back") {
        CHECK_FALSE(rewrite(small, large, 8192, error));
        CHECK(contains(error, "cannot rewrite"));
        CHECK(contains(error, "the file is as it was"));
        CHECK(slurp(dir / "t.gpn") == small);
        CHECK(slurp(dir / "other.gpn") == small);
        CHECK(names_in(dir.path()) == std::vector<std::string>{"other.gpn", "t.gpn"});
    }
    SECTION("no room for a copy of the old text: the file is not touched") {
        CHECK_FALSE(rewrite(large, small, 8192, error));
        CHECK(contains(error, "cannot keep a copy of its old text"));
        CHECK(slurp(dir / "t.gpn") == large);
        CHECK(slurp(dir / "other.gpn") == large);
        CHECK(names_in(dir.path()) == std::vector<std::string>{"other.gpn", "t.gpn"});
    }
}

// A signal that ends the program while the new text is copied over the file (Ctrl-C, a kill, or
// here the file size limit's SIGXFSZ, which comes amid the writing) ended it with the file half
// written and the copy of its old text left beside it; it now takes effect once the file is whole
// again, its old text put back, with nothing left beside it.
TEST_CASE("a file with other names rewritten in place is whole when a signal ends the program mid-write", "[export]") {
    TempDir dir("in-place-signal");
    const std::string old_text(3000, 's'), new_text(20000, 'L');
    { std::ofstream(dir / "t.gpn", std::ios::binary) << old_text; }
    fs::create_hard_link(dir / "t.gpn", dir / "other.gpn");
    const std::string target = (dir / "t.gpn").string();
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        std::signal(SIGXFSZ, SIG_DFL); // ends the program, as by default
        rlimit no_core{0, 0};
        ::setrlimit(RLIMIT_CORE, &no_core);
        std::string error;
        pipeline::OutputFile out(target);
        if (!out.open(error)) ::_exit(3);
        out.stream() << new_text;
        if (!out.stream().flush()) ::_exit(3);
        rlimit full{};
        ::getrlimit(RLIMIT_FSIZE, &full);
        full.rlim_cur = 8192; // the new text is whole in t.gpn.part; the file itself cannot take it
        if (::setrlimit(RLIMIT_FSIZE, &full) != 0) ::_exit(3);
        ::_exit(out.commit(error) ? 0 : 1);
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGXFSZ);
    CHECK(slurp(dir / "t.gpn") == old_text);
    CHECK(slurp(dir / "other.gpn") == old_text);
    CHECK(names_in(dir.path()) == std::vector<std::string>{"other.gpn", "t.gpn"});
}

TEST_CASE("export as SGF or PSQ leaves a broken game out: neither format can mark it", "[export][cli]") {
    TempDir dir("export-broken");
    { std::ofstream(dir / "p.gpn") << "[Game \"Gomoku\"]\n[Result \"*\"]\n\n1. h8 h8 2. i9 *\n\n"
                                      "[Game \"Gomoku\"]\n[Result \"*\"]\n\n1. h8 h9 2. i9 *\n"; }
    const std::string on = " --db " + shell_quoted(dir / "a.db");
    REQUIRE(run_gounki("import" + on + " " + shell_quoted(dir / "p.gpn")).status == 1); // the first game is partial
    for (const std::string format : {"sgf", "psq"}) {
        INFO(format);
        const CliRun r = run_gounki("export" + on + " --format " + format + " -o " + shell_quoted(dir / ("out." + format)));
        CHECK(r.status == 1);
        CHECK(contains(r.err, "game 1 left out: a partial game, which " + std::string(format == "sgf" ? "SGF" : "PSQ") +
                                  " has no way to mark (it would read back as valid): export it as gpn"));
        CHECK(contains(r.err, "exported 1 game"));
    }
    // As GPN it keeps its mark and reads back partial.
    REQUIRE(run_gounki("export" + on + " -o " + shell_quoted(dir / "out.gpn")).status == 0);
    CHECK(contains(run_gounki("validate " + shell_quoted(dir / "out.gpn")).out, "1 valid, 0 invalid, 1 partial"));
}
