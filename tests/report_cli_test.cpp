// The report commands: `gounki board` (Gounki and stone positions, --json read back by a small
// strict JSON reader), --quiet on every command and on a terminal, and `gounki report` of a stored
// Gomoku game; lists of games of several kinds (games, report) and a judged game's annotated record
// read back.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <tuple>

#include "parser/reader.hpp"

using namespace gounki;
using namespace gounki::report;
using namespace gounki::test;

namespace {

// A small strict JSON reader: enough to say that a command's output is one well-formed value and
// to look into it.
struct Json {
    enum class Type { null, boolean, number, string, array, object } type = Type::null;
    bool boolean = false;
    double number = 0;
    std::string text;
    std::vector<Json> items;
    std::vector<std::pair<std::string, Json>> fields;
    const Json& operator[](const std::string& key) const {
        static const Json none;
        for (const auto& [k, v] : fields)
            if (k == key) return v;
        return none;
    }
    bool has(const std::string& key) const {
        return std::any_of(fields.begin(), fields.end(), [&](const auto& f) { return f.first == key; });
    }
};

class JsonReader {
public:
    explicit JsonReader(const std::string& s) : s_(s) {}
    // The one value of the text (whitespace around it allowed); nullopt when it is not JSON.
    std::optional<Json> read() {
        Json v;
        if (!value(v)) return std::nullopt;
        space();
        if (i_ != s_.size()) return std::nullopt;
        return v;
    }

private:
    void space() {
        while (i_ < s_.size() && std::strchr(" \t\r\n", s_[i_])) ++i_;
    }
    bool literal(const char* word) {
        const std::size_t n = std::strlen(word);
        if (s_.compare(i_, n, word) != 0) return false;
        i_ += n;
        return true;
    }
    bool string(std::string& out) {
        if (i_ >= s_.size() || s_[i_] != '"') return false;
        for (++i_; i_ < s_.size(); ++i_) {
            const char c = s_[i_];
            if (c == '"') {
                ++i_;
                return true;
            }
            if (static_cast<unsigned char>(c) < 0x20) return false;
            if (c != '\\') {
                out += c;
                continue;
            }
            if (++i_ >= s_.size()) return false;
            const char e = s_[i_];
            const char* plain = std::strchr("\"\\/bfnrt", e);
            if (!plain) {
                if (e != 'u' || i_ + 4 >= s_.size()) return false;
                const unsigned code = unsigned(std::stoul(s_.substr(i_ + 1, 4), nullptr, 16));
                i_ += 4;
                if (code < 0x80) out += char(code);
                else if (code < 0x800) out += char(0xC0 | (code >> 6)), out += char(0x80 | (code & 0x3F));
                else
                    out += char(0xE0 | (code >> 12)), out += char(0x80 | ((code >> 6) & 0x3F)), out += char(0x80 | (code & 0x3F));
                continue;
            }
            out += "\"\\/\b\f\n\r\t"[plain - "\"\\/bfnrt"];
        }
        return false;
    }
    // The members of an object or the items of an array, from its opening bracket to `close`, each
    // read by `read_one`.
    template <class F>
    bool items(char close, const F& read_one) {
        ++i_;
        space();
        if (i_ < s_.size() && s_[i_] == close) return ++i_, true;
        for (;;) {
            space();
            if (!read_one()) return false;
            space();
            if (i_ < s_.size() && s_[i_] == ',') {
                ++i_;
                continue;
            }
            return i_ < s_.size() && s_[i_++] == close;
        }
    }
    bool value(Json& v) {
        space();
        if (i_ >= s_.size()) return false;
        const char c = s_[i_];
        if (c == '{') {
            v.type = Json::Type::object;
            return items('}', [&] {
                std::string key;
                Json item;
                if (!string(key)) return false;
                space();
                if (i_ >= s_.size() || s_[i_++] != ':' || !value(item)) return false;
                v.fields.emplace_back(key, item);
                return true;
            });
        }
        if (c == '[') {
            v.type = Json::Type::array;
            return items(']', [&] {
                Json item;
                if (!value(item)) return false;
                v.items.push_back(item);
                return true;
            });
        }
        if (c == '"') return v.type = Json::Type::string, string(v.text);
        if (literal("true")) return v.type = Json::Type::boolean, v.boolean = true, true;
        if (literal("false")) return v.type = Json::Type::boolean, true;
        if (literal("null")) return true;
        const std::size_t start = i_;
        while (i_ < s_.size() && std::strchr("+-0123456789.eE", s_[i_])) ++i_;
        if (i_ == start) return false;
        v.type = Json::Type::number;
        v.number = std::stod(s_.substr(start, i_ - start));
        return true;
    }

