// Choosing games: names matched without regard to case or accents (db/fold.hpp), the order of
// game lists (--sort), through the library and the command line.
#include "tests/catch.hpp"
#include "tests/support.hpp"

#include "db/fold.hpp"

using namespace gounki;
using namespace gounki::db;
using namespace gounki::test;

namespace {

// Those of `names` that `out` holds, in the order it holds them, each followed by a space.
std::string names_in_order(const std::string& out, std::initializer_list<const char*> names) {
    std::vector<std::pair<std::size_t, std::string>> at;
    for (const char* n : names)
        if (out.find(n) != std::string::npos) at.emplace_back(out.find(n), n);
    std::sort(at.begin(), at.end());
    std::string s;
    for (const auto& [p, n] : at) s += n + std::string(" ");
    return s;
}

// A new database `name` on `backend` holding the games of `gpn`, imported by the command line.
struct Imported {
    TempDir dir;
    std::string db; // as commands take it after --db
    Imported(const std::string& backend, const std::string& name, const std::string& gpn)
        : db(test_database(backend, dir, name)) {
        import_text(db, dir / (name + ".gpn"), gpn);
    }
};

// A gounki command line without its --db option, and the order in which its output names players.
struct Listing {
    std::vector<std::string> args; // the command first
    std::string order; // as names_in_order gives it
};

// Runs each listing on the database `db` and checks the order in which it names those of `names`.
void check_orders(const std::string& db, std::initializer_list<const char*> names, const std::vector<Listing>& listings) {
    for (const Listing& l : listings) {
        std::vector<std::string> args{l.args.front(), "--db", db};
        args.insert(args.end(), l.args.begin() + 1, l.args.end());
        std::string line;
        for (const std::string& a : args) line += a + " ";
        const CliRun r = run_gounki_args(args);
        INFO(line << "\n" << r.err);
        CHECK(names_in_order(r.out, names) == l.order);
    }
}

} // namespace

TEST_CASE("a text's fold ignores case, accents, dashes and typographic quotes", "[db]") {
    CHECK(fold_text("Hélène") == "helene");
    CHECK(fold_text("HÉLÈNE") == "helene");
    CHECK(fold_text("He\xCC\x81le\xCC\x80ne") == "helene"); // already decomposed
    CHECK(fold_text("Lyon–Genève") == "lyon-geneve"); // en dash
    CHECK(fold_text("Lyon—Genève") == "lyon-geneve"); // em dash
    CHECK(fold_text("Müller") == fold_text("MÜLLER"));
    CHECK(fold_text("Müller") == "muller");
    CHECK(fold_text("Straße") == "strasse"); // full case folding, not only simple
    CHECK(fold_text("STRASSE") == "strasse");
    CHECK(fold_text("ẞ") == "ss");
    CHECK(fold_text("ΣΊΣΥΦΟΣ") == fold_text("σίσυφος")); // final sigma too
    CHECK(fold_text("Σ") == fold_text("σ"));
    CHECK(fold_text("ДМИТРИЙ") == fold_text("дмитрий"));
    CHECK(fold_text("Ёлкин") == fold_text("елкин")); // the diaeresis is a mark
    CHECK(fold_text("ﬁnal") == "final"); // compatibility ligature
    CHECK(fold_text("O’Brien “Jr”") == "o'brien \"jr\"");
    CHECK(fold_text("Plain ASCII 12") == "plain ascii 12");
    CHECK(fold_text("") == "");
    CHECK(fold_text("bad \xFF byte") == "bad \xEF\xBF\xBD byte"); // U+FFFD, not a crash
}

