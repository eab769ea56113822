// gounki match [--games N] [--a-depth N | --a-nodes N | --a-time MS] [--b-depth N | --b-nodes N | --b-time MS] [--seed S]
//              [--random-plies K | --openings FILE [--opening-plies N]] [--threads T] [-o FILE]
// gounki match --engine CMD [--engine-time MS] [--engine-nodes N] [--game gomoku|renju] [--b-nodes N] ...
//   An external Gomocup brain (A) against gounki's stone engine (B), one game after another.
// Plays engine setting A against setting B. Games go in pairs: the same opening twice (random, or
// a game of --openings), A playing White in one and Black in the other, so that neither the
// opening nor the colour favours either side.
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>

#include <charconv>
#include <cmath>
#include <functional>
#include <cstdlib>
#include <fstream>

#include "analysis/selfplay.hpp"
#include "analysis/stones/play.hpp"
#include "analysis/stones/search.hpp"
#include "cli/brain_options.hpp"
#include "cli/command.hpp"
#include "cli/engine_record.hpp"
#include "cli/record_games.hpp"
#include "parser/writer.hpp"
#include "protocol/brain_client.hpp"

namespace gounki::cli {

namespace {

using namespace gounki::analysis;

// Calls `take(name, value)` for each item of "name=value,name=value"; false, with `error` set, on
// an item without '=' or one that `take` refuses (it sets `error`).
bool for_each_setting(const std::string& text, std::string& error,
                      const std::function<bool(const std::string&, const std::string&)>& take) {
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find(',', at);
        if (end == std::string::npos) end = text.size();
        const std::string item = text.substr(at, end - at);
        at = end + 1;
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos) return error = "expected name=value, got '" + item + "'", false;
        if (!take(item.substr(0, eq), item.substr(eq + 1))) return false;
    }
    return true;
}

// `text` read whole as a whole number; false when it is not one.
bool whole_number(std::string_view text, long long& out) {
    const char* end = text.data() + text.size();
    const auto [stop, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc() && stop == end;
}

// The evaluation weights ("advance=0:120:60:..." for the table) and the search's pruning margins
// (futility, reverse_futility) over the options.
bool parse_weights(const std::string& text, SearchOptions& o, std::string& error) {
    EvalWeights& w = o.eval;
    return for_each_setting(text, error, [&](const std::string& name, const std::string& value) {
        if (name == "advance") {
            std::size_t i = 0, p = 0;
            while (i < w.advance.size() && p <= value.size()) {
                std::size_t q = value.find(':', p);
                if (q == std::string::npos) q = value.size();
                long long n = 0;
                if (!whole_number(std::string_view(value).substr(p, q - p), n) || n != int(n))
                    return error = "expected advance=number:number:..., got 'advance=" + value + "'", false;
                w.advance[i++] = int(n);
                p = q + 1;
            }
            return true;
        }
        int* field = name == "piece"       ? &w.piece
            : name == "range2"             ? &w.range2
            : name == "range3"             ? &w.range3
            : name == "runner"             ? &w.runner
            : name == "hanging_their_move" ? &w.hanging_their_move
            : name == "hanging_our_move"   ? &w.hanging_our_move
            : name == "defended"           ? &w.defended
            : name == "contested"          ? &w.contested
            : name == "tempo"              ? &w.tempo
            : name == "futility"           ? &o.futility_margin
            : name == "reverse_futility"   ? &o.reverse_futility_margin
                                           : nullptr;
        if (!field) return error = "unknown evaluation weight '" + name + "'", false;
        long long n = 0;
        if (!whole_number(value, n) || n != int(n))
            return error = "expected name=number, got '" + name + "=" + value + "'", false;
        *field = int(n);
        return true;
    });
}

// The stone engine's prover settings, "name=value,...", for tuning against an external engine.
bool parse_stone_settings(const std::string& text, StoneSearchOptions& o, std::string& error) {
    return for_each_setting(text, error, [&](const std::string& name, const std::string& text_value) {
        long long value = -1;
        if (!whole_number(text_value, value) || value < 0)
            return error = "expected name=number, got '" + name + "=" + text_value + "'", false;
        if (name == "vcf_plies") o.vcf_plies = int(std::min(value, 41LL));
        else if (name == "vcf_nodes") o.vcf_nodes = std::uint64_t(value);
        else if (name == "vct_plies") o.vct_plies = int(std::min(value, 41LL));
        else if (name == "vct_nodes") o.vct_nodes = std::uint64_t(value);
        else if (name == "threat_penalty") o.threat_penalty = int(std::min(value, 5000LL));
        else if (name == "threat_nodes") o.threat_nodes = std::uint64_t(value);
        else if (name == "root_vct_share") o.root_vct_share = int(std::min(value, 1000LL));
        else if (name == "root_vct_nodes") o.root_vct_nodes = std::uint64_t(value);
        else return error = "unknown stone engine setting '" + name + "'", false;
        return true;
    });
}

struct MatchGame {
    PlayedGame game;
    bool a_is_white = true;
};

} // namespace

