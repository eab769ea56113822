// render_annotated_gpn: annotated records through parser/'s canonical writer, so that what is
// written reads back as the same game (parse, write, parse gives it back).
#include <algorithm>
#include <cctype>

#include "report/format.hpp"
#include "report/render.hpp"
#include "parser/writer.hpp"

namespace gounki::report {

namespace {

bool valid_tag_name(std::string_view name) {
    if (name.empty()) return false;
    for (char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
}

// The moves of `moves` from `pos` as a line, up to the first one that is not legal.
parser::Line line_of(AnyPosition pos, const std::vector<Move>& moves) {
    parser::Line line;
    for (Move m : moves) {
        if (!pos.is_legal(m)) break;
        line.plies.emplace_back(m);
        pos.play(m);
    }
    return line;
}

// The record's own variations (report_model.hpp's Variation) of a move played from `before`, back
// as the record's lines, nested as they were, each as far as its moves replay.
std::vector<parser::Line> record_lines(const std::vector<Variation>& variations, const AnyPosition& before) {
    std::vector<parser::Line> out;
    for (const Variation& v : variations) {
        parser::Line line;
        line.comments = v.comments;
        AnyPosition pos = before;
        for (const LineMove& lm : v.moves) {
            const Move m = lm.move;
            if (!pos.is_legal(m)) break;
            parser::Ply ply(m);
            for (int n : lm.nags) ply.nags.push_back(std::uint8_t(n));
            ply.comments = lm.comments;
            ply.variations = record_lines(lm.variations, pos);
            line.plies.push_back(std::move(ply));
            pos.play(m);
        }
        // A line none of whose moves replays is left out: a variation needs a move (the reader never
        // gives such a line: it holds the record's legal variations only).
        if (!line.plies.empty()) out.push_back(std::move(line));
    }
    return out;
}

// What the engine adds to a ply already holding the record's own NAGs, comments and variations:
// its mark (unless the record has it already), its comment, and its best line as a variation of
// its own, after the record's, opened by a comment that names it the engine's.
void add_judgement(parser::Ply& ply, const Ply& p, const AnyPosition& before, const GpnOptions& o) {
    const Judgement& j = *p.judgement;
    if (const int nag = verdict_nag(j.verdict); nag && std::find(ply.nags.begin(), ply.nags.end(), nag) == ply.nags.end())
        ply.nags.push_back(std::uint8_t(nag));
    // A move the engine would not have played but gave no evaluation to grade: said as a verdict is.
    const bool ungraded_other = !j.scored && j.best_move && j.best_move != p.move;
    if (j.verdict != Verdict::best || ungraded_other || o.comment_every_judged_move)
        ply.comments.push_back(judgement_comment(j, before, p.move));
    std::vector<Move> best = j.best_line;
    if (best.empty() && j.best_move) best.push_back(j.best_move);
    if (j.verdict != Verdict::best && o.variations && !best.empty() && best[0] != p.move) {
        parser::Line v = line_of(before, best);
        if (!v.plies.empty()) {
            v.comments.push_back(engine_line_comment());
            ply.variations.push_back(std::move(v));
        }
    }
}

void add_plies(parser::GameRecord& rec, const GameReport& g, AnyPosition replay, const GpnOptions& o) {
    for (const Ply& p : g.plies) {
        const Move move = p.move;
        if (!replay.is_legal(move)) {
            // A model that does not replay: say so where it stops rather than write a broken record.
            const std::string note = "gounki report: the move " + move_text(p) + " is not legal here; the game is cut off";
            if (rec.main.plies.empty()) rec.main.comments.push_back(note);
            else rec.main.plies.back().comments.push_back(note);
            break;
        }
        parser::Ply ply(move);
        for (int n : p.nags) ply.nags.push_back(std::uint8_t(n));
        ply.comments = p.comments;
        ply.variations = record_lines(p.variations, replay);
        if (p.judgement) add_judgement(ply, p, replay, o);
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
    const AnyPosition start = start_position(g);
    rec.set_start(start);
    rec.main.comments = g.comments;
    add_plies(rec, g, start, o);
    // A broken game says so where it broke: after its last move when partial, before its moves
    // when invalid (its Status tag comes with the other tags).
    if (const std::string note = broken_note(g); !note.empty()) {
        if (g.status == "partial" && !rec.main.plies.empty()) rec.main.plies.back().comments.push_back(note);
        else rec.main.comments.push_back(note);
    }
    return rec;
}

} // namespace

std::string render_annotated_gpn(const ReportModel& model, const GpnOptions& options) {
    std::string out;
    for (const GameReport& g : model.games)
        out += parser::write_record(record_of(g, g.annotator.empty() ? model.annotator : g.annotator, options), options.notation);
    return out;
}

} // namespace gounki::report
