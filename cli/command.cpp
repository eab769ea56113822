#include "cli/command.hpp"

#include <QFile>
#include <QRegularExpression>
#include <QTextStream>
#include <algorithm>
#include <cstring>
#include <iostream>
#include <iterator>

#include "analysis/tt.hpp"
#include "core/gounki/notation.hpp"
#include "parser/record.hpp"
#include "core/gounki/position_lc4.hpp"
#include "pipeline/input.hpp"

namespace gounki::cli {

namespace {

const Command command_table[] = {
    {"perft", "count move sequences of a given length (move generator check and benchmark)", describe_perft, run_perft, true},
    {"validate", "check record files: replay every game, report problems with file:line:col", describe_validate, run_validate},
    {"format", "write record files in canonical form, fixing what validate warns about", describe_format, run_format},
    {"import", "import record files into the game database", describe_import, run_import},
    {"search", "find games by position, pattern or tags in the game database", describe_search, run_search},
    {"tree", "the moves played from a position in the game database, with results", describe_tree, run_tree},
    {"games", "list the games of the game database, with filters and paging", describe_games, run_games},
    {"show", "print one game of the game database as a record, with its diagnostics", describe_show, run_show},
    {"export", "write games of the game database to a record file", describe_export, run_export},
    {"edit", "change a stored game's tags (players, date, result...), keeping the tree in step", describe_edit, run_edit},
    {"delete", "delete games from the game database (ids, ranges or filters)", describe_delete, run_delete},
    {"copy", "copy a whole collection between databases (SQLite files, PostgreSQL servers)", describe_copy, run_copy},
    {"dbbench", "benchmark the game database on random games", describe_dbbench, run_dbbench, true},
    {"board", "draw a position as an SVG or text diagram, with an optional move arrow", describe_board, run_board},
    {"analyze", "judge stored games with the engine: best moves, verdicts, accuracy (stored, resumable)", describe_analyze,
     run_analyze},
    {"worker", "judge the jobs `analyze --queue` recorded, beside other workers on any machine (leases, retries)",
     describe_worker, run_worker},
    {"jobs", "the analysis queue: queued, running, done and failed jobs, rates and the time left", describe_jobs, run_jobs},
    {"report", "write annotated reports of stored games: HTML, Markdown or annotated records", describe_report, run_report},
    {"best", "search a position: best move, score, principal variation, proven wins", describe_best, run_best},
    {"bench", "search fixed positions to a fixed depth: node-count signature and speed", describe_bench, run_bench, true},
    {"selfplay", "play engine games with random openings and write them as records", describe_selfplay, run_selfplay, true},
    {"match", "play one engine setting against another and report the score", describe_match, run_match, true},
    {"position", "check a position text and print it canonically, with its moves", describe_position, run_position},
    {"serve", "a local web app on the game database: games, viewer, search, explorer, import, JSON API", describe_serve,
     run_serve},
    {"pbrain", "play Gomoku as a Gomocup-protocol brain on standard input and output (managers, GUIs)", describe_pbrain,
     run_pbrain},
    {"uci", "the Gounki engine behind a UCI-style text protocol on standard input and output (GUIs, engines)", describe_uci,
     run_uci},
};

bool quiet_flag = false;

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}

} // namespace

bool quiet() { return quiet_flag; }
void set_quiet(bool on) { quiet_flag = on; }

const Command* commands_begin() { return std::begin(command_table); }
const Command* commands_end() { return std::end(command_table); }

const Command* find_command(const QString& name) {
    for (const Command& c : command_table)
        if (name == QLatin1String(c.name)) return &c;
    return nullptr;
}

std::string counted(long long n, const std::string& singular, const std::string& plural) {
    return std::to_string(n) + ' ' + (n == 1 ? singular : plural.empty() ? singular + 's' : plural);
}

void print_out(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }
void print_shown(const std::string& text) { print_out(parser::escape_controls(text, true)); }
// What went to stdout before a message is written out first, so that both streams sent to one file
// or pipe keep the order in which they were printed (stdout is buffered there, stderr is not).
void print_err(const std::string& text) {
    // Progress lines redraw themselves with '\r'; an error or a warning never starts with one.
    if (quiet_flag && !text.empty() && text.front() == '\r') return;
    std::fflush(stdout);
    std::fwrite(text.data(), 1, text.size(), stderr);
}

