#include "cli/game_ply.hpp"

#include "db/record_bridge.hpp"

namespace gounki::cli {

void add_ply_option(QCommandLineParser& p) {
    p.addOption({"ply", "The board after this many plies of the game (0: its start; 'end', the default: after the last move).",
                 "N", "end"});
}

std::optional<GamePly> read_game_ply(const Command& cmd, const QCommandLineParser& p, const db::StoredGame& game) {
    const int plies = int(game.moves.size());
    const QString text = p.value("ply").trimmed();
    int ply = plies;
    if (text.compare("end", Qt::CaseInsensitive) != 0) {
        bool ok = false;
        ply = text.toInt(&ok);
        if (!ok || ply < 0) {
            usage_error(cmd, "--ply must be a number of plies (0 for the start) or 'end', got '" + text.toStdString() + "'");
            return std::nullopt;
        }
        if (ply > plies) {
            usage_error(cmd,
                        "--ply " + std::to_string(ply) + ": game " + std::to_string(game.summary.id) + " has " +
                            counted(plies, "ply", "plies") + " (--ply 0 to " + std::to_string(plies) + ")");
            return std::nullopt;
        }
    }
    GamePly at{game.start, ply, plies, Move{}, {}, {}};
    // Moves are numbered from 1, a number for each move of the first mover; a set-up position with
    // the other side to move starts with "1...".
    const int offset = at.position.side_to_move() == first_mover(game.summary.kind) ? 0 : 1;
    for (int i = 0; i < ply; ++i) {
        const Move m = game.moves[std::size_t(i)];
        if (i + 1 == ply) {
            const bool first_side = at.position.side_to_move() == first_mover(game.summary.kind);
            const int number = 1 + (i + offset) / 2;
            at.last_text = std::to_string(number) + (first_side ? ". " : "... ") + at.position.move_text(m);
            at.last = m;
        }
        at.position.play(m);
    }
    return at;
}

std::string game_ply_heading(const db::StoredGame& game, const GamePly& at) {
    std::string out = "game " + std::to_string(game.summary.id) + ", ply " + std::to_string(at.ply) + " of " +
        std::to_string(at.plies) + (at.ply ? ", after " + at.last_text : ", the start");
    switch (at.position.outcome()) {
    case Outcome::none:
        out += std::string("; ") + (at.position.side_to_move() == Color::white ? "White" : "Black") + " to move";
        break;
    case Outcome::white_wins: out += "; White has won"; break;
    case Outcome::black_wins: out += "; Black has won"; break;
    case Outcome::draw: out += "; drawn"; break;
    }
    return out;
}

} // namespace gounki::cli