void describe_match(QCommandLineParser& p) {
    p.addOption({"games", "Number of games, rounded up to an even number (default 200).", "N"});
    p.addOption({"a-depth", "Player A searches this depth per move (default: the engine's default node budget).", "N"});
    p.addOption({"a-nodes", "Player A searches this many nodes per move.", "N"});
    p.addOption({"b-depth", "Player B searches this depth per move (default 4).", "N"});
    p.addOption({"b-nodes", "Player B searches this many nodes per move.", "N"});
    p.addOption({"a-time", "Player A searches this many milliseconds per move.", "MS"});
    p.addOption({"b-time", "Player B searches this many milliseconds per move (against --engine: compare with --engine-time).", "MS"});
    p.addOption({"seed", "Seed of the random openings (default 1).", "S"});
    p.addOption({"random-plies", "Random plies at the start of each opening (default 4).", "K"});
    p.addOption({"openings",
                 "Play from the openings of FILE instead (record files of any format, or a folder): each game's start "
                 "and moves, one pair of games an opening (--games N goes round them).",
                 "FILE"});
    p.addOption({"opening-plies", "With --openings: only the first N plies of each game (0: its start alone).", "N"});
    p.addOption({"max-plies", "A game still going after this many plies is scored a draw (default 400).", "N"});
    p.addOption({"threads", "Games played at once (default 1).", "T"});
    p.addOption({QStringList{"o", "output"}, "Also write the games as records to FILE.", "FILE"});
    p.addOption({"json", "Print one JSON object instead of text."});
    p.addOption({"a-eval",
                 "Settings of A, for tuning: name=value,... (evaluation weights of analysis/gounki/eval.hpp, futility, "
                 "reverse_futility).",
                 "W"});
    p.addOption({"b-eval", "Evaluation weights of B, for tuning (against --engine: the stone engine's vcf_plies, vcf_nodes, "
                           "vct_plies, vct_nodes, threat_penalty, threat_nodes, root_vct_share, root_vct_nodes).", "W"});
    add_brain_options(p,
                      "Player A is this external Gomocup-protocol engine (a command line run by /bin/sh), B gounki's stone "
                      "engine (--b-nodes, --b-depth): Gomoku or Renju games.",
                      "per move");
    p.addOption({"game", "With --engine: gomoku (freestyle, the default) or renju.", "GAME"});
}

