// A broken game (partial or invalid) marked wherever it goes out: the Status tag and comment of
// export and show, read back as broken by the parser; the mark and the statistics of reports.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include <algorithm>

#include "parser/reader.hpp"
#include "report/render.hpp"

using namespace gounki;
using namespace gounki::test;
namespace fs = std::filesystem;

namespace {

const fs::path broken_dir = fs::path(GOUNKI_SOURCE_DIR) / "samples" / "broken";
} // namespace

TEST_CASE("a Status tag keeps a record broken when read", "[parser]") {
    const std::string moves = "\n1. c2-d3 f7-e6 2. b2-c2 *\n";
    const auto partial = parser::read_records("[Game \"Gounki\"]\n[Status \"Partial\"]\n" + moves, "t");
    REQUIRE(partial.size() == 1);
    CHECK(partial[0].status == parser::GameStatus::partial);
    CHECK(partial[0].main.plies.size() == 3); // the moves as written, none dropped or added
    REQUIRE(!partial[0].diagnostics.empty());
    CHECK(partial[0].diagnostics[0].code == "marked-partial");
    CHECK(partial[0].diagnostics[0].line == 2);

    const auto invalid = parser::read_records("[Game \"Gounki\"]\n[Status \"invalid\"]\n" + moves, "t");
    CHECK(invalid[0].status == parser::GameStatus::invalid);
    CHECK(invalid[0].main.plies.size() == 3);
    CHECK(invalid[0].diagnostics[0].code == "marked-invalid");

    CHECK(parser::read_records("[Game \"Gounki\"]\n[Status \"valid\"]\n" + moves, "t")[0].status == parser::GameStatus::valid);
    CHECK(parser::read_records("[Game \"Gounki\"]\n" + moves, "t")[0].status == parser::GameStatus::valid);
}

TEST_CASE("export marks a broken game, and it imports again as broken with the same moves", "[db]") {
    TempDir dir;
    const std::string db = dir.file("b.db");
    REQUIRE(run_gounki_args({"import", "--db", db, (broken_dir / "02-illegal-move.gpn").string(),
                             (broken_dir / "11-result-contradicts.gpn").string()})
                .status == 1); // broken games are findings
    const CliRun exp = run_gounki_args({"export", "--db", db, "-o", dir.file("out.gpn")});
    REQUIRE(exp.status == 0);
    std::string text = slurp(dir.file("out.gpn"));
    std::replace(text.begin(), text.end(), '\n', ' '); // the writer wraps lines
    // The partial game: its tag, and its error after the last move kept (2... e7-e6+).
    CHECK(contains(text, "[Status \"partial\"]"));
    CHECK(contains(text, "e7-e6+ {partial: 3. d3-d5: d3-d5 is not a legal move"));
    CHECK(contains(text, "[illegal-move]}"));
    CHECK(!contains(text, "d3-d5 c7-c6")); // nothing after the break comes back
    // The invalid game: its tag, and its error before the moves.
    CHECK(contains(text, "[Status \"invalid\"]"));
    CHECK(contains(text, "{invalid: "));
    CHECK(contains(text, "[result-contradicts]}"));
    // show writes the same marks.
    CHECK(contains(run_gounki_args({"show", "--db", db, "1"}).out, "[Status \"partial\"]"));

    // Imported again: the same statuses and moves, the marks not doubled.
    const std::string again = dir.file("again.db");
    REQUIRE(run_gounki_args({"import", "--db", again, dir.file("out.gpn")}).status == 1);
    const CliRun listed = run_gounki_args({"games", "--db", again, "--json"});
    CHECK(
        contains(listed.out, "\"plies\":4,\"result\":\"*\",\"result_shown\":\"*\",\"round\":\"-\",\"site\":\"samples/broken\",\"status\":\"partial\""));
    CHECK(contains(listed.out, "\"status\":\"invalid\""));
    CHECK(run_gounki_args({"games", "--db", again, "--status", "valid", "--json"}).out.find("\"total\":0") != std::string::npos);
    const CliRun exp2 = run_gounki_args({"export", "--db", again, "-o", "-"});
    CHECK(count_of(exp2.out, "[Status \"partial\"]") == 1);
    CHECK(count_of(exp2.out, "{partial: ") == 1);
    CHECK(count_of(exp2.out, "{invalid: ") == 1);
    const auto first = parser::read_records(text, "first"), second = parser::read_records(exp2.out, "second");
    REQUIRE(first.size() == 2);
    REQUIRE(second.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
        CHECK(first[i].status == second[i].status);
        REQUIRE(first[i].main.plies.size() == second[i].main.plies.size());
        for (std::size_t k = 0; k < first[i].main.plies.size(); ++k)
            CHECK(first[i].main.plies[k].move == second[i].main.plies[k].move);
    }
}