void print_info(const std::string& text) {
    if (quiet_flag) return;
    std::fflush(stdout);
    std::fwrite(text.data(), 1, text.size(), stderr);
}

void add_hash_option(QCommandLineParser& p, const QString& note) {
    p.addOption({"hash", "Transposition table size in MiB (default 16" + (note.isEmpty() ? "" : "; " + note) + ").", "MB"});
}

bool read_hash_option(const Command& cmd, const QCommandLineParser& p, std::size_t& mb, int& exit_code) {
    if (!p.isSet("hash")) return true;
    bool ok = false;
    const int value = p.value("hash").toInt(&ok);
    if (!ok || value < 1 || value > 65536) {
        exit_code = usage_error(cmd, "--hash must be a size in MiB from 1 to 65536");
        return false;
    }
    // A table the machine cannot hold is refused here, before a search would fail to allocate it.
    if (const std::size_t most = analysis::max_table_megabytes(); std::size_t(value) > most) {
        exit_code = usage_error(cmd, "--hash " + std::to_string(value) + ": more than this machine can hold (at most " +
                                         std::to_string(most) + " MiB, half its memory)");
        return false;
    }
    mb = std::size_t(value);
    return true;
}

int serve_protocol(const char* command, const QCommandLineParser& p,
                   void (*serve)(std::istream& in, std::ostream& out, protocol::EngineOptions options)) {
    const Command& self = *find_command(command);
    if (const int code = refuse_arguments(self, p)) return code;
    protocol::EngineOptions options;
    options.version = GOUNKI_VERSION;
    if (int code = exit_ok; !read_hash_option(self, p, options.hash_mb, code)) return code;
    serve(std::cin, std::cout, options);
    return exit_ok;
}

int usage_error(const Command& cmd, const std::string& message) {
    print_err(std::string("gounki ") + cmd.name + ": " + message + "\n");
    print_err(std::string("Try 'gounki help ") + cmd.name + "'.\n");
    return exit_usage;
}

bool open_output(const Command& cmd, const std::string& path, std::ofstream& file) {
    file.open(path, std::ios::binary);
    if (!file) print_err(std::string("gounki ") + cmd.name + ": cannot write '" + path + "'\n");
    return bool(file);
}

int refuse_arguments(const Command& cmd, const QCommandLineParser& parser, const std::string& hint) {
    if (parser.positionalArguments().isEmpty()) return exit_ok;
    return usage_error(cmd, "unexpected argument '" + parser.positionalArguments().first().toStdString() + "'" + hint);
}

namespace {

// Parses `text` as a position of any game (core/any_position.hpp); on error prints where it is
// wrong, with a caret under the place. `where` prefixes the message ("gounki board: ").
bool parse_any_position(const std::string& where, const std::string& text, AnyPosition& out) {
    auto parsed = AnyPosition::from_text(text);
    if (auto* e = std::get_if<PositionError>(&parsed)) {
        print_err(where + "bad position at character " + std::to_string(e->column + 1) + ": " + e->message + "\n  " + text +
                  "\n  " + std::string(std::size_t(e->column), ' ') + "^\n");
        return false;
    }
    out = std::get<AnyPosition>(std::move(parsed));
    return true;
}

} // namespace

namespace {

// Reads the file `name` whole; on failure prints why and returns false.
bool read_position_file(const Command& cmd, const QString& name, std::string& out) {
    const std::string shown = name.toStdString();
    const int error = pipeline::read_whole_file(QFile::encodeName(name).constData(), out);
    if (error) {
        print_err(std::string("gounki ") + cmd.name + ": cannot read position file '" + shown + "': " + std::strerror(error) +
                  "\n");
        return false;
    }
    return true;
}

// The position of the file `name` (the argument "@NAME"): an LC4 position file (core/gounki/position_lc4.hpp)
// when it looks like one or is named *.lc4, else a position text on its first non-empty line.
// Errors say "NAME:LINE: ...".
bool read_position_from_file(const Command& cmd, const QString& name, AnyPosition& out) {
    std::string content;
    if (!read_position_file(cmd, name, content)) return false;
    const std::string where = std::string("gounki ") + cmd.name + ": " + name.toStdString() + ":";
    if (looks_like_lc4(content, name.toStdString())) {
        auto parsed = position_from_lc4(content);
        if (auto* e = std::get_if<PositionFileError>(&parsed)) {
            print_err(where + std::to_string(e->line) + ": " + e->message + "\n");
            return false;
        }
        out = AnyPosition(std::get<Position>(parsed));
        return true;
    }
    // The first non-empty line, without its line end.
    std::string_view rest = content;
    int number = 0;
    std::string_view line;
    while (!rest.empty()) {
        const std::size_t end = rest.find('\n');
        line = rest.substr(0, end);
        rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
        ++number;
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
        if (line.find_first_not_of(" \t") != std::string_view::npos) break;
        line = {};
    }
    if (line.empty()) {
        print_err(where + "1: the file is empty; expected a position text or an LC4 position file (64 cells)\n");
        return false;
    }
    return parse_any_position(where + std::to_string(number) + ": ", std::string(line), out);
}

} // namespace