namespace {

// What the command line asks for, read and checked before anything is played.
struct MatchOptions {
    long long games = 200, seed = 1, random_plies = 4, max_plies = 400, threads = 1;
    std::vector<RecordGame> openings; // --openings: pair k plays openings[k % size]; empty: random openings
    SearchLimits a = default_search_limits(), b{4, 0, 0};
    SearchOptions a_options, b_options;
    std::string a_name, b_name;
    QString output; // empty: no records written
    bool json = false;
};

// --X-depth / --X-nodes / --X-eval of player X ("a" or "b").
bool read_player(const QCommandLineParser& p, const std::string& x, SearchLimits& limits, SearchOptions& options,
                 std::string& name, std::string& error) {
    const std::string depth = x + "-depth", nodes = x + "-nodes", time = x + "-time", eval = x + "-eval";
    long long d = 0, n = 0, t = 0;
    if (!read_number(p, depth.c_str(), 1, max_search_depth, d)) return error = "--" + depth + " must be from 1 to 64", false;
    if (!read_number(p, nodes.c_str(), 1, 1LL << 40, n)) return error = "--" + nodes + " must be a positive whole number", false;
    if (!read_number(p, time.c_str(), 1, 1LL << 30, t)) return error = "--" + time + " must be a positive number of milliseconds", false;
    if (d && n) return error = "give --" + depth + " or --" + nodes + ", not both", false;
    if (t && (d || n)) return error = "give --" + time + " alone, not with --" + (d ? depth : nodes), false;
    if (d) limits = SearchLimits{int(d), 0, 0};
    if (n) limits = SearchLimits{0, std::uint64_t(n), 0};
    if (t) limits = SearchLimits{0, 0, int(t)};
    options.hash_mb = 16;
    name = engine_name(limits);
    if (p.isSet(QString::fromStdString(eval)) && !p.isSet("engine")) { // with --engine: the stone engine's (run_engine_match)
        const std::string weights = p.value(QString::fromStdString(eval)).toStdString();
        if (!parse_weights(weights, options, error)) return false;
        name += " (" + weights + ")";
    }
    return true;
}

bool read_options(const Command& self, const QCommandLineParser& p, MatchOptions& o, int& code) {
    const auto fail = [&](const std::string& message) { return code = usage_error(self, message), false; };
    if ((code = refuse_arguments(self, p))) return false;
    if (!read_number(p, "games", 1, 1000000, o.games)) return fail("--games must be from 1 to 1000000");
    if (!read_number(p, "seed", 0, 1LL << 62, o.seed)) return fail("--seed must be a whole number");
    if (!read_number(p, "random-plies", 0, 40, o.random_plies)) return fail("--random-plies must be from 0 to 40");
    if (!read_number(p, "max-plies", 10, 100000, o.max_plies)) return fail("--max-plies must be from 10 to 100000");
    if (!read_number(p, "threads", 1, 256, o.threads)) return fail("--threads must be from 1 to 256");
    std::string error;
    if (!read_player(p, "a", o.a, o.a_options, o.a_name, error) || !read_player(p, "b", o.b, o.b_options, o.b_name, error))
        return fail(error);
    if (p.isSet("output")) o.output = p.value("output");
    o.json = p.isSet("json");
    return true;
}

// "Gounki, Gomoku and Ninuki"
std::string kinds_text(const std::map<GameKind, std::vector<RecordGame>>& by_kind) {
    std::string out;
    std::size_t i = 0;
    for (const auto& [kind, games] : by_kind) {
        if (i++) out += i == by_kind.size() ? " and " : ", ";
        out += game_kind_name(kind);
    }
    return out;
}

// --openings FILE: every game of the files an opening of `kind` (the Gounki match's, or --game's;
// unset: the stone game the files hold), its first --opening-plies plies; it must leave a game to play.
bool read_openings(const Command& self, const QCommandLineParser& p, std::optional<GameKind> kind, MatchOptions& o,
                   int& code) {
    const auto fail = [&](const std::string& message) { return code = usage_error(self, message), false; };
    if (!p.isSet("openings")) return p.isSet("opening-plies") ? fail("--opening-plies goes with --openings") : true;
    if (p.isSet("random-plies")) return fail("give --openings or --random-plies, not both");
    long long plies = -1;
    if (p.isSet("opening-plies") && !read_number(p, "opening-plies", 0, 100000, plies))
        return fail("--opening-plies must be a whole number from 0 to 100000");
    const QString name = p.value("openings");
    std::vector<parser::Diagnostic> folder_errors;
    const std::vector<std::string> files = input_files(QStringList{name}, std::nullopt, folder_errors);
    for (const parser::Diagnostic& d : folder_errors) print_err(parser::format_diagnostic(d) + "\n");
    std::map<GameKind, std::vector<RecordGame>> by_kind;
    if (!folder_errors.empty() || !read_record_games(files, std::nullopt, 0, by_kind)) {
        print_err("gounki match: the openings above do not read; no game played\n");
        return code = exit_findings, false;
    }
    if (by_kind.empty()) return fail("--openings: no game in '" + name.toStdString() + "'");
    if (by_kind.size() > 1 || (kind && by_kind.begin()->first != *kind))
        return fail("--openings: '" + name.toStdString() + "' holds " + kinds_text(by_kind) + " games; the match plays " +
                    (kind ? std::string(game_kind_name(*kind)) : std::string("one game")));
    if (!kind && !is_stone_game(by_kind.begin()->first))
        return fail("--openings: '" + name.toStdString() + "' holds Gounki games; a Gomocup brain plays no Gounki");
    for (RecordGame& g : by_kind.begin()->second) {
        if (plies >= 0 && std::int64_t(g.moves.size()) > plies) g.moves.resize(std::size_t(plies));
        AnyPosition pos = g.start;
        for (const Move m : g.moves) pos.play(m);
        if (pos.game_over())
            return fail("--openings: the game at " + g.where + " is over after its " + std::to_string(g.moves.size()) +
                        " plies: no opening to play from (--opening-plies cuts the games)");
        o.openings.push_back(std::move(g));
    }
    if (!p.isSet("games")) o.games = 2 * std::int64_t(o.openings.size());
    return true;
}

// Games in pairs: game i opens with the random plies of pair i / 2, A playing White when i is even.
std::vector<MatchGame> play_all(const MatchOptions& o) {
    const int pairs = int((o.games + 1) / 2);
    std::vector<int> indices(static_cast<std::size_t>(pairs) * 2);
    for (std::size_t i = 0; i < indices.size(); ++i) indices[i] = int(i);
    const std::function<MatchGame(const int&)> play = [&o](const int& i) {
        Random rng(Random(std::uint64_t(o.seed) * 0x100000001B3ull + std::uint64_t(i / 2)).next());
        const RecordGame* given = o.openings.empty() ? nullptr : &o.openings[std::size_t(i / 2) % o.openings.size()];
        const Position start = given ? given->start.as_gounki() : Position::start();
        const std::vector<Move> opening = given ? given->moves : random_opening(start, int(o.random_plies), rng);
        Searcher sa(o.a_options), sb(o.b_options);
        MatchGame m;
        m.a_is_white = i % 2 == 0;
        const EnginePlayer pa{&sa, o.a}, pb{&sb, o.b};
        const int max_plies = int(o.max_plies);
        m.game = m.a_is_white ? play_game(start, opening, pa, pb, max_plies) : play_game(start, opening, pb, pa, max_plies);
        return m;
    };
    QThreadPool pool;
    pool.setMaxThreadCount(int(o.threads));
    return QtConcurrent::blockingMapped<std::vector<MatchGame>>(&pool, indices, play);
}

struct MatchScore {
    int a_wins = 0, b_wins = 0, draws = 0, a_white_wins = 0, a_black_wins = 0;
    std::size_t plies = 0;
};

MatchScore score_of(const std::vector<MatchGame>& played) {
    MatchScore s;
    for (const MatchGame& m : played) {
        s.plies += m.game.plies.size();
        const Color a_color = m.a_is_white ? Color::white : Color::black;
        if (m.game.outcome == Outcome::none) ++s.draws;
        else if (m.game.outcome == win_for(a_color)) {
            ++s.a_wins;
            ++(m.a_is_white ? s.a_white_wins : s.a_black_wins);
        } else ++s.b_wins;
    }
    return s;
}

void print_summary(const MatchOptions& o, const MatchScore& s, std::size_t games) {
    const double n = double(games);
    const double score = (s.a_wins + 0.5 * s.draws) / n;
    // Elo difference from the score, and a 95% interval from the per-game standard deviation.
    const double var =
        ((s.a_wins * (1 - score) * (1 - score)) + (s.b_wins * score * score) + s.draws * (0.5 - score) * (0.5 - score)) / n;
    const double se = std::sqrt(var / n);
    auto elo = [](double x) {
        x = std::clamp(x, 1e-3, 1 - 1e-3);
        return -400.0 * std::log10(1 / x - 1);
    };
    char line[512];
    if (o.json) {
        std::snprintf(line, sizeof line,
                      "{\"a\":\"%s\",\"b\":\"%s\",\"games\":%d,\"a_wins\":%d,\"b_wins\":%d,\"draws\":%d,\"a_score\":%.4f,"
                      "\"elo\":%.1f,\"elo_low\":%.1f,\"elo_high\":%.1f,\"plies_per_game\":%.1f}\n",
                      o.a_name.c_str(), o.b_name.c_str(), int(n), s.a_wins, s.b_wins, s.draws, score, elo(score),
                      elo(score - 1.96 * se), elo(score + 1.96 * se), double(s.plies) / n);
    } else {
        std::snprintf(line, sizeof line,
                      "A = %s, B = %s\n%d %s: A won %d (%d as White, %d as Black), B won %d, draws %d\n"
                      "A scored %.1f%%, Elo difference %+.0f (95%%: %+.0f to %+.0f); %.1f plies a game\n",
                      o.a_name.c_str(), o.b_name.c_str(), int(n), games == 1 ? "game" : "games", s.a_wins, s.a_white_wins,
                      s.a_black_wins, s.b_wins, s.draws,
                      100 * score, elo(score), elo(score - 1.96 * se), elo(score + 1.96 * se), double(s.plies) / n);
    }
    print_out(line);
}

// --engine: the external brain against gounki's stone engine.
struct EngineMatch {
    protocol::BrainSettings brain;
    stones::Rules rules;
};

// One game: the opening, then the brain (BOARD each move) and the searcher in turn.
PlayedStoneGame play_engine_game(protocol::BrainClient& brain, StoneSearcher& searcher, const SearchLimits& b,
                                 const stones::StonePosition& start, std::span<const Move> opening, Color engine_color,
                                 int max_plies) {
    PlayedStoneGame g;
    g.start = start;
    stones::StonePosition pos = start;
    std::vector<int> order; // what BOARD sends: the start's stones (an opening from set-up stones), then each move
    for (int p = 0; p < stones::point_count; ++p)
        if (start.on_board(p) && start.at(p) != stones::Stone::empty) order.push_back(p);
    brain.new_game(start.rules());
    while (!pos.game_over() && int(g.plies.size()) < max_plies) {
        PlayedPly ply;
        if (g.plies.size() < opening.size()) {
            ply.move = opening[g.plies.size()];
            ply.from_opening = true;
        } else if (pos.side_to_move() == engine_color) {
            const protocol::BrainAnswer a = brain.think(pos, order);
            ply.move = Move::placement(a.point);
            ply.score = a.eval.value_or(0);
            ply.depth = a.depth;
        } else {
            const SearchResult r = searcher.search(pos, b);
            if (!r.best) break;
            ply.move = r.best;
            ply.score = r.score;
            ply.depth = r.depth;
        }
        stones::StoneUndo u;
        pos.play(ply.move, u);
        order.push_back(ply.move.point());
        g.plies.push_back(ply);
    }
    brain.settle(); // every move the brain gave belongs to the position it was asked
    g.outcome = pos.outcome();
    g.adjudicated = !pos.game_over();
    return g;
}

int run_engine_match(const Command& self, const QCommandLineParser& p, MatchOptions& o) {
    for (const char* a : {"a-depth", "a-nodes", "a-time", "a-eval"})
        if (p.isSet(a)) return usage_error(self, std::string("--") + a + " does not go with --engine (A is the engine)");
    EngineMatch m;
    std::string error;
    if (!read_brain_settings(p, m.brain, error)) return usage_error(self, error);
    GameKind kind = GameKind::gomoku;
    if (p.isSet("game") && !read_game(self, "game", p.value("game"), kind)) return exit_usage;
    if (!is_stone_game(kind)) return usage_error(self, "--engine plays the five-in-a-row games (a Gomocup brain plays no Gounki)");
    if (int code = exit_ok; !read_openings(self, p, p.isSet("game") ? std::optional(kind) : std::nullopt, o, code)) return code;
    if (!o.openings.empty()) kind = o.openings[0].start.kind();
    m.rules = stones::Rules::defaults(kind);
    const stones::StonePosition start(m.rules);
    std::vector<PlayedStoneGame> played;
    std::vector<bool> engine_first;
    bool failed = false; // the brain failed: the match stopped
    try {
        protocol::BrainClient brain(m.brain);
        o.a_name = "engine '" + brain.name() + "' (time " + std::to_string(m.brain.turn_ms) + " ms" +
            (m.brain.max_node ? ", nodes " + std::to_string(m.brain.max_node) : std::string()) + ")";
        StoneSearchOptions b_options;
        if (p.isSet("b-eval")) {
            if (!parse_stone_settings(p.value("b-eval").toStdString(), b_options, error)) return usage_error(self, error);
            o.b_name += " (" + p.value("b-eval").toStdString() + ")";
        }
        StoneSearcher searcher(b_options);
        for (long long i = 0; i < (o.games + 1) / 2 * 2; ++i) {
            Random rng(Random(std::uint64_t(o.seed) * 0x100000001B3ull + std::uint64_t(i / 2)).next());
            const RecordGame* given = o.openings.empty() ? nullptr : &o.openings[std::size_t(i / 2) % o.openings.size()];
            const stones::StonePosition& from = given ? given->start.as_stones() : start; // its rules and board
            const std::vector<Move> opening = given ? given->moves : analysis::random_opening(start, int(o.random_plies), rng);
            engine_first.push_back(i % 2 == 0);
            const Color engine_color = engine_first.back() ? first_mover(kind) : ~first_mover(kind);
            try {
                played.push_back(play_engine_game(brain, searcher, o.b, from, opening, engine_color, int(o.max_plies)));
            } catch (const protocol::BrainError& e) {
                // The games played before are kept: written and scored below.
                print_err("gounki match: game " + std::to_string(i + 1) + ": " + e.what() + "; the match stops after " +
                          std::to_string(i) + (i == 1 ? " game\n" : " games\n"));
                engine_first.pop_back();
                failed = true;
                break;
            }
        }
    } catch (const protocol::BrainError& e) {
        print_err("gounki match: cannot use the engine: " + std::string(e.what()) + "\n");
        return exit_findings;
    }
    MatchScore score;
    for (std::size_t i = 0; i < played.size(); ++i) {
        const Color a_color = engine_first[i] ? first_mover(kind) : ~first_mover(kind);
        score.plies += played[i].plies.size();
        if (played[i].outcome == Outcome::none || played[i].outcome == Outcome::draw) ++score.draws;
        else if (played[i].outcome == win_for(a_color)) {
            ++score.a_wins;
            ++(a_color == Color::white ? score.a_white_wins : score.a_black_wins);
        } else ++score.b_wins;
    }
    if (!o.output.isEmpty()) {
        std::ofstream file;
        if (!open_output(self, o.output.toStdString(), file)) return exit_usage;
        for (std::size_t i = 0; i < played.size() && file; ++i) {
            const bool a_white = (engine_first[i] ? first_mover(kind) : ~first_mover(kind)) == Color::white;
            file << parser::write_record(engine_game_record(played[i], "gounki match", a_white ? o.a_name : o.b_name,
                                                            a_white ? o.b_name : o.a_name, i + 1));
        }
        if (!file) {
            print_err("gounki match: cannot write '" + o.output.toStdString() + "'\n");
            return exit_usage;
        }
    }
    if (!played.empty()) print_summary(o, score, played.size());
    return failed ? exit_findings : exit_ok;
}

} // namespace

