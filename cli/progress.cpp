#include "cli/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli/command.hpp"

namespace gounki::cli {

Progress::Progress(std::string what, std::uint64_t total, bool allowed)
    : what_(std::move(what)), total_(total), enabled_(allowed && !quiet() && ::isatty(STDERR_FILENO) == 1) {
    timer_.start();
}

void Progress::update(std::uint64_t done, const analysis::WorkEstimate& estimate) {
    const double fraction = estimate.fraction();
    draw(done, true, fraction, estimate.seconds_left(double(timer_.elapsed()) / 1000.0), done == total_);
}

void Progress::draw(std::uint64_t count, bool of_total, double fraction_done, std::optional<double> seconds_left, bool force) {
    if (!enabled_) return;
    const qint64 now = timer_.elapsed();
    if (!force && now - last_draw_ms_ < 100) return;
    last_draw_ms_ = now;
    const double seconds = double(now) / 1000.0;
    const double rate = seconds > 0 ? double(count) / seconds : 0.0;
    char rate_text[40];
    std::snprintf(rate_text, sizeof rate_text, rate < 100 ? "%.1f/s" : "%.0f/s", rate);
    char done[80];
    if (of_total && total_ > 0)
        std::snprintf(done, sizeof done, "%llu/%llu %s", static_cast<unsigned long long>(count),
                      static_cast<unsigned long long>(total_), what_.c_str());
    else std::snprintf(done, sizeof done, "%llu %s", static_cast<unsigned long long>(count), what_.c_str());
    char line[240];
    if (total_ == 0) {
        std::snprintf(line, sizeof line, "\r%s  %s\033[K", done, rate_text);
    } else {
        const double fraction = std::clamp(fraction_done, 0.0, 1.0);
        constexpr int width = 24;
        std::string bar(std::size_t(width + 2), ' ');
        bar.front() = '[';
        bar.back() = ']';
        std::fill_n(bar.begin() + 1, int(fraction * width), '=');
        std::string eta;
        if (!seconds_left && fraction > 0.01 && fraction < 1) seconds_left = seconds * (1 - fraction) / fraction;
        if (seconds_left && fraction < 1) {
            const int left = int(std::lround(*seconds_left));
            eta = "  ETA " + std::to_string(left / 60) + (left % 60 < 10 ? ":0" : ":") + std::to_string(left % 60);
        }
        std::snprintf(line, sizeof line, "\r%s %3d%%  %s  %s%s\033[K", bar.c_str(), int(fraction * 100), done, rate_text,
                      eta.c_str());
    }
    print_err(line);
    shown_ = true;
}

void Progress::clear() {
    if (!shown_) return;
    print_err("\r\033[K");
    shown_ = false;
}

void Progress::finish() {
    clear();
    enabled_ = false;
}

} // namespace gounki::cli
