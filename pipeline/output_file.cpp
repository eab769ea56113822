#include "pipeline/output_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <system_error>

namespace gounki::pipeline {

namespace fs = std::filesystem;

namespace {

// An error of the C library as text.
std::string failure(const std::string& what, int err) { return what + ": " + std::strerror(err); }

// Copies the file `from` over the content of the file `to`, which stays the same file (its other
// names see the new content): written from the start, then cut to `from`'s length and synced. Room
// for a longer text is reserved first where the file system can, so a full disk is found before a
// byte is changed. False with `error` set; `changed` tells whether `to` was written into.
bool copy_into(const std::string& from, const std::string& to, bool& changed, std::string& error) {
    changed = false;
    const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
    if (in < 0) {
        error = failure("cannot read '" + from + "'", errno);
        return false;
    }
    const int out = ::open(to.c_str(), O_WRONLY | O_CLOEXEC);
    if (out < 0) {
        error = failure("cannot write '" + to + "'", errno);
        ::close(in);
        return false;
    }
    bool ok = true;
    struct stat st {};
    if (::fstat(in, &st) != 0) {
        error = failure("cannot read '" + from + "'", errno);
        ok = false;
    } else if (st.st_size > 0 && ::fallocate(out, FALLOC_FL_KEEP_SIZE, 0, st.st_size) != 0 && errno != EOPNOTSUPP &&
               errno != ENOSYS) {
        error = failure("cannot write '" + to + "'", errno);
        ok = false;
    }
    char buffer[1 << 16];
    off_t at = 0;
    while (ok) {
        const ssize_t n = ::read(in, buffer, sizeof buffer);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR) continue;
            error = failure("cannot read '" + from + "'", errno);
            ok = false;
            break;
        }
        for (ssize_t done = 0; done < n && ok;) {
            const ssize_t w = ::pwrite(out, buffer + done, size_t(n - done), at);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) {
                error = failure("cannot write '" + to + "'", w < 0 ? errno : EIO);
                ok = false;
                break;
            }
            changed = true;
            done += w;
            at += w;
        }
    }
    if (ok && (::ftruncate(out, at) != 0 || ::fsync(out) != 0)) {
        changed = true;
        error = failure("cannot write '" + to + "'", errno);
        ok = false;
    }
    ::close(in);
    if (::close(out) != 0 && ok) {
        error = failure("cannot write '" + to + "'", errno);
        ok = false;
    }
    return ok;
}

// The signal that came while signals were held (HeldSignals), 0 when none did.
volatile sig_atomic_t held_signal = 0;

extern "C" void hold_signal(int signal_number) {
    if (held_signal == 0) held_signal = signal_number;
}

// While it lives, the signals that would end the program where it stands (Ctrl-C, a kill, a
// hang-up, and SIGXFSZ, which a write past the file size limit sends: that write then fails with
// EFBIG, as on a full disk) are held back, for all its threads; then the first of them that came
// is raised again, ending the program as it would have. Signals the program handles or ignores
// are left as they are. One at a time: the commands write their files one after another.
class HeldSignals {
public:
    HeldSignals() {
        held_signal = 0;
        for (std::size_t i = 0; i < std::size(signals_); ++i) {
            held_[i] = ::sigaction(signals_[i], nullptr, &old_[i]) == 0 && !(old_[i].sa_flags & SA_SIGINFO) &&
                old_[i].sa_handler == SIG_DFL;
            if (!held_[i]) continue;
            struct sigaction hold {};
            hold.sa_handler = hold_signal;
            sigemptyset(&hold.sa_mask);
            hold.sa_flags = SA_RESTART;
            ::sigaction(signals_[i], &hold, nullptr);
        }
    }
    ~HeldSignals() {
        for (std::size_t i = 0; i < std::size(signals_); ++i)
            if (held_[i]) ::sigaction(signals_[i], &old_[i], nullptr);
        if (const int s = held_signal) ::raise(s);
    }
    HeldSignals(const HeldSignals&) = delete;
    HeldSignals& operator=(const HeldSignals&) = delete;

private:
    static constexpr int signals_[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXFSZ};
    struct sigaction old_[std::size(signals_)] {};
    bool held_[std::size(signals_)] = {};
};

} // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)), to_stdout_(path_ == "-") {}

OutputFile::~OutputFile() { abandon(); }

void OutputFile::abandon() {
    if (done_ || to_stdout_) return;
    done_ = true;
    if (file_.is_open()) file_.close();
    std::error_code ec;
    if (!part_.empty()) fs::remove(part_, ec);
}

