// gounki: a game-record database and analysis tool for Gounki.
#include <QCoreApplication>
#include <QStringList>

#include "cli/command.hpp"
#include "db/sqlite.hpp"

#include <cstdio>
#include <string>

using namespace gounki::cli;

namespace {

void print_overview() {
    std::string text = "gounki " GOUNKI_VERSION ": game records, database and analysis for Gounki and the five-in-a-row games\n\n"
                       "Usage: gounki COMMAND [options] [arguments]\n";
    for (const bool developer : {false, true}) {
        text += developer ? "\nDeveloper tools (benchmarks, engine games):\n" : "\nCommands:\n";
        for (const Command* c = commands_begin(); c != commands_end(); ++c) {
            if (c->developer != developer) continue;
            std::string name = c->name;
            name.resize(12, ' ');
            text += "  " + name + c->summary + "\n";
        }
    }
    text += "\nOptions of every command:\n"
            "  --quiet     no progress lines and no informational lines on stderr (errors and warnings still)\n"
            "  --help      the command's options\n"
            "\n'gounki help COMMAND' or 'gounki COMMAND --help' shows a command's options; 'gounki help --man' writes\n"
            "the manual page of every command (installed as gounki(1)).\n"
            "Exit status: 0 ok, 1 findings (such as invalid games), 2 usage or I/O errors.\n";
    print_out(text);
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName("gounki");
    QCoreApplication::setApplicationVersion(GOUNKI_VERSION);
    QStringList args = QCoreApplication::arguments();
    if (args.size() < 2) {
        print_overview();
        return exit_usage;
    }
    const QString name = args.at(1);
    if (name == "--help" || name == "-h") {
        print_overview();
        return exit_ok;
    }
    if (name == "--version") {
        print_out("gounki " GOUNKI_VERSION "\n");
        return exit_ok;
    }
    if (name == "help") {
        if (args.size() < 3) {
            print_overview();
            return exit_ok;
        }
        if (args.at(2) == "--man") {
            print_out(man_page());
            return exit_ok;
        }
        const Command* c = find_command(args.at(2));
        if (!c) {
            print_err("gounki help: unknown command '" + args.at(2).toStdString() + "'." + did_you_mean_command(args.at(2)) +
                      "\n");
            return exit_usage;
        }
        args = QStringList{args.at(0), args.at(2), "--help"};
        QCommandLineParser parser;
        int code = exit_ok;
        parse_command_line(*c, parser, args, code);
        return code;
    }
    const Command* c = find_command(name);
    if (!c) {
        print_err("gounki: unknown command '" + name.toStdString() + "'." + did_you_mean_command(name) +
                  " Run 'gounki --help' for the list.\n");
        return exit_usage;
    }
    QCommandLineParser parser;
    int code = exit_ok;
    if (!parse_command_line(*c, parser, args, code)) return code;
    // A command that waits for another program's lock on the database says so (and again for each
    // later wait that lasts); the error after the last second of the wait names the file.
    gounki::db::set_lock_wait_notice([command = std::string(c->name)](const std::string& path, int timeout_ms) {
        char limit[32];
        std::snprintf(limit, sizeof limit, "%g s", timeout_ms / 1000.0);
        print_err("gounki " + command + ": waiting for '" + path + "': another program is writing to it (gounki waits up to " +
                  limit + "; GOUNKI_DB_TIMEOUT sets how long)\n");
    });
    return c->run(parser);
}
