#pragma once
// A progress line on stderr for long commands (import, analyze): done/total, rate and ETA. Shown
// only when stderr is a terminal, the caller allows it and --quiet is not given; nothing otherwise.

#include <QElapsedTimer>

#include <cstddef>
#include <string>

namespace gounki::cli {

class Progress {
public:
    // `what` names the units ("games"); `total` 0 when unknown.
    Progress(std::string what, std::size_t total, bool allowed);
    // Redraws at most ten times a second.
    void update(std::size_t done);
    // Erases the line so that ordinary output can be printed; the next update redraws it.
    void clear();
    // Erases the line for good.
    void finish();
    bool enabled() const { return enabled_; }

private:
    std::string what_;
    std::size_t total_;
    bool enabled_;
    bool shown_ = false;
    qint64 last_draw_ms_ = -1000;
    QElapsedTimer timer_;
};

} // namespace gounki::cli
