// gounki dbbench [--games N] [--plies N] [--seed S] [--db PATH] [--keep] [--gpn FILE] [--json]
// Generates random legal games (fixed seed), imports them and times the database's searches.
#include <QElapsedTimer>
#include <QJsonDocument>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sys/resource.h>
#include <unistd.h>

#include "cli/db_options.hpp"
#include "db/import.hpp"
#include "db/postgres.hpp"
#include "db/pattern/gounki.hpp"
#include "db/random_games.hpp"
#include "db/record_bridge.hpp"
#include "parser/writer.hpp"

namespace gounki::cli {

void describe_dbbench(QCommandLineParser& p) {
    p.addOption({"games", "Number of random games to generate and import (default 100000).", "N", "100000"});
    p.addOption({"plies", "Length of a game unless it ends before (default 40).", "N", "40"});
    p.addOption({"seed", "Random seed (default 1).", "S", "1"});
    p.addOption({"batch", "Games per import transaction (default 50000).", "N", "50000"});
    p.addOption({"searches", "Number of exact position searches to time (default 200).", "N", "200"});
    p.addOption({"pattern", "The pattern to time (default '#[Wn3]>=2 e4=W').", "spec", "#[Wn3]>=2 e4=W"});
    p.addOption({"threads", "Threads for the pattern search (default: one per processor).", "N", "0"});
    p.addOption({"db",
                 "The database file to create (default: a temporary file, removed at the end), or an empty PostgreSQL "
                 "database (postgresql://...), which is kept.",
                 "path"});
    p.addOption({"keep", "Keep the database file."});
    p.addOption({"gpn", "Also write the generated games to this record file (to time 'gounki import').", "file"});
    p.addOption({"json", "Print one JSON object instead of text."});
}

namespace {

double ms_since(const QElapsedTimer& t) { return double(t.nsecsElapsed()) / 1e6; }

// CPU seconds (user and system) of the process or of the calling thread: on a machine shared with
// other work, this says more than the wall clock about what the import itself costs.
double cpu_seconds(int who) {
    rusage r{};
    ::getrusage(who, &r);
    return double(r.ru_utime.tv_sec + r.ru_stime.tv_sec) + double(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
}

// The random games of a run and a sample of their positions for the searches.
struct Generated {
    std::vector<db::GameInput> games;
    std::vector<Position> samples;
    std::int64_t plies = 0;
    double ms = 0;
};

Generated generate(qlonglong games, int plies, qulonglong seed, int searches) {
    Generated out;
    std::mt19937_64 rng(seed);
    db::RandomGameOptions options;
    options.max_plies = plies;
    out.games.reserve(std::size_t(games));
    QElapsedTimer timer;
    timer.start();
    for (qlonglong i = 0; i < games; ++i) {
        out.games.push_back(db::random_game(rng, options, i + 1));
        out.plies += std::int64_t(out.games.back().moves.size());
    }
    out.ms = ms_since(timer);
    std::mt19937_64 pick(seed + 1);
    for (int i = 0; i < searches; ++i) {
        const db::GameInput& g = out.games[std::size_t(pick() % std::uint64_t(games))];
        Position pos = Position::start();
        UndoRecord undo;
        const std::size_t ply = g.moves.empty() ? 0 : std::size_t(pick() % (g.moves.size() + 1));
        for (std::size_t k = 0; k < ply; ++k) pos.do_move(g.moves[k], undo);
        out.samples.push_back(pos);
    }
    return out;
}

// Imports the games (moved out of `collection`) and records the import's figures and the file's size.
void time_import(db::GameDatabase& database, const std::string& path, std::vector<db::GameInput>& collection, int batch,
                 std::int64_t total_plies, QJsonObject& result) {
    const qlonglong games = qlonglong(collection.size());
    db::ImportOptions io;
    io.batch_games = std::size_t(batch);
    io.expected_games = games;
    QElapsedTimer timer;
    timer.start();
    const double cpu_process = cpu_seconds(RUSAGE_SELF), cpu_thread = cpu_seconds(RUSAGE_THREAD);
    {
        db::Importer importer(database, io);
        for (db::GameInput& g : collection) importer.add(std::move(g));
        importer.finish();
        const db::ImportStats& s = importer.stats();
        result["merges"] = qint64(s.merges);
        result["import_phases_s"] = import_phases_json(s);
    }
    const double import_ms = ms_since(timer);
    result["import_cpu_s"] = cpu_seconds(RUSAGE_SELF) - cpu_process;
    result["import_writer_cpu_s"] = cpu_seconds(RUSAGE_THREAD) - cpu_thread;
    collection.clear();
    collection.shrink_to_fit();
    result["import_ms"] = import_ms;
    result["import_games_per_s"] = double(games) / (import_ms / 1000);
    database.checkpoint();
    const db::DatabaseStats st = database.stats();
    std::error_code ec;
    std::int64_t file_bytes = 0;
    if (database.sql().is_postgres()) {
        // The collection's tables with their indexes and TOAST; the whole database (catalogs
        // included) beside it.
        db::Statement size(database.sql(),
                           "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n "
                           "ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'");
        if (size.step()) file_bytes = size.get_int64(0);
        result["database_bytes"] = qint64(st.file_bytes);
    } else {
        file_bytes = std::int64_t(std::filesystem::file_size(path, ec));
    }
    result["file_bytes"] = qint64(file_bytes);
    result["bytes_per_game"] = double(file_bytes) / double(games);
    result["bytes_per_40_plies"] = total_plies ? double(file_bytes) / double(total_plies) * 40 : 0.0;
    result["index_runs"] = qint64(st.index_runs);
    result["index_entries"] = qint64(st.index_entries);
    result["tree_rows"] = qint64(st.tree_rows);
}

// Exact position searches over the samples, the start's tree (cold and warm) and one pattern search.
void time_searches(db::GameDatabase& database, const std::vector<Position>& samples, const db::Pattern& pattern, int threads,
                   QJsonObject& result) {
    QElapsedTimer timer;
    double total = 0, worst = 0;
    std::int64_t found = 0;
    for (const Position& pos : samples) {
        timer.restart();
        const db::GameList list = database.search_position(pos, {}, {50, 0});
        const double ms = ms_since(timer);
        total += ms;
        worst = std::max(worst, ms);
        found += list.total;
    }
    const int searches = int(samples.size());
    result["search_count"] = searches;
    result["search_mean_ms"] = searches ? total / searches : 0.0;
    result["search_max_ms"] = worst;
    result["search_games_found"] = qint64(found);

    timer.restart();
    const db::Tree tree = database.tree(Position::start());
    result["tree_start_ms"] = ms_since(timer);
    timer.restart();
    database.tree(Position::start());
    result["tree_start_again_ms"] = ms_since(timer);
    result["tree_start_games"] = qint64(tree.games);

    timer.restart();
    const db::GameList matched = database.search_pattern(pattern, {}, {50, 0}, threads);
    result["pattern"] = QString::fromStdString(pattern.text());
    result["pattern_ms"] = ms_since(timer);
    result["pattern_games"] = qint64(matched.total);
}

void print_text(const QJsonObject& result) {
    std::string phases;
    const QJsonObject ph = result["import_phases_s"].toObject();
    for (const char* k : {"prepare", "wait", "games", "index", "tree", "commit", "merge", "lookup_indexes"}) {
        char part[64];
        std::snprintf(part, sizeof part, "%s%s %.2f s", phases.empty() ? "" : ", ", k, ph[QLatin1String(k)].toDouble());
        phases += part;
    }
    const auto integer = [&](const char* key) { return static_cast<long long>(result[QLatin1String(key)].toInteger()); };
    const auto number = [&](const char* key) { return result[QLatin1String(key)].toDouble(); };
    char text[1600];
    std::snprintf(text, sizeof text,
                  "games               %lld (%.1f plies each, seed %llu)\n"
                  "import              %.0f games/s (%.2f s, %lld index merges)\n"
                  "  cpu               %.2f s in all, %.2f s writing (the rest prepares batches on another thread)\n"
                  "  phases            %s\n"
                  "size                %.0f bytes/game, %.0f bytes per 40 plies (%lld bytes)\n"
                  "exact search        %.2f ms mean, %.2f ms max over %lld positions\n"
                  "tree of the start   %.1f ms (%.1f ms again), %lld games\n"
                  "pattern search      %.0f ms, %lld games match '%s'\n",
                  integer("games"), number("plies_per_game"), static_cast<unsigned long long>(integer("seed")),
                  number("import_games_per_s"), number("import_ms") / 1000, integer("merges"), number("import_cpu_s"),
                  number("import_writer_cpu_s"), phases.c_str(), number("bytes_per_game"), number("bytes_per_40_plies"),
                  integer("file_bytes"), number("search_mean_ms"), number("search_max_ms"), integer("search_count"),
                  number("tree_start_ms"), number("tree_start_again_ms"), integer("tree_start_games"), number("pattern_ms"),
                  integer("pattern_games"), result["pattern"].toString().toStdString().c_str());
    print_out(text);
}

} // namespace

int run_dbbench(const QCommandLineParser& p) {
    const Command& self = *find_command("dbbench");
    bool ok[6] = {};
    const qlonglong games = p.value("games").toLongLong(&ok[0]);
    const int plies = p.value("plies").toInt(&ok[1]);
    const qulonglong seed = p.value("seed").toULongLong(&ok[2]);
    const int batch = p.value("batch").toInt(&ok[3]);
    const int searches = p.value("searches").toInt(&ok[4]);
    const int threads = p.value("threads").toInt(&ok[5]);
    for (bool b : ok)
        if (!b) return usage_error(self, "--games, --plies, --seed, --batch, --searches and --threads take whole numbers");
    if (games < 1 || plies < 0 || batch < 1 || searches < 0 || threads < 0)
        return usage_error(self, "the numbers must be positive");
    auto pattern = db::Pattern::parse(p.value("pattern").toStdString());
    if (auto* e = std::get_if<db::PatternError>(&pattern)) return usage_error(self, "bad pattern: " + e->message);

    const std::string path = p.isSet("db")
        ? p.value("db").toStdString()
        : (std::filesystem::temp_directory_path() / ("gounki-dbbench-" + std::to_string(::getpid()) + ".db")).string();
    const bool postgres = db::is_postgres_url(path);
    if (!postgres)
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);

