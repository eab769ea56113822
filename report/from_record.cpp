#include "report/from_record.hpp"

#include <algorithm>
#include <iterator>
#include <string_view>

#include "core/gounki/notation.hpp"

namespace gounki::report {

// The same values (report_model.cpp checks it), `best` being the report's `none`.
Verdict report_verdict(analysis::Verdict v) { return Verdict(int(v)); }

ScoreView score_view(analysis::Score s, int win_in) { return {double(s) / 100.0, win_in}; }

Judgement judgement_of(const analysis::PlyJudgement& pj, std::string best_move, std::vector<std::string> best_line) {
    Judgement j;
    j.best_move = std::move(best_move);
    j.played = score_view(pj.played_score, pj.played_win_in);
    j.best = score_view(pj.best_score, pj.best_win_in);
    j.expected_before = pj.expected_best;
    j.expected_after = pj.expected_played;
    j.verdict = report_verdict(pj.verdict);
    j.best_line = std::move(best_line);
    return j;
}

namespace {

// The record's variations of a move, each replayed from `before` (the position before the move) as
// far as its moves are legal, with the variations inside them at every depth.
std::vector<Variation> record_variations(const std::vector<parser::Line>& lines, const AnyPosition& before) {
    std::vector<Variation> out;
    for (const parser::Line& line : lines) {
        Variation v;
        v.comments = line.comments;
        AnyPosition pos = before;
        for (const parser::Ply& vp : line.plies) {
            if (!pos.is_legal(vp.move)) break;
            LineMove lm{
                pos.gounki() ? move_to_text(*pos.gounki(), vp.move) : pos.move_text(vp.move), pos.side_to_move(), pos, {}, {}, {}};
            lm.variations = record_variations(vp.variations, pos);
            pos.play(vp.move);
            lm.after = pos;
            lm.nags.assign(vp.nags.begin(), vp.nags.end());
            lm.comments = vp.comments;
            v.moves.push_back(std::move(lm));
        }
        if (!v.moves.empty() || !v.comments.empty()) out.push_back(std::move(v));
    }
    return out;
}

// The record's NAGs, comments and variations of a ply.
void record_notes(const parser::Ply& rp, const AnyPosition& before, Ply& ply) {
    ply.nags.assign(rp.nags.begin(), rp.nags.end());
    ply.comments = rp.comments;
    ply.variations = record_variations(rp.variations, before);
}

// The positions after each move of the engine's line from `before`, as far as they are legal.
std::vector<AnyPosition> line_positions(const AnyPosition& before, const std::vector<Move>& pv) {
    std::vector<AnyPosition> out;
    AnyPosition pos = before;
    for (Move m : pv) {
        if (!pos.is_legal(m)) break;
        pos.play(m);
        out.push_back(pos);
    }
    return out;
}

// The judgement of ply `i` when it judged the move played there.
const analysis::PlyJudgement* judged_ply(const analysis::GameJudgement* judgement, std::size_t i, Move played) {
    if (!judgement || i >= judgement->plies.size() || judgement->plies[i].played != played) return nullptr;
    return &judgement->plies[i];
}

void gounki_plies(const parser::GameRecord& record, const analysis::GameJudgement* judgement, GameReport& r) {
    if (!(record.start == AnyPosition::start(GameKind::gounki))) r.start_position = record.start.to_text();
    Position pos = record.start.as_gounki();
    for (std::size_t i = 0; i < record.main.plies.size(); ++i) {
        const Move m = record.main.plies[i].move;
        Ply ply;
        ply.move = move_to_text(pos, m);
        ply.side = pos.side_to_move();
        ply.position_before = pos.to_text();
        if (const analysis::PlyJudgement* pj = judged_ply(judgement, i, m)) {
            std::vector<std::string> line;
            Position after = pos;
            UndoRecord undo;
            for (Move b : pj->pv) {
                line.push_back(move_to_text(after, b));
                after.do_move(b, undo);
            }
            ply.judgement = judgement_of(*pj, pj->best ? move_to_text(pos, pj->best) : std::string(), std::move(line));
            ply.judgement->best_line_after = line_positions(pos, pj->pv);
        }
        record_notes(record.main.plies[i], pos, ply);
        UndoRecord undo;
        pos.do_move(m, undo);
        ply.after = AnyPosition(pos);
        r.plies.push_back(std::move(ply));
    }
}

// A stone move's text needs no position: it is the point's name.
std::string point_text(Move m) { return m && m.type() == MoveType::placement ? stones::point_name(m.point()) : std::string(); }

void stone_plies(const parser::GameRecord& record, const analysis::GameJudgement* judgement, GameReport& r) {
    stones::StonePosition pos = record.start.as_stones();
    r.start_position = pos.to_text();
    for (std::size_t i = 0; i < record.main.plies.size(); ++i) {
        const Move m = record.main.plies[i].move;
        // A record's main line is legal up to its end (a partial game stops before the bad move).
        if (m.type() != MoveType::placement || !pos.is_legal(m)) break;
        Ply ply;
        ply.move = point_text(m);
        ply.side = pos.side_to_move();
        ply.position_before = pos.to_text();
        if (const analysis::PlyJudgement* pj = judged_ply(judgement, i, m)) {
            std::vector<std::string> line;
            for (Move b : pj->pv) line.push_back(point_text(b));
            ply.judgement = judgement_of(*pj, point_text(pj->best), std::move(line));
            ply.judgement->best_line_after = line_positions(pos, pj->pv);
        }
        record_notes(record.main.plies[i], pos, ply);
        stones::StoneUndo undo;
        pos.play(m, undo);
        ply.after = AnyPosition(pos);
        r.plies.push_back(std::move(ply));
    }
}

} // namespace

GameReport game_report(const parser::GameRecord& record, const analysis::GameJudgement* judgement) {
    GameReport r;
    r.kind = record.kind;
    auto value = [&](std::string_view name) {
        const std::string* v = record.tag(name);
        return v ? *v : std::string();
    };
    r.event = value("Event");
    r.date = value("Date");
    r.white = value("White");
    r.black = value("Black");
    r.result = record.result.empty() ? "*" : record.result;
    // Shown from the fields above, or from the start position (stone_rule_tags for Size and Rules).
    static constexpr std::string_view shown[] = {"Game",   "Event", "Date",     "White", "Black",
                                                 "Result", "SetUp", "Position", "Size",  "Rules"};
    for (const auto& [name, v] : record.tags) {
        const bool stone_tag = name == "Size" || name == "Rules";
        if ((stone_tag && !record.is_stone_game()) || std::find(std::begin(shown), std::end(shown), name) == std::end(shown))
            r.other_tags.push_back({name, v});
    }
    r.comments = record.main.comments;
    if (record.is_stone_game()) stone_plies(record, judgement, r);
    else gounki_plies(record, judgement, r);
    if (record.status != parser::GameStatus::valid) {
        r.status = std::string(parser::status_name(record.status));
        for (const parser::Diagnostic& d : record.diagnostics)
            if (d.severity == parser::Severity::error) r.problems.push_back(d.message + " [" + d.code + "]");
    }
    summarize(r);
    if (judgement)
        for (int c = 0; c < 2; ++c)
            if (judgement->sides[c].moves > 0) r.summary[c].accuracy = judgement->sides[c].accuracy;
    return r;
}

} // namespace gounki::report
