// Pente as pente.org plays it (docs/rules.md 2.4): White first, Ninuki's pair captures, five or more
// or ten captured stones win, no end-game capture and no double-three rule, the tournament rule as
// an option that a record may break with a warning; pente.org records (Player 1/2 tags). Every
// expected result is derived by hand from the rules; the records are written by hand in
// tests/data/records/pente_org.pgn.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include "analysis/stones/search.hpp"
#include "core/stones/position.hpp"
#include "parser/reader.hpp"
#include "parser/sgf/sgf.hpp"
#include "parser/writer.hpp"

using namespace gounki;
using namespace gounki::stones;
using namespace gounki::test;

namespace {

Rules pente() { return Rules::defaults(GameKind::pente); }

Rules pente_without_tournament_rule() {
    Rules r = pente();
    REQUIRE_FALSE(apply_rules_tag(r, "no-tournament-rule").has_value());
    return r;
}

std::string codes(const parser::GameRecord& g) {
    std::string out;
    for (const parser::Diagnostic& d : g.diagnostics) out += (out.empty() ? "" : " ") + d.code;
    return out;
}

std::string tag_or(const parser::GameRecord& g, const char* name) {
    const std::string* v = g.tag(name);
    return v ? *v : "(none)";
}

std::vector<parser::GameRecord> pente_org_file() {
    const std::string path = source_path("tests/data/records/pente_org.pgn").string();
    return parser::read_records(slurp(path), "pente_org.pgn");
}

parser::GameRecord one(const std::string& text) { return only_game(parser::read_records(text)); }

// Chebyshev distance from the centre of 19x19 (j10 in the tests' letters).
int from_centre(int point) { return std::max(std::abs(point_file(point) - 9), std::abs(point_rank(point) - 9)); }

} // namespace

TEST_CASE("Pente: the registry row and the rules' defaults", "[stones][pente]") {
    CHECK(parse_game_kind("PENTE") == GameKind::pente);
    CHECK(first_mover(GameKind::pente) == Color::white);
    CHECK(sizes_text(GameKind::pente) == "19");
    const Rules r = pente();
    CHECK(r.size == 19);
    CHECK(r.captures());
    CHECK_FALSE(r.endgame_capture);
    CHECK_FALSE(r.no_double_three);
    CHECK_FALSE(r.exact_five);
    CHECK(r.tournament_rule);
    // White moves first on the empty board.
    const StonePosition start(r);
    CHECK(start.side_to_move() == Color::white);
    CHECK(start.key() == start.compute_key());
    CHECK(start.to_text() == "Pente 19 19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19 w 0 0");
    // The options fixed off in Pente are errors in its Rules tag, naming the games that have them.
    Rules t = pente();
    CHECK(apply_rules_tag(t, "allow-double-three") == "rule option \"allow-double-three\" applies to Ninuki only (not to Pente)");
    CHECK(apply_rules_tag(t, "standard") == "rule option \"standard\" applies to Gomoku and Ninuki only (not to Pente)");
    CHECK(apply_size_tag(t, "15").has_value());
    // And the tournament rule is Pente's only.
    Rules n = ninuki();
    CHECK(apply_rules_tag(n, "no-tournament-rule") == "rule option \"no-tournament-rule\" applies to Pente only (not to Ninuki)");
}

TEST_CASE("Pente: pair captures as in Ninuki, and a captured point may be played again", "[stones][pente]") {
    // White j10, Black k10 and l10: White m10 shuts the pair in and takes it.
    StonePosition pos = setup(pente(), {"k10", "l10"}, {"j10"}, Color::white);
    play(pos, "m10");
    CHECK(pos.captured(Color::white) == 2);
    CHECK(pos.at(P("k10")) == Stone::empty);
    CHECK(pos.at(P("l10")) == Stone::empty);
    CHECK(pos.stone_count() == 2);
    // Black plays on a freed point again; the stone between two white ones is safe.
    CHECK(pos.is_legal(M("k10")));
    play(pos, "k10");
    CHECK(pos.at(P("k10")) == Stone::black);
    CHECK(pos.captured(Color::black) == 0);
    // One stone or three between are no capture.
    StonePosition three = setup(pente(), {"k10", "l10", "m10"}, {"j10"}, Color::white);
    play(three, "n10");
    CHECK(three.captured(Color::white) == 0);
}

