// `gounki help --man`: the manual page, written from the same command table and option texts as
// `gounki --help` and `gounki help COMMAND`, so it never says other than the program does. The
// build writes it to gounki.1 and `cmake --install` puts it in share/man/man1.
#include "cli/command.hpp"

namespace gounki::cli {

namespace {

// Text as troff reads it literally: backslashes and minus signs escaped, a line that starts with a
// dot or an apostrophe kept from being read as a request.
std::string troff(const std::string& text) {
    std::string out;
    bool line_start = true;
    for (const char c : text) {
        if (line_start && (c == '.' || c == '\'')) out += "\\&";
        if (c == '\\') out += "\\e";
        else if (c == '-') out += "\\-";
        else out += c;
        line_start = c == '\n';
    }
    return out;
}

std::string command_sections(bool developer) {
    std::string out;
    for (const Command* c = commands_begin(); c != commands_end(); ++c) {
        if (c->developer != developer) continue;
        out += ".SS " + troff(c->name) + "\n" + troff(c->summary) + ".\n.PP\n.nf\n.in +2\n" + troff(command_help(*c)) +
            ".in\n.fi\n";
    }
    return out;
}

} // namespace

std::string man_page() {
    return ".TH GOUNKI 1 \"\" \"gounki " GOUNKI_VERSION "\" \"User Commands\"\n"
           ".SH NAME\ngounki \\- game records, database and analysis for Gounki and the five\\-in\\-a\\-row games\n"
           ".SH SYNOPSIS\n.B gounki\n.I COMMAND\n[\\fIoptions\\fR] [\\fIarguments\\fR]\n"
           ".SH DESCRIPTION\n"
           "gounki reads game records of Gounki, Gomoku, Gomoku Ninuki, Pente and Renju (GPN, SGF, Piskvork PSQ and the "
           "other formats named in README.md), checks every move by the rules of its game, stores collections in SQLite "
           "or PostgreSQL, searches them by tags, positions, patterns and an opening tree, judges every move with its own "
           "engines or an external Gomocup engine, and writes annotated reports.\n"
           ".PP\nEvery command takes \\fB\\-\\-help\\fR (its options, as below) and \\fB\\-\\-quiet\\fR (no progress lines "
           "and no informational lines on standard error; errors and warnings still).\n"
           ".SH COMMANDS\n" +
        command_sections(false) + ".SH DEVELOPER TOOLS\nBenchmarks and engine games.\n" + command_sections(true) +
        ".SH EXIT STATUS\n0: done, nothing to report. 1: findings a user must act on (invalid or partial games, games left "
        "out or unjudged, games that would be deleted without \\fB\\-\\-yes\\fR). 2: usage, input/output or database "
        "errors.\n"
        ".SH ENVIRONMENT\n.TP\n.B GOUNKI_DB\nThe database when \\fB\\-\\-db\\fR is not given: an SQLite file, or a "
        "PostgreSQL server as postgresql://USER@HOST/DBNAME (default ./gounki.db).\n"
        ".TP\n.B GOUNKI_DB_TIMEOUT\nHow long (seconds) a command waits for another program's write lock on the "
        "database before it gives up (default 600); it says on standard error that it waits.\n"
        ".TP\n.B GOUNKI_PG_RETRY_SECONDS\nHow long to keep trying a PostgreSQL server that does not answer yet "
        "(default 10).\n"
        ".TP\n.B PGPASSFILE, PGPASSWORD\nPostgreSQL credentials, read by libpq; gounki never prints them.\n"
        ".SH SEE ALSO\nREADME.md (the commands with examples, formats and benchmarks) and rules.md (the rules of every "
        "game as gounki implements them, the notation and the position texts), installed in share/doc/gounki.\n";
}

} // namespace gounki::cli
