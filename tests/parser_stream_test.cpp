// Game records: long streams read in bounded memory, oversized games, missing files, the fuzzers'
// regression files (tests/data/regressions), and the `gounki validate` command.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <streambuf>

#include "fuzz/record_checks.hpp"
#include "parser/encoding.hpp"
#include "parser/psq/psq.hpp"
#include "parser/reader.hpp"
#include "parser/sgf/sgf.hpp"
#include "pipeline/read.hpp"

using namespace gounki;
using namespace gounki::parser;
using namespace gounki::test;
namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// Streaming.

namespace {

// An endless supply of small games, made as they are read: the input is never in memory at once.
class GameStream : public std::streambuf {
public:
    explicit GameStream(int games) : left_(games) {}

protected:
    int_type underflow() override {
        if (left_ == 0) return traits_type::eof();
        --left_;
        chunk_ = "[Event \"Stream\"]\n[Round \"" + std::to_string(++round_) +
            "\"]\n\n1. c2-d3 f7-e6 2. d3-e4 e6-d5 3. e4xd5 {capture} *\n\n";
        setg(chunk_.data(), chunk_.data(), chunk_.data() + chunk_.size());
        return traits_type::to_int_type(chunk_[0]);
    }

private:
    int left_;
    int round_ = 0;
    std::string chunk_;
};

} // namespace

TEST_CASE("a long stream is read game by game in bounded memory, and games can be skipped", "[parser][stream]") {
    const int n = 20000;
    GameStream buf(n);
    std::istream in(&buf);
    RecordReader reader(in, "stream");
    GameRecord g;
    int games = 0;
    std::size_t most = 0;
    while (true) {
        const bool skipping = games % 3 == 1;
        const bool got = skipping ? reader.skip(&g) : reader.next(g);
        if (!got) break;
        ++games;
        most = std::max(most, reader.buffer_capacity());
        if (!skipping) {
            CHECK(g.status == GameStatus::valid);
            CHECK(g.main.plies.size() == 5);
        } else {
            CHECK(g.main.plies.empty()); // skipped: tags only
        }
        CHECK(*g.tag("Round") == std::to_string(games));
        CHECK(g.number == games);
        CHECK(g.line == 1 + 5 * (games - 1));
    }
    CHECK(games == n);
    CHECK(reader.bytes_read() > 1000000);
    CHECK(most < 256 * 1024);
}

TEST_CASE("a game larger than the limit is reported and passed over", "[parser][stream]") {
    const std::string text =
        "[Event \"huge\"]\n\n1. c2-d3 {" + std::string(5000, 'x') + "} *\n\n[Event \"next\"]\n\n1. c2-d3 *\n";
    std::istringstream in(text);
    RecordReader reader(in, "huge");
    reader.set_max_game_bytes(1000);
    GameRecord g;
    REQUIRE(reader.next(g));
    CHECK(g.status == GameStatus::partial);
    REQUIRE(g.diagnostics.size() == 1);
    CHECK(g.diagnostics[0].code == "game-too-large");
    CHECK(g.diagnostics[0].line == 1);
    REQUIRE(reader.next(g));
    CHECK(g.status == GameStatus::valid);
    CHECK(*g.tag("Event") == "next");
    CHECK(g.line == 5);
    CHECK(!reader.next(g));
}

TEST_CASE("a run of blank lines beyond the limit is no game", "[parser][stream]") {
    for (const std::string& text : {std::string(5000, '\n'), std::string(3000, '\n') + std::string(3000, ' ') + "\r\n\t"}) {
        std::istringstream in(text);
        RecordReader reader(in, "blanks");
        reader.set_max_game_bytes(1000);
        GameRecord g;
        CHECK(!reader.next(g));
    }
}

TEST_CASE("a comment the next game's tag pairs end before its '}' is said where it opens", "[parser][stream]") {
    // The splitter ends a `{` comment at a line that looks like a tag pair (so that a lost `}`
    // cannot swallow the file). A comment before a game, or a game commented out, left a chunk
    // with no game that was dropped without a word.
    const std::string game = "[Game \"Gounki\"]\n[Result \"*\"]\n\n1. c2-d3 f7-e6 *\n";
    for (const std::string& text : {"{header\n[Event \"X\"]\n}\n" + game, "\n  {" + game + "}\n" + game}) {
        INFO(text);
        std::istringstream in(text);
        RecordReader reader(in, "open.gpn");
        GameRecord g;
        int games = 0;
        while (reader.next(g)) ++games;
        CHECK(games >= 1);
        const auto d = reader.take_file_diagnostics();
        REQUIRE(d.size() == 1);
        CHECK(d[0].code == "unterminated-comment");
        CHECK(d[0].line == (text[0] == '{' ? 1 : 2));
        CHECK(d[0].column == (text[0] == '{' ? 1 : 3));
    }
    // A comment closed before the game's tag pairs is the game's own, and nothing is said.
    std::istringstream in("{a file of one game}\n" + game);
    RecordReader reader(in, "closed.gpn");
    GameRecord g;
    REQUIRE(reader.next(g));
    CHECK(g.main.comments == std::vector<std::string>{"a file of one game"});
    CHECK(reader.take_file_diagnostics().empty());
}

