#include "parser/dates.hpp"

#include "core/text.hpp"

namespace gounki::parser {

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

// The run of digits at `i` (at most `most` of them), or -1 when none; `i` moves past them.
int number_at(std::string_view s, std::size_t& i, std::size_t most, std::size_t& length) {
    int v = -1;
    const std::size_t start = i;
    for (; i < s.size() && i - start < most && digit(s[i]); ++i) v = (v < 0 ? 0 : v * 10) + (s[i] - '0');
    length = i - start;
    return v;
}

std::string two(int n) { return std::string(1, char('0' + n / 10)) + char('0' + n % 10); }

// Whether day `d` of month `m` (1-12) exists in `year` (February 29th in leap years only).
bool day_exists(int year, int m, int d) {
    static constexpr int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m < 1 || m > 12 || d < 1 || d > days[m - 1]) return false;
    return m != 2 || d < 29 || (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0));
}

// What may follow a date: nothing, or a time or further days after a blank, a 'T' or a comma.
bool date_ends(std::string_view t, std::size_t i) { return i == t.size() || t[i] == ' ' || t[i] == 'T' || t[i] == ','; }

} // namespace

bool is_project_date(std::string_view t) {
    if (t.size() != 10 || t[4] != '.' || t[7] != '.') return false;
    for (std::size_t i = 0; i < t.size(); ++i)
        if (i != 4 && i != 7 && !digit(t[i]) && t[i] != '?') return false;
    return true;
}

std::string project_date(std::string_view written, bool month_first) {
    const std::string t(trim(written));
    if (is_project_date(t)) return t;
    std::size_t i = 0, length = 0;
    const int first = number_at(t, i, 8, length);
    if (length == 8 && date_ends(t, i)) { // 20240501
        const int year = first / 10000, month = first / 100 % 100, day = first % 100;
        if (day_exists(year, month, day)) return std::to_string(year) + "." + two(month) + "." + two(day);
        return t;
    }
    if (length == 4) { // the year first: 2024-05-01, 2024/5/1, 2024-05, 2024
        if (i == t.size()) return t + ".??.??";
        const char sep = t[i];
        if (sep != '-' && sep != '/' && sep != '.') return t;
        const int month = number_at(t, ++i, 2, length);
        if (month < 1 || month > 12) return t;
        if (date_ends(t, i)) return t.substr(0, 4) + "." + two(month) + ".??";
        if (t[i] != sep) return t;
        const int day = number_at(t, ++i, 2, length);
        if (!day_exists(std::stoi(t.substr(0, 4)), month, day) || !date_ends(t, i)) return t;
        return t.substr(0, 4) + "." + two(month) + "." + two(day);
    }
    if (length == 0 || length > 2 || i >= t.size()) return t; // the year last: 05/01/2024
    const char sep = t[i];
    if (sep != '-' && sep != '/' && sep != '.') return t;
    const int a = first;
    const int b = number_at(t, ++i, 2, length);
    if (b < 0 || i >= t.size() || t[i] != sep) return t;
    const std::size_t year_at = ++i;
    number_at(t, i, 4, length);
    if (length != 4 || !date_ends(t, i)) return t;
    int month = 0, day = 0;
    if (a == b || month_first || (b > 12 && a <= 12)) {
        month = a;
        day = b;
    } else if (a > 12 && b <= 12) {
        month = b;
        day = a;
    } else {
        return t; // 03/04/2010: March or April, nothing says which
    }
    if (!day_exists(std::stoi(t.substr(year_at, 4)), month, day)) return t;
    return t.substr(year_at, 4) + "." + two(month) + "." + two(day);
}

std::string sgf_date(std::string_view date) {
    if (!is_project_date(date) || date.substr(0, 4).find('?') != std::string_view::npos) return std::string(date);
    const std::string_view month = date.substr(5, 2), day = date.substr(8, 2);
    if (month == "??" && day == "??") return std::string(date.substr(0, 4));
    if (month.find('?') != std::string_view::npos) return std::string(date);
    if (day == "??") return std::string(date.substr(0, 4)) + "-" + std::string(month);
    if (day.find('?') != std::string_view::npos) return std::string(date);
    return std::string(date.substr(0, 4)) + "-" + std::string(month) + "-" + std::string(day);
}

} // namespace gounki::parser
