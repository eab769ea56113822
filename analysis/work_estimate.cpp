#include "analysis/work_estimate.hpp"

#include <algorithm>

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

double prior_ply_seconds(const JudgeSettings& settings, bool stone, int engine_ms) {
    if (stone && engine_ms > 0) return engine_ms / 1000.0;
    const double per_node = stone ? 0.060 / double(default_stone_judge_nodes) : 0.012 / 100'000;
    if (settings.limits.nodes) return per_node * double(settings.limits.nodes);
    return stone ? 0.060 : 0.012;
}

} // namespace gounki::analysis
