// gounki bench [--depth N] [--hash MB] [--json]
#include <QJsonDocument>
#include <QJsonObject>

#include "analysis/bench.hpp"
#include "cli/command.hpp"
#include "core/notation.hpp"

namespace gounki::cli {

void describe_bench(QCommandLineParser& p) {
    p.addOption({"depth", "Search depth for every position (default " + QString::number(analysis::default_bench_depth) + ").", "N"});
    p.addOption({"hash", "Transposition table size in MiB (default 16).", "MB"});
    p.addOption({"json", "Print one JSON object instead of text."});
    p.addOption({"verbose", "Print each position's best move, score and node count."});
}

int run_bench(const QCommandLineParser& p) {
    const Command& self = *find_command("bench");
    if (!p.positionalArguments().isEmpty()) return usage_error(self, "bench takes no arguments");
    int depth = analysis::default_bench_depth;
    std::size_t hash_mb = 16;
    bool ok = true;
    if (p.isSet("depth")) {
        depth = p.value("depth").toInt(&ok);
        if (!ok || depth < 1 || depth > 20) return usage_error(self, "--depth must be a whole number from 1 to 20");
    }
    if (p.isSet("hash")) {
        const int mb = p.value("hash").toInt(&ok);
        if (!ok || mb < 1 || mb > 65536) return usage_error(self, "--hash must be a size in MiB from 1 to 65536");
        hash_mb = std::size_t(mb);
    }
    const bool verbose = p.isSet("verbose");
    const analysis::BenchResult r = analysis::run_bench(depth, hash_mb, [&](const analysis::BenchEntry& e) {
        if (!verbose) return;
        const Position pos = std::get<Position>(Position::from_text(e.position));
        print_err(std::string(e.position) + "  " + move_to_text(pos, e.result.best) + " score " +
                  std::to_string(e.result.score) + " nodes " + std::to_string(e.result.nodes) + "\n");
    });
    const double nps = r.time_ms > 0 ? double(r.nodes) * 1000.0 / double(r.time_ms) : 0.0;
    // On a busy machine the wall clock also counts time spent waiting for a processor.
    const double cpu_nps = r.cpu_ms > 0 ? double(r.nodes) * 1000.0 / double(r.cpu_ms) : 0.0;
    if (p.isSet("json")) {
        QJsonObject o;
        o["depth"] = depth;
        o["positions"] = int(analysis::bench_positions().size());
        o["nodes"] = qint64(r.nodes);
        o["time_ms"] = qint64(r.time_ms);
        o["nps"] = qint64(nps);
        o["cpu_ms"] = qint64(r.cpu_ms);
        o["cpu_nps"] = qint64(cpu_nps);
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
    } else {
        print_out("positions " + std::to_string(analysis::bench_positions().size()) + " depth " + std::to_string(depth) +
                  "\nnodes " + std::to_string(r.nodes) + "\ntime " + std::to_string(r.time_ms) + " ms\nnps " +
                  std::to_string(std::uint64_t(nps)) + "\ncpu time " + std::to_string(r.cpu_ms) + " ms\ncpu nps " +
                  std::to_string(std::uint64_t(cpu_nps)) + "\n");
    }
    return exit_ok;
}

} // namespace gounki::cli
