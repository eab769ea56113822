// The importer's matching of new games against stored ones: final positions, duplicates, prefix
// flags both ways, and (replace) the stored game a new one replaces.
#include <algorithm>
#include <functional>
#include <optional>
#include <string_view>

#include "core/stones/symmetry.hpp"
#include "db/import_impl.hpp"

namespace gounki::db {

void Importer::Impl::games_ending(std::uint64_t key, std::uint32_t plies, std::vector<std::int64_t>& ids) {
    // The stored games whose final position is `key` at ply `plies`, in id order. A game's final
    // position is in the position index at its last ply; the rows are checked for that ply count.
    ids.clear();
    if (plies < short_game_plies) {
        const ResetAtExit done(short_end);
        short_end.bind(1, std::int64_t(key)).bind(2, std::int64_t(plies));
        while (short_end.step()) ids.push_back(short_end.get_int64(0));
        return;
    }
    found.clear();
    gdb.index().lookup_filtered(key, found);
    for (const IndexEntry& e : found)
        if (e.ply == plies) ids.push_back(e.game);
    const auto [from, to] = batch_ends.equal_range(key);
    for (auto it = from; it != to; ++it) ids.push_back(it->second);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
}

void Importer::Impl::load_end_keys() {
    // Inside the write transaction: the keys and the id they reach are one consistent snapshot.
    std::vector<std::uint64_t> added;
    {
        Statement& st = end_keys_loaded ? new_end_keys : all_end_keys;
        const ResetAtExit done(st);
        if (end_keys_loaded) st.bind(1, last_seen_id); // games other importers stored since our last batch
        while (st.step()) added.push_back(std::uint64_t(st.get_int64(0)));
    }
    // Games of another importer: the groups may miss them, and are made again when needed.
    if (end_keys_loaded && !added.empty()) end_groups.clear();
    end_keys_loaded = true;
    add_end_keys(added);
    const ResetAtExit done(max_id);
    max_id.step();
    last_seen_id = max_id.get_int64(0);
}

void Importer::Impl::add_end_keys(std::vector<std::uint64_t>& keys) {
    std::sort(keys.begin(), keys.end(), key_less);
    const std::size_t old = end_keys.size();
    end_keys.insert(end_keys.end(), keys.begin(), keys.end());
    std::inplace_merge(end_keys.begin(), end_keys.begin() + std::ptrdiff_t(old), end_keys.end(), key_less);
}

// Walks the batch's sorted entries and the sorted final positions of the stored games side by side:
// the plies at which a game stands where a stored game ended, without a lookup per position.
void Importer::Impl::match_end_keys(PreparedBatch& b) {
    std::size_t j = 0;
    for (const BatchEntry& e : b.entries) {
        while (j < end_keys.size() && key_less(end_keys[j], e.key)) ++j;
        if (j == end_keys.size()) break;
        if (end_keys[j] == e.key && e.ply > 0) b.games[e.game].stored_end_plies.push_back(e.ply);
    }
    // The images of the final positions of the stone games (ply: the symmetry).
    j = 0;
    for (const BatchEntry& e : b.image_entries) {
        while (j < end_keys.size() && key_less(end_keys[j], e.key)) ++j;
        if (j == end_keys.size()) break;
        if (end_keys[j] == e.key) b.games[e.game].turned_stored.push_back(std::uint8_t(e.ply));
    }
    for (Prepared& p : b.games) std::sort(p.stored_end_plies.begin(), p.stored_end_plies.end());
}

namespace {

// A game by where its record is, too.
std::uint64_t place_hash(std::uint64_t game, std::int64_t source, std::int64_t line) {
    return mix(game ^ mix(std::uint64_t(source) ^ mix(std::uint64_t(line))));
}

// Keeps `ids` in id order, each once: the first found is the lowest, as when the games are looked
// up (a game that --replace stores again keeps its id, which may be anywhere in the list).
void insert_id(std::vector<std::int64_t>& ids, std::int64_t id) {
    if (ids.empty() || ids.back() < id) {
        ids.push_back(id);
        return;
    }
    const auto at = std::lower_bound(ids.begin(), ids.end(), id);
    if (*at != id) ids.insert(at, id);
}

void add_to(EndGroup& group, std::int64_t id, std::uint64_t line, std::uint64_t game, std::int64_t source,
            std::int64_t source_line) {
    insert_id(group.by_line[line], id);
    insert_id(group.by_game[game], id);
    if (source) insert_id(group.by_place[place_hash(game, source, source_line)], id);
}

} // namespace

EndGroup* Importer::Impl::end_group(std::uint64_t key, std::uint32_t plies) {
    if (auto it = end_groups.find({key, plies}); it != end_groups.end()) return &it->second;
    games_ending(key, plies, ending);
    if (ending.size() < end_group_size) return nullptr;
    EndGroup& group = end_groups[{key, plies}];
    std::vector<std::uint64_t> lines;
    for (std::int64_t id : ending) {
        const ResetAtExit done(same_end);
        same_end.bind(1, id).bind(2, std::int64_t(plies));
        if (!same_end.step()) continue;
        line_hashes(same_end.get_text(4), same_end.get_int64(6), same_end.get_blob(3), lines);
        add_to(group, id, lines.back(),
               game_hash(lines.back(), same_end.get_int64(5), same_end.get_text(7), same_end.get_text(8)), same_end.get_int64(1),
               same_end.get_int64(2));
    }
    return &group;
}

void Importer::Impl::add_to_end_group(Prepared& p, std::int64_t source_id) {
    const std::uint32_t n = std::uint32_t(p.in.moves.size());
    const auto it = end_groups.find({p.keys.back(), n});
    if (it == end_groups.end()) return;
    const std::uint64_t line = line_at(p, n);
    add_to(it->second, p.report.game_id, line, game_hash(line, std::int64_t(p.in.result), p.white, p.black), source_id,
           std::int64_t(p.in.source_line));
}

bool Importer::Impl::row_has_moves_of(const Prepared& p) { return row_has_line(p, p.start_text, p.moves_blob); }

bool Importer::Impl::row_has_line(const Prepared& p, std::string_view start, std::span<const std::uint8_t> moves) {
    return same_end.get_blob(3).size() == moves.size() && blob_starts_with(same_end.get_blob(3), moves) &&
        same_end.get_text(4) == start && same_end.get_int64(6) == std::int64_t(p.in.kind);
}

bool Importer::Impl::same_game(const Prepared& p, std::int64_t other, std::int64_t& source, std::int64_t& line) {
    const ResetAtExit done(same_end);
    same_end.bind(1, other).bind(2, std::int64_t(p.in.moves.size()));
    const bool same = same_end.step() && row_has_moves_of(p) && same_end.get_int64(5) == std::int64_t(p.in.result) &&
        same_end.get_text(7) == p.white && same_end.get_text(8) == p.black;
    if (same) {
        source = same_end.get_int64(1);
        line = same_end.get_int64(2);
    }
    return same;
}

std::int64_t Importer::Impl::turned_duplicate(const Prepared& p, std::span<const Prepared> batch, int& symmetry) {
    std::int64_t best = 0;
    const auto take = [&](std::int64_t id, int s) {
        if (best && best <= id) return;
        best = id;
        symmetry = stones::inverse_symmetry(s); // the stored game's board taken to this one's
    };
    // Games of this batch stored before this one: compared in memory, under each symmetry.
    for (const std::uint32_t i : p.turned_in_batch) {
        const Prepared& e = batch[i];
        if (e.skip || !e.report.game_id || e.in.kind != p.in.kind || e.in.result != p.in.result || e.white != p.white ||
            e.black != p.black)
            continue;
        for (int s = 1; s < stones::symmetry_count; ++s) {
            const TurnedLine image = turned_line(p, s);
            if (image.moves_blob == e.moves_blob && image.start_text == e.start_text) {
                take(e.report.game_id, s);
                break;
            }
        }
    }
    // Stored games that end on an image of this game's final position, at its ply.
    const std::uint32_t n = std::uint32_t(p.in.moves.size());
    std::vector<std::uint64_t> lines;
    for (const int s : p.turned_stored) {
        const TurnedLine image = turned_line(p, s);
        // The game is its own image (h8 alone, or moves the symmetry exchanges): the plain comparison's.
        if (image.moves_blob == p.moves_blob && image.start_text == p.start_text) continue;
        const auto same = [&](std::int64_t other) {
            const ResetAtExit done(same_end);
            same_end.bind(1, other).bind(2, std::int64_t(n));
            return same_end.step() && row_has_line(p, image.start_text, image.moves_blob) &&
                same_end.get_int64(5) == std::int64_t(p.in.result) && same_end.get_text(7) == p.white &&
                same_end.get_text(8) == p.black;
        };
        if (EndGroup* group = end_group(p.image_ends[std::size_t(s)], n)) {
            line_hashes(image.start_text, std::int64_t(p.in.kind), image.moves_blob, lines);
            const auto it = group->by_game.find(game_hash(lines.back(), std::int64_t(p.in.result), p.white, p.black));
            if (it != group->by_game.end())
                for (std::int64_t other : it->second)
                    if (same(other)) {
                        take(other, s);
                        break;
                    }
        } else {
            for (std::int64_t other : ending)
                if (same(other)) {
                    take(other, s);
                    break;
                }
        }
    }
    return best;
}

void Importer::Impl::check_duplicate(Prepared& p, std::int64_t source_id, std::span<const Prepared> batch) {
    // A duplicate ends on the same position at the same ply; then compare what the rule names. A stone
    // game that duplicates none as it lies may duplicate one turned or mirrored (docs/rules.md 2.7).
    const std::uint32_t n = std::uint32_t(p.in.moves.size());
    const bool stored_end = std::binary_search(p.stored_end_plies.begin(), p.stored_end_plies.end(), n) ||
        (n == 0 && std::binary_search(end_keys.begin(), end_keys.end(), p.keys[0], key_less));
    const bool turned = p.turnable && (!p.turned_in_batch.empty() || !p.turned_stored.empty());
    const bool plain = stored_end || p.ends_where_earlier_ends || (n == 0 && has_empty_in_batch);
    if (!plain && !turned) return;
    std::int64_t dup = 0, same_record = 0, source = 0, line = 0;
    const auto same_source = [&] { return source_id && source == source_id && line == std::int64_t(p.in.source_line); };
    const std::vector<std::int64_t>* same_line = plain ? &ending : nullptr; // the games ending here with these moves, and others
    if (!plain) {
        // No game ends on this position at this ply: only the images are looked for (below).
    } else if (EndGroup* group = end_group(p.keys.back(), n)) {
        const auto with_line = group->by_line.find(line_at(p, n));
        same_line = with_line == group->by_line.end() ? nullptr : &with_line->second;
        // Only the games of this line with this result and these players, then the ones of them
        // from this record's place.
        const std::uint64_t game = game_hash(line_at(p, n), std::int64_t(p.in.result), p.white, p.black);
        if (const auto it = group->by_game.find(game); it != group->by_game.end())
            for (std::int64_t other : it->second)
                if (same_game(p, other, source, line)) {
                    dup = other;
                    break;
                }
        if (const auto it = group->by_place.find(place_hash(game, source_id, std::int64_t(p.in.source_line)));
            dup && source_id && it != group->by_place.end())
            for (std::int64_t other : it->second)
                if (same_game(p, other, source, line) && same_source()) {
                    same_record = other;
                    break;
                }
    } else {
        for (std::int64_t other : ending) {
            if (!same_game(p, other, source, line)) continue;
            if (!dup) dup = other;
            if (same_source()) same_record = other;
        }
    }
    // The record from this place with these moves, whose players or result differ: edited since it
    // was imported, or changed in the file. Either way this record is the stored game (--replace
    // takes the file's version), never a second copy.
    if (!same_record && same_line && source_id && p.in.source_file != "-") same_record = edited_record(p, source_id, *same_line);
    if (!same_record && !dup && turned) dup = turned_duplicate(p, batch, p.report.symmetry);
    if (same_record) {
        p.skip = true;
        p.report.action = ImportAction::already_imported;
        p.report.other_id = same_record;
    } else if (dup && !opt.keep_duplicates) {
        p.skip = true;
        p.report.action = ImportAction::duplicate;
        p.report.other_id = dup;
    } else if (dup) {
        p.report.other_id = dup; // stored anyway, still reported
    }
}

const std::vector<std::int64_t>& Importer::Impl::going_on(Passing& through, std::uint32_t ply, std::uint64_t line,
                                                          std::size_t want) {
    std::vector<std::int64_t>& alike = through.going_on[line]; // (a reference into a map stays valid as it grows)
    std::vector<std::uint64_t> lines;
    while (alike.size() < want && through.read < through.ids.size()) {
        const std::int64_t id = through.ids[through.read++];
        const ResetAtExit done(game_moves);
        game_moves.bind(1, id);
        if (!game_moves.step() || game_moves.get_int64(3) <= std::int64_t(ply)) continue; // ends here (or is gone)
        line_hashes(game_moves.get_text(1), game_moves.get_int64(2), game_moves.get_blob(0), lines);
        if (lines.size() > ply) through.going_on[lines[ply]].push_back(id);
    }
    return alike;
}

void Importer::Impl::flag_prefixes(Prepared& p, std::span<Prepared> batch) {
    const std::size_t n = p.in.moves.size();
    if (n == 0) return; // an empty game is a prefix of everything: not worth a flag
    constexpr std::size_t max_flags = 10;
    const std::int64_t id = p.report.game_id;

    // Stored games that are prefixes of this one (or hold the same moves): their final position is
    // one of ours, at the same ply, found by match_end_keys or, in this batch, while preparing.
    const auto add = [&](std::int64_t other, bool same_length) {
        // A game of this batch can turn up twice: by the query (it is stored already) and in-batch.
        auto& list = same_length ? p.report.same_moves : p.report.has_prefix;
        if (list.size() < max_flags && std::find(list.begin(), list.end(), other) == list.end()) list.push_back(other);
    };
    for (std::uint32_t ply : p.stored_end_plies) {
        const auto& list = ply == n ? p.report.same_moves : p.report.has_prefix;
        if (list.size() >= max_flags) continue; // flagged enough: no more lookups
        const auto check = [&](std::int64_t other) {
            if (other == id || other == p.report.other_id) return;
            const ResetAtExit done(find_end);
            find_end.bind(1, other).bind(2, std::int64_t(ply));
            if (find_end.step() && find_end.get_text(2) == p.start_text && find_end.get_int64(3) == std::int64_t(p.in.kind) &&
                blob_starts_with(p.moves_blob, find_end.get_blob(1)))
                add(other, ply == n);
        };
        if (EndGroup* group = end_group(p.keys[ply], ply)) { // only the games of this line
            const auto it = group->by_line.find(line_at(p, ply));
            if (it != group->by_line.end())
                for (std::size_t i = 0; i < it->second.size() && list.size() < max_flags; ++i) check(it->second[i]);
        } else {
            for (std::size_t i = 0; i < ending.size() && list.size() < max_flags; ++i) check(ending[i]);
        }
    }
    for (std::uint32_t i : p.shorter_in_batch) {
        const Prepared& other = batch[i];
        if (other.skip || other.report.game_id == p.report.other_id) continue;
        if (extends(p, other)) add(other.report.game_id, other.in.moves.size() == n);
    }

    // Stored games of which this one is a proper prefix: they reach our final position at our
    // last ply. The runs' Bloom filters rule out almost every lookup.
    if (!p.can_go_on) return; // a won game cannot go on
    std::vector<std::int64_t> candidates;
    if (p.index_maybe) {
        auto through = passing.find({p.keys[n], n});
        if (through == passing.end()) {
            Passing games;
            found.clear();
            gdb.index().lookup_filtered(p.keys[n], found);
            for (const IndexEntry& e : found)
                if (e.ply == n) games.ids.push_back(e.game);
            std::sort(games.ids.begin(), games.ids.end());
            games.ids.erase(std::unique(games.ids.begin(), games.ids.end()), games.ids.end());
            // The runs do not change until the batch ends: the answer serves the batch's other games.
            through = passing.emplace(std::pair(p.keys[n], n), std::move(games)).first;
        }
        // A few more than the flags shown: a game deleted or replaced since is found out below.
        const std::vector<std::int64_t>& alike = going_on(through->second, n, line_at(p, n), max_flags + 6);
        candidates.assign(alike.begin(), alike.begin() + std::ptrdiff_t(std::min(alike.size(), max_flags + 6)));
    }
    // Games of this batch stored before this one are not in a run yet.
    for (std::uint32_t other : p.longer_in_batch)
        if (!batch[other].skip) candidates.push_back(batch[other].report.game_id);
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    for (std::int64_t other : candidates) {
        if (p.report.prefix_of.size() >= max_flags) break;
        if (other == id) continue; // (replace) this game took the id of one that went on from here
        const ResetAtExit done(game_moves);
        game_moves.bind(1, other);
        if (game_moves.step() && game_moves.get_int64(3) > std::int64_t(n) && game_moves.get_text(1) == p.start_text &&
            game_moves.get_int64(2) == std::int64_t(p.in.kind) && blob_starts_with(game_moves.get_blob(0), p.moves_blob))
            p.report.prefix_of.push_back(other);
    }
}

// Which unfinished games may be a prefix of a stored one: their final positions against the
// runs' Bloom filters, all at once in key order.
void Importer::Impl::mark_prefix_candidates(std::vector<Prepared>& batch) {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> finals;
    for (std::size_t i = 0; i < batch.size(); ++i)
        if (!batch[i].skip && batch[i].can_go_on && !batch[i].in.moves.empty())
            finals.emplace_back(batch[i].keys.back(), std::uint32_t(i));
    if (finals.empty()) return;
    std::sort(finals.begin(), finals.end(), [](const auto& a, const auto& b) { return key_less(a.first, b.first); });
    std::vector<std::uint64_t> keys;
    keys.reserve(finals.size());
    for (const auto& f : finals) keys.push_back(f.first);
    const std::vector<bool> maybe = gdb.index().may_contain(keys);
    for (std::size_t k = 0; k < finals.size(); ++k) batch[finals[k].second].index_maybe = maybe[k];
}

Statement& Importer::Impl::statement(const std::string& sql) {
    auto& slot = statements[sql];
    if (!slot) slot = std::make_unique<Statement>(db, sql);
    slot->reset();
    return *slot;
}

namespace {

// The plies compared when a game is matched by its players and date rather than by its place.
constexpr std::size_t replace_opening_plies = 10;

std::string id_list(const std::vector<std::int64_t>& ids) {
    std::string out;
    for (std::int64_t id : ids) out += (out.empty() ? "" : ", ") + std::to_string(id);
    return out;
}

} // namespace

// The stored games of the same game, start, White, Black and Date whose first plies are this game's.
std::vector<std::int64_t> Importer::Impl::same_players_and_opening(const Prepared& p) {
    std::vector<std::int64_t> out;
    // A player the database does not know cannot match; no name matches games without one.
    const auto player = [&](const std::string& name) -> std::optional<std::int64_t> {
        if (name.empty()) return 0;
        const ResetAtExit done(find_player);
        find_player.bind(1, name);
        return find_player.step() ? std::optional(find_player.get_int64(0)) : std::nullopt;
    };
    const auto white = player(p.white), black = player(p.black);
    if (!white || !black) return out;
    Statement& st =
        statement("SELECT id, moves, ply_count FROM games WHERE kind = ?1 AND white_id IS NOT DISTINCT FROM ?2 AND black_id IS NOT DISTINCT FROM ?3 "
                  "AND date IS NOT DISTINCT FROM ?4 "
                  "AND coalesce(start_position, '') = ?5 ORDER BY id");
    const ResetAtExit done(st);
    st.bind(1, std::int64_t(p.in.kind));
    if (*white) st.bind(2, *white);
    if (*black) st.bind(3, *black);
    st.bind_text_or_null(4, p.date).bind(5, p.start_text);
    const std::size_t n = p.in.moves.size();
    while (st.step()) {
        const std::size_t k = std::min({replace_opening_plies, n, std::size_t(st.get_int64(2))});
        if (k == 0 && (n != 0 || st.get_int64(2) != 0)) continue;
        const std::vector<std::uint8_t> opening = encode_moves(std::span<const Move>(p.in.moves).first(k));
        if (blob_starts_with(st.get_blob(1), opening)) out.push_back(st.get_int64(0));
    }
    return out;
}

std::int64_t Importer::Impl::edited_record(Prepared& p, std::int64_t source_id, const std::vector<std::int64_t>& candidates) {
    for (std::int64_t id : candidates) {
        if (id >= first_import_id) continue; // two records of one import never share a place
        const ResetAtExit done(same_end);
        same_end.bind(1, id).bind(2, std::int64_t(p.in.moves.size()));
        if (!same_end.step() || same_end.get_int64(1) != source_id || same_end.get_int64(2) != std::int64_t(p.in.source_line) ||
            !row_has_moves_of(p))
            continue;
        std::string differs;
        const auto compare = [&differs](std::string_view tag, std::string_view stored, std::string_view record) {
            if (stored == record) return;
            differs.append(differs.empty() ? "" : "; ").append(tag).append(" '").append(stored).append("', the record's '");
            differs.append(record).append("'");
        };
        compare("White", same_end.get_text(7), p.white);
        compare("Black", same_end.get_text(8), p.black);
        compare("Result", result_text(ResultCode(same_end.get_int64(5))), result_text(p.in.result));
        p.report.reason = "edited since or changed in the file: " + differs + " (--replace stores the file's version)";
        return id;
    }
    return 0;
}

// Whether stored game `id` holds what `p` would store: moves, start, result, kind, columns, other
// tags, status and annotations.
bool Importer::Impl::same_as_stored(const Prepared& p, std::int64_t id) {
    Statement& st =
        statement("SELECT g.moves, coalesce(g.start_position, ''), g.result, g.kind, coalesce(w.name, ''), coalesce(b.name, ''), "
                  "coalesce(e.name, ''), coalesce(g.site, ''), coalesce(g.date, ''), coalesce(g.round, ''), g.status, "
                  "coalesce(g.annotated, '') FROM games g LEFT JOIN players w ON w.id = g.white_id "
                  "LEFT JOIN players b ON b.id = g.black_id LEFT JOIN events e ON e.id = g.event_id WHERE g.id = ?1");
    {
        const ResetAtExit done(st);
        st.bind(1, id);
        if (!st.step()) return false;
        const auto blob = st.get_blob(0);
        if (blob.size() != p.moves_blob.size() || !blob_starts_with(blob, p.moves_blob) || st.get_text(1) != p.start_text ||
            st.get_int64(2) != std::int64_t(p.in.result) || st.get_int64(3) != std::int64_t(p.in.kind) ||
            st.get_text(4) != p.white || st.get_text(5) != p.black || st.get_text(6) != p.event || st.get_text(7) != p.site ||
            st.get_text(8) != p.date || st.get_text(9) != p.round || st.get_int64(10) != std::int64_t(p.in.status) ||
            st.get_text(11) != p.in.annotated)
            return false;
    }
    Statement& tags = statement("SELECT name, value FROM tags WHERE game_id = ?1 ORDER BY seq");
    const ResetAtExit done(tags);
    tags.bind(1, id);
    std::size_t i = 0;
    for (; tags.step(); ++i)
        if (i >= p.other_tags.size() || tags.get_text(0) != p.other_tags[i].first || tags.get_text(1) != p.other_tags[i].second)
            return false;
    return i == p.other_tags.size();
}

std::int64_t Importer::Impl::find_replaced(Prepared& p, std::int64_t source_id) {
    std::vector<std::int64_t> ids;
    // Standard input ("-") is no place: two different inputs read from it share its name.
    if (source_id && p.in.source_file != "-") {
        Statement& st = statement("SELECT id FROM games WHERE source_id = ?1 AND source_line = ?2 ORDER BY id");
        const ResetAtExit done(st);
        st.bind(1, source_id).bind(2, p.in.source_line);
        while (st.step()) ids.push_back(st.get_int64(0));
    }
    const bool by_place = !ids.empty();
    if (!by_place) ids = same_players_and_opening(p);
    if (ids.empty()) return 0;
    const auto reject = [&](const std::string& why) {
        p.skip = true;
        p.report.action = ImportAction::rejected;
        p.report.reason = why;
        return std::int64_t(0);
    };
    const std::string how = by_place ? "its file and line" : "its players, date and first moves";
    if (ids.size() > 1)
        return reject("it matches " + std::to_string(ids.size()) + " stored games by " + how + " (" + id_list(ids) +
                      "), so none was replaced: delete the wrong ones, or change their tags, and import again");
    if ((first_import_id && ids[0] >= first_import_id) || replaced_ids.count(ids[0]))
        return reject("it matches game " + std::to_string(ids[0]) + " by " + how +
                      ", which this same import stored or replaced already");
    if (same_as_stored(p, ids[0])) {
        p.skip = true;
        p.report.action = by_place ? ImportAction::already_imported : ImportAction::duplicate;
        p.report.other_id = ids[0];
        return 0;
    }
    replaced_ids.insert(ids[0]);
    return ids[0];
}

} // namespace gounki::db
