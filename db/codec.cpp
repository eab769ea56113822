#include "db/codec.hpp"

#include <cctype>

namespace gounki::db {

void encode_moves(std::span<const Move> moves, std::vector<std::uint8_t>& out) {
    for (Move m : moves) put_varint(out, move_code(m));
}

std::vector<std::uint8_t> encode_moves(std::span<const Move> moves) {
    std::vector<std::uint8_t> out;
    out.reserve(moves.size() * 2 + 8);
    encode_moves(moves, out);
    return out;
}

std::optional<std::vector<Move>> decode_moves(std::span<const std::uint8_t> blob) {
    std::vector<Move> moves;
    const std::uint8_t* p = blob.data();
    const std::uint8_t* end = p + blob.size();
    while (p < end) {
        std::uint64_t v;
        if (!get_varint(p, end, v) || v >> 32) return std::nullopt;
        moves.push_back(move_from_code(v));
    }
    return moves;
}

// A stored result is an Outcome: the same values, so the record text is written in one place.
static_assert(int(ResultCode::unknown) == int(Outcome::none) && int(ResultCode::white_wins) == int(Outcome::white_wins) &&
              int(ResultCode::black_wins) == int(Outcome::black_wins) && int(ResultCode::draw) == int(Outcome::draw));

std::string_view result_text(ResultCode r) { return outcome_text(Outcome(r)); }

std::optional<ResultCode> parse_result(std::string_view t) {
    if (t == "*") return ResultCode::unknown;
    if (t == "1-0" || t == "white") return ResultCode::white_wins;
    if (t == "0-1" || t == "black") return ResultCode::black_wins;
    if (t == "1/2-1/2" || t == "1/2" || t == "draw") return ResultCode::draw;
    return std::nullopt;
}

namespace {

// Splits "2026.11.02" into up to three parts; each part is a number or unknown (-1). Returns the
// number of parts, or -1 when the text is malformed.
int split_date(std::string_view text, int parts[3]) {
    int n = 0;
    std::size_t i = 0;
    while (i <= text.size() && n < 3) {
        std::size_t j = i;
        while (j < text.size() && text[j] != '.' && text[j] != '-' && text[j] != '/') ++j;
        const std::string_view part = text.substr(i, j - i);
        if (part.empty()) return -1;
        bool digits = true, unknown = true;
        for (char c : part) {
            digits &= std::isdigit(static_cast<unsigned char>(c)) != 0;
            unknown &= c == '?';
        }
        if (digits && part.size() <= 4) {
            int v = 0;
            for (char c : part) v = v * 10 + (c - '0');
            parts[n++] = v;
        } else if (unknown) {
            parts[n++] = -1;
        } else {
            return -1;
        }
        if (j == text.size()) return n;
        i = j + 1;
    }
    return -1;
}

} // namespace

std::int64_t date_key(std::string_view date) {
    int parts[3] = {-1, -1, -1};
    const int n = split_date(date, parts);
    if (n < 1 || parts[0] <= 0) return 0;
    const int month = n >= 2 && parts[1] >= 1 && parts[1] <= 12 ? parts[1] : 0;
    const int day = n >= 3 && month && parts[2] >= 1 && parts[2] <= 31 ? parts[2] : 0;
    return std::int64_t(parts[0]) * 10000 + month * 100 + day;
}

std::optional<std::int64_t> date_bound(std::string_view text, bool upper) {
    int parts[3] = {-1, -1, -1};
    const int n = split_date(text, parts);
    if (n < 1 || parts[0] <= 0) return std::nullopt;
    for (int i = 0; i < n; ++i)
        if (parts[i] < 0) return std::nullopt;
    if (n >= 2 && (parts[1] < 1 || parts[1] > 12)) return std::nullopt;
    if (n >= 3 && (parts[2] < 1 || parts[2] > 31)) return std::nullopt;
    const std::int64_t y = parts[0];
    if (n == 1) return upper ? y * 10000 + 9999 : y * 10000;
    if (n == 2) return upper ? y * 10000 + parts[1] * 100 + 99 : y * 10000 + parts[1] * 100;
    return y * 10000 + parts[1] * 100 + parts[2];
}

Hasher& Hasher::add(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
        h_ ^= (v >> (8 * i)) & 0xff;
        h_ *= 0x100000001b3ull;
    }
    return *this;
}

Hasher& Hasher::add(std::string_view s) {
    add(std::uint64_t(s.size()));
    for (char c : s) {
        h_ ^= static_cast<unsigned char>(c);
        h_ *= 0x100000001b3ull;
    }
    return *this;
}

std::uint64_t Hasher::value() const {
    std::uint64_t z = h_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

} // namespace gounki::db
