#pragma once
// From a search score to an expected result (1 win, 0 loss, 0.5 draw) for the side to move: the
// logistic curve the judge grades moves with, and the fit of its scale on self-play games.

#include <span>

#include "analysis/score.hpp"

namespace gounki::analysis {

// The scale fitted on self-play games (see curve.cpp for the data and the numbers):
// expected = 1 / (1 + exp(-score / scale)).
extern const double default_curve_scale;
// The same for stone-game scores (stones/search.hpp's evaluation), see curve.cpp.
extern const double default_stone_curve_scale;

// Proven wins and losses map to exactly 1 and 0, whatever the scale.
double expected_result(Score s, double scale = default_curve_scale);

// One observation for the fit: a heuristic search score from the side to move and the result the
// game ended with for that side (1, 0.5 or 0).
struct CurveSample {
    Score score = 0;
    double result = 0.5;
};

struct CurveFit {
    double scale = 0;
    double log_loss = 0; // mean per sample at the fitted scale
    double base_log_loss = 0; // mean per sample when predicting 0.5 always (ln 2)
    int samples = 0; // heuristic samples used (proven ones are left out)
};

// Maximum-likelihood scale (minimum mean log loss), searched on a log grid then refined by golden
// section; proven scores are left out since the curve does not apply to them.
CurveFit fit_curve_scale(std::span<const CurveSample> samples);

} // namespace gounki::analysis
