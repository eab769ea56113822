#include "analysis/judge.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "analysis/curve.hpp"
#include "analysis/engine.hpp"

namespace gounki::analysis {

// A position whose game is over (loss_at(0) for its side to move) makes its parent's move a win in 1.
Score parent_score(Score child) {
    if (is_proven_win(child)) return loss_at(win_in(child) + 1);
    if (is_proven_loss(child)) return win_at(-win_in(child) + 1);
    return -child;
}

std::string_view verdict_name(Verdict v) {
    switch (v) {
    case Verdict::best: return "best";
    case Verdict::inaccuracy: return "inaccuracy";
    case Verdict::mistake: return "mistake";
    case Verdict::blunder: return "blunder";
    case Verdict::missed_win: return "missed-win";
    case Verdict::allows_loss: return "allows-loss";
    case Verdict::book: return "book";
    }
    return "?";
}

JudgeSettings judge_defaults() {
    JudgeSettings s;
    s.limits.nodes = 30'000;
    return s;
}

double move_accuracy(double expected_best, double expected_played) {
    // Lichess's accuracy curve over the drop in winning chances, in percentage points: 100 for no
    // drop, about 65 for a 10-point drop, about 40 for 20 points.
    const double drop = std::max(0.0, 100.0 * (expected_best - expected_played));
    return std::clamp(103.1668 * std::exp(-0.04354 * drop) - 3.1669, 0.0, 100.0);
}

Verdict classify_move(Score best_score, Score played_score, bool played_is_best, const JudgeSettings& settings) {
    if (played_is_best) return Verdict::best;
    // Exact verdicts first: they never depend on the curve. A slower win is still a win.
    if (is_proven_win(best_score) && !is_proven_win(played_score)) return Verdict::missed_win;
    if (is_proven_loss(played_score) && !is_proven_loss(best_score)) return Verdict::allows_loss;
    const double scale = settings.curve_scale > 0 ? settings.curve_scale : default_curve_scale;
    const double drop = expected_result(best_score, scale) - expected_result(played_score, scale);
    if (drop >= settings.blunder) return Verdict::blunder;
    if (drop >= settings.mistake) return Verdict::mistake;
    if (drop >= settings.inaccuracy) return Verdict::inaccuracy;
    return Verdict::best;
}

void JudgeAgreement::add(const GameJudgement& a, const GameJudgement& b, const GameJudgement* b2) {
    ++games;
    std::size_t n = std::min(a.plies.size(), b.plies.size());
    if (b2) n = std::min(n, b2->plies.size());
    for (std::size_t i = 0; i < n; ++i) {
        const PlyJudgement& x = a.plies[i];
        const PlyJudgement& y = b.plies[i];
        ++plies;
        if (b2 && b2->plies[i].verdict == y.verdict) {
            ++steady;
            steady_same += x.verdict == y.verdict;
        }
        same_verdict += x.verdict == y.verdict;
        settled += x.settled;
        settled_same += x.settled && x.verdict == y.verdict;
        searched_again += x.searched_again;
        searched_again_same += x.searched_again && x.verdict == y.verdict;
        same_best += x.best == y.best;
        ++confusion[int(x.verdict)][int(y.verdict)];
    }
}

GameJudgement judge_game(const Position& start, std::span<const Move> moves, const JudgeSettings& settings,
                         const JudgeProgress& progress) {
    SearchOptions options;
    options.hash_mb = settings.hash_mb;
    Searcher searcher(options);
    return judge_game(searcher, start, moves, settings, progress);
}

namespace {

// A game as the verdict logic sees it, whatever the game: positions 0..plies, searched on demand
// by one searcher that keeps its table from one search to the next (within this game only).
struct GameView {
    int plies = 0; // judged plies: positions 0..plies exist and moves[0..plies) are legal
    std::span<const Move> moves;
    std::function<Color(int)> side_to_move;
    std::function<bool(int)> game_over;
    // The score of position i searched with `limits` (its terminal score when the game is over),
    // `first` searched first at its root (Move::none(): the usual order) and its score reported;
    // `enough`, asked after each iteration, ends the search when it answers true.
    std::function<Score(int, const SearchLimits&, Move first, const std::function<bool(const SearchInfo&)>& enough,
                        SearchResult&)>
        score;
};

// A book ply (JudgeSettings::book_plies): the move played, no search, counted only as book.
PlyJudgement book_ply(const GameView& g, int i) {
    PlyJudgement j;
    j.ply = i;
    j.side = g.side_to_move(i);
    j.played = g.moves[std::size_t(i)];
    j.verdict = Verdict::book;
    return j;
}

// The early stop of a search at a node budget: once `stable_iterations` completed iterations in a
// row (the last at least `min_depth` deep) agree on the best move and on the verdict of the played
// move (searched first, so its score is of the same depth), and a graded verdict's drop lies at
// least `stop_margin` from every threshold, more iterations would not change the verdict.
// `stopped` is set when it ends the search so.
class EarlyStop {
public:
    EarlyStop(const JudgeSettings& settings, double scale, Move played, bool& stopped)
        : settings_(settings), scale_(scale), played_(played), stopped_(&stopped) {
        settings_.curve_scale = scale;
    }
    bool operator()(const SearchInfo& info) {
        if (settings_.stable_iterations <= 0 || !settings_.limits.nodes || !info.first_scored || info.pv.empty()) {
            run_ = 0;
            return false;
        }
        const Move best = info.pv.front();
        const Score best_score = std::max(info.score, info.first_score);
        const Verdict v = classify_move(best_score, info.first_score, best == played_, settings_);
        const bool same = run_ > 0 && best == best_ && v == verdict_;
        run_ = same ? run_ + 1 : 1;
        best_ = best;
        verdict_ = v;
        const bool stop = run_ >= settings_.stable_iterations && info.depth >= settings_.stop_min_depth &&
            far_from_thresholds(best_score, info.first_score, best == played_);
        *stopped_ = *stopped_ || stop;
        return stop;
    }

private:
    bool far_from_thresholds(Score best, Score played, bool played_is_best) const {
        if (played_is_best || is_proven(best) || is_proven(played)) return true;
        const double drop = expected_result(best, scale_) - expected_result(played, scale_);
        for (double t : {settings_.inaccuracy, settings_.mistake, settings_.blunder})
            if (std::abs(drop - t) < settings_.stop_margin) return false;
        return true;
    }
    JudgeSettings settings_;
    double scale_;
    Move played_;
    bool* stopped_;
    Move best_ = Move::none();
    Verdict verdict_ = Verdict::best;
    int run_ = 0;
};

// The played move's score: from the search of the position before it when it was searched there
// (first, to the best move's depth), else from the position after it. A move that seems to give up
// a proven win is looked at again, deeper, from the position after it, before it is called missed.
Score played_score_of(const GameView& g, int i, const SearchResult& r, const std::function<Score()>& after,
                      const JudgeSettings& settings, GameJudgement& out) {
    Score played = r.first_scored ? r.first_score : parent_score(after());
    if (is_proven_win(r.score) && !is_proven_win(played) && settings.verify_extra_plies > 0 && !g.game_over(i + 1)) {
        SearchLimits deeper;
        deeper.depth = std::min(win_in(r.score) + 1 + settings.verify_extra_plies, max_search_depth);
        deeper.nodes = settings.limits.nodes ? settings.limits.nodes * 8 : 0;
        deeper.time_ms = settings.limits.time_ms ? settings.limits.time_ms * 8 : 0;
        SearchResult again;
        const Score s = g.score(i + 1, deeper, Move::none(), {}, again);
        out.nodes += again.nodes;
        if (is_proven(s)) played = parent_score(s);
    }
    return played;
}

// An inaccuracy, a mistake or a blunder: a verdict from the size of a drop (not an exact one).
bool is_graded_drop(Verdict v) { return v == Verdict::inaccuracy || v == Verdict::mistake || v == Verdict::blunder; }

// The verdicts, written once for every game: the positions searched from the last back to the
// first (each search starts from a table that knows the positions after it), the played move
// searched first in each, a graded verdict searched again with a larger budget, and a deeper look
// at the position after a move that seems to give up a proven win. Book plies are not searched.
void judge_view(const GameView& g, const JudgeSettings& settings, double scale, const JudgeProgress& progress,
                GameJudgement& out) {
    const int book = std::clamp(settings.book_plies, 0, g.plies);
    out.plies.resize(std::size_t(g.plies));
    for (int i = 0; i < book; ++i) {
        out.plies[std::size_t(i)] = book_ply(g, i);
        if (progress) progress(out.plies[std::size_t(i)]);
    }
    std::vector<Score> value(std::size_t(g.plies) + 1, 0); // of each position, for its side to move
    bool last_known = false;
    const auto after = [&](int i) {
        if (i + 1 == g.plies && !last_known) {
            SearchResult last;
            value.back() = g.score(g.plies, settings.limits, Move::none(), {}, last);
            out.nodes += last.nodes;
            last_known = true;
        }
        return value[std::size_t(i) + 1];
    };
    JudgeSettings graded = settings;
    graded.curve_scale = scale;
    // Ply i judged with the limits of `with`: its search, the played move's score, the verdict.
    const auto judge_ply = [&](int i, const JudgeSettings& with, PlyJudgement& j) {
        SearchResult r;
        bool stopped_early = false;
        g.score(i, with.limits, j.played, EarlyStop(with, scale, j.played, stopped_early), r);
        out.nodes += r.nodes;
        j.settled = stopped_early || is_proven(r.score);
        j.best = r.best;
        j.best_score = r.score;
        j.pv = r.pv;
        bool played_is_best = j.played == j.best;
        j.played_score = played_is_best ? j.best_score : played_score_of(g, i, r, [&] { return after(i); }, with, out);
        // The best move never scores below the move played: a played move found better than the
        // engine's choice is the best move.
        if (!played_is_best && j.played_score > j.best_score) {
            j.best = j.played;
            j.best_score = j.played_score;
            j.pv = {j.played};
            played_is_best = true;
        }
        j.best_win_in = win_in(j.best_score);
        j.played_win_in = win_in(j.played_score);
        j.expected_best = expected_result(j.best_score, scale);
        j.expected_played = expected_result(j.played_score, scale);
        j.verdict = classify_move(j.best_score, j.played_score, played_is_best, graded);
    };
    // The second look at a graded verdict: the same search with confirm_factor times the budget.
    JudgeSettings again = settings;
    const int factor = std::max(settings.confirm_factor, 1);
    again.limits.nodes *= std::uint64_t(factor);
    again.limits.time_ms = int(std::min<long long>(std::numeric_limits<int>::max(), (long long)settings.limits.time_ms * factor));
    const bool look_again = factor > 1 && (settings.limits.nodes || settings.limits.time_ms);
    for (int i = g.plies - 1; i >= book; --i) {
        PlyJudgement& j = out.plies[std::size_t(i)];
        j.ply = i;
        j.side = g.side_to_move(i);
        j.played = g.moves[std::size_t(i)];
        judge_ply(i, settings, j);
        if (look_again && is_graded_drop(j.verdict)) {
            judge_ply(i, again, j);
            j.searched_again = true;
        }
        value[std::size_t(i)] = j.best_score;
        if (progress) progress(j);
    }
    double accuracy_sum[2] = {0, 0};
    for (const PlyJudgement& j : out.plies) {
        SideSummary& side = out.sides[index(j.side)];
        ++side.counts[int(j.verdict)];
        if (j.verdict == Verdict::book) continue; // counted only as book
        ++side.moves;
        accuracy_sum[index(j.side)] += move_accuracy(j.expected_best, j.expected_played);
    }
    for (int c = 0; c < 2; ++c)
        if (out.sides[c].moves) out.sides[c].accuracy = accuracy_sum[c] / out.sides[c].moves;
}

} // namespace

namespace {

// A position whose game is over, scored for its side to move: lost to the move before (a Gounki
// exit or capture, a five), won by a five that stood through the reply (Ninuki's end-game
// capture), or drawn (a full board).
template <class Pos>
Score decided_score(const Pos& pos) {
    if (pos.outcome() == Outcome::draw) return score_draw;
    return pos.outcome() == win_for(pos.side_to_move()) ? win_at(0) : loss_at(0);
}

// The judge of every family: the game's positions as far as its moves are legal, each searched by
// the family's engine with the keys of the positions before it as its history.
template <class Pos>
GameJudgement judge_positions(typename EngineOf<Pos>::Searcher& searcher, const Pos& start, std::span<const Move> moves,
                              const JudgeSettings& settings, double default_scale, const JudgeProgress& progress) {
    using Engine = EngineOf<Pos>;
    GameJudgement out;
    const double scale = settings.curve_scale > 0 ? settings.curve_scale : default_scale;
    std::vector<Pos> positions{start};
    std::vector<std::uint64_t> keys{start.key()};
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (!Engine::is_legal(positions.back(), moves[i])) {
            out.illegal_ply = int(i);
            break;
        }
        Pos after = positions.back();
        typename Engine::Undo u;
        Engine::play(after, moves[i], u);
        positions.push_back(after);
        keys.push_back(after.key());
    }
    GameView g;
    g.plies = int(positions.size()) - 1;
    g.moves = moves;
    g.side_to_move = [&](int i) { return positions[std::size_t(i)].side_to_move(); };
    g.game_over = [&](int i) { return positions[std::size_t(i)].game_over(); };
    g.score = [&](int i, const SearchLimits& limits, Move first, const std::function<bool(const SearchInfo&)>& enough,
                  SearchResult& result) {
        const Pos& pos = positions[std::size_t(i)];
        if (pos.game_over()) {
            result = SearchResult{};
            result.score = decided_score(pos);
        } else {
            searcher.put_first(first);
            const auto on_info = [&](const SearchInfo& info) {
                if (enough && enough(info)) searcher.stop();
            };
            result = Engine::search(searcher, pos, limits, on_info, std::span(keys.data(), std::size_t(i)));
        }
        return result.score;
    };
    // One table for the game's searches, empty at its start: the judgement depends on the game and
    // the settings only, whatever the searcher judged before.
    struct KeepTable {
        typename Engine::Searcher& s;
        explicit KeepTable(typename Engine::Searcher& searcher) : s(searcher) {
            s.forget();
            s.keep_table(true);
        }
        ~KeepTable() { s.keep_table(false); }
    } keep(searcher);
    judge_view(g, settings, scale, progress, out);
    return out;
}

} // namespace

