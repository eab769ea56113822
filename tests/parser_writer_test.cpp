// Game records written and read back: the broken samples' documented messages, every golden file
// and thousands of random games (Gounki, Gomoku, Ninuki) through write and read, stone-game record
// errors, and every legal move resolving from its canonical and marker-less text.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <algorithm>
#include <random>
#include <tuple>

#include "core/gounki/notation.hpp"
#include "parser/reader.hpp"
#include "parser/writer.hpp"

using namespace gounki;
using namespace gounki::parser;
using namespace gounki::test;
namespace fs = std::filesystem;

namespace {

// Random lines with NAGs, comments full of record syntax and variations two deep.
RandomLineStyle record_style() {
    RandomLineStyle s;
    s.max_depth = 2;
    s.variation_one_in = 15;
    s.nags = true;
    s.odd_comments = true;
    return s;
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
            const std::string d = compare_lines(x.variations[v], y.variations[v], at + " variation " + std::to_string(v));
            if (!d.empty()) return d;
        }
    }
    return {};
}

std::string compare_records(const GameRecord& a, const GameRecord& b) {
    if (!(a.start == b.start)) return "start positions differ";
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

} // namespace

// ---------------------------------------------------------------------------------------------
// Writer round trips.

TEST_CASE("every broken sample says what gounki validate prints for it, word for word", "[parser][samples]") {
    const fs::path dir = source_path("samples/broken");
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
            const std::string text = slurp(entry.path());
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
                if (first[i].status == GameStatus::valid) { CHECK(second[i].diagnostics.empty()); }
                CHECK(write_record(second[i]) == write_record(first[i])); // canonical text is a fixed point
            }
        }
    }
}

