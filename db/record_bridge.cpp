#include "db/record_bridge.hpp"

#include <algorithm>

#include "parser/reader.hpp"
#include "parser/writer.hpp"

namespace gounki::db {

namespace {

GameStatus status_of(parser::GameStatus s) {
    switch (s) {
    case parser::GameStatus::valid: return GameStatus::valid;
    case parser::GameStatus::partial: return GameStatus::partial;
    case parser::GameStatus::invalid: return GameStatus::invalid;
    }
    return GameStatus::invalid;
}

void fill_record(parser::GameRecord& r, GameKind kind, const std::vector<std::pair<std::string, std::string>>& tags,
                 const AnyPosition& start, std::span<const Move> moves, ResultCode result) {
    r.kind = kind;
    r.tags = tags;
    r.start = start;
    r.main.plies.reserve(moves.size());
    for (Move m : moves) {
        parser::Ply p;
        p.move = m;
        r.main.plies.push_back(std::move(p));
    }
    r.result = std::string(result_text(result));
    r.result_written = true;
}

} // namespace

GameInput game_input(const parser::GameRecord& record) { return game_input(parser::GameRecord(record)); }

namespace {

bool has_annotations(const parser::Line& line) {
    if (!line.comments.empty()) return true;
    for (const parser::Ply& p : line.plies)
        if (!p.comments.empty() || !p.nags.empty() || !p.variations.empty()) return true;
    return false;
}

} // namespace

GameInput game_input(parser::GameRecord&& r) {
    GameInput g;
    // The record's text is kept for what the columns do not hold: annotations, and the number of
    // the first move of a game set up from move 12.
    if (has_annotations(r.main) || r.first_number != 1) g.annotated = parser::write_record(r);
    g.kind = r.kind;
    g.tags = std::move(r.tags);
    if (r.is_stone_game() || !(r.start == AnyPosition::start(r.kind))) g.start = std::move(r.start);
    g.moves.reserve(r.main.plies.size());
    for (const parser::Ply& p : r.main.plies) g.moves.push_back(p.move);
    g.result = parse_result(r.result).value_or(ResultCode::unknown);
    g.status = status_of(r.status);
    for (parser::Diagnostic& d : r.diagnostics)
        g.diagnostics.push_back({d.severity == parser::Severity::error ? Severity::error : Severity::warning, std::move(d.code),
                                 d.line, d.column, std::move(d.message)});
    g.source_file = std::move(r.file);
    g.source_line = r.line;
    return g;
}

namespace {

// A broken game's mark in its record: a Status tag with its status (any other Status tag kept
// from an import gives way to it; a valid game keeps its own), and a comment with its errors where it broke: after the last move of
// a partial game, before the moves of an invalid one. The errors that only repeat the Status tag
// of a record imported again are left out of the comment, and a comment already there (kept
// with the game's annotations) is not written twice.
void mark_broken(parser::GameRecord& r, const StoredGame& game) {
    const GameStatus status = game.summary.status;
    if (status == GameStatus::valid) return;
    std::erase_if(r.tags, [](const auto& t) { return t.first == "Status"; });
    r.tags.emplace_back("Status", std::string(status_name(status)));
    std::string text;
    for (const Diagnostic& d : game.diagnostics)
        if (d.severity == Severity::error && d.code != "marked-partial" && d.code != "marked-invalid")
            text += (text.empty() ? "" : "; ") + d.message + " [" + d.code + "]";
    if (text.empty()) return;
    std::replace(text.begin(), text.end(), '}', ')'); // a comment ends at '}'
    text = std::string(status_name(status)) + ": " + text;
    std::vector<std::string>& comments =
        status == GameStatus::partial && !r.main.plies.empty() ? r.main.plies.back().comments : r.main.comments;
    if (std::find(comments.begin(), comments.end(), text) == comments.end()) comments.push_back(std::move(text));
}

} // namespace

parser::GameRecord game_record(const StoredGame& game) {
    parser::GameRecord r;
    fill_record(r, game.summary.kind, game.tags, game.start, game.moves, game.summary.result);
    if (!game.annotated.empty()) {
        // The main line with its comments, NAGs and variations, when the kept text still reads as
        // the same moves (it always does unless the file was edited by hand).
        const auto kept = parser::read_records(game.annotated, "stored");
        if (kept.size() == 1 && kept[0].main.plies.size() == game.moves.size()) {
            bool same = true;
            for (std::size_t i = 0; i < game.moves.size() && same; ++i) same = kept[0].main.plies[i].move == game.moves[i];
            if (same) {
                r.main = kept[0].main;
                r.first_number = kept[0].first_number;
            }
        }
    }
    r.status = game.summary.status == GameStatus::valid ? parser::GameStatus::valid
        : game.summary.status == GameStatus::partial    ? parser::GameStatus::partial
                                                        : parser::GameStatus::invalid;
    r.file = game.source_file;
    r.line = game.source_line;
    for (const Diagnostic& d : game.diagnostics) {
        if (d.severity == Severity::note) continue;
        parser::Diagnostic pd;
        pd.severity = d.severity == Severity::error ? parser::Severity::error : parser::Severity::warning;
        pd.code = d.code;
        pd.message = d.message;
        pd.file = game.source_file;
        pd.line = d.line;
        pd.column = d.column;
        r.diagnostics.push_back(std::move(pd));
    }
    mark_broken(r, game);
    return r;
}

parser::GameRecord game_record(const GameInput& game) {
    parser::GameRecord r;
    fill_record(r, game.kind, game.tags, game.start ? *game.start : AnyPosition::start(game.kind), game.moves, game.result);
    return r;
}

} // namespace gounki::db
