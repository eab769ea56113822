#pragma once
// The progress line on stderr for long commands (import, analyze, selfplay): a bar, what is done,
// the rate and the time left. Shown only when stderr is a terminal, the caller allows it and --quiet
// is not given; nothing otherwise.

#include <QElapsedTimer>

#include <cstdint>
#include <string>

namespace gounki::cli {

class Progress {
public:
    // `what` names the units ("games"); `total` 0 when unknown.
    Progress(std::string what, std::uint64_t total, bool allowed);
    // `done` units of `total`.
    void update(std::uint64_t done) { draw(done, done, true, done == total_); }
    // `count` units done while `measured` of `total` is (import: games read, bytes of the files'
    // size); `force` redraws even within a tenth of a second of the last time.
    void update(std::uint64_t count, std::uint64_t measured, bool force = false) { draw(count, measured, false, force); }
    // Erases the line so that ordinary output can be printed; the next update due redraws it.
    void clear();
    // Erases the line for good.
    void finish();
    bool enabled() const { return enabled_; }

private:
    void draw(std::uint64_t count, std::uint64_t measured, bool of_total, bool force);

    std::string what_;
    std::uint64_t total_;
    bool enabled_;
    bool shown_ = false;
    qint64 last_draw_ms_ = -1000;
    QElapsedTimer timer_;
};

} // namespace gounki::cli
