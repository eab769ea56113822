// libFuzzer target: any bytes as a position text (docs/rules.md 1.7, or a Gomoku/Ninuki position when
// it starts with the game's name). A rejected text must point inside it; an accepted one must
// print canonically, read back equal, and play and undo each of its moves with the hash kept right.
#include <cstdint>
#include <string_view>

#include "core/gounki/movegen.hpp"
#include "core/gounki/position.hpp"
#include "core/gounki/position_lc4.hpp"
#include "core/stones/position.hpp"

using namespace gounki;

namespace {

void check(bool ok) {
    if (!ok) __builtin_trap();
}

int check_stones(std::string_view text, std::size_t size) {
    auto parsed = stones::StonePosition::from_text(text);
    if (auto* e = std::get_if<PositionError>(&parsed)) {
        check(e->column >= 0 && std::size_t(e->column) <= size);
        check(!e->message.empty());
        return 0;
    }
    stones::StonePosition pos = std::get<stones::StonePosition>(parsed);
    const auto again = stones::StonePosition::from_text(pos.to_text());
    check(std::holds_alternative<stones::StonePosition>(again));
    check(std::get<stones::StonePosition>(again) == pos);
    check(pos.key() == pos.compute_key());
    for (Move m : pos.legal_moves()) {
        const stones::StonePosition before = pos;
        stones::StoneUndo undo;
        pos.play(m, undo);
        check(pos.key() == pos.compute_key());
        pos.undo(undo);
        check(pos == before && pos.key() == before.key());
    }
    return 0;
}

} // namespace

// An LC4 position file (docs/rules.md 3.3): a refused one names a line inside it; an accepted one
// is written and read back the same.
int check_lc4(std::string_view text) {
    int lines = 1;
    for (char c : text) lines += c == '\n';
    auto parsed = position_from_lc4(text);
    if (auto* e = std::get_if<PositionFileError>(&parsed)) {
        check(e->line >= 1 && e->line <= lines + 1);
        check(!e->message.empty());
        return 0;
    }
    const Position& pos = std::get<Position>(parsed);
    const auto again = position_from_lc4(position_to_lc4(pos));
    check(std::holds_alternative<Position>(again) && std::get<Position>(again) == pos);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (looks_like_lc4(text)) return check_lc4(text);
    if (stones::is_stone_position_text(text)) return check_stones(text, size);
    auto parsed = Position::from_text(text);
    if (auto* e = std::get_if<PositionError>(&parsed)) {
        check(e->column >= 0 && std::size_t(e->column) <= size);
        check(!e->message.empty());
        return 0;
    }
    Position pos = std::get<Position>(parsed);
    const auto again = Position::from_text(pos.to_text());
    check(std::holds_alternative<Position>(again));
    check(std::get<Position>(again) == pos);
    check(pos.key() == pos.compute_key());
    MoveList moves;
    generate_moves(pos, moves);
    for (Move m : moves) {
        const Position before = pos;
        UndoRecord undo;
        pos.do_move(m, undo);
        check(pos.key() == pos.compute_key());
        pos.undo_move(m, undo);
        check(pos == before && pos.key() == before.key());
    }
    return 0;
}
