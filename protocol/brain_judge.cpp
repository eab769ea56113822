#include "protocol/brain_judge.hpp"

#include <algorithm>

#include "analysis/curve.hpp"

namespace gounki::protocol {

namespace {

using namespace gounki::analysis;

// What the brain said of one position of the game.
struct Look {
    Move best; // none when the game is over there
    std::optional<Score> score; // for the side to move
    std::vector<Move> pv;
};

// A position whose game is over, scored for its side to move (judge.cpp's rule).
Score decided_score(const stones::StonePosition& pos) {
    if (pos.outcome() == Outcome::draw) return score_draw;
    return pos.outcome() == win_for(pos.side_to_move()) ? win_at(0) : loss_at(0);
}

struct Game {
    std::vector<stones::StonePosition> positions;
    std::vector<int> order; // the points of the start's stones, then of each move
    std::size_t set_up = 0; // stones of the start
};

Look look_at(BrainClient& brain, const Game& g, std::size_t i) {
    const stones::StonePosition& pos = g.positions[i];
    Look look;
    if (pos.game_over()) {
        look.score = decided_score(pos);
        return look;
    }
    try {
        const BrainAnswer a = brain.think(pos, std::span(g.order.data(), g.set_up + i));
        look.best = Move::placement(a.point);
        look.score = a.eval;
        for (int p : a.pv) look.pv.push_back(Move::placement(p));
        if (look.pv.empty() || look.pv.front() != look.best) look.pv.insert(look.pv.begin(), look.best);
    } catch (const BrainError& e) {
        throw BrainError(
            std::string(e.what()) +
            (i == 0 ? std::string(" (the position before ply 1)") : " (the position after ply " + std::to_string(i) + ")"));
    }
    return look;
}

Game replay(const stones::StonePosition& start, std::span<const Move> moves, int& illegal_ply) {
    Game g;
    g.positions.push_back(start);
    for (int p = 0; p < stones::point_count; ++p)
        if (start.on_board(p) && start.at(p) != stones::Stone::empty) g.order.push_back(p);
    g.set_up = g.order.size();
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (!g.positions.back().is_legal(moves[i])) {
            illegal_ply = int(i);
            break;
        }
        stones::StonePosition after = g.positions.back();
        stones::StoneUndo u;
        after.play(moves[i], u);
        g.positions.push_back(after);
        g.order.push_back(moves[i].point());
    }
    return g;
}

} // namespace

GameJudgement judge_with_brain(BrainClient& brain, const stones::StonePosition& start, std::span<const Move> moves,
                               const JudgeSettings& settings) {
    GameJudgement out;
    const Game g = replay(start, moves, out.illegal_ply);
    const std::size_t plies = g.positions.size() - 1;
    const double scale = settings.curve_scale > 0 ? settings.curve_scale : default_stone_curve_scale;
    JudgeSettings graded = settings;
    graded.curve_scale = scale;
    brain.new_game(start.rules());
    double accuracy_sum[2] = {0, 0};
    // Book plies (JudgeSettings::book_plies) are not asked about.
    const std::size_t book = std::min(std::size_t(std::max(settings.book_plies, 0)), plies);
    std::optional<Look> current;
    if (plies > book) current = look_at(brain, g, book);
    for (std::size_t i = 0; i < plies; ++i) {
        PlyJudgement j;
        j.ply = int(i);
        j.side = g.positions[i].side_to_move();
        j.played = moves[i];
        if (i < book) {
            j.verdict = Verdict::book;
            ++out.sides[index(j.side)].counts[int(Verdict::book)];
            out.plies.push_back(std::move(j));
            continue;
        }
        j.best = current->best;
        j.pv = current->pv;
        bool played_is_best = j.played == j.best;
        // The next position is needed for the next ply, or for the played move's score.
        std::optional<Look> next;
        if (i + 1 < plies || !played_is_best) next = look_at(brain, g, i + 1);
        const std::optional<Score> played = played_is_best ? current->score
            : next->score                                  ? std::optional(parent_score(*next->score))
                                                           : std::nullopt;
        j.scored = current->score && played;
        if (j.scored) {
            j.best_score = *current->score;
            j.played_score = *played;
            // The best move never scores below the move played (the built-in judge's rule): a
            // played move the brain scores above its own choice, by its evaluation of the position
            // after it, is the best move.
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
            SideSummary& side = out.sides[index(j.side)];
            ++side.moves;
            ++side.counts[int(j.verdict)];
            accuracy_sum[index(j.side)] += move_accuracy(j.expected_best, j.expected_played);
        }
        out.plies.push_back(std::move(j));
        current = std::move(next);
    }
    brain.settle(); // every answer read belongs to the position it was read for
    for (int c = 0; c < 2; ++c)
        if (out.sides[c].moves) out.sides[c].accuracy = accuracy_sum[c] / out.sides[c].moves;
    return out;
}

} // namespace gounki::protocol
