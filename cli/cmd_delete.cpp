// gounki delete [--db PATH] [--json] ID
#include <QJsonDocument>

#include "cli/db_options.hpp"

namespace gounki::cli {

void describe_delete(QCommandLineParser& p) {
    add_db_option(p);
    p.addOption({"json", "Print one JSON object instead of text."});
    p.addPositionalArgument("ID", "The id of the game to delete (as listed by games or search).");
}

int run_delete(const QCommandLineParser& p) {
    const Command& self = *find_command("delete");
    const QStringList args = p.positionalArguments();
    if (args.size() != 1) return usage_error(self, "expected exactly one game ID");
    bool ok = false;
    const qlonglong id = args[0].toLongLong(&ok);
    if (!ok || id <= 0) return usage_error(self, "ID must be a positive whole number, got '" + args[0].toStdString() + "'");
    auto database = open_database(self, p, db::Access::read_write);
    if (!database) return exit_usage;
    bool deleted = false;
    try {
        deleted = database->delete_game(id);
    } catch (const std::exception& e) { return database_error(self, e); }
    if (p.isSet("json")) {
        QJsonObject o{{"id", id}, {"deleted", deleted}};
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
    } else if (deleted) {
        print_out("deleted game " + std::to_string(id) + "\n");
    }
    if (!deleted) {
        print_err("gounki delete: no game with id " + std::to_string(id) + "\n");
        return exit_usage;
    }
    return exit_ok;
}

} // namespace gounki::cli