TEST_CASE("name filters match without regard to case or accents", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    TempDir dir;
    GameDatabase db(test_database(backend, dir, "names"), Access::read_write);
    const auto r =
        import(db,
               {game({"c2-d3"}, "Hélène Dupré", "Jörg Müller", ResultCode::white_wins, "2020.01.01", "Lyon–Genève Cup"),
                game({"g2-f3"}, "Στέφανος Σίσυφος", "Дмитрий Ёлкин", ResultCode::draw, "2020.02.01", "Straße Open"),
                game({"e2-f3"}, "Helen Dupre", "Joerg Mueller", ResultCode::black_wins, "2020.03.01", "Lyon Open")});
    const std::int64_t a = r[0].game_id, b = r[1].game_id, c = r[2].game_id;
    const auto ids = [&](auto set) {
        GameFilter f;
        set(f);
        return ids_of(db.list_games(f, {}));
    };
    using V = std::vector<std::int64_t>;
    CHECK(ids([](GameFilter& f) { f.player = "helene"; }) == V{a});
    CHECK(ids([](GameFilter& f) { f.player = "HELEN"; }) == V{a, c});
    CHECK(ids([](GameFilter& f) { f.white = "dupre"; }) == V{a, c});
    CHECK(ids([](GameFilter& f) { f.black = "MÜLLER"; }) == V{a});
    CHECK(ids([](GameFilter& f) { f.black = "muller"; }) == V{a});
    CHECK(ids([](GameFilter& f) { f.black = "Müller"; }) == V{a}); // "Mueller" is another spelling
    CHECK(ids([](GameFilter& f) { f.event = "lyon-geneve"; }) == V{a});
    CHECK(ids([](GameFilter& f) { f.event = "LYON–GENÈVE"; }) == V{a});
    CHECK(ids([](GameFilter& f) { f.event = "strasse"; }) == V{b});
    CHECK(ids([](GameFilter& f) { f.event = "STRAẞE"; }) == V{b});
    CHECK(ids([](GameFilter& f) { f.white = "σίσυφοσ"; }) == V{b});
    CHECK(ids([](GameFilter& f) { f.white = "ΣΙΣΥΦΟΣ"; }) == V{b});
    CHECK(ids([](GameFilter& f) { f.black = "ЕЛКИН"; }) == V{b});
    CHECK(ids([](GameFilter& f) { f.player = "nobody"; }).empty());
    CHECK(ids([](GameFilter& f) { f.player = "%"; }).empty()); // no wildcards
    CHECK(ids([](GameFilter& f) { f.player = "_"; }).empty());
    // The filters also hold on searches and on the pattern search's own connections.
    GameFilter f;
    f.player = "helene";
    CHECK(ids_of(db.search_position(Position::start(), f, {})) == V{a});
}

TEST_CASE("the command line's name filters ignore case and accents", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    const Imported games(
        backend, "cli",
        "[Game \"Gounki\"]\n[Event \"Lyon–Genève\"]\n[White \"Hélène\"]\n[Black \"Straße\"]\n[Result \"1-0\"]\n\n"
        "1. c2-d3 1-0\n\n"
        "[Game \"Gounki\"]\n[Event \"Paris\"]\n[White \"Bob\"]\n[Black \"Ann\"]\n[Result \"0-1\"]\n\n1. g2-f3 0-1\n");
    for (const std::vector<std::string>& filter : {std::vector<std::string>{"--player", "helene"},
                                                   {"--event", "lyon-geneve"},
                                                   {"--black", "STRASSE"},
                                                   {"--white", "HÉLÈNE"}}) {
        std::vector<std::string> args{"games", "--db", games.db, "--json"};
        args.insert(args.end(), filter.begin(), filter.end());
        const CliRun run = run_gounki_args(args);
        INFO(filter[0] << " " << filter[1]);
        CHECK(run.status == 0);
        CHECK(contains(run.out, "\"total\":1"));
        CHECK(contains(run.out, "\"white\":\"Hélène\""));
    }
    // The pattern search reads on a connection per thread: each has the fold too.
    const CliRun pattern =
        run_gounki_args({"search", "--db", games.db, "--pattern", "Wp>=0", "--player", "HELENE", "--threads", "2", "--json"});
    CHECK(pattern.status == 0);
    CHECK(contains(pattern.out, "\"total\":1"));
    const CliRun exp = run_gounki_args({"export", "--db", games.db, "--player", "helene", "-o", "-"});
    CHECK(contains(exp.out, "[White \"Hélène\"]"));
    CHECK(!contains(exp.out, "[White \"Bob\"]"));
}

namespace {

// Five games whose dates, players, events and results each put them in another order.
struct Sorted {
    TempDir dir;
    GameDatabase db;
    std::vector<std::int64_t> id;
    explicit Sorted(const std::string& backend) : db(test_database(backend, dir, "sort"), Access::read_write) {
        for (const ImportReport& r :
             import(db,
                    {game({"c2-d3"}, "Zoë", "Bob", ResultCode::draw, "2021.05.01", "Brest Open"),
                     game({"g2-f3"}, "Élise", "Carl", ResultCode::white_wins, "", "Autumn Cup"),
                     game({"c2-d3", "b7-a6"}, "adam", "Dora", ResultCode::unknown, "2019.01.01", ""),
                     game({"e2-f3"}, "Élise", "Anna", ResultCode::black_wins, "2021.05.01", "Échecs Club"),
                     game({"c2-d3", "f7-e6"}, "Fritz", "Eve", ResultCode::white_wins, "2020.12.31", "Dijon Open")}))
            id.push_back(r.game_id);
    }
    std::vector<std::int64_t> ids(std::initializer_list<int> at) const {
        std::vector<std::int64_t> out;
        for (int i : at) out.push_back(id[std::size_t(i)]);
        return out;
    }
    std::vector<std::int64_t> listed(SortKey key, bool desc, Paging paging = {}) {
        GameFilter f;
        f.order = {key, desc};
        return ids_of(db.list_games(f, paging));
    }
};

} // namespace

