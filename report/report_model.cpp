#include "report/report_model.hpp"

#include <algorithm>
#include <map>

#include "analysis/judge.hpp"
#include "report/format.hpp"

namespace gounki::report {

std::string_view verdict_name(Verdict v) { return v == Verdict::best ? std::string_view() : analysis::verdict_name(v); }

std::string_view verdict_label(Verdict v) {
    switch (v) {
    case Verdict::inaccuracy: return "Inaccuracy";
    case Verdict::mistake: return "Mistake";
    case Verdict::blunder: return "Blunder";
    case Verdict::missed_win: return "Missed win";
    case Verdict::allows_loss: return "Allows a loss";
    case Verdict::book: return "Book move";
    case Verdict::best: break;
    }
    return "";
}

std::optional<Verdict> parse_verdict(std::string_view text) {
    if (text.empty() || text == "none") return Verdict::best;
    for (Verdict v :
         {Verdict::inaccuracy, Verdict::mistake, Verdict::blunder, Verdict::missed_win, Verdict::allows_loss, Verdict::book})
        if (text == verdict_name(v)) return v;
    return std::nullopt;
}

SideSummary summarize_side(const GameReport& game, Color side) {
    SideSummary s;
    s.accuracy = game.summary[index(side)].accuracy;
    for (const Ply& p : game.plies) {
        if (p.side() != side || !p.judgement) continue;
        if (p.judgement->verdict == Verdict::book) {
            ++s.book;
            continue;
        }
        if (!p.judgement->scored) {
            ++s.ungraded;
            continue;
        }
        ++s.judged;
        switch (p.judgement->verdict) {
        case Verdict::inaccuracy: ++s.inaccuracies; break;
        case Verdict::mistake: ++s.mistakes; break;
        case Verdict::blunder: ++s.blunders; break;
        case Verdict::missed_win: ++s.missed_wins; break;
        case Verdict::allows_loss: ++s.allowed_losses; break;
        case Verdict::book:
        case Verdict::best: break;
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

namespace {

std::vector<const GameReport*> pointers(const std::vector<GameReport>& games) {
    std::vector<const GameReport*> out;
    out.reserve(games.size());
    for (const GameReport& g : games) out.push_back(&g);
    return out;
}

void count_result(OpeningLine& line, const std::string& result) {
    ++line.games;
    if (result == "1-0") ++line.white_wins;
    else if (result == "0-1") ++line.black_wins;
    else if (result == "1/2-1/2") ++line.draws;
    else ++line.unfinished;
}

bool by_games(const OpeningLine& a, const OpeningLine& b) { return a.games > b.games; }

} // namespace

std::vector<PlayerStats> player_statistics(const std::vector<GameReport>& games) { return player_statistics(pointers(games)); }

std::vector<PlayerStats> player_statistics(const std::vector<const GameReport*>& games) {
    std::map<std::string, PlayerStats> by_name;
    std::map<std::string, std::pair<double, int>> accuracy; // sum, count
    for (const GameReport* g : games) {
        if (g->broken()) continue;
        for (Color c : {Color::white, Color::black}) {
            const std::string& name = c == Color::white ? g->white : g->black;
            PlayerStats& p = by_name[name.empty() ? "?" : name];
            p.name = name.empty() ? "?" : name;
            // One game, whoever plays both its sides (a self-play game): counted once, its result
            // on each side.
            const std::string& other = c == Color::white ? g->black : g->white;
            if (c == Color::white || (other.empty() ? "?" : other) != p.name) ++p.games;
            ++p.results[index(c)][result_column(g->result, c)];
            if (const auto& a = g->summary[index(c)].accuracy) {
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
    return opening_table(pointers(games), plies);
}

std::vector<OpeningLine> opening_table(const std::vector<const GameReport*>& games, int plies) {
    std::map<std::vector<std::string>, OpeningLine> lines;
    for (const GameReport* g : games) {
        if (g->broken() || plies <= 0 || g->plies.size() < std::size_t(plies) || !starts_from_standard_position(*g)) continue;
        // The start first (the same for every Gounki game here), so that games of different
        // kinds, sizes or options with the same move texts stay apart.
        std::vector<std::string> key{start_position_text(*g)};
        for (int i = 0; i < plies; ++i) key.push_back(move_text(g->plies[std::size_t(i)]));
        OpeningLine& line = lines[key];
        if (line.games == 0) {
            for (const Tag& t : stone_rule_tags(*g)) {
                if (t.name == "Size") line.variant = t.value + "x" + t.value;
                else if (t.name == "Rules") line.variant += ", " + t.value;
            }
        }
        line.start = key.front();
        line.moves.assign(key.begin() + 1, key.end());
        count_result(line, g->result);
    }
    std::vector<OpeningLine> out;
    for (auto& [key, line] : lines) out.push_back(line);
    std::stable_sort(out.begin(), out.end(), by_games);
    return out;
}

const stones::RenjuOpening* renju_opening(const GameReport& game) {
    if (game.kind != GameKind::renju || game.plies.size() < 3 || !starts_from_standard_position(game)) return nullptr;
    AnyPosition after = game.plies[2].before;
    if (!after.is_legal(game.plies[2].move)) return nullptr;
    after.play(game.plies[2].move);
    const stones::StonePosition* s = after.stones();
    return s ? stones::renju_opening_of(*s) : nullptr;
}

std::vector<OpeningLine> named_openings(const std::vector<const GameReport*>& games) {
    std::map<std::string, OpeningLine> lines;
    for (const GameReport* g : games) {
        if (g->broken()) continue;
        if (const stones::RenjuOpening* o = renju_opening(*g)) {
            OpeningLine& line = lines[o->label()];
            line.name = o->label();
            count_result(line, g->result);
        }
    }
    std::vector<OpeningLine> out;
    for (auto& [name, line] : lines) out.push_back(line);
    std::stable_sort(out.begin(), out.end(), by_games);
    return out;
}

OpeningGroups opening_groups(const std::vector<const GameReport*>& games, int rows, int replies) {
    // Games of one ply are left out of the first moves too, so that a first move's count is the
    // sum of its replies'.
    std::vector<const GameReport*> long_enough;
    for (const GameReport* g : games)
        if (g->plies.size() >= 2) long_enough.push_back(g);
    OpeningGroups out;
    const std::vector<OpeningLine> firsts = opening_table(long_enough, 1);
    const std::vector<OpeningLine> seconds = opening_table(long_enough, 2);
    for (const OpeningLine& first : firsts) {
        out.games += first.games;
        out.several_variants = out.several_variants || first.variant != firsts.front().variant;
        if (int(out.groups.size()) >= rows) {
            ++out.more_openings;
            out.more_games += first.games;
            continue;
        }
        OpeningGroup group{first, {}, 0, 0};
        for (const OpeningLine& second : seconds) {
            if (second.start != first.start || second.moves.front() != first.moves.front()) continue;
            if (int(group.replies.size()) < replies) {
                group.replies.push_back(second);
            } else {
                ++group.more_replies;
                group.more_reply_games += second.games;
            }
        }
        out.groups.push_back(std::move(group));
    }
    return out;
}

std::vector<KindTables> kind_tables(const std::vector<GameReport>& games, int rows, int replies) {
    std::map<GameKind, std::vector<std::size_t>> by_kind;
    for (std::size_t k = 0; k < games.size(); ++k) by_kind[games[k].kind].push_back(k);
    std::vector<KindTables> out;
    for (auto& [kind, indices] : by_kind) {
        KindTables t;
        t.kind = kind;
        t.games = std::move(indices);
        std::vector<const GameReport*> list;
        for (std::size_t k : t.games) {
            list.push_back(&games[k]);
            if (games[k].broken()) ++t.broken;
        }
        t.players = player_statistics(list);
        t.openings = opening_groups(list, rows, replies);
        t.named_openings = named_openings(list);
        out.push_back(std::move(t));
    }
    return out;
}

int broken_games(const std::vector<GameReport>& games) {
    return int(std::count_if(games.begin(), games.end(), [](const GameReport& g) { return g.broken(); }));
}

} // namespace gounki::report
