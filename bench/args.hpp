#pragma once
// The benchmarks' command lines: options with a value (`--games 1000`) and flags (`--skip`), in any
// order; anything else is a usage error, and so is a number option whose value is not a whole
// number of its type (`--games abc`, `--games -3`, `--games 10x`), which is also said on stderr.
//
//   for (Args a(argc, argv); a.next();)
//       if (!a.value("--games", games) && !a.flag("--skip", skip)) return Args::usage("x_bench [--games N] [--skip]");
#include <charconv>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

namespace gounki::bench {

class Args {
public:
    Args(int argc, char** argv) : argc_(argc), argv_(argv) {}
    // Moves to the next argument; false after the last one.
    bool next() { return ++at_ < argc_; }
    // Whether the argument is `name` with a value after it, which is then read into `out`.
    bool value(std::string_view name, std::string& out) {
        if (argv_[at_] != name || at_ + 1 >= argc_) return false;
        out = argv_[++at_];
        return true;
    }
    template <class Number>
    bool value(std::string_view name, Number& out) {
        std::string text;
        if (!value(name, text)) return false;
        Number n{};
        const char* end = text.data() + text.size();
        const auto [stop, error] = std::from_chars(text.data(), end, n);
        bool negative = false;
        if constexpr (std::is_signed_v<Number>) negative = n < 0;
        if (text.empty() || error != std::errc() || stop != end || negative) {
            std::fprintf(stderr, "%.*s needs a whole number from 0 to %s, got '%s'\n", int(name.size()), name.data(),
                         std::to_string(std::numeric_limits<Number>::max()).c_str(), text.c_str());
            return false;
        }
        out = n;
        return true;
    }
    // Whether the argument is the flag `name`, which then sets `out`.
    bool flag(std::string_view name, bool& out) {
        if (argv_[at_] != name) return false;
        out = true;
        return true;
    }
    // Prints "usage: " and `text` (the program and its options) and returns a usage error's status.
    static int usage(const char* text) {
        std::fprintf(stderr, "usage: %s\n", text);
        return 2;
    }

private:
    int argc_;
    char** argv_;
    int at_ = 0;
};

} // namespace gounki::bench
