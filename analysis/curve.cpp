#include "analysis/curve.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace gounki::analysis {

// The fit (2026-11-21): `gounki selfplay --games 400 --nodes 100000 --seed 7 --threads 2 --fit
// -o fit.gpn`, i.e. 400 engine games at the judge's default setting (100,000 nodes a move), 4
// random plies each; White won 214, Black 186, none adjudicated, 33 plies a game. Every engine move
// gives one sample: its root score (from the mover) and the game's result for the mover; the 8,063
// samples with heuristic scores are fitted by maximum likelihood (proven scores left out). Result:
// scale 226.9, mean log loss 0.611 against 0.693 for always predicting one half. So a score of +227
// (about two pieces) means a 73% expected result, +500 about 90%.
const double default_curve_scale = 227.0;

// Stone games (2026-11-21), fitted the same way at the stone judge's default (20,000 nodes a move,
// 6 random plies):
//   `gounki selfplay --game ninuki --games 80 --nodes 20000 --seed 7 --random-plies 6 --fit -o f.gpn`:
//     Black won 50, White 30, 28 plies a game; 1,361 heuristic samples (the rest proven): scale
//     1088, mean log loss 0.615 against 0.693;
//   `gounki selfplay --game gomoku --games 40 --nodes 20000 --seed 7 --random-plies 6 --threads 2
//     --fit -o f.gpn`: Black won 29, White 11, 36 plies a game; 871 samples: scale 943, log loss
//     0.610.
// One round figure for both games, between the two fits. Few samples and short, decisive games:
// the curve matters little next to the exact verdicts (most stone-game mistakes are proven ones).
const double default_stone_curve_scale = 1000.0;

double expected_result(Score s, double scale) {
    if (is_proven_win(s)) return 1.0;
    if (is_proven_loss(s)) return 0.0;
    return 1.0 / (1.0 + std::exp(-double(s) / scale));
}

namespace {

double mean_log_loss(const std::vector<CurveSample>& xs, double scale) {
    double sum = 0;
    for (const CurveSample& x : xs) {
        double p = 1.0 / (1.0 + std::exp(-double(x.score) / scale));
        p = std::clamp(p, 1e-9, 1.0 - 1e-9);
        sum -= x.result * std::log(p) + (1.0 - x.result) * std::log(1.0 - p);
    }
    return xs.empty() ? 0 : sum / double(xs.size());
}

} // namespace

CurveFit fit_curve_scale(std::span<const CurveSample> samples) {
    std::vector<CurveSample> xs;
    for (const CurveSample& x : samples)
        if (!is_proven(x.score)) xs.push_back(x);
    CurveFit fit;
    fit.samples = int(xs.size());
    fit.base_log_loss = std::log(2.0);
    if (xs.empty()) return fit;
    // Coarse: scales 10 .. 10000 on a log grid; then golden section on log(scale) around the best.
    double best_t = std::log(10.0), best_v = 1e300;
    for (double t = std::log(10.0); t <= std::log(10000.0); t += 0.05) {
        const double v = mean_log_loss(xs, std::exp(t));
        if (v < best_v) {
            best_v = v;
            best_t = t;
        }
    }
    double lo = best_t - 0.05, hi = best_t + 0.05;
    const double g = (std::sqrt(5.0) - 1) / 2;
    for (int i = 0; i < 40; ++i) {
        const double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
        if (mean_log_loss(xs, std::exp(a)) < mean_log_loss(xs, std::exp(b))) hi = b;
        else lo = a;
    }
    fit.scale = std::exp((lo + hi) / 2);
    fit.log_loss = mean_log_loss(xs, fit.scale);
    return fit;
}

} // namespace gounki::analysis
