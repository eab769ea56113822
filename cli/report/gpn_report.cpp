// render_annotated_gpn: annotated records through parser/'s canonical writer, so that what is
// written reads back as the same game (parse, write, parse gives it back).
#include <cctype>

#include "cli/report/format.hpp"
#include "cli/report/render.hpp"
#include "core/notation.hpp"
#include "parser/writer.hpp"

namespace gounki::report {

namespace {

bool valid_tag_name(std::string_view name) {
    if (name.empty()) return false;
    for (char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
}

// How a game's moves are read back from their texts and played, Gounki or stone game alike.
struct GounkiReplay {
    Position pos;
    Move read(const std::string& text) const { return resolve_move_text(pos, text).move; }
    void play(Move m) {
        UndoRecord u;
        pos.do_move(m, u);
    }
};

struct StoneReplay {
    stones::StonePosition pos;
    Move read(const std::string& text) const {
        const int point = stones::parse_point(text, pos.size());
        if (point == stones::no_point || !pos.is_legal(Move::placement(point))) return Move::none();
        return Move::placement(point);
    }
    void play(Move m) {
        stones::StoneUndo u;
        pos.play(m, u);
    }
};

// The moves of `texts` from `replay`'s position as a line, up to the first one that is not legal.
template <class Replay>
parser::Line line_of(Replay replay, const std::vector<std::string>& texts) {
    parser::Line line;
    for (const std::string& t : texts) {
        const Move m = replay.read(t);
        if (!m) break;
        line.plies.emplace_back(m);
        replay.play(m);
    }
    return line;
}

template <class Replay>
void add_plies(parser::GameRecord& rec, const GameReport& g, Replay replay, const GpnOptions& o) {
    for (const Ply& p : g.plies) {
        const Move move = replay.read(p.move);
        if (!move) {
            // A model that does not replay: say so where it stops rather than write a broken record.
            const std::string note = "gounki report: the move " + p.move + " is not legal here; the game is cut off";
            if (rec.main.plies.empty()) rec.main.comments.push_back(note);
            else rec.main.plies.back().comments.push_back(note);
            break;
        }
        parser::Ply ply(move);
        if (p.judgement) {
            const Judgement& j = *p.judgement;
            if (const int nag = verdict_nag(j.verdict)) ply.nags.push_back(std::uint8_t(nag));
            if (j.verdict != Verdict::none || o.comment_every_judged_move) ply.comments.push_back(judgement_comment(j));
            std::vector<std::string> best = j.best_line;
            if (best.empty() && !j.best_move.empty()) best.push_back(j.best_move);
            if (j.verdict != Verdict::none && o.variations && !best.empty() && best[0] != p.move) {
                parser::Line v = line_of(replay, best);
                if (!v.plies.empty()) ply.variations.push_back(std::move(v));
            }
        }
        rec.main.plies.push_back(std::move(ply));
        replay.play(move);
    }
}

parser::GameRecord record_of(const GameReport& g, const std::string& annotator, const GpnOptions& o) {
    parser::GameRecord rec;
    auto tag = [&](const std::string& name, const std::string& value) {
        if (!value.empty()) rec.tags.emplace_back(name, value);
    };
    tag("Event", g.event);
    tag("Date", g.date);
    tag("White", g.white.empty() ? "?" : g.white);
    tag("Black", g.black.empty() ? "?" : g.black);
    tag("Result", g.result);
    for (const Tag& t : g.other_tags)
        if (valid_tag_name(t.name) && t.name != "Annotator") tag(t.name, t.value);
    tag("Annotator", annotator.empty() ? "gounki" : annotator);
    rec.result = g.result.empty() ? "*" : g.result;
    rec.kind = g.kind;
    if (is_stone_game(g)) {
        // An unreadable start leaves the empty board: the moves then stop where they do not fit.
        rec.stone_start = stone_start_position(g).value_or(stones::StonePosition(stones::Rules::defaults(g.kind)));
        add_plies(rec, g, StoneReplay{rec.stone_start}, o);
    } else {
        auto start = Position::from_text(start_position_text(g));
        if (auto* p = std::get_if<Position>(&start)) rec.start = *p;
        add_plies(rec, g, GounkiReplay{rec.start}, o);
    }
    return rec;
}

} // namespace

std::string render_annotated_gpn(const ReportModel& model, const GpnOptions& options) {
    std::string out;
    for (const GameReport& g : model.games)
        out += parser::write_record(record_of(g, model.annotator, options), options.notation);
    return out;
}

} // namespace gounki::report