TEST_CASE("game lists come sorted by date, player, event or result, ties by id, then paged", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    Sorted s(backend);
    CHECK(s.listed(SortKey::id, false) == s.ids({0, 1, 2, 3, 4}));
    CHECK(s.listed(SortKey::id, true) == s.ids({4, 3, 2, 1, 0}));
    CHECK(s.listed(SortKey::date, false) == s.ids({2, 4, 0, 3, 1})); // the undated game last
    CHECK(s.listed(SortKey::date, true) == s.ids({3, 0, 4, 2, 1})); // still last; the tie reversed
    // By White's name, folded (adam < Élise < Fritz < Zoë), then Black's (Anna < Carl).
    CHECK(s.listed(SortKey::player, false) == s.ids({2, 3, 1, 4, 0}));
    CHECK(s.listed(SortKey::player, true) == s.ids({0, 4, 1, 3, 2}));
    CHECK(s.listed(SortKey::event, false) == s.ids({1, 0, 4, 3, 2})); // Échecs with the E's; no event last
    CHECK(s.listed(SortKey::result, false) == s.ids({1, 4, 3, 0, 2})); // 1-0, 0-1, 1/2-1/2, *
    CHECK(s.listed(SortKey::result, true) == s.ids({0, 3, 4, 1, 2}));
    // Paging cuts the sorted list.
    CHECK(s.listed(SortKey::date, false, {2, 1}) == s.ids({4, 0}));
    CHECK(s.db.list_games({}, {2, 1}).total == 5);

    // Searches and for_each_game follow the order too, with filters.
    GameFilter f;
    f.order = {SortKey::date, true};
    CHECK(ids_of(s.db.search_position(Position::start(), f, {})) == s.ids({3, 0, 4, 2, 1}));
    CHECK(ids_of(s.db.search_position(Position::start(), f, {1, 1})) == s.ids({0}));
    f.player = "elise";
    CHECK(ids_of(s.db.search_position(Position::start(), f, {})) == s.ids({3, 1}));
    std::vector<std::int64_t> seen;
    s.db.for_each_game(f, [&](const StoredGame& g) {
        seen.push_back(g.summary.id);
        return true;
    });
    CHECK(seen == s.ids({3, 1}));
    CHECK(s.db.game_ids(f) == s.ids({3, 1}));
}

