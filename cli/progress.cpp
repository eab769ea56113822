#include "cli/progress.hpp"

#include <unistd.h>

#include <cstdio>

#include "cli/command.hpp"

namespace gounki::cli {

Progress::Progress(std::string what, std::size_t total, bool allowed)
    : what_(std::move(what)), total_(total), enabled_(allowed && !quiet() && ::isatty(STDERR_FILENO) == 1) {
    timer_.start();
}

void Progress::update(std::size_t done) {
    if (!enabled_) return;
    const qint64 now = timer_.elapsed();
    if (now - last_draw_ms_ < 100 && done != total_) return;
    last_draw_ms_ = now;
    const double seconds = double(now) / 1000.0;
    const double rate = seconds > 0 ? double(done) / seconds : 0.0;
    char line[200];
    if (total_ > 0) {
        const double fraction = double(done) / double(total_);
        std::string bar(30, ' ');
        for (int i = 0; i < int(fraction * 30); ++i) bar[std::size_t(i)] = '#';
        const int eta = rate > 0 ? int(double(total_ - done) / rate) : 0;
        std::snprintf(line, sizeof line, "\r[%s] %zu/%zu %s  %.1f/s  ETA %d:%02d\033[K", bar.c_str(), done, total_,
                      what_.c_str(), rate, eta / 60, eta % 60);
    } else {
        std::snprintf(line, sizeof line, "\r%zu %s  %.1f/s\033[K", done, what_.c_str(), rate);
    }
    std::fputs(line, stderr);
    std::fflush(stderr);
    shown_ = true;
}

void Progress::clear() {
    if (!shown_) return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    shown_ = false;
    last_draw_ms_ = -1000;
}

void Progress::finish() {
    clear();
    enabled_ = false;
}

} // namespace gounki::cli