    const std::string& s_;
    std::size_t i_ = 0;
};

// `gounki board ARGS` is refused with status 2 and an error that says each of `messages` once.
void expect_board_refused(const std::string& args, std::initializer_list<const char*> messages) {
    INFO("gounki board " << args);
    const CliRun r = run_gounki("board " + args);
    CHECK(r.status == 2);
    for (const char* m : messages) CHECK(count_of(r.err, m) == 1);
}

std::vector<std::string> texts_of(const Json& array) {
    std::vector<std::string> out;
    for (const Json& j : array.items) out.push_back(j.text);
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST_CASE("gounki board writes SVG or text and names the legal moves of a bad --move", "[report]") {
    const TempDir scratch("report");
    const std::string cli = gounki_command();
    CliRun r = run_shell(cli + " board --move c2-d3");
    CHECK(r.status == 0);
    CHECK(count_of(r.out, "data-move=\"c2-d3\"") == 1);
    r = run_shell(cli + " board --format text --position '8/8/8/8/3(srr)4/8/8/S7 b' -o -");
    CHECK(r.status == 0);
    CHECK(count_of(r.out, "4 .   .   .   rrs .") == 1);
    CHECK(count_of(r.out, "Black to move") == 1);
    const auto file = scratch.path() / "b.svg";
    r = run_shell(cli + " board --move 'c2 * c3, d4' --position '7r/8/8/8/8/8/2(RS)5/8 w' -o " + file.string());
    CHECK(r.status == 0);
    CHECK(count_of(slurp(file), "data-move=\"c2*c3,d4\"") == 1);

    expect_board_refused("--move c2-c5", {"c2-c5 is not a legal move", "legal moves of that stack: c2-b3 c2-d3"});
    expect_board_refused("--position '8/8/9/8/8/8/8/8 w'", {"bad position at character"});
    expect_board_refused("--format png", {"--format 'png'"});
}

TEST_CASE("gounki board draws stone positions and prints --json that parses", "[report][stones]") {
    const TempDir scratch("report");
    const std::string cli = gounki_command();
    const std::string gomoku = "'Gomoku 15 15/15/15/15/15/15/7o7/7x7/15/15/15/15/15/15/15 b'";
    CliRun r = run_shell(cli + " board --format text --move j9 --last h9 --position " + gomoku);
    CHECK(r.status == 0);
    CHECK(count_of(r.out, "\n 9 . . . . . . . O . . . . . . .\n 8 . . . . . . . x . . . . . . .\n") == 1);
    CHECK(count_of(r.out, "Black to move\nLast: h9\nMove: j9\n") == 1);
    const auto file = scratch.path() / "stones.svg";
    r = run_shell(cli + " board --move j9 --position " + gomoku + " -o " + file.string());
    CHECK(r.status == 0);
    const std::string svg = slurp(file);
    CHECK(count_of(svg, "<circle class=\"stone ") == 2);
    CHECK(count_of(svg, "<g class=\"mark move\" data-point=\"j9\"") == 1);
    expect_board_refused("--move h8 --position " + gomoku, {"h8 cannot be played"});
    expect_board_refused("--move p9 --position " + gomoku, {"not a point of the 15x15 board"});
    expect_board_refused("--position 'Gomoku 15 16/15 b'", {"bad position at character"});

    // --json: a stone position, the diagram inside the object when it goes to standard output.
    r = run_shell(
        cli +
        " board --json --move k10 --position 'Ninuki 19 19/19/19/19/19/19/19/19/9x9/9o9/8xo9/19/19/19/19/19/19/19/19 w 2 0'");
    CHECK(r.status == 0);
    std::optional<Json> j = JsonReader(r.out).read();
    INFO(r.out);
    REQUIRE(j);
    CHECK((*j)["kind"].text == "Ninuki");
    CHECK((*j)["size"].number == 19);
    CHECK((*j)["side"].text == "white");
    CHECK((*j)["move"].text == "k10");
    CHECK((*j)["captured"]["black"].number == 2);
    CHECK((*j)["captured"]["white"].number == 0);
    CHECK(texts_of((*j)["stones"]["black"]) == std::vector<std::string>{"i9", "j11"});
    CHECK(texts_of((*j)["stones"]["white"]) == std::vector<std::string>{"j10", "j9"});
    CHECK((*j)["output"].type == Json::Type::null);
    CHECK(count_of((*j)["diagram"].text, "<circle class=\"stone ") == 4);

    // A Gounki position written to a file: the object names the file; the stacks are listed.
    const auto gounki_svg = scratch.path() / "gounki.svg";
    std::filesystem::remove(gounki_svg);
    r = run_shell(cli + " board --json --move c2-d3 -o " + gounki_svg.string());
    CHECK(r.status == 0);
    j = JsonReader(r.out).read();
    REQUIRE(j);
    CHECK((*j)["kind"].text == "Gounki");
    CHECK((*j)["side"].text == "white");
    CHECK((*j)["move"].text == "c2-d3");
    CHECK((*j)["format"].text == "svg");
    CHECK((*j)["output"].text == gounki_svg.string());
    CHECK_FALSE(j->has("diagram"));
    CHECK((*j)["stacks"].items.size() == 32);
    CHECK((*j)["stacks"].items[0]["square"].text == "a1");
    CHECK((*j)["stacks"].items[0]["stack"].text == "S");
    CHECK(count_of(slurp(gounki_svg), "data-move=\"c2-d3\"") == 1);
    CHECK_FALSE(JsonReader("{\"a\":1,}").read()); // the reader itself is strict
}

TEST_CASE("--quiet is an option of every command and silences progress lines", "[report]") {
    const TempDir scratch("report");
    const std::string cli = gounki_command();
    CliRun r = run_shell(cli + " --help");
    CHECK(count_of(r.out, "--quiet") == 1);
    for (const char* command : {"board", "analyze", "report", "import", "perft"}) {
        INFO(command);
        r = run_shell(cli + " help " + command);
        CHECK(count_of(r.out, "--quiet") == 1);
    }
    r = run_shell(cli + " perft --quiet 1");
    CHECK(r.status == 0);
    CHECK(r.out == "36\n");

    // Progress lines are drawn only on a terminal: run under script(1) for one.
    if (!have_tool(command_succeeds("script -qec true /dev/null"),
                   "script(1) (Debian package bsdutils), which gives the rest of this test a terminal"))
        return;
    const auto dir = scratch.path();
    const std::string db = (dir / "quiet.db").string();
    std::filesystem::remove(db);
    const std::string game = std::string(GOUNKI_SOURCE_DIR) + "/samples/games/01-deployment-out.gpn";
    REQUIRE(run_shell(cli + " import --quiet --db " + db + " " + game).status == 0);
    auto on_terminal = [&](const std::string& args) { return run_shell("script -qec '" + cli + " " + args + "' /dev/null"); };
    // import draws its own progress bar; --quiet drops it (print_err drops '\r' redraws).
    const std::string games = std::string(GOUNKI_SOURCE_DIR) + "/samples/games/0*.gpn";
    std::filesystem::remove(dir / "loud.db");
    r = on_terminal("import --db " + (dir / "loud.db").string() + " " + games);
    CHECK(r.status == 0);
    // At least once: on a busy machine the full bar may be redrawn as the last games are stored.
    CHECK(count_of(r.out, "100%") >= 1);
    std::filesystem::remove(dir / "hushed.db");
    r = on_terminal("import --quiet --db " + (dir / "hushed.db").string() + " " + games);
    CHECK(r.status == 0);
    CHECK(count_of(r.out, "%") == 0);
    CHECK(count_of(r.out, "\033[K") == 0);
    r = on_terminal("analyze --db " + db + " 1 --nodes 200 --force");
    CHECK(r.status == 0);
    CHECK(count_of(r.out, "judging") >= 1); // the progress line
    CHECK(count_of(r.out, "game 1:") == 1);
    r = on_terminal("analyze --quiet --db " + db + " 1 --nodes 200 --force");
    CHECK(r.status == 0);
    CHECK(count_of(r.out, "judging") == 0);
    CHECK(count_of(r.out, "\r") == 0);
    CHECK(count_of(r.out, "game 1:") == 0);
    // Errors still come through.
    r = on_terminal("analyze --quiet --db " + db + " 99");
    CHECK(r.status == 2);
    CHECK(count_of(r.out, "no game 99") == 1);
    // A report of an unjudged game says so, except under --quiet.
    REQUIRE(run_shell(cli + " import --quiet --db " + db + " " + std::string(GOUNKI_SOURCE_DIR) +
                      "/samples/games/02-triples-too-early.gpn")
                .status == 0);
    r = run_shell(cli + " report --db " + db + " 2 --format md -o " + (dir / "r.md").string());
    CHECK(count_of(r.err, "no stored judgement") == 1);
    r = run_shell(cli + " report --quiet --db " + db + " 2 --format md -o " + (dir / "r.md").string());
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out.empty());
}

TEST_CASE("gounki report writes a stored Gomoku game with its stone moves and rules", "[report][stones]") {
    const TempDir scratch("report");
    const std::string cli = gounki_command();
    const auto dir = scratch.path();
    const std::string db = (dir / "stones.db").string();
    std::filesystem::remove(db);
    const auto record = dir / "one-gomoku.gpn";
    std::ofstream(record) << "[Game \"Gomoku\"]\n[Size \"19\"]\n[White \"Wanda\"]\n[Black \"Bert\"]\n[Result \"0-1\"]\n\n"
                             "1. j10 j11 2. k10 k11 3. l10 l11 4. m10 m11 5. n10 0-1\n";
    CliRun r = run_shell(cli + " import --quiet --db " + db + " " + record.string());
    REQUIRE(r.status == 0);
    r = run_shell(cli + " report --quiet --db " + db + " 1 --format md -o -");
    CHECK(r.status == 0);
    CHECK(r.out.rfind("# Gomoku game report\n", 0) == 0);
    CHECK(count_of(r.out, "| Game | Gomoku |") == 1);
    CHECK(count_of(r.out, "| Size | 19 |") == 1);
    CHECK(count_of(r.out, "1\\. j10 j11 2. k10 k11 3. l10 l11 4. m10 m11 5. n10 B+") == 1); // as stone players write it
    r = run_shell(cli + " report --quiet --db " + db + " 1 --format gpn -o -");
    CHECK(r.status == 0);
    CHECK(count_of(r.out, "[Game \"Gomoku\"]") == 1);
    CHECK(count_of(r.out, "[Size \"19\"]") == 1);
    CHECK(count_of(r.out, "1. j10 j11 2. k10 k11 3. l10 l11 4. m10 m11 5. n10 0-1") == 1);
}

TEST_CASE("report and export tell the format from the output's extension, and option values are read in any case",
          "[report][cli]") {
    const TempDir dir("formats");
    const std::string db = dir.file("games.db");
    const std::string record = dir.file("games.gpn");
    write_text(record,
               "[Game \"Gomoku\"]\n[White \"Wanda\"]\n[Black \"Bert\"]\n[Result \"0-1\"]\n\n"
               "1. h8 h9 2. i8 i9 3. j8 j9 4. k8 k9 5. l8 0-1\n\n"
               "[Game \"Gomoku\"]\n[White \"Wanda\"]\n[Black \"Bert\"]\n[Result \"1-0\"]\n\n"
               "1. h8 h9 2. a1 i9 3. b1 j9 4. c1 k9 5. e1 g9 1-0\n");
    REQUIRE(run_gounki_args({"import", "--quiet", "--db", db, record}).status == 0);

    // report: -o x.md writes Markdown, -o x.gpn annotated records, an unknown extension HTML.
    CHECK(run_gounki_args({"report", "--quiet", "--db", db, "--all", "-o", dir.file("r.md")}).status == 0);
    CHECK(slurp(dir.file("r.md")).rfind("# ", 0) == 0);
    CHECK(run_gounki_args({"report", "--quiet", "--db", db, "--all", "-o", dir.file("r.gpn")}).status == 0);
    CHECK(contains(slurp(dir.file("r.gpn")), "[Game \"Gomoku\"]"));
    CHECK(run_gounki_args({"report", "--quiet", "--db", db, "--all", "-o", dir.file("r.out")}).status == 0);
    CHECK(contains(slurp(dir.file("r.out")), "<!DOCTYPE html>"));
    CHECK(run_gounki_args({"report", "--quiet", "--db", db, "--all", "--format", "HTML", "-o", dir.file("R.HTM")}).status == 0);
    CHECK(contains(slurp(dir.file("R.HTM")), "<!DOCTYPE html>"));
    const CliRun clash = run_gounki_args({"report", "--db", db, "--all", "--format", "html", "-o", dir.file("clash.md")});
    CHECK(clash.status == 2);
    CHECK(contains(clash.err, "names a md file but --format is html"));
    CHECK(!std::filesystem::exists(dir.file("clash.md")));

    // export: -o x.sgf writes SGF; a contradicting --format is refused; --format in any case.
    CHECK(run_gounki_args({"export", "--db", db, "-o", dir.file("e.sgf")}).status == 0);
    CHECK(slurp(dir.file("e.sgf")).rfind("(;", 0) == 0);
    CHECK(run_gounki_args({"export", "--db", db, "--format", "sgf", "-o", dir.file("e.gpn")}).status == 2);
    CHECK(!std::filesystem::exists(dir.file("e.gpn")));
    CHECK(run_gounki_args({"export", "--db", db, "--format", "GPN", "-o", dir.file("e.txt")}).status == 0);
    CHECK(contains(slurp(dir.file("e.txt")), "[Game \"Gomoku\"]"));

    // Filter values and board formats in any case.
    CHECK(contains(run_gounki_args({"games", "--db", db, "--result", "White", "--json"}).out, "\"total\":1"));
    CHECK(contains(run_gounki_args({"games", "--db", db, "--result", "BLACK", "--json"}).out, "\"total\":1"));
    CHECK(contains(run_gounki_args({"games", "--db", db, "--status", "Valid", "--json"}).out, "\"total\":2"));
    CHECK(contains(run_gounki_args({"board", "--position", "gomoku", "--format", "Text"}).out, "Black to move"));
}

TEST_CASE("cmake --install puts gounki in bin/, its manual page in share/man/man1 and the rules document beside README in share/doc/gounki/", "[cli]") {
    const TempDir prefix("install");
    const CliRun r =
        run_shell("cmake --install " + shell_quoted(GOUNKI_BINARY_DIR) + " --prefix " + shell_quoted(prefix.path()) + " 2>&1");
    REQUIRE(r.status == 0);
    const auto bin = prefix.path() / "bin" / "gounki";
    REQUIRE(std::filesystem::exists(bin));
    const CliRun version = run_shell(shell_quoted(bin) + " --version");
    CHECK(version.status == 0);
    CHECK(contains(version.out, GOUNKI_TEST_VERSION));
    CHECK(slurp(prefix.path() / "share" / "doc" / "gounki" / "rules.md") == slurp(source_path("docs/rules.md")));
    CHECK(std::filesystem::exists(prefix.path() / "share" / "doc" / "gounki" / "README.md"));
    CHECK(contains(run_shell(shell_quoted(bin) + " --help").out, "format"));
    // The manual page is the program's own: every command of the overview has its section, with
    // the options its --help lists.
    const std::string man = slurp(prefix.path() / "share" / "man" / "man1" / "gounki.1");
    CHECK(man == run_gounki_args({"help", "--man"}).out);
    CHECK(contains(man, ".TH GOUNKI 1"));
    const std::string overview = run_gounki_args({"--help"}).out;
    int sections = 0;
    for (const std::string& line : lines_of(overview)) {
        if (line.size() < 3 || line.substr(0, 2) != "  " || line[2] == ' ' || line[2] == '-') continue;
        const std::string name = line.substr(2, line.find(' ', 2) - 2);
        INFO(name);
        CHECK(contains(man, ".SS " + name + "\n"));
        ++sections;
    }
    CHECK(sections >= 20);
    CHECK(contains(man, "\\-\\-engine\\-time")); // options escaped for troff, not hyphens
    CHECK(!contains(man, "\n.PP\n.nf\n.in +2\n\n"));
    // Rendered by groff as man(1) does, with every warning on.
    if (!have_tool(command_succeeds("groff --version"), "groff (package groff-base)")) return;
    const CliRun rendered =
        run_shell("groff -man -Tutf8 -ww " + shell_quoted(prefix.path() / "share" / "man" / "man1" / "gounki.1") + " 2>&1 >/dev/null");
    CHECK(rendered.status == 0);
    CHECK(rendered.out.empty()); // groff's warnings
    CHECK(contains(run_shell("groff -man -Tutf8 " + shell_quoted(prefix.path() / "share" / "man" / "man1" / "gounki.1")).out,
                   "--engine-time"));
}

namespace {

// Games of three kinds: Gounki (White first), Gomoku (Black first), Pente (White first).
const char* mixed_records =
    "[Game \"Gounki\"]\n[Event \"Mix\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n"
    "1. c2-d3 f7-e6 2. g2-f3 b7-a6 3. b2-c2 1-0\n\n"
    "[Game \"Gomoku\"]\n[Event \"Mix\"]\n[White \"Wim\"]\n[Black \"Bea\"]\n[Result \"0-1\"]\n\n"
    "1. h8 a1 2. i8 a2 3. j8 a3 4. k8 a4 5. l8 0-1\n\n"
    "[Game \"Pente\"]\n[Event \"Mix\"]\n[White \"Pia\"]\n[Black \"Cal\"]\n[Result \"*\"]\n\n"
    "1. j10 k11 2. p16 *\n";

// The line of a text table that holds `part`, or "".
std::string line_with(const std::string& text, const std::string& part) {
    const std::size_t at = text.find(part);
    if (at == std::string::npos) return "";
    const std::size_t start = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
    return text.substr(start, text.find('\n', at) - start);
}

// The words of a line, blanks between them dropped.
std::vector<std::string> words(const std::string& line) {
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

} // namespace

TEST_CASE("lists that mix games name each game's first player first, under neutral headings, with its own result",
          "[report][stones][cli]") {
    const TempDir dir("mixed");
    const std::string db = dir.file("mixed.db"), record = dir.file("mixed.gpn");
    write_text(record, mixed_records);
    REQUIRE(run_gounki_args({"import", "--quiet", "--db", db, record}).status == 0);

    // gounki games: "First" and "Second", the colour after each name, the result as each game writes it.
    CliRun r = run_gounki_args({"games", "--db", db});
    REQUIRE(r.status == 0);
    INFO(r.out);
    CHECK(words(line_with(r.out, "Id")) == std::vector<std::string>{"Id", "Game", "First", "Second", "Date", "Result", "Plies", "Event"});
    CHECK(words(line_with(r.out, "Ann")) == std::vector<std::string>{"1", "Gounki", "Ann", "(W)", "Bob", "(B)", "?", "1-0", "5", "Mix"});
    CHECK(contains(r.out, "  Ann (W)                   Bob (B)                   ?  "));
    CHECK(words(line_with(r.out, "Bea")) == std::vector<std::string>{"2", "Gomoku", "Bea", "(B)", "Wim", "(W)", "?", "B+", "9", "Mix"});
    CHECK(words(line_with(r.out, "Pia")) == std::vector<std::string>{"3", "Pente", "Pia", "(W)", "Cal", "(B)", "?", "*", "3", "Mix"});
    CHECK(!contains(r.out, "White"));
    // One kind: its colours as headings, first player first.
    r = run_gounki_args({"games", "--db", db, "--game", "gomoku"});
    CHECK(words(line_with(r.out, "Id")) == std::vector<std::string>{"Id", "Game", "Black", "White", "Date", "Result", "Plies", "Event"});
    CHECK(words(line_with(r.out, "Bea")) == std::vector<std::string>{"2", "Gomoku", "Bea", "Wim", "?", "B+", "9", "Mix"});
    r = run_gounki_args({"games", "--db", db, "--game", "gounki"});
    CHECK(words(line_with(r.out, "Id")) == std::vector<std::string>{"Id", "White", "Black", "Date", "Result", "Plies", "Event"});
    // Gounki and Pente: White first in both, so colour headings.
    r = run_gounki_args({"games", "--db", db, "--white", "a"}); // Ann's and Pia's games
    CHECK(words(line_with(r.out, "Id")) == std::vector<std::string>{"Id", "Game", "White", "Black", "Date", "Result", "Plies", "Event"});
    CHECK(words(line_with(r.out, "Pia")) == std::vector<std::string>{"3", "Pente", "Pia", "Cal", "?", "*", "3", "Mix"});
    // Sorted by player: by the first player's name (Ann, Bea, Pia), then the second's.
    r = run_gounki_args({"games", "--db", db, "--sort", "player"});
    CHECK(r.out.find("Ann") < r.out.find("Bea"));
    CHECK(r.out.find("Bea") < r.out.find("Pia"));
    r = run_gounki_args({"games", "--db", db, "--sort", "player", "--desc"});
    CHECK(r.out.find("Pia") < r.out.find("Bea"));
    CHECK(r.out.find("Bea") < r.out.find("Ann"));

    // --json: the colours as fields, the first player's colour and the result as the game writes it.
    r = run_gounki_args({"games", "--db", db, "--json"});
    REQUIRE(r.status == 0);
    const std::optional<Json> j = JsonReader(r.out).read();
    REQUIRE(j);
    const Json& list = (*j)["games"];
    REQUIRE(list.items.size() == 3);
    const std::vector<std::tuple<std::string, std::string, std::string, std::string, std::string>> want{
        {"Ann", "Bob", "white", "1-0", "1-0"}, {"Wim", "Bea", "black", "0-1", "B+"}, {"Pia", "Cal", "white", "*", "*"}};
    for (std::size_t k = 0; k < 3; ++k) {
        const Json& g = list.items[k];
        CHECK(g["white"].text == std::get<0>(want[k]));
        CHECK(g["black"].text == std::get<1>(want[k]));
        CHECK(g["first_player"].text == std::get<2>(want[k]));
        CHECK(g["result"].text == std::get<3>(want[k]));
        CHECK(g["result_shown"].text == std::get<4>(want[k]));
    }

    // The report of the three: the index names each game's kind, first player first, its own
    // result; each kind's games table heads its colours in its own order.
    r = run_gounki_args({"report", "--quiet", "--db", db, "--all", "-o", "-"});
    REQUIRE(r.status == 0);
    CHECK(contains(r.out, "Game 1 (#1): Gounki, Ann \u2013 Bob, 1-0</a>"));
    CHECK(contains(r.out, "Game 2 (#2): Gomoku, Bea \u2013 Wim, B+</a>"));
    CHECK(contains(r.out, "Game 3 (#3): Pente, Pia \u2013 Cal, *</a>"));
    r = run_gounki_args({"report", "--quiet", "--db", db, "--all", "--summary", "-o", "-"});
    REQUIRE(r.status == 0);
    const std::string summary = r.out;
    auto table_of = [&](const char* id) {
        const std::size_t at = summary.find("<section id=\"" + std::string(id) + "\">");
        return at == std::string::npos ? std::string() : summary.substr(at, summary.find("</section>", at) - at);
    };
    const std::string gounki = table_of("games-gounki"), gomoku = table_of("games-gomoku"), pente = table_of("games-pente");
    CHECK(contains(gounki, "<th>#</th><th>White</th><th>Black</th><th>Result</th>"));
    CHECK(contains(gounki, "<td>Ann</td><td>Bob</td><td>1-0</td>"));
    CHECK(contains(gomoku, "<th>#</th><th>Black</th><th>White</th><th>Result</th>"));
    CHECK(contains(gomoku, "<td>Bea</td><td>Wim</td><td>B+</td>"));
    CHECK(contains(gomoku, "<th>Accuracy (Black)</th><th>Accuracy (White)</th>"));
    CHECK(contains(pente, "<th>#</th><th>White</th><th>Black</th><th>Result</th>"));
    CHECK(contains(pente, "<td>Pia</td><td>Cal</td><td>*</td>"));
    r = run_gounki_args({"report", "--quiet", "--db", db, "--all", "--format", "md", "-o", "-"});
    CHECK(contains(r.out, "## Game 2 (\\#2): Bea \u2013 Wim, B+"));
    CHECK(contains(r.out, "## Game 3 (\\#3): Pia \u2013 Cal, \\*"));
}

TEST_CASE("a judged game's annotated record keeps the players' variations, comments and NAGs", "[report][cli]") {
    const TempDir dir("annotated");
    const std::string db = dir.file("games.db"), record = dir.file("game.gpn");
    const std::string movetext =
        "{Before the game.} 1. c2-d3 {A quiet start.} 1... f7-e6 2. g2-f3 $1 (2. b2-c2 {Slower.} 2... b7-a6 "
        "(2... g7-g6 $6 {Or this.}) 3. c2-c3) 2... b7-a6 3. b2-c2 *";
    write_text(record, "[Game \"Gounki\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"*\"]\n\n" + movetext + "\n");
    REQUIRE(run_gounki_args({"import", "--quiet", "--db", db, record}).status == 0);
    REQUIRE(run_gounki_args({"analyze", "--quiet", "--db", db, "1", "--nodes", "200"}).status == 0);
    const CliRun r = run_gounki_args({"report", "--quiet", "--db", db, "1", "--format", "gpn", "-o", "-"});
    REQUIRE(r.status == 0);
    INFO(r.out);
    const std::vector<parser::GameRecord> back = parser::read_records(r.out), given = parser::read_records(slurp(record));
    REQUIRE(back.size() == 1);
    REQUIRE(given.size() == 1);
    CHECK(back[0].status == parser::GameStatus::valid);
    const parser::Line &a = back[0].main, &b = given[0].main;
    REQUIRE(a.plies.size() == b.plies.size());
    CHECK(a.comments == b.comments);
    for (std::size_t i = 0; i < a.plies.size(); ++i) {
        INFO("ply " << i);
        const parser::Ply &x = a.plies[i], &y = b.plies[i];
        CHECK(x.move == y.move);
        // The record's notes first, the engine's after them.
        REQUIRE(x.nags.size() >= y.nags.size());
        CHECK(std::equal(y.nags.begin(), y.nags.end(), x.nags.begin()));
        REQUIRE(x.comments.size() >= y.comments.size());
        CHECK(std::equal(y.comments.begin(), y.comments.end(), x.comments.begin()));
        REQUIRE(x.variations.size() >= y.variations.size());
        for (std::size_t k = 0; k < y.variations.size(); ++k) CHECK(same_notes(x.variations[k], y.variations[k]));
        // Any further variation is the engine's, and says so.
        for (std::size_t k = y.variations.size(); k < x.variations.size(); ++k)
            CHECK(x.variations[k].comments == std::vector<std::string>{"Engine's best line"});
    }
    // The players' variation at ply 2, nested as written, with its comments and NAG.
    REQUIRE(a.plies[2].variations.size() >= 1);
    const parser::Line& v = a.plies[2].variations[0];
    REQUIRE(v.plies.size() == 3);
    CHECK(v.plies[0].move == b.plies[2].variations[0].plies[0].move);
    CHECK(v.plies[0].comments == std::vector<std::string>{"Slower."});
    REQUIRE(v.plies[1].variations.size() == 1);
    CHECK(v.plies[1].variations[0].plies.at(0).move == b.plies[2].variations[0].plies[1].variations[0].plies[0].move);
    CHECK(v.plies[1].variations[0].plies[0].nags == std::vector<std::uint8_t>{6});
    CHECK(v.plies[1].variations[0].plies[0].comments == std::vector<std::string>{"Or this."});
    CHECK(contains(r.out, "{Before the game.}"));
}

TEST_CASE("a report of games judged with different settings names each game's in its record", "[report][cli]") {
    const TempDir dir("annotators");
    const std::string db = dir.file("games.db");
    write_text(dir.file("g.gpn"), "[Game \"Gounki\"]\n[White \"Ann\"]\n[Black \"Ann\"]\n[Result \"*\"]\n\n1. c2-d3 f7-e6 *\n\n"
                                  "[Game \"Gounki\"]\n[White \"Bob\"]\n[Black \"Cy\"]\n[Result \"*\"]\n\n1. b2-c2 g7-g6 *\n");
    REQUIRE(run_gounki_args({"import", "--quiet", "--db", db, dir.file("g.gpn")}).status <= 1);
    REQUIRE(run_gounki_args({"analyze", "--quiet", "--db", db, "1", "--nodes", "200"}).status == 0);
    REQUIRE(run_gounki_args({"analyze", "--quiet", "--db", db, "2", "--nodes", "300"}).status == 0);
    for (const std::vector<std::string>& order : {std::vector<std::string>{"1", "2"}, std::vector<std::string>{"2", "1"}}) {
        std::vector<std::string> args{"report", "--quiet", "--db", db, order[0], order[1], "--format", "gpn", "-o", "-"};
        const CliRun r = run_gounki_args(args);
        REQUIRE(r.status == 0);
        const std::vector<parser::GameRecord> back = parser::read_records(r.out);
        REQUIRE(back.size() == 2);
        for (const parser::GameRecord& g : back) {
            const bool first = *g.tag("White") == "Ann";
            REQUIRE(g.tag("Annotator"));
            INFO(*g.tag("Annotator"));
            CHECK(contains(*g.tag("Annotator"), first ? "nodes=200" : "nodes=300"));
        }
    }
    // A player on both sides of a game plays one game.
    const CliRun md = run_gounki_args({"report", "--quiet", "--db", db, "--all", "--format", "md", "-o", "-"});
    CHECK(contains(md.out, "| Ann | 1 |"));
}