namespace {

report::GameReport played(const std::string& white, const std::string& black, const std::string& result,
                          const std::string& status = "") {
    report::GameReport g = report_game(AnyPosition::start(GameKind::gounki), {"c2-d3", "f7-e6", "b2-c2", "e7-e6+"});
    g.white = white;
    g.black = black;
    g.result = result;
    g.status = status;
    if (!status.empty()) g.problems.push_back("3. d3-d5: d3-d5 is not a legal move [illegal-move]");
    return g;
}

} // namespace

TEST_CASE("reports mark broken games and leave them out of their statistics", "[report]") {
    report::ReportModel model;
    model.games = {played("Ann", "Bob", "1-0"), played("Ann", "Bob", "0-1", "partial"),
                   played("Bob", "Ann", "1/2-1/2", "invalid")};
    const auto players = report::player_statistics(model.games);
    REQUIRE(players.size() == 2);
    CHECK(players[0].games == 1); // only the valid game counts
    CHECK(players[1].games == 1);
    const auto openings = report::opening_table(model.games, 4);
    REQUIRE(openings.size() == 1);
    CHECK(openings[0].games == 1);
    CHECK(openings[0].white_wins == 1);
    CHECK(openings[0].black_wins == 0);
    CHECK(report::broken_games(model.games) == 2);

    const std::string md = report::render_markdown(model);
    CHECK(contains(md, "0-1 (partial)"));
    CHECK(contains(md, "**Partial game: the moves stop at an error: 3. d3-d5: d3-d5 is not a legal move \\[illegal-move\\]**"));
    CHECK(contains(md, "1/2-1/2 (invalid)"));
    CHECK(contains(md, "**Invalid game: "));
    CHECK(contains(md, "_(the record breaks here)_ 0-1"));
    CHECK(contains(md, "2 broken games (partial or invalid) are left out of these tables."));

    const std::string html = report::render_html(model);
    CHECK(contains(html, "<section class=\"game broken\""));
    CHECK(contains(html, "<p class=\"broken\">Partial game: the moves stop at an error: 3. d3-d5"));
    CHECK(contains(html, "2 broken games (partial or invalid) are left out of these tables."));

    std::string gpn = report::render_annotated_gpn(model, {});
    std::replace(gpn.begin(), gpn.end(), '\n', ' ');
    CHECK(contains(gpn, "e7-e6+ {Partial game: the moves stop at an error: 3. d3-d5"));
    CHECK(contains(gpn, "{Invalid game: "));

    // One valid game: no note.
    model.games.resize(1);
    model.games.push_back(played("Cy", "Dee", "*"));
    CHECK(!contains(report::render_markdown(model), "left out"));
}

TEST_CASE("report on stored broken games marks them, from the command line", "[db]") {
    TempDir dir;
    const std::string db = dir.file("b.db");
    REQUIRE(run_gounki_args({"import", "--db", db, (broken_dir / "02-illegal-move.gpn").string(),
                             (fs::path(GOUNKI_SOURCE_DIR) / "samples" / "games" / "01-deployment-out.gpn").string(),
                             (fs::path(GOUNKI_SOURCE_DIR) / "samples" / "games" / "03-pass-and-exit.gpn").string()})
                .status == 1);
    const CliRun md = run_gounki_args({"report", "--db", db, "--all", "--format", "md", "-o", "-"});
    REQUIRE(md.status == 0);
    CHECK(count_of(md.out, "(partial)") == 1);
    CHECK(contains(md.out, "**Partial game: the moves stop at an error: 3. d3-d5: d3-d5 is not a legal move"));
    CHECK(contains(md.out, "1 broken game (partial or invalid) is left out of these tables."));
    const CliRun gpn = run_gounki_args({"report", "--db", db, "--status", "partial", "--format", "gpn", "-o", "-"});
    CHECK(contains(gpn.out, "[Status \"partial\"]"));
    CHECK(contains(gpn.out, "{Partial game: the moves stop at an error: "));
}