int run_match(const QCommandLineParser& p) {
    const Command& self = *find_command("match");
    MatchOptions o;
    int code = exit_ok;
    if (!read_options(self, p, o, code)) return code;
    if (p.isSet("engine")) return run_engine_match(self, p, o);
    for (const char* e : {"engine-time", "engine-nodes", "game"})
        if (p.isSet(e)) return usage_error(self, std::string("--") + e + " is for --engine");
    if (!read_openings(self, p, GameKind::gounki, o, code)) return code;
    std::ofstream file;
    if (!o.output.isEmpty() && !open_output(self, o.output.toStdString(), file)) return exit_usage;
    const std::vector<MatchGame> played = play_all(o);
    for (std::size_t i = 0; i < played.size() && file.is_open(); ++i) {
        const MatchGame& m = played[i];
        const std::string& white = m.a_is_white ? o.a_name : o.b_name;
        const std::string& black = m.a_is_white ? o.b_name : o.a_name;
        file << parser::write_record(engine_game_record(m.game, "gounki match", white, black, i + 1));
    }
    if (file.is_open() && !file) {
        print_err("gounki match: error writing '" + o.output.toStdString() + "'\n");
        return exit_usage;
    }
    print_summary(o, score_of(played), played.size());
    return exit_ok;
}

} // namespace gounki::cli
