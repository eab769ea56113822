#pragma once
// What several test files need: running the built `gounki` binary, temporary folders, reading files.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace gounki::test {

inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream f(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

// A fresh folder under the system's temporary folder, removed with everything in it at the end.
class TempDir {
public:
    explicit TempDir(const std::string& name) {
        static int serial = 0;
        path_ = std::filesystem::temp_directory_path() /
                ("gounki-" + name + "-" + std::to_string(::getpid()) + "-" + std::to_string(++serial));
        std::filesystem::remove_all(path_);
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

struct CliRun {
    int status = -1;
    std::string out, err;
};

// Runs the built gounki with `args` (already quoted for the shell), capturing both streams.
inline CliRun run_gounki(const std::string& args) {
    TempDir dir("cli");
    const std::string cmd = std::string("'") + GOUNKI_CLI + "' " + args + " >'" + (dir / "out").string() + "' 2>'" +
                            (dir / "err").string() + "' </dev/null";
    const int raw = std::system(cmd.c_str());
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(dir / "out"), slurp(dir / "err")};
}

inline int count_of(const std::string& text, const std::string& needle) {
    int n = 0;
    for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++n;
    return n;
}

} // namespace gounki::test