TEST_CASE("old Mac line ends (a lone CR) count as line ends in every place said", "[parser][stream]") {
    // Lines were not counted (everything was line 1), and format could not find a kept game's text.
    const auto with_cr = [](std::string text) {
        std::replace(text.begin(), text.end(), '\n', '\r');
        return text;
    };
    std::string many;
    for (int i = 0; i < 3000; ++i) many += "[Game \"Gounki\"]\n[Result \"*\"]\n\n1. c2-d3 f7-e6 *\n"; // 4 lines each
    const std::string bad = "[Game \"Gounki\"]\n\n1. c2-d3 f7-e6\n2. d3-d7 *\n";
    std::istringstream in(with_cr(many + bad)); // past the reader's first block: CRs at its edges
    RecordReader reader(in, "mac.gpn");
    GameRecord g;
    int games = 0;
    while (reader.next(g)) ++games;
    CHECK(games == 3001);
    check_diagnostic(g, "illegal-move", 3000 * 4 + 4, 4, "d3-d7");
    CHECK(g.line == 3000 * 4 + 1);
    // A CR that ends a block is a line end at once; if it was a CRLF's, its LF is no second one.
    bool pending = false;
    std::string a = "x\r", b = "\ny\rz\r\n";
    lone_cr_to_lf(a.data(), 0, a.size(), pending);
    CHECK(pending);
    lone_cr_to_lf(b.data(), 0, b.size(), pending);
    CHECK(a + b == "x\n\ry\nz\r\n");
    CHECK(!pending);
    // An SGF file whose lone CR falls on the reader's 64 KB block edge, between two games.
    std::string sgf_text;
    while (sgf_text.size() < 65000) sgf_text += "(;GM[4]SZ[15];B[hh])\r";
    std::string filler = "(;GM[4]SZ[15]C[";
    filler += std::string(65535 - sgf_text.size() - filler.size() - 8, 'x') + "];B[hh])";
    sgf_text += filler;
    REQUIRE(sgf_text.size() == 65535);
    const int lines_before = int(std::count(sgf_text.begin(), sgf_text.end(), '\r')) + 1;
    sgf_text += "\r(;GM[4]SZ[15]\r;B[hh];W[hh])\r";
    const auto edge = read_sgf(sgf_text, "edge.sgf");
    REQUIRE(!edge.empty());
    check_diagnostic(edge.back(), "illegal-move", lines_before + 2, 8, "occupied");
    // CRLF stays one line end, and SGF counts the same way.
    const auto sgf = read_sgf(with_cr("(;GM[4]SZ[15]\nPB[a]\n;B[hh]\n;W[hh])\n"), "mac.sgf");
    REQUIRE(sgf.size() == 1);
    check_diagnostic(sgf[0], "illegal-move", 4, 2, "occupied");
    std::istringstream crlf("[Game \"Gounki\"]\r\n\r\n1. c2-d3 f7-e6\r\n2. d3-d7 *\r\n");
    RecordReader dos(crlf, "dos.gpn");
    REQUIRE(dos.next(g));
    check_diagnostic(g, "illegal-move", 4, 4, "d3-d7");
    // format copies a kept game of such a file whole.
    TempDir dir("mac");
    write_text(dir / "mac.gpn", with_cr("[Game \"Gounki\"]\n[Result \"*\"]\n\n1. c2-d3 *\n" + bad));
    const CliRun r = run_gounki("format " + shell_quoted(dir / "mac.gpn"));
    CHECK(r.status == 1);
    CHECK(contains(r.out, "1. c2-d3 f7-e6\n2. d3-d7 *\n"));
}

namespace {

// A reader opened on a path it cannot read: not ok, one io-error saying `why`, no game.
void check_unreadable(FileSource&& reader, const std::string& why) {
    INFO(reader.name());
    CHECK(!reader.ok());
    CHECK(reader.io_failed());
    const auto d = reader.take_file_diagnostics();
    REQUIRE(d.size() == 1);
    CHECK(d[0].code == "io-error");
    CHECK(d[0].severity == Severity::error);
    CHECK(d[0].file == reader.name());
    CHECK(d[0].message == why);
    GameRecord g;
    CHECK(!reader.next(g));
    CHECK(reader.take_file_diagnostics().empty()); // said once
}

} // namespace

TEST_CASE("a missing file or a folder is an io-error, not a crash, whatever the format", "[parser][stream]") {
    const std::string missing = "cannot open the file: No such file or directory";
    check_unreadable(RecordReader(records_dir / "no_such_file.gpn"), missing);
    check_unreadable(SgfReader(records_dir / "no_such_file.sgf"), missing);
    check_unreadable(PsqReader(records_dir / "no_such_file.psq"), missing);
    const std::string folder = "cannot read a directory as a record file";
    check_unreadable(RecordReader(records_dir), folder);
    check_unreadable(SgfReader(records_dir), folder);
    check_unreadable(PsqReader(records_dir), folder);
}

