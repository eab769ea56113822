#pragma once
// Small text helpers that every layer needs, written once: ASCII case and blanks, and the names
// of an enumeration's values. (Unicode case folding for names is db/fold.hpp's.)

#include <cstddef>
#include <optional>
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

// A row of a table that names an enumeration's values, read both ways by name_of and named:
//   constexpr Named<Color> color_names[] = {{Color::white, "white"}, {Color::black, "black"}};
// A value may have several rows: the first is its name, the others are other names it is read by.
template <class E>
struct Named {
    E value;
    std::string_view name;
};

// The name of `value`: its first row's; `none` when no row holds it.
template <class E, std::size_t N>
constexpr std::string_view name_of(const Named<E> (&names)[N], E value, std::string_view none = "?") {
    for (const Named<E>& row : names)
        if (row.value == value) return row.name;
    return none;
}

// The value that `text` names, in any ASCII case (the names are lower case); nullopt when none.
template <class E, std::size_t N>
std::optional<E> named(const Named<E> (&names)[N], std::string_view text) {
    const std::string folded = lower(text);
    for (const Named<E>& row : names)
        if (row.name == folded) return row.value;
    return std::nullopt;
}

} // namespace gounki
