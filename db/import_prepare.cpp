#include "db/import_prepare.hpp"

#include <algorithm>
#include <array>

#include "db/replay.hpp"

namespace gounki::db::detail {

namespace {

// Tags kept in columns, not in the tags table. Status (export's mark of a broken game) is the
// status column: the record's reading made the game broken, and export writes the tag again.
bool is_column_tag(std::string_view name) {
    return name == "Event" || name == "Site" || name == "Date" || name == "Round" || name == "White" || name == "Black" ||
        name == "Result" || name == "Game" || name == "SetUp" || name == "Position" || name == "Status";
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
        else if (!is_column_tag(name)) p.other_tags.emplace_back(name, value);
    }
    p.date_key = date_key(p.date);
    return p;
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
    // Within the batch, games that end where another one stands at the same ply: one pass over the
    // sorted entries here, on the preparing thread, instead of searches while writing.
    for (std::size_t i = 0; i < b.entries.size();) {
        std::size_t j = i + 1;
        while (j < b.entries.size() && b.entries[j].key == b.entries[i].key) ++j;
        for (std::size_t k = i; k < j && j - i > 1; ++k) {
            const BatchEntry& e = b.entries[k];
            const Prepared& g = b.games[e.game];
            if (e.ply == 0 || e.ply + 1 != g.keys.size()) continue; // not g's final position
            for (std::size_t m = i; m < j; ++m) {
                const BatchEntry& o = b.entries[m];
                if (o.ply != e.ply || o.game == e.game) continue;
                if (o.game < e.game) b.games[e.game].longer_in_batch.push_back(o.game);
                else b.games[o.game].shorter_in_batch.push_back(e.game);
            }
        }
        i = j;
    }
    b.seconds = seconds_since(start);
    return b;
}

} // namespace gounki::db::detail