bool OutputFile::open(std::string& error) {
    if (to_stdout_) return true;
    std::error_code ec;
    // Links followed one by one (a link to a file not made yet names the file to make).
    fs::path target = path_;
    for (int links = 0; fs::is_symlink(fs::symlink_status(target, ec)); ++links) {
        const fs::path to = fs::read_symlink(target, ec);
        if (ec || links == 40) {
            error = "cannot follow the link '" + path_ + "'" + (ec ? ": " + ec.message() : std::string(": too many links"));
            return false;
        }
        target = to.is_absolute() ? to : target.parent_path() / to;
    }
    target_ = target.string();
    const fs::file_status st = fs::status(target_, ec);
    if (fs::is_directory(st)) {
        error = "'" + path_ + "' is a folder";
        return false;
    }
    // A device or a pipe is written into as it is: renaming a file over it would replace it.
    const bool special = fs::exists(st) && !fs::is_regular_file(st);
    part_ = special ? std::string() : target_ + ".part";
    errno = 0;
    file_.open(special ? target_ : part_, std::ios::binary | std::ios::trunc);
    if (!file_) {
        error = "cannot write '" + (special ? target_ : part_) + "'" + (errno ? std::string(": ") + std::strerror(errno) : "");
        part_.clear();
        return false;
    }
    return true;
}

std::ostream& OutputFile::stream() { return to_stdout_ ? std::cout : file_; }

bool OutputFile::commit(std::string& error) {
    if (to_stdout_) {
        std::cout.flush();
        if (std::cout) return true;
        error = "writing to standard output failed";
        return false;
    }
    file_.close();
    if (!file_) {
        error = "writing '" + (part_.empty() ? target_ : part_) + "' failed";
        abandon();
        return false;
    }
    if (part_.empty()) { // written straight into a device or a pipe
        done_ = true;
        return true;
    }
    std::error_code ec;
    const fs::file_status old = fs::status(target_, ec);
    if (fs::is_regular_file(old)) {
        fs::permissions(part_, old.permissions(), ec);
        if (!ec && fs::hard_link_count(target_, ec) > 1 && !ec) {
            // Other names share the file: its content is replaced in place (the text is whole already),
            // and a signal that comes meanwhile waits until it is whole again and the .part is gone.
            const HeldSignals held;
            const bool ok = rewrite_in_place(error);
            abandon();
            return ok;
        }
    }
    ec.clear();
    fs::rename(part_, target_, ec);
    if (ec) {
        error = "cannot create '" + path_ + "': " + ec.message();
        abandon();
        return false;
    }
    done_ = true;
    return true;
}

// The finished text (in part_) copied over the target's content, for a target with other names. A
// copy of the old content is made first, beside it: when that cannot be made, the target is left
// untouched; when writing the target fails, the old content is put back from the copy, and only if
// that fails too is the copy kept, and named in the error.
bool OutputFile::rewrite_in_place(std::string& error) {
    std::string keep = target_ + ".old-XXXXXX";
    const int made = ::mkstemp(keep.data());
    if (made < 0) {
        error = failure("cannot rewrite '" + path_ + "' in place: cannot make a copy of its old text beside it", errno);
        return false;
    }
    ::close(made);
    bool changed = false;
    std::string why;
    if (!copy_into(target_, keep, changed, why)) {
        std::error_code ec;
        fs::remove(keep, ec);
        error = "cannot rewrite '" + path_ + "' in place: cannot keep a copy of its old text (" + why + "); the file is as it was";
        return false;
    }
    if (copy_into(part_, target_, changed, why)) {
        std::error_code ec;
        fs::remove(keep, ec);
        return true;
    }
    std::string back;
    if (!changed || copy_into(keep, target_, changed, back)) {
        std::error_code ec;
        fs::remove(keep, ec);
        error = "cannot rewrite '" + path_ + "' in place (" + why + "); the file is as it was";
        return false;
    }
    error = "cannot rewrite '" + path_ + "' in place (" + why + "), nor put its old text back (" + back +
            "): the file may be half written; its old text is in '" + keep + "'";
    return false;
}

bool write_whole(const std::string& path, const std::string& text, std::string& error) {
    OutputFile out(path);
    if (!out.open(error)) return false;
    out.stream() << text;
    return out.commit(error);
}

bool same_file(const std::string& a, const std::string& b) {
    std::error_code ec;
    return fs::equivalent(a, b, ec) && !ec;
}

} // namespace gounki::pipeline