// ---------------------------------------------------------------------------------------------
// Fuzzers' findings: every file in tests/data/regressions is read without a crash (the sanitizer
// build turns any memory error into a failure).

TEST_CASE("every fuzzing regression file passes the fuzzers' checks", "[parser][regression]") {
    int files = 0;
    for (const auto& entry : fs::directory_iterator(source_path("tests/data/regressions"))) {
        if (!entry.is_regular_file() || entry.path().extension() == ".md") continue;
        DYNAMIC_SECTION(entry.path().filename().string()) {
            const std::string data = slurp(entry.path());
            const std::string problem = fuzz::check_records(data);
            INFO(problem);
            CHECK(problem.empty());
            auto parsed = Position::from_text(data);
            if (auto* p = std::get_if<Position>(&parsed)) {
                const auto again = Position::from_text(p->to_text());
                REQUIRE(std::holds_alternative<Position>(again));
                CHECK(std::get<Position>(again) == *p);
            }
            auto stone = stones::StonePosition::from_text(data);
            if (auto* p = std::get_if<stones::StonePosition>(&stone)) {
                const auto again = stones::StonePosition::from_text(p->to_text());
                REQUIRE(std::holds_alternative<stones::StonePosition>(again));
                CHECK(std::get<stones::StonePosition>(again) == *p);
            } else {
                const PositionError& e = std::get<PositionError>(stone);
                CHECK(e.column >= 0);
                CHECK(std::size_t(e.column) <= data.size());
            }
        }
        ++files;
    }
    CHECK(files >= 1);
}

// ---------------------------------------------------------------------------------------------
// The command.

TEST_CASE("gounki validate prints diagnostics with places, a summary, and the documented exit status", "[parser][cli]") {
    const auto file = [](const char* name) { return shell_quoted(records_dir / name); };
    SECTION("exit status 0 for valid games, 1 for invalid ones; places, a summary, counts by code") {
        struct Case {
            std::string command;
            int status;
            std::vector<std::string> printed;
        };
        const Case cases[] = {
            {"validate " + file("draw.gpn"), 0, {"1 game in 1 file: 1 valid, 0 invalid, 0 partial; 0 errors, 0 warnings"}},
            {"validate " + file("two_games_first_broken.gpn"),
             1,
             {"two_games_first_broken.gpn:4:19: error: 2. d3-e5: d3-e5 is not a legal move",
              "2 games in 1 file: 1 valid, 0 invalid, 1 partial; 1 error, 0 warnings", "  illegal-move: 1"}},
            {"validate - < " + file("markers.gpn"), 0, {"-:4:35: warning:"}}, // standard input
        };
        for (const Case& c : cases) {
            INFO("gounki " << c.command);
            const CliRun r = run_shell(gounki_command() + " " + c.command);
            CHECK(r.status == c.status);
            for (const std::string& p : c.printed) CHECK(contains(r.out, p));
        }
    }
    SECTION("--json prints one object per diagnostic and one summary") {
        const CliRun r = run_gounki("validate --json " + file("illegal_in_variation.gpn"));
        CHECK(r.status == 1);
        std::istringstream lines(r.out);
        std::string first, second, extra;
        std::getline(lines, first);
        std::getline(lines, second);
        CHECK(!std::getline(lines, extra));
        CHECK(first.find("\"type\":\"diagnostic\"") != std::string::npos);
        CHECK(first.find("\"code\":\"illegal-move\"") != std::string::npos);
        CHECK(first.find("\"line\":4") != std::string::npos);
        CHECK(first.find("\"column\":22") != std::string::npos);
        CHECK(first.find("\"legal_moves\":[\"f7-e6\",\"f7-g6\"]") != std::string::npos);
        CHECK(first.find("\"side\":\"black\"") != std::string::npos);
        CHECK(second.find("\"type\":\"summary\"") != std::string::npos);
        CHECK(second.find("\"invalid\":1") != std::string::npos);
    }
    SECTION("GPN parsed in blocks on several threads gives what one reader gives, in the same order") {
        // Forty rounds of every record fixture and broken sample (1.5 MB: several 256 KiB blocks),
        // with errors, warnings, a Latin-1 game (told once per file), comments left open and CRLF.
        TempDir dir;
        std::string all;
        std::vector<fs::path> parts;
        for (const fs::path& folder : {records_dir, fs::path(GOUNKI_SOURCE_DIR) / "samples" / "broken"})
            for (const auto& entry : fs::directory_iterator(folder))
                if (entry.path().extension() == ".gpn") parts.push_back(entry.path());
        std::sort(parts.begin(), parts.end());
        for (int round = 0; round < 40; ++round)
            for (const fs::path& part : parts) all += slurp(part) + "\n\n";
        const std::string big = dir.file("big.gpn");
        write_text(big, all);
        REQUIRE(all.size() > (std::size_t(1) << 20));
        for (const char* json : {"", "--json"}) {
            INFO("validate " << json);
            const CliRun one = run_gounki(std::string("validate --threads 1 ") + json + " " + shell_quoted(big));
            const CliRun three = run_gounki(std::string("validate --threads 3 ") + json + " " + shell_quoted(big));
            CHECK(one.status == 1);
            CHECK(three.status == one.status);
            CHECK(three.out == one.out);
            CHECK(three.err == one.err);
            CHECK(count_of(one.out, "not-utf8") == 2); // the warning once, and its count
        }
        CHECK(run_gounki("validate --threads 0 " + shell_quoted(big)).status == 2);
    }
    SECTION("a missing file or no file at all exits 2") {
        CHECK(run_gounki("validate " + file("no_such_file.gpn")).status == 2);
        CHECK(run_gounki("validate").status == 2);
    }
}

