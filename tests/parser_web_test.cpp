// Text pasted from web pages and word processors (parser/web_text.hpp): read as the grammar's ASCII
// without changing the byte length, so offsets found in the output point into the input.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <cstdio>
#include <random>

#include "fuzz/record_checks.hpp"
#include "parser/encoding.hpp"
#include "parser/reader.hpp"
#include "parser/web_text.hpp"

using namespace gounki;
using namespace gounki::parser;
using namespace gounki::test;
namespace fs = std::filesystem;

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
        v.push_back(std::to_string(n.offset) + " " + cp + " '" + std::string(n.read_as()) + "'" + (n.entity ? "&" : ""));
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

TEST_CASE("the cheap web-text test passes over plain ASCII records and catches any byte that may change", "[parser][web]") {
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
        const bool special = std::any_of(text.begin(), text.end(),
                                         [](char c) { return static_cast<unsigned char>(c) >= 0x80 || c == '<' || c == '&'; });
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
    CHECK(web_notes(r.notes) == Notes{web_note(5, 0x2013, "-"), web_note(13, 0xD7, "x"), web_note(19, 0x2013, "-")});
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
    for (const char32_t space : {0x00A0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009,
                                 0x200A, 0x202F, 0x205F, 0x3000}) {
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

TEST_CASE("tag pair values between typographic quotes are read between '\"', their text left alone", "[parser][web]") {
    const WebRead r = web_read("[Event \u201CLyon\u2013Gen\u00E8ve\u201D]\n1. c2\u2013d3");
    CHECK(r.out == "[Event \"Lyon\u2013Gen\u00E8ve\"]" + sp(4) + "\n1. c2-d3  ");
    CHECK(web_notes(r.notes) == Notes{web_note(7, 0x201C, "\""), web_note(24, 0x201D, "\""), web_note(34, 0x2013, "-")});

    // Every quote form, and a mix with '"'.
    const std::pair<char32_t, char32_t> forms[] = {{0x201C, 0x201D}, {0x201E, 0x201C}, {0x00BB, 0x00AB}, {0x201F, 0x201D},
                                                   {0x2033, 0x2033}, {0xFF02, 0xFF02}, {'"', 0x201D},    {0x201D, 0x201D}};
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
    CHECK(web_notes(french.notes) ==
          Notes{web_note(7, 0xAB, "\""), web_note(9, 0xA0, ""), web_note(15, 0xA0, ""), web_note(17, 0xBB, "\"")});
    CHECK(web_read("[Event \u00AB Lyon \u00BB]").out == "[Event \"Lyon\"]" + sp(4));

    // Several pairs on a line: rebuilt together, padded after the last ']'; the rest stays in place.
    const WebRead two = web_read("[White \u201CAlice\u201D] [Black \u201CRen\u00E9\u201D] ; from the web \u2013 page\n");
    CHECK(two.out == "[White \"Alice\"] [Black \"Ren\u00E9\"]" + sp(8) + " ; from the web \u2013 page\n");
    CHECK(web_notes(two.notes) ==
          Notes{web_note(7, 0x201C, "\""), web_note(15, 0x201D, "\""), web_note(27, 0x201C, "\""), web_note(35, 0x201D, "\"")});

    // Unicode blanks around the name and the value read as one space each; blanks before '[' stay put.
    const WebRead blanks = web_read("[\u00A0Event\u2009\u201Cx\u201D\u00A0]");
    CHECK(blanks.out == "[ Event \"x\" ]" + sp(8));
    CHECK(web_notes(blanks.notes) ==
          Notes{web_note(1, 0xA0, " "), web_note(8, 0x2009, " "), web_note(11, 0x201C, "\""), web_note(15, 0x201D, "\""),
                web_note(18, 0xA0, " ")});
    const WebRead indented = web_read("\u00A0[Event \u201Cx\u201D]");
    CHECK(indented.out == "  [Event \"x\"]" + sp(4));
    CHECK(web_notes(indented.notes) == Notes{web_note(0, 0xA0, " "), web_note(9, 0x201C, "\""), web_note(13, 0x201D, "\"")});

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

TEST_CASE("comments are left alone, and an open comment ends before a tag pair line as the grammar ends it", "[parser][web]") {
    const WebRead r = web_read("1. c2\u2013d3 {a \u2013 b \u201Cc\u201D\u00A0d} ; e\u2013f \u00D7\n2. d3\u2013e4");
    CHECK(r.out == "1. c2-d3   {a \u2013 b \u201Cc\u201D\u00A0d} ; e\u2013f \u00D7\n2. d3-e4  ");
    CHECK(r.notes.size() == 2);
    // Open, then a tag pair line (typographic or not): the text after it is movetext again.
    CHECK(web_read("{ open \u2013\n[Event \u201Cx\u201D]\n1. c2\u2013d3").out == "{ open \u2013\n[Event \"x\"]    \n1. c2-d3  ");
    CHECK(web_read("{ open \u2013\n[Event \"x\"]\n1. c2\u2013d3").out == "{ open \u2013\n[Event \"x\"]\n1. c2-d3  ");
    // Open, and no tag pair line after: all of it is the comment.
    CHECK_FALSE(web_read("{ open\n[not a tag \u2013\n1. c2\u2013d3").changed);
    // A `;` comment ends at the line end.
    CHECK(web_read("; a\u2013b\r\n1. c2\u2013d3").out == "; a\u2013b\r\n1. c2-d3  ");
}

TEST_CASE("an HTML table is read as a web table: cells as '|', rows as lines, the page around it as spaces", "[parser][web]") {
    const std::string page = "<p>x</p><table><tr><th>Move</th><th>Ren&eacute;</th></tr>"
                             "<tr><td>1.</td><td>c2&ndash;d3</td></tr></table><p>y</p>";
    const WebRead r = web_read(page);
    CHECK(r.changed);
    CHECK(r.out ==
          sp(8) + "\n" + sp(6) + // <p>x</p><table>
              "\n" + sp(3) + "|" + sp(3) + "Move|" + sp(4) + "|" + sp(3) + "Ren\u00E9" + sp(6) + "|" + sp(4) +
              sp(5) + // the header row
              "\n" + sp(3) + "|" + sp(3) + "1.|" + sp(4) + "|" + sp(3) + "c2-d3" + sp(6) + "|" + sp(4) + sp(5) + // a row
              sp(8) + sp(8)); // </table><p>y</p>
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
    CHECK(tags.out ==
          "\n" + sp(6) + "\n" + sp(3) + "|" + sp(15) + sp(14) + sp(16) + "c2-d3" + sp(20) + "|" + sp(4) + sp(18) + sp(9) + sp(5) +
              sp(8));
    CHECK(web_notes(tags.notes) == Notes{web_note(66, 0x2013, "-", true)});
    // <br> ends a line; a tag holding a line end keeps it; a '<' that opens no tag stays.
    CHECK(web_read("<td>1.<br>c2-d3 <span\nclass=x>d3</span> <b").out ==
          "|   1.\n   c2-d3 " + sp(5) + "\n" + sp(8) + "d3" + sp(7) + " <b");
}

TEST_CASE("HTML entities are decoded in table text and read like the characters they stand for", "[parser][web]") {
    // An unknown entity stays as written, and its ';' opens a line comment, as the grammar reads it.
    const WebRead r = web_read("<td>&amp; &lt; &gt; &quot; &#39; &apos; &#150; &#x2014; &nbsp;x &#8211; &bogus; &#0; &ndash;");
    CHECK(r.out ==
          "|   &" + sp(4) + " <" + sp(3) + " >" + sp(3) + " \"" + sp(5) + " '" + sp(4) + " '" + sp(5) + " -" + sp(5) + " -" +
              sp(7) + " " + sp(6) + "x -" + sp(6) + " &bogus; &#0; &ndash;");
    CHECK(web_notes(r.notes) ==
          Notes{web_note(4, '&', "&", true), web_note(10, '<', "<", true), web_note(15, '>', ">", true),
                web_note(20, '"', "\"", true), web_note(27, '\'', "'", true), web_note(33, '\'', "'", true),
                web_note(40, 0x2013, "-", true), web_note(47, 0x2014, "-", true), web_note(56, 0xA0, " ", true),
                web_note(64, 0x2013, "-", true)});
    // A name in a header cell keeps its letters: "Ren&eacute;" reads "René" and spaces.
    CHECK(web_read("<th>Ren&eacute;</th>").out == "|   Ren\u00E9" + sp(6) + "|" + sp(4));
    // Comments keep their entities as written.
    CHECK(web_read("<td>{R&eacute;sum&eacute; &ndash; ok}</td>").out == "|   {R&eacute;sum&eacute; &ndash; ok}|" + sp(4));
    // Without a table nothing is HTML, not even a table named in a comment.
    CHECK_FALSE(web_read("1. c2-d3 {see <table> here} &ndash; a < b & c").changed);
}

TEST_CASE("a record pasted from a web page reads as the same game as its plain text", "[parser][web]") {
    const std::string page = "<html><head><style>td { color: red }</style></head>\n"
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
    const char* pieces[] = {"\u2013",  "\u2212",  "\u00D7",   "\u201C",   "\u201D", "\u00AB",   "\u00BB",    "\u00A0",
                            "\u200B",  "\uFEFF",  "<td>",     "</td>",    "<tr>",   "<table>",  "</table>",  "<th x='>'>",
                            "<b>",     "</b>",    "<br>",     "<!--",     "-->",    "<script>", "</script>", "&nbsp;",
                            "&ndash;", "&#8211;", "&#x2013;", "&eacute;", "&#123;", "&",        "<",         ">",
                            "=\"",     "\"",      "'",        "[",        "]",      "Event ",   "{",         "}",
                            ";",       "\\",      "\n",       "\r",       "\t",     " ",        "b2",        "-",
                            "1-0",     "a",       "\xC2",     "\xE2\x80", "\xFF"};
    std::mt19937 rng(20240611);
    for (int round = 0; round < 20000; ++round) {
        std::string s;
        for (int k = int(rng() % 40); k > 0; --k) s += pieces[rng() % std::size(pieces)];
        const std::string why = web_invariants(s);
        if (!why.empty()) FAIL_CHECK(why << " in [" << s << "]");
    }
}
