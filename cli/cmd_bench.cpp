// gounki bench [--game KIND [--size N] [--rules WORDS]] [--depth N] [--hash MB] [--json] [--verbose]
// gounki bench --judge [--nodes N] [--json]: judging a fixed 59-ply Ninuki game (stone_judge_defaults)
#include <QJsonDocument>
#include <QJsonObject>

#include "analysis/bench.hpp"
#include "analysis/stones/play.hpp"
#include "cli/command.hpp"
#include "core/gounki/notation.hpp"

namespace gounki::cli {

void describe_bench(QCommandLineParser& p) {
    add_game_options(p,
                     QString::fromStdString(game_ids_text() +
                                            ": which engine and positions (default gounki); with --size or --rules, "
                                            "the game's positions are played under those rules, centred on that board"));
    p.addOption({"depth",
                 "Search depth for every position (default " + QString::number(analysis::default_bench_depth) + "; " +
                     QString::number(analysis::default_stone_bench_depth) + " for the stone games).",
                 "N"});
    p.addOption({"hash", "Transposition table size in MiB (default 16).", "MB"});
    p.addOption({"json", "Print one JSON object instead of text."});
    p.addOption({"judge", "Judge the fixed 59-ply Ninuki game with the stone judge's default setting instead."});
    p.addOption({"nodes",
                 "With --judge: nodes per position instead of the default (" +
                     QString::number(qulonglong(analysis::default_stone_judge_nodes)) + ").",
                 "N"});
    p.addOption({"verbose", "Print each position's best move, score and node count."});
}

namespace {

// --judge: the fixed Ninuki game judged at the stone judge's setting (or --nodes a position).
int run_judge_bench(const Command& self, const QCommandLineParser& p) {
    analysis::JudgeSettings settings = analysis::stone_judge_defaults();
    if (p.isSet("nodes")) {
        bool ok = false;
        const qlonglong n = p.value("nodes").toLongLong(&ok);
        if (!ok || n < 1) return usage_error(self, "--nodes must be a positive whole number");
        settings.limits.nodes = std::uint64_t(n);
    }
    const analysis::JudgeBenchResult j = analysis::run_judge_bench(settings);
    std::string verdicts;
    for (int v = 0; v < analysis::graded_verdict_count; ++v)
        verdicts += std::string(verdicts.empty() ? "" : ", ") + std::string(analysis::verdict_name(analysis::Verdict(v))) + " " +
            std::to_string(j.counts[0][v] + j.counts[1][v]);
    if (p.isSet("json")) {
        QJsonObject o;
        o["game"] = "Ninuki";
        o["plies"] = j.plies;
        o["nodes_per_position"] = qint64(settings.limits.nodes);
        o["nodes"] = qint64(j.nodes);
        o["time_ms"] = qint64(j.time_ms);
        o["cpu_ms"] = qint64(j.cpu_ms);
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
    } else {
        print_out("judged Ninuki game: " + std::to_string(j.plies) + " plies at " + std::to_string(settings.limits.nodes) +
                  " nodes a position\nnodes " + std::to_string(j.nodes) + "\ntime " + std::to_string(j.time_ms) +
                  " ms\ncpu time " + std::to_string(j.cpu_ms) + " ms\nverdicts " + verdicts + "\n");
    }
    return exit_ok;
}

// The bench positions of `kind`, under the rules of `start` (--size, --rules) for a stone game.
std::vector<std::string> bench_texts(GameKind kind, const AnyPosition& start) {
    std::vector<std::string> owned;
    for (std::string_view t : analysis::bench_positions(kind)) owned.emplace_back(t);
    if (const stones::StonePosition* rules = start.stones())
        for (std::string& t : owned) {
            const auto pos = std::get<stones::StonePosition>(stones::StonePosition::from_text(t));
            if (!(pos.rules() == rules->rules())) t = stones::StonePosition::transplanted(pos, rules->rules()).to_text();
        }
    return owned;
}

void print_bench(bool json, GameKind kind, std::size_t positions, int depth, const analysis::BenchResult& r) {
    const double nps = r.time_ms > 0 ? double(r.nodes) * 1000.0 / double(r.time_ms) : 0.0;
    // On a busy machine the wall clock also counts time spent waiting for a processor.
    const double cpu_nps = r.cpu_ms > 0 ? double(r.nodes) * 1000.0 / double(r.cpu_ms) : 0.0;
    if (json) {
        QJsonObject o;
        o["depth"] = depth;
        o["game"] = QString::fromStdString(std::string(game_kind_name(kind)));
        o["positions"] = int(positions);
        o["nodes"] = qint64(r.nodes);
        o["time_ms"] = qint64(r.time_ms);
        o["nps"] = qint64(nps);
        o["cpu_ms"] = qint64(r.cpu_ms);
        o["cpu_nps"] = qint64(cpu_nps);
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
        return;
    }
    print_out(std::string(kind == GameKind::gounki ? "" : "game " + std::string(game_kind_name(kind)) + "\n") + "positions " +
              std::to_string(positions) + " depth " + std::to_string(depth) + "\nnodes " + std::to_string(r.nodes) + "\ntime " +
              std::to_string(r.time_ms) + " ms\nnps " + std::to_string(std::uint64_t(nps)) + "\ncpu time " +
              std::to_string(r.cpu_ms) + " ms\ncpu nps " + std::to_string(std::uint64_t(cpu_nps)) + "\n");
}

} // namespace

int run_bench(const QCommandLineParser& p) {
    const Command& self = *find_command("bench");
    if (!p.positionalArguments().isEmpty()) return usage_error(self, "bench takes no arguments");
    GameKind kind = GameKind::gounki;
    AnyPosition start;
    if (!read_game_options(self, p, kind, start)) return exit_usage;
    int depth = analysis::default_bench_depth_of(kind);
    std::size_t hash_mb = 16;
    if (p.isSet("depth")) {
        bool ok = false;
        depth = p.value("depth").toInt(&ok);
        if (!ok || depth < 1 || depth > 20) return usage_error(self, "--depth must be a whole number from 1 to 20");
    }
    if (int code = exit_ok; !read_hash_option(self, p, hash_mb, code)) return code;
    if (p.isSet("judge")) return run_judge_bench(self, p);
    const bool verbose = p.isSet("verbose");
    const std::vector<std::string> owned = bench_texts(kind, start);
    const std::vector<std::string_view> texts(owned.begin(), owned.end());
    const auto show = [&](const analysis::BenchEntry& e) {
        if (!verbose) return;
        const AnyPosition pos = std::get<AnyPosition>(AnyPosition::from_text(e.position));
        print_err(std::string(e.position) + "  " + (e.result.best ? pos.move_text(e.result.best) : "none") + " score " +
                  std::to_string(e.result.score) + " nodes " + std::to_string(e.result.nodes) + "\n");
    };
    const analysis::BenchResult r = AnyPosition::start(kind).visit(
        [&](const auto& origin) { return analysis::run_bench_over<std::decay_t<decltype(origin)>>(texts, depth, hash_mb, show); });
    print_bench(p.isSet("json"), kind, texts.size(), depth, r);
    return exit_ok;
}

} // namespace gounki::cli
