#pragma once
// Small text helpers that every layer needs, written once: ASCII case and blanks. (Unicode case
// folding for names is db/fold.hpp's.)

#include <string>
#include <string_view>

namespace gounki {

// `s` with A-Z turned to a-z; every other byte as it is.
inline std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = char(c | 0x20);
    return out;
}

// `s` without the spaces and tabs around it (and a '\r' at its end).
inline std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

} // namespace gounki