void add_notation_option(QCommandLineParser& p, bool reading) {
    if (reading)
        p.addOption({"notation",
                     "How Gounki moves are written: auto (the default: detected for each game), wikipedia (c2-d3, "
                     "f7xe7, c5*d5,e5,f6, a1-Out), official (the official site's 2003 notation: c2 d3, b1 x c2, "
                     "d4 * d5 d6, a1 OUT) or lc4 (the 2014 course's: b2-b3, g8#, d4+d5-e6, d4*e5-d6).",
                     "name", "auto"});
    else
        p.addOption({"notation",
                     "How Gounki moves are written: wikipedia (the default: c2-d3, f7xe7, c5*d5,e5,f6, a1-Out), "
                     "official (the official site's 2003 notation: c2 d3, b1 x c2, d4 * d5 d6, a1 OUT) or lc4 (the "
                     "2014 course's: b2-b3, g8#, d4+d5-e6, d4*e5-d6). Stone games are written as points.",
                     "name", "wikipedia"});
}

bool read_notation(const Command& cmd, const QCommandLineParser& p, bool reading, Notation& out) {
    const std::string text = p.value("notation").toStdString();
    if (parse_notation(text, out) && (reading || out != Notation::automatic)) return true;
    usage_error(cmd,
                "--notation must be " + std::string(reading ? "auto, " : "") + "wikipedia, official or lc4, got '" + text + "'");
    return false;
}

void add_format_option(QCommandLineParser& p) {
    std::string formats;
    for (const parser::FormatInfo& f : parser::record_formats())
        formats += (formats.empty() ? "" : "; ") + std::string(f.name) + ": " + std::string(f.description);
    p.addOption({"format",
                 QString::fromStdString("Read every file in this format instead of telling it from the file's start and "
                                        "name (" +
                                        formats + ")."),
                 "name"});
}

void add_as_tree_option(QCommandLineParser& p) {
    p.addOption({"as-tree", "Read a RenLib library (.lib) as one game: the first line of its tree the main line, every other "
                            "branch a variation, comments kept (by default each line of the tree is a game)."});
}

bool read_format(const Command& cmd, const QCommandLineParser& p, std::optional<parser::RecordFormat>& out) {
    out.reset();
    if (!p.isSet("format")) return true;
    const std::string text = p.value("format").toStdString();
    out = parser::parse_record_format(text);
    if (out) return true;
    usage_error(cmd, "--format must be " + parser::format_names_text() + ", got '" + text + "'");
    return false;
}

std::vector<std::string> input_files(const QStringList& arguments, std::optional<parser::RecordFormat> forced,
                                     std::vector<parser::Diagnostic>& errors, bool archives) {
    std::vector<std::string> args;
    for (const QString& a : arguments) args.push_back(a.toStdString());
    return parser::expand_inputs(args, forced, errors, archives);
}

bool read_position(const Command& cmd, const QString& text, AnyPosition& out) {
    if (text.startsWith('@')) {
        if (text.size() == 1) {
            print_err(std::string("gounki ") + cmd.name + ": '@' is followed by the name of a position file (@FILE)\n");
            return false;
        }
        return read_position_from_file(cmd, text.mid(1), out);
    }
    return parse_any_position(std::string("gounki ") + cmd.name + ": ", text.toStdString(), out);
}

bool read_position(const Command& cmd, const QString& text, Position& out) {
    AnyPosition any;
    if (!read_position(cmd, text, any)) return false;
    if (const Position* p = any.gounki()) {
        out = *p;
        return true;
    }
    usage_error(cmd,
                "'" + text.toStdString() + "' is a " + std::string(game_kind_name(any.kind())) +
                    " position; this takes a Gounki position");
    return false;
}