TEST_CASE("Pente: ten captured stones win, a five or more wins at once even if a capture could break it", "[stones][pente]") {
    // The fifth pair: White has 8, takes k10 and l10.
    StonePosition ten = setup(pente(), {"k10", "l10", "a1"}, {"j10"}, Color::white, 0, 8);
    play(ten, "m10");
    CHECK(ten.captured(Color::white) == 10);
    CHECK(ten.outcome() == Outcome::white_wins);
    // An overline (six: a5..f5 with e5 last) wins.
    StonePosition six = setup(pente(), {"a1", "c1", "e1", "g1", "j1"}, {"a5", "b5", "c5", "d5", "f5"}, Color::white);
    play(six, "e5");
    CHECK(six.outcome() == Outcome::white_wins);
    // White b5 c5 d5 e5 and c6, Black c7: f5 makes five, which Black could break by c4 (taking c5 and
    // c6). Ninuki's end-game capture rule leaves it pending; Pente has no such rule: it wins.
    for (bool is_pente : {true, false}) {
        INFO("pente " << is_pente);
        StonePosition five =
            setup(is_pente ? pente() : ninuki(), {"c7", "a1", "p1", "a19", "s19"}, {"b5", "c5", "d5", "e5", "c6"}, Color::white);
        play(five, "f5");
        CHECK(five.outcome() == (is_pente ? Outcome::white_wins : Outcome::none));
    }
}

TEST_CASE("Pente: no double-three rule", "[stones][pente]") {
    // docs/rules.md 2.2's example: Black e5 f5 g3 g4, g5 makes two free threes.
    StonePosition nin = setup(ninuki(), {"e5", "f5", "g3", "g4"}, {"p15", "r15", "p17", "r17"});
    CHECK_FALSE(nin.is_legal(M("g5")));
    StonePosition pos = setup(pente(), {"e5", "f5", "g3", "g4"}, {"p15", "r15", "p17", "r17"});
    CHECK(pos.free_threes_at(P("g5"), Color::black) == 2);
    CHECK(pos.is_legal(M("g5")));
    CHECK(in_legal_moves(pos, "g5"));
}

TEST_CASE("Pente: the tournament rule binds White's first two stones, and the engine keeps it", "[stones][pente]") {
    StonePosition pos(pente());
    CHECK_FALSE(pos.breaks_tournament_rule(P("j10")));
    CHECK(pos.breaks_tournament_rule(P("a1")));
    CHECK(pos.is_legal(M("a1"))); // legal all the same: a record breaking it gets a warning
    play(pos, "j10");
    CHECK_FALSE(pos.breaks_tournament_rule(P("k10"))); // Black is free
    play(pos, "k11");
    // White's second stone: inside the 5x5 square around j10 breaks it, outside does not.
    CHECK(pos.breaks_tournament_rule(P("l12"))); // two points away
    CHECK(pos.breaks_tournament_rule(P("h8")));
    CHECK_FALSE(pos.breaks_tournament_rule(P("m13"))); // three
    CHECK_FALSE(pos.breaks_tournament_rule(P("j13")));
    CHECK_FALSE(pos.breaks_tournament_rule(P("g10")));
    play(pos, "j13");
    CHECK_FALSE(pos.breaks_tournament_rule(P("j11"))); // Black again
    play(pos, "a1");
    CHECK_FALSE(pos.breaks_tournament_rule(P("j11"))); // White's third stone is free

    // With the rule off, nothing breaks it; the option is part of the position's text and key.
    StonePosition free(pente_without_tournament_rule());
    CHECK_FALSE(free.breaks_tournament_rule(P("a1")));
    CHECK(free.key() != StonePosition(pente()).key());
    CHECK(free.to_text().ends_with(" w 0 0 no-tournament-rule"));
    CHECK(stone_position_of(free.to_text()) == free);

    // The engine opens on the centre and puts its second stone outside the square.
    analysis::StoneSearcher s;
    analysis::SearchLimits l;
    l.depth = 2;
    CHECK(s.search(StonePosition(pente()), l).best == M("j10"));
    StonePosition second(pente());
    play(second, "j10");
    play(second, "k10");
    const Move m = s.search(second, l).best;
    REQUIRE(m != Move::none());
    CHECK(from_centre(m.point()) >= 3);
}

