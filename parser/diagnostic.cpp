#include "core/gounki/movegen.hpp"
#include "core/text.hpp"
#include "parser/record.hpp"

#include <cctype>
#include <cstdio>

namespace gounki::parser {

std::string_view severity_name(Severity s) { return s == Severity::error ? "error" : "warning"; }

namespace {
constexpr Named<GameStatus> status_names[] = {
    {GameStatus::valid, "valid"}, {GameStatus::invalid, "invalid"}, {GameStatus::partial, "partial"}};
} // namespace

std::string_view status_name(GameStatus s) { return name_of(status_names, s); }

bool is_status_mark(std::string_view value) {
    std::string v;
    for (char c : value) v += char(std::tolower(static_cast<unsigned char>(c)));
    return v == "partial" || v == "invalid" || v == "valid";
}

std::string escape_controls(std::string_view text, bool keep_lines) {
    // Control characters (from a binary file, an archive's member name, or typed by mistake) would
    // act on a terminal: shown as escapes instead (\x01 for C0 and DEL, \u0085 for C1).
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
        char escape[8];
        if (keep_lines && (c == '\n' || c == '\t')) {
            out += char(c);
        } else if (c < 0x20 || c == 0x7F) {
            std::snprintf(escape, sizeof escape, "\\x%02x", c);
            out += escape;
        } else if (c == 0xC2 && next >= 0x80 && next <= 0x9F) {
            std::snprintf(escape, sizeof escape, "\\u%04x", next);
            out += escape;
            ++i;
        } else {
            out += char(c);
        }
    }
    return out;
}

std::string format_diagnostic(const Diagnostic& d) {
    std::string out = d.file.empty() ? std::string("<input>") : escape_controls(d.file);
    if (d.line > 0) {
        out += ':' + std::to_string(d.line);
        if (d.column > 0) out += ':' + std::to_string(d.column);
    }
    out += ": ";
    out += severity_name(d.severity);
    out += ": ";
    out += escape_controls(d.message);
    out += " [" + d.code + "]";
    return out;
}

const std::string* GameRecord::tag(std::string_view name) const {
    for (const auto& [n, v] : tags)
        if (n == name) return &v;
    return nullptr;
}

Position GameRecord::final_position() const {
    Position pos = start.as_gounki();
    UndoRecord undo;
    for (const Ply& p : main.plies) {
        if (pos.game_over()) break;
        pos.do_move(p.move, undo);
    }
    return pos;
}

stones::StonePosition GameRecord::final_stone_position() const {
    stones::StonePosition pos = start.as_stones();
    stones::StoneUndo undo;
    for (const Ply& p : main.plies) {
        if (pos.game_over() || !pos.is_legal(p.move)) break;
        pos.play(p.move, undo);
    }
    return pos;
}

void GameRecord::set_start(const AnyPosition& pos) {
    kind = pos.kind();
    start = pos;
}

std::size_t GameRecord::error_count() const {
    std::size_t n = 0;
    for (const Diagnostic& d : diagnostics) n += d.severity == Severity::error;
    return n;
}

void GameRecord::clear() {
    kind = GameKind::gounki;
    notation = Notation::wikipedia;
    tags.clear();
    static const AnyPosition initial = AnyPosition::start(GameKind::gounki);
    start = initial;
    first_number = 1;
    main.comments.clear();
    main.plies.clear();
    result.assign(1, '*'); // not = "*": GCC 12 -O3 warns falsely (-Wrestrict)
    result_written = false;
    status = GameStatus::valid;
    diagnostics.clear();
    file.clear();
    line = 0;
    column = 0;
    number = 0;
    passed_over.clear();
}

} // namespace gounki::parser
