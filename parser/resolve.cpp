#include "parser/resolve.hpp"
#include "core/text.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstring>

#include "parser/encoding.hpp"
#include "parser/five_rules.hpp"
#include "parser/resolver.hpp"
#include "parser/web_text.hpp"

namespace gounki::parser {

SourceMap::Place SourceMap::locate(std::uint32_t offset) const {
    // Lines and columns are those of the text as written.
    if (offset > places_.size()) offset = std::uint32_t(places_.size());
    std::uint32_t from = 0;
    Place p{line0_, column0_};
    if (cached_ && cache_offset_ <= offset) {
        from = cache_offset_;
        p = cache_;
    }
    // Line ends by memchr; columns only on the last line (UTF-8 characters, CR not counted).
    const char* s = places_.data() + from;
    const char* const e = places_.data() + offset;
    for (const char* q = s; q != e;) {
        const void* nl = std::memchr(q, '\n', std::size_t(e - q));
        if (!nl) break;
        q = static_cast<const char*>(nl) + 1;
        ++p.line;
        p.column = 1;
        s = q;
    }
    for (; s != e; ++s) {
        const auto c = static_cast<unsigned char>(*s);
        p.column += (c & 0xC0) != 0x80 && c != '\r';
    }
    cached_ = true;
    cache_offset_ = offset;
    cache_ = p;
    return p;
}

std::string shortened(const std::string& text) {
    constexpr std::size_t shown = 40;
    if (utf8_length(text) <= shown) return text;
    std::size_t at = 0;
    for (std::size_t chars = 0; at < text.size() && chars < shown; ++chars) {
        std::size_t length = 0;
        first_code_point(std::string_view(text).substr(at), length);
        at += std::max<std::size_t>(length, 1);
    }
    return text.substr(0, at) + "... (" + std::to_string(text.size()) + " bytes)";
}

} // namespace gounki::parser