TEST_CASE("pente.org records: White is Player 1, Go-style points, captured points replayed, Resign", "[parser][five][pente]") {
    const auto games = pente_org_file();
    REQUIRE(games.size() == 2);
    const parser::GameRecord& g = games[0];
    INFO(codes(g));
    CHECK(codes(g).empty());
    CHECK(g.status == parser::GameStatus::valid);
    CHECK(g.kind == GameKind::pente);
    CHECK(tag_or(g, "White") == "carol");
    CHECK(tag_or(g, "Black") == "dave");
    CHECK(tag_or(g, "WhiteElo") == "1700");
    CHECK(tag_or(g, "BlackElo") == "1650");
    CHECK(tag_or(g, "Player 1 Name") == "carol"); // kept as written
    CHECK(tag_or(g, "Date") == "2010.03.04"); // the month first, as pente.org writes it
    REQUIRE(g.main.plies.size() == 8); // the line breaks between `4.` and its move
    // K10 is j10 in gounki's letters; N10 takes L10 and M10 (k10, l10), and Black plays L10 again.
    CHECK(g.main.plies[0].move == M("j10"));
    CHECK(g.main.plies[4].move == M("m10"));
    CHECK(g.main.plies[5].move == M("k10"));
    CHECK(g.main.plies[1].move == g.main.plies[5].move);
    const StonePosition end = g.final_stone_position();
    CHECK(end.captured(Color::white) == 2);
    CHECK(end.at(P("k10")) == Stone::black);
    CHECK(end.at(P("l10")) == Stone::empty);
    CHECK(g.result == "1-0");
    CHECK(g.main.plies.back().comments == std::vector<std::string>{"Resign"});

    // An unrated game that broke the tournament rule (K11 next to the centre): a warning, still
    // valid, and White's five (K10..K14) agrees with 1-0.
    const parser::GameRecord& u = games[1];
    CHECK(codes(u) == "tournament-rule");
    CHECK(u.diagnostics[0].severity == parser::Severity::warning);
    CHECK(u.status == parser::GameStatus::valid);
    CHECK(u.main.plies.size() == 9);
    CHECK(u.final_stone_position().outcome() == Outcome::white_wins);
    // The same game played without the rule says so, and gets no warning.
    const parser::GameRecord free =
        one("[Game \"Pente\"]\n[Rules \"no-tournament-rule\"]\n\n1. K10 A1 2. K11 A2 3. K12 A3 4. K13 A5 5. K14 1-0\n");
    CHECK(codes(free).empty());
    // A first stone off the centre is the same warning.
    CHECK(codes(one("[Game \"Pente\"]\n\n1. a1 b2 *\n")) == "tournament-rule");
    // A move after the end is an error that names the winning move in the record's own letters.
    const parser::GameRecord after =
        one("[Game \"Pente\"]\n[Site \"Pente.org\"]\n\n1. K10 A1 2. K13 A2 3. K12 A3 4. K11 A4 5. K14 A5 1-0\n");
    CHECK(codes(after) == "move-after-end");
    CHECK(after.status == parser::GameStatus::partial);
    CHECK(after.diagnostics[0].message.find("White won with 5. K14") != std::string::npos);
    // The result is checked against the board: Black's five cannot be White's win.
    CHECK(codes(one("[Game \"Pente\"]\n\n1. j10 a1 2. j13 b1 3. a19 c1 4. b19 d1 5. c19 e1 1-0\n")) == "result-contradicts");
}

