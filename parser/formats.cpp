#include "parser/formats.hpp"
#include "core/text.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <istream>
#include <system_error>
#include <utility>

#include "parser/psq/openings.hpp"
#include "parser/psq/psq.hpp"
#include "parser/reader.hpp"
#include "parser/renju/renjunet.hpp"
#include "parser/renju/renlib.hpp"
#include "parser/sgf/sgf.hpp"
#include "parser/writer.hpp"

namespace gounki::parser {

namespace {

std::unique_ptr<GameSource> open_gpn(std::istream& in, std::string name, const ReadOptions& options) {
    auto reader = std::make_unique<RecordReader>(in, std::move(name));
    reader->set_notation(options.notation);
    return reader;
}

std::unique_ptr<GameSource> open_sgf(std::istream& in, std::string name, const ReadOptions&) {
    return std::make_unique<SgfReader>(in, std::move(name));
}

std::unique_ptr<GameSource> open_psq(std::istream& in, std::string name, const ReadOptions&) {
    return std::make_unique<PsqReader>(in, std::move(name));
}

std::unique_ptr<GameSource> open_renjunet(std::istream& in, std::string name, const ReadOptions&) {
    return std::make_unique<RenjuNetReader>(in, std::move(name));
}

std::unique_ptr<GameSource> open_renlib(std::istream& in, std::string name, const ReadOptions& options) {
    return std::make_unique<RenLibReader>(in, std::move(name), options.renlib_tree);
}

std::unique_ptr<GameSource> open_openings(std::istream& in, std::string name, const ReadOptions&) {
    return std::make_unique<OpeningsReader>(in, std::move(name));
}

std::string gpn_cannot_hold(const GameRecord&) { return {}; }
std::string write_gpn(const GameRecord& game, const WriteOptions& options) {
    return write_record(game, options.notation, options.go_points ? StonePoints::go : StonePoints::gounki);
}
std::string write_sgf_text(const GameRecord& game, const WriteOptions&) { return write_sgf(game); }
std::string write_psq_text(const GameRecord& game, const WriteOptions&) { return write_psq(game); }

// A broken game's mark (GPN's Status tag and its error comment, docs/rules.md 1.8) has no place in
// SGF or PSQ: written there, the game would read back as valid.
std::string broken_cannot_hold(const GameRecord& game, std::string_view format, std::string why) {
    if (!why.empty() || game.status == GameStatus::valid) return why;
    return "a " + std::string(game.status == GameStatus::partial ? "partial" : "invalid") + " game, which " + std::string(format) +
        " has no way to mark (it would read back as valid): export it as gpn";
}
std::string sgf_holds(const GameRecord& game) { return broken_cannot_hold(game, "SGF", sgf_cannot_hold(game)); }
std::string psq_holds(const GameRecord& game) { return broken_cannot_hold(game, "PSQ", psq_cannot_hold(game)); }

// GPN claims nothing by content: it is what a file is when no other format claims it.
constexpr FormatInfo table[] = {
    {RecordFormat::gpn,
     "gpn",
     "GPN, gounki's PGN-style records (docs/rules.md 1.8)",
     {".gpn", ".pgn", ""},
     nullptr,
     open_gpn,
     gpn_cannot_hold,
     write_gpn,
     false,
     false},
    {RecordFormat::sgf,
     "sgf",
     "SGF of the stone games (GM[4])",
     {".sgf", "", ""},
     claims_sgf,
     open_sgf,
     sgf_holds,
     write_sgf_text,
     false,
     false},
    {RecordFormat::psq,
     "psq",
     "Piskvork PSQ, one Gomoku game per file (Gomocup)",
     {".psq", "", ""},
     claims_psq,
     open_psq,
     psq_holds,
     write_psq_text,
     true,
     false},
    {RecordFormat::renjunet,
     "renjunet",
     "the RenjuNet database (XML), read only",
     {".rif", "", ""},
     claims_renjunet,
     open_renjunet,
     renjunet_cannot_hold,
     nullptr,
     false,
     true}, // expat decodes UTF-16
    {RecordFormat::renlib,
     "renlib",
     "a RenLib opening library (.lib, binary): one game per line of its tree, read only",
     {".lib", "", ""},
     claims_renlib,
     open_renlib,
     renlib_cannot_hold,
     nullptr,
     false,
     false},
    {RecordFormat::openings,
     "openings",
     "a Gomocup opening list (x,y offsets from the centre, one opening a line), read only",
     {"", "", ""},
     claims_openings,
     open_openings,
     openings_cannot_hold,
     nullptr,
     false,
     false,
     "openings"},
};

bool utf16_bom(std::string_view head) {
    using namespace std::string_view_literals;
    return (head.starts_with("\xFF\xFE") && !head.starts_with("\xFF\xFE\0\0"sv)) || head.starts_with("\xFE\xFF");
}

// The head as the content tests read it: without UTF-8's byte order mark; a UTF-16 head (its byte
// order mark) as its ASCII characters, one byte each (any other character as 0x80).
std::string content_head(std::string_view head) {
    if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);
    if (!utf16_bom(head)) return std::string(head);
    const bool little = head[0] == '\xFF';
    std::string out;
    for (std::size_t i = 2; i + 1 < head.size(); i += 2) {
        const auto low = static_cast<unsigned char>(head[little ? i : i + 1]);
        const auto high = static_cast<unsigned char>(head[little ? i + 1 : i]);
        out += high == 0 && low < 0x80 ? char(low) : '\x80';
    }
    return out;
}

} // namespace

