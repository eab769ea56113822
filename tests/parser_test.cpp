// Game records (docs/rules.md 1.8): the grammar, replay and diagnostics (golden files in
// tests/data/records), the writer's round trips, random games, streaming, encodings, the
// `gounki validate` command, and the fuzzers' regression files.
#include "tests/catch.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <streambuf>

#include "core/notation.hpp"
#include "fuzz/record_checks.hpp"
#include "parser/encoding.hpp"
#include "parser/reader.hpp"
#include "parser/splitter.hpp"
#include "parser/syntax.hpp"
#include "parser/writer.hpp"

using namespace gounki;
using namespace gounki::parser;
namespace fs = std::filesystem;

namespace {

const fs::path records_dir = fs::path(GOUNKI_SOURCE_DIR) / "tests" / "data" / "records";
const fs::path regressions_dir = fs::path(GOUNKI_SOURCE_DIR) / "tests" / "data" / "regressions";

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// What a golden .expected file holds: per game its status and size, per diagnostic its place,
// severity and code; file diagnostics as they come.
std::string describe(RecordReader& reader) {
    std::ostringstream out;
    auto diag = [&](const Diagnostic& d, const char* prefix) {
        out << prefix << d.line << ':' << d.column << ' ' << severity_name(d.severity) << ' ' << d.code << '\n';
    };
    GameRecord g;
    while (reader.next(g)) {
        for (const Diagnostic& d : reader.take_file_diagnostics()) diag(d, "file ");
        out << "game " << g.number << " line " << g.line << ": " << status_name(g.status) << ", "
            << g.main.plies.size() << " plies, result " << g.result << '\n';
        for (const Diagnostic& d : g.diagnostics) diag(d, "  ");
    }
    for (const Diagnostic& d : reader.take_file_diagnostics()) diag(d, "file ");
    return out.str();
}

std::string without_comment_lines(const std::string& text) {
    std::istringstream in(text);
    std::string line, out;
    while (std::getline(in, line))
        if (line.empty() || line[0] != '#') out += line + '\n';
    return out;
}

std::vector<GameRecord> read_file(const std::string& name, std::vector<Diagnostic>* file_diags = nullptr) {
    RecordReader reader(records_dir / name);
    REQUIRE(reader.ok());
    std::vector<GameRecord> games;
    GameRecord g;
    while (reader.next(g)) games.push_back(g);
    if (file_diags) *file_diags = reader.take_file_diagnostics();
    return games;
}

GameRecord read_one(const std::string& name) {
    auto games = read_file(name);
    REQUIRE(games.size() == 1);
    return games[0];
}

const Diagnostic* find_code(const GameRecord& g, std::string_view code) {
    for (const Diagnostic& d : g.diagnostics)
        if (d.code == code) return &d;
    return nullptr;
}

// The first difference between two move trees, or "" when they are the same game.
std::string compare_lines(const Line& a, const Line& b, const std::string& where) {
    if (a.comments != b.comments) return where + ": comments before the first move differ";
    if (a.plies.size() != b.plies.size())
        return where + ": " + std::to_string(a.plies.size()) + " plies against " + std::to_string(b.plies.size());
    for (std::size_t i = 0; i < a.plies.size(); ++i) {
        const Ply& x = a.plies[i];
        const Ply& y = b.plies[i];
        const std::string at = where + " ply " + std::to_string(i);
        if (x.move != y.move) return at + ": moves differ";
        if (x.nags != y.nags) return at + ": NAGs differ";
        if (x.comments != y.comments) return at + ": comments differ";
        if (x.variations.size() != y.variations.size()) return at + ": numbers of variations differ";
        for (std::size_t v = 0; v < x.variations.size(); ++v) {
            const std::string d =
                compare_lines(x.variations[v], y.variations[v], at + " variation " + std::to_string(v));
            if (!d.empty()) return d;
        }
    }
    return {};
}

std::string compare_records(const GameRecord& a, const GameRecord& b) {
    if (!(a.start == b.start)) return "start positions differ";
    if (!(a.stone_start == b.stone_start)) return "stone start positions differ";
    if (a.first_number != b.first_number) return "first move numbers differ";
    if (a.result != b.result) return "results differ: " + a.result + " against " + b.result;
    if (a.kind != b.kind) return "game kinds differ";
    for (const auto& [name, value] : a.tags) {
        if (name == "Game" || name == "Result" || name == "SetUp" || name == "Position") continue;
        const std::string* other = b.tag(name);
        if (!other) return "tag " + name + " is lost";
        if (*other != *a.tag(name)) return "tag " + name + " differs";
    }
    return compare_lines(a.main, b.main, "main line");
}

int exit_status(int raw) { return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1; }

// Runs a shell command; its standard output and exit status.
std::pair<std::string, int> run(const std::string& command) {
    FILE* p = popen(command.c_str(), "r");
    REQUIRE(p);
    std::string out;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    return {out, exit_status(pclose(p))};
}

std::string cli() { return std::string("'") + GOUNKI_CLI + "'"; }

} // namespace

// ---------------------------------------------------------------------------------------------
// Golden files: one record file per case, with its expected diagnostics.

TEST_CASE("every golden record file gives exactly its expected games and diagnostics", "[parser][golden]") {
    int files = 0;
    for (const auto& entry : fs::directory_iterator(records_dir)) {
        if (entry.path().extension() != ".gpn" && entry.path().extension() != ".html") continue;
        const fs::path expected = fs::path(entry.path()).replace_extension(".expected");
        DYNAMIC_SECTION(entry.path().filename().string()) {
            REQUIRE(fs::exists(expected));
            RecordReader reader(entry.path());
            REQUIRE(reader.ok());
            CHECK(describe(reader) == without_comment_lines(slurp(expected)));
        }
        ++files;
    }
    CHECK(files >= 30);
}

TEST_CASE("tag values keep their escaped quotes and backslashes, and the writer escapes them again", "[parser]") {
    const GameRecord g = read_one("tag_escapes.gpn");
    REQUIRE(g.tag("Event"));
    CHECK(*g.tag("Event") == "The \"Big\" Open");
    CHECK(*g.tag("Site") == "C:\\Clubs\\Paris");
    CHECK(*g.tag("White") == "O'Neil, \"Ace\"");
    const std::string text = write_record(g);
    CHECK(text.find("[Event \"The \\\"Big\\\" Open\"]") != std::string::npos);
    CHECK(text.find("[Site \"C:\\\\Clubs\\\\Paris\"]") != std::string::npos);
    CHECK(g.result == "1/2-1/2");
}

TEST_CASE("an unknown escape is kept as written and pointed at", "[parser]") {
    const GameRecord g = read_one("bad_escape.gpn");
    CHECK(*g.tag("Event") == "Tab\\tseparated");
    const Diagnostic* d = find_code(g, "bad-escape");
    REQUIRE(d);
    CHECK(d->line == 1);
    CHECK(d->column == 12);
    CHECK(d->severity == Severity::warning);
}

TEST_CASE("a detached suffix binds to the move before it, and the variation replaces that move", "[parser]") {
    const GameRecord g = read_one("detached_suffix.gpn");
    REQUIRE(g.main.plies.size() == 7);
    CHECK(g.main.plies[2].comments == std::vector<std::string>{"a comment"});
    const Ply& p = g.main.plies[4]; // 3. d2-c2+ ?!
    CHECK(p.written == "d2-c2+");
    CHECK(p.nags == std::vector<std::uint8_t>{6});
    REQUIRE(p.variations.size() == 1);
    REQUIRE(p.variations[0].plies.size() == 2);
    Position before = g.start;
    UndoRecord u;
    for (int i = 0; i < 4; ++i) before.do_move(g.main.plies[std::size_t(i)].move, u);
    CHECK(move_to_text(before, p.variations[0].plies[0].move) == "d3-e4");
    CHECK(g.status == GameStatus::valid);
    CHECK(g.diagnostics.empty());
}

TEST_CASE("nested variations make a tree and an empty one is dropped with a warning", "[parser]") {
    const GameRecord g = read_one("variations.gpn");
    REQUIRE(g.main.plies.size() == 3);
    const Ply& first = g.main.plies[0];
    REQUIRE(first.variations.size() == 1); // (1. b2-b3 (1. d2-d3) a7-a6); () is gone
    const Line& alt = first.variations[0];
    REQUIRE(alt.plies.size() == 2);
    REQUIRE(alt.plies[0].variations.size() == 1);
    CHECK(alt.plies[0].variations[0].plies.size() == 1);
    const Ply& second = g.main.plies[1];
    REQUIRE(second.variations.size() == 1);
    REQUIRE(second.variations[0].plies.size() == 2);
    CHECK(second.variations[0].plies[1].variations.size() == 1);
    const Diagnostic* d = find_code(g, "empty-variation");
    REQUIRE(d);
    CHECK(d->column == 38);
}

