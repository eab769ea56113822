#pragma once
// Dates as record formats write them, read in the project's form `YYYY.MM.DD` (PGN's; an unknown
// part is `??`), and written back as SGF's `YYYY-MM-DD`. Every reader's Date tag goes through
// project_date (docs/rules.md 2.3, "Dates"), so the database sorts and filters them alike.

#include <string>
#include <string_view>

namespace gounki::parser {

// `written` in the project's form when it reads as one date:
//   2024.05.01 (already so; ?? parts too)       2024-05-01, 2024/05/01, 2024.5.1 (year first)
//   20240501 (eight digits)                      2024-05 and 2024 (a month, a year: 2024.05.??)
//   05/01/2024, 1.5.2024, 01-05-2024 (year last: month first when `month_first`, the source's
//   convention, or when the first number is at most 12 and the second is not; day first in the
//   reverse case; 03/04/2024 from an unknown source is kept as written)
// A date followed by a time or more days (`2024-05-01T10:00`, `2024-05-01 10:00`, SGF's
// `2024-05-01,02`) is that date. Anything else (a two-digit year, a 13th month, a day its month has
// not: 2010-04-31, 2023-02-29; words) is kept as written, trimmed.
std::string project_date(std::string_view written, bool month_first = false);

// Whether `date` is in the project's form: four, two and two digits or `?`, with dots between.
bool is_project_date(std::string_view date);

// The project's `2024.05.01` as SGF's `2024-05-01` (`2024.05.??` as `2024-05`, `2024.??.??` as
// `2024`); another value as it is.
std::string sgf_date(std::string_view date);

} // namespace gounki::parser
