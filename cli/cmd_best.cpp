// gounki best --position "<position>" [--depth N | --nodes N | --time MS | --engine CMD [--engine-time MS]]
//            [--hash MB] [--json] [--progress]
// A Gomoku or Ninuki position is searched by the stone engine; with --engine a Gomoku or Renju
// position is given to an external Gomocup brain (protocol/brain_client.hpp).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "analysis/gounki/search.hpp"
#include "analysis/stones/search.hpp"
#include "cli/command.hpp"
#include "core/gounki/notation.hpp"
#include "cli/brain_options.hpp"
#include "protocol/brain_client.hpp"

namespace gounki::cli {

namespace {

using namespace gounki::analysis;

std::vector<std::string> pv_texts(Position pos, const std::vector<Move>& pv) {
    std::vector<std::string> out;
    for (Move m : pv) {
        out.push_back(move_to_text(pos, m));
        UndoRecord u;
        pos.do_move(m, u);
    }
    return out;
}

std::string join(const std::vector<std::string>& xs) {
    std::string s;
    for (const auto& x : xs) s += (s.empty() ? "" : " ") + x;
    return s;
}

std::string score_text(Score s) {
    const int w = win_in(s);
    if (w > 0) return "win in " + std::to_string(w);
    if (w < 0) return "loss in " + std::to_string(-w);
    return std::to_string(s);
}

// Reads --depth/--nodes/--time (at most one) into `limits`.
bool read_search_limits(const Command& self, const QCommandLineParser& p, SearchLimits& limits, int& exit_code) {
    int given = 0;
    for (const char* name : {"depth", "nodes", "time"}) given += p.isSet(name);
    if (given > 1) {
        exit_code = usage_error(self, "give at most one of --depth, --nodes and --time");
        return false;
    }
    bool ok = true;
    if (p.isSet("depth")) {
        const int d = p.value("depth").toInt(&ok);
        if (!ok || d < 1 || d > max_search_depth) {
            exit_code = usage_error(self, "--depth must be a whole number from 1 to " + std::to_string(max_search_depth));
            return false;
        }
        limits.depth = d;
    } else if (p.isSet("nodes")) {
        const qlonglong n = p.value("nodes").toLongLong(&ok);
        if (!ok || n < 1) {
            exit_code = usage_error(self, "--nodes must be a positive whole number");
            return false;
        }
        limits.nodes = std::uint64_t(n);
    } else if (p.isSet("time")) {
        const int t = p.value("time").toInt(&ok);
        if (!ok || t < 1) {
            exit_code = usage_error(self, "--time must be a positive number of milliseconds");
            return false;
        }
        limits.time_ms = t;
    }
    return true;
}

// The output of both games: `pos_text` and the moves already written as text.
void print_result(const QCommandLineParser& p, const std::string& pos_text, const SearchResult& r, const std::string& best,
                  const std::vector<std::string>& pv) {
    const double nps = r.time_ms > 0 ? double(r.nodes) * 1000.0 / double(r.time_ms) : 0.0;
    if (p.isSet("json")) {
        QJsonObject o;
        o["position"] = QString::fromStdString(pos_text);
        o["move"] = QString::fromStdString(best);
        o["score"] = r.score;
        o["win_in"] = r.win_in ? QJsonValue(r.win_in) : QJsonValue(QJsonValue::Null);
        QJsonArray arr;
        for (const auto& m : pv) arr.append(QString::fromStdString(m));
        o["pv"] = arr;
        o["depth"] = r.depth;
        o["seldepth"] = r.seldepth;
        o["nodes"] = qint64(r.nodes);
        o["time_ms"] = qint64(r.time_ms);
        o["nps"] = qint64(nps);
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
    } else {
        std::string out = "best " + best + "\n";
        out += "score " + score_text(r.score) + "\n";
        out += "win_in " + (r.win_in ? std::to_string(r.win_in) : std::string("none")) + "\n";
        out += "pv " + join(pv) + "\n";
        out += "depth " + std::to_string(r.depth) + " nodes " + std::to_string(r.nodes) + " time " + std::to_string(r.time_ms) +
            " ms nps " + std::to_string(std::uint64_t(nps)) + "\n";
        print_out(out);
    }
}

std::vector<std::string> point_names(const std::vector<Move>& moves) {
    std::vector<std::string> out;
    for (Move m : moves) out.push_back(stones::point_name(m.point()));
    return out;
}

// A Gomoku or Ninuki position: the stone engine, the same output.
int run_best_stone(const QCommandLineParser& p, const stones::StonePosition& pos, SearchLimits limits, std::size_t hash_mb) {
    if (!limits.depth && !limits.nodes && !limits.time_ms) limits.nodes = default_stone_search_nodes;
    if (pos.game_over()) {
        const Outcome o = pos.outcome();
        print_err(std::string("gounki best: the game is over: ") +
                  (o == Outcome::draw ? std::string("a draw")
                                      : std::string(o == Outcome::white_wins ? "White" : "Black") + " has won") +
                  "\n");
        return exit_findings;
    }
    StoneSearchOptions options;
    options.hash_mb = hash_mb;
    StoneSearcher searcher(options);
    StoneSearcher::InfoCallback progress;
    if (p.isSet("progress"))
        progress = [](const SearchInfo& info) {
            print_err("depth " + std::to_string(info.depth) + " seldepth " + std::to_string(info.seldepth) + " score " +
                      score_text(info.score) + " nodes " + std::to_string(info.nodes) + " time " + std::to_string(info.time_ms) +
                      " ms pv " + join(point_names(info.pv)) + "\n");
        };
    const SearchResult r = searcher.search(pos, limits, progress);
    print_result(p, pos.to_text(), r, r.best ? stones::point_name(r.best.point()) : std::string("none"), point_names(r.pv));
    return exit_ok;
}

// The external brain's move, its last evaluation (none when it printed none) and line.
void print_engine_answer(const QCommandLineParser& p, const stones::StonePosition& pos, const protocol::BrainAnswer& a,
                         const std::string& engine) {
    std::vector<Move> pv{Move::placement(a.point)};
    for (std::size_t i = a.pv.empty() || a.pv.front() != a.point ? 0 : 1; i < a.pv.size(); ++i)
        pv.push_back(Move::placement(a.pv[i]));
    const std::vector<std::string> line = point_names(pv);
    const int w = a.eval ? win_in(*a.eval) : 0;
    if (p.isSet("json")) {
        QJsonArray arr;
        for (const auto& m : line) arr.append(QString::fromStdString(m));
        QJsonObject o{{"position", QString::fromStdString(pos.to_text())},
                      {"move", QString::fromStdString(line.front())},
                      {"score", a.eval ? QJsonValue(*a.eval) : QJsonValue()},
                      {"win_in", w ? QJsonValue(w) : QJsonValue()},
                      {"pv", arr},
                      {"depth", a.depth ? QJsonValue(a.depth) : QJsonValue()},
                      {"engine", QString::fromStdString(engine)}};
        print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n");
        return;
    }
    print_out("best " + line.front() + "\nscore " +
              (a.eval ? score_text(*a.eval) : std::string("none (the engine printed no evaluation)")) + "\nwin_in " +
              (w ? std::to_string(w) : std::string("none")) + "\npv " + join(line) + "\ndepth " +
              (a.depth ? std::to_string(a.depth) : std::string("not said")) + "\nengine " + engine + "\n");
}

// --engine: the external brain's move, evaluation and line.
int run_best_engine(const Command& self, const QCommandLineParser& p, const AnyPosition& any) {
    const stones::StonePosition* pos = any.stones();
    if (!pos) return usage_error(self, "--engine takes a Gomoku or Renju position (a Gomocup brain plays no Gounki)");
    if (pos->game_over()) {
        print_err("gounki best: the game is over\n");
        return exit_findings;
    }
    protocol::BrainSettings settings;
    std::string error;
    if (!read_brain_settings(p, settings, error)) return usage_error(self, error);
    try {
        protocol::BrainClient brain(settings);
        brain.new_game(pos->rules());
        const protocol::BrainAnswer a = brain.think(*pos);
        if (p.isSet("progress")) {
            if (a.messages_dropped)
                print_err("(" + std::to_string(a.messages_dropped) + " earlier MESSAGE and DEBUG lines not kept)\n");
            for (const std::string& m : a.messages) print_err(m + "\n");
        }
        print_engine_answer(p, *pos, a, brain.name());
    } catch (const protocol::BrainError& e) {
        print_err("gounki best: " + std::string(e.what()) + "\n");
        return exit_findings;
    }
    return exit_ok;
}

} // namespace

void describe_best(QCommandLineParser& p) {
    add_position_option(p, "The position to search", "Gounki's start when left out");
    p.addOption({"depth", "Search this many plies (deterministic).", "N"});
    p.addOption(
        {"nodes",
         "Search about this many nodes (deterministic). The default: " + QString::number(qulonglong(default_search_nodes)) + ".",
         "N"});
    p.addOption({"time", "Search for about this many milliseconds (not reproducible).", "MS"});
    add_hash_option(p);
    add_brain_options(p, "Ask this external Gomocup-protocol engine (a command line run by /bin/sh) instead.", "for the move");
    p.addOption({"json", "Print one JSON object instead of text."});
    p.addOption({"progress", "Print one line per completed iteration on stderr."});
    add_moves_option(p);
}

int run_best(const QCommandLineParser& p) {
    const Command& self = *find_command("best");
    if (const int code = refuse_arguments(self, p)) return code;
    SearchLimits limits;
    int code = exit_ok;
    if (!read_search_limits(self, p, limits, code)) return code;
    SearchOptions options;
    if (!read_hash_option(self, p, options.hash_mb, code)) return code;
    AnyPosition any;
    if (p.isSet("position") && !read_position(self, p.value("position"), any)) return exit_usage;
    if (!apply_moves_option(self, p, any)) return exit_usage;
    if (p.isSet("engine")) {
        if (p.isSet("depth") || p.isSet("nodes") || p.isSet("time") || p.isSet("hash"))
            return usage_error(self, "--engine takes --engine-time, not --depth, --nodes, --time or --hash");
        return run_best_engine(self, p, any);
    }
    if (p.isSet("engine-time") || p.isSet("engine-nodes")) return usage_error(self, "--engine-time and --engine-nodes are for --engine");
    if (const stones::StonePosition* stone = any.stones()) return run_best_stone(p, *stone, limits, options.hash_mb);
    const Position pos = *any.gounki();
    if (!limits.depth && !limits.nodes && !limits.time_ms) limits = default_search_limits();
    if (pos.game_over()) {
        print_err(std::string("gounki best: the game is over: ") + (pos.outcome() == Outcome::white_wins ? "White" : "Black") +
                  " has won\n");
        return exit_findings;
    }

    Searcher searcher(options);
    Searcher::InfoCallback progress;
    if (p.isSet("progress"))
        progress = [&pos](const SearchInfo& info) {
            print_err("depth " + std::to_string(info.depth) + " seldepth " + std::to_string(info.seldepth) + " score " +
                      score_text(info.score) + " nodes " + std::to_string(info.nodes) + " time " + std::to_string(info.time_ms) +
                      " ms pv " + join(pv_texts(pos, info.pv)) + "\n");
        };
    const SearchResult r = searcher.search(pos, limits, progress);
    print_result(p, pos.to_text(), r, move_to_text(pos, r.best), pv_texts(pos, r.pv));
    return exit_ok;
}

} // namespace gounki::cli