TEST_CASE("a web table gives its moves and names the players from its header row", "[parser]") {
    const GameRecord g = read_one("table.gpn");
    CHECK(g.main.plies.size() == 5);
    REQUIRE(g.tag("White"));
    CHECK(*g.tag("White") == "Alice");
    CHECK(*g.tag("Black") == "Bob");
    const GameRecord alone = read_one("table_no_tags.gpn"); // the header row opens the file
    CHECK(alone.main.plies.size() == 5);
    REQUIRE(alone.tag("White"));
    CHECK(*alone.tag("White") == "Alice");
    CHECK(*alone.tag("Black") == "Bob");
}

TEST_CASE("a Windows-1252 file is converted, with one warning naming the file", "[parser]") {
    std::vector<Diagnostic> file_diags;
    const auto games = read_file("latin1.gpn", &file_diags);
    REQUIRE(games.size() == 1);
    REQUIRE(file_diags.size() == 1);
    CHECK(file_diags[0].code == "not-utf8");
    CHECK(file_diags[0].file.find("latin1.gpn") != std::string::npos);
    CHECK(file_diags[0].line == 1);
    CHECK(file_diags[0].column == 19);
    const GameRecord& g = games[0];
    CHECK(*g.tag("Event") == "Tournoi d'\xC3\xA9t\xC3\xA9");
    CHECK(*g.tag("White") == "M\xC3\xBCller");
    CHECK(*g.tag("Black") == "Jos\xC3\xA9 \xE2\x82\xAC");
    CHECK(g.main.comments == std::vector<std::string>{"Tr\xC3\xA8s bien"});
}

TEST_CASE("spaces inside moves are read, and the text as written is kept", "[parser]") {
    const GameRecord g = read_one("spaces_in_moves.gpn");
    REQUIRE(g.main.plies.size() == 7);
    CHECK(g.main.plies[0].written == "c2 - d3");
    CHECK(g.main.plies[3].written == "e7 - e6 +");
    CHECK(g.main.plies[6].written == "c2 * c3 , c4");
    CHECK(g.main.plies[6].move.type() == MoveType::deployment);
    CHECK(g.diagnostics.empty());
}

TEST_CASE("exits written OUT and deployments that leave the board end the game", "[parser]") {
    const GameRecord a = read_one("out_upper.gpn");
    CHECK(a.main.plies.back().move.type() == MoveType::exit);
    CHECK(a.final_position().outcome() == Outcome::black_wins);
    const GameRecord b = read_one("deploy_exit.gpn");
    CHECK(b.main.plies.back().move.type() == MoveType::deployment);
    CHECK(b.main.plies.back().move.ends_out());
    CHECK(b.final_position().outcome() == Outcome::white_wins);
    CHECK(a.status == GameStatus::valid);
    CHECK(b.status == GameStatus::valid);
}

TEST_CASE("an illegal move names the legal moves of its stack and the nearest one when obvious", "[parser]") {
    SECTION("in a variation: two moves are equally near, so no guess") {
        const GameRecord g = read_one("illegal_in_variation.gpn");
        const Diagnostic* d = find_code(g, "illegal-move");
        REQUIRE(d);
        CHECK(d->line == 4);
        CHECK(d->column == 22);
        CHECK(d->move_number == 1);
        CHECK(d->side == Color::black);
        CHECK(d->written == "f7-f6");
        CHECK(d->legal_moves == std::vector<std::string>{"f7-e6", "f7-g6"});
        CHECK(d->suggestion.empty());
        CHECK(d->game == 1);
        CHECK(g.main.plies.size() == 3);
        CHECK(g.main.plies[1].variations.empty()); // the variation broke at its first move
    }
    SECTION("in the main line, with the obvious intent, and the next game unharmed") {
        const auto games = read_file("two_games_first_broken.gpn");
        REQUIRE(games.size() == 2);
        const Diagnostic* d = find_code(games[0], "illegal-move");
        REQUIRE(d);
        CHECK(d->suggestion == "d3-e4");
        CHECK(d->legal_moves == std::vector<std::string>{"d3-c4", "d3-e4"});
        CHECK(d->move_number == 2);
        CHECK(d->side == Color::white);
        CHECK(d->message.find("did you mean d3-e4?") != std::string::npos);
        CHECK(games[0].status == GameStatus::partial);
        CHECK(games[0].main.plies.size() == 2);
        CHECK(games[1].status == GameStatus::valid);
        CHECK(games[1].number == 2);
        CHECK(games[1].line == 6);
    }
}

TEST_CASE("a move after the game ended is an error and the game keeps the moves before it", "[parser]") {
    const GameRecord g = read_one("move_after_end.gpn");
    const Diagnostic* d = find_code(g, "move-after-end");
    REQUIRE(d);
    CHECK(d->move_number == 19);
    CHECK(d->side == Color::white);
    CHECK(d->message.find("e2-Out") != std::string::npos);
    CHECK(g.main.plies.size() == 36);
    CHECK(g.status == GameStatus::partial);
}

TEST_CASE("markers that disagree with the position are warnings and the moves stand", "[parser]") {
    const GameRecord g = read_one("markers.gpn");
    CHECK(g.status == GameStatus::valid);
    std::vector<std::string> codes;
    for (const Diagnostic& d : g.diagnostics) codes.push_back(d.code);
    CHECK(codes == std::vector<std::string>{"plus-without-join", "dash-on-capture", "x-without-capture",
                                            "join-without-plus"});
    CHECK(g.diagnostics[1].message.find("canonical: e4xd5") != std::string::npos);
    const std::string text = write_record(g);
    CHECK(text.find("3. e4xd5 e7-e6 4. d1-e2+") != std::string::npos);
}

TEST_CASE("results are checked against the final position", "[parser]") {
    const GameRecord g = read_one("result_contradicts.gpn");
    const Diagnostic* d = find_code(g, "result-contradicts");
    REQUIRE(d);
    CHECK(d->severity == Severity::error);
    CHECK(g.status == GameStatus::invalid);
    // A decisive result on an open position is a resignation; * on a finished game is a warning.
    auto games = read_records("1. c2-d3 f7-e6 0-1\n");
    REQUIRE(games.size() == 1);
    CHECK(games[0].status == GameStatus::valid);
    CHECK(games[0].diagnostics.empty());
    const std::string won = "[SetUp \"1\"]\n[Position \"8/1(RR)6/8/8/8/8/8/s7 w\"]\n\n1. b7*c8,out *\n";
    games = read_records(won);
    REQUIRE(games.size() == 1);
    REQUIRE(find_code(games[0], "result-incomplete"));
    CHECK(games[0].status == GameStatus::valid);
    // The one-half sign of copied records reads as 1/2-1/2.
    games = read_records("1. c2-d3 f7-e6 \xC2\xBD-\xC2\xBD\n");
    REQUIRE(games.size() == 1);
    CHECK(games[0].result == "1/2-1/2");
    CHECK(games[0].diagnostics.empty());
    // With no marker at all, a finished game's result is read from the board.
    games = read_records("[SetUp \"1\"]\n[Position \"8/1(RR)6/8/8/8/8/8/s7 w\"]\n\n1. b7*c8,out\n");
    REQUIRE(games.size() == 1);
    CHECK(games[0].result == "1-0");
}

TEST_CASE("move numbers that skip a move are pointed at once", "[parser]") {
    const auto games = read_records("1. c2-d3 f7-e6 3. d3-e4 e6-d5 4. e4xd5 *");
    REQUIRE(games.size() == 1);
    int n = 0;
    for (const Diagnostic& d : games[0].diagnostics) n += d.code == "wrong-move-number";
    CHECK(n == 1);
    CHECK(games[0].diagnostics[0].column == 16);
    CHECK(games[0].main.plies.size() == 5);
}