TEST_CASE("Pente: records survive export as PGN and SGF", "[parser][export][pente]") {
    for (const parser::GameRecord& g : pente_org_file()) {
        INFO("game " << g.number);
        const std::string pgn = parser::write_record(g);
        INFO(pgn);
        CHECK(pgn.find("1. j10 ") != std::string::npos); // White's move opens the pair, in gounki's letters
        const parser::GameRecord back = one(pgn);
        CHECK(back.kind == GameKind::pente);
        CHECK(back.status == parser::GameStatus::valid);
        CHECK(codes(back) == codes(g));
        REQUIRE(back.main.plies.size() == g.main.plies.size());
        for (std::size_t i = 0; i < g.main.plies.size(); ++i) CHECK(back.main.plies[i].move == g.main.plies[i].move);
        CHECK(back.result == g.result);
        CHECK(tag_or(back, "White") == tag_or(g, "White"));
        CHECK(back.final_stone_position() == g.final_stone_position());

        REQUIRE(parser::sgf_cannot_hold(g).empty());
        const std::string sgf = parser::write_sgf(g);
        INFO(sgf);
        CHECK(sgf.find("RU[Pente]") != std::string::npos);
        const auto from_sgf = parser::read_sgf(sgf, "pente.sgf");
        REQUIRE(from_sgf.size() == 1);
        const parser::GameRecord& s = from_sgf[0];
        CHECK(s.kind == GameKind::pente);
        CHECK(s.start.as_stones() == g.start.as_stones());
        CHECK(s.tag("Position") == nullptr); // White to move is Pente's start, no set-up
        REQUIRE(s.main.plies.size() == g.main.plies.size());
        for (std::size_t i = 0; i < g.main.plies.size(); ++i) CHECK(s.main.plies[i].move == g.main.plies[i].move);
        CHECK(s.result == g.result);
        CHECK(tag_or(s, "White") == tag_or(g, "White"));
    }
}

namespace {

// Whether two lines hold the same moves, variations and all.
bool same_line(const parser::Line& a, const parser::Line& b) {
    if (a.plies.size() != b.plies.size()) return false;
    for (std::size_t i = 0; i < a.plies.size(); ++i) {
        const parser::Ply& x = a.plies[i];
        const parser::Ply& y = b.plies[i];
        if (x.move != y.move || x.variations.size() != y.variations.size()) return false;
        for (std::size_t v = 0; v < x.variations.size(); ++v)
            if (!same_line(x.variations[v], y.variations[v])) return false;
    }
    return true;
}

// A random legal line of up to `plies` moves from `pos`, its files within [lo, hi] (ranks 5..13),
// with a variation of a few moves now and then while `nest` allows.
parser::Line random_line(std::mt19937& rng, StonePosition pos, int plies, int lo, int hi, int nest) {
    parser::Line line;
    StoneUndo undo;
    for (int n = 0; n < plies && !pos.game_over(); ++n) {
        std::vector<Move> near;
        for (const Move m : pos.legal_moves()) {
            const int f = point_file(m.point()), r = point_rank(m.point());
            if (f >= lo && f <= hi && r >= 5 && r <= 13) near.push_back(m);
        }
        if (near.empty()) break;
        const Move m = near[rng() % near.size()];
        parser::Ply& p = line.plies.emplace_back(m);
        if (nest > 0 && rng() % 8 == 0) {
            parser::Line v = random_line(rng, pos, 1 + int(rng() % 4), lo, hi, nest - 1);
            if (!v.plies.empty() && v.plies[0].move != m) p.variations.push_back(std::move(v));
        }
        pos.play(m, undo);
    }
    return line;
}

parser::GameRecord pente_game(parser::Line main) {
    parser::GameRecord g;
    g.kind = GameKind::pente;
    g.start = StonePosition(pente_without_tournament_rule());
    g.main = std::move(main);
    const StonePosition end = g.final_stone_position();
    g.result = end.game_over() ? std::string(outcome_text(end.outcome())) : "*";
    return g;
}

} // namespace

