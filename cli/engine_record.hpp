#pragma once
// Engine games as records: what selfplay and match write, in one place.

#include <QDate>

#include <string>

#include "analysis/selfplay.hpp"
#include "parser/record.hpp"

namespace gounki::cli {

// The name an engine setting plays under in records and summaries ("gounki depth 4").
inline std::string engine_name(const analysis::SearchLimits& l) {
    if (l.depth) return "gounki depth " + std::to_string(l.depth);
    if (l.nodes) return "gounki nodes " + std::to_string(l.nodes);
    return "gounki time " + std::to_string(l.time_ms) + " ms";
}

// The record of an engine game: Game, Event, today's Date, Round, players and Result tags, the
// start, every ply, and a Termination tag when the game was adjudicated a draw.
template <class Pos>
parser::GameRecord engine_game_record(const analysis::PlayedGameOf<Pos>& g, const std::string& event, const std::string& white,
                                      const std::string& black, std::size_t round) {
    parser::GameRecord r;
    r.set_start(g.start);
    const std::string result = analysis::result_token(g);
    r.tags = {{"Game", std::string(game_kind_name(r.kind))},
              {"Event", event},
              {"Date", QDate::currentDate().toString("yyyy.MM.dd").toStdString()},
              {"Round", std::to_string(round)},
              {"White", white},
              {"Black", black},
              {"Result", result}};
    if (g.adjudicated)
        r.tags.push_back({"Termination", "adjudicated as a draw after " + std::to_string(g.plies.size()) + " plies"});
    for (const analysis::PlayedPly& p : g.plies) {
        parser::Ply ply;
        ply.move = p.move;
        r.main.plies.push_back(std::move(ply));
    }
    r.result = result;
    r.result_written = true;
    return r;
}

} // namespace gounki::cli
