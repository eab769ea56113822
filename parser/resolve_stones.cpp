#include "parser/resolver.hpp"

#include "parser/five_rules.hpp"

#include <algorithm>
#include <array>

namespace gounki::parser::resolve_detail {

std::string go_files_and_ranks(int size) {
    const char last = char('A' + size - (size > 8 ? 0 : 1));
    return cat("columns A-", std::string(1, last), " without I, rows 1-", std::to_string(size), " from the bottom");
}

// docs/rules.md 2.3, Coordinates: Go style when every point is written in upper case and the Site
// names pente.org, or a column T appears on a board of fewer than 20 columns (algebraic columns
// of 19x19 end at S), or none is in column I and some are past it on 19x19 (`K10`, pente.org's way).
bool Resolver::detect_go_coordinates(int size) const {
    const std::string* site = out_.tag("Site");
    const bool pente_org = site && lower(*site).find("pente.org") != std::string::npos;
    bool t = false, i = false, past_i = false, upper = true, any = false;
    for (const ast::Element& e : game_.elements) {
        if (e.get().which() != 1) continue;
        const ast::Move& m = boost::get<ast::Move>(e.get());
        if (!m.is_placement() || m.length == 0) continue;
        const char c = src_.slice(m.offset, 1)[0];
        const char l = char(c | 0x20);
        any = true;
        t |= l == 't';
        i |= l == 'i';
        past_i |= l > 'i';
        upper &= c >= 'A' && c <= 'Z';
    }
    if (!any || !upper) return false; // gounki's own export of a pente.org game writes k10, in lower case
    return pente_org || (t && size < 20) || (!i && past_i && size == 19);
}

Move Resolver::resolve_stone(const ast::Move& m, const LineState& st, bool main, bool last) {
    if (!st.pos.stone) { // a point alone in a Gounki game
        report_move(Severity::error, "bad-move", m, st,
                    "a point alone is a move of a stone game; a Gounki move names a stack and where it goes "
                    "(e.g. c2-d3); for a stone game, add a [Game \"Gomoku\"], [Game \"Ninuki\"], [Game \"Pente\"] or [Game "
                    "\"Renju\"] tag");
        return Move::none();
    }
    const stones::StonePosition& pos = st.pos.s;
    if (!m.is_placement() || m.form) {
        report_move(Severity::error, "bad-move", m, st,
                    cat("a ", game_kind_name(out_.kind), " move is a point such as h8, not a Gounki move"));
        return Move::none();
    }
    const int size = pos.size();
    int file = m.place_file;
    if (go_coordinates_) { // A-H, then J-T: the letter I is skipped
        if (file == 8) {
            report_move(
                Severity::error, "illegal-move", m, st,
                cat("this game is written in Go-style coordinates (", go_files_and_ranks(size), "), which have no column I"));
            return Move::none();
        }
        if (file > 8) --file;
    }
    if (file >= size || m.place_rank >= size) {
        report_move(Severity::error, "illegal-move", m, st,
                    cat("the point is off the ", std::to_string(size), "x", std::to_string(size), " board (",
                        go_coordinates_ ? go_files_and_ranks(size) : files_and_ranks(size), ")"));
        return Move::none();
    }
    const Move move = Move::placement(stones::make_point(file, m.place_rank));
    const stones::PlaceError e = pos.check(move);
    if (e == stones::PlaceError::none) {
        if (pos.breaks_tournament_rule(move.point()))
            report_move(Severity::warning, "tournament-rule", m, st, std::string(pos.tournament_rule_text()));
        if (const std::string breach = opening_rule_breach(out_, pos, move.point()); !breach.empty())
            report_move(Severity::warning, "opening-rule", m, st, breach);
        return move;
    }
    if (e == stones::PlaceError::game_over) {
        std::string how = "the game is already over";
        if (main && end_ply_ >= 0)
            how += pos.outcome() == Outcome::draw
                ? cat(" (drawn after ", end_text_, ")")
                : cat(" (", pos.outcome() == Outcome::white_wins ? "White" : "Black", " won with ", end_text_, ")");
        report_move(Severity::error, "move-after-end", m, st, how + "; no move can follow");
        return Move::none();
    }
    std::string message(stones::place_error_text(e));
    if (e == stones::PlaceError::occupied)
        message = cat("the point is occupied by a ", pos.at(move.point()) == stones::Stone::black ? "black" : "white", " stone");
    if (const auto foul = last ? foul_ending(pos, move.point(), e, src_.slice(m.offset, m.length)) : std::nullopt) {
        if (stated_result() == "1-0") {
            report_move(Severity::warning, "foul", m, st, foul->warning).left_out = true;
            foul_comment_ = foul->comment;
            return Move::none();
        }
        message += foul_result_hint();
    }
    report_move(Severity::error, "illegal-move", m, st, message);
    return Move::none();
}

bool Resolver::read_stone_token(const std::string& text, const ast::Unknown& u, LineRun& run) {
    const std::string l = lower(text);
    if (l == "resign" || l == "forfeit") { // pente.org: kept as a comment on the last move
        if (run.line.plies.empty()) run.line.comments.push_back(text);
        else run.line.plies.back().comments.push_back(text);
        return true;
    }
    // A colour choice in a PlayOK record: swap2's (GameType 61), or the swap after three stones of
    // kurnik's older gomoku (60).
    if (!playok_ || run.depth != 0 || (l != "black" && l != "white" && l != "--")) return false;
    if (l != "--") {
        const int column = first_of_pair(run.st) ? 1 : 2;
        if (swap_choice_column_ != 0) {
            report(Severity::warning, "swap2-choice", u.offset,
                   cat("a second swap2 colour choice '", text, "'; the first one stands"));
        } else {
            swap_choice_column_ = column;
            swap_choice_ = l == "black" ? Color::black : Color::white;
        }
    }
    ++run.st.slots; // a choice or a pass takes a move's place in the numbering, and places no stone
    return true;
}

bool playok_game_type(std::string_view v, int& size) {
    const std::string t = trim(v);
    if (t.size() < 4 || t[0] != '6' || (t[1] != '0' && t[1] != '1') || t[2] != ',') return false;
    size = 0;
    for (std::size_t i = 3; i < t.size(); ++i) {
        if (t[i] < '0' || t[i] > '9' || size > 100) return false;
        size = size * 10 + (t[i] - '0');
    }
    return true;
}

bool Resolver::is_kurnik_renju() const {
    const std::string* site = out_.tag("Site");
    if (!site || lower(*site).find("kurnik") == std::string::npos || out_.tag("GameType")) return false;
    // The first pair: `1. h8 --`, the opener's first stone and the other player's pass.
    const ast::Move* first = nullptr;
    for (const ast::Element& e : game_.elements) {
        const int which = e.get().which();
        if (which == 0 || which == 3) continue; // move numbers, comments
        if (!first) {
            if (which != 1) return false;
            first = &boost::get<ast::Move>(e.get());
            if (!first->is_placement() || first->form) return false;
            continue;
        }
        if (which != 6) return false;
        const ast::Unknown& u = boost::get<ast::Unknown>(e.get());
        return src_.slice(u.offset, u.length) == "--";
    }
    return false;
}

// docs/rules.md 2.5, kurnik: after the fourth stone Black offers two fifth moves (`5. j7 -- 6. i7`)
// and White's choice repeats one of them (`6. ... i7`); only the choice is played.
Resolver::Fifth Resolver::read_fifth_move(const ast::Move& m, LineRun& run, Move& move) {
    LineState& st = run.st;
    if (st.ply != 4) return Fifth::not_fifth;
    const Move point = resolve_stone(m, st, true); // an offer too must be a fifth move Black can play
    if (!point) return Fifth::failed;
    if (fifth_offers_.size() < 2) {
        fifth_offers_.push_back({point, std::string(src_.slice(m.offset, m.length))});
        if (fifth_offers_.size() == 2) {
            const std::array<int, 2> points{fifth_offers_[0].move.point(), fifth_offers_[1].move.point()};
            const std::array<std::string, 2> written{fifth_offers_[0].written, fifth_offers_[1].written};
            if (const std::string same = same_fifth_offers_text(st.pos.s, points, written); !same.empty())
                report_move(Severity::warning, "opening-rule", m, st, same);
        }
        ++st.slots; // an offer takes a move's place in the numbering and places no stone
        return Fifth::offered;
    }
    const auto chosen =
        std::find_if(fifth_offers_.begin(), fifth_offers_.end(), [&](const Offer& o) { return o.move == point; });
    if (chosen == fifth_offers_.end()) {
        report_move(Severity::error, "fifth-move-choice", m, st,
                    cat("White chose a fifth move Black did not offer (", fifth_offers_[0].written, " and ",
                        fifth_offers_[1].written, ")"));
        return Fifth::failed;
    }
    fifth_offers_.erase(chosen);
    move = point;
    return Fifth::chosen;
}

void Resolver::apply_playok() {
    if (!fifth_offers_.empty() && !main_cut_) { // kurnik Renju: the record ends before White's choice
        std::string offers;
        for (const Offer& o : fifth_offers_) offers += cat(offers.empty() ? "" : " and ", o.written);
        report(Severity::warning, "fifth-move-choice", last_offset_,
               cat("Black offered the fifth moves ", offers, " and the record ends before White chose one"));
        out_.main.plies.back().comments.push_back(cat("offered fifth moves ", offers));
    }
    if (!playok_) return;
    // Column 1 is the Black tag's player, the one who opened. After a choice, that player holds
    // White when column 1 chose White or column 2 chose Black.
    const bool swapped = swap_choice_column_ != 0 && ((swap_choice_column_ == 1) == (swap_choice_ == Color::white));
    if (!swapped) { // `1-0` is column 1's win: Black's
        put_result_in_colours("PlayOKResult");
        return;
    }
    auto swap_tags = [&](const char* black, const char* white) {
        std::string* b = nullptr;
        std::string* w = nullptr;
        for (auto& [name, value] : out_.tags) {
            if (name == black && !b) b = &value;
            if (name == white && !w) w = &value;
        }
        const std::string ob = b ? *b : std::string(), ow = w ? *w : std::string();
        if (b) out_.tags.emplace_back(cat("Swap2", black), ob);
        if (w) out_.tags.emplace_back(cat("Swap2", white), ow);
        for (auto& [name, value] : out_.tags) {
            if (name == black) value = ow;
            else if (name == white) value = ob;
        }
    };
    swap_tags("Black", "White");
    swap_tags("BlackElo", "WhiteElo");
    swap_tags("BlackRank", "WhiteRank"); // kurnik's ratings
}

} // namespace gounki::parser::resolve_detail
