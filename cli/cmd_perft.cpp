// gounki perft [--position "<position>"] [--divide] DEPTH
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "cli/command.hpp"
#include "core/gounki/notation.hpp"
#include "core/gounki/perft.hpp"

namespace gounki::cli {

void describe_perft(QCommandLineParser& p) {
    p.addOption({"position", "Start from this position (docs/rules.md 1.7 format) instead of the start position.", "position"});
    p.addOption({"divide", "Print one line per legal move: its notation and the count below it."});
    p.addOption({"check", "Play every move and check do/undo and the hash at every node (slow)."});
    p.addOption({"stats", "Print the time and nodes per second on stderr."});
    p.addOption({"json", "Print one JSON object instead of text."});
    p.addPositionalArgument("DEPTH", "Number of plies, 0 to 12.");
}

int run_perft(const QCommandLineParser& p) {
    const Command& self = *find_command("perft");
    const QStringList pos_args = p.positionalArguments();
    if (pos_args.size() != 1) return usage_error(self, "expected exactly one DEPTH argument");
    bool ok = false;
    const int depth = pos_args[0].toInt(&ok);
    if (!ok || depth < 0 || depth > 12)
        return usage_error(self, "DEPTH must be a whole number from 0 to 12, got '" + pos_args[0].toStdString() + "'");
    Position pos = Position::start();
    if (p.isSet("position") && !read_position(self, p.value("position"), pos)) return exit_usage;
    const PerftMode mode = p.isSet("check") ? PerftMode::checked : PerftMode::fast;

    QElapsedTimer timer;
    timer.start();
    std::uint64_t total = 0;
    std::vector<PerftDivideEntry> divide;
    try {
        if (p.isSet("divide")) {
            divide = perft_divide(pos, depth, mode);
            for (const auto& e : divide) total += e.nodes;
        } else {
            total = perft(pos, depth, mode);
        }
    } catch (const PerftInvariantError& e) {
        print_err("gounki perft: invariant broken: " + e.what + "\n");
        return exit_findings;
    }
    const double seconds = double(timer.nsecsElapsed()) / 1e9;

    if (p.isSet("json")) {
        QJsonObject o;
        o["position"] = QString::fromStdString(pos.to_text());
        o["depth"] = depth;
        o["nodes"] = qint64(total);
        o["seconds"] = seconds;
        if (p.isSet("divide")) {
            QJsonArray moves;
            for (const auto& e : divide)
                moves.append(
                    QJsonObject{{"move", QString::fromStdString(move_to_text(pos, e.move))}, {"nodes", qint64(e.nodes)}});
            o["divide"] = moves;
        }
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
    } else {
        std::string out;
        for (const auto& e : divide) out += move_to_text(pos, e.move) + " " + std::to_string(e.nodes) + "\n";
        out += std::to_string(total) + "\n";
        print_out(out);
    }
    if (p.isSet("stats")) {
        char line[160];
        std::snprintf(line, sizeof line, "perft %d: %llu nodes in %.3f s, %.1f million nodes/s\n", depth,
                      static_cast<unsigned long long>(total), seconds, seconds > 0 ? double(total) / seconds / 1e6 : 0.0);
        print_err(line);
    }
    return exit_ok;
}

} // namespace gounki::cli