namespace gounki::parser::resolve_detail {

// A comment's text: trimmed, with Windows line ends read as '\n'.
std::string comment_text(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i)
        if (!(s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n')) out += s[i];
    return trim(out);
}

std::string trim(std::string_view s) {
    std::size_t b = 0, e = s.size();
    while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r' || s[b] == '\n')) ++b;
    while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r' || s[e - 1] == '\n')) --e;
    return std::string(s.substr(b, e - b));
}

const Position& initial_position() {
    static const Position p = Position::start();
    return p;
}

std::string color_name(Color c) { return c == Color::white ? "White" : "Black"; }

std::string files_and_ranks(int size) {
    return cat("files a-", std::string(1, char('a' + size - 1)), ", ranks 1-", std::to_string(size));
}

Diagnostic& Resolver::report(Severity sev, std::string_view code, std::uint32_t offset, std::string message) {
    return add_diagnostic(out_, src_, file_, number_, sev, code, offset, std::move(message));
}

int Resolver::move_number(const LineState& st) const { return number_base_ + (st.ply + st.slots + (black_first_ ? 1 : 0)) / 2; }

bool Resolver::first_of_pair(const LineState& st) const { return (st.ply + st.slots + (black_first_ ? 1 : 0)) % 2 == 0; }

std::string Resolver::move_label(const LineState& st) const {
    return std::to_string(move_number(st)) + (first_of_pair(st) ? "." : "...");
}

namespace {

// A point as the five-in-a-row games write one: a letter and a number (h8, K10).
bool looks_like_stone_point(std::string_view text) {
    return text.size() >= 2 && text.size() <= 3 && std::isalpha(static_cast<unsigned char>(text[0])) &&
        std::all_of(text.begin() + 1, text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// What a record without a Game tag whose first move fails as Gounki most likely is.
std::string no_game_tag_hint() {
    std::vector<std::string_view> names;
    for (const GameInfo& info : games())
        if (info.family != Family::gounki) names.push_back(info.name);
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i)
        list += cat(i == 0 ? "" : i + 1 == names.size() ? " or " : ", ", names[i]);
    return cat("; the record has no Game tag, so it is read as Gounki: a ", list,
               " record says which game it is with a tag such as [Game \"Gomoku\"]");
}

} // namespace

Diagnostic& Resolver::report_move(Severity sev, std::string_view code, const ast::Move& m, const LineState& st,
                                  std::string message) {
    const std::string written(src_.slice(m.offset, m.length));
    if (sev == Severity::error && st.ply == 0 && out_.kind == GameKind::gounki && !out_.tag("Game") && looks_like_stone_point(written))
        message += no_game_tag_hint();
    Diagnostic& d = report(sev, code, m.offset, move_label(st) + " " + written + ": " + std::move(message));
    d.move_number = move_number(st);
    d.side = st.pos.side_to_move();
    d.written = written;
    return d;
}

bool Resolver::resolve_line(const std::vector<ast::Element>& elements, LineState st, Line& line, int depth) {
    LineRun run{elements, st, line, Move::none(), Undo(), depth};
    bool complete = true;
    for (std::size_t i = 0; complete && i < elements.size(); ++i) {
        const auto& node = elements[i].get();
        switch (node.which()) {
        case 0: read_number(boost::get<ast::MoveNumber>(node), run); break;
        case 1: complete = read_move(i, run); break;
        case 2: read_annotation(boost::get<ast::Annotation>(node), run); break;
        case 3: complete = read_comment(boost::get<ast::Comment>(node), run); break;
        case 4: complete = read_variation(boost::get<ast::x3::forward_ast<ast::Variation>>(node).get(), run); break;
        case 5:
            if (depth == 0 && line.plies.empty()) read_players(boost::get<ast::TableHeader>(node));
            break;
        case 6: complete = read_unknown(boost::get<ast::Unknown>(node), run); break;
        }
    }
    if (depth == 0) main_end_ = run.st.pos;
    return complete;
}

void Resolver::read_number(const ast::MoveNumber& n, LineRun& run) {
    LineState& st = run.st;
    last_offset_ = std::max(last_offset_, n.offset + n.length);
    if (run.depth == 0 && st.ply == 0 && set_up_ && !st.number_checked && n.number >= 1 && n.number <= 100000) {
        // A set-up game may go on from any move number: its first number sets the count.
        number_base_ = int(n.number);
        out_.first_number = number_base_;
        st.number_checked = true;
        return;
    }
    if (st.number_checked) return; // one warning per line: after a slip every number is off
    const int expected = move_number(st);
    const bool first = first_of_pair(st);
    if (int(n.number) != expected || (n.ellipsis && first)) {
        st.number_checked = true;
        const std::string want = std::to_string(expected) + (first ? "." : "...");
        report(Severity::warning, "wrong-move-number", n.offset,
               "move number " + std::string(src_.slice(n.offset, n.length)) + " where " + want + " was expected (" +
                   color_name(st.pos.side_to_move()) + " to play)" +
                   (int(n.number) > expected && !n.ellipsis ? "; is a move missing before it?" : ""));
    }
}

bool Resolver::read_move(std::size_t& i, LineRun& run) {
    LineState& st = run.st;
    const bool main = run.depth == 0;
    const ast::Move* written_move = &boost::get<ast::Move>(run.elements[i].get());
    ast::Move grouped;
    const ast::Move* next = move_at(run.elements, i + 1);
    if (!st.pos.stone &&
        (written_move->is_placement() || written_move->form || notation_ != Notation::wikipedia ||
         (written_move->spec.separator == MoveSeparator::deploy && next && next->is_placement()))) {
        switch (group(run.elements, i, st, grouped)) {
        case Group::failed: return false;
        case Group::grouped: written_move = &grouped; break;
        case Group::none: break;
        }
    }
    const ast::Move& m = *written_move;
    last_offset_ = std::max(last_offset_, m.offset + m.length);
    Move move = Move::none();
    Fifth fifth = Fifth::not_fifth;
    if (!st.pos.stone && (m.form & ast::Move::point_exit) && is_board_square(m)) {
        if (!(move = resolve_exit_from(m, st, main))) return false;
    } else if (st.pos.stone || m.is_placement()) {
        if (kurnik_renju_ && main) {
            fifth = read_fifth_move(m, run, move);
            if (fifth == Fifth::offered) return true;
            if (fifth == Fifth::failed) return false;
        }
        if (!move && !(move = resolve_stone(m, st, main, main && m.offset == last_move_offset_))) {
            if (foul_comment_.empty()) return false;
            // Black's foul ended the game: the stone is left out, the game whole, White's win.
            (run.line.plies.empty() ? run.line.comments : run.line.plies.back().comments).push_back(foul_comment_);
            return true;
        }
    } else {
        move = quick_resolve(st.pos.g, m.spec);
        if (!move && !(move = full_resolve(m, st, main))) return false;
    }
    st.pos.do_move(move, run.undo);
    run.last = move;
    if (main && st.pos.game_over()) { // only the last move of a game can end it
        end_ply_ = st.ply;
        GameState before = st.pos;
        before.undo_move(move, run.undo);
        // A game in Go-style points is told in its own letters (`L8`, not gounki's `k8`).
        const std::string text = go_coordinates_ ? std::string(src_.slice(m.offset, m.length)) : move_to_text(before.g, move);
        end_text_ = move_label(LineState{before, st.ply, false, st.slots}) + " " + text;
    }
    ++st.ply;
    Ply& p = run.line.plies.emplace_back();
    p.move = move;
    const std::string_view written = src_.slice(m.offset, m.length);
    p.written.append(written.data(), written.size()); // new and empty: append costs less than assign
    if (fifth == Fifth::chosen) { // the offer White did not choose, as a variation
        for (Offer& o : fifth_offers_) p.variations.push_back(offered_fifth_move(o.move, std::move(o.written)));
        fifth_offers_.clear();
    }
    return true;
}

void Resolver::read_annotation(const ast::Annotation& a, LineRun& run) {
    last_offset_ = std::max(last_offset_, a.offset + a.length);
    const std::string text(src_.slice(a.offset, a.length));
    if (run.line.plies.empty()) {
        report(Severity::warning, "misplaced-annotation", a.offset, "'" + text + "' before any move of the line; ignored");
    } else if (a.value > 255) {
        report(Severity::warning, "bad-nag", a.offset, "NAG " + text + " is out of range ($0..$255); ignored");
    } else {
        run.line.plies.back().nags.push_back(std::uint8_t(a.value));
    }
}

bool Resolver::read_comment(const ast::Comment& c, LineRun& run) {
    last_offset_ = std::max(last_offset_, c.offset + c.length);
    if (!c.closed) {
        report(Severity::error, "unterminated-comment", c.offset,
               "comment '{' is never closed: the rest of the game is inside it");
        return false;
    }
    std::string text = comment_text(c.text);
    if (run.line.plies.empty()) run.line.comments.push_back(std::move(text));
    else run.line.plies.back().comments.push_back(std::move(text));
    return true;
}

bool Resolver::read_variation(const ast::Variation& v, LineRun& run) {
    last_offset_ = std::max(last_offset_, v.offset + v.length);
    bool has_move = false;
    for (const ast::Element& e : v.elements) has_move |= e.get().which() == 1 || e.get().which() == 6;
    if (run.line.plies.empty()) {
        report(Severity::warning, "misplaced-variation", v.offset,
               "a variation before any move of the line has nothing to be an alternative to; ignored");
    } else if (!has_move && v.closed) {
        // Empty, unless it is the variation too deep to read (too-deep says so, alone).
        const bool too_deep = std::any_of(errors_.begin(), errors_.end(),
                                          [&](const ast::SyntaxError& e) { return e.code == "too-deep" && e.offset == v.offset; });
        if (!too_deep) report(Severity::warning, "empty-variation", v.offset, "empty variation; ignored");
    } else {
        Line alt;
        GameState before = run.st.pos;
        before.undo_move(run.last, run.undo);
        LineState vs{before, run.st.ply - 1, false, run.st.slots};
        resolve_line(v.elements, vs, alt, run.depth + 1);
        // A variation broken before its first move holds nothing to keep (its comments
        // alone would be written as an empty variation, which reads back as nothing).
        if (!alt.plies.empty()) run.line.plies.back().variations.push_back(std::move(alt));
    }
    if (!v.closed) {
        report(Severity::error, "unterminated-variation", v.offset,
               "variation '(' is never closed: the rest of the game is inside it");
        return false;
    }
    return true;
}

bool Resolver::read_unknown(const ast::Unknown& u, LineRun& run) {
    const LineState& st = run.st;
    last_offset_ = std::max(last_offset_, u.offset + u.length);
    const std::string text(src_.slice(u.offset, u.length));
    if (text == ")") {
        report(Severity::error, "unmatched-paren", u.offset, "')' closes no variation");
        return true;
    }
    if (st.pos.stone && read_stone_token(text, u, run)) return true;
    if (text == "-" || text == "--") { // a table's empty cell, as a notes column writes it
        report(Severity::warning, "placeholder", u.offset, "'" + text + "' alone read as an empty table cell; ignored");
        return true;
    }
    std::string message;
    auto parsed = parse_move_text(text);
    if (auto* e = std::get_if<MoveTextError>(&parsed); e && e->column > 0)
        message = "cannot be read as a move: at character " + std::to_string(e->column + 1) + ", " + e->message;
    else message = "not a move, move number, comment, NAG or result";
    // A character that is not plain ASCII may be invisible, or look like one that is: name it.
    for (std::size_t k = 0; k < text.size(); ++k) {
        if (static_cast<unsigned char>(text[k]) < 0x80) continue;
        std::size_t length = 0;
        const char32_t cp = first_code_point(std::string_view(text).substr(k), length);
        message += cat("; it holds ", describe_code_point(cp), ", which is not part of any move");
        break;
    }
    MoveList all;
    if (!st.pos.stone) generate_moves(st.pos.g, all);
    const std::string near = st.pos.stone ? std::string() : nearest_move(st.pos.g, text, all);
    if (!near.empty()) message += "; did you mean " + near + "?";
    if (st.pos.stone) {
        const int size = st.pos.s.size();
        message += cat("; a ", game_kind_name(out_.kind), " move is a point such as h8 (", files_and_ranks(size), ")");
    }
    const std::string shown = shortened(text);
    Diagnostic& d = report(Severity::error, "bad-move", u.offset, move_label(st) + " " + shown + ": " + message);
    d.move_number = move_number(st);
    d.side = st.pos.side_to_move();
    d.written = shown;
    d.suggestion = near;
    return false;
}

void Resolver::run() {
    out_.clear();
    out_.file = file_;
    out_.number = number_;
    const SourceMap::Place start = src_.locate(game_.offset);
    out_.line = start.line;
    out_.column = start.column;
    read_tags();
    for (const ast::SyntaxError& e : errors_) {
        Diagnostic& d = report(Severity::error, e.code, e.offset, e.message);
        d.written = std::string(src_.slice(e.start, std::uint32_t(src_.text().find('\n', e.start) - e.start)));
        while (!d.written.empty() && (d.written.back() == '\r' || d.written.back() == ' ')) d.written.pop_back();
        if (e.truncates) main_cut_ = true;
    }
    for (const ast::Comment& c : game_.header_comments) {
        if (!c.closed) {
            report(Severity::error, "unterminated-comment", c.offset,
                   "comment '{' is never closed: the rest of the game is inside it");
            main_cut_ = true;
        } else {
            out_.main.comments.push_back(comment_text(c.text));
        }
    }
    main_end_ = GameState::of(out_.start);
    if (!set_up()) {
        main_cut_ = true;
    } else {
        std::size_t moves = 0;
        for (const ast::Element& e : game_.elements) moves += e.get().which() == 1;
        out_.main.plies.reserve(moves);
        main_end_ = GameState::of(out_.start);
        if (out_.kind == GameKind::gounki) {
            notation_ = forced_ != Notation::automatic ? forced_ : detect_notation(game_.elements);
            out_.notation = notation_;
        }
        // The main line's last move, when only move numbers, NAGs and comments follow it.
        for (const ast::Element& e : game_.elements) {
            const int which = e.get().which();
            if (which == 1) last_move_offset_ = boost::get<ast::Move>(e.get()).offset;
            else if (which == 4 || which == 6) last_move_offset_ = no_offset; // a variation, a word
        }
        LineState st{main_end_, 0, false};
        if (!resolve_line(game_.elements, st, out_.main, 0)) main_cut_ = true;
        apply_playok();
    }
    if (!main_cut_) {
        for (const ast::Comment& c : game_.trailing_comments) {
            std::string text = comment_text(c.text);
            if (out_.main.plies.empty()) out_.main.comments.push_back(std::move(text));
            else out_.main.plies.back().comments.push_back(std::move(text));
        }
    }
    check_status_tag(); // before the result: a partial game's result is not checked against its board
    check_result();
    std::stable_sort(out_.diagnostics.begin(), out_.diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
        return a.line != b.line ? a.line < b.line : a.column < b.column;
    });
    if (main_cut_) out_.status = GameStatus::partial;
    else if (out_.error_count()) out_.status = GameStatus::invalid;
    else out_.status = GameStatus::valid;
}

} // namespace gounki::parser::resolve_detail

namespace gounki::parser {

using namespace resolve_detail;

Diagnostic& add_diagnostic(GameRecord& out, const SourceMap& source, const std::string& file, int game, Severity sev,
                           std::string_view code, std::uint32_t offset, std::string message) {
    Diagnostic d;
    d.severity = sev;
    d.code = std::string(code);
    d.message = std::move(message);
    d.file = file;
    const SourceMap::Place p = source.locate(offset);
    d.line = p.line;
    d.column = p.column;
    d.game = game;
    out.diagnostics.push_back(std::move(d));
    return out.diagnostics.back();
}

void resolve_game(const ast::Game& game, const SourceMap& source, std::span<const ast::SyntaxError> errors,
                  const std::string& file, int number, GameRecord& out, Notation notation) {
    Resolver(game, source, errors, file, number, out, notation).run();
}

void read_game_header(const ast::Game& game, const SourceMap& source, const std::string& file, int number, GameRecord& out) {
    out.clear();
    out.file = file;
    out.number = number;
    const SourceMap::Place start = source.locate(game.offset);
    out.line = start.line;
    out.column = start.column;
    for (const ast::Tag& t : game.tags) {
        std::string value;
        for (std::size_t i = 0; i < t.raw_value.size(); ++i) {
            const char c = t.raw_value[i];
            if (c == '\\' && i + 1 < t.raw_value.size() && (t.raw_value[i + 1] == '"' || t.raw_value[i + 1] == '\\'))
                value += t.raw_value[++i];
            else value += c;
        }
        out.tags.emplace_back(t.name, std::move(value));
    }
    normalize_date_tag(out.tags);
    if (const std::string* g = out.tag("Game"))
        if (const auto kind = parse_game_kind(*g)) out.set_kind(*kind);
    if (game.result.value != ast::Result::none) {
        out.result = std::string(result_text(game.result.value));
        out.result_written = true;
    } else if (const std::string* r = out.tag("Result"); r && is_result_text(result_tag_value(*r))) {
        out.result = result_tag_value(*r);
    }
}

} // namespace gounki::parser