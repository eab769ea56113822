// gounki format FILE... [-o OUT | --in-place | --check]: the canonical text of record files, as
// `gounki export` would write the same games (docs/rules.md 1.8), so that every warning the reader
// names (markers, result tags, move numbers, typographic characters...) is gone from the output.
// Comments, variations and NAGs are kept. A game with an error (invalid or partial) is never
// rewritten, since writing it would drop what the reader could not place: its text is copied as
// written, and a message names it; so is a game with something the reader left out (an SGF
// property it does not read, set-up stones inside an SGF game). Each file keeps its own format
// (GPN, SGF or PSQ).
// Exit status: 0 every game formatted (or, with --check, every file already canonical), 1 a game
// kept as written (or a file that --check finds not canonical), 2 usage or I/O errors.
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/command.hpp"
#include "cli/json_lines.hpp"
#include "parser/encoding.hpp"
#include "parser/formats.hpp"
#include "pipeline/input.hpp"

namespace gounki::cli {

namespace {

using parser::Diagnostic;
using parser::GameRecord;
using parser::GameStatus;
using parser::Severity;

struct Tally {
    long files = 0, games = 0, formatted = 0, kept = 0, warnings_fixed = 0, changed_files = 0;
    bool io_failed = false;
};

// One input file: its name, its whole text and its format.
struct Input {
    std::string name;
    std::string text;
    parser::RecordFormat format = parser::RecordFormat::gpn;
};

// Reads a whole file ("-": standard input); an io-error message when it cannot.
bool read_input(const std::string& name, std::optional<parser::RecordFormat> forced, Input& out) {
    out.name = name;
    if (name == "-") {
        std::ostringstream text;
        text << std::cin.rdbuf();
        out.text = std::move(text).str();
    } else if (const int err = pipeline::read_whole_file(name.c_str(), out.text)) {
        print_err(parser::format_diagnostic(
                      parser::file_diagnostic("io-error", name, "cannot read the file: " + std::string(std::strerror(err)))) +
                  "\n");
        return false;
    }
    const std::string_view head = std::string_view(out.text).substr(0, 256);
    if (const std::string why = parser::not_a_record_file(head); !why.empty()) {
        print_err(parser::format_diagnostic(parser::file_diagnostic("binary-file", name, why)) + "\n");
        return false;
    }
    out.format = parser::format_of(name == "-" ? std::filesystem::path() : std::filesystem::path(name), head, forced);
    if (!parser::format_info(out.format).write) { // a format gounki reads only: rewriting it would lose it
        print_err(parser::format_diagnostic(parser::file_diagnostic(
                      "io-error", name,
                      "a " + std::string(parser::format_info(out.format).description) + " file: gounki does not write it; not formatted")) +
                  "\n");
        return false;
    }
    return true;
}

// The text of a game kept as written: from its start (line and column) up to the next game's start
// (or the end: two games may share a line), converted to UTF-8 as the reader read it: from the
// character set the file declared (`charset`, SGF's CA; no such set cuts a character at a line's
// end), else from Windows-1252 where it is not UTF-8. Columns count characters, CR not counted,
// as the readers count them.
struct Place {
    int line = 0; // 1-based; 0: the end of the text
    int column = 1;
};

class Lines {
public:
    explicit Lines(std::string_view text) : text_(text) {
        starts_.push_back(0);
        for (std::size_t i = 0; i < text.size(); ++i) // a lone CR ends a line too, as the readers count
            if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'))) starts_.push_back(i + 1);
    }
    std::string between(Place first, Place next, const std::string& charset) const {
        const auto at = [&](int line) {
            return line <= 0 || std::size_t(line) > starts_.size() ? text_.size() : starts_[std::size_t(line) - 1];
        };
        // Whole lines, the next game's line included when it starts after its line's start.
        const std::size_t from = at(std::max(first.line, 1));
        const std::size_t to = next.line <= 0 ? text_.size() : next.column > 1 ? at(next.line + 1) : at(next.line);
        std::string_view part = text_.substr(from, to > from ? to - from : 0);
        if (part.substr(0, 3) == "\xEF\xBB\xBF") part.remove_prefix(3);
        std::string out;
        std::size_t bad = 0;
        if (const auto decoder = charset.empty() ? nullptr : parser::CharsetDecoder::open(charset)) decoder->decode(part, true, out);
        else if (parser::valid_utf8(part, bad)) out = part;
        else parser::cp1252_to_utf8(part, out);
        bool cr = false;
        parser::lone_cr_to_lf(out.data(), 0, out.size(), true, cr);
        // Then cut to the places: the end on the next game's line first, then the start.
        std::size_t end = out.size();
        if (next.line > 0 && next.column > 1) {
            std::size_t line_at = 0;
            for (int l = std::max(first.line, 1); l < next.line && line_at < out.size(); ++l) {
                const std::size_t nl = out.find('\n', line_at);
                line_at = nl == std::string::npos ? out.size() : nl + 1;
            }
            end = advance(out, line_at, next.column - 1);
        }
        const std::size_t begin = std::min(advance(out, 0, first.column - 1), end);
        out = out.substr(begin, end - begin);
        if (!out.empty() && out.back() != '\n') out += '\n';
        return out;
    }

private:
    // The offset `columns` characters after `at` on its line (CR not counted), or the line's end.
    static std::size_t advance(const std::string& s, std::size_t at, int columns) {
        for (; at < s.size() && s[at] != '\n'; ++at) {
            const auto c = static_cast<unsigned char>(s[at]);
            if ((c & 0xC0) == 0x80 || c == '\r') continue;
            if (columns-- <= 0) break;
        }
        return at;
    }
    std::string_view text_;
    std::vector<std::size_t> starts_;
};

// "file:line:col: warning: game 3 kept as written: <its first error> [kept-as-written]", placed at
// that error (or at `at`, what the reader left out, or at the game when the format is what stands
// in the way).
void report_kept(const GameRecord& game, const std::string& cannot_hold, const Diagnostic* at = nullptr) {
    Diagnostic d;
    d.severity = Severity::warning;
    d.code = "kept-as-written";
    d.file = game.file;
    d.line = at && at->line ? at->line : game.line;
    d.column = at ? at->column : 0;
    d.game = game.number;
    std::string why = cannot_hold;
    for (const Diagnostic& e : game.diagnostics) {
        if (e.severity != Severity::error || !why.empty()) continue;
        why = e.message + " [" + e.code + "]";
        d.line = e.line ? e.line : d.line;
        d.column = e.column;
    }
    d.message = "game " + std::to_string(game.number) + " kept as written: " + why;
    print_err(parser::format_diagnostic(d) + "\n");
}

// The canonical text of one file; games with errors copied as written.
std::string format_text(const Input& input, const parser::ReadOptions& read, const parser::WriteOptions& write, Tally& t) {
    const parser::FormatInfo& info = parser::format_info(input.format);
    std::istringstream in(input.text);
    const auto source = parser::open_source(input.format, in, input.name, read);
    const Lines lines(input.text);
    std::string out;
    Place kept_from; // the start of a game kept as written, until the next game's is known (line 0: none)
    const long games_before = t.games;
    GameRecord game;
    while (source->next(game)) {
        for (const Diagnostic& d : source->take_file_diagnostics()) print_err(parser::format_diagnostic(d) + "\n");
        if (kept_from.line) out += lines.between(kept_from, Place{game.line, std::max(game.column, 1)}, source->charset());
        kept_from = Place{};
        ++t.games;
        std::string cannot = info.cannot_hold(game);
        // What the reader left out (Diagnostic::left_out) would be gone from the rewritten text:
        // such a game is kept as written too.
        const auto left_out = std::find_if(game.diagnostics.begin(), game.diagnostics.end(),
                                           [](const Diagnostic& d) { return d.left_out; });
        if (cannot.empty() && left_out != game.diagnostics.end())
            cannot = left_out->message + " [" + left_out->code + "]; the rewritten text would lose it";
        if (game.status != GameStatus::valid || !cannot.empty()) {
            report_kept(game, cannot, left_out != game.diagnostics.end() ? &*left_out : nullptr);
            ++t.kept;
            kept_from = Place{std::max(game.line, 1), std::max(game.column, 1)};
            continue;
        }
        for (const Diagnostic& d : game.diagnostics) t.warnings_fixed += d.severity == Severity::warning;
        out += info.write(game, write);
        ++t.formatted;
    }
    for (const Diagnostic& d : source->take_file_diagnostics()) print_err(parser::format_diagnostic(d) + "\n");
    if (kept_from.line) out += lines.between(kept_from, Place{}, source->charset());
    if (t.games == games_before) print_err(parser::format_diagnostic(parser::no_game_found(input.name)) + "\n");
    t.io_failed |= source->io_failed();
    return out;
}

// Writes `text` to `path` through a file beside it renamed at the end: a failed write leaves the
// old file (or none) in place, never a half file.
bool write_file(const std::string& path, const std::string& text) {
    const std::string part = path + ".part";
    {
        std::ofstream file(part, std::ios::binary | std::ios::trunc);
        file << text;
        file.close();
        if (!file) {
            std::filesystem::remove(part);
            print_err("gounki format: cannot write '" + part + "'\n");
            return false;
        }
    }
    std::error_code ec;
    std::filesystem::rename(part, path, ec);
    if (ec) {
        std::filesystem::remove(part);
        print_err("gounki format: cannot replace '" + path + "': " + ec.message() + "\n");
        return false;
    }
    return true;
}

enum class Mode { output, in_place, check };

struct Options {
    Mode mode = Mode::output;
    std::string output = "-";
    std::optional<parser::RecordFormat> forced;
    parser::ReadOptions read;
    parser::WriteOptions write;
};

bool read_options(const Command& self, const QCommandLineParser& p, Options& o) {
    const int modes = int(p.isSet("output")) + int(p.isSet("in-place")) + int(p.isSet("check"));
    if (modes > 1) {
        usage_error(self, "give only one of -o, --in-place and --check");
        return false;
    }
    if (p.isSet("in-place")) o.mode = Mode::in_place;
    if (p.isSet("check")) o.mode = Mode::check;
    if (p.isSet("output")) o.output = p.value("output").toStdString();
    // Moves are read in whatever notation each game is written in, and written in --notation.
    return read_format(self, p, o.forced) && read_notation(self, p, false, o.write.notation);
}

// -o or standard output: every game of every file, one after the other, in one format.
int run_output(const Command& self, const std::vector<Input>& inputs, const Options& o, Tally& t) {
    for (const Input& in : inputs)
        if (in.format != inputs.front().format)
            return usage_error(self,
                               "'" + in.name + "' is " + std::string(parser::format_name(in.format)) + " but '" +
                                   inputs.front().name + "' is " + std::string(parser::format_name(inputs.front().format)) +
                                   ": format files of different formats with --in-place, or one format at a time");
    std::string all;
    for (const Input& in : inputs) all += format_text(in, o.read, o.write, t);
    if (parser::format_info(inputs.front().format).one_game_per_file && t.games > 1)
        return usage_error(self,
                           std::string(parser::format_name(inputs.front().format)) +
                               " holds one game per file: format several such files with --in-place");
    if (o.output == "-") {
        print_out(all);
        return exit_ok;
    }
    return write_file(o.output, all) ? exit_ok : exit_usage;
}

// --in-place and --check: each file on its own; only a file whose text changes is rewritten.
int run_each(const std::vector<Input>& inputs, const Options& o, Tally& t) {
    int status = exit_ok;
    for (const Input& in : inputs) {
        const std::string text = format_text(in, o.read, o.write, t);
        if (text == in.text) continue;
        ++t.changed_files;
        if (o.mode == Mode::check) print_out(in.name + "\n");
        else if (!write_file(in.name, text)) status = exit_usage;
    }
    return status;
}

void summary(const Tally& t, const Options& o, bool json) {
    if (json) {
        QJsonObject s = summary_json({{"files", t.files},
                                      {"games", t.games},
                                      {"formatted", t.formatted},
                                      {"kept_as_written", t.kept},
                                      {"warnings_fixed", t.warnings_fixed}});
        if (o.mode != Mode::output) s.insert(o.mode == Mode::check ? "not_canonical" : "rewritten", qint64(t.changed_files));
        print_err(QJsonDocument(s).toJson(QJsonDocument::Compact).toStdString() + "\n");
        return;
    }
    std::string line = counted(t.games, "game") + " in " + counted(t.files, "file") + ": " + std::to_string(t.formatted) +
        " formatted (" + counted(t.warnings_fixed, "warning") + " fixed), " + std::to_string(t.kept) + " kept as written";
    if (o.mode == Mode::in_place) line += "; " + counted(t.changed_files, "file") + " rewritten";
    if (o.mode == Mode::check) line += "; " + counted(t.changed_files, "file") + " not canonical";
    print_info(line + "\n");
}

} // namespace

void describe_format(QCommandLineParser& p) {
    p.addOption({{"o", "output"}, "Write the records to this file (- for standard output, the default).", "file"});
    p.addOption({"in-place", "Rewrite each FILE with its canonical text (only files whose text changes)."});
    p.addOption({"check", "Write nothing: list the files whose text is not canonical (exit status 1 if any)."});
    add_format_option(p);
    add_notation_option(p, false);
    p.addOption({"json", "Print the summary as one JSON object (on stderr)."});
    p.addPositionalArgument(
        "FILE", "Record files (GPN, SGF, PSQ; a folder for every record file below it; '-' reads standard input).", "FILE...");
}

int run_format(const QCommandLineParser& p) {
    const Command& self = *find_command("format");
    if (p.positionalArguments().isEmpty()) return usage_error(self, "expected at least one FILE ('-' for standard input)");
    Options o;
    if (!read_options(self, p, o)) return exit_usage;
    Tally t;
    std::vector<Diagnostic> folder_errors;
    const std::vector<std::string> files = input_files(p.positionalArguments(), o.forced, folder_errors);
    for (const Diagnostic& d : folder_errors) print_err(parser::format_diagnostic(d) + "\n");
    t.io_failed = !folder_errors.empty();
    std::vector<Input> inputs;
    for (const std::string& name : files) {
        if (name == "-" && o.mode == Mode::in_place) return usage_error(self, "--in-place cannot rewrite standard input");
        Input in;
        if (read_input(name, o.forced, in)) inputs.push_back(std::move(in));
        else t.io_failed = true;
    }
    t.files = long(inputs.size());
    int status = exit_ok;
    if (!inputs.empty()) status = o.mode == Mode::output ? run_output(self, inputs, o, t) : run_each(inputs, o, t);
    if (status == exit_usage) return status;
    summary(t, o, p.isSet("json"));
    if (t.io_failed) return exit_usage;
    return t.kept || (o.mode == Mode::check && t.changed_files) ? exit_findings : exit_ok;
}

} // namespace gounki::cli
