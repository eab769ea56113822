// gounki edit [--db PATH] ID --tag Name=value... --remove-tag Name... [--json]
#include <QJsonDocument>

#include <filesystem>

#include "cli/db_options.hpp"

namespace gounki::cli {

void describe_edit(QCommandLineParser& p) {
    add_db_option(p);
    p.addOption({"tag", "Set a tag: Name=value (repeatable). A tag the game lacks is added.", "Name=value"});
    p.addOption({"remove-tag", "Remove a tag (repeatable).", "Name"});
    p.addOption({"json", "Print one JSON object instead of text."});
    p.addPositionalArgument("ID", "The id of the game to change (as listed by games or search).");
}

namespace {

QJsonValue json_value(const std::optional<std::string>& v) {
    return v ? QJsonValue(QString::fromStdString(*v)) : QJsonValue(QJsonValue::Null);
}

std::string change_text(const db::TagChange& c) {
    if (!c.before) return c.name + " \"" + *c.after + "\" added";
    if (!c.after) return c.name + " \"" + *c.before + "\" removed";
    if (*c.before == *c.after) return c.name + " \"" + *c.after + "\" confirmed (what the import doubted of it is dropped)";
    return c.name + " \"" + *c.before + "\" -> \"" + *c.after + "\"";
}

// The --tag and --remove-tag options; false after a usage error.
bool read_edit(const Command& self, const QCommandLineParser& p, db::TagEdit& edit, int& exit_code) {
    for (const QString& t : p.values("tag")) {
        const qsizetype eq = t.indexOf('=');
        if (eq <= 0) {
            exit_code = usage_error(self, "--tag takes Name=value, got '" + t.toStdString() + "'");
            return false;
        }
        edit.set.emplace_back(t.left(eq).trimmed().toStdString(), t.mid(eq + 1).toStdString());
    }
    for (const QString& name : p.values("remove-tag")) edit.remove.push_back(name.trimmed().toStdString());
    if (edit.set.empty() && edit.remove.empty()) {
        exit_code = usage_error(self, "say what to change: --tag Name=value or --remove-tag Name");
        return false;
    }
    return true;
}

} // namespace

int run_edit(const QCommandLineParser& p) {
    const Command& self = *find_command("edit");
    const QStringList args = p.positionalArguments();
    if (args.size() != 1) return usage_error(self, "expected exactly one game ID");
    std::int64_t id = 0;
    if (!read_game_id(self, args[0], "ID", id)) return exit_usage;
    int code = exit_ok;
    db::TagEdit edit;
    if (!read_edit(self, p, edit, code)) return code;
    // A database file that is not there is not created by asking for a change (open_database).
    auto database = open_database(self, p, db::Access::read_write);
    if (!database) return exit_usage;
    std::optional<std::vector<db::TagChange>> changes;
    try {
        changes = database->edit_tags(id, edit);
    } catch (const db::EditRefused& e) {
        print_err(std::string("gounki edit: ") + e.what() + "; nothing changed\n");
        return exit_usage;
    } catch (const std::exception& e) { return database_error(self, e); }
    if (!changes) {
        print_err("gounki edit: no game with id " + std::to_string(id) + " in " + database->sql().path() + "\n");
        return exit_usage;
    }
    if (p.isSet("json")) {
        QJsonArray list;
        for (const db::TagChange& c : *changes)
            list.append(QJsonObject{
                {"tag", QString::fromStdString(c.name)}, {"before", json_value(c.before)}, {"after", json_value(c.after)}});
        print_out(QJsonDocument(QJsonObject{{"id", qint64(id)}, {"changes", list}}).toJson(QJsonDocument::Compact).toStdString() + "\n");
    } else if (changes->empty()) {
        print_out("game " + std::to_string(id) + ": nothing to change (the tags already say so)\n");
    } else {
        for (const db::TagChange& c : *changes) print_shown("game " + std::to_string(id) + ": " + change_text(c) + "\n");
    }
    return exit_ok;
}

} // namespace gounki::cli