std::span<const FormatInfo> record_formats() { return table; }

const FormatInfo& format_info(RecordFormat format) { return table[std::size_t(format)]; }

std::optional<RecordFormat> parse_record_format(std::string_view name) {
    const std::string n = lower(name);
    for (const FormatInfo& f : table)
        if (f.name == n) return f.format;
    return std::nullopt;
}

std::string format_names_text() {
    std::string out;
    for (std::size_t i = 0; i < std::size(table); ++i) {
        if (i > 0) out += i + 1 == std::size(table) ? " or " : ", ";
        out += table[i].name;
    }
    return out;
}

bool has_record_extension(const std::filesystem::path& name, std::optional<RecordFormat> format) {
    const std::string ext = lower(name.extension().string());
    if (ext.empty()) return false;
    for (const FormatInfo& f : table) {
        if (format && f.format != *format) continue;
        for (std::string_view e : f.extensions)
            if (!e.empty() && e == ext) return true;
        if (!f.txt_prefix.empty() && ext == ".txt" && lower(name.stem().string()).starts_with(f.txt_prefix)) return true;
    }
    return false;
}

std::string not_a_record_file(std::string_view head, RecordFormat format) {
    using namespace std::string_view_literals;
    if (claims_renlib(head)) return {};
    if (head.starts_with("\xFF\xFE\0\0"sv) || head.starts_with("\0\0\xFE\xFF"sv))
        return "the file is UTF-32 text: save it as UTF-8 to read it";
    if (utf16_bom(head))
        return format_info(format).reads_utf16 ? std::string() : "the file is UTF-16 text: save it as UTF-8 to read it";
    const std::size_t nul = head.find('\0');
    if (nul == std::string_view::npos) return {};
    return "the file holds a NUL byte (at byte " + std::to_string(nul + 1) +
        "): it is a binary file, not a record file; not read";
}

std::string_view archive_kind(std::string_view head) {
    using namespace std::string_view_literals;
    static constexpr std::pair<std::string_view, std::string_view> marks[] = {
        {"PK\x03\x04"sv, "zip"}, {"PK\x05\x06"sv, "zip"},      {"\x1F\x8B"sv, "gzip"},
        {"BZh"sv, "bzip2"},       {"\xFD" "7zXZ\0"sv, "xz"},    {"\x28\xB5\x2F\xFD"sv, "zstd"},
        {"7z\xBC\xAF\x27\x1C"sv, "7z"},
    };
    for (const auto& [mark, kind] : marks) {
        if (!head.starts_with(mark)) continue;
        if (kind != "bzip2") return kind;
        // "BZh", the block size, then a block's mark or the end of the stream's (a text may start "BZh")
        const bool block = head.size() >= 10 && head[3] >= '1' && head[3] <= '9' &&
            (head.substr(4, 6) == "1AY&SY" || head.substr(4, 6) == "\x17rE8P\x90"sv);
        return block ? kind : std::string_view();
    }
    if (head.size() >= 262 && head.substr(257, 5) == "ustar") return "tar";
    return {};
}

bool is_compression(std::string_view kind) { return kind == "gzip" || kind == "bzip2" || kind == "xz" || kind == "zstd"; }

namespace {
// Compressions of one file, and what their short forms stand for.
constexpr std::pair<std::string_view, std::string_view> compressions[] = {
    {".gz", ""}, {".bz2", ""}, {".xz", ""}, {".zst", ""}, {".tgz", ".tar"}, {".tbz2", ".tar"}, {".tbz", ".tar"}, {".txz", ".tar"},
};
} // namespace

bool has_archive_extension(const std::filesystem::path& name, std::optional<RecordFormat> format) {
    const std::string ext = lower(name.extension().string());
    if (ext == ".zip" || ext == ".tar" || ext == ".7z") return true;
    for (const auto& [compressed, stands_for] : compressions)
        if (compressed == ext) {
            if (!stands_for.empty()) return true; // .tgz
            const std::filesystem::path inner = name.stem();
            return lower(inner.extension().string()) == ".tar" || has_record_extension(inner, format);
        }
    return false;
}

std::filesystem::path without_compression_extension(const std::filesystem::path& name) {
    const std::string ext = lower(name.extension().string());
    for (const auto& [compressed, stands_for] : compressions)
        if (compressed == ext) return std::filesystem::path(name).replace_extension(stands_for);
    return name;
}

Diagnostic file_diagnostic(std::string code, const std::string& file, std::string message, Severity severity) {
    Diagnostic d;
    d.severity = severity;
    d.code = std::move(code);
    d.file = file;
    d.message = std::move(message);
    return d;
}

