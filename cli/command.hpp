#pragma once
// Shared plumbing of the subcommands: option parsing, exit codes, output.

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "core/any_position.hpp"
#include "parser/formats.hpp"
#include "protocol/session.hpp"

namespace gounki::cli {

// Exit codes, documented in README.md: 0 ok, 1 findings (such as invalid games), 2 usage or I/O errors.
enum Exit { exit_ok = 0, exit_findings = 1, exit_usage = 2 };

struct Command {
    const char* name;
    const char* summary;
    // Adds the command's options and positional arguments to `parser`.
    void (*describe)(QCommandLineParser& parser);
    // Runs with the parsed arguments; returns the exit code.
    int (*run)(const QCommandLineParser& parser);
    // A tool for developers (benchmarks, engine games), listed apart from the users' commands.
    bool developer = false;
};

const Command* find_command(const QString& name);
// The known name closest to `typed` (a slip of one or two letters, or a prefix of several), or empty.
std::string closest_name(const std::string& typed, const std::vector<std::string>& names);
// " Did you mean 'NAME'?" for the closest command, or empty.
std::string did_you_mean_command(const QString& typed);
const Command* commands_begin();
const Command* commands_end();

// Sets up a parser for `cmd` (help, --quiet, the command's options) and parses `args`, where args[0]
// is the program name followed by the command name. On failure prints the error and returns false.
// Sets quiet() from --quiet.
bool parse_command_line(const Command& cmd, QCommandLineParser& parser, const QStringList& args, int& exit_code);
// What `gounki COMMAND --help` prints.
std::string command_help(const Command& cmd);
// The manual page (troff) of every command: `gounki help --man` (cli/man_page.cpp).
std::string man_page();

// --quiet, an option of every command: no progress lines and no informational lines on stderr;
// errors and warnings are always printed. Process-wide on purpose: progress lines are drawn by
// shared helpers that see no parser.
bool quiet();
void set_quiet(bool on);

// --hash MB, the size of the engine's transposition table (`note`, when given, is said after its
// default in the help). read_hash_option leaves `mb` unchanged when the option is not given; false
// after a usage error (1 to 65536) with exit_code set.
void add_hash_option(QCommandLineParser& p, const QString& note = {});
bool read_hash_option(const Command& cmd, const QCommandLineParser& p, std::size_t& mb, int& exit_code);

// A text protocol command (pbrain, uci): no arguments, --hash, then `serve` on standard input and
// output until the protocol or the input ends; its exit code.
int serve_protocol(const char* command, const QCommandLineParser& p,
                   void (*serve)(std::istream& in, std::ostream& out, protocol::EngineOptions options));

// Prints "gounki COMMAND: message" on stderr and returns exit_usage.
int usage_error(const Command& cmd, const std::string& message);
// Opens the file `path` for writing, replacing it; false after printing "gounki COMMAND: cannot
// write 'PATH'" (the caller exits with exit_usage).
bool open_output(const Command& cmd, const std::string& path, std::ofstream& file);
// For a command that takes no argument beside its options: exit_ok when there is none, else the
// usage error "unexpected argument 'X'" (`hint` added after it).
int refuse_arguments(const Command& cmd, const QCommandLineParser& parser, const std::string& hint = "");

// Parses a position given on the command line, of any game (AnyPosition::from_text: `start`, a
// game's name, a position text) or `@FILE` (an LC4 position file, or a position text on the file's
// first non-empty line); on error prints where the text is wrong (with a caret under the place) and
// returns false.
bool read_position(const Command& cmd, const QString& text, AnyPosition& out);
// The same where only a Gounki position will do.
bool read_position(const Command& cmd, const QString& text, Position& out);

// A move given on the command line for `pos`, of any game: the legal move, or why there is none
// (for Gounki with the legal moves of the stack named, or of the whole position). A Gounki move's
// markers that disagree with the position are warnings, returned apart.
struct MoveReading {
    Move move; // Move() when `error` is set
    std::string error;
    std::vector<std::string> warnings;
};
MoveReading read_move(const AnyPosition& pos, const std::string& text);

// Plays `list`, moves separated by blanks ("b2-b4 g7-g5"; move numbers such as "1." or "12..." are
// skipped, so a list pasted from a record reads). Prints warnings, and on an illegal move prints
// "gounki COMMAND: move N 'TEXT': why" and returns false, `pos` left after the moves before it.
// `last` receives the last move played.
bool play_move_list(const Command& cmd, const QString& list, AnyPosition& pos, Move* last = nullptr);

// --position POSITION, read by read_position: `what` names the position's use, `otherwise` says
// what is taken when the option is left out (`default_value`, when given, is its value then).
void add_position_option(QCommandLineParser& parser, const QString& what, const QString& otherwise,
                         const QString& default_value = {});

// --moves LIST: moves played from the command's position before it works on it (a list pasted from
// a record reads: move numbers are skipped). apply_moves_option plays them; false after printing
// which move is wrong and why.
void add_moves_option(QCommandLineParser& parser);
bool apply_moves_option(const Command& cmd, const QCommandLineParser& parser, AnyPosition& pos);

// A whole number given to `--name`, from lo to hi; true (and `out` untouched) when not given.
bool read_number(const QCommandLineParser& parser, const char* name, long long lo, long long hi, long long& out);

// A game's name given to `--option` (core/game.hpp); a usage error naming the games otherwise.
bool read_game(const Command& cmd, const QString& option, const QString& text, GameKind& out);

// --game, --size and --rules: the game and, for a stone game, its board size and rule options (the
// words of the Rules tag; the help text lists every game's words from core/stones/rules.hpp). Fills
// `kind` and `start` (the game's start under those rules); a usage error for a bad size or word,
// or for --size/--rules with Gounki.
void add_game_options(QCommandLineParser& parser, const QString& game_help);
bool read_game_options(const Command& cmd, const QCommandLineParser& parser, GameKind& kind, AnyPosition& start);

// --notation: how Gounki moves are read (`reading`: auto, the default, detects it per game) or
// written (wikipedia, official, lc4). read_notation prints a usage error and returns false on a bad name.
void add_notation_option(QCommandLineParser& parser, bool reading);
bool read_notation(const Command& cmd, const QCommandLineParser& parser, bool reading, Notation& out);

// --as-tree on commands that read record files: a RenLib library read as one game with variations
// (parser::ReadOptions::renlib_tree) instead of one game per line of its tree.
void add_as_tree_option(QCommandLineParser& parser);
// --format NAME on commands that read record files: every file read in that format (gpn, sgf, psq;
// parser/formats.hpp) instead of telling it per file. read_format leaves `out` empty when the option
// is not given, prints a usage error and returns false on a bad name.
void add_format_option(QCommandLineParser& parser);
bool read_format(const Command& cmd, const QCommandLineParser& parser, std::optional<parser::RecordFormat>& out);
// The record files the arguments name: folders replaced by the record files below them, sorted
// (parser::expand_inputs; `archives`: the archives below them too); a folder without any is a
// diagnostic in `errors`.
std::vector<std::string> input_files(const QStringList& arguments, std::optional<parser::RecordFormat> forced,
                                     std::vector<parser::Diagnostic>& errors, bool archives = true);

// "1 game", "2 games"; `plural` for irregular words ("inaccuracies").
std::string counted(long long n, const std::string& singular, const std::string& plural = {});

void print_out(const std::string& text); // stdout, no newline added
// stdout, for text shown to a person (tables, a game shown): control characters that stored data
// may hold (a player's name with an escape sequence) are written as escapes, lines kept.
void print_shown(const std::string& text);
// stderr, no newline added. Under --quiet a progress redraw (text starting with '\r') is dropped.
void print_err(const std::string& text);
// stderr, for what is neither an error nor a warning ("wrote ...", summaries); nothing under --quiet.
void print_info(const std::string& text);

// Declarations of each command's hooks (one cmd_*.cpp file per command).
void describe_perft(QCommandLineParser&);
int run_perft(const QCommandLineParser&);
void describe_validate(QCommandLineParser&);
int run_validate(const QCommandLineParser&);
void describe_format(QCommandLineParser&);
int run_format(const QCommandLineParser&);
void describe_import(QCommandLineParser&);
int run_import(const QCommandLineParser&);
void describe_search(QCommandLineParser&);
int run_search(const QCommandLineParser&);
void describe_tree(QCommandLineParser&);
int run_tree(const QCommandLineParser&);
void describe_games(QCommandLineParser&);
int run_games(const QCommandLineParser&);
void describe_show(QCommandLineParser&);
int run_show(const QCommandLineParser&);
void describe_export(QCommandLineParser&);
int run_export(const QCommandLineParser&);
void describe_edit(QCommandLineParser&);
int run_edit(const QCommandLineParser&);
void describe_delete(QCommandLineParser&);
int run_delete(const QCommandLineParser&);
void describe_copy(QCommandLineParser&);
int run_copy(const QCommandLineParser&);
void describe_dbbench(QCommandLineParser&);
int run_dbbench(const QCommandLineParser&);
void describe_board(QCommandLineParser&);
int run_board(const QCommandLineParser&);
void describe_analyze(QCommandLineParser&);
int run_analyze(const QCommandLineParser&);
void describe_report(QCommandLineParser&);
int run_report(const QCommandLineParser&);
void describe_best(QCommandLineParser&);
int run_best(const QCommandLineParser&);
void describe_bench(QCommandLineParser&);
int run_bench(const QCommandLineParser&);
void describe_selfplay(QCommandLineParser&);
int run_selfplay(const QCommandLineParser&);
void describe_match(QCommandLineParser&);
int run_match(const QCommandLineParser&);
void describe_position(QCommandLineParser&);
int run_position(const QCommandLineParser&);
void describe_serve(QCommandLineParser&);
int run_serve(const QCommandLineParser&);
void describe_worker(QCommandLineParser&);
int run_worker(const QCommandLineParser&);
void describe_jobs(QCommandLineParser&);
int run_jobs(const QCommandLineParser&);
void describe_pbrain(QCommandLineParser&);
int run_pbrain(const QCommandLineParser&);
void describe_uci(QCommandLineParser&);
int run_uci(const QCommandLineParser&);

} // namespace gounki::cli
