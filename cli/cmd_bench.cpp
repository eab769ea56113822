// gounki bench [--game KIND [--size N] [--rules WORDS]] [--depth N] [--hash MB] [--json] [--verbose]
// gounki bench --judge [--nodes N] [--json]: judging a fixed 59-ply Ninuki game (stone_judge_defaults)
// gounki bench --agreement [--game KIND] [--games N] [--nodes N] [--factor F] [--threads N] [--json] FILE...:
//   the games of the files judged at the default budget and at F times it; how often they agree
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <atomic>
#include <chrono>
#include <ctime>
#include <map>
#include <thread>

#include "analysis/bench.hpp"
#include "analysis/stones/play.hpp"
#include "cli/command.hpp"
#include "cli/record_games.hpp"
#include "core/gounki/notation.hpp"

namespace gounki::cli {

void describe_bench(QCommandLineParser& p) {
    add_game_options(p,
                     QString::fromStdString(game_ids_text() +
                                            ": which engine and positions (default gounki); with --size or --rules, "
                                            "the game's positions are played under those rules, centred on that board"));
    p.addOption({"depth",
                 "Search depth for every position (default " + QString::number(analysis::default_bench_depth) + "; " +
                     QString::number(analysis::default_stone_bench_depth) + " for the stone games).",
                 "N"});
    add_hash_option(p);
    p.addOption({"json", "Print one JSON object instead of text."});
    p.addOption({"judge", "Judge the fixed 59-ply Ninuki game with the stone judge's default setting instead."});
    p.addOption({"nodes",
                 "With --judge or --agreement: nodes per position instead of the judge's default (" +
                     QString::number(qulonglong(analysis::judge_defaults().limits.nodes)) + " for Gounki, " +
                     QString::number(qulonglong(analysis::default_stone_judge_nodes)) + " for the stone games).",
                 "N"});
    p.addOption({"agreement",
                 "Judge the games of FILE... at the judge's budget and at --factor times it, and print how often "
                 "their verdicts and best moves agree, per game (--game: only that game), apart for the plies the first run "
                 "settled (its early stop ended the search, or the score was proven) and the plies whose budget ran out, "
                 "with the time of the first run."});
    p.addOption({"factor", "With --agreement: the budget of the reference run, as a multiple of the first (default 10).", "F"});
    p.addOption({"confirm",
                 "With --agreement: both runs search a ply whose verdict comes out graded again with C times their budget "
                 "(default " +
                     QString::number(analysis::JudgeSettings{}.confirm_factor) + ", as the judge; 1: no second search).",
                 "C"});
    p.addOption({"steady",
                 "With --agreement: judge the games a third time, at twice the reference's budget, and print how often the "
                 "reference's verdict holds there and how often the first run agrees with the reference on those plies "
                 "(where the two references differ, one of them is not the verdict an unlimited search gives)."});
    p.addOption({"games", "With --agreement: at most N games of each game (the first ones read).", "N"});
    p.addOption({"threads", "With --agreement: games judged at once (default: one per core).", "N"});
    p.addPositionalArgument("FILE", "With --agreement: record files of any format ('-' reads standard input).", "[FILE...]");
    p.addOption({"verbose", "Print each position's best move, score and node count."});
}

namespace {

// --judge: the fixed Ninuki game judged at the stone judge's setting (or --nodes a position).
int run_judge_bench(const Command& self, const QCommandLineParser& p) {
    analysis::JudgeSettings settings = analysis::stone_judge_defaults();
    if (p.isSet("nodes")) {
        bool ok = false;
        const qlonglong n = p.value("nodes").toLongLong(&ok);
        if (!ok || n < 1) return usage_error(self, "--nodes must be a positive whole number");
        settings.limits.nodes = std::uint64_t(n);
    }
    const analysis::JudgeBenchResult j = analysis::run_judge_bench(settings);
    std::string verdicts;
    for (int v = 0; v < analysis::graded_verdict_count; ++v)
        verdicts += std::string(verdicts.empty() ? "" : ", ") + std::string(analysis::verdict_name(analysis::Verdict(v))) + " " +
            std::to_string(j.counts[0][v] + j.counts[1][v]);
    if (p.isSet("json")) {
        QJsonObject o;
        o["game"] = "Ninuki";
        o["plies"] = j.plies;
        o["nodes_per_position"] = qint64(settings.limits.nodes);
        o["nodes"] = qint64(j.nodes);
        o["time_ms"] = qint64(j.time_ms);
        o["cpu_ms"] = qint64(j.cpu_ms);
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
    } else {
        print_out("judged Ninuki game: " + std::to_string(j.plies) + " plies at " + std::to_string(settings.limits.nodes) +
                  " nodes a position\nnodes " + std::to_string(j.nodes) + "\ntime " + std::to_string(j.time_ms) +
                  " ms\ncpu time " + std::to_string(j.cpu_ms) + " ms\nverdicts " + verdicts + "\n");
    }
    return exit_ok;
}

struct JudgeRun {
    std::vector<analysis::GameJudgement> judgements;
    std::int64_t wall_ms = 0, cpu_ms = 0;
};

// Judges `games` with `settings` on `threads` threads, one game at a time each (as `analyze`).
JudgeRun judge_games(const std::vector<RecordGame>& games, const analysis::JudgeSettings& settings, int threads) {
    JudgeRun run;
    run.judgements.resize(games.size());
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t i; (i = next.fetch_add(1)) < games.size();) {
            const RecordGame& g = games[i];
            run.judgements[i] = analysis::judge_any_game(g.start, g.moves, settings);
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
    run.wall_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    run.cpu_ms = std::int64_t(double(std::clock() - c0) * 1000.0 / CLOCKS_PER_SEC);
    return run;
}

std::string percent(std::int64_t part, std::int64_t whole) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", whole ? 100.0 * double(part) / double(whole) : 0.0);
    return buf;
}

// "80.0% (4 of 5)"
std::string share_of(std::int64_t part, std::int64_t whole) {
    return percent(part, whole) + " (" + std::to_string(part) + " of " + std::to_string(whole) + ")";
}

// One game's figures: text, or one JSON object per game.
void print_agreement(bool json, GameKind kind, const analysis::JudgeSettings& settings, int factor, bool steady,
                     const JudgeRun& run, const analysis::JudgeAgreement& a) {
    const std::uint64_t nodes = settings.limits.nodes;
    if (json) {
        QJsonObject o;
        o["game"] = QString::fromStdString(std::string(game_kind_name(kind)));
        o["games"] = qint64(a.games);
        o["plies"] = qint64(a.plies);
        o["nodes_per_position"] = qint64(nodes);
        o["factor"] = factor;
        o["same_verdict"] = qint64(a.same_verdict);
        o["same_best"] = qint64(a.same_best);
        o["verdict_agreement"] = a.plies ? 100.0 * double(a.same_verdict) / double(a.plies) : 0.0;
        o["best_agreement"] = a.plies ? 100.0 * double(a.same_best) / double(a.plies) : 0.0;
        o["settled"] = qint64(a.settled);
        o["settled_same_verdict"] = qint64(a.settled_same);
        o["confirm"] = settings.confirm_factor;
        o["searched_again"] = qint64(a.searched_again);
        o["searched_again_same_verdict"] = qint64(a.searched_again_same);
        if (steady) {
            o["steady"] = qint64(a.steady);
            o["steady_same_verdict"] = qint64(a.steady_same);
        }
        QJsonArray rows;
        for (const auto& row : a.confusion) {
            QJsonArray r;
            for (std::int64_t n : row) r.append(qint64(n));
            rows.append(r);
        }
        o["confusion"] = rows;
        o["time_ms"] = qint64(run.wall_ms);
        o["cpu_ms"] = qint64(run.cpu_ms);
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
        return;
    }
    std::string text = "game " + std::string(game_kind_name(kind)) + ": " + counted(a.games, "game") + ", " +
        counted(a.plies, "ply", "plies") + ", " + std::to_string(nodes) + " nodes a position against " +
        std::to_string(nodes * std::uint64_t(factor)) + "\nsame verdict " + percent(a.same_verdict, a.plies) + " (" +
        std::to_string(a.same_verdict) + ")\nsame best move " + percent(a.same_best, a.plies) + " (" +
        std::to_string(a.same_best) + ")\nsame verdict, settled plies " + share_of(a.settled_same, a.settled) +
        "\nsame verdict, plies whose budget ran out " + share_of(a.same_verdict - a.settled_same, a.plies - a.settled) +
        "\nsame verdict, plies searched again with x" + std::to_string(settings.confirm_factor) + " " +
        share_of(a.searched_again_same, a.searched_again) +
        (steady ? "\nreference holding at x" + std::to_string(2 * factor) + " " + share_of(a.steady, a.plies) +
                 "\nsame verdict, plies whose reference holds " + share_of(a.steady_same, a.steady)
                : std::string()) +
        "\ntime " + std::to_string(run.wall_ms) + " ms\ncpu time " + std::to_string(run.cpu_ms) +
        " ms\nverdicts (rows: " + std::to_string(nodes) + " nodes; columns: x" + std::to_string(factor) + ")\n";
    for (int v = 0; v < analysis::verdict_count; ++v) {
        std::string row = "  " + std::string(analysis::verdict_name(analysis::Verdict(v)));
        row.resize(14, ' ');
        for (std::int64_t n : a.confusion[v]) {
            std::string cell = std::to_string(n);
            row += std::string(cell.size() < 7 ? 7 - cell.size() : 1, ' ') + cell;
        }
        text += row + "\n";
    }
    print_out(text);
}

// --agreement FILE...: per game of the files, the judge at its budget against `factor` times it.
int run_agreement_bench(const Command& self, const QCommandLineParser& p) {
    if (p.positionalArguments().isEmpty()) return usage_error(self, "--agreement needs at least one FILE");
    long long nodes = 0, factor = 10, limit = 0, threads = std::max(1u, std::thread::hardware_concurrency());
    long long confirm = analysis::JudgeSettings{}.confirm_factor;
    if (!read_number(p, "nodes", 1, 1'000'000'000, nodes)) return usage_error(self, "--nodes must be a positive whole number");
    if (!read_number(p, "factor", 2, 1000, factor)) return usage_error(self, "--factor must be a whole number from 2 to 1000");
    if (!read_number(p, "confirm", 1, 100, confirm)) return usage_error(self, "--confirm must be a whole number from 1 to 100");
    if (!read_number(p, "games", 1, 100'000'000, limit)) return usage_error(self, "--games must be a positive whole number");
    if (!read_number(p, "threads", 1, 256, threads)) return usage_error(self, "--threads must be a whole number from 1 to 256");
    std::optional<GameKind> only;
    if (p.isSet("game")) {
        GameKind kind = GameKind::gounki;
        AnyPosition start;
        if (!read_game_options(self, p, kind, start)) return exit_usage;
        only = kind;
    }
    std::vector<parser::Diagnostic> folder_errors;
    const std::vector<std::string> files = input_files(p.positionalArguments(), std::nullopt, folder_errors);
    for (const parser::Diagnostic& d : folder_errors) print_err(parser::format_diagnostic(d) + "\n");
    std::map<GameKind, std::vector<RecordGame>> by_kind;
    if (!folder_errors.empty()) return exit_findings;
    if (!read_record_games(files, only, limit, by_kind)) {
        print_err("gounki bench: the games above do not read; nothing judged\n");
        return exit_findings;
    }
    if (by_kind.empty()) return usage_error(self, only ? "no " + std::string(game_kind_name(*only)) + " game in the files"
                                                       : std::string("no game in the files"));
    for (const auto& [kind, games] : by_kind) {
        analysis::JudgeSettings settings = is_stone_game(kind) ? analysis::stone_judge_defaults() : analysis::judge_defaults();
        if (nodes) settings.limits.nodes = std::uint64_t(nodes);
        settings.confirm_factor = int(confirm);
        analysis::JudgeSettings reference = settings;
        reference.limits.nodes *= std::uint64_t(factor);
        // The reference searches its whole budget: with the early stop it would end where the
        // judge under test ends, and agree with it for that reason alone.
        reference.stable_iterations = 0;
        const JudgeRun run = judge_games(games, settings, int(threads));
        const JudgeRun ref = judge_games(games, reference, int(threads));
        // --steady: the reference's budget doubled, to tell the plies whose reference verdict holds.
        const bool steady = p.isSet("steady");
        JudgeRun doubled;
        if (steady) {
            analysis::JudgeSettings twice = reference;
            twice.limits.nodes *= 2;
            doubled = judge_games(games, twice, int(threads));
        }
        analysis::JudgeAgreement a;
        for (std::size_t i = 0; i < games.size(); ++i)
            a.add(run.judgements[i], ref.judgements[i], steady ? &doubled.judgements[i] : nullptr);
        print_agreement(p.isSet("json"), kind, settings, int(factor), steady, run, a);
    }
    return exit_ok;
}

// The bench positions of `kind`, under the rules of `start` (--size, --rules) for a stone game.
std::vector<std::string> bench_texts(GameKind kind, const AnyPosition& start) {
    std::vector<std::string> owned;
    for (std::string_view t : analysis::bench_positions(kind)) owned.emplace_back(t);
    if (const stones::StonePosition* rules = start.stones())
        for (std::string& t : owned) {
            const auto pos = std::get<stones::StonePosition>(stones::StonePosition::from_text(t));
            if (!(pos.rules() == rules->rules())) t = stones::StonePosition::transplanted(pos, rules->rules()).to_text();
        }
    return owned;
}

void print_bench(bool json, GameKind kind, std::size_t positions, int depth, const analysis::BenchResult& r) {
    const double nps = r.time_ms > 0 ? double(r.nodes) * 1000.0 / double(r.time_ms) : 0.0;
    // On a busy machine the wall clock also counts time spent waiting for a processor.
    const double cpu_nps = r.cpu_ms > 0 ? double(r.nodes) * 1000.0 / double(r.cpu_ms) : 0.0;
    if (json) {
        QJsonObject o;
        o["depth"] = depth;
        o["game"] = QString::fromStdString(std::string(game_kind_name(kind)));
        o["positions"] = int(positions);
        o["nodes"] = qint64(r.nodes);
        o["time_ms"] = qint64(r.time_ms);
        o["nps"] = qint64(nps);
        o["cpu_ms"] = qint64(r.cpu_ms);
        o["cpu_nps"] = qint64(cpu_nps);
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
        return;
    }
    print_out(std::string(kind == GameKind::gounki ? "" : "game " + std::string(game_kind_name(kind)) + "\n") + "positions " +
              std::to_string(positions) + " depth " + std::to_string(depth) + "\nnodes " + std::to_string(r.nodes) + "\ntime " +
              std::to_string(r.time_ms) + " ms\nnps " + std::to_string(std::uint64_t(nps)) + "\ncpu time " +
              std::to_string(r.cpu_ms) + " ms\ncpu nps " + std::to_string(std::uint64_t(cpu_nps)) + "\n");
}

} // namespace

int run_bench(const QCommandLineParser& p) {
    const Command& self = *find_command("bench");
    if (p.isSet("agreement")) return run_agreement_bench(self, p);
    if (!p.positionalArguments().isEmpty()) return usage_error(self, "bench takes FILE arguments with --agreement only");
    GameKind kind = GameKind::gounki;
    AnyPosition start;
    if (!read_game_options(self, p, kind, start)) return exit_usage;
    int depth = analysis::default_bench_depth_of(kind);
    std::size_t hash_mb = 16;
    if (p.isSet("depth")) {
        bool ok = false;
        depth = p.value("depth").toInt(&ok);
        if (!ok || depth < 1 || depth > 20) return usage_error(self, "--depth must be a whole number from 1 to 20");
    }
    if (int code = exit_ok; !read_hash_option(self, p, hash_mb, code)) return code;
    if (p.isSet("judge")) return run_judge_bench(self, p);
    const bool verbose = p.isSet("verbose");
    const std::vector<std::string> owned = bench_texts(kind, start);
    const std::vector<std::string_view> texts(owned.begin(), owned.end());
    const auto show = [&](const analysis::BenchEntry& e) {
        if (!verbose) return;
        const AnyPosition pos = std::get<AnyPosition>(AnyPosition::from_text(e.position));
        print_err(std::string(e.position) + "  " + (e.result.best ? pos.move_text(e.result.best) : "none") + " score " +
                  std::to_string(e.result.score) + " nodes " + std::to_string(e.result.nodes) + "\n");
    };
    const analysis::BenchResult r = AnyPosition::start(kind).visit(
        [&](const auto& origin) { return analysis::run_bench_over<std::decay_t<decltype(origin)>>(texts, depth, hash_mb, show); });
    print_bench(p.isSet("json"), kind, texts.size(), depth, r);
    return exit_ok;
}

} // namespace gounki::cli