TEST_CASE("Pente: written in pente.org's coordinates, random games read back the same", "[parser][export][pente]") {
    // The fixture's games: K10 again, as pente.org wrote it.
    for (const parser::GameRecord& g : pente_org_file()) {
        const std::string pgn = parser::write_record(g, Notation::wikipedia, parser::StonePoints::go);
        INFO(pgn);
        CHECK(pgn.find("1. K10 ") != std::string::npos);
        const parser::GameRecord back = one(pgn);
        CHECK(codes(back) == codes(g));
        CHECK(same_line(back.main, g.main));
        CHECK(back.final_stone_position() == g.final_stone_position());
    }
    // Random games with variations: across the centre (Go-style letters past H, no I), and left of
    // column J only (where both styles name the same points).
    std::mt19937 rng(19);
    int go_style = 0;
    for (int game = 0; game < 60; ++game) {
        const bool left = game % 6 == 5;
        const parser::GameRecord g =
            pente_game(random_line(rng, StonePosition(pente_without_tournament_rule()), 20 + int(rng() % 60), left ? 0 : 4,
                                   left ? 7 : 15, 2));
        const std::string pgn = parser::write_record(g, Notation::wikipedia, parser::StonePoints::go);
        INFO(pgn);
        const std::string movetext = pgn.substr(pgn.find("\n\n"));
        CHECK(movetext.find_first_of("abcdefghijklmnopqrst") == std::string::npos); // upper case only
        CHECK(movetext.find('I') == std::string::npos);
        go_style += movetext.find_first_of("JKLMNOPQRST") != std::string::npos;
        const parser::GameRecord back = one(pgn);
        CHECK(back.status == parser::GameStatus::valid);
        CHECK(same_line(back.main, g.main));
        CHECK(back.result == g.result);
        CHECK(parser::write_record(back, Notation::wikipedia, parser::StonePoints::go) == pgn);
    }
    CHECK(go_style >= 45);
    // A main line left of J with a variation past it: the reader could not tell, so gounki's points.
    parser::Line main = random_line(rng, StonePosition(pente_without_tournament_rule()), 6, 0, 7, 0);
    REQUIRE(main.plies.size() == 6);
    StonePosition at(pente_without_tournament_rule());
    StoneUndo undo;
    for (int i = 0; i < 3; ++i) at.play(main.plies[std::size_t(i)].move, undo);
    main.plies[3].variations.push_back(random_line(rng, at, 3, 12, 15, 0));
    const parser::GameRecord mixed = pente_game(main);
    const std::string pgn = parser::write_record(mixed, Notation::wikipedia, parser::StonePoints::go);
    CHECK(pgn == parser::write_record(mixed));
    CHECK(same_line(one(pgn).main, mixed.main));
    // Other sizes keep gounki's points: Gomoku on 15x15.
    parser::GameRecord gomoku_game = one("[Game \"Gomoku\"]\n\n1. h8 j9 2. o15 a1 *\n");
    CHECK(parser::write_record(gomoku_game, Notation::wikipedia, parser::StonePoints::go) == parser::write_record(gomoku_game));
}

TEST_CASE("gounki export --go-coordinates writes pente.org's points", "[parser][export][pente][cli]") {
    TempDir dir("pente-go");
    const std::string db = "--db " + shell_quoted(dir / "g.db");
    const CliRun imp = run_gounki("import " + db + " " + shell_quoted(source_path("tests/data/records/pente_org.pgn")));
    INFO(imp.err);
    REQUIRE(imp.status != 2);
    const CliRun go = run_gounki("export " + db + " --go-coordinates -o " + shell_quoted(dir / "go.pgn"));
    INFO(go.err);
    REQUIRE(go.status == 0);
    const std::string text = slurp(dir / "go.pgn");
    CHECK(contains(text, "1. K10 "));
    const auto back = parser::read_records(text, "go.pgn");
    const auto original = pente_org_file();
    REQUIRE(back.size() == original.size());
    for (std::size_t i = 0; i < back.size(); ++i) {
        CHECK(same_line(back[i].main, original[i].main));
        CHECK(back[i].result == original[i].result);
    }
    // Without it, gounki's own letters.
    const CliRun plain = run_gounki("export " + db + " -o -");
    CHECK(contains(plain.out, "1. j10 "));
}
