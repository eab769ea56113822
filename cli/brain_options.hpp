#pragma once
// --engine, --engine-time and --engine-nodes, described and read alike by `analyze`, `best` and
// `match`.

#include <QCommandLineParser>

#include <string>

#include "cli/command.hpp"
#include "protocol/brain_client.hpp"

namespace gounki::cli {

// The three options: `engine` is the help of --engine (what the engine does for the command), `each`
// says what the time and the node budget are for ("per position", "for the move", ...).
inline void add_brain_options(QCommandLineParser& p, const QString& engine, const QString& each) {
    p.addOption({"engine", engine, "CMD"});
    p.addOption({"engine-time", "The engine's time " + each + " in milliseconds (INFO timeout_turn; default 1000).", "MS"});
    p.addOption({"engine-nodes",
                 "A node budget " + each +
                     " for engines that read INFO max_node (gounki pbrain does): with a time, "
                     "whichever ends first.",
                 "N"});
}

// The external engine's settings from the command line; false (and `error` set) on a bad value.
inline bool read_brain_settings(const QCommandLineParser& p, protocol::BrainSettings& out, std::string& error) {
    out.command = p.value("engine").trimmed().toStdString();
    if (out.command.empty()) return error = "--engine needs a command line", false;
    long long ms = out.turn_ms, nodes = 0;
    if (!read_number(p, "engine-time", 1, 3'600'000, ms))
        return error = "--engine-time must be a whole number of milliseconds from 1 to 3600000", false;
    if (!read_number(p, "engine-nodes", 1, 1LL << 40, nodes))
        return error = "--engine-nodes must be a positive whole number", false;
    out.turn_ms = int(ms);
    out.max_node = std::uint64_t(nodes);
    return true;
}

} // namespace gounki::cli