TEST_CASE("--sort and --desc on the commands that list or read games", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    const Imported games(
        backend, "cli",
        "[Game \"Gounki\"]\n[Date \"2021.01.01\"]\n[White \"Carl\"]\n[Black \"X\"]\n[Result \"1-0\"]\n\n1. c2-d3 1-0\n\n"
        "[Game \"Gounki\"]\n[Date \"2019.01.01\"]\n[White \"Ádám\"]\n[Black \"X\"]\n[Result \"0-1\"]\n\n1. g2-f3 0-1\n\n"
        "[Game \"Gounki\"]\n[Date \"2020.01.01\"]\n[White \"Bea\"]\n[Black \"X\"]\n[Result \"*\"]\n\n1. e2-f3 *\n");
    const auto names = {"Carl", "Ádám", "Bea"};
    check_orders(games.db, names,
                 {{{"games"}, "Carl Ádám Bea "},
                  {{"games", "--sort", "date"}, "Ádám Bea Carl "},
                  {{"games", "--sort", "DATE", "--desc"}, "Carl Bea Ádám "},
                  {{"games", "--sort", "player"}, "Ádám Bea Carl "},
                  {{"games", "--desc"}, "Bea Ádám Carl "},
                  {{"games", "--sort", "date", "--limit", "1", "--offset", "1"}, "Bea "},
                  {{"search", "--sort", "player", "--desc"}, "Carl Bea Ádám "},
                  {{"export", "--sort", "date", "-o", "-"}, "Ádám Bea Carl "},
                  // export takes ids and ranges as the other commands do
                  {{"export", "3", "1", "-o", "-"}, "Bea Carl "},
                  {{"export", "2-3", "--sort", "date", "-o", "-"}, "Ádám Bea "},
                  // Ids given on the command line keep their order unless --sort asks for another.
                  {{"delete", "3", "1", "2"}, "Bea Carl Ádám "},
                  {{"delete", "3", "1", "2", "--sort", "date"}, "Ádám Bea Carl "},
                  {{"delete", "--all", "--sort", "result"}, "Carl Ádám Bea "}});
    // A missing id is an error, nothing written.
    const CliRun missing = run_gounki_args({"export", "--db", games.db, "1", "9", "-o", games.dir.file("none.gpn")});
    CHECK(missing.status == 2);
    CHECK(contains(missing.err, "no game 9"));
    CHECK(!std::filesystem::exists(games.dir.file("none.gpn")));
    CHECK(!std::filesystem::exists(games.dir.file("none.gpn.part")));
    const CliRun report = run_gounki_args({"report", "--db", games.db, "--all", "--sort", "date", "--format", "md", "-o", "-"});
    CHECK(report.status == 0);
    CHECK(names_in_order(report.out.substr(report.out.find("## Game 1")), names) == "Ádám Bea Carl "); // after the players table
    const CliRun judged =
        run_gounki_args({"analyze", "--db", games.db, "--all", "--sort", "player", "--nodes", "200", "--threads", "1"});
    REQUIRE(judged.status == 0);
    const std::size_t g2 = judged.out.find("game 2:"), g3 = judged.out.find("game 3:"), g1 = judged.out.find("game 1:");
    CHECK(g2 != std::string::npos);
    CHECK(g2 < g3);
    CHECK(g3 < g1);
    CHECK(g1 != std::string::npos);
    const CliRun bad = run_gounki_args({"games", "--db", games.db, "--sort", "colour"});
    CHECK(bad.status == 2);
    CHECK(contains(bad.err, "--sort must be id, date, player, event or result"));
    CHECK(contains(run_gounki_args({"games", "--db", games.db, "--sort", "date", "--desc", "--json"}).out, "\"desc\":true"));
}

TEST_CASE("the --site filter chooses games by their site, without regard to case or accents", "[db][cli][both]") {
    GOUNKI_EACH_BACKEND(backend);
    const Imported games(backend, "sites",
                         "[Site \"Genève, Café du Jeu\"]\n[Result \"*\"]\n\n1. c2-d3 *\n\n"
                         "[Site \"Lyon\"]\n[Result \"*\"]\n\n1. g2-f3 *\n\n[Result \"*\"]\n\n1. e2-f3 *\n");
    const auto total = [&](const std::string& site) {
        const CliRun r = run_gounki_args({"games", "--db", games.db, "--site", site, "--json"});
        const std::size_t at = r.out.find("\"total\":");
        return at == std::string::npos ? -1 : std::atoi(r.out.c_str() + at + 8);
    };
    CHECK(total("geneve") == 1);
    CHECK(total("CAFÉ") == 1);
    CHECK(total("lyon") == 1);
    CHECK(total("paris") == 0);
    // Accents alone would match every name: refused.
    const CliRun marks = run_gounki_args({"games", "--db", games.db, "--player", "\xCC\x81\xCC\x80"});
    CHECK(marks.status == 2);
    CHECK(contains(marks.err, "nothing is left to match"));
    CHECK(contains(run_gounki_args({"games", "--db", games.db, "--site", "cafe", "--json"}).out, "\"site\":\"cafe\""));
}

TEST_CASE("sorted by player, games of several kinds go by their first player's name", "[db][both]") {
    GOUNKI_EACH_BACKEND(backend);
    // First players: Kim (Gounki, White), Bea (Gomoku, Black), Ada (Pente, White). By White's name
    // alone the order would be Ada, Kim, Zed.
    const Imported games(backend, "kinds",
                         "[Game \"Gounki\"]\n[White \"Kim\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n1. c2-d3 1-0\n\n"
                         "[Game \"Gomoku\"]\n[Black \"Bea\"]\n[White \"Zed\"]\n[Result \"*\"]\n\n1. h8 i9 *\n\n"
                         "[Game \"Pente\"]\n[White \"Ada\"]\n[Black \"Cal\"]\n[Result \"*\"]\n\n1. j10 k11 *\n");
    check_orders(games.db, {"Kim", "Bea", "Ada"},
                 {{{"games", "--sort", "player"}, "Ada Bea Kim "},
                  {{"games", "--sort", "player", "--desc"}, "Kim Bea Ada "},
                  {{"export", "--sort", "player", "-o", "-"}, "Ada Bea Kim "}});
}