TEST_CASE("set-up games keep their first move number through a round trip", "[parser]") {
    const auto games = read_file("setup.gpn");
    REQUIRE(games.size() == 2);
    CHECK(games[0].first_number == 12);
    CHECK(games[1].first_number == 5);
    CHECK(games[1].start.side_to_move() == Color::black);
    const std::string text = write_record(games[1]);
    CHECK(text.find("[SetUp \"1\"]\n[Position \"8/8/8/8/8/8/1(rr)6/S7 b\"]") != std::string::npos);
    CHECK(text.find("5... b2*c1,out 0-1") != std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// The grammar alone.

TEST_CASE("the grammar reads every kind of movetext element into the syntax tree", "[parser][grammar]") {
    ChunkSyntax out;
    parse_chunk("[Event \"x\"]\n12... a1-Out b2 x c3 $14 !? {c} ; line\n (a6 * a7, b8, OUT) c5*d5+,e5,f6+ 1/2-1/2",
                out);
    REQUIRE(out.errors.empty());
    REQUIRE(out.games.size() == 1);
    const ast::Game& g = out.games[0];
    REQUIRE(g.tags.size() == 1);
    CHECK(g.tags[0].name == "Event");
    CHECK(g.result.value == ast::Result::draw);
    REQUIRE(g.elements.size() == 9);
    const auto& n = boost::get<ast::MoveNumber>(g.elements[0].get());
    CHECK(n.number == 12);
    CHECK(n.ellipsis);
    const auto& exit = boost::get<ast::Move>(g.elements[1].get());
    CHECK(exit.spec.from == parse_square("a1"));
    CHECK(exit.spec.out);
    CHECK(exit.length == 6);
    const auto& capture = boost::get<ast::Move>(g.elements[2].get());
    CHECK(capture.spec.separator == MoveSeparator::capture);
    CHECK(capture.length == 7); // "b2 x c3"
    CHECK(boost::get<ast::Annotation>(g.elements[3].get()).value == 14);
    CHECK(boost::get<ast::Annotation>(g.elements[4].get()).suffix);
    CHECK(boost::get<ast::Annotation>(g.elements[4].get()).value == 5);
    CHECK(boost::get<ast::Comment>(g.elements[5].get()).text == "c");
    CHECK(boost::get<ast::Comment>(g.elements[6].get()).text == " line");
    const auto& v = boost::get<ast::x3::forward_ast<ast::Variation>>(g.elements[7].get()).get();
    REQUIRE(v.elements.size() == 1);
    CHECK(v.closed);
    const auto& deploy = boost::get<ast::Move>(v.elements[0].get());
    CHECK(deploy.spec.separator == MoveSeparator::deploy);
    CHECK(deploy.spec.target_count == 2);
    CHECK(deploy.spec.out);
    const auto& d3 = boost::get<ast::Move>(g.elements[8].get());
    CHECK(d3.spec.target_count == 3);
    CHECK(d3.spec.targets[0].joins);
    CHECK(!d3.spec.targets[1].joins);
    CHECK(d3.spec.targets[2].joins);
}

TEST_CASE("unreadable text becomes one unknown token, not a lost game", "[parser][grammar]") {
    ChunkSyntax out;
    parse_chunk("1. c2-d3 zz9! c5*d5,e5,f6,g7 )", out);
    REQUIRE(out.games.size() == 1);
    std::vector<int> kinds;
    for (const ast::Element& e : out.games[0].elements) kinds.push_back(e.get().which());
    // number, move, unknown "zz9!", deployment of 3, unknown ",g7", stray ')'
    CHECK(kinds == std::vector<int>{0, 1, 6, 1, 6, 6});
}

TEST_CASE("variations nested too deep are refused without recursing further", "[parser][grammar]") {
    const std::string text = "1. c2-d3 " + std::string(5000, '(') + "f7-e6" + std::string(5000, ')') + " *";
    ChunkSyntax out;
    parse_chunk(text, out);
    REQUIRE(!out.errors.empty());
    CHECK(out.errors[0].code == "too-deep");
    const auto games = read_records(text);
    REQUIRE(!games.empty());
    CHECK(games[0].status == GameStatus::partial);
}

TEST_CASE("the splitter cuts games at tag sections and results, never inside comments", "[parser][grammar]") {
    const std::string text = "[A \"1\"]\n1. a1-a2 {no [B \"x\"] here\n1-0} 1-0 {after} ; note\n"
                             "[B \"2\"]\n1. c5 * d5 *\n1. d2-d3 1/2-1/2";
    GameSplitter s;
    std::vector<std::string> chunks;
    std::size_t start = 0, cut = 0;
    s.start_chunk(0);
    for (;;) {
        const auto r = s.scan(text.data(), text.size(), true, cut);
        chunks.push_back(text.substr(start, cut - start));
        if (r == GameSplitter::Scan::end) break;
        start = cut;
        s.start_chunk(cut);
    }
    REQUIRE(chunks.size() == 3);
    CHECK(chunks[0] == "[A \"1\"]\n1. a1-a2 {no [B \"x\"] here\n1-0} 1-0 {after} ; note\n");
    CHECK(chunks[1] == "[B \"2\"]\n1. c5 * d5 *\n");
    CHECK(chunks[2] == "1. d2-d3 1/2-1/2");
}

namespace {

// The cuts of `text`, fed to the splitter `step` bytes at a time (eof with the last bytes), with
// or without its shortcuts through runs of bytes.
std::vector<std::size_t> cuts_of(const std::string& text, std::size_t step, bool shortcuts = true) {
    GameSplitter s;
    if (!shortcuts) s.disable_shortcuts();
    s.start_chunk(0);
    std::vector<std::size_t> cuts;
    std::size_t have = std::min(step, text.size());
    for (;;) {
        std::size_t cut = 0;
        const auto r = s.scan(text.data(), have, have == text.size(), cut);
        if (r == GameSplitter::Scan::need_more) {
            have = std::min(have + step, text.size());
            continue;
        }
        cuts.push_back(cut);
        if (r == GameSplitter::Scan::end) break;
        s.start_chunk(cut);
    }
    return cuts;
}

} // namespace

TEST_CASE("the splitter cuts the same places with or without its shortcuts, the text whole or in pieces", "[parser][grammar]") {
    std::vector<std::string> texts;
    for (const char* dir : {"tests/data/records", "samples/games", "samples/broken"})
        for (const auto& entry : fs::directory_iterator(fs::path(GOUNKI_SOURCE_DIR) / dir)) {
            std::ifstream in(entry.path(), std::ios::binary);
            texts.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        }
    // Mutants: bytes that decide cuts dropped into the files at random.
    std::mt19937 rng(77);
    const std::string pokes[] = {"\n", "[", "[E \"", "{", "}", ";", "(", ")", "*", " *", "* ", "1-0", " 0-1 ",
                                 "1/2-1/2", "1", "0", "\"", "\\", "\xEF\xBB\xBF", "\f", "\r\n", "*out", "* ,"};
    const std::size_t files = texts.size();
    for (std::size_t i = 0; i < files; ++i)
        for (int m = 0; m < 20; ++m) {
            std::string t = texts[i];
            for (int k = 0; k < 4; ++k)
                t.insert(rng() % (t.size() + 1), pokes[rng() % std::size(pokes)]);
            texts.push_back(std::move(t));
        }
    REQUIRE(texts.size() > 500);
    for (const std::string& text : texts) {
        INFO(text);
        const auto plain = cuts_of(text, text.size() + 1, false);
        CHECK(cuts_of(text, text.size() + 1) == plain);
        CHECK(cuts_of(text, 1) == plain);
        CHECK(cuts_of(text, 7) == plain);
    }
}

namespace {

// Everything a reader says about `text`: each game written canonically with its place, status and
// diagnostics, then the file's diagnostics.
std::vector<std::string> reading_of(const std::string& text, std::size_t block_bytes, bool skip = false) {
    std::istringstream in(text);
    RecordReader reader(in, "t.gpn");
    reader.set_block_bytes(block_bytes);
    std::vector<std::string> out;
    GameRecord g;
    while (skip ? reader.skip(&g) : reader.next(g)) {
        std::string s = std::to_string(g.number) + " line " + std::to_string(g.line) + " status " +
                        std::to_string(int(g.status)) + "\n" + write_record(g);
        for (const Diagnostic& d : g.diagnostics) s += format_diagnostic(d) + "\n";
        out.push_back(std::move(s));
    }
    for (const Diagnostic& d : reader.take_file_diagnostics()) out.push_back(format_diagnostic(d));
    return out;
}

} // namespace

TEST_CASE("reading several games at once gives what reading game by game gives", "[parser][grammar]") {
    // Blocks skip the splitter: the grammar must end games exactly where the splitter would, and a
    // block with anything wrong must be read again game by game. Checked on every record file of
    // the tests and samples, all of them end to end, and mutants of that.
    std::vector<std::string> texts;
    std::string clean; // valid games only: blocks are taken unless a mutation makes them disagree
    for (const char* dir : {"tests/data/records", "samples/games", "samples/broken", "samples/selfplay"})
        for (const auto& entry : fs::directory_iterator(fs::path(GOUNKI_SOURCE_DIR) / dir)) {
            if (entry.path().extension() != ".gpn") continue;
            std::ifstream in(entry.path(), std::ios::binary);
            texts.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            const std::string name = entry.path().filename().string();
            if (std::string(dir) == "samples/games" || name == "gomoku-200.gpn") {
                clean += texts.back();
                if (clean.back() != '\n') clean += '\n';
            }
        }
    // Layouts where the grammar alone would end games elsewhere than the splitter: a star glued to a
    // token, a '(' or '.' between tag pairs, a tag pair across lines, a header comment left open.
    const std::string next = "\n\n[Event \"b\"]\n1. c2-d3 f7-e6 *\n";
    for (const std::string t : {"[Game \"Gomoku\"]\n1. h8 j6* 0-1", "[Event \"a\"]\n(\n[Black \"x\"]\n1. c2-d3 1-0",
                                "[Event \"a\"]\n.\n[Black \"x\"]\n1. c2-d3 1-0", "[Event \"a\"\n]\n[Black \"x\"]\n1. c2-d3 1-0",
                                "[Event \"a\"]\n{ open\n[Black \"x\"]\n1. c2-d3 1-0", "[Event \"a\"]\n1. c2-d3 ([B \"x\"]\n1-0"})
        texts.push_back(t + next + t + next);
    std::mt19937 rng(2026);
    const std::string pokes[] = {"\n", "[", "\n[E \"1\"]\n", "{", "}", ";", "(", ")", "*", " *\n\n", "1-0\n\n",
                                 " 0-1 ", "1/2-1/2", "\"", "\xE9", "\xEF\xBB\xBF", "| a | b |\n", "((((", "$300",
                                 "\n.\n", "\n|\n", "\n{ open\n", " x\n[F \"2\"]", "\n  [G \"3\"]\n", "1-0x", "*"};
    // One or two pokes per mutant, so that most blocks stay free of errors (a block with an error is
    // read game by game anyway); half of them next to a tag pair, where games meet.
    for (int m = 0; m < 48; ++m) {
        std::string t = clean;
        for (int k = 0; k < 1 + m % 2; ++k) {
            std::size_t at = rng() % (t.size() + 1);
            if (m % 4 < 2) {
                const std::size_t tag = t.find("\n[", at);
                if (tag != std::string::npos) at = tag + (rng() % 3 == 0 ? 0 : rng() % 2 ? 1 : t.find(']', tag) - tag);
            }
            t.insert(std::min(at, t.size()), pokes[rng() % std::size(pokes)]);
        }
        texts.push_back(std::move(t));
    }
    for (const std::string& text : texts) {
        const auto plain = reading_of(text, 0);
        REQUIRE(!plain.empty());
        for (std::size_t block : {std::size_t(1), std::size_t(700), std::size_t(16 * 1024)}) {
            INFO("block bytes " << block << ", text of " << text.size() << " bytes");
            const auto blocks = reading_of(text, block);
            for (std::size_t i = 0; i < std::min(plain.size(), blocks.size()); ++i) REQUIRE(blocks[i] == plain[i]);
            CHECK(blocks.size() == plain.size());
        }
        CHECK(reading_of(text, 1, true) == reading_of(text, 0, true));
    }
}

// ---------------------------------------------------------------------------------------------
// Encodings.

TEST_CASE("UTF-8 validation rejects overlong forms, surrogates and truncated sequences", "[parser][encoding]") {
    auto [text, ok, bad] = GENERATE(table<std::string, bool, std::size_t>({
        {"plain ASCII text, long enough to use the 8-byte path", true, 0},
        {"M\xC3\xBCller \xE2\x82\xAC \xF0\x9F\x98\x80", true, 0},
        {"ab\xC0\xAF", false, 2},          // overlong '/'
        {"\xED\xA0\x80", false, 0},        // surrogate
        {"xyz\xF4\x90\x80\x80", false, 3}, // past U+10FFFF
        {"M\xFCller", false, 1},           // Latin-1
        {"end\xE2\x82", false, 3},         // truncated
    }));
    std::size_t at = 0;
    CHECK(valid_utf8(text, at) == ok);
    if (!ok) CHECK(at == bad);
}

TEST_CASE("Windows-1252 converts to UTF-8 with its own letters in 0x80-0x9F", "[parser][encoding]") {
    std::string out;
    cp1252_to_utf8("a\x80\x9C\xE9\xFF\x81", out);
    CHECK(out == "a\xE2\x82\xAC\xC5\x93\xC3\xA9\xC3\xBF\xC2\x81");
    CHECK(utf8_length(out) == 6);
}

// ---------------------------------------------------------------------------------------------
// Writer round trips.

TEST_CASE("every broken sample says what gounki validate prints for it, word for word", "[parser][samples]") {
    const fs::path dir = fs::path(GOUNKI_SOURCE_DIR) / "samples" / "broken";
    auto squeeze = [](const std::string& text) {
        std::string out;
        for (char c : text) {
            const bool blank = c == ' ' || c == '\n' || c == '\r' || c == '\t';
            if (blank && (out.empty() || out.back() == ' ')) continue;
            out += blank ? ' ' : c;
        }
        while (!out.empty() && out.back() == ' ') out.pop_back();
        return out;
    };
    int files = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() != ".gpn") continue;
        ++files;
        const std::string name = entry.path().filename().string();
        DYNAMIC_SECTION(name) {
            std::ifstream in(entry.path(), std::ios::binary);
            const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            const std::string marker = "`gounki validate` prints:";
            const std::size_t at = text.find(marker);
            REQUIRE(at != std::string::npos);
            const std::size_t end = text.find("}\n", at);
            REQUIRE(end != std::string::npos);
            const std::string quoted = squeeze(text.substr(at + marker.size(), end - at - marker.size()));
            RecordReader reader(entry.path());
            std::vector<std::string> printed;
            GameRecord g;
            auto add = [&](const Diagnostic& d) {
                std::string line = format_diagnostic(d);
                const std::string full = entry.path().string();
                if (line.compare(0, full.size(), full) == 0) line.replace(0, full.size(), "samples/broken/" + name);
                printed.push_back(squeeze(line));
            };
            while (reader.next(g)) {
                for (const Diagnostic& d : reader.take_file_diagnostics()) add(d);
                for (const Diagnostic& d : g.diagnostics) add(d);
            }
            for (const Diagnostic& d : reader.take_file_diagnostics()) add(d);
            INFO("quoted: " << quoted);
            for (const std::string& p : printed) INFO("printed: " << p);
            CHECK(std::find(printed.begin(), printed.end(), quoted) != printed.end());
        }
    }
    CHECK(files >= 32);
}

