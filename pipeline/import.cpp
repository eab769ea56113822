#include "pipeline/import.hpp"

#include <filesystem>
#include <optional>
#include <utility>

#include "db/record_bridge.hpp"
#include "parser/formats.hpp"
#include "pipeline/read.hpp"

namespace gounki::pipeline {

namespace {

db::ImportOptions options_of(const ImportRequest& request) {
    db::ImportOptions o = request.options;
    // A record takes 400-600 bytes for 40 plies: a low guess of the games coming, for deferring
    // the lookup indexes when they outnumber the stored ones (an archive's bytes are compressed:
    // records shrink to a fifth or less).
    if (o.expected_games == 0) {
        std::uint64_t bytes = 0;
        for (const std::string& f : request.files)
            bytes += input_bytes({f}) * (parser::has_archive_extension(f) ? 5 : 1);
        o.expected_games = std::int64_t(bytes / 600);
    }
    return o;
}

// One import: the records read in file order (pipeline/read.hpp), each game made a db::GameInput on
// the thread that parsed it and fed to db::Importer.
template <typename Read>
ImportResult run(db::GameDatabase& database, const ImportRequest& request, const ImportEvents& events, Read read) {
    std::optional<db::Transaction> whole;
    if (request.one_transaction) whole.emplace(database.sql(), db::TransactionKind::immediate);
    db::Importer importer(database, options_of(request), events.report);
    ReadEvents<db::GameInput> on;
    on.prepare = [](parser::GameRecord&& record) { return db::game_input(std::move(record)); };
    on.game = [&](db::GameInput&& input) { importer.add(std::move(input)); };
    on.diagnostic = events.diagnostic;
    if (events.progress) on.progress = [&](std::uint64_t bytes) { events.progress(importer.stats().added, bytes); };
    ReadRequest r;
    r.files = request.files;
    r.format = request.format;
    r.options = parser::ReadOptions{request.notation, request.renlib_tree};
    r.max_unpacked = request.max_unpacked;
    const ReadResult result = read(r, on);
    importer.finish();
    // One transaction is stored whole or not at all: a file that could not be read whole (an
    // unreadable or damaged archive, one past the unpacking limit) leaves nothing stored.
    const bool roll_back = whole && result.io_errors;
    if (whole && !roll_back) whole->commit();
    whole.reset(); // rolled back unless committed
    return {importer.stats(), result.io_errors, roll_back};
}

} // namespace

std::uint64_t input_bytes(const std::vector<std::string>& files) {
    std::uint64_t total = 0;
    for (const std::string& f : files) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(f, ec);
        if (!ec) total += size;
    }
    return total;
}

ImportResult import_files(db::GameDatabase& database, const ImportRequest& request, const ImportEvents& events) {
    return run(database, request, events, [](const ReadRequest& r, const ReadEvents<db::GameInput>& on) { return read_files(r, on); });
}

ImportResult import_stream(db::GameDatabase& database, std::istream& input, const std::string& name,
                           const ImportRequest& request, const ImportEvents& events) {
    return run(database, request, events, [&](const ReadRequest& r, const ReadEvents<db::GameInput>& on) {
        return read_stream(input, name, r, on);
    });
}

} // namespace gounki::pipeline
