#include "cli/json_lines.hpp"

#include <QJsonArray>
#include <QJsonDocument>

#include "cli/command.hpp"

namespace gounki::cli {

QJsonObject diagnostic_json(const parser::Diagnostic& d) {
    const auto qs = [](const std::string& s) { return QString::fromStdString(s); };
    QJsonObject o{{"type", "diagnostic"},
                  {"severity", qs(std::string(parser::severity_name(d.severity)))},
                  {"code", qs(d.code)},
                  {"message", qs(d.message)},
                  {"file", qs(d.file)}};
    if (d.line > 0) o.insert("line", d.line);
    if (d.column > 0) o.insert("column", d.column);
    if (d.game > 0) o.insert("game", d.game);
    if (d.move_number > 0) {
        o.insert("move_number", d.move_number);
        o.insert("side", d.side == Color::white ? "white" : "black");
    }
    if (!d.written.empty()) o.insert("text", qs(d.written));
    if (!d.legal_moves.empty()) {
        QJsonArray moves;
        for (const std::string& m : d.legal_moves) moves.append(qs(m));
        o.insert("legal_moves", moves);
    }
    if (!d.suggestion.empty()) o.insert("suggestion", qs(d.suggestion));
    return o;
}

QJsonObject summary_json(std::initializer_list<std::pair<const char*, qint64>> counts) {
    QJsonObject o{{"type", "summary"}};
    for (const auto& [name, n] : counts) o.insert(name, n);
    return o;
}

void print_json_line(const QJsonObject& o) { print_out(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() + "\n"); }

} // namespace gounki::cli