namespace {

std::string moves_text(const Position& pos, const MoveList& moves) {
    std::string out;
    for (Move m : moves) out.append(out.empty() ? "" : " ").append(move_to_text(pos, m));
    return out;
}

} // namespace

MoveReading read_move(const AnyPosition& pos, const std::string& text) {
    MoveReading out;
    if (const Position* g = pos.gounki()) {
        const Resolution r = resolve_move_text(*g, text);
        out.move = r.move;
        for (MarkerWarning w : r.warnings) out.warnings.emplace_back(marker_warning_text(w));
        if (r.move) return out;
        out.error = r.message;
        if (!r.stack_moves.empty()) out.error += "; legal moves of that stack: " + moves_text(*g, r.stack_moves);
        else if (!g->game_over()) {
            MoveList all;
            generate_moves(*g, all);
            out.error += "; legal moves: " + moves_text(*g, all);
        }
        return out;
    }
    auto parsed = pos.parse_move(text);
    if (const Move* m = std::get_if<Move>(&parsed)) out.move = *m;
    else out.error = std::get<std::string>(std::move(parsed));
    return out;
}

bool play_move_list(const Command& cmd, const QString& list, AnyPosition& pos, Move* last) {
    static const QRegularExpression blanks("\\s+"), move_number("^\\d+\\.+$");
    int n = 0;
    for (const QString& token : list.split(blanks, Qt::SkipEmptyParts)) {
        if (move_number.match(token).hasMatch()) continue;
        const std::string text = token.toStdString();
        const std::string where = "move " + std::to_string(++n) + " '" + text + "': ";
        const MoveReading r = read_move(pos, text);
        for (const std::string& w : r.warnings) print_err("gounki " + std::string(cmd.name) + ": warning: " + where + w + "\n");
        if (!r.error.empty()) {
            print_err("gounki " + std::string(cmd.name) + ": " + where + r.error + "\n");
            return false;
        }
        pos.play(r.move);
        if (last) *last = r.move;
    }
    return true;
}

void add_position_option(QCommandLineParser& parser, const QString& what, const QString& otherwise,
                         const QString& default_value) {
    parser.addOption({"position",
                      what +
                          ": a Gounki position (docs/rules.md 1.7) or 'start', a stone-game position ('Gomoku 15 "
                          "15/.../15 b', docs/rules.md 2), a game's name for its start ('gomoku'), or @FILE; " +
                          otherwise + ".",
                      "POSITION", default_value});
}

void add_moves_option(QCommandLineParser& parser) {
    parser.addOption({"moves",
                      "Play these moves from the position first (blank-separated, record notation; move numbers such "
                      "as '1.' are skipped, so a list pasted from a record reads).",
                      "LIST"});
}

bool apply_moves_option(const Command& cmd, const QCommandLineParser& parser, AnyPosition& pos) {
    return !parser.isSet("moves") || play_move_list(cmd, parser.value("moves"), pos);
}

std::string closest_name(const std::string& typed, const std::vector<std::string>& names) {
    std::string best;
    std::size_t best_distance = 3; // more than two slips: no guess
    for (const std::string& name : names) {
        const std::size_t d = edit_distance(typed, name);
        if (d < best_distance) best = name, best_distance = d;
    }
    if (!best.empty() || typed.size() < 3) return best;
    for (const std::string& name : names) // "anal" for "analyze": a prefix of one name only
        if (name.rfind(typed, 0) == 0) {
            if (!best.empty()) return {};
            best = name;
        }
    return best;
}

std::string did_you_mean_command(const QString& typed) {
    std::vector<std::string> names;
    for (const Command* c = commands_begin(); c != commands_end(); ++c) names.emplace_back(c->name);
    const std::string near = closest_name(typed.toStdString(), names);
    return near.empty() ? std::string() : " Did you mean '" + near + "'?";
}

bool read_number(const QCommandLineParser& parser, const char* name, long long lo, long long hi, long long& out) {
    if (!parser.isSet(name)) return true;
    bool ok = false;
    out = parser.value(name).toLongLong(&ok);
    return ok && out >= lo && out <= hi;
}

bool read_game(const Command& cmd, const QString& option, const QString& text, GameKind& out) {
    if (const auto kind = parse_game_kind(text.toStdString())) {
        out = *kind;
        return true;
    }
    usage_error(cmd, "--" + option.toStdString() + " must be " + game_ids_text() + ", got '" + text.toStdString() + "'");
    return false;
}

