#pragma once
// The progress line on stderr for long commands (import, analyze, selfplay): a bar, what is done,
// the rate and the time left. Shown only when stderr is a terminal, the caller allows it and --quiet
// is not given; nothing otherwise.

#include <QElapsedTimer>

#include <cstdint>
#include <optional>
#include <string>

#include "analysis/work_estimate.hpp"

namespace gounki::cli {

class Progress {
public:
    // `what` names the units ("games"); `total` 0 when unknown.
    Progress(std::string what, std::uint64_t total, bool allowed);
    // `done` units of `total`.
    void update(std::uint64_t done) {
        draw(done, true, total_ ? double(done) / double(total_) : 0.0, std::nullopt, done == total_);
    }
    // `count` units done while `measured` of `total` is (import: games read, bytes of the files'
    // size); `force` redraws even within a tenth of a second of the last time.
    void update(std::uint64_t count, std::uint64_t measured, bool force = false) {
        draw(count, false, total_ ? double(measured) / double(total_) : 0.0, std::nullopt, force);
    }
    // `done` units of `total`, the bar and the time left from `estimate` (its share of the work done).
    void update(std::uint64_t done, const analysis::WorkEstimate& estimate);
    // Erases the line so that ordinary output can be printed; the next update due redraws it.
    void clear();
    // Erases the line for good.
    void finish();
    bool enabled() const { return enabled_; }

private:
    // `fraction` of the work done; `seconds_left` estimated by the caller, else from the elapsed time.
    void draw(std::uint64_t count, bool of_total, double fraction, std::optional<double> seconds_left, bool force);

    std::string what_;
    std::uint64_t total_;
    bool enabled_;
    bool shown_ = false;
    qint64 last_draw_ms_ = -1000;
    QElapsedTimer timer_;
};

} // namespace gounki::cli