TEST_CASE("files that are no records are refused, empty ones warned about, control characters escaped", "[parser][cli]") {
    TempDir dir("awkward");
    write_text(dir / "empty.gpn", "");
    write_text(dir / "blank.gpn", "\n  \n\t\n");
    write_text(dir / "image.gpn", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
    write_text(dir / "utf16.pgn", std::string("\xFF\xFE[\0G\0a\0m\0e\0", 12));
    write_text(dir / "good.gpn", "1. c2-d3 f7-e6 *\n");
    write_text(dir / "utf32.gpn", std::string("\xFF\xFE\0\0[\0\0\0", 8));
    write_text(dir / "control.gpn", "1. c2-d3 \x01\x1b[31m f7-e6 *\n");
    write_text(dir / "long.gpn", "1. c2-d3 " + std::string(500, 'q') + " *\n");

    const CliRun v = run_gounki_args({"validate", dir.file("empty.gpn"), dir.file("blank.gpn"), dir.file("image.gpn"),
                                      dir.file("utf16.pgn"), dir.file("good.gpn")});
    CHECK(v.status == 2); // a file refused as binary is an input error, as an unreadable one
    CHECK(contains(v.out, dir.file("empty.gpn") + ": warning: no game found in the file [no-game]"));
    CHECK(contains(v.out, dir.file("blank.gpn") + ": warning: no game found in the file [no-game]"));
    CHECK(contains(v.out, dir.file("image.gpn") + ": error: the file holds a NUL byte (at byte 9)"));
    CHECK(contains(v.out, dir.file("utf16.pgn") + ": error: the file is UTF-16 text: save it as UTF-8"));
    CHECK(contains(v.out, "1 game in 5 files: 1 valid"));
    CHECK(count_of(v.out, "[binary-file]") == 2);
    CHECK(contains(run_gounki_args({"validate", dir.file("utf32.gpn")}).out, "the file is UTF-32 text"));

    // import: the same, nothing stored from them; nothing readable at all creates no database.
    const std::string db = dir.file("games.db");
    const CliRun imp =
        run_gounki_args({"import", "--db", db, dir.file("image.gpn"), dir.file("empty.gpn"), dir.file("good.gpn")});
    CHECK(imp.status == 2);
    CHECK(contains(imp.err, "[binary-file]"));
    CHECK(contains(imp.err, dir.file("empty.gpn") + ": warning: no game found in the file [no-game]"));
    CHECK(contains(imp.out + imp.err, "1 stored"));
    const std::string none = dir.file("none.db");
    const CliRun missing = run_gounki_args({"import", "--db", none, dir.file("missing.gpn")});
    CHECK(missing.status == 2);
    CHECK(contains(missing.err, "cannot read the file"));
    CHECK(!fs::exists(none));

    // A control character is shown as an escape, never sent to the terminal; a long token is cut.
    const CliRun c = run_gounki_args({"validate", dir.file("control.gpn"), dir.file("long.gpn")});
    CHECK(contains(c.out, "\\x01\\x1b"));
    CHECK(c.out.find('\x1b') == std::string::npos);
    CHECK(c.out.find('\x01') == std::string::npos);
    CHECK(contains(c.out, std::string(40, 'q') + "... (500 bytes)"));
    CHECK(!contains(c.out, std::string(41, 'q')));
}

namespace {

struct ArchiveMember {
    std::string path, bytes;
};

// Writes `members` to `file` as an archive in libarchive's `format` (ARCHIVE_FORMAT_ZIP, ..._TAR_USTAR,
// ..._RAW for one compressed file) compressed by `filter` (ARCHIVE_FILTER_NONE, ..._GZIP, ...).
void write_archive(const std::string& file, int format, int filter, const std::vector<ArchiveMember>& members) {
    archive* a = archive_write_new();
    REQUIRE(archive_write_set_format(a, format) == ARCHIVE_OK);
    if (filter != ARCHIVE_FILTER_NONE) REQUIRE(archive_write_add_filter(a, filter) == ARCHIVE_OK);
    REQUIRE(archive_write_open_filename(a, file.c_str()) == ARCHIVE_OK);
    for (const ArchiveMember& m : members) {
        archive_entry* e = archive_entry_new();
        archive_entry_set_pathname(e, m.path.c_str());
        archive_entry_set_size(e, la_int64_t(m.bytes.size()));
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        REQUIRE(archive_write_header(a, e) == ARCHIVE_OK);
        REQUIRE(archive_write_data(a, m.bytes.data(), m.bytes.size()) == la_ssize_t(m.bytes.size()));
        archive_entry_free(e);
    }
    REQUIRE(archive_write_close(a) == ARCHIVE_OK);
    archive_write_free(a);
}

std::string file_bytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

// Every line of `text` with `from` at a line's start replaced by `to`, sorted (diagnostics of files
// read in another order compared).
std::vector<std::string> lines_renamed(const std::string& text, const std::string& from, const std::string& to) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with(from)) line = to + line.substr(from.size());
        out.push_back(line);
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST_CASE("archives and compressed files are read as the record files they hold", "[parser][cli]") {
    TempDir dir("archives");
    // A tournament published as Gomocup does: PSQ files in a folder of a .tar.gz, a side file beside.
    std::vector<ArchiveMember> psq;
    fs::create_directories(dir.path() / "unpacked" / "Freestyle15_1");
    for (const auto& entry : fs::directory_iterator(fs::path(GOUNKI_SOURCE_DIR) / "tests/data/psq")) {
        if (entry.path().extension() != ".psq") continue;
        const std::string bytes = file_bytes(entry.path().string());
        psq.push_back({"./Freestyle15_1/" + entry.path().filename().string(), bytes});
        write_text(dir.path() / "unpacked" / "Freestyle15_1" / entry.path().filename(), bytes);
    }
    REQUIRE(psq.size() >= 10);
    std::vector<ArchiveMember> with_side_file = psq;
    with_side_file.push_back({"./Freestyle15_1/results.txt", "ALPHA 12 points\n"});
    const std::string tgz = dir.file("freestyle.tar.gz");
    write_archive(tgz, ARCHIVE_FORMAT_TAR_USTAR, ARCHIVE_FILTER_GZIP, with_side_file);

    // The same diagnostics and summary as the unpacked folder's, each named archive/member.
    const CliRun packed = run_gounki_args({"validate", tgz});
    const CliRun unpacked = run_gounki_args({"validate", (dir.path() / "unpacked").string()});
    CHECK(packed.status == unpacked.status);
    CHECK(contains(packed.out, tgz + "/Freestyle15_1/occupied.psq:7:1: error:"));
    CHECK(contains(packed.out, std::to_string(psq.size()) + " files: "));
    CHECK(lines_renamed(packed.out, tgz + "/", "") == lines_renamed(unpacked.out, (dir.path() / "unpacked").string() + "/", ""));
    CHECK(!contains(packed.out, "results.txt"));

    // zip (read through its central directory, and from a pipe without one), formats told per
    // member, an archive inside an archive, and a folder holding archives.
    const std::string gpn = "[Event \"Club\"]\n\n1. c2-d3 f7-e6 2. d3-d5 *\n";
    const std::string sgf = "(;FF[4]GM[4]SZ[15]RU[Gomoku];B[hh];W[ii];B[hh])\n";
    fs::create_directories(dir.path() / "drop");
    const std::string zip = dir.file("drop/club.zip");
    write_archive(zip, ARCHIVE_FORMAT_ZIP, ARCHIVE_FILTER_NONE,
                  {{"club/evening.gpn", gpn}, {"club/stones.sgf", sgf}, {"notes.txt", "hello"}});
    write_archive(dir.file("drop/nested.tar"), ARCHIVE_FORMAT_TAR_USTAR, ARCHIVE_FILTER_NONE,
                  {{"inner/club.zip", file_bytes(zip)}});
    const CliRun z = run_gounki_args({"validate", zip});
    CHECK(contains(z.out, zip + "/club/evening.gpn:3:19: error: 2. d3-d5:"));
    CHECK(contains(z.out, zip + "/club/stones.sgf:1:"));
    CHECK(contains(z.out, "[illegal-move]"));
    CHECK(contains(z.out, "2 games in 2 files: 0 valid"));
    const CliRun piped = run_shell("cat '" + zip + "' | " GOUNKI_CLI " validate -");
    CHECK(contains(piped.out, "-/club/evening.gpn:3:19: error: 2. d3-d5:"));
    CHECK(contains(piped.out, "2 games in 2 files: 0 valid"));
    const CliRun folder = run_gounki_args({"validate", (dir.path() / "drop").string()});
    CHECK(contains(folder.out, dir.file("drop/nested.tar") + "/inner/club.zip/club/stones.sgf:1:"));
    CHECK(contains(folder.out, "4 games in 4 files"));

    // 7z (its directory at the end) from a pipe and inside a tar: held in memory and read.
    const std::string seven = dir.file("club.7z");
    write_archive(seven, ARCHIVE_FORMAT_7ZIP, ARCHIVE_FILTER_NONE, {{"club/evening.gpn", gpn}, {"club/stones.sgf", sgf}});
    write_archive(dir.file("seven.tar"), ARCHIVE_FORMAT_TAR_USTAR, ARCHIVE_FILTER_NONE, {{"club.7z", file_bytes(seven)}});
    for (const std::string& command : {"cat '" + seven + "' | " GOUNKI_CLI " validate -",
                                       std::string(GOUNKI_CLI " validate '") + dir.file("seven.tar") + "'"}) {
        const CliRun r = run_shell(command);
        INFO(command);
        CHECK(contains(r.out, "/club/evening.gpn:3:19: error: 2. d3-d5:"));
        CHECK(contains(r.out, "2 games in 2 files: 0 valid"));
    }

    // One compressed file, named by its own name; its name without .gz tells the format.
    for (const int filter : {ARCHIVE_FILTER_GZIP, ARCHIVE_FILTER_BZIP2, ARCHIVE_FILTER_XZ}) {
        const std::string one = dir.file("one.gpn.z");
        write_archive(one, ARCHIVE_FORMAT_RAW, filter, {{"one.gpn", gpn}});
        const CliRun c = run_gounki_args({"validate", one});
        CHECK(contains(c.out, one + ":3:19: error: 2. d3-d5:"));
        CHECK(contains(c.out, "1 game in 1 file"));
    }

    // import: every member's games stored under the member's name.
    const std::string db = dir.file("games.db");
    const CliRun imp = run_gounki_args({"import", "--db", db, tgz, zip});
    CHECK(contains(imp.out + imp.err, std::to_string(psq.size() + 2) + " games read"));
    CHECK(contains(imp.out, zip + "/club/evening.gpn:1: stored as game "));
    CHECK(contains(imp.out, tgz + "/Freestyle15_1/occupied.psq:1: stored as game "));

    // format rewrites files, not archives: said so, nothing written.
    const CliRun f = run_gounki_args({"format", zip});
    CHECK(f.status != 0);
    CHECK(contains(f.err, "a zip archive or compressed file: gounki reads the records in it"));
}

TEST_CASE("a compressed empty file is an empty file", "[parser][cli]") {
    TempDir dir("empty-gz");
    const std::string gz = dir.file("empty.gpn.gz");
    REQUIRE(run_shell(": | gzip > " + shell_quoted(gz)).status == 0);
    for (const std::string& cmd : {"validate " + shell_quoted(gz), "validate - < " + shell_quoted(gz),
                                   "import --db " + shell_quoted(dir.file("e.db")) + " " + shell_quoted(gz)}) {
        INFO(cmd);
        const CliRun r = run_shell(gounki_command() + " " + cmd + " 2>&1");
        CHECK(contains(r.out, "[no-game]"));
        CHECK_FALSE(contains(r.out, "io-error"));
        CHECK(r.status == 0); // as for an empty file: a warning
    }
}

TEST_CASE("damaged and hostile archives are errors that say what and where", "[parser][cli]") {
    TempDir dir("bad-archives");
    std::string many;
    for (unsigned i = 0; i < 20000; ++i) // names that compress poorly: a cut falls well inside the games
        many += "[Round \"" + std::to_string(i) + "\"]\n[White \"" + std::to_string(i * 2654435761u) + "\"]\n\n1. c2-d3 f7-e6 *\n\n";
    // Cut short: the games before the cut are read, the cut is an io-error, the exit status says so.
    const std::string gz = dir.file("many.gpn.gz");
    write_archive(gz, ARCHIVE_FORMAT_RAW, ARCHIVE_FILTER_GZIP, {{"many.gpn", many}});
    const std::string packed = file_bytes(gz);
    write_text(dir.path() / "cut.gpn.gz", packed.substr(0, packed.size() / 2));
    const CliRun cut = run_gounki_args({"validate", dir.file("cut.gpn.gz")});
    CHECK(cut.status == 2);
    long games = 0;
    CHECK(std::sscanf(cut.out.substr(cut.out.rfind('\n', cut.out.find(" games in ")) + 1).c_str(), "%ld games", &games) == 1);
    CHECK(games > 100);
    CHECK(games < 20000);
    CHECK(contains(cut.out, dir.file("cut.gpn.gz") + ": error: cannot read the compressed data to its end: truncated gzip input; " +
                                std::to_string(games) + " games read before it [io-error]"));
    CHECK(!contains(cut.out, "[no-game]"));

    // A zip whose second member is cut off: the first member's games, then what failed.
    const std::string zip = dir.file("two.zip");
    write_archive(zip, ARCHIVE_FORMAT_ZIP, ARCHIVE_FILTER_NONE, {{"a.gpn", "1. c2-d3 f7-e6 *\n"}, {"b.gpn", many}});
    const std::string zipped = file_bytes(zip);
    write_text(dir.path() / "cut.zip", zipped.substr(0, zipped.size() / 2));
    const CliRun cz = run_gounki_args({"validate", dir.file("cut.zip")});
    CHECK(cz.status == 2);
    CHECK(contains(cz.out, dir.file("cut.zip") + ": error: cannot read b.gpn to its end:"));
    CHECK(contains(cz.out, "[io-error]"));

    // Starts as a zip, is none; holds no record file; a binary member; archives nested too deep.
    write_text(dir.path() / "fake.zip", std::string("PK\x03\x04", 4) + std::string(300, 'x'));
    const CliRun fake = run_gounki_args({"validate", dir.file("fake.zip")});
    CHECK(fake.status == 2);
    CHECK(contains(fake.out, dir.file("fake.zip") + ": error: cannot read the archive: Truncated ZIP file header [io-error]"));
    write_text(dir.path() / "fake.gpn", std::string("\x1F\x8B", 2) + std::string(300, 'x'));
    CHECK(contains(run_gounki_args({"validate", dir.file("fake.gpn")}).out,
                   dir.file("fake.gpn") + ": error: the file starts as a gzip archive but cannot be read as one"));
    write_archive(dir.file("notes.zip"), ARCHIVE_FORMAT_ZIP, ARCHIVE_FILTER_NONE, {{"readme.txt", "hi"}, {"x.md", "y"}});
    CHECK(contains(run_gounki_args({"validate", dir.file("notes.zip")}).out,
                   dir.file("notes.zip") + ": error: the archive holds no record file (2 members: readme.txt, x.md) [io-error]"));
    // Members' names cannot act on a terminal nor forge a line: control characters and bytes that
    // are no UTF-8 are shown as escapes, in validate's lines and in import's.
    write_archive(dir.file("names.tar"), ARCHIVE_FORMAT_TAR_USTAR, ARCHIVE_FILTER_NONE,
                  {{"a\x1b[31m.gpn", "1. c2-d3 f7-e6 2. d3-d5 *\n"}, {"b\nfake:1:1: error: x.gpn", "1. c2-d3 f7-e6 2. d3-d5 *\n"},
                   {"c\xff\xfe.gpn", "1. c2-d3 f7-e6 2. d3-d5 *\n"}});
    const CliRun named = run_gounki_args({"validate", dir.file("names.tar")});
    CHECK(contains(named.out, "names.tar/a\\x1b[31m.gpn:1:19: error:"));
    CHECK(contains(named.out, "names.tar/b\\x0afake:1:1: error: x.gpn:1:19: error:"));
    CHECK(contains(named.out, "names.tar/c\\xff\\xfe.gpn:1:19: error:"));
    CHECK(named.out.find('\x1b') == std::string::npos);
    CHECK(named.out.find("\xff") == std::string::npos);
    const CliRun stored = run_gounki_args({"import", "--db", dir.file("names.db"), dir.file("names.tar")});
    CHECK(contains(stored.out, "names.tar/b\\x0afake:1:1: error: x.gpn:1: duplicate of game "));
    CHECK((stored.out + stored.err).find('\x1b') == std::string::npos);

    // Zeros are an empty tar to libarchive, yet no archive; an empty zip is one.
    write_text(dir.path() / "zeros.gpn", std::string(4096, '\0'));
    CHECK(contains(run_gounki_args({"validate", dir.file("zeros.gpn")}).out,
                   dir.file("zeros.gpn") + ": error: the file holds a NUL byte (at byte 1)"));
    write_archive(dir.file("empty.zip"), ARCHIVE_FORMAT_ZIP, ARCHIVE_FILTER_NONE, {});
    CHECK(contains(run_gounki_args({"validate", dir.file("empty.zip")}).out,
                   dir.file("empty.zip") + ": error: the archive is empty [io-error]"));
    write_archive(dir.file("image.gpn.gz"), ARCHIVE_FORMAT_RAW, ARCHIVE_FILTER_GZIP,
                  {{"image.gpn", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16)}});
    CHECK(contains(run_gounki_args({"validate", dir.file("image.gpn.gz")}).out,
                   dir.file("image.gpn.gz") + ": error: the file holds a NUL byte (at byte 9)"));
    // (Compressions of compressions are one archive to libarchive: the layers here are zip files.)
    std::string layer = "1. c2-d3 f7-e6 *\n", inner = "x.gpn";
    for (int depth = 1; depth <= 5; ++depth) {
        write_archive(dir.file("layer.zip"), ARCHIVE_FORMAT_ZIP, ARCHIVE_FILTER_NONE, {{inner, layer}});
        layer = file_bytes(dir.file("layer.zip"));
        inner = "layer.zip";
        const CliRun l = run_gounki_args({"validate", dir.file("layer.zip")});
        INFO(depth);
        CHECK(contains(l.out, depth <= 4 ? "1 game in 1 file: 1 valid" : "an archive inside 4 archives: not read"));
    }
}

