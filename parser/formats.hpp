#pragma once
// Record formats: the one place that knows which formats gounki reads, how a file's format is
// told, and which reader reads it. A new format is one reader (a FileSource) plus one row here.
//
//   format   reader                     told by (content first, then the file name)
//   gpn      reader.hpp RecordReader    anything the others do not claim; .gpn .pgn .txt
//   sgf      sgf/sgf.hpp SgfReader      "(;" at the start; .sgf
//   psq      psq/psq.hpp PsqReader      "Piskvorky" at the start; .psq
//   renjunet renju/renjunet.hpp         "<?xml" and a <database> root; .rif (read only)
//   renlib   renju/renlib.hpp           the bytes FF "RenLib" FF at the start; .lib (read only)
//   openings psq/openings.hpp           digits, signs, commas and blanks only (read only; no
//                                       extension: a folder's .txt files are not opening lists)
//
// Commands take `--format NAME` to force one (format_of with `forced`). The import pipeline keeps
// its own parallel path for GPN (blocks of games on the thread pool) and reads every other format
// through its GameSource, game by game; `gounki validate` reads every format through GameSource.

#include <array>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/gounki/notation.hpp"
#include "parser/record.hpp"

namespace gounki::parser {

// A reader of one record file, game by game, in bounded memory.
class GameSource {
public:
    virtual ~GameSource() = default;
    // Whether the input could be opened; when not, take_file_diagnostics() holds an io-error.
    virtual bool ok() const = 0;
    // The next game, replayed through the rules; false at the end of the input.
    virtual bool next(GameRecord& game) = 0;
    // Problems with the file rather than a game (encoding, I/O, text outside any game). Each is
    // handed out once; call it after each game and once more at the end.
    virtual std::vector<Diagnostic> take_file_diagnostics() = 0;
    virtual std::uint64_t bytes_read() const = 0;
    virtual bool io_failed() const = 0;
    // The character set the last game read was declared in and decoded from (SGF's CA[GB2312], a
    // property of each game: encoding.hpp's CharsetDecoder); empty for UTF-8 (Windows-1252 where
    // it is not).
    virtual std::string charset() const { return {}; }
};

// What every format's reader holds: its input (a file it opened, or a stream the caller keeps), the
// file's name in diagnostics, the bytes read, whether reading failed, and the file diagnostics not
// handed out yet. A reader derives from it, takes its constructors and adds next().
class FileSource : public GameSource {
public:
    // Opens `path`; when that fails (a folder, a file that cannot be opened), ok() is false and
    // take_file_diagnostics() holds an io-error.
    explicit FileSource(const std::filesystem::path& path);
    // Reads from `in`, which must outlive the reader; `name` is the file name used in diagnostics.
    FileSource(std::istream& in, std::string name);
    ~FileSource() override;
    FileSource(const FileSource&) = delete;
    FileSource& operator=(const FileSource&) = delete;

    bool ok() const override { return in_ != nullptr; }
    std::vector<Diagnostic> take_file_diagnostics() override;
    std::uint64_t bytes_read() const override { return bytes_read_; }
    bool io_failed() const override { return io_failed_; }
    const std::string& name() const { return name_; }

protected:
    // A diagnostic about the file (at a line and column when they are known), handed out once.
    void file_error(std::string code, std::string message, Severity severity = Severity::error, int line = 0, int column = 0);
    // The input cannot be read: an io-error, and io_failed() true.
    void io_error(std::string message, int line = 0, int column = 0);
    // The whole input in `bytes`, for a format read at once; false after an io-error, or a
    // game-too-large past `max_bytes` ("more than N MB: " and `why_not`: nothing is read).
    bool read_whole(std::string& bytes, std::size_t max_bytes, std::string_view why_not);