TEST_CASE("parse, write, parse gives the same game for every golden file", "[parser][writer]") {
    for (const auto& entry : fs::directory_iterator(records_dir)) {
        if (entry.path().extension() != ".gpn") continue;
        DYNAMIC_SECTION(entry.path().filename().string()) {
            std::vector<GameRecord> first;
            RecordReader reader(entry.path());
            GameRecord g;
            while (reader.next(g)) first.push_back(g);
            std::string text;
            for (const GameRecord& r : first) text += write_record(r);
            const auto second = read_records(text, "written");
            REQUIRE(second.size() == first.size());
            for (std::size_t i = 0; i < first.size(); ++i) {
                INFO("game " << i + 1 << "\n" << write_record(first[i]));
                CHECK(compare_records(first[i], second[i]).empty());
                if (first[i].status == GameStatus::valid) {
                    CHECK(second[i].diagnostics.empty());
                }
                CHECK(write_record(second[i]) == write_record(first[i])); // canonical text is a fixed point
            }
        }
    }
}

namespace {

std::string random_comment(std::mt19937& rng) {
    static const char* words[] = {"good", "{", "}", "(", ")", "[Event \"x\"]", "1-0",
                                  "*",    "$3", "!?", ";", "\"", "a1-a2"};
    std::string s;
    const int n = int(rng() % 5);
    for (int i = 0; i < n; ++i) {
        if (i) s += ' ';
        s += words[rng() % (sizeof words / sizeof *words)];
    }
    return s;
}

Line random_line(std::mt19937& rng, Position pos, int max_plies, int depth) {
    Line line;
    if (rng() % 30 == 0) line.comments.push_back(random_comment(rng));
    UndoRecord undo;
    for (int i = 0; i < max_plies && !pos.game_over(); ++i) {
        MoveList moves;
        generate_moves(pos, moves);
        Ply p;
        p.move = moves[int(rng() % unsigned(moves.size()))];
        if (rng() % 20 == 0) p.nags.push_back(std::uint8_t(rng() % 256));
        if (rng() % 40 == 0) p.nags.push_back(std::uint8_t(1 + rng() % 6));
        if (rng() % 25 == 0) p.comments.push_back(random_comment(rng));
        if (depth < 2 && rng() % 15 == 0) p.variations.push_back(random_line(rng, pos, 1 + int(rng() % 4), depth + 1));
        pos.do_move(p.move, undo);
        line.plies.push_back(std::move(p));
    }
    return line;
}

} // namespace

TEST_CASE("thousands of random legal games survive write and read with the same moves", "[parser][writer]") {
    std::mt19937 rng(20261102);
    const int count = 2500;
    std::vector<GameRecord> games;
    std::string text;
    for (int i = 0; i < count; ++i) {
        GameRecord g;
        g.tags = {{"Event", "Random"}, {"Round", std::to_string(i + 1)}, {"White", "A \"quoted\" name"},
                  {"Black", "B\\C"}, {"Annotator", "fixed seed"}};
        if (i % 10 == 9) { // a set-up start: a few random moves in, numbered from 20
            Line prefix = random_line(rng, Position::start(), 1 + int(rng() % 7), 3);
            UndoRecord u;
            for (const Ply& p : prefix.plies) g.start.do_move(p.move, u);
            g.first_number = 20;
        }
        const bool to_the_end = rng() % 4 != 0;
        g.main = random_line(rng, g.start, to_the_end ? 1000 : int(rng() % 60), 0);
        Position end = g.final_position();
        if (end.game_over()) g.result = end.outcome() == Outcome::white_wins ? "1-0" : "0-1";
        else g.result = std::vector<std::string>{"*", "1-0", "0-1", "1/2-1/2"}[rng() % 4];
        text += write_record(g);
        games.push_back(std::move(g));
    }
    const auto read = read_records(text, "random");
    REQUIRE(read.size() == games.size());
    int plies = 0;
    for (std::size_t i = 0; i < games.size(); ++i) {
        plies += int(read[i].main.plies.size());
        const std::string diff = compare_records(games[i], read[i]);
        if (!diff.empty() || !read[i].diagnostics.empty() || read[i].status != GameStatus::valid) {
            INFO("game " << i + 1 << ": " << diff << "\n" << write_record(games[i]));
            if (!read[i].diagnostics.empty()) INFO(format_diagnostic(read[i].diagnostics[0]));
            CHECK(diff.empty());
            CHECK(read[i].diagnostics.empty());
            CHECK(read[i].status == GameStatus::valid);
            break;
        }
    }
    CHECK(plies > 50 * count);
}

