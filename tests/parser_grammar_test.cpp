// Game records: the grammar alone (the syntax tree, unknown tokens, nesting limits), the splitter
// (with and without its shortcuts, whole or in pieces), reading several games at once, and UTF-8 and
// Windows-1252.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <sstream>

#include "parser/encoding.hpp"
#include "parser/reader.hpp"
#include "parser/splitter.hpp"
#include "parser/syntax.hpp"
#include "parser/writer.hpp"

using namespace gounki;
using namespace gounki::parser;
using namespace gounki::test;
namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// The grammar alone.

TEST_CASE("the grammar reads every kind of movetext element into the syntax tree", "[parser][grammar]") {
    ChunkSyntax out;
    parse_chunk("[Event \"x\"]\n12... a1-Out b2 x c3 $14 !? {c} ; line\n (a6 * a7, b8, OUT) c5*d5+,e5,f6+ 1/2-1/2", out);
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
    // too-deep alone: the rest of the game is not read, so neither the variation that was one too
    // deep (it was "never closed", then empty) nor the parentheses that close the others (each was
    // "unmatched", 4,936 errors here) are said again. The next game is read.
    std::string nested = "1. c2-d3 ";
    for (int i = 0; i < 1000; ++i) nested += "(1. b2-b3 ";
    nested += std::string(1000, ')') + " f7-e6 *";
    const auto both = read_records("[Game \"Gounki\"]\n\n" + nested + "\n\n[Game \"Gounki\"]\n\n1. c2-d3 *\n");
    REQUIRE(both.size() == 2);
    REQUIRE(both[0].diagnostics.size() == 1);
    CHECK(both[0].diagnostics[0].code == "too-deep");
    CHECK(both[0].diagnostics[0].line == 3);
    CHECK(both[0].diagnostics[0].column == 10 + 64 * 10); // the 65th '('
    CHECK(both[1].status == GameStatus::valid);
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
            texts.push_back(slurp(entry.path()));
        }
    // Mutants: bytes that decide cuts dropped into the files at random.
    std::mt19937 rng(77);
    const std::string pokes[] = {"\n", "[",  "[E \"",        "{",   "}",     ";",       "(",  ")",
                                 "*",  " *", "* ",           "1-0", " 0-1 ", "1/2-1/2", "1",  "0",
                                 "\"", "\\", "\xEF\xBB\xBF", "\f",  "\r\n",  "*out",    "* ,"};
    const std::size_t files = texts.size();
    for (std::size_t i = 0; i < files; ++i)
        for (int m = 0; m < 20; ++m) {
            std::string t = texts[i];
            for (int k = 0; k < 4; ++k) t.insert(rng() % (t.size() + 1), pokes[rng() % std::size(pokes)]);
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
            texts.push_back(slurp(entry.path()));
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
    const std::string pokes[] = {"\n",
                                 "[",
                                 "\n[E \"1\"]\n",
                                 "{",
                                 "}",
                                 ";",
                                 "(",
                                 ")",
                                 "*",
                                 " *\n\n",
                                 "1-0\n\n",
                                 " 0-1 ",
                                 "1/2-1/2",
                                 "\"",
                                 "\xE9",
                                 "\xEF\xBB\xBF",
                                 "| a | b |\n",
                                 "((((",
                                 "$300",
                                 "\n.\n",
                                 "\n|\n",
                                 "\n{ open\n",
                                 " x\n[F \"2\"]",
                                 "\n  [G \"3\"]\n",
                                 "1-0x",
                                 "*"};
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
        {"ab\xC0\xAF", false, 2}, // overlong '/'
        {"\xED\xA0\x80", false, 0}, // surrogate
        {"xyz\xF4\x90\x80\x80", false, 3}, // past U+10FFFF
        {"M\xFCller", false, 1}, // Latin-1
        {"end\xE2\x82", false, 3}, // truncated
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
