#include "analysis/work_estimate.hpp"

#include <algorithm>
#include <iterator>

#include "core/game.hpp"

namespace gounki::analysis {

WorkEstimate::WorkEstimate(std::vector<double> prior_cost) {
    for (double c : prior_cost) kinds_.push_back(Kind{c > 0 ? c : 1.0});
}

void WorkEstimate::add(int kind, std::uint64_t units) { kinds_.at(std::size_t(kind)).total += units; }

void WorkEstimate::done(int kind, std::uint64_t units, double busy_seconds) {
    Kind& k = kinds_.at(std::size_t(kind));
    k.done += units;
    k.busy += std::max(0.0, busy_seconds);
}

double WorkEstimate::work_left() const {
    // Measured over every kind: how the busy time compares with the prior costs.
    double busy = 0, prior_done = 0;
    for (const Kind& k : kinds_)
        if (k.done > 0 && k.busy > 0) {
            busy += k.busy;
            prior_done += k.prior * double(k.done);
        }
    const double scale = prior_done > 0 ? busy / prior_done : 1.0;
    double left = 0;
    for (const Kind& k : kinds_) {
        const double cost = k.done > 0 && k.busy > 0 ? k.busy / double(k.done) : k.prior * scale;
        left += cost * double(k.total > k.done ? k.total - k.done : 0);
    }
    return left;
}

double WorkEstimate::fraction() const {
    double done = 0;
    bool measured = false;
    for (const Kind& k : kinds_) measured |= k.busy > 0;
    for (const Kind& k : kinds_) done += measured ? k.busy : k.prior * double(k.done);
    const double all = done + work_left();
    return all > 0 ? std::clamp(done / all, 0.0, 1.0) : 1.0;
}

std::optional<double> WorkEstimate::seconds_left(double elapsed) const {
    double busy = 0;
    for (const Kind& k : kinds_) busy += k.busy;
    if (!(busy > 0) || !(elapsed > 0)) return std::nullopt;
    // The threads' busy time per second of the run so far, assumed to go on.
    return work_left() * elapsed / busy;
}

namespace {

// Processor seconds a ply at the default budget (analysis/README.md, "What a ply costs").
double default_ply_seconds(GameKind kind) {
    switch (kind) {
    case GameKind::gounki: return 0.013;
    case GameKind::gomoku: return 0.010;
    case GameKind::renju: return 0.014;
    case GameKind::ninuki: return 0.023;
    case GameKind::pente: return 0.016;
    }
    return 0.010;
}

} // namespace

double prior_ply_seconds(const JudgeSettings& settings, GameKind kind, int engine_ms) {
    const bool stone = is_stone_game(kind);
    if (stone && engine_ms > 0) return engine_ms / 1000.0;
    const double at_default = default_ply_seconds(kind);
    if (!settings.limits.nodes) return at_default;
    const std::uint64_t default_nodes = stone ? default_stone_judge_nodes : judge_defaults().limits.nodes;
    return at_default * double(settings.limits.nodes) / double(default_nodes);
}

std::vector<double> prior_ply_costs(const JudgeSettings& gounki, const JudgeSettings& stones, int engine_ms) {
    constexpr GameKind kinds[] = {GameKind::gounki, GameKind::gomoku, GameKind::ninuki, GameKind::pente, GameKind::renju};
    std::vector<double> out(std::size(kinds));
    for (GameKind k : kinds)
        out.at(std::size_t(k)) = is_stone_game(k) ? prior_ply_seconds(stones, k, engine_ms) : prior_ply_seconds(gounki, k);
    return out;
}

} // namespace gounki::analysis
