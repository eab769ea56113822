#include "report/report_model.hpp"

#include <algorithm>
#include <map>

#include "report/format.hpp"

namespace gounki::report {

std::string_view verdict_name(Verdict v) {
    switch (v) {
    case Verdict::inaccuracy: return "inaccuracy";
    case Verdict::mistake: return "mistake";
    case Verdict::blunder: return "blunder";
    case Verdict::missed_win: return "missed-win";
    case Verdict::allows_loss: return "allows-loss";
    case Verdict::none: break;
    }
    return "";
}

std::string_view verdict_label(Verdict v) {
    switch (v) {
    case Verdict::inaccuracy: return "Inaccuracy";
    case Verdict::mistake: return "Mistake";
    case Verdict::blunder: return "Blunder";
    case Verdict::missed_win: return "Missed win";
    case Verdict::allows_loss: return "Allows a loss";
    case Verdict::none: break;
    }
    return "";
}

std::optional<Verdict> parse_verdict(std::string_view text) {
    if (text.empty() || text == "none") return Verdict::none;
    for (Verdict v : {Verdict::inaccuracy, Verdict::mistake, Verdict::blunder, Verdict::missed_win, Verdict::allows_loss})
        if (text == verdict_name(v)) return v;
    return std::nullopt;
}

SideSummary summarize_side(const GameReport& game, Color side) {
    SideSummary s;
    s.accuracy = game.summary[index(side)].accuracy;
    for (const Ply& p : game.plies) {
        if (p.side != side || !p.judgement) continue;
        ++s.judged;
        switch (p.judgement->verdict) {
        case Verdict::inaccuracy: ++s.inaccuracies; break;
        case Verdict::mistake: ++s.mistakes; break;
        case Verdict::blunder: ++s.blunders; break;
        case Verdict::missed_win: ++s.missed_wins; break;
        case Verdict::allows_loss: ++s.allowed_losses; break;
        case Verdict::none: break;
        }
    }
    return s;
}

void summarize(GameReport& game) {
    game.summary[0] = summarize_side(game, Color::white);
    game.summary[1] = summarize_side(game, Color::black);
}

namespace {

// 0 win, 1 draw, 2 loss, 3 unfinished, for the player of colour `c`.
int result_column(const std::string& result, Color c) {
    if (result == "1/2-1/2") return 1;
    if (result == "1-0") return c == Color::white ? 0 : 2;
    if (result == "0-1") return c == Color::black ? 0 : 2;
    return 3;
}

} // namespace

std::vector<PlayerStats> player_statistics(const std::vector<GameReport>& games) {
    std::map<std::string, PlayerStats> by_name;
    std::map<std::string, std::pair<double, int>> accuracy; // sum, count
    for (const GameReport& g : games) {
        if (g.broken()) continue;
        for (Color c : {Color::white, Color::black}) {
            const std::string& name = c == Color::white ? g.white : g.black;
            PlayerStats& p = by_name[name.empty() ? "?" : name];
            p.name = name.empty() ? "?" : name;
            ++p.games;
            ++p.results[index(c)][result_column(g.result, c)];
            if (const auto& a = g.summary[index(c)].accuracy) {
                accuracy[p.name].first += *a;
                ++accuracy[p.name].second;
            }
        }
    }
    std::vector<PlayerStats> out;
    for (auto& [name, p] : by_name) {
        if (auto it = accuracy.find(name); it != accuracy.end() && it->second.second > 0)
            p.average_accuracy = it->second.first / it->second.second;
        out.push_back(p);
    }
    std::stable_sort(out.begin(), out.end(), [](const PlayerStats& a, const PlayerStats& b) { return a.games > b.games; });
    return out;
}

std::vector<OpeningLine> opening_table(const std::vector<GameReport>& games, int plies) {
    std::map<std::vector<std::string>, OpeningLine> lines;
    for (const GameReport& g : games) {
        if (g.broken() || plies <= 0 || g.plies.size() < std::size_t(plies) || !starts_from_standard_position(g)) continue;
        // The start first (the same for every Gounki game here), so that games of different
        // kinds, sizes or options with the same move texts stay apart.
        std::vector<std::string> key{start_position_text(g)};
        for (int i = 0; i < plies; ++i) key.push_back(g.plies[std::size_t(i)].move);
        OpeningLine& line = lines[key];
        line.moves.assign(key.begin() + 1, key.end());
        ++line.games;
        if (g.result == "1-0") ++line.white_wins;
        else if (g.result == "0-1") ++line.black_wins;
        else if (g.result == "1/2-1/2") ++line.draws;
        else ++line.unfinished;
    }
    std::vector<OpeningLine> out;
    for (auto& [key, line] : lines) out.push_back(line);
    std::stable_sort(out.begin(), out.end(), [](const OpeningLine& a, const OpeningLine& b) { return a.games > b.games; });
    return out;
}

int broken_games(const std::vector<GameReport>& games) {
    return int(std::count_if(games.begin(), games.end(), [](const GameReport& g) { return g.broken(); }));
}

} // namespace gounki::report