TEST_CASE("random Gomoku and Ninuki games survive write and read with the same moves and rules", "[parser][writer][stones]") {
    std::mt19937 rng(20261121);
    const stones::Rules rule_sets[] = {
        stones::Rules::defaults(GameKind::gomoku),
        [] { auto r = stones::Rules::defaults(GameKind::gomoku); r.size = 19; return r; }(),
        stones::Rules::defaults(GameKind::ninuki),
        [] { auto r = stones::Rules::defaults(GameKind::ninuki); r.size = 15; r.no_double_three = false; return r; }(),
        [] { auto r = stones::Rules::defaults(GameKind::ninuki); r.endgame_capture = r.no_double_three = false; return r; }(),
    };
    std::vector<GameRecord> games;
    std::string text;
    int ended = 0;
    for (int i = 0; i < 300; ++i) {
        GameRecord g;
        const stones::Rules rules = rule_sets[i % 5];
        g.kind = rules.kind;
        g.tags = {{"Event", "Random stones"}, {"Round", std::to_string(i + 1)}};
        g.stone_start = stones::StonePosition(rules);
        if (i % 7 == 6) { // a set-up start with White to move
            stones::StoneUndo u;
            g.stone_start.play(Move::placement(stones::make_point(rules.size / 2, rules.size / 2)), u);
        }
        stones::StonePosition pos = g.stone_start;
        stones::StoneUndo undo;
        // Moves near the centre, so that lines, captures and forbidden points happen.
        for (int ply = 0; ply < 250 && !pos.game_over(); ++ply) {
            const std::vector<Move> legal = pos.legal_moves();
            REQUIRE_FALSE(legal.empty());
            Move m = legal[rng() % legal.size()];
            for (int t = 0; t < 40; ++t) {
                const Move c = legal[rng() % legal.size()];
                const int f = stones::point_file(c.point()) - rules.size / 2, r = stones::point_rank(c.point()) - rules.size / 2;
                if (f * f + r * r <= 10) {
                    m = c;
                    break;
                }
            }
            Ply p;
            p.move = m;
            if (rng() % 20 == 0) p.comments.push_back("note " + std::to_string(ply));
            if (rng() % 25 == 0) p.nags.push_back(std::uint8_t(1 + rng() % 6));
            g.main.plies.push_back(std::move(p));
            pos.play(m, undo);
        }
        ended += pos.game_over();
        const Outcome o = pos.outcome();
        g.result = o == Outcome::white_wins ? "1-0" : o == Outcome::black_wins ? "0-1" : o == Outcome::draw ? "1/2-1/2" : "*";
        text += write_record(g);
        games.push_back(std::move(g));
    }
    const auto read = read_records(text, "random-stones");
    REQUIRE(read.size() == games.size());
    for (std::size_t i = 0; i < games.size(); ++i) {
        const std::string diff = compare_records(games[i], read[i]);
        INFO("game " << i + 1 << ": " << diff << "\n" << write_record(games[i]));
        if (!read[i].diagnostics.empty()) INFO(format_diagnostic(read[i].diagnostics[0]));
        REQUIRE(diff.empty());
        REQUIRE(read[i].diagnostics.empty());
        REQUIRE(read[i].status == GameStatus::valid);
        REQUIRE(read[i].final_stone_position() == games[i].final_stone_position());
    }
    CHECK(ended > 250); // most games reach a five, ten captures or a capture-broken end
}

TEST_CASE("stone-game records name what is wrong: occupied, off the board, forbidden, after the end", "[parser][stones]") {
    const auto games = read_records("[Game \"Ninuki\"]\n\n1. h10 a1 2. i10 a3 3. j8 a5 4. j9 a7 5. j10 *\n\n"
                                    "[Game \"Gomoku\"]\n\n1. h8 h8 *\n\n"
                                    "[Game \"Gomoku\"]\n\n1. h8 q15 *\n\n"
                                    "[Game \"Gomoku\"]\n\n1. h8 a1 2. i8 a2 3. j8 a3 4. k8 a4 5. l8 a5 0-1\n",
                                    "stones");
    REQUIRE(games.size() == 4);
    const Diagnostic& forbidden = games[0].diagnostics.at(0);
    CHECK(forbidden.code == "illegal-move");
    CHECK(forbidden.message.find("double-three") != std::string::npos);
    CHECK(forbidden.move_number == 5);
    CHECK(forbidden.side == Color::black);
    CHECK(forbidden.written == "j10");
    CHECK(games[0].main.plies.size() == 8);
    CHECK(games[0].status == GameStatus::partial);
    const Diagnostic& occupied = games[1].diagnostics.at(0);
    CHECK(occupied.code == "illegal-move");
    CHECK(occupied.message.find("occupied by a black stone") != std::string::npos);
    CHECK(occupied.side == Color::white);
    CHECK(occupied.column == 7);
    CHECK(games[2].diagnostics.at(0).message.find("off the 15x15 board") != std::string::npos);
    const Diagnostic& after = games[3].diagnostics.at(0);
    CHECK(after.code == "move-after-end");
    CHECK(after.message.find("Black won with 5. l8") != std::string::npos);
    CHECK(games[3].main.plies.size() == 9);
    CHECK(games[3].final_stone_position().outcome() == Outcome::black_wins);
}

TEST_CASE("every legal move of random positions resolves from its canonical and its marker-less text",
          "[parser]") {
    // The reader's quick path and core's resolve_move must agree on every move; written without
    // markers, core still finds the move and warns.
    std::mt19937 rng(7);
    int checked = 0;
    for (int game = 0; game < 200; ++game) {
        Position pos = Position::start();
        UndoRecord u;
        std::string text;
        std::string bare;
        int ply = 0;
        while (!pos.game_over()) {
            MoveList moves;
            generate_moves(pos, moves);
            const Move m = moves[int(rng() % unsigned(moves.size()))];
            std::string t = move_to_text(pos, m);
            if (ply % 2 == 0) text += std::to_string(ply / 2 + 1) + ". ";
            text += t + " ";
            t.erase(std::remove(t.begin(), t.end(), '+'), t.end());
            std::replace(t.begin(), t.end(), 'x', '-');
            bare += t + " ";
            pos.do_move(m, u);
            ++ply;
        }
        const auto a = read_records(text);
        const auto b = read_records(bare);
        REQUIRE(a.size() == 1);
        REQUIRE(b.size() == 1);
        CHECK(a[0].main.plies.size() == std::size_t(ply));
        CHECK(compare_lines(a[0].main, b[0].main, "bare").empty());
        for (const Diagnostic& d : a[0].diagnostics) CHECK(d.code == "no-result");
        ++checked;
    }
    CHECK(checked == 200);
}

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

TEST_CASE("a missing file is an io-error, not a crash", "[parser][stream]") {
    RecordReader reader(records_dir / "no_such_file.gpn");
    CHECK(!reader.ok());
    const auto d = reader.take_file_diagnostics();
    REQUIRE(d.size() == 1);
    CHECK(d[0].code == "io-error");
    GameRecord g;
    CHECK(!reader.next(g));
}

// ---------------------------------------------------------------------------------------------
// Fuzzers' findings: every file in tests/data/regressions is read without a crash (the sanitizer
// build turns any memory error into a failure).

