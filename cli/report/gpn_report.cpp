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

// The moves of `texts` from `pos` as a line, up to the first one that is not legal there.
parser::Line line_of(Position pos, const std::vector<std::string>& texts) {
    parser::Line line;
    for (const std::string& t : texts) {
        const Resolution r = resolve_move_text(pos, t);
        if (!r.move) break;
        line.plies.push_back({r.move, {}, {}, {}, {}});
        UndoRecord u;
        pos.do_move(r.move, u);
    }
    return line;
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
    auto start = Position::from_text(start_position_text(g));
    if (auto* p = std::get_if<Position>(&start)) rec.start = *p;
    Position pos = rec.start;
    for (const Ply& p : g.plies) {
        const Resolution r = resolve_move_text(pos, p.move);
        if (!r.move) {
            // A model that does not replay: say so where it stops rather than write a broken record.
            const std::string note = "gounki report: the move " + p.move + " is not legal here; the game is cut off";
            if (rec.main.plies.empty()) rec.main.comments.push_back(note);
            else rec.main.plies.back().comments.push_back(note);
            break;
        }
        parser::Ply ply{r.move, {}, {}, {}, {}};
        if (p.judgement) {
            const Judgement& j = *p.judgement;
            if (const int nag = verdict_nag(j.verdict)) ply.nags.push_back(std::uint8_t(nag));
            if (j.verdict != Verdict::none || o.comment_every_judged_move) ply.comments.push_back(judgement_comment(j));
            std::vector<std::string> best = j.best_line;
            if (best.empty() && !j.best_move.empty()) best.push_back(j.best_move);
            if (j.verdict != Verdict::none && o.variations && !best.empty() && best[0] != p.move) {
                parser::Line v = line_of(pos, best);
                if (!v.plies.empty()) ply.variations.push_back(std::move(v));
            }
        }
        rec.main.plies.push_back(std::move(ply));
        UndoRecord u;
        pos.do_move(r.move, u);
    }
    return rec;
}

} // namespace

std::string render_annotated_gpn(const ReportModel& model, const GpnOptions& options) {
    std::string out;
    for (const GameReport& g : model.games) out += parser::write_record(record_of(g, model.annotator, options));
    return out;
}

} // namespace gounki::report
