#include "report/from_record.hpp"

#include <algorithm>
#include <iterator>
#include <string_view>

namespace gounki::report {

ScoreView score_view(analysis::Score s, int win_in) { return {double(s) / 100.0, win_in}; }

Judgement judgement_of(const analysis::PlyJudgement& pj) {
    Judgement j;
    j.best_move = pj.best;
    j.played = score_view(pj.played_score, pj.played_win_in);
    j.best = score_view(pj.best_score, pj.best_win_in);
    j.expected_before = pj.expected_best;
    j.expected_after = pj.expected_played;
    j.verdict = pj.verdict;
    j.best_line = pj.pv;
    j.scored = pj.scored;
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
            LineMove lm{vp.move, pos.side_to_move(), pos, {}, {}, {}};
            lm.variations = record_variations(vp.variations, pos);
            lm.after.play(vp.move);
            lm.nags.assign(vp.nags.begin(), vp.nags.end());
            lm.comments = vp.comments;
            pos = lm.after;
            v.moves.push_back(std::move(lm));
        }
        if (!v.moves.empty() || !v.comments.empty()) out.push_back(std::move(v));
    }
    return out;
}

// The judgement of ply `i` when it judged the move played there.
const analysis::PlyJudgement* judged_ply(const analysis::GameJudgement* judgement, std::size_t i, Move played) {
    if (!judgement || i >= judgement->plies.size() || judgement->plies[i].played != played) return nullptr;
    return &judgement->plies[i];
}

// The main line from the record's start, as far as its moves are legal (a record's main line is
// legal up to its end: a partial game stops before the bad move).
void main_plies(const parser::GameRecord& record, const analysis::GameJudgement* judgement, GameReport& r) {
    AnyPosition pos = record.start;
    for (std::size_t i = 0; i < record.main.plies.size(); ++i) {
        const parser::Ply& rp = record.main.plies[i];
        if (!pos.is_legal(rp.move)) break;
        Ply ply;
        ply.move = rp.move;
        if (const analysis::PlyJudgement* pj = judged_ply(judgement, i, rp.move)) ply.judgement = judgement_of(*pj);
        ply.nags.assign(rp.nags.begin(), rp.nags.end());
        ply.comments = rp.comments;
        ply.variations = record_variations(rp.variations, pos);
        ply.before = pos;
        pos.play(rp.move);
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
    r.start = record.start;
    main_plies(record, judgement, r);
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
