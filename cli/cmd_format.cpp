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
#include <map>
#include <optional>
#include <sstream>

#include "cli/command.hpp"
#include "cli/json_lines.hpp"
#include "parser/encoding.hpp"
#include "parser/formats.hpp"
#include "pipeline/input.hpp"
#include "pipeline/output_file.hpp"

namespace gounki::cli {

using pipeline::write_whole;

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
    if (const std::string_view kind = parser::archive_kind(std::string_view(out.text).substr(0, 512)); !kind.empty()) {
        print_err(parser::format_diagnostic(parser::file_diagnostic(
                      "io-error", name,
                      "a " + std::string(kind) + " archive or compressed file: gounki reads the records in it (validate, "
                      "import) but does not rewrite it; not formatted")) +
                  "\n");
        return false;
    }
    out.format = parser::format_of(name == "-" ? std::filesystem::path() : std::filesystem::path(name), head, forced);
    if (const std::string why = parser::not_a_record_file(head, out.format); !why.empty()) {
        print_err(parser::format_diagnostic(parser::file_diagnostic("binary-file", name, why)) + "\n");
        return false;
    }
    if (!parser::format_info(out.format).write) { // a format gounki reads only: rewriting it would lose it
        print_err(parser::format_diagnostic(parser::file_diagnostic(
                      "io-error", name,
                      "a file in the format '" + std::string(parser::format_info(out.format).name) +
                          "' (" + std::string(parser::format_info(out.format).description) +
                          "): gounki does not write it; not formatted")) +
                  "\n");
        return false;
    }
    return true;
}

// The text of a game kept as written: from its start (line and column) up to the next game's start
// (or the end: two games may share a line), converted to UTF-8 as the reader read it. Lines and
// columns are counted as the readers count them: a lone CR ends a line, CR is no column; columns
// are characters of the text as decoded from the character set the file declared (`charset`, SGF's
// CA), else UTF-8 characters, or one a byte where the bytes are not UTF-8 (Windows-1252).
struct Place {
    int line = 0; // 1-based; 0: the end of the text
    int column = 1;
};

