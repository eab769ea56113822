#include "db/import_prepare.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "core/stones/symmetry.hpp"
#include "db/replay.hpp"
#include "parser/record.hpp"

namespace gounki::db::detail {

namespace {

// Tags kept in columns, not in the tags table. A Status tag that is export's mark of a broken game
// is the status column: the record's reading made the game broken, and export writes the tag
// again; a Status tag of any other value is an ordinary tag.
bool is_column_tag(std::string_view name, std::string_view value) {
    return name == "Event" || name == "Site" || name == "Date" || name == "Round" || name == "White" || name == "Black" ||
        name == "Result" || name == "Game" || name == "SetUp" || name == "Position" ||
        (name == "Status" && parser::is_status_mark(value));
}

void radix_sort(std::vector<BatchEntry>& v) {
    const auto top = [](const BatchEntry& e) { return std::uint32_t((e.key ^ (std::uint64_t(1) << 63)) >> 48); };
    std::vector<BatchEntry> tmp(v.size());
    for (int shift : {0, 8}) {
        std::array<std::size_t, 257> start{};
        for (const BatchEntry& e : v) ++start[((top(e) >> shift) & 0xff) + 1];
        for (std::size_t d = 0; d < 256; ++d) start[d + 1] += start[d];
        for (const BatchEntry& e : v) tmp[start[(top(e) >> shift) & 0xff]++] = e;
        v.swap(tmp);
    }
    const auto less = [](const BatchEntry& a, const BatchEntry& b) {
        if (a.key != b.key) return std::int64_t(a.key) < std::int64_t(b.key);
        return a.game != b.game ? a.game < b.game : a.ply < b.ply;
    };
    for (std::size_t i = 0; i < v.size();) {
        std::size_t j = i + 1;
        while (j < v.size() && top(v[j]) == top(v[i])) ++j;
        if (j - i <= 24) {
            for (std::size_t k = i + 1; k < j; ++k) // insertion sort: short, mostly ordered
                for (std::size_t m = k; m > i && less(v[m], v[m - 1]); --m) std::swap(v[m], v[m - 1]);
        } else {
            std::stable_sort(v.begin() + std::ptrdiff_t(i), v.begin() + std::ptrdiff_t(j), less);
        }
        i = j;
    }
}

// The least over the game's eight images of a hash of the image (start, moves) with the game,
// result and players: a game and its turned copies have the same. `start_keys`: the start's images.
std::uint64_t turn_free_hash(const Prepared& p, const std::array<std::uint64_t, stones::symmetry_count>& start_keys) {
    const int size = p.board_size;
    const std::uint64_t game = game_hash(std::uint64_t(p.in.kind), std::int64_t(p.in.result), p.white, p.black);
    std::uint64_t least = ~std::uint64_t(0);
    for (int s = 0; s < stones::symmetry_count; ++s) {
        std::uint64_t h = mix(game ^ start_keys[std::size_t(s)]);
        for (const Move m : p.in.moves)
            h = mix(h ^ std::uint64_t(m.type() == MoveType::placement ? stones::transformed_point(m.point(), s, size) + 1 : 0));
        least = std::min(least, h);
    }
    return least;
}

// The games of the batch that are images of earlier ones, found by their turn_free hash; and the
// images of every turnable game's final position, for match_end_keys.
void link_images(PreparedBatch& b) {
    constexpr std::size_t kept = 8; // of a class of images, the first few: a later copy finds one
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> classes;
    for (std::uint32_t i = 0; i < b.games.size(); ++i) {
        Prepared& g = b.games[i];
        if (!g.turnable || g.skip) continue;
        std::vector<std::uint32_t>& earlier = classes[g.turn_free];
        g.turned_in_batch = earlier;
        if (earlier.size() < kept) earlier.push_back(i);
        for (std::uint32_t s = 1; s < stones::symmetry_count; ++s) b.image_entries.push_back({g.image_ends[s], i, s});
    }
    radix_sort(b.image_entries);
}

Prepared prepare(GameInput&& in, const ImportOptions& opt) {
    Prepared p;
    p.in = std::move(in);
    GameInput& g = p.in;
    p.report.source_file = g.source_file;
    p.report.source_line = g.source_line;
    p.report.status = g.status;
    p.report.diagnostics = int(g.diagnostics.size());
    if (g.status != GameStatus::valid && opt.reject_broken) {
        p.skip = true;
        p.report.action = ImportAction::rejected;
        p.report.reason = "broken game (--reject-broken)";
        return p;
    }
    p.keys.reserve(g.moves.size() + 1);
    std::array<std::uint64_t, stones::symmetry_count> start_keys{};
    if (g.kind == GameKind::gounki) {
        Position pos = g.start ? g.start->as_gounki() : Position::start();
        p.start_text = start_text_of(pos);
        p.keys.push_back(index_key(g.kind, pos.key()));
        UndoRecord undo;
        for (Move m : g.moves) {
            pos.do_move(m, undo);
            p.keys.push_back(index_key(g.kind, pos.key()));
        }
        p.can_go_on = !pos.game_over();
    } else {
        AnyPosition pos = g.start ? *g.start : AnyPosition::start(g.kind);
        if (pos.kind() != g.kind) {
            p.skip = true;
            p.report.action = ImportAction::rejected;
            p.report.reason = "the start position is not a " + std::string(game_kind_name(g.kind)) + " position";
            return p;
        }
        p.start_text = start_text_of(pos);
        p.keys.push_back(index_key(pos));
        start_keys = stones::image_keys(pos.as_stones());
        for (std::size_t i = 0; i < g.moves.size(); ++i) {
            if (!pos.is_legal(g.moves[i])) { // records are replayed before they come here; a caller's bug
                p.skip = true;
                p.report.action = ImportAction::rejected;
                p.report.reason = "move " + std::to_string(i + 1) + " is not legal in its position";
                return p;
            }
            pos.play(g.moves[i]);
            p.keys.push_back(index_key(pos));
        }
        p.can_go_on = !pos.game_over();
        if (!g.moves.empty()) {
            p.turnable = true;
            p.board_size = pos.as_stones().size();
            const auto ends = stones::image_keys(pos.as_stones());
            for (std::size_t s = 0; s < ends.size(); ++s) p.image_ends[s] = index_key(g.kind, ends[s]);
        }
    }
    p.moves_blob = encode_moves(g.moves);
    // The first of repeated tags counts, as for the record writer.
    std::vector<std::string_view> seen;
    for (const auto& [name, value] : g.tags) {
        if (std::find(seen.begin(), seen.end(), name) != seen.end()) continue;
        seen.push_back(name);
        if (name == "White") p.white = value;
        else if (name == "Black") p.black = value;
        else if (name == "Event") p.event = value;
        else if (name == "Site") p.site = value;
        else if (name == "Date") p.date = value;
        else if (name == "Round") p.round = value;
        else if (!is_column_tag(name, value)) p.other_tags.emplace_back(name, value);
    }
    p.date_key = date_key(p.date);
    if (p.turnable) p.turn_free = turn_free_hash(p, start_keys);
    return p;
}

// Links the games of the batch that end where an earlier one stands at the same ply, and the games
// that stand where an earlier one ended: one pass over the sorted entries, on the preparing thread,
// instead of searches while writing. Within a position, the entries are taken ply by ply, and at a
// ply by line: a game is compared with the earlier games of its line that end there and (if it
// ends there) with the earlier ones of its line that go on. A game shows ten prefix flags: at most
// in_batch_kept games are linked at a ply each way, so that many games ending alike (one move and
// a forfeit, the same game under many names) cost a bounded time each, not a time in their number.
// Unless duplicates are kept, only the first of the games of a line with the same players and
// result is listed: the others will be skipped as its duplicates, and must not take the places.
void link_in_batch(PreparedBatch& b, bool keep_duplicates) {
    constexpr std::size_t in_batch_kept = 32;
    // A game rejected while preparing has keys up to its fault, and no lines: it takes no part.
    const auto ends_at = [&](const BatchEntry& e) {
        return e.ply > 0 && e.ply + 1 == b.games[e.game].keys.size() && !b.games[e.game].skip;
    };
    const auto link = [&](const std::vector<std::uint32_t>* earlier, std::vector<std::uint32_t>& out, auto&& linked) {
        for (std::size_t k = 0; earlier && k < earlier->size() && k < in_batch_kept; ++k)
            if (linked(b.games[(*earlier)[k]])) out.push_back((*earlier)[k]);
    };
    std::vector<BatchEntry> run;
    // The earlier games at this ply, by line: those that end there, those that go on.
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> ended, going_on;
    std::unordered_set<std::uint64_t> listed; // whole line, players and result of the games in those lists
    // Adds a game to its line's list, unless its duplicate is there (the same moves, players and result).
    const auto list = [&](std::unordered_map<std::uint64_t, std::vector<std::uint32_t>>& lists, std::uint64_t line,
                          std::uint32_t game) {
        Prepared& g = b.games[game];
        const std::uint64_t game_line = line_at(g, std::uint32_t(g.keys.size() - 1));
        if (!keep_duplicates && !listed.insert(game_hash(game_line, std::int64_t(g.in.result), g.white, g.black)).second) return;
        lists[line].push_back(game);
    };
    const auto find = [](auto& map, std::uint64_t line) {
        const auto it = map.find(line);
        return it == map.end() ? nullptr : &it->second;
    };
    for (std::size_t i = 0; i < b.entries.size();) {
        std::size_t j = i + 1;
        while (j < b.entries.size() && b.entries[j].key == b.entries[i].key) ++j;
        if (j - i < 2 || std::none_of(b.entries.begin() + std::ptrdiff_t(i), b.entries.begin() + std::ptrdiff_t(j), ends_at)) {
            i = j;
            continue;
        }
        // By ply, the games of a ply in batch order (the entries are in game order).
        run.assign(b.entries.begin() + std::ptrdiff_t(i), b.entries.begin() + std::ptrdiff_t(j));
        std::stable_sort(run.begin(), run.end(), [](const BatchEntry& x, const BatchEntry& y) { return x.ply < y.ply; });
        for (std::size_t a = 0; a < run.size();) {
            std::size_t z = a + 1;
            while (z < run.size() && run[z].ply == run[a].ply) ++z;
            ended.clear();
            going_on.clear();
            listed.clear();
            bool any_ended = false;
            for (std::size_t k = a; k < z; ++k) {
                Prepared& g = b.games[run[k].game];
                if (g.skip) continue;
                const std::uint64_t line = line_at(g, run[k].ply);
                link(find(ended, line), g.shorter_in_batch, [&](const Prepared& e) { return extends(g, e); });
                if (ends_at(run[k])) {
                    g.ends_where_earlier_ends = any_ended;
                    any_ended = true;
                    link(find(going_on, line), g.longer_in_batch, [&](const Prepared& o) { return extends(o, g); });
                    list(ended, line, run[k].game);
                } else {
                    list(going_on, line, run[k].game);
                }
            }
            a = z;
        }
        i = j;
    }
}

} // namespace

PreparedBatch prepare_batch(std::vector<GameInput> queue, ImportOptions opt) {
    const auto start = Clock::now();
    PreparedBatch b;
    b.games.reserve(queue.size());
    std::size_t total = 0;
    for (GameInput& g : queue) {
        b.games.push_back(prepare(std::move(g), opt));
        total += b.games.back().keys.size();
    }
    b.entries.reserve(total);
    for (std::size_t i = 0; i < b.games.size(); ++i)
        for (std::size_t ply = 0; ply < b.games[i].keys.size(); ++ply)
            b.entries.push_back({b.games[i].keys[ply], std::uint32_t(i), std::uint32_t(ply)});
    radix_sort(b.entries);
    link_in_batch(b, opt.keep_duplicates);
    link_images(b);
    b.seconds = seconds_since(start);
    return b;
}

TurnedLine turned_line(const Prepared& p, int symmetry) {
    const AnyPosition start = p.in.start ? *p.in.start : AnyPosition::start(p.in.kind);
    const stones::StonePosition& board = start.as_stones();
    std::vector<Move> moves;
    moves.reserve(p.in.moves.size());
    for (const Move m : p.in.moves)
        moves.push_back(m.type() == MoveType::placement ? Move::placement(stones::transformed_point(m.point(), symmetry, board.size()))
                                                        : m);
    return {start_text_of(AnyPosition(stones::transformed(board, symmetry))), encode_moves(moves)};
}

std::uint64_t line_at(Prepared& p, std::uint32_t ply) {
    if (p.lines.empty()) line_hashes(p.start_text, std::int64_t(p.in.kind), p.moves_blob, p.lines);
    return p.lines[ply];
}

std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

std::uint64_t game_hash(std::uint64_t line, std::int64_t result, std::string_view white, std::string_view black) {
    const auto text = [](std::string_view t) { return mix(std::hash<std::string_view>{}(t)); };
    return mix(line ^ mix(text(white) ^ mix(text(black) + std::uint64_t(result))));
}

bool extends(const Prepared& longer, const Prepared& shorter) {
    return longer.start_text == shorter.start_text && longer.in.kind == shorter.in.kind &&
        blob_starts_with(longer.moves_blob, shorter.moves_blob);
}

void line_hashes(std::string_view start, std::int64_t kind, std::span<const std::uint8_t> blob, std::vector<std::uint64_t>& out) {
    out.clear();
    std::uint64_t h = mix(mix(std::hash<std::string_view>{}(start)) + std::uint64_t(kind));
    out.push_back(h);
    const std::uint8_t* at = blob.data();
    const std::uint8_t* end = at + blob.size();
    std::uint64_t code;
    while (at < end && get_varint(at, end, code)) out.push_back(h = mix(h ^ (code + 0x9e3779b97f4a7c15ULL)));
}

} // namespace gounki::db::detail