TEST_CASE("every fuzzing regression file passes the fuzzers' checks", "[parser][regression]") {
    int files = 0;
    for (const auto& entry : fs::directory_iterator(regressions_dir)) {
        if (!entry.is_regular_file() || entry.path().extension() == ".md") continue;
        DYNAMIC_SECTION(entry.path().filename().string()) {
            const std::string data = slurp(entry.path());
            CHECK(fuzz::check_records(data).empty());
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

TEST_CASE("gounki validate prints diagnostics with places, a summary, and the documented exit status",
          "[parser][cli]") {
    const std::string dir = "'" + records_dir.string() + "/";
    SECTION("a valid file exits 0") {
        auto [out, status] = run(cli() + " validate " + dir + "draw.gpn'");
        CHECK(status == 0);
        CHECK(out.find("1 game in 1 file: 1 valid, 0 invalid, 0 partial; 0 errors, 0 warnings") != std::string::npos);
    }
    SECTION("an invalid game exits 1 and names file, line and column") {
        auto [out, status] = run(cli() + " validate " + dir + "two_games_first_broken.gpn'");
        CHECK(status == 1);
        CHECK(out.find("two_games_first_broken.gpn:4:19: error: 2. d3-e5: d3-e5 is not a legal move") !=
              std::string::npos);
        CHECK(out.find("2 games in 1 file: 1 valid, 0 invalid, 1 partial; 1 error, 0 warnings") != std::string::npos);
        CHECK(out.find("  illegal-move: 1") != std::string::npos);
    }
    SECTION("standard input is read with '-'") {
        auto [out, status] = run(cli() + " validate - < " + dir + "markers.gpn'");
        CHECK(status == 0);
        CHECK(out.find("-:4:35: warning:") != std::string::npos);
    }
    SECTION("--json prints one object per diagnostic and one summary") {
        auto [out, status] = run(cli() + " validate --json " + dir + "illegal_in_variation.gpn'");
        CHECK(status == 1);
        std::istringstream lines(out);
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
    SECTION("a missing file or no file at all exits 2") {
        CHECK(run(cli() + " validate " + dir + "no_such_file.gpn' 2>/dev/null").second == 2);
        CHECK(run(cli() + " validate 2>/dev/null").second == 2);
    }
}

// ---------------------------------------------------------------------------------------------
// Text pasted from web pages and word processors (parser/web_text.hpp): read as the grammar's
// ASCII without changing the byte length, so offsets found in the output point into the input.

namespace {

std::string utf8_of(char32_t c) {
    std::string s;
    append_utf8(c, s);
    return s;
}

std::string sp(std::size_t n) { return std::string(n, ' '); }

struct WebRead {
    std::string out;
    std::vector<WebTextNote> notes;
    bool changed = false;
};

WebRead web_read(std::string_view text) {
    WebRead r;
    r.changed = normalize_web_text(text, r.out, r.notes);
    return r;
}

// A note as "offset U+XXXX read_as" (read_as in quotes, "&" after it for an entity): one string
// per note compares and prints well.
std::vector<std::string> web_notes(const std::vector<WebTextNote>& notes) {
    std::vector<std::string> v;
    for (const WebTextNote& n : notes) {
        char cp[16];
        std::snprintf(cp, sizeof cp, "U+%04X", unsigned(n.code_point));
        v.push_back(std::to_string(n.offset) + " " + cp + " '" + n.read_as + "'" + (n.entity ? "&" : ""));
    }
    return v;
}

std::string web_note(std::uint32_t offset, char32_t c, const std::string& read_as, bool entity = false) {
    return web_notes({WebTextNote{offset, c, read_as, entity}})[0];
}

using Notes = std::vector<std::string>;

// What must hold for any input: same length, every '\n' kept, a new '\n' only where a tag was,
// notes in order and pointing at what they name, UTF-8 kept UTF-8, and a second pass over text
// without HTML changing nothing more. "" when all holds, else what did not.
std::string web_invariants(std::string_view in) {
    std::string out;
    std::vector<WebTextNote> notes;
    const bool changed = normalize_web_text(in, out, notes);
    if (out.size() != in.size()) return "length changed";
    if (changed != (out != in)) return "changed flag wrong";
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i] == '\n' && out[i] != '\n') return "line end lost at " + std::to_string(i);
        if (out[i] == '\n' && in[i] != '\n' && in[i] != '<') return "line end added at " + std::to_string(i);
    }
    for (std::size_t k = 0; k < notes.size(); ++k) {
        const WebTextNote& n = notes[k];
        if (n.offset >= in.size()) return "note past the end";
        if (k > 0 && n.offset <= notes[k - 1].offset) return "notes out of order";
        if (n.entity ? in[n.offset] != '&' : in.substr(n.offset, utf8_of(n.code_point).size()) != utf8_of(n.code_point))
            return "note at " + std::to_string(n.offset) + " names another character";
    }
    if (!may_need_web_text_pass(in) && (changed || !notes.empty())) return "changed text the cheap test passed over";
    std::size_t bad;
    if (valid_utf8(in, bad) && !valid_utf8(out, bad)) return "UTF-8 broken at " + std::to_string(bad);
    if (in.find('<') == std::string_view::npos && in.find('&') == std::string_view::npos) {
        std::string again;
        std::vector<WebTextNote> more;
        if (normalize_web_text(out, again, more) || !more.empty()) return "a second pass changed more";
    }
    return {};
}

} // namespace

TEST_CASE("the cheap web-text test passes over plain ASCII records and catches any byte that may change",
          "[parser][web]") {
    CHECK_FALSE(may_need_web_text_pass(""));
    CHECK_FALSE(may_need_web_text_pass("[Event \"Lyon\"]\n[Result \"1-0\"]\n\n1. c2-d3 f7-e6 {good; (sic)} 2. d3-e4 1-0\n"));
    std::string ascii;
    for (int c = 1; c < 0x80; ++c)
        if (c != '<' && c != '&') ascii += char(c);
    CHECK_FALSE(may_need_web_text_pass(ascii + ascii)); // ';' '=' '%' '\'' next to '<' and '&' in value
    // At every position and alignment, each trigger alone is seen.
    for (std::size_t len = 1; len <= 40; ++len)
        for (std::size_t at = 0; at < len; ++at)
            for (const char trigger : {'<', '&', '\x80', '\xC3', '\xFF'}) {
                std::string s(len, 'a');
                s[at] = trigger;
                INFO("length " << len << ", trigger at " << at);
                CHECK(may_need_web_text_pass(s));
            }
    for (std::size_t len = 0; len <= 40; ++len) CHECK_FALSE(may_need_web_text_pass(std::string(len, ';')));
    // The golden records that are plain ASCII need no pass; the others are found.
    int plain = 0;
    for (const auto& entry : fs::directory_iterator(records_dir)) {
        if (entry.path().extension() != ".gpn") continue;
        const std::string text = slurp(entry.path());
        const bool special = std::any_of(text.begin(), text.end(), [](char c) {
            return static_cast<unsigned char>(c) >= 0x80 || c == '<' || c == '&';
        });
        INFO(entry.path().filename().string());
        CHECK(may_need_web_text_pass(text) == special);
        plain += !special;
        if (!special) CHECK(web_read(text).out == text);
    }
    CHECK(plain > 10);
}

TEST_CASE("dashes and the multiplication sign in movetext are read as '-' and 'x', the token padded at its end",
          "[parser][web]") {
    const WebRead r = web_read("1. b2\u2013b4 f7\u00D7e7 0\u20131\n");
    CHECK(r.changed);
    CHECK(r.out == "1. b2-b4   f7xe7  0-1  \n");
    CHECK(web_notes(r.notes) ==
          Notes{web_note(5, 0x2013, "-"), web_note(13, 0xD7, "x"), web_note(19, 0x2013, "-")});
    for (const char32_t dash : {0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2015, 0x2212, 0xFE63, 0xFF0D}) {
        const std::string d = utf8_of(dash);
        INFO(describe_code_point(dash));
        const WebRead w = web_read("1. a1" + d + "a2 (b1" + d + "b2)\t*");
        CHECK(w.out == "1. a1-a2" + sp(d.size() - 1) + " (b1-b2)" + sp(d.size() - 1) + "\t*");
        CHECK(web_notes(w.notes) == Notes{web_note(5, dash, "-"), web_note(unsigned(11 + d.size()), dash, "-")});
    }
    // A half sign draw with an en dash is the grammar's UTF-8 draw; tabs never change.
    CHECK(web_read("\xC2\xBD\u2013\xC2\xBD\t").out == "\xC2\xBD-\xC2\xBD  \t");
    // Full-width letters and digits are not read as ASCII.
    CHECK_FALSE(web_read("\uFF42\uFF12").changed);
}

TEST_CASE("Unicode spaces in movetext are spaces and zero-width characters are removed", "[parser][web]") {
    for (const char32_t space : {0x00A0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007,
                                 0x2008, 0x2009, 0x200A, 0x202F, 0x205F, 0x3000}) {
        const std::string s = utf8_of(space);
        INFO(describe_code_point(space));
        const WebRead r = web_read("1." + s + "b2-b4" + s);
        CHECK(r.out == "1." + sp(s.size()) + "b2-b4" + sp(s.size()));
        CHECK(web_notes(r.notes) == Notes{web_note(2, space, " "), web_note(unsigned(7 + s.size()), space, " ")});
    }
    for (const char32_t zero : {0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x200E, 0x200F}) {
        const std::string z = utf8_of(zero);
        INFO(describe_code_point(zero));
        const WebRead r = web_read("b2" + z + "-b4 c");
        CHECK(r.out == "b2-b4" + sp(z.size()) + " c"); // inside a token: the token closes up
        CHECK(web_notes(r.notes) == Notes{web_note(2, zero, "")});
        const WebRead before = web_read("1. " + z + "b2-b4");
        CHECK(before.out == "1. " + sp(z.size()) + "b2-b4"); // before it: the token stays where it is
        CHECK(web_notes(before.notes) == Notes{web_note(3, zero, "")});
    }
    // A byte order mark opening the text is the reader's to drop.
    const WebRead bom = web_read("\uFEFF1. b2-b4 *");
    CHECK_FALSE(bom.changed);
    CHECK(bom.notes.empty());
}

TEST_CASE("tag pair values between typographic quotes are read between '\"', their text left alone",
          "[parser][web]") {
    const WebRead r = web_read("[Event \u201CLyon\u2013Gen\u00E8ve\u201D]\n1. c2\u2013d3");
    CHECK(r.out == "[Event \"Lyon\u2013Gen\u00E8ve\"]" + sp(4) + "\n1. c2-d3  ");
    CHECK(web_notes(r.notes) ==
          Notes{web_note(7, 0x201C, "\""), web_note(24, 0x201D, "\""), web_note(34, 0x2013, "-")});

    // Every quote form, and a mix with '"'.
    const std::pair<char32_t, char32_t> forms[] = {{0x201C, 0x201D}, {0x201E, 0x201C}, {0x00BB, 0x00AB},
                                                   {0x201F, 0x201D}, {0x2033, 0x2033}, {0xFF02, 0xFF02},
                                                   {'"', 0x201D},    {0x201D, 0x201D}};
    for (const auto& [open, close] : forms) {
        const std::string o = utf8_of(open), c = utf8_of(close);
        INFO(describe_code_point(open) << " ... " << describe_code_point(close));
        const WebRead w = web_read("[Site " + o + "Lyon" + c + "]\n");
        CHECK(w.out == "[Site \"Lyon\"]" + sp(o.size() + c.size() - 2) + "\n");
        Notes expected;
        if (open != '"') expected.push_back(web_note(6, open, "\""));
        expected.push_back(web_note(unsigned(10 + o.size()), close, "\""));
        CHECK(web_notes(w.notes) == expected);
    }

    // Guillemets take the spaces next to them: « Lyon » is "Lyon".
    const WebRead french = web_read("[Event \u00AB\u00A0Lyon\u00A0\u00BB]\n");
    CHECK(french.out == "[Event \"Lyon\"]" + sp(6) + "\n");
    CHECK(web_notes(french.notes) == Notes{web_note(7, 0xAB, "\""), web_note(9, 0xA0, ""), web_note(15, 0xA0, ""),
                                           web_note(17, 0xBB, "\"")});
    CHECK(web_read("[Event \u00AB Lyon \u00BB]").out == "[Event \"Lyon\"]" + sp(4));

    // Several pairs on a line: rebuilt together, padded after the last ']'; the rest stays in place.
    const WebRead two = web_read("[White \u201CAlice\u201D] [Black \u201CRen\u00E9\u201D] ; from the web \u2013 page\n");
    CHECK(two.out == "[White \"Alice\"] [Black \"Ren\u00E9\"]" + sp(8) + " ; from the web \u2013 page\n");
    CHECK(web_notes(two.notes) == Notes{web_note(7, 0x201C, "\""), web_note(15, 0x201D, "\""),
                                        web_note(27, 0x201C, "\""), web_note(35, 0x201D, "\"")});

    // Unicode blanks around the name and the value read as one space each; blanks before '[' stay put.
    const WebRead blanks = web_read("[\u00A0Event\u2009\u201Cx\u201D\u00A0]");
    CHECK(blanks.out == "[ Event \"x\" ]" + sp(8));
    CHECK(web_notes(blanks.notes) == Notes{web_note(1, 0xA0, " "), web_note(8, 0x2009, " "),
                                           web_note(11, 0x201C, "\""), web_note(15, 0x201D, "\""),
                                           web_note(18, 0xA0, " ")});
    const WebRead indented = web_read("\u00A0[Event \u201Cx\u201D]");
    CHECK(indented.out == "  [Event \"x\"]" + sp(4));
    CHECK(web_notes(indented.notes) ==
          Notes{web_note(0, 0xA0, " "), web_note(9, 0x201C, "\""), web_note(13, 0x201D, "\"")});

    // A '"' inside typographic quotes is text: escaped, room permitting.
    CHECK(web_read("[Site \u201Ca \"b\" c\u201D]").out == "[Site \"a \\\"b\\\" c\"]  ");
    CHECK(web_read("[Site \u201C\"a\" \"b\" \"c\"\u201D]").out == "[Site \"\"a\" \"b\" \"c\"\"]    "); // no room

    // A tag pair in ASCII is the grammar's own: nothing in it changes, not even a dash in the value.
    CHECK_FALSE(web_read("[Event \"Lyon\u2013Gen\u00E8ve\"]\n[Round \"3\"]\n").changed);
    // A line starting with '[' that is no tag pair is left as it is; the movetext after it is read.
    const WebRead broken = web_read("[Event \u201CLyon\u2013Gen\u00E8ve\n1. c2\u2013d3");
    CHECK(broken.out == "[Event \u201CLyon\u2013Gen\u00E8ve\n1. c2-d3  ");
    CHECK(web_notes(broken.notes) == Notes{web_note(30, 0x2013, "-")});
}

TEST_CASE("comments are left alone, and an open comment ends before a tag pair line as the grammar ends it",
          "[parser][web]") {
    const WebRead r = web_read("1. c2\u2013d3 {a \u2013 b \u201Cc\u201D\u00A0d} ; e\u2013f \u00D7\n2. d3\u2013e4");
    CHECK(r.out == "1. c2-d3   {a \u2013 b \u201Cc\u201D\u00A0d} ; e\u2013f \u00D7\n2. d3-e4  ");
    CHECK(r.notes.size() == 2);
    // Open, then a tag pair line (typographic or not): the text after it is movetext again.
    CHECK(web_read("{ open \u2013\n[Event \u201Cx\u201D]\n1. c2\u2013d3").out ==
          "{ open \u2013\n[Event \"x\"]    \n1. c2-d3  ");
    CHECK(web_read("{ open \u2013\n[Event \"x\"]\n1. c2\u2013d3").out == "{ open \u2013\n[Event \"x\"]\n1. c2-d3  ");
    // Open, and no tag pair line after: all of it is the comment.
    CHECK_FALSE(web_read("{ open\n[not a tag \u2013\n1. c2\u2013d3").changed);
    // A `;` comment ends at the line end.
    CHECK(web_read("; a\u2013b\r\n1. c2\u2013d3").out == "; a\u2013b\r\n1. c2-d3  ");
}

TEST_CASE("an HTML table is read as a web table: cells as '|', rows as lines, the page around it as spaces",
          "[parser][web]") {
    const std::string page = "<p>x</p><table><tr><th>Move</th><th>Ren&eacute;</th></tr>"
                             "<tr><td>1.</td><td>c2&ndash;d3</td></tr></table><p>y</p>";
    const WebRead r = web_read(page);
    CHECK(r.changed);
    CHECK(r.out == sp(8) + "\n" + sp(6) +                                                 // <p>x</p><table>
                       "\n" + sp(3) + "|" + sp(3) + "Move|" + sp(4) + "|" + sp(3) + "Ren\u00E9" + sp(6) + "|" +
                       sp(4) + sp(5) +                                                    // the header row
                       "\n" + sp(3) + "|" + sp(3) + "1.|" + sp(4) + "|" + sp(3) + "c2-d3" + sp(6) + "|" +
                       sp(4) + sp(5) +                                                    // a row
                       sp(8) + sp(8));                                                    // </table><p>y</p>
    CHECK(web_notes(r.notes) == Notes{web_note(39, 0xE9, "\u00E9", true), web_note(78, 0x2013, "-", true)});

    // Rows and cells without a <table>: all of the text counts.
    CHECK(web_read("<td>1.</td><td>c2&ndash;d3").out == "|   1.|    |   c2-d3" + sp(6));
    // A piece that starts inside a table (the reader cut a page after a result): up to </table> counts,
    // and each later table starts on a line of its own.
    CHECK(web_read("1-0</td></tr></table><p>ad</p><table><tr><td>1.</td></tr></table>").out ==
          "1-0|" + sp(4) + sp(5) + sp(8) + sp(9) + "\n" + sp(6) + "\n" + sp(3) + "|   1.|" + sp(4) + sp(5) + sp(8));
    // Quoted attributes may hold '>'; <!-- --> and inline tags inside a token vanish; <script> is no text.
    const WebRead tags = web_read("<table><tr><td title=\"a>b\"><!-- c2-d3 --><span class='m'>c2</span>&ndash;"
                                  "<i>d3</i></td><script>x = '<td>'</script></tr></table>");
    CHECK(tags.out == "\n" + sp(6) + "\n" + sp(3) + "|" + sp(15) + sp(14) + sp(16) + "c2-d3" + sp(20) + "|" + sp(4) +
                          sp(18) + sp(9) + sp(5) + sp(8));
    CHECK(web_notes(tags.notes) == Notes{web_note(66, 0x2013, "-", true)});
    // <br> ends a line; a tag holding a line end keeps it; a '<' that opens no tag stays.
    CHECK(web_read("<td>1.<br>c2-d3 <span\nclass=x>d3</span> <b").out ==
          "|   1.\n   c2-d3 " + sp(5) + "\n" + sp(8) + "d3" + sp(7) + " <b");
}

TEST_CASE("HTML entities are decoded in table text and read like the characters they stand for",
          "[parser][web]") {
    // An unknown entity stays as written, and its ';' opens a line comment, as the grammar reads it.
    const WebRead r = web_read(
        "<td>&amp; &lt; &gt; &quot; &#39; &apos; &#150; &#x2014; &nbsp;x &#8211; &bogus; &#0; &ndash;");
    CHECK(r.out == "|   &" + sp(4) + " <" + sp(3) + " >" + sp(3) + " \"" + sp(5) + " '" + sp(4) + " '" + sp(5) +
                       " -" + sp(5) + " -" + sp(7) + " " + sp(6) + "x -" + sp(6) + " &bogus; &#0; &ndash;");
    CHECK(web_notes(r.notes) ==
          Notes{web_note(4, '&', "&", true), web_note(10, '<', "<", true), web_note(15, '>', ">", true),
                web_note(20, '"', "\"", true), web_note(27, '\'', "'", true), web_note(33, '\'', "'", true),
                web_note(40, 0x2013, "-", true), web_note(47, 0x2014, "-", true), web_note(56, 0xA0, " ", true),
                web_note(64, 0x2013, "-", true)});
    // A name in a header cell keeps its letters: "Ren&eacute;" reads "René" and spaces.
    CHECK(web_read("<th>Ren&eacute;</th>").out == "|   Ren\u00E9" + sp(6) + "|" + sp(4));
    // Comments keep their entities as written.
    CHECK(web_read("<td>{R&eacute;sum&eacute; &ndash; ok}</td>").out ==
          "|   {R&eacute;sum&eacute; &ndash; ok}|" + sp(4));
    // Without a table nothing is HTML, not even a table named in a comment.
    CHECK_FALSE(web_read("1. c2-d3 {see <table> here} &ndash; a < b & c").changed);
}

TEST_CASE("a record pasted from a web page reads as the same game as its plain text", "[parser][web]") {
    const std::string page =
        "<html><head><style>td { color: red }</style></head>\n"
        "<body><p>Game of the day: 1. a2-a3</p>\n"
        "<table class=\"game\" title=\"a>b\">\n"
        "  <tr><th>#</th><th>Alice</th><th>Ren&eacute;</th></tr>\n"
        "  <tr><td>1</td><td>c2&ndash;d3</td><td>f7&#8211;e6</td></tr>\n"
        "  <tr>\n    <td>2</td>\n    <td>d3\u2013e4</td>\n    <td>e6&minus;d5</td>\n  </tr>\n"
        "  <tr><td>3.</td><td><b>e4</b>&times;d5</td><td>&nbsp;</td></tr>\n"
        "</table><p>&copy; 2024 &mdash; all rights reserved</p></body></html>\n";
    std::string out;
    std::vector<WebTextNote> notes;
    REQUIRE(normalize_web_text(page, out, notes));
    const auto games = read_records(out);
    REQUIRE(games.size() == 1);
    const GameRecord& g = games[0];
    CHECK(g.error_count() == 0);
    const auto plain = read_records("1. c2-d3 f7-e6 2. d3-e4 e6-d5 3. e4xd5 *");
    REQUIRE(plain.size() == 1);
    CHECK(fuzz::same_moves(g.main, plain[0].main));
    CHECK(g.main.plies.size() == 5);
    REQUIRE(g.tag("White"));
    CHECK(*g.tag("White") == "Alice");
    REQUIRE(g.tag("Black"));
    CHECK(*g.tag("Black") == "Ren\u00E9");
    // Line numbers of the output are those of the input.
    CHECK(std::count(out.begin(), out.end(), '\n') >= std::count(page.begin(), page.end(), '\n'));

    const std::string typed = "[Event \u201CLyon\u2013Gen\u00E8ve\u201D]\n[White \u00AB\u00A0Alice\u00A0\u00BB]\n\n"
                              "1.\u00A0c2\u2013d3 f7\u2013e6 2. d3\u2013e4 e6\u2212d5 3. e4\u00D7d5 *";
    std::string fixed;
    REQUIRE(normalize_web_text(typed, fixed, notes));
    const auto read = read_records(fixed);
    REQUIRE(read.size() == 1);
    CHECK(read[0].error_count() == 0);
    CHECK(fuzz::same_moves(read[0].main, plain[0].main));
    REQUIRE(read[0].tag("Event"));
    CHECK(*read[0].tag("Event") == "Lyon\u2013Gen\u00E8ve");
    REQUIRE(read[0].tag("White"));
    CHECK(*read[0].tag("White") == "Alice");
}

TEST_CASE("characters read as something else have names for messages", "[parser][web]") {
    CHECK(describe_code_point(0x2013) == "an en dash (U+2013)");
    CHECK(describe_code_point(0x00A0) == "a non-breaking space (U+00A0)");
    CHECK(describe_code_point(0x00D7) == "a multiplication sign (U+00D7)");
    CHECK(describe_code_point(0x201C) == "a left double quotation mark (U+201C)");
    CHECK(describe_code_point(0x200B) == "a zero-width space (U+200B)");
    CHECK(describe_code_point(0x00E9) == "the character U+00E9");
    CHECK(describe_code_point(0x1F600) == "the character U+1F600");
}

TEST_CASE("the web-text pass keeps the length and every line end of any text", "[parser][web]") {
    const std::string samples[] = {
        "[Event \u201CLyon\u2013Gen\u00E8ve\u201D] [Site \u00AB\u00A0x\u00A0\u00BB]\r\n[Round \"a\\\"b\"]\n"
        "{open \u2013\n[White \u201CA \"b\"\u201D]\n1.\u00A0c2\u2013d3 f7\u00D7e6\u200B; n\u2013\n2. (a1\u2212a2) 0\u20131\n",
        "<p>x&amp;</p>\n<TABLE border=1><tr><th>#</th><th>Ren&eacute;</th></tr>\n<tr><td title='a>b'>1</td>"
        "<td><b>c2</b>&ndash;d3 {a<i>b</i>}</td><td>; x<br>f7&#8211;e6</td></tr><!-- c --><script>'<td>'</script>"
        "</table>\n<table><tr><td>&#x2013;&nbsp;&bogus;&#0;</td></tr></table>< b <a href=\"x\n",
    };
    for (const std::string& s : samples) {
        INFO(s);
        REQUIRE(web_invariants(s).empty());
        for (std::size_t i = 0; i < s.size(); ++i)
            for (std::size_t j = i + 1; j <= s.size() && j <= i + 48; ++j) {
                const std::string part = s.substr(i, j - i);
                const std::string why = web_invariants(part);
                if (!why.empty()) FAIL_CHECK(why << " in [" << part << "]");
            }
        for (std::size_t i = 0; i < s.size(); ++i)
            for (const char* insert : {"<", ">", "\"", "&", "\n", "{", "}", "[", "\xE2\x80\x93", "\xC2"}) {
                std::string mutated = s;
                mutated.insert(i, insert);
                std::string why = web_invariants(mutated);
                if (!why.empty()) FAIL_CHECK(why << " in [" << mutated << "]");
                mutated = s;
                mutated.erase(i, 1);
                why = web_invariants(mutated);
                if (!why.empty()) FAIL_CHECK(why << " in [" << mutated << "]");
            }
    }
    // Random strings of pieces that matter, broken UTF-8 included.
    const char* pieces[] = {"\u2013", "\u2212", "\u00D7", "\u201C", "\u201D", "\u00AB", "\u00BB", "\u00A0",
                            "\u200B", "\uFEFF", "<td>", "</td>", "<tr>", "<table>", "</table>", "<th x='>'>",
                            "<b>", "</b>", "<br>", "<!--", "-->", "<script>", "</script>", "&nbsp;", "&ndash;",
                            "&#8211;", "&#x2013;", "&eacute;", "&#123;", "&", "<", ">", "=\"", "\"", "'", "[",
                            "]", "Event ", "{", "}", ";", "\\", "\n", "\r", "\t", " ", "b2", "-", "1-0", "a",
                            "\xC2", "\xE2\x80", "\xFF"};
    std::mt19937 rng(20240611);
    for (int round = 0; round < 20000; ++round) {
        std::string s;
        for (int k = int(rng() % 40); k > 0; --k) s += pieces[rng() % std::size(pieces)];
        const std::string why = web_invariants(s);
        if (!why.empty()) FAIL_CHECK(why << " in [" << s << "]");
    }
}