    // Generation is not timed with the import; a sample of positions is kept for the searches.
    Generated generated = generate(games, plies, seed, searches);
    if (p.isSet("gpn")) {
        std::ofstream out(p.value("gpn").toStdString(), std::ios::binary);
        for (const db::GameInput& g : generated.games) parser::write_record(out, db::game_record(g));
        if (!out) return usage_error(self, "cannot write " + p.value("gpn").toStdString());
    }
    QJsonObject result{{"games", games},
                       {"plies_per_game", double(generated.plies) / double(games)},
                       {"seed", qint64(seed)},
                       {"generate_ms", generated.ms}};
    try {
        db::GameDatabase database(path, db::Access::read_write);
        // A server's database is not removed first: it must hold no games, or the figures mean nothing.
        if (postgres && database.stats().games > 0)
            return usage_error(self, "the database '" + db::redacted_url(path) + "' holds games already: dbbench needs an empty one");
        time_import(database, path, generated.games, batch, generated.plies, result);
        time_searches(database, generated.samples, std::get<db::Pattern>(pattern), threads, result);
    } catch (const std::exception& e) { return database_error(self, e); }
    if (!p.isSet("keep") && !postgres)
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
    else result["database"] = QString::fromStdString(path);
    if (p.isSet("json")) print_out(QJsonDocument(result).toJson(QJsonDocument::Compact).toStdString() + "\n");
    else print_text(result);
    return exit_ok;
}

} // namespace gounki::cli
