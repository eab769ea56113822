// gounki match [--games N] [--a-depth N | --a-nodes N] [--b-depth N | --b-nodes N] [--seed S]
//              [--random-plies K] [--threads T] [-o FILE]
// Plays engine setting A against setting B. Games go in pairs: the same random opening twice, A
// playing White in one and Black in the other, so that neither the opening nor the colour favours
// either side.
#include <QDate>
#include <QtConcurrent/QtConcurrentMap>

#include <cmath>
#include <cstdlib>
#include <fstream>

#include "analysis/selfplay.hpp"
#include "cli/command.hpp"
#include "parser/writer.hpp"

namespace gounki::cli {

namespace {

using namespace gounki::analysis;

std::string setting_name(const SearchLimits& l) {
    if (l.depth) return "gounki depth " + std::to_string(l.depth);
    if (l.nodes) return "gounki nodes " + std::to_string(l.nodes);
    return "gounki time " + std::to_string(l.time_ms) + " ms";
}

// Reads "name=value,name=value" over the options: evaluation weights ("advance=0:120:60:..." for
// the table) and the search's pruning margins (futility, reverse_futility).
bool parse_weights(const std::string& text, SearchOptions& o, std::string& error) {
    EvalWeights& w = o.eval;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find(',', at);
        if (end == std::string::npos) end = text.size();
        const std::string item = text.substr(at, end - at);
        at = end + 1;
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos) {
            error = "expected name=value, got '" + item + "'";
            return false;
        }
        const std::string name = item.substr(0, eq), value = item.substr(eq + 1);
        if (name == "advance") {
            std::size_t i = 0, p = 0;
            while (i < w.advance.size() && p <= value.size()) {
                std::size_t q = value.find(':', p);
                if (q == std::string::npos) q = value.size();
                w.advance[i++] = std::atoi(value.substr(p, q - p).c_str());
                p = q + 1;
            }
            continue;
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
        if (!field) {
            error = "unknown evaluation weight '" + name + "'";
            return false;
        }
        *field = std::atoi(value.c_str());
    }
    return true;
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
    p.addOption({"seed", "Seed of the random openings (default 1).", "S"});
    p.addOption({"random-plies", "Random plies at the start of each opening (default 4).", "K"});
    p.addOption({"max-plies", "A game still going after this many plies is scored a draw (default 400).", "N"});
    p.addOption({"threads", "Games played at once (default 1).", "T"});
    p.addOption({QStringList{"o", "output"}, "Also write the games as records to FILE.", "FILE"});
    p.addOption({"json", "Print one JSON object instead of text."});
    p.addOption({"a-eval",
                 "Settings of A, for tuning: name=value,... (evaluation weights of analysis/gounki/eval.hpp, futility, "
                 "reverse_futility).",
                 "W"});
    p.addOption({"b-eval", "Evaluation weights of B, for tuning.", "W"});
}

int run_match(const QCommandLineParser& p) {
    const Command& self = *find_command("match");
    if (!p.positionalArguments().isEmpty())
        return usage_error(self, "unexpected argument '" + p.positionalArguments()[0].toStdString() + "'");
    auto number = [&](const char* name, long long def, long long lo, long long hi, long long& out) {
        if (!p.isSet(name)) {
            out = def;
            return true;
        }
        bool ok = false;
        out = p.value(name).toLongLong(&ok);
        return ok && out >= lo && out <= hi;
    };
    long long games, a_depth, a_nodes, b_depth, b_nodes, seed, random_plies, max_plies, threads;
    if (!number("games", 200, 1, 1000000, games)) return usage_error(self, "--games must be from 1 to 1000000");
    if (!number("a-depth", 0, 1, max_search_depth, a_depth)) return usage_error(self, "--a-depth must be from 1 to 64");
    if (!number("a-nodes", 0, 1, 1LL << 40, a_nodes)) return usage_error(self, "--a-nodes must be a positive whole number");
    if (!number("b-depth", 4, 1, max_search_depth, b_depth)) return usage_error(self, "--b-depth must be from 1 to 64");
    if (!number("b-nodes", 0, 1, 1LL << 40, b_nodes)) return usage_error(self, "--b-nodes must be a positive whole number");
    if (!number("seed", 1, 0, 1LL << 62, seed)) return usage_error(self, "--seed must be a whole number");
    if (!number("random-plies", 4, 0, 40, random_plies)) return usage_error(self, "--random-plies must be from 0 to 40");
    if (!number("max-plies", 400, 10, 100000, max_plies)) return usage_error(self, "--max-plies must be from 10 to 100000");
    if (!number("threads", 1, 1, 256, threads)) return usage_error(self, "--threads must be from 1 to 256");
    if (p.isSet("a-depth") && p.isSet("a-nodes")) return usage_error(self, "give --a-depth or --a-nodes, not both");
    if (p.isSet("b-depth") && p.isSet("b-nodes")) return usage_error(self, "give --b-depth or --b-nodes, not both");

    SearchLimits a = default_search_limits(), b;
    if (a_depth) a = SearchLimits{int(a_depth), 0, 0};
    if (a_nodes) a = SearchLimits{0, std::uint64_t(a_nodes), 0};
    b.depth = int(b_depth);
    if (b_nodes) b = SearchLimits{0, std::uint64_t(b_nodes), 0};
    SearchOptions a_options, b_options;
    a_options.hash_mb = b_options.hash_mb = 16;
    std::string error;
    if (p.isSet("a-eval") && !parse_weights(p.value("a-eval").toStdString(), a_options, error)) return usage_error(self, error);
    if (p.isSet("b-eval") && !parse_weights(p.value("b-eval").toStdString(), b_options, error)) return usage_error(self, error);
    std::string a_name = setting_name(a), b_name = setting_name(b);
    if (p.isSet("a-eval")) a_name += " (" + p.value("a-eval").toStdString() + ")";
    if (p.isSet("b-eval")) b_name += " (" + p.value("b-eval").toStdString() + ")";
    const int pairs = int((games + 1) / 2);

    std::vector<int> indices(static_cast<std::size_t>(pairs) * 2);
    for (std::size_t i = 0; i < indices.size(); ++i) indices[i] = int(i);
    auto play = [&](const int& i) {
        Random rng(Random(std::uint64_t(seed) * 0x100000001B3ull + std::uint64_t(i / 2)).next());
        const Position start = Position::start();
        const std::vector<Move> opening = random_opening(start, int(random_plies), rng);
        Searcher sa(a_options), sb(b_options);
        MatchGame m;
        m.a_is_white = i % 2 == 0;
        const EnginePlayer pa{&sa, a}, pb{&sb, b};
        m.game =
            m.a_is_white ? play_game(start, opening, pa, pb, int(max_plies)) : play_game(start, opening, pb, pa, int(max_plies));
        return m;
    };
    QThreadPool pool;
    pool.setMaxThreadCount(int(threads));
    const std::vector<MatchGame> played =
        QtConcurrent::blockingMapped<std::vector<MatchGame>>(&pool, indices, std::function<MatchGame(const int&)>(play));

    int a_wins = 0, b_wins = 0, draws = 0, a_white_wins = 0, a_black_wins = 0;
    std::size_t plies = 0;
    std::ofstream file;
    if (p.isSet("output")) {
        file.open(p.value("output").toStdString(), std::ios::binary);
        if (!file) {
            print_err("gounki match: cannot write '" + p.value("output").toStdString() + "'\n");
            return exit_usage;
        }
    }
    for (std::size_t i = 0; i < played.size(); ++i) {
        const MatchGame& m = played[i];
        plies += m.game.plies.size();
        const Color a_color = m.a_is_white ? Color::white : Color::black;
        if (m.game.outcome == Outcome::none) ++draws;
        else if (m.game.outcome == win_for(a_color)) {
            ++a_wins;
            ++(m.a_is_white ? a_white_wins : a_black_wins);
        } else ++b_wins;
        if (file.is_open()) {
            parser::GameRecord r;
            r.tags = {{"Game", "Gounki"},
                      {"Event", "gounki match"},
                      {"Date", QDate::currentDate().toString("yyyy.MM.dd").toStdString()},
                      {"Round", std::to_string(i + 1)},
                      {"White", m.a_is_white ? a_name : b_name},
                      {"Black", m.a_is_white ? b_name : a_name},
                      {"Result", result_token(m.game)}};
            r.start = m.game.start;
            for (const PlayedPly& pp : m.game.plies) {
                parser::Ply ply;
                ply.move = pp.move;
                r.main.plies.push_back(std::move(ply));
            }
            r.result = result_token(m.game);
            r.result_written = true;
            file << parser::write_record(r);
        }
    }
    const double n = double(played.size());
    const double score = (a_wins + 0.5 * draws) / n;
    // Elo difference from the score, and a 95% interval from the per-game standard deviation.
    const double var =
        ((a_wins * (1 - score) * (1 - score)) + (b_wins * score * score) + draws * (0.5 - score) * (0.5 - score)) / n;
    const double se = std::sqrt(var / n);
    auto elo = [](double s) {
        s = std::clamp(s, 1e-3, 1 - 1e-3);
        return -400.0 * std::log10(1 / s - 1);
    };
    char line[512];
    if (p.isSet("json")) {
        std::snprintf(line, sizeof line,
                      "{\"a\":\"%s\",\"b\":\"%s\",\"games\":%d,\"a_wins\":%d,\"b_wins\":%d,\"draws\":%d,\"a_score\":%.4f,"
                      "\"elo\":%.1f,\"elo_low\":%.1f,\"elo_high\":%.1f,\"plies_per_game\":%.1f}\n",
                      a_name.c_str(), b_name.c_str(), int(n), a_wins, b_wins, draws, score, elo(score), elo(score - 1.96 * se),
                      elo(score + 1.96 * se), double(plies) / n);
    } else {
        std::snprintf(line, sizeof line,
                      "A = %s, B = %s\n%d games: A won %d (%d as White, %d as Black), B won %d, draws %d\n"
                      "A scored %.1f%%, Elo difference %+.0f (95%%: %+.0f to %+.0f); %.1f plies a game\n",
                      a_name.c_str(), b_name.c_str(), int(n), a_wins, a_white_wins, a_black_wins, b_wins, draws, 100 * score,
                      elo(score), elo(score - 1.96 * se), elo(score + 1.96 * se), double(plies) / n);
    }
    print_out(line);
    return exit_ok;
}

} // namespace gounki::cli
