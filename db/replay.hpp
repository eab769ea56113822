#pragma once
// A stored game's replay, whatever its kind: its start comes from the start_position column (empty
// for Gounki's standard start; a stone game always stores its start, which names its board size
// and rule options), then its moves go forward one by one.

#include <cstdint>
#include <string>
#include <string_view>

#include "core/position.hpp"
#include "core/stones.hpp"
#include "db/codec.hpp"

namespace gounki::db {

class Replay {
public:
    // Throws DbError when the text does not read (a damaged database) or names another game.
    Replay(GameKind kind, std::string_view start_text);
    explicit Replay(const Position& start) : kind_(GameKind::gounki), gounki_(start) {}
    explicit Replay(const stones::StonePosition& start) : kind_(start.rules().kind), stone_(start) {}

    GameKind kind() const { return kind_; }
    bool is_stone() const { return kind_ != GameKind::gounki; }
    // The index key of the current position (index_key: the kind is part of it).
    std::uint64_t key() const { return index_key(kind_, is_stone() ? stone_.key() : gounki_.key()); }
    bool game_over() const { return is_stone() ? stone_.game_over() : gounki_.game_over(); }
    Color side_to_move() const { return is_stone() ? stone_.side_to_move() : gounki_.side_to_move(); }
    // The canonical text of `m` in the current position.
    std::string move_text(Move m) const;
    // Whether `m` can be played now (stone games check the rules; Gounki moves are trusted, as
    // stored games were replayed when imported).
    bool accepts(Move m) const { return is_stone() ? stone_.is_legal(m) : true; }
    void play(Move m) {
        if (is_stone()) stone_.play(m, stone_undo_);
        else gounki_.do_move(m, gounki_undo_);
    }
    const Position& gounki() const { return gounki_; }
    const stones::StonePosition& stone() const { return stone_; }

private:
    GameKind kind_;
    Position gounki_ = Position::start();
    stones::StonePosition stone_;
    UndoRecord gounki_undo_;
    stones::StoneUndo stone_undo_;
};

// The start_position text a game is stored with.
std::string start_text_of(const Position& start);               // empty for the standard start
std::string start_text_of(const stones::StonePosition& start);  // always the full text

} // namespace gounki::db
