#pragma once
// Small encodings shared by the database code: varints, the moves BLOB, result and date codes,
// position keys per game kind, and the hash that finds duplicate games. No SQLite here.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/stones/points.hpp"
#include "core/types.hpp"

namespace gounki::db {

// LEB128: 7 bits per byte, low bits first, high bit set on all bytes but the last.
inline void put_varint(std::vector<std::uint8_t>& out, std::uint64_t v) {
    while (v >= 0x80) {
        out.push_back(std::uint8_t(v | 0x80));
        v >>= 7;
    }
    out.push_back(std::uint8_t(v));
}

// Reads one varint at `p`, not past `end`; returns false on a truncated or overlong one.
inline bool get_varint(const std::uint8_t*& p, const std::uint8_t* end, std::uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64 && p < end; shift += 7) {
        const std::uint8_t b = *p++;
        v |= std::uint64_t(b & 0x7f) << shift;
        if (!(b & 0x80)) return true;
    }
    return false;
}

// A move as the database stores it (moves BLOBs, judgements, tree_stats.move): Move::raw(), but a
// stone placement's point by its stored number (core/stones/points.hpp), so that what was stored
// before 20x20 boards reads the same.
inline std::uint32_t stored_raw(Move m) {
    if (m.type() != MoveType::placement) return m.raw();
    return Move::placement(stones::stored_point(m.point())).raw();
}
inline Move move_from_stored_raw(std::uint32_t raw) {
    const Move m = Move::from_raw(raw);
    if (m.type() != MoveType::placement || m.point() >= stones::point_count) return m;
    return Move::placement(stones::point_from_stored(m.point()));
}

// The code of one move in the moves BLOB: the stored raw bits with the MoveType moved to the
// bottom, so that movements (type 0, 12 bits of squares) take two varint bytes.
inline std::uint64_t move_code(Move m) {
    const std::uint64_t raw = stored_raw(m);
    return ((raw & 0x00FFFFFFu) | (raw >> 26) << 24) << 2 | ((raw >> 24) & 3);
}
inline Move move_from_code(std::uint64_t v) {
    const std::uint32_t type = std::uint32_t(v & 3);
    const std::uint32_t rest = std::uint32_t(v >> 2);
    return move_from_stored_raw((rest & 0x00FFFFFFu) | type << 24 | (rest >> 24) << 26);
}

// The moves BLOB of schema.sql: one varint move_code per move.
void encode_moves(std::span<const Move> moves, std::vector<std::uint8_t>& out);
std::vector<std::uint8_t> encode_moves(std::span<const Move> moves);
// Empty optional when the BLOB is malformed.
std::optional<std::vector<Move>> decode_moves(std::span<const std::uint8_t> blob);

// Decodes moves one at a time without allocating (the replay loops of searches).
class MoveDecoder {
public:
    explicit MoveDecoder(std::span<const std::uint8_t> blob) : p_(blob.data()), end_(blob.data() + blob.size()) {}
    // False at the end of the blob (or on a malformed varint).
    bool next(Move& m) {
        std::uint64_t v;
        if (p_ >= end_ || !get_varint(p_, end_, v)) return false;
        m = move_from_code(v);
        return true;
    }

private:
    const std::uint8_t* p_;
    const std::uint8_t* end_;
};

// Result codes of schema.sql.
enum class ResultCode : std::uint8_t { unknown = 0, white_wins = 1, black_wins = 2, draw = 3 };
std::string_view result_text(ResultCode r); // "*", "1-0", "0-1", "1/2-1/2"
std::optional<ResultCode> parse_result(std::string_view text); // also accepts white, black, draw

// "2026.11.02" -> 20261102; unknown parts ('??', missing) are 0; 0 when no year can be read.
// Accepts '.', '-' or '/' between the parts.
std::int64_t date_key(std::string_view date);
// A command-line date bound ("2026", "2026.11", "2026-11-02"): the smallest date_key it covers,
// or with `upper` the largest. Empty optional when the text is not a date.
std::optional<std::int64_t> date_bound(std::string_view text, bool upper);

// The key under which a position of a game of `kind` is indexed: the kind is part of the key.
inline std::uint64_t index_key(GameKind kind, std::uint64_t position_key) {
    return position_key ^ (std::uint64_t(kind) * 0x9E3779B97F4A7C15ull);
}

// 64-bit FNV-1a style hashing with a final mix, for duplicate detection (not for security).
class Hasher {
public:
    Hasher& add(std::uint64_t v);
    Hasher& add(std::string_view s);
    std::uint64_t value() const;

private:
    std::uint64_t h_ = 0xcbf29ce484222325ull;
};

} // namespace gounki::db
