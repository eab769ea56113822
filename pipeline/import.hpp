#pragma once
// Importing record files into a database: the files are read as pipeline/read.hpp reads them (GPN
// in blocks of whole games parsed in parallel, the other formats game by game), and every game is
// fed to db::Importer in file order. The caller hears of each diagnostic, each import report and the
// progress through callbacks, and prints them as it likes (the `gounki import` command; an upload).

#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "core/gounki/notation.hpp"
#include "db/import.hpp"
#include "parser/formats.hpp"
#include "parser/record.hpp"

namespace gounki::pipeline {

struct ImportRequest {
    std::vector<std::string> files; // record files of any format (parser/formats.hpp); "-" reads standard input
    std::optional<parser::RecordFormat> format; // every file read in this format; else told per file
    Notation notation = Notation::automatic;
    bool renlib_tree = false; // a RenLib library as one game with variations (parser::ReadOptions::renlib_tree)
    db::ImportOptions options; // expected_games is set from the inputs' size when left at 0
    std::uint64_t max_unpacked = 0; // ReadRequest::max_unpacked
    // The whole import in one transaction, stored whole or not at all: its batches (of
    // options.batch_games, which bound the memory) join it instead of committing one by one. An
    // I/O error (a file or archive member unreadable, damaged or past max_unpacked) rolls it all
    // back (ImportResult::rolled_back); without one_transaction the files read are still stored.
    bool one_transaction = false;
};

// What happens, in file order. Callbacks run on the calling thread; any may be left empty.
struct ImportEvents {
    // A diagnostic of a game or of a file (an unreadable file: code "io-error").
    std::function<void(const parser::Diagnostic&)> diagnostic;
    // Each game's fate as db::Importer reports it (all of them; ImportReport::noteworthy() tells).
    std::function<void(const db::ImportReport&)> report;
    // After each block or game: the games added so far and the bytes of input read.
    std::function<void(std::int64_t games, std::uint64_t bytes)> progress;
};

struct ImportResult {
    db::ImportStats stats;
    bool io_errors = false; // a file could not be opened or read (the others were still imported)
    bool rolled_back = false; // one_transaction with io_errors: nothing was stored (stats tell what was read)
};

// The sum of the sizes of the named files that exist (standard input counts 0).
std::uint64_t input_bytes(const std::vector<std::string>& files);

// Imports every file of `request` into `database`. Database errors are thrown (std::exception).
ImportResult import_files(db::GameDatabase& database, const ImportRequest& request, const ImportEvents& events);

// Imports the records of one seekable stream (an upload held in memory) as if they were a file
// called `name`: its games and diagnostics carry that name, and its extension tells the format when
// the content does not. `request.files` is not read.
ImportResult import_stream(db::GameDatabase& database, std::istream& input, const std::string& name,
                           const ImportRequest& request, const ImportEvents& events);

} // namespace gounki::pipeline
