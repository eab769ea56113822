#pragma once
// JSON lines written the same way by every command that prints one kind of object.

#include <QJsonObject>

#include <initializer_list>
#include <utility>

#include "parser/record.hpp"

namespace gounki::cli {

// A diagnostic as `validate --json` and `import --json` print it: type, severity, code, message,
// file, and where known line, column, game, move_number with side, text, legal_moves, suggestion.
QJsonObject diagnostic_json(const parser::Diagnostic& d);

// A command's closing line: {"type": "summary"} and the named counts; the caller adds the rest.
QJsonObject summary_json(std::initializer_list<std::pair<const char*, qint64>> counts);

// `o` on stdout as one compact line.
void print_json_line(const QJsonObject& o);

} // namespace gounki::cli