TEST_CASE("thousands of random legal games survive write and read with the same moves", "[parser][writer]") {
    std::mt19937 rng(20261102);
    const int count = 2500;
    std::vector<GameRecord> games;
    std::string text;
    for (int i = 0; i < count; ++i) {
        GameRecord g;
        g.tags = {{"Event", "Random"},
                  {"Round", std::to_string(i + 1)},
                  {"White", "A \"quoted\" name"},
                  {"Black", "B\\C"},
                  {"Annotator", "fixed seed"}};
        if (i % 10 == 9) { // a set-up start: a few random moves in, numbered from 20
            Line prefix = random_line(rng, Position::start(), 1 + int(rng() % 7), record_style(), 3);
            UndoRecord u;
            for (const Ply& p : prefix.plies) g.start.as_gounki().do_move(p.move, u);
            g.first_number = 20;
        }
        const bool to_the_end = rng() % 4 != 0;
        g.main = random_line(rng, g.start.as_gounki(), to_the_end ? 1000 : int(rng() % 60), record_style());
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

TEST_CASE("random Gomoku, Ninuki, Pente and Renju games survive write and read with the same moves and rules",
          "[parser][writer][stones]") {
    std::mt19937 rng(20261121);
    const stones::Rules rule_sets[] = {
        stones::Rules::defaults(GameKind::gomoku),
        [] {
            auto r = stones::Rules::defaults(GameKind::gomoku);
            r.size = 19;
            return r;
        }(),
        stones::Rules::defaults(GameKind::ninuki),
        [] {
            auto r = stones::Rules::defaults(GameKind::ninuki);
            r.size = 15;
            r.no_double_three = false;
            return r;
        }(),
        [] {
            auto r = stones::Rules::defaults(GameKind::ninuki);
            r.endgame_capture = r.no_double_three = false;
            return r;
        }(),
        stones::Rules::defaults(GameKind::pente),
        [] {
            auto r = stones::Rules::defaults(GameKind::pente);
            r.tournament_rule = false;
            return r;
        }(),
        stones::Rules::defaults(GameKind::renju),
    };
    std::vector<GameRecord> games;
    std::string text;
    int ended = 0;
    for (int i = 0; i < 300; ++i) {
        GameRecord g;
        const stones::Rules rules = rule_sets[std::size_t(i) % std::size(rule_sets)];
        g.kind = rules.kind;
        g.tags = {{"Event", "Random stones"}, {"Round", std::to_string(i + 1)}};
        g.start = stones::StonePosition(rules);
        if (i % 7 == 6) { // a set-up start with White to move
            stones::StoneUndo u;
            g.start.as_stones().play(Move::placement(stones::make_point(rules.size / 2, rules.size / 2)), u);
        }
        stones::StonePosition pos = g.start.as_stones();
        stones::StoneUndo undo;
        // Moves near the centre, so that lines, captures and forbidden points happen.
        for (int ply = 0; ply < 250 && !pos.game_over(); ++ply) {
            std::vector<Move> legal = pos.legal_moves();
            // Pente's tournament rule: a move that breaks it is legal but read with a warning.
            std::erase_if(legal, [&](Move c) { return pos.breaks_tournament_rule(c.point()); });
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

TEST_CASE("every legal move of random positions resolves from its canonical and its marker-less text", "[parser]") {
    // The reader's quick path and core's resolve_move must agree on every move; written without
    // markers, core still finds the move and warns.
    std::mt19937 rng(7);
    int checked = 0;
    for (int game = 0; game < 200; ++game) {
        std::string text;
        std::string bare;
        int ply = 0;
        play_random_game(rng, [&](const Position& pos, Move m) {
            std::string t = move_to_text(pos, m);
            if (ply % 2 == 0) text += std::to_string(ply / 2 + 1) + ". ";
            text += t + " ";
            t.erase(std::remove(t.begin(), t.end(), '+'), t.end());
            std::replace(t.begin(), t.end(), 'x', '-');
            bare += t + " ";
            ++ply;
        });
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

namespace {

// The main-line moves of every game of `text`, as canonical move texts.
std::vector<std::vector<std::string>> main_lines(const std::string& text) {
    std::vector<std::vector<std::string>> out;
    for (const GameRecord& g : read_records(text)) {
        out.emplace_back();
        Position pos = g.start.as_gounki();
        for (const Ply& ply : g.main.plies) {
            out.back().push_back(move_to_text(pos, ply.move));
            UndoRecord undo;
            pos.do_move(ply.move, undo);
        }
    }
    return out;
}

} // namespace

TEST_CASE("gounki format writes canonical records, fixes warnings, keeps broken games as written", "[parser][writer][cli]") {
    TempDir dir("format");
    // Game 1: wrong markers, an en dash, curly quotes, a comment, a variation, no result marker.
    // Game 2: an illegal move (partial). Game 3: canonical but for a wrong move number.
    const std::string game1 = "[Event \xE2\x80\x9C"
                              "Club\xE2\x80\x9D]\n[White \"Anne\"]\n\n"
                              "1. c2\xE2\x80\x93"
                              "d3 f7-e6 {a plan} 2. d3-e4+ (2. b2-c2) e6-d5 3. e4-d5 e7xe6 4. d1-e2\n\n";
    const std::string game2 = "[Event \"Broken\"]\n\n1. c2-d3 f7-e6 2. d3-d7 e7-e6 *\n\n";
    const std::string game3 = "[Event \"Third\"]\n[Result \"*\"]\n\n1. c2-d3 f7-e6 5. b2-c2 *\n";
    const std::string messy = dir.file("messy.gpn");
    write_text(messy, game1 + game2 + game3);
    const std::vector<GameRecord> before = read_records(game1 + game2 + game3);
    REQUIRE(before.size() == 3);
    REQUIRE(before[0].status == GameStatus::valid);
    REQUIRE(before[1].status == GameStatus::partial);
    REQUIRE(before[0].diagnostics.size() >= 5);

    SECTION("-o writes the canonical text: same moves, no warning left, the broken game as written") {
        const std::string out = dir.file("out.gpn");
        const CliRun r = run_gounki("format -o " + shell_quoted(out) + " " + shell_quoted(messy));
        CHECK(r.status == 1); // a game kept as written
        CHECK(r.err.find("messy.gpn:8:19: warning: game 2 kept as written: 2. d3-d7: d3-d7 is not a legal move") !=
              std::string::npos);
        CHECK(r.err.find("[illegal-move] [kept-as-written]") != std::string::npos);
        CHECK(r.err.find("3 games in 1 file: 2 formatted (" + std::to_string(before[0].diagnostics.size() + before[2].diagnostics.size()) +
                         " warnings fixed)") != std::string::npos);
        // A warning the rewritten text still has (a Pente game's second stone near the centre) is not fixed.
        const CliRun pente = run_gounki("format -o " + shell_quoted(dir.file("pente.pgn")) + " " +
                                        shell_quoted(source_path("tests/data/records/pente_org.pgn").string()));
        CHECK(pente.err.find("2 games in 1 file: 2 formatted (0 warnings fixed)") != std::string::npos);
        // A result * where the board has decided the game: the board's result is written.
        const CliRun won = run_gounki("format -o " + shell_quoted(dir.file("won.gpn")) + " " +
                                      shell_quoted(source_path("samples/broken/23-result-incomplete.gpn").string()));
        CHECK(won.status == 0);
        CHECK(contains(won.err, "1 formatted (1 warning fixed)"));
        const CliRun again = run_gounki("validate " + shell_quoted(dir.file("won.gpn")));
        CHECK(again.status == 0);
        CHECK_FALSE(contains(again.out, "result-incomplete"));
        const std::string text = slurp(out);
        CHECK(text.find(game2) != std::string::npos);
        CHECK(text.find("{a plan}") != std::string::npos);
        CHECK(text.find("(2. b2-c2)") != std::string::npos);
        CHECK(text.find("[Event \"Club\"]") != std::string::npos);
        CHECK(main_lines(text) == main_lines(game1 + game2 + game3));
        const std::vector<GameRecord> after = read_records(text);
        REQUIRE(after.size() == 3);
        CHECK(after[0].diagnostics.empty());
        CHECK(after[2].diagnostics.empty());
        CHECK(after[1].status == GameStatus::partial);
        CHECK(run_gounki("validate " + shell_quoted(out))
                  .out.find("3 games in 1 file: 2 valid, 0 invalid, 1 partial; 1 error, 0 warnings") != std::string::npos);
    }
    SECTION("--check lists a file that is not canonical; --in-place rewrites it once; a second run changes nothing") {
        const std::string good = dir.file("good.gpn");
        write_text(good, game1 + game3);
        CliRun r = run_gounki("format --check " + shell_quoted(good));
        CHECK(r.status == 1);
        CHECK(r.out == good + "\n");
        CHECK(slurp(good) == game1 + game3);
        r = run_gounki("format --in-place " + shell_quoted(good));
        CHECK(r.status == 0);
        CHECK(r.err.find("1 file rewritten") != std::string::npos);
        const std::string once = slurp(good);
        CHECK(once != game1 + game3);
        CHECK(main_lines(once) == main_lines(game1 + game3));
        r = run_gounki("format --check " + shell_quoted(good));
        CHECK(r.status == 0);
        CHECK(r.out.empty());
        CHECK(run_gounki("format --in-place " + shell_quoted(good)).err.find("0 files rewritten") != std::string::npos);
        CHECK(slurp(good) == once);
        CHECK(!fs::exists(good + ".part"));
    }
    SECTION("a broken game in Windows-1252 is kept as written, converted to UTF-8") {
        const std::string latin = dir.file("latin.gpn");
        write_text(latin, "[White \"M\xFCller\"]\n\n1. c2-d3 f7-e6 2. d3-d7 *\n");
        const CliRun r = run_gounki("format " + shell_quoted(latin));
        CHECK(r.status == 1);
        CHECK(r.out == "[White \"M\xC3\xBCller\"]\n\n1. c2-d3 f7-e6 2. d3-d7 *\n");
    }
    SECTION("a game kept as written that shares a line with another is copied alone, once") {
        // Two games on one line (PGN and SGF allow it): the broken one first, then second. Copied
        // by whole lines, the first was lost (its line was the next game's) or the second copied
        // twice; format of format must also give the same text.
        const std::string broken = "[Game \"Gounki\"] [White \"A\"] [Result \"*\"] 1. d3-d5 f7-e6 *";
        const std::string fine = "[Game \"Gounki\"] [White \"Z\"] [Result \"*\"] 1. c2-d3 *";
        const std::string sgf_broken = "(;GM[4]SZ[15]PB[broken];B[hh];W[hh])", sgf_fine = "(;GM[4]SZ[15]PB[fine];B[hh];W[ii])";
        for (const auto& [name, text, kept_text] :
             {std::tuple<std::string, std::string, std::string>{"shared1.gpn", broken + " " + fine + "\n", broken + " \n"},
              {"shared2.gpn", fine + " " + broken + "\n", broken + "\n"},
              {"shared1.sgf", sgf_broken + sgf_fine + "\n", sgf_broken + "\n"},
              {"shared2.sgf", sgf_fine + sgf_broken + "\n", sgf_broken + "\n"}}) {
            INFO(name);
            const std::string path = dir.file(name);
            write_text(path, text);
            const CliRun once = run_gounki("format " + shell_quoted(path));
            CHECK(once.status == 1);
            CHECK(count_of(once.out, kept_text) == 1);
            CHECK(count_of(once.out, "\"Z\"") + count_of(once.out, "PB[fine]") == 1);
            CHECK(count_of(once.out, "\"A\"") + count_of(once.out, "PB[broken]") == 1);
            write_text(path + ".out", once.out);
            CHECK(run_gounki("format " + shell_quoted(path + ".out")).out == once.out);
        }
        // Each game's text read as the reader read it: here the first in UTF-8, the second (kept)
        // in Windows-1252 on the same line; and an SGF game after Windows-1252 bytes 0x80-0xBF,
        // which the place counting took for UTF-8 continuation bytes (the copy began early).
        const std::string mixed = dir.file("mixed.gpn"), latin_sgf = dir.file("latin.sgf");
        write_text(mixed, "[Game \"Gomoku\"]\n\n1. h8 i9 {\xC3\xA9t\xC3\xA9} * [Game \"Gomoku\"] {\xE9} 1. h8 h8 *\n");
        CliRun r = run_gounki("format " + shell_quoted(mixed));
        CHECK(contains(r.out, "{été}"));
        CHECK(contains(r.out, "\n[Game \"Gomoku\"] {\xC3\xA9} 1. h8 h8 *\n"));
        write_text(latin_sgf, "(;GM[4]SZ[15]C[\xA3 5];B[hh];W[ii])(;GM[4]SZ[15];B[hh];W[hh])\n");
        r = run_gounki("format " + shell_quoted(latin_sgf));
        CHECK(contains(r.out, "C[\xC2\xA3 5]"));
        CHECK(contains(r.out, "\n(;GM[4]SZ[15];B[hh];W[hh])\n"));
        // A kept text that starts with % after other text on its line stays no escape line.
        const std::string percent = dir.file("percent.gpn");
        write_text(percent, "[Game \"Gomoku\"]\n\n1. h8 i9 * %junk\n");
        r = run_gounki("format " + shell_quoted(percent));
        CHECK(contains(r.out, "\n %junk\n"));
        write_text(percent + ".out", r.out);
        CHECK(run_gounki("format " + shell_quoted(percent + ".out")).out == r.out);
    }
    SECTION("each file keeps its format: an SGF file is written as SGF") {
        const std::string sgf = dir.file("game.sgf");
        write_text(sgf, "(;GM[4]SZ[15];B[hh];W[hi]\n;B[ih])");
        const CliRun r = run_gounki("format " + shell_quoted(sgf));
        CHECK(r.status == 0);
        CHECK(r.out.rfind("(;", 0) == 0);
        CHECK(run_shell(gounki_command() + " format " + shell_quoted(sgf) + " | " + gounki_command() + " validate -")
                  .out.find("1 valid") != std::string::npos);
        CHECK(run_gounki("format " + shell_quoted(sgf) + " " + shell_quoted(messy)).status == 2); // two formats, one output
    }
    SECTION("usage errors change nothing") {
        CHECK(run_gounki("format -o x.gpn --in-place " + shell_quoted(messy)).status == 2);
        CHECK(run_gounki("format --in-place -").status == 2);
        CHECK(run_gounki("format " + shell_quoted(dir.file("missing.gpn"))).status == 2);
        CHECK(run_gounki("format").status == 2);
        CHECK(count_of(slurp(messy), "[Event") == 3);
        CHECK(slurp(messy) == game1 + game2 + game3);
    }
}

TEST_CASE("a second mover's move after a comment or a variation carries its number, in each game's own order",
          "[parser][writer][stones]") {
    // Read loosely numbered, written with the numbers a reader needs: `N...` after a closed
    // variation or a comment (not after a NAG), never elsewhere; and read back as the same game.
    struct Case {
        const char* tags;
        const char* written;
        const char* expected;
    };
    const Case cases[] = {
        // Gounki: White first.
        {"[Game \"Gounki\"]", "1. c2-d3 {Calm.} f7-e6 2. b2-c2 (2. d3-e4 g7-g6 {Sharp.} 3. e4-f5) e7-e6+ 3. d2-c2+ $14 c7-c6 *",
         "1. c2-d3 {Calm.} 1... f7-e6 2. b2-c2 (2. d3-e4 g7-g6 {Sharp.} 3. e4-f5) 2... e7-e6+ 3. d2-c2+ $14 c7-c6 *"},
        // Gomoku: Black first, "1. h8 i9" is Black's h8 and White's i9.
        {"[Game \"Gomoku\"]", "1. h8 {Centre.} i9 2. h9 (2. j10 k11 {Far.} 3. a1) h10 $14 3. h11 ; Late.\n h12 *",
         "1. h8 {Centre.} 1... i9 2. h9 (2. j10 k11 {Far.} 3. a1) 2... h10 $14 3. h11 {Late.} 3... h12 *"},
        // Pente: White first, the centre stone first, White's second stone away from it.
        {"[Game \"Pente\"]", "1. j10 k11 {Close.} 2. p16 (2. c3 {Far.} d4) l12 3. a1 *",
         "1. j10 k11 {Close.} 2. p16 (2. c3 {Far.} 2... d4) 2... l12 3. a1 *"},
    };
    for (const Case& c : cases) {
        const std::string text = std::string(c.tags) + "\n[Result \"*\"]\n\n" + c.written + "\n";
        INFO(text);
        const std::vector<GameRecord> games = read_records(text);
        REQUIRE(games.size() == 1);
        for (const Diagnostic& d : games[0].diagnostics) FAIL_CHECK(format_diagnostic(d));
        REQUIRE(games[0].status == GameStatus::valid);
        const std::string out = write_record(games[0]);
        std::string movetext = out.substr(out.find("\n\n") + 2);
        while (!movetext.empty() && movetext.back() == '\n') movetext.pop_back();
        std::replace(movetext.begin(), movetext.end(), '\n', ' ');
        CHECK(movetext == c.expected);
        // Read back: the same moves, notes and variations; written again, the same text.
        const std::vector<GameRecord> back = read_records(out);
        REQUIRE(back.size() == 1);
        CHECK(back[0].status == GameStatus::valid);
        CHECK(back[0].main.plies.size() == games[0].main.plies.size());
        CHECK(write_record(back[0]) == out);
    }
}
