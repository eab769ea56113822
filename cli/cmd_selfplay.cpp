// gounki selfplay [--game KIND [--size N] [--rules WORDS]] --games N [--depth N | --nodes N] [--seed S] [--random-plies K]
//                 [--threads T] [--fit] [--json] -o FILE
#include <QJsonDocument>
#include <QJsonObject>
#include <QtConcurrent/QtConcurrentMap>

#include <fstream>

#include "analysis/curve.hpp"
#include "analysis/selfplay.hpp"
#include "analysis/stones/play.hpp"
#include "cli/command.hpp"
#include "cli/engine_record.hpp"
#include "cli/progress.hpp"
#include "parser/writer.hpp"

namespace gounki::cli {

namespace {

using namespace gounki::analysis;

// What the summary needs of a game of either kind.
struct GameSummary {
    std::string record;
    Outcome outcome = Outcome::none;
    bool adjudicated = false;
    std::vector<CurveSample> samples;
    std::size_t plies = 0;
};

// The seed of game `i` of a run: independent streams for every game, same games for the same seed.
std::uint64_t game_seed(std::uint64_t seed, int i) { return Random(seed * 0x100000001B3ull + std::uint64_t(i)).next(); }

} // namespace

void describe_selfplay(QCommandLineParser& p) {
    add_game_options(p, QString::fromStdString(game_ids_text() + ": the game (default gounki), from its start"));
    p.addOption({"games", "Number of games (default 10).", "N"});
    p.addOption({"depth", "Search depth per move (default 4).", "N"});
    p.addOption({"nodes", "Search this many nodes per move instead of a depth.", "N"});
    p.addOption({"seed", "Seed of the random openings (default 1).", "S"});
    p.addOption({"random-plies", "Random plies at the start of each game (default 4).", "K"});
    p.addOption({"max-plies", "A game still going after this many plies is scored a draw (default 400).", "N"});
    p.addOption({"threads", "Games played at once (default 1).", "T"});
    p.addOption({"fit", "Fit the judge's curve (score to expected result) on the games and print it on stderr."});
    p.addOption({"json", "Print a summary as one JSON object on standard output (with -o FILE, not '-')."});
    p.addOption({QStringList{"o", "output"}, "Write the records to FILE ('-' for standard output).", "FILE"});
}

namespace {

// What the command line asks for, read and checked before anything is played.
struct SelfplayOptions {
    long long games = 10, depth = 4, nodes = 0, seed = 1, random_plies = 4, max_plies = 400, threads = 1;
    GameKind kind = GameKind::gounki;
    AnyPosition start; // the game's start, with its size and rules
    SearchLimits limits;
    std::string player; // both players' name in the records
    QString output;
    bool json = false, fit = false;
};

bool read_options(const Command& self, const QCommandLineParser& p, SelfplayOptions& o, int& code) {
    const auto fail = [&](const std::string& message) { return code = usage_error(self, message), false; };
    if ((code = refuse_arguments(self, p))) return false;
    if (!p.isSet("output")) return fail("-o FILE is required ('-' for standard output)");
    const auto number = [&](const char* name, long long lo, long long hi, long long& out) {
        return read_number(p, name, lo, hi, out);
    };
    if (!number("games", 1, 1000000, o.games)) return fail("--games must be a whole number from 1 to 1000000");
    if (!number("depth", 1, max_search_depth, o.depth)) return fail("--depth must be a whole number from 1 to 64");
    if (!number("nodes", 1, 1LL << 40, o.nodes)) return fail("--nodes must be a positive whole number");
    if (!number("seed", 0, (1LL << 62), o.seed)) return fail("--seed must be a whole number");
    if (!number("random-plies", 0, 40, o.random_plies)) return fail("--random-plies must be from 0 to 40");
    if (!number("max-plies", 10, 100000, o.max_plies)) return fail("--max-plies must be from 10 to 100000");
    if (!number("threads", 1, 256, o.threads)) return fail("--threads must be from 1 to 256");
    if (p.isSet("depth") && p.isSet("nodes")) return fail("give --depth or --nodes, not both");
    if (!read_game_options(self, p, o.kind, o.start)) return code = exit_usage, false;
    o.json = p.isSet("json");
    o.fit = p.isSet("fit");
    o.output = p.value("output");
    if (o.json && o.output == "-") return fail("--json prints on standard output: give -o FILE, not '-'");
    if (o.nodes) o.limits.nodes = std::uint64_t(o.nodes);
    else o.limits.depth = int(o.depth);
    o.player = engine_name(o.limits);
    return true;
}

// Game `i` of the run: its record and what the summary and the curve fit need of it.
GameSummary play_one(const SelfplayOptions& o, int i) {
    Random rng(game_seed(std::uint64_t(o.seed), i));
    GameSummary out;
    o.start.visit([&](const auto& start) {
        using Pos = std::decay_t<decltype(start)>;
        const std::vector<Move> opening = random_opening(start, int(o.random_plies), rng);
        typename EngineOf<Pos>::Options options;
        options.hash_mb = 8;
        typename EngineOf<Pos>::Searcher searcher(options);
        const PlayedGameOf<Pos> g =
            play_game<Pos>(start, opening, {&searcher, o.limits}, {&searcher, o.limits}, int(o.max_plies));
        out.record = parser::write_record(engine_game_record(g, "gounki selfplay", o.player, o.player, std::size_t(i) + 1));
        out.outcome = g.adjudicated ? Outcome::none : g.outcome;
        out.adjudicated = g.adjudicated;
        out.plies = g.plies.size();
        const Color first = start.side_to_move();
        for (std::size_t k = 0; k < g.plies.size(); ++k) {
            if (g.plies[k].from_opening) continue;
            const Color mover = k % 2 == 0 ? first : ~first;
            const double result = out.outcome == Outcome::none || out.outcome == Outcome::draw ? 0.5
                : out.outcome == win_for(mover)                                                ? 1.0
                                                                                               : 0.0;
            out.samples.push_back({g.plies[k].score, result});
        }
    });
    return out;
}

std::vector<GameSummary> play_all(const SelfplayOptions& o) {
    std::vector<int> indices(static_cast<std::size_t>(o.games));
    for (int i = 0; i < int(o.games); ++i) indices[std::size_t(i)] = i;
    std::vector<GameSummary> played;
    if (o.threads > 1) {
        QThreadPool pool;
        pool.setMaxThreadCount(int(o.threads));
        const std::function<GameSummary(const int&)> play = [&o](const int& i) { return play_one(o, i); };
        return QtConcurrent::blockingMapped<std::vector<GameSummary>>(&pool, indices, play);
    }
    Progress progress("games", std::size_t(o.games), true); // only on a terminal
    for (int i : indices) {
        played.push_back(play_one(o, i));
        progress.update(std::size_t(i) + 1);
    }
    progress.finish();
    return played;
}

struct Tally {
    int wins[3] = {0, 0, 0}; // white, black, draw
    std::size_t plies = 0;
    CurveFit fit;
};

void print_summary(const SelfplayOptions& o, const Tally& t) {
    if (o.json) {
        QJsonObject obj;
        obj["game"] = QString::fromStdString(std::string(game_kind_name(o.kind)));
        obj["games"] = qint64(o.games);
        obj["white_wins"] = t.wins[0];
        obj["black_wins"] = t.wins[1];
        obj["draws"] = t.wins[2];
        obj["plies"] = qint64(t.plies);
        obj["plies_per_game"] = double(t.plies) / double(o.games);
        obj["player"] = QString::fromStdString(o.player);
        obj["output"] = o.output;
        if (o.fit)
            obj["fit"] = QJsonObject{{"scale", t.fit.scale},
                                     {"samples", t.fit.samples},
                                     {"log_loss", t.fit.log_loss},
                                     {"base_log_loss", t.fit.base_log_loss}};
        print_out(QJsonDocument(obj).toJson(QJsonDocument::Compact).toStdString() + "\n");
        return;
    }
    print_err(std::to_string(o.games) + " games: White won " + std::to_string(t.wins[0]) + ", Black won " +
              std::to_string(t.wins[1]) + ", draws (adjudicated) " + std::to_string(t.wins[2]) + "; " +
              std::to_string(t.plies / std::size_t(o.games)) + " plies a game on average\n");
    if (o.fit) {
        char line[256];
        std::snprintf(line, sizeof line,
                      "curve fit: scale %.1f over %d scored positions; mean log loss %.4f (0.5 everywhere: %.4f)\n", t.fit.scale,
                      t.fit.samples, t.fit.log_loss, t.fit.base_log_loss);
        print_err(line);
    }
}

} // namespace

int run_selfplay(const QCommandLineParser& p) {
    const Command& self = *find_command("selfplay");
    SelfplayOptions o;
    int code = exit_ok;
    if (!read_options(self, p, o, code)) return code;
    std::ofstream file;
    if (o.output != "-" && !open_output(self, o.output.toStdString(), file)) return exit_usage;
    const std::vector<GameSummary> played = play_all(o);
    Tally tally;
    std::vector<CurveSample> samples;
    for (const GameSummary& g : played) {
        if (o.output == "-") print_out(g.record);
        else file << g.record;
        ++tally.wins[g.outcome == Outcome::white_wins ? 0 : g.outcome == Outcome::black_wins ? 1 : 2];
        tally.plies += g.plies;
        samples.insert(samples.end(), g.samples.begin(), g.samples.end());
    }
    if (file.is_open() && !file) {
        print_err("gounki selfplay: error writing '" + o.output.toStdString() + "'\n");
        return exit_usage;
    }
    if (o.fit) tally.fit = fit_curve_scale(samples);
    print_summary(o, tally);
    return exit_ok;
}

} // namespace gounki::cli