FileSource::FileSource(const std::filesystem::path& path) : name_(path.string()) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        io_error("cannot read a directory as a record file");
        return;
    }
    auto f = std::make_unique<std::ifstream>(path, std::ios::binary);
    if (!*f) {
        io_error("cannot open the file: " + std::string(std::strerror(errno)));
        return;
    }
    owned_ = std::move(f);
    in_ = owned_.get();
}

FileSource::FileSource(std::istream& in, std::string name) : in_(&in), name_(std::move(name)) {}

FileSource::~FileSource() = default;

std::vector<Diagnostic> FileSource::take_file_diagnostics() { return std::exchange(file_diagnostics_, {}); }

void FileSource::file_error(std::string code, std::string message, Severity severity, int line, int column) {
    Diagnostic d = file_diagnostic(std::move(code), name_, std::move(message), severity);
    d.line = line;
    d.column = column;
    file_diagnostics_.push_back(std::move(d));
}

void FileSource::io_error(std::string message, int line, int column) {
    io_failed_ = true;
    file_error("io-error", std::move(message), Severity::error, line, column);
}

bool FileSource::read_whole(std::string& bytes, std::size_t max_bytes, std::string_view why_not) {
    char block[1 << 16];
    while (in_->read(block, sizeof block) || in_->gcount() > 0) {
        bytes.append(block, std::size_t(in_->gcount()));
        bytes_read_ += std::uint64_t(in_->gcount());
        if (bytes.size() > max_bytes) {
            file_error("game-too-large", "more than " + std::to_string(max_bytes >> 20) + " MB: " + std::string(why_not));
            return false;
        }
    }
    if (in_->bad()) {
        io_error("error reading " + name_);
        return false;
    }
    return true;
}

Diagnostic no_game_found(const std::string& file) {
    return file_diagnostic("no-game", file, "no game found in the file", Severity::warning);
}

RecordFormat format_of(const std::filesystem::path& name, std::string_view head, std::optional<RecordFormat> forced) {
    if (forced) return *forced;
    const std::string text = content_head(head);
    const auto by_name = [&]() -> std::optional<RecordFormat> {
        for (const FormatInfo& f : table)
            if (has_record_extension(name, f.format)) return f.format;
        return std::nullopt;
    };
    for (const FormatInfo& f : table)
        if (f.claims && f.claims(text)) {
            // An opening list's start (a line of numbers and commas) is also a PSQ file's without its
            // header: a name that says another format wins, and its reader says what is missing.
            if (f.format == RecordFormat::openings)
                if (const auto named = by_name(); named && *named != RecordFormat::openings) return *named;
            return f.format;
        }
    return by_name().value_or(RecordFormat::gpn);
}

std::vector<GameRecord> read_all(GameSource& source, std::vector<Diagnostic>* file_diagnostics) {
    std::vector<GameRecord> games;
    std::vector<Diagnostic> diagnostics;
    const auto take_diagnostics = [&] {
        for (Diagnostic& d : source.take_file_diagnostics()) diagnostics.push_back(std::move(d));
    };
    GameRecord g;
    while (source.next(g)) {
        games.push_back(std::move(g));
        take_diagnostics();
    }
    take_diagnostics();
    if (file_diagnostics) *file_diagnostics = std::move(diagnostics);
    return games;
}

std::unique_ptr<GameSource> open_source(RecordFormat format, std::istream& in, std::string name, const ReadOptions& options) {
    return format_info(format).open(in, std::move(name), options);
}

std::vector<std::string> expand_inputs(const std::vector<std::string>& arguments, std::optional<RecordFormat> forced,
                                       std::vector<Diagnostic>& errors, bool archives) {
    std::vector<std::string> out;
    for (const std::string& arg : arguments) {
        std::error_code ec;
        if (arg == "-" || !std::filesystem::is_directory(arg, ec)) {
            out.push_back(arg);
            continue;
        }
        std::vector<std::string> found;
        for (auto it = std::filesystem::recursive_directory_iterator(arg, ec); !ec && it != std::filesystem::end(it);
             it.increment(ec)) {
            std::error_code type_ec;
            if (it->is_regular_file(type_ec) &&
                (has_record_extension(it->path(), forced) || (archives && has_archive_extension(it->path(), forced))))
                found.push_back(it->path().string());
        }
        std::sort(found.begin(), found.end());
        Diagnostic d;
        d.file = arg;
        d.code = "io-error";
        if (ec) {
            d.message = "cannot read the folder: " + ec.message();
            errors.push_back(std::move(d));
        } else if (found.empty()) {
            std::string exts;
            for (const FormatInfo& f : table)
                if (!forced || f.format == *forced)
                    for (std::string_view e : f.extensions)
                        if (!e.empty()) exts += (exts.empty() ? "*" : ", *") + std::string(e);
            d.message = "the folder holds no record file (" + exts + ")" + (archives ? " and no archive (*.zip, *.tar.gz, ...)" : "");
            errors.push_back(std::move(d));
        }
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}

} // namespace gounki::parser
