// gounki selfplay [--game KIND [--size N] [--rules WORDS]] --games N [--depth N | --nodes N] [--seed S] [--random-plies K]
//                 [--threads T] [--fit] [--json] -o FILE
#include <QDate>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtConcurrent/QtConcurrentMap>

#include <fstream>

#include "analysis/curve.hpp"
#include "analysis/selfplay.hpp"
#include "analysis/stones/play.hpp"
#include "cli/command.hpp"
#include "cli/progress.hpp"
#include "parser/writer.hpp"

namespace gounki::cli {

namespace {

using namespace gounki::analysis;

std::string player_name(const SearchLimits& l) {
    if (l.depth) return "gounki depth " + std::to_string(l.depth);
    if (l.nodes) return "gounki nodes " + std::to_string(l.nodes);
    return "gounki time " + std::to_string(l.time_ms) + " ms";
}

template <class Pos>
parser::GameRecord to_record(const PlayedGameOf<Pos>& g, const std::string& white, const std::string& black, int round) {
    parser::GameRecord r;
    r.set_start(g.start);
    const std::string result = result_token(g);
    r.tags = {{"Game", std::string(game_kind_name(r.kind))},
              {"Event", "gounki selfplay"},
              {"Date", QDate::currentDate().toString("yyyy.MM.dd").toStdString()},
              {"Round", std::to_string(round)},
              {"White", white},
              {"Black", black},
              {"Result", result}};
    if (g.adjudicated)
        r.tags.push_back({"Termination", "adjudicated as a draw after " + std::to_string(g.plies.size()) + " plies"});
    for (const PlayedPly& p : g.plies) {
        parser::Ply ply;
        ply.move = p.move;
        r.main.plies.push_back(std::move(ply));
    }
    r.result = result;
    r.result_written = true;
    return r;
}

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

int run_selfplay(const QCommandLineParser& p) {
    const Command& self = *find_command("selfplay");
    if (!p.positionalArguments().isEmpty())
        return usage_error(self, "unexpected argument '" + p.positionalArguments()[0].toStdString() + "'");
    if (!p.isSet("output")) return usage_error(self, "-o FILE is required ('-' for standard output)");
    auto number = [&](const char* name, long long def, long long lo, long long hi, long long& out) {
        if (!p.isSet(name)) {
            out = def;
            return true;
        }
        bool ok = false;
        out = p.value(name).toLongLong(&ok);
        return ok && out >= lo && out <= hi;
    };
    long long games, depth, nodes, seed, random_plies, max_plies, threads;
    if (!number("games", 10, 1, 1000000, games)) return usage_error(self, "--games must be a whole number from 1 to 1000000");
    if (!number("depth", 4, 1, max_search_depth, depth)) return usage_error(self, "--depth must be a whole number from 1 to 64");
    if (!number("nodes", 0, 1, 1LL << 40, nodes)) return usage_error(self, "--nodes must be a positive whole number");
    if (!number("seed", 1, 0, (1LL << 62), seed)) return usage_error(self, "--seed must be a whole number");
    if (!number("random-plies", 4, 0, 40, random_plies)) return usage_error(self, "--random-plies must be from 0 to 40");
    if (!number("max-plies", 400, 10, 100000, max_plies)) return usage_error(self, "--max-plies must be from 10 to 100000");
    if (!number("threads", 1, 1, 256, threads)) return usage_error(self, "--threads must be from 1 to 256");
    if (p.isSet("depth") && p.isSet("nodes")) return usage_error(self, "give --depth or --nodes, not both");
    GameKind kind = GameKind::gounki;
    AnyPosition game_start;
    if (!read_game_options(self, p, kind, game_start)) return exit_usage;
    const bool json = p.isSet("json");
    if (json && p.value("output") == "-") return usage_error(self, "--json prints on standard output: give -o FILE, not '-'");

    SearchLimits limits;
    if (nodes) limits.nodes = std::uint64_t(nodes);
    else limits.depth = int(depth);
    const std::string name = player_name(limits);

    const QString out_name = p.value("output");
    std::ofstream file;
    if (out_name != "-") {
        file.open(out_name.toStdString(), std::ios::binary);
        if (!file) {
            print_err("gounki selfplay: cannot write '" + out_name.toStdString() + "'\n");
            return exit_usage;
        }
    }

    std::vector<int> indices(static_cast<std::size_t>(games));
    for (int i = 0; i < int(games); ++i) indices[std::size_t(i)] = i;
    auto play = [&](int i) {
        Random rng(game_seed(std::uint64_t(seed), i));
        GameSummary out;
        auto sample = [&](Outcome outcome, bool adjudicated, const std::vector<PlayedPly>& plies, Color first) {
            out.outcome = adjudicated ? Outcome::none : outcome;
            out.adjudicated = adjudicated;
            out.plies = plies.size();
            for (std::size_t k = 0; k < plies.size(); ++k) {
                if (plies[k].from_opening) continue;
                const Color mover = k % 2 == 0 ? first : ~first;
                const double result = out.outcome == Outcome::none || out.outcome == Outcome::draw ? 0.5
                    : out.outcome == win_for(mover)                                                ? 1.0
                                                                                                   : 0.0;
                out.samples.push_back({plies[k].score, result});
            }
        };
        game_start.visit([&](const auto& start) {
            using Pos = std::decay_t<decltype(start)>;
            const std::vector<Move> opening = random_opening(start, int(random_plies), rng);
            typename EngineOf<Pos>::Options options;
            options.hash_mb = 8;
            typename EngineOf<Pos>::Searcher searcher(options);
            const PlayedGameOf<Pos> g = play_game<Pos>(start, opening, {&searcher, limits}, {&searcher, limits}, int(max_plies));
            out.record = parser::write_record(to_record(g, name, name, i + 1));
            sample(g.outcome, g.adjudicated, g.plies, start.side_to_move());
        });
        return out;
    };
    std::vector<GameSummary> played;
    if (threads > 1) {
        QThreadPool pool;
        pool.setMaxThreadCount(int(threads));
        played =
            QtConcurrent::blockingMapped<std::vector<GameSummary>>(&pool, indices, std::function<GameSummary(const int&)>(play));
    } else {
        Progress progress("games", std::size_t(games), true); // only on a terminal
        for (int i : indices) {
            played.push_back(play(i));
            progress.update(std::size_t(i) + 1);
        }
        progress.finish();
    }

    int wins[3] = {0, 0, 0}; // white, black, draw
    std::vector<CurveSample> samples;
    std::size_t total_plies = 0;
    for (const GameSummary& g : played) {
        if (out_name == "-") print_out(g.record);
        else file << g.record;
        ++wins[g.outcome == Outcome::white_wins ? 0 : g.outcome == Outcome::black_wins ? 1 : 2];
        total_plies += g.plies;
        samples.insert(samples.end(), g.samples.begin(), g.samples.end());
    }
    if (file.is_open() && !file) {
        print_err("gounki selfplay: error writing '" + out_name.toStdString() + "'\n");
        return exit_usage;
    }
    const CurveFit fit = p.isSet("fit") ? fit_curve_scale(samples) : CurveFit{};
    if (json) {
        QJsonObject o;
        o["game"] = QString::fromStdString(std::string(game_kind_name(kind)));
        o["games"] = qint64(games);
        o["white_wins"] = wins[0];
        o["black_wins"] = wins[1];
        o["draws"] = wins[2];
        o["plies"] = qint64(total_plies);
        o["plies_per_game"] = double(total_plies) / double(games);
        o["player"] = QString::fromStdString(name);
        o["output"] = out_name;
        if (p.isSet("fit")) {
            QJsonObject f;
            f["scale"] = fit.scale;
            f["samples"] = fit.samples;
            f["log_loss"] = fit.log_loss;
            f["base_log_loss"] = fit.base_log_loss;
            o["fit"] = f;
        }
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
        return exit_ok;
    }
    print_err(std::to_string(games) + " games: White won " + std::to_string(wins[0]) + ", Black won " + std::to_string(wins[1]) +
              ", draws (adjudicated) " + std::to_string(wins[2]) + "; " + std::to_string(total_plies / std::size_t(games)) +
              " plies a game on average\n");
    if (p.isSet("fit")) {
        char line[256];
        std::snprintf(line, sizeof line,
                      "curve fit: scale %.1f over %d scored positions; mean log loss %.4f (0.5 everywhere: %.4f)\n", fit.scale,
                      fit.samples, fit.log_loss, fit.base_log_loss);
        print_err(line);
    }
    return exit_ok;
}

} // namespace gounki::cli
