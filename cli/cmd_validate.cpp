// gounki validate FILE...: reads record files (pipeline/read.hpp: GPN parsed in blocks on every core,
// the same output as one reader gives), replays every game through the rules and reports each problem as "file:line:col: error|warning: message [code]", then a summary.
// Exit status: 0 every game valid (warnings allowed), 1 a game is invalid or partial, 2 usage or I/O.
#include <QJsonObject>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <optional>

#include "cli/command.hpp"
#include "cli/json_lines.hpp"
#include "parser/formats.hpp"
#include "pipeline/read.hpp"

namespace gounki::cli {

namespace {

using parser::Diagnostic;
using parser::GameStatus;

QString qs(const std::string& s) { return QString::fromStdString(s); }

struct Tally {
    long files = 0, games = 0, valid = 0, invalid = 0, partial = 0, errors = 0, warnings = 0;
    std::uint64_t bytes = 0;
    std::map<std::string, long> codes;
    bool io_failed = false;
};

class Output {
public:
    explicit Output(bool json) : json_(json) {}

    void diagnostic(const Diagnostic& d, Tally& t) {
        ++(d.severity == parser::Severity::error ? t.errors : t.warnings);
        ++t.codes[d.code];
        if (!json_) {
            print_out(parser::format_diagnostic(d) + "\n");
            return;
        }
        print_json_line(diagnostic_json(d));
    }

    void summary(const Tally& t, bool stats, double seconds) {
        const double mb = double(t.bytes) / 1e6;
        if (json_) {
            QJsonObject codes;
            for (const auto& [code, n] : t.codes) codes.insert(qs(code), qint64(n));
            QJsonObject o = summary_json({{"files", t.files},
                                          {"games", t.games},
                                          {"valid", t.valid},
                                          {"invalid", t.invalid},
                                          {"partial", t.partial},
                                          {"errors", t.errors},
                                          {"warnings", t.warnings}});
            o.insert("codes", codes);
            if (stats) {
                o.insert("bytes", qint64(t.bytes));
                o.insert("seconds", seconds);
                o.insert("games_per_second", seconds > 0 ? double(t.games) / seconds : 0.0);
                o.insert("mb_per_second", seconds > 0 ? mb / seconds : 0.0);
            }
            print_json_line(o);
            return;
        }
        auto plural = [](long n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); };
        std::string out = plural(t.games, "game") + " in " + plural(t.files, "file") + ": " + std::to_string(t.valid) +
            " valid, " + std::to_string(t.invalid) + " invalid, " + std::to_string(t.partial) + " partial; " +
            plural(t.errors, "error") + ", " + plural(t.warnings, "warning") + "\n";
        for (const auto& [code, n] : t.codes) out += "  " + code + ": " + std::to_string(n) + "\n";
        if (stats) {
            char buf[200];
            std::snprintf(buf, sizeof buf, "read %.1f MB in %.3f s: %.0f games/s, %.1f MB/s\n", mb, seconds,
                          seconds > 0 ? double(t.games) / seconds : 0.0, seconds > 0 ? mb / seconds : 0.0);
            out += buf;
        }
        print_out(out);
    }

private:
    bool json_;
};

} // namespace

void describe_validate(QCommandLineParser& p) {
    p.addOption({"json", "Print one JSON object per line: each diagnostic, then the summary."});
    p.addOption({"stats", "Also print the reading speed (games/s, MB/s)."});
    p.addOption({"threads", "Parse GPN records on this many threads (default: one per core); the output is the same.", "N"});
    add_format_option(p);
    add_as_tree_option(p);
    add_notation_option(p, true);
    p.addPositionalArgument("FILE",
                            "Record files: GPN (docs/rules.md 1.8), SGF of the stone games, Piskvork PSQ (docs/rules.md 4), "
                            "told by their content, else by their name; a folder for every record file below it; an archive "
                            "or a compressed file (zip, tar.gz, 7z, .pgn.gz...) for the record files in it (docs/rules.md "
                            "4.7); '-' reads standard input.",
                            "FILE...");
}

int run_validate(const QCommandLineParser& p) {
    const Command& self = *find_command("validate");
    if (p.positionalArguments().isEmpty()) return usage_error(self, "expected at least one FILE ('-' for standard input)");
    parser::ReadOptions options;
    if (!read_notation(self, p, true, options.notation)) return exit_usage;
    options.renlib_tree = p.isSet("as-tree");
    std::optional<parser::RecordFormat> forced;
    if (!read_format(self, p, forced)) return exit_usage;
    Output out(p.isSet("json"));
    Tally t;
    std::vector<Diagnostic> folder_errors;
    pipeline::ReadRequest request;
    request.files = input_files(p.positionalArguments(), forced, folder_errors);
    request.format = forced;
    request.options = options;
    long long threads = 0;
    if (!read_number(p, "threads", 1, 256, threads)) return usage_error(self, "--threads must be a whole number from 1 to 256");
    request.threads = int(threads);
    for (const Diagnostic& d : folder_errors) out.diagnostic(d, t);
    // Reading standard input through std::cin: unsynchronised with stdio it is several times faster
    // (nothing else here reads C++ streams).
    if (std::find(request.files.begin(), request.files.end(), "-") != request.files.end()) std::ios::sync_with_stdio(false);
    pipeline::ReadEvents<GameStatus> on;
    on.prepare = [](parser::GameRecord&& game) { return game.status; };
    on.game = [&](GameStatus status) {
        ++t.games;
        ++(status == GameStatus::valid ? t.valid : status == GameStatus::invalid ? t.invalid : t.partial);
    };
    on.diagnostic = [&](const Diagnostic& d) { out.diagnostic(d, t); };
    const auto t0 = std::chrono::steady_clock::now();
    const pipeline::ReadResult read = pipeline::read_files(request, on);
    t.files = long(read.files);
    t.bytes = read.bytes;
    t.io_failed = read.io_errors || !folder_errors.empty();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.summary(t, p.isSet("stats"), seconds);
    if (t.io_failed) return exit_usage;
    return t.valid == t.games && t.errors == 0 ? exit_ok : exit_findings;
}

} // namespace gounki::cli