class Lines {
public:
    Lines(std::string_view text, const std::string& charset) : text_(text) {
        if (const auto decoder = charset.empty() ? nullptr : parser::CharsetDecoder::open(charset)) {
            decoder->decode(text, true, decoded_);
            text_ = decoded_;
            is_utf8_ = true;
        }
        starts_.push_back(0);
        for (std::size_t i = 0; i < text_.size(); ++i)
            if (text_[i] == '\n' || (text_[i] == '\r' && (i + 1 == text_.size() || text_[i + 1] != '\n'))) starts_.push_back(i + 1);
    }
    std::string between(Place first, Place next) const {
        const std::size_t from = offset_of(Place{std::max(first.line, 1), first.column});
        const std::size_t to = next.line <= 0 ? text_.size() : offset_of(next);
        std::string_view part = text_.substr(from, to > from ? to - from : 0);
        if (part.substr(0, 3) == "\xEF\xBB\xBF") part.remove_prefix(3);
        std::string out;
        std::size_t bad = 0;
        if (is_utf8_ || parser::valid_utf8(part, bad)) out = part;
        else parser::cp1252_to_utf8(part, out);
        bool cr = false;
        parser::lone_cr_to_lf(out.data(), 0, out.size(), cr);
        if (!out.empty() && out.back() != '\n') out += '\n';
        return out;
    }

private:
    // The offset of a place: its line's start, then column - 1 characters on (a whole UTF-8
    // sequence is one, any other byte one; CR none), never past the line's end.
    std::size_t offset_of(Place p) const {
        if (p.line <= 0 || std::size_t(p.line) > starts_.size()) return text_.size();
        std::size_t at = starts_[std::size_t(p.line) - 1];
        if (at == 0 && text_.substr(0, 3) == "\xEF\xBB\xBF") at = 3; // the readers count no column for it
        for (int columns = p.column - 1; at < text_.size() && text_[at] != '\n' && columns > 0;) {
            if (text_[at] == '\r') {
                if (at + 1 == text_.size() || text_[at + 1] != '\n') break; // a lone CR ends the line
                ++at;
                continue;
            }
            std::size_t length = 1;
            parser::first_code_point(text_.substr(at), length);
            std::size_t bad = 0;
            if (length > 1 && !parser::valid_utf8(text_.substr(at, length), bad)) length = 1;
            at += length;
            --columns;
        }
        return at;
    }
    std::string_view text_;
    std::string decoded_;
    bool is_utf8_ = false; // text_ was decoded from the file's character set
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

// How many of `game`'s warnings its rewritten `text` no longer has (read back, as the next run of
// format or validate reads it): a warning the format cannot help (a Pente game's tournament-rule)
// is not counted fixed.
long warnings_fixed(const GameRecord& game, const std::string& text, parser::RecordFormat format,
                    const parser::WriteOptions& write) {
    const auto warnings = [](const GameRecord& g) {
        return std::count_if(g.diagnostics.begin(), g.diagnostics.end(),
                             [](const Diagnostic& d) { return d.severity == Severity::warning; });
    };
    std::istringstream in(text);
    const auto source = parser::open_source(format, in, "", parser::ReadOptions{write.notation, false});
    GameRecord again;
    const long after = source->next(again) ? long(warnings(again)) : 0;
    return std::max(0L, long(warnings(game)) - after);
}

// A result `*` where the board has decided the game (the warning result-incomplete): the rewritten
// text gives the board's result.
void complete_result(GameRecord& game) {
    if (std::none_of(game.diagnostics.begin(), game.diagnostics.end(), [](const Diagnostic& d) { return d.code == "result-incomplete"; }))
        return;
    const Outcome o = game.is_stone_game() ? game.final_stone_position().outcome() : game.final_position().outcome();
    if (o == Outcome::none) return;
    game.result = std::string(outcome_text(o));
    for (auto& [name, value] : game.tags)
        if (name == "Result") value = game.result;
}

// The canonical text of one file; games with errors copied as written.
std::string format_text(const Input& input, const parser::ReadOptions& read, const parser::WriteOptions& write, Tally& t) {
    const parser::FormatInfo& info = parser::format_info(input.format);
    std::istringstream in(input.text);
    const auto source = parser::open_source(input.format, in, input.name, read);
    // The file's lines as decoded in each character set a game kept as written was read in (SGF's
    // CA names one a game), made at the first such game.
    std::map<std::string, Lines> lines;
    std::string kept_charset;
    const auto kept_text = [&](Place first, Place next) {
        std::string text = lines.try_emplace(kept_charset, input.text, kept_charset).first->second.between(first, next);
        // Copied to a line's start, a text that began after other text on its line and starts with
        // `%` would become PGN's escape line: a blank keeps it what it was.
        if (input.format == parser::RecordFormat::gpn && first.column > 1 && !text.empty() && text[0] == '%') text.insert(0, 1, ' ');
        return text;
    };
    std::string out;
    Place kept_from; // the start of a game kept as written, until the next game's is known (line 0: none)
    const long games_before = t.games;
    GameRecord game;
    while (source->next(game)) {
        for (const Diagnostic& d : source->take_file_diagnostics()) print_err(parser::format_diagnostic(d) + "\n");
        if (kept_from.line) out += kept_text(kept_from, Place{game.line, std::max(game.column, 1)});
        kept_from = Place{};
        ++t.games;
        // (A broken game is kept as written whatever the format can hold.)
        std::string cannot = game.status == GameStatus::valid ? info.cannot_hold(game) : std::string();
        // What the reader left out (Diagnostic::left_out) would be gone from the rewritten text:
        // such a game is kept as written too.
        const auto left_out = std::find_if(game.diagnostics.begin(), game.diagnostics.end(),
                                           [](const Diagnostic& d) { return d.left_out; });
        if (cannot.empty() && left_out != game.diagnostics.end())
            cannot = left_out->message + " [" + left_out->code + "]; the rewritten text would lose it";
        if (cannot.empty() && !game.passed_over.empty())
            cannot = "it holds what gounki keeps nowhere (" + game.passed_over + "); the rewritten text would lose it";
        if (game.status != GameStatus::valid || !cannot.empty()) {
            report_kept(game, cannot, left_out != game.diagnostics.end() ? &*left_out : nullptr);
            ++t.kept;
            kept_from = Place{std::max(game.line, 1), std::max(game.column, 1)};
            kept_charset = source->charset();
            continue;
        }
        complete_result(game);
        const std::string text = info.write(game, write);
        t.warnings_fixed += warnings_fixed(game, text, input.format, write);
        out += text;
        ++t.formatted;
    }
    for (const Diagnostic& d : source->take_file_diagnostics()) print_err(parser::format_diagnostic(d) + "\n");
    if (kept_from.line) out += kept_text(kept_from, Place{});
    if (t.games == games_before) print_err(parser::format_diagnostic(parser::no_game_found(input.name)) + "\n");
    t.io_failed |= source->io_failed();
    return out;
}

// Writes `text` to `path` whole or not at all (pipeline/output_file.hpp).
bool write_file(const std::string& path, const std::string& text) {
    std::string error;
    if (write_whole(path, text, error)) return true;
    print_err("gounki format: " + error + "\n");
    return false;
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
    const std::vector<std::string> files = input_files(p.positionalArguments(), o.forced, folder_errors, false);
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