void add_game_options(QCommandLineParser& p, const QString& game_help) {
    p.addOption({"game", game_help, "KIND"});
    QString sizes;
    for (const GameInfo& g : games())
        if (is_stone_game(g.kind))
            sizes += QString::fromStdString((sizes.isEmpty() ? "" : "; ") + std::string(g.name) + " " + sizes_text(g.kind));
    p.addOption({"size", "A stone game's board size (" + sizes + ").", "N"});
    p.addOption({"rules",
                 QString::fromStdString("A stone game's rule options, the words of the Rules tag (blanks or commas between):\n" +
                                        stones::rule_options_text()),
                 "WORDS"});
}

bool read_game_options(const Command& cmd, const QCommandLineParser& p, GameKind& kind, AnyPosition& start) {
    if (p.isSet("game") && !read_game(cmd, "game", p.value("game"), kind)) return false;
    start = AnyPosition::start(kind);
    if (!p.isSet("size") && !p.isSet("rules")) return true;
    if (!is_stone_game(kind)) {
        usage_error(cmd, "--size and --rules are for the stone games (" + game_ids_text(Family::stones) + ")");
        return false;
    }
    stones::Rules rules = stones::Rules::defaults(kind);
    std::optional<std::string> e;
    if (p.isSet("size")) e = stones::apply_size_tag(rules, p.value("size").toStdString());
    if (!e && p.isSet("rules")) e = stones::apply_rules_tag(rules, p.value("rules").toStdString());
    if (e) {
        usage_error(cmd, *e);
        return false;
    }
    start = stones::StonePosition(rules);
    return true;
}

namespace {

struct CommonOptions {
    QCommandLineOption help{QStringList{"h", "help"}, "Show this help."};
    QCommandLineOption quiet{QStringList{"quiet"},
                             "Print no progress lines and no informational lines on stderr (errors and warnings still)."};
};

// The parser of a command: its description, the options of every command, then the command's own.
void set_up_parser(const Command& cmd, QCommandLineParser& parser, const CommonOptions& common) {
    parser.setApplicationDescription(
        QString::fromLatin1("gounki %1: %2").arg(QLatin1String(cmd.name), QLatin1String(cmd.summary)));
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsOptions);
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addOption(common.help);
    parser.addOption(common.quiet);
    cmd.describe(parser);
}

// Qt's help text names the program as it was called (./build/cli/gounki): say what a user types.
std::string help_text(const Command& cmd, const QCommandLineParser& parser) {
    QString text = parser.helpText();
    text.replace(QRegularExpression(QStringLiteral("^Usage: \\S+")),
                 QString::fromLatin1("Usage: gounki %1").arg(QLatin1String(cmd.name)));
    return text.toStdString();
}

} // namespace

std::string command_help(const Command& cmd) {
    QCommandLineParser parser;
    const CommonOptions common;
    set_up_parser(cmd, parser, common);
    return help_text(cmd, parser);
}

bool parse_command_line(const Command& cmd, QCommandLineParser& parser, const QStringList& args, int& exit_code) {
    const CommonOptions common;
    set_up_parser(cmd, parser, common);
    QStringList full = args;
    if (full.size() >= 2) full.removeAt(1); // the command name
    if (!parser.parse(full)) {
        std::string message = parser.errorText().toStdString();
        // Qt says "Unknown option 'wite'.": name the option the user probably meant.
        static const QRegularExpression unknown(QStringLiteral("^Unknown options?:? '([^']+)'")),
            option(QStringLiteral("--([a-z][a-z0-9-]*)"));
        if (const QRegularExpressionMatch m = unknown.match(parser.errorText()); m.hasMatch()) {
            std::vector<std::string> names;
            for (auto it = option.globalMatch(parser.helpText()); it.hasNext();)
                names.push_back(it.next().captured(1).toStdString());
            if (const std::string near = closest_name(m.captured(1).toStdString(), names); !near.empty())
                message += " Did you mean '--" + near + "'?";
        }
        exit_code = usage_error(cmd, message);
        return false;
    }
    if (parser.isSet(common.help)) {
        print_out(help_text(cmd, parser));
        exit_code = exit_ok;
        return false;
    }
    set_quiet(parser.isSet(common.quiet));
    return true;
}

} // namespace gounki::cli