TEST_CASE("an archive unpacks no more than the reader's limit", "[parser]") {
    TempDir dir("archive-limit");
    // 3 MiB of games in 3 members of a .tar.gz, read under a limit of 1 MiB: the reading stops with
    // an error past the limit, also when the members past it are passed over and not read.
    std::string games;
    while (games.size() < (std::size_t(1) << 20)) games += "1. c2-d3 f7-e6 *\n";
    const std::string tgz = dir.file("big.tar.gz");
    write_archive(tgz, ARCHIVE_FORMAT_TAR_USTAR, ARCHIVE_FILTER_GZIP,
                  {{"a.gpn", games}, {"b.txt", games}, {"c.txt", games}, {"d.gpn", games}});
    // Archives inside an archive share its budget: two of 0.75 MiB each, in a zip whose own
    // bytes are few, pass a limit of 1 MiB together.
    const std::string half = games.substr(0, (games.size() * 3 / 4) / 17 * 17);
    write_archive(dir.file("one.tar.gz"), ARCHIVE_FORMAT_TAR_USTAR, ARCHIVE_FILTER_GZIP, {{"a.gpn", half}});
    write_archive(dir.file("nested.zip"), ARCHIVE_FORMAT_ZIP, ARCHIVE_FILTER_NONE,
                  {{"one.tar.gz", file_bytes(dir.file("one.tar.gz"))}, {"two.tar.gz", file_bytes(dir.file("one.tar.gz"))}});
    const auto read_limited = [](const std::string& file, std::uint64_t limit, std::vector<parser::Diagnostic>& diagnostics) {
        pipeline::ReadRequest request;
        request.files = {file};
        request.threads = 1;
        request.max_unpacked = limit;
        pipeline::ReadEvents<int> on;
        on.prepare = [](parser::GameRecord&&) { return 0; };
        on.game = [](int&&) {};
        on.diagnostic = [&](const parser::Diagnostic& d) { diagnostics.push_back(d); };
        return pipeline::read_files(request, on);
    };
    // Members cost what a header takes, data or not: 5,000 empty ones pass 1 MiB.
    std::vector<ArchiveMember> empty_members;
    for (int i = 0; i < 5000; ++i) empty_members.push_back({std::to_string(i) + ".gpn", ""});
    write_archive(dir.file("empties.tar.xz"), ARCHIVE_FORMAT_TAR_USTAR, ARCHIVE_FILTER_XZ, empty_members);
    std::vector<parser::Diagnostic> empties;
    CHECK(read_limited(dir.file("empties.tar.xz"), std::uint64_t(1) << 20, empties).io_errors);
    REQUIRE(!empties.empty());
    CHECK(contains(empties.back().message, "more than 1 MiB unpacked"));
    CHECK(empties.size() < 1100);

    std::vector<parser::Diagnostic> nested;
    const pipeline::ReadResult within = read_limited(dir.file("nested.zip"), std::uint64_t(1) << 20, nested);
    CHECK(within.games < std::int64_t(2 * half.size() / 17));
    CHECK(within.io_errors);
    REQUIRE(!nested.empty());
    CHECK(contains(nested.back().message, "more than 1 MiB unpacked"));
    nested.clear();
    CHECK(read_limited(dir.file("nested.zip"), 0, nested).games == std::int64_t(2 * half.size() / 17));
    CHECK(nested.empty());

    for (const std::uint64_t limit : {std::uint64_t(0), std::uint64_t(1) << 20}) {
        pipeline::ReadRequest request;
        request.files = {tgz};
        request.threads = 1;
        request.max_unpacked = limit;
        std::vector<parser::Diagnostic> diagnostics;
        pipeline::ReadEvents<int> on;
        on.prepare = [](parser::GameRecord&&) { return 0; };
        on.game = [](int&&) {};
        on.diagnostic = [&](const parser::Diagnostic& d) { diagnostics.push_back(d); };
        const pipeline::ReadResult r = pipeline::read_files(request, on);
        const std::int64_t per_member = std::int64_t(games.size() / 17);
        INFO(limit);
        if (limit == 0) {
            CHECK(r.games == 2 * per_member);
            CHECK(diagnostics.empty());
            CHECK(!r.io_errors);
        } else {
            CHECK(r.games <= per_member + 1);
            CHECK(r.io_errors);
            REQUIRE(!diagnostics.empty());
            CHECK(contains(diagnostics.back().message, "more than 1 MiB unpacked, the limit here"));
        }
    }
}

