// gounki export [--db PATH] [filters] -o FILE [--json]
#include <QJsonDocument>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/db_options.hpp"
#include "db/record_bridge.hpp"
#include "parser/writer.hpp"

namespace gounki::cli {

void describe_export(QCommandLineParser& p) {
    add_db_option(p);
    add_filter_options(p);
    p.addOption({{"o", "output"}, "Write the records to this file (- for standard output).", "file"});
    add_notation_option(p, false);
    p.addOption({"json", "Print a JSON summary instead of a line of text."});
}

int run_export(const QCommandLineParser& p) {
    const Command& self = *find_command("export");
    if (!p.positionalArguments().isEmpty())
        return usage_error(self, "unexpected argument '" + p.positionalArguments()[0].toStdString() + "'");
    if (!p.isSet("output")) return usage_error(self, "give the output file with -o FILE (- for standard output)");
    int code = exit_ok;
    db::GameFilter filter;
    if (!read_filter(self, p, filter, code)) return code;
    const std::string path = p.value("output").toStdString();
    Notation notation = Notation::wikipedia;
    if (!read_notation(self, p, false, notation)) return exit_usage;
    auto database = open_database(self, p, db::Access::read_only);
    if (!database) return exit_usage;

    // Written beside the target and renamed at the end: a failed export leaves no half file.
    const bool to_stdout = path == "-";
    const std::string part = path + ".part";
    std::ofstream file;
    if (!to_stdout) {
        file.open(part, std::ios::binary | std::ios::trunc);
        if (!file) {
            print_err("gounki export: cannot write '" + part + "'\n");
            return exit_usage;
        }
    }
    std::ostream& out = to_stdout ? std::cout : file;
    std::int64_t games = 0;
    try {
        database->for_each_game(filter, [&](const db::StoredGame& g) {
            parser::write_record(out, db::game_record(g), notation);
            ++games;
            return bool(out);
        });
    } catch (const std::exception& e) {
        if (!to_stdout) std::filesystem::remove(part);
        return database_error(self, e);
    }
    out.flush();
    if (!out) {
        if (!to_stdout) std::filesystem::remove(part);
        print_err("gounki export: writing '" + path + "' failed\n");
        return exit_usage;
    }
    if (!to_stdout) {
        file.close();
        std::error_code ec;
        std::filesystem::rename(part, path, ec);
        if (ec) {
            std::filesystem::remove(part);
            print_err("gounki export: cannot create '" + path + "': " + ec.message() + "\n");
            return exit_usage;
        }
    }
    if (p.isSet("json")) {
        QJsonObject o{{"file", QString::fromStdString(path)}, {"games", qint64(games)}, {"filter", filter_json(filter)}};
        (to_stdout ? print_err : print_out)(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
    } else {
        print_err("exported " + std::to_string(games) + (games == 1 ? " game" : " games") + (to_stdout ? "" : " to " + path) +
                  "\n");
    }
    return exit_ok;
}

} // namespace gounki::cli
