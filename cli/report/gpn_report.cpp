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

// Stone games: parser/'s writer replays Gounki positions only, so their records are written here,
// in the same layout (tags, then movetext wrapped at 79 columns, Black's moves numbered "1."). To
// go when the writer learns stone games.
class StoneRecordWriter {
public:
    StoneRecordWriter(const GameReport& g, const std::string& annotator, const GpnOptions& o) : g_(g), o_(o) {
        auto tag = [&](const std::string& name, const std::string& value) {
            if (value.empty()) return;
            out_ += "[" + name + " \"";
            for (char c : value) {
                if (c == '"' || c == '\\') out_ += '\\';
                out_ += (c == '\n' || c == '\r') ? ' ' : c;
            }
            out_ += "\"]\n";
        };
        tag("Game", std::string(game_kind_name(g.kind)));
        tag("Event", g.event);
        tag("Date", g.date);
        tag("White", g.white.empty() ? "?" : g.white);
        tag("Black", g.black.empty() ? "?" : g.black);
        tag("Result", g.result.empty() ? "*" : g.result);
        for (const Tag& t : stone_rule_tags(g))
            if (t.name != "Game") tag(t.name, t.value);
        if (!starts_from_standard_position(g)) {
            tag("SetUp", "1");
            tag("Position", start_position_text(g));
        }
        for (const Tag& t : g.other_tags)
            if (valid_tag_name(t.name) && t.name != "Annotator" && t.name != "Size" && t.name != "Rules") tag(t.name, t.value);
        tag("Annotator", annotator.empty() ? "gounki" : annotator);
        out_ += "\n";
        line_start_ = out_.size();
    }

    std::string write() && {
        const auto start = stone_start_position(g_);
        if (!start) {
            token("{gounki report: unreadable start position}");
        } else {
            stones::StonePosition pos = *start;
            bool number = true;
            for (std::size_t i = 0; i < g_.plies.size(); ++i) {
                const Ply& p = g_.plies[i];
                const int point = stones::parse_point(p.move, pos.size());
                if (point == stones::no_point || !pos.is_legal(Move::placement(point))) {
                    token("{gounki report: the move " + p.move + " is not legal here; the game is cut off}");
                    break;
                }
                std::string text = numbered(g_, i, number) + p.move;
                number = false;
                if (p.judgement) {
                    const Judgement& j = *p.judgement;
                    text += std::string(verdict_suffix(j.verdict));
                    token(text);
                    if (j.verdict != Verdict::none || o_.comment_every_judged_move) {
                        token("{" + judgement_comment(j) + "}");
                        number = true;
                    }
                    std::vector<std::string> best = j.best_line;
                    if (best.empty() && !j.best_move.empty()) best.push_back(j.best_move);
                    if (j.verdict != Verdict::none && o_.variations && !best.empty() && best[0] != p.move &&
                        variation(pos, i, best))
                        number = true;
                } else {
                    token(text);
                }
                stones::StoneUndo undo;
                pos.play(Move::placement(point), undo);
            }
        }
        token(g_.result.empty() ? "*" : g_.result);
        out_ += "\n\n";
        return std::move(out_);
    }

private:
    // "3. " for the first mover's move, "3... " for the other's when it needs its number.
    static std::string numbered(const GameReport& g, std::size_t ply, bool number) {
        const bool first = g.plies[ply].side == first_mover(g);
        if (!first && !number) return "";
        return move_number_text(g, ply) + " ";
    }

    // The legal moves of `texts` from `pos` (the position before ply `ply`) in parentheses.
    bool variation(stones::StonePosition pos, std::size_t ply, const std::vector<std::string>& texts) {
        std::vector<int> points;
        for (const std::string& t : texts) {
            const int point = stones::parse_point(t, pos.size());
            if (point == stones::no_point || !pos.is_legal(Move::placement(point))) break;
            points.push_back(point);
            stones::StoneUndo undo;
            pos.play(Move::placement(point), undo);
        }
        if (points.empty()) return false;
        // Numbers from the variation's own first ply: ply parity decides who moves.
        const bool first_side = g_.plies[ply].side == first_mover(g_);
        int number = move_number(g_, ply);
        for (std::size_t k = 0; k < points.size(); ++k) {
            const bool first = ((k % 2 == 0) == first_side);
            if (k > 0 && first) ++number;
            std::string text = first || k == 0 ? std::to_string(number) + (first ? ". " : "... ") : "";
            text += stones::point_name(points[k]);
            token(k == 0 ? "(" + text : text);
        }
        out_ += ")";
        return true;
    }

    void token(const std::string& t) {
        if (out_.size() > line_start_) {
            if (out_.size() - line_start_ + 1 + t.size() > 79) {
                out_ += '\n';
                line_start_ = out_.size();
            } else {
                out_ += ' ';
            }
        }
        out_ += t;
    }

    const GameReport& g_;
    const GpnOptions& o_;
    std::string out_;
    std::size_t line_start_ = 0;
};

} // namespace

std::string render_annotated_gpn(const ReportModel& model, const GpnOptions& options) {
    std::string out;
    for (const GameReport& g : model.games) {
        if (is_stone_game(g)) out += StoneRecordWriter(g, model.annotator, options).write();
        else out += parser::write_record(record_of(g, model.annotator, options));
    }
    return out;
}

} // namespace gounki::report