GameJudgement judge_game(Searcher& searcher, const Position& start, std::span<const Move> moves, const JudgeSettings& settings,
                         const JudgeProgress& progress) {
    return judge_positions(searcher, start, moves, settings, default_curve_scale, progress);
}

JudgeSettings stone_judge_defaults() {
    JudgeSettings s;
    s.limits.nodes = default_stone_judge_nodes;
    s.curve_scale = default_stone_curve_scale;
    s.book_turned = true;
    return s;
}

GameJudgement judge_stone_game(const stones::StonePosition& start, std::span<const Move> moves, const JudgeSettings& settings,
                               const JudgeProgress& progress) {
    StoneSearchOptions options;
    options.hash_mb = settings.hash_mb;
    StoneSearcher searcher(options);
    return judge_stone_game(searcher, start, moves, settings, progress);
}

GameJudgement judge_stone_game(StoneSearcher& searcher, const stones::StonePosition& start, std::span<const Move> moves,
                               const JudgeSettings& settings, const JudgeProgress& progress) {
    return judge_positions(searcher, start, moves, settings, default_stone_curve_scale, progress);
}

GameJudgement judge_any_game(const AnyPosition& start, std::span<const Move> moves, const JudgeSettings& settings,
                             const JudgeProgress& progress) {
    if (const stones::StonePosition* stone = start.stones()) return judge_stone_game(*stone, moves, settings, progress);
    return judge_game(start.as_gounki(), moves, settings, progress);
}

} // namespace gounki::analysis