    std::unique_ptr<std::istream> owned_; // the file opened by path
    std::istream* in_ = nullptr; // null when the file could not be opened
    std::string name_;
    std::uint64_t bytes_read_ = 0;
    bool io_failed_ = false;
    std::vector<Diagnostic> file_diagnostics_;
};

enum class RecordFormat : std::uint8_t { gpn, sgf, psq, renjunet, renlib, openings };

// How a reader is set up, and a writer (what some formats need to be told).
struct ReadOptions {
    Notation notation = Notation::automatic; // GPN: how Gounki moves are written
    bool renlib_tree = false; // RenLib: the library as one game with variations (renju/renlib.hpp)
};
struct WriteOptions {
    Notation notation = Notation::wikipedia; // GPN: how Gounki moves are written
    bool go_points = false; // GPN: 19x19 stone games' points as pente.org writes them (writer.hpp, StonePoints)
};

struct FormatInfo {
    RecordFormat format;
    std::string_view name; // as typed after --format
    std::string_view description; // one line for --help texts and messages
    std::array<std::string_view, 3> extensions; // lower case, with the dot (empty: none)
    // Whether the first bytes of a file (a byte order mark already dropped) are this format's.
    bool (*claims)(std::string_view head);
    // A reader of `in` (which must outlive it); `name` is the file's name in diagnostics.
    std::unique_ptr<GameSource> (*open)(std::istream& in, std::string name, const ReadOptions& options);
    // Why `game` cannot be written in this format; empty when it can.
    std::string (*cannot_hold)(const GameRecord& game);
    // The text of one game, which this format's reader reads back as the same game. A file of several
    // games is their texts one after the other, unless the format holds one game per file. nullptr:
    // gounki reads the format but does not write it (cannot_hold says so).
    std::string (*write)(const GameRecord& game, const WriteOptions& options);
    bool one_game_per_file;
    // Whether the reader decodes text in UTF-16 itself (told by its byte order mark): such a file is
    // read in this format, not refused as binary (not_a_record_file).
    bool reads_utf16;
    // A format with no extension of its own: a `.txt` file whose name starts with this (lower case)
    // is the format's, so that a folder or an archive yields it (empty: none).
    std::string_view txt_prefix = {};
};

// Every format, in RecordFormat order.
std::span<const FormatInfo> record_formats();
const FormatInfo& format_info(RecordFormat format);
inline std::string_view format_name(RecordFormat format) { return format_info(format).name; }
// A format's name in any case ("psq", "SGF"); nullopt otherwise.
std::optional<RecordFormat> parse_record_format(std::string_view name);
// "gpn, sgf, psq, renjunet, renlib or openings", for messages and --help texts.
std::string format_names_text();

// The format of a file: `forced` when given; else the first format whose content test accepts
// `head` (the file's first bytes; in a file in UTF-16, its ASCII characters); else the one its
// name's extension belongs to; else GPN.
RecordFormat format_of(const std::filesystem::path& name, std::string_view head,
                       std::optional<RecordFormat> forced = std::nullopt);
// Whether a file name has an extension of some record format (of `format` when given), or is a
// `.txt` named as a format without an extension names its files (FormatInfo::txt_prefix).
bool has_record_extension(const std::filesystem::path& name, std::optional<RecordFormat> format = std::nullopt);

// Why a file whose first bytes are `head`, to be read in `format` (format_of), is no record file at
// all, for an error that refuses it (binary-file): UTF-16 text (unless `format`'s reader reads it)
// or UTF-32 text, or NUL bytes (a binary file). Empty when it may be one, and for the one binary
// record format (a RenLib library, told by its header).
std::string not_a_record_file(std::string_view head, RecordFormat format);
// Archives and compressed files, whose members pipeline/archive.hpp reads as record files: the
// kind the first bytes of a file show ("zip", "gzip", "bzip2", "xz", "zstd", "7z", "tar": tar's mark
// is at byte 258, so a shorter head never shows it); empty when they show none.
std::string_view archive_kind(std::string_view head);
// Whether an archive_kind is a compression of one stream (gzip, bzip2, xz, zstd), not an archive.
bool is_compression(std::string_view kind);
// Whether a file name is an archive's (.zip .tar .tgz .7z ...) or a compressed record file's or
// archive's (.pgn.gz, .tar.bz2: a record format's extension, `format`'s when given, or .tar under
// the compression's; "README.txt.gz" is none).
bool has_archive_extension(const std::filesystem::path& name, std::optional<RecordFormat> format = std::nullopt);
// A compressed file's name without its compression's extension ("games.pgn.gz": "games.pgn";
// "games.tgz": "games.tar"); other names as they are.
std::filesystem::path without_compression_extension(const std::filesystem::path& name);
// A diagnostic about a whole file (no line): binary-file, no-game, io-error.
Diagnostic file_diagnostic(std::string code, const std::string& file, std::string message, Severity severity = Severity::error);
// The warning for a file in which no game was found (an empty file, or one of blanks only).
Diagnostic no_game_found(const std::string& file);

// Every game `source` gives, in order; `file_diagnostics`, when given, receives every file
// diagnostic it hands out (taken after each game and at the end). For texts in memory.
std::vector<GameRecord> read_all(GameSource& source, std::vector<Diagnostic>* file_diagnostics);

// A reader of `in` in `format`.
std::unique_ptr<GameSource> open_source(RecordFormat format, std::istream& in, std::string name, const ReadOptions& options = {});

// The files the command-line arguments name, in order: a file as given ("-" for standard input);
// a folder as every file below it (sub-folders too) whose extension is a record format's (`forced`'s
// only, when given) or an archive's, sorted by path. A folder with no such file is an io-error diagnostic in
// `errors` (the other arguments are still listed).
// `archives`: archives in folders are listed too (not for `format`, which rewrites record files).
std::vector<std::string> expand_inputs(const std::vector<std::string>& arguments, std::optional<RecordFormat> forced,
                                       std::vector<Diagnostic>& errors, bool archives = true);

} // namespace gounki::parser