TEST_CASE("a GPN game larger than a block is read after it game by game, as one reader reads it", "[parser][cli]") {
    TempDir dir("fall-back");
    // 300 games, a game of 40 MiB (past what the parallel reader holds without a cut at a line
    // start), 300 more and a broken one: every thread count says the same, line for line.
    std::string games;
    for (int i = 0; i < 300; ++i) games += "[Round \"" + std::to_string(i) + "\"]\n\n1. c2-d3 f7-e6 *\n\n";
    const std::string text = games + "[Event \"Big\"]\n\n1. c2-d3 {" + std::string(std::size_t(40) << 20, 'x') + "} f7-e6 *\n\n" +
        games + "1. c2-d3 d3-d5 *\n";
    write_text(dir.path() / "big.gpn", text);
    const CliRun parallel = run_gounki_args({"validate", "--threads", "2", dir.file("big.gpn")});
    const CliRun one = run_gounki_args({"validate", "--threads", "1", dir.file("big.gpn")});
    CHECK(parallel.out == one.out);
    // The games' numbers too (--json), the tail's numbered on from where the blocks stopped.
    const CliRun parallel_json = run_gounki_args({"validate", "--json", "--threads", "2", dir.file("big.gpn")});
    const CliRun one_json = run_gounki_args({"validate", "--json", "--threads", "1", dir.file("big.gpn")});
    CHECK(parallel_json.out == one_json.out);
    CHECK(contains(one_json.out, "\"game\":602"));
    CHECK(contains(one.out, dir.file("big.gpn") + ":1201:1: error: this game is larger than"));
    CHECK(contains(one.out, dir.file("big.gpn") + ":2405:10: error: 1... d3-d5:"));
    CHECK(contains(one.out, "602 games in 1 file: 600 valid"));
}
