#include "db/position_index.hpp"

#include <algorithm>
#include <limits>
#include <bit>
#include <map>

namespace gounki::db {

namespace {

// A block stays under SQLite's largest local payload of an index B-tree cell (about 1000 bytes on
// 4 KB pages, less the other columns; more on the 16 KB pages of new files), so it never spills to
// an overflow page whatever the page size.
constexpr std::size_t block_limit = 900;

void encode_entry(const IndexEntry& e, const IndexEntry* prev, std::vector<std::uint8_t>& out) {
    if (!prev) {
        put_varint(out, 0);
        put_varint(out, std::uint64_t(e.game));
    } else {
        const std::uint64_t dk = e.key - prev->key; // the signed order makes this the true distance
        put_varint(out, dk);
        put_varint(out, dk ? std::uint64_t(e.game) : std::uint64_t(e.game - prev->game));
    }
    put_varint(out, e.ply);
}

// The block a key falls in: the top bits of a mixed key scaled to the block count, without
// 128-bit arithmetic (not ISO C++): 32 x 32 bits is enough below four billion blocks.
std::size_t block_of(std::uint64_t h, std::size_t blocks) { return std::size_t(((h >> 32) * std::uint64_t(blocks)) >> 32); }

std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 33)) * 0xff51afd7ed558ccdull;
    z = (z ^ (z >> 33)) * 0xc4ceb9fe1a85ec53ull;
    return z ^ (z >> 33);
}

} // namespace

void encode_block(std::span<const IndexEntry> sorted, std::vector<std::uint8_t>& out) {
    for (std::size_t i = 0; i < sorted.size(); ++i) encode_entry(sorted[i], i ? &sorted[i - 1] : nullptr, out);
}

// ---- Bloom filter ----

BloomFilter::BloomFilter(std::size_t expected_keys) {
    const std::size_t blocks = std::max<std::size_t>(1, (expected_keys * 10 + 511) / 512);
    words_.assign(blocks * 8, 0);
}

BloomFilter BloomFilter::from_bytes(std::span<const std::uint8_t> bytes) {
    BloomFilter f;
    if (bytes.size() % 64 != 0) return f; // malformed: empty, which may_contain treats as "maybe"
    f.words_.resize(bytes.size() / 8);
    for (std::size_t i = 0; i < f.words_.size(); ++i) {
        std::uint64_t w = 0;
        for (int b = 7; b >= 0; --b) w = w << 8 | bytes[i * 8 + std::size_t(b)];
        f.words_[i] = w;
    }
    return f;
}

// The block comes from the key's top bits, without mixing: keys are Zobrist hashes, so these are
// uniform, and a run's keys, added in sorted order, then fill the filter front to back instead of
// missing the cache at every key. The bits inside the block come from the mixed key.
void BloomFilter::add(std::uint64_t key) {
    const std::size_t block = block_of(key ^ (std::uint64_t(1) << 63), words_.size() / 8) * 8;
    std::uint64_t bits = mix(key);
    for (int i = 0; i < 6; ++i, bits >>= 9) words_[block + ((bits >> 6) & 7)] |= std::uint64_t(1) << (bits & 63);
}

bool BloomFilter::may_contain(std::uint64_t key) const {
    if (words_.empty()) return true;
    const std::size_t block = block_of(key ^ (std::uint64_t(1) << 63), words_.size() / 8) * 8;
    std::uint64_t bits = mix(key);
    for (int i = 0; i < 6; ++i, bits >>= 9)
        if (!(words_[block + ((bits >> 6) & 7)] >> (bits & 63) & 1)) return false;
    return true;
}

std::span<const std::uint8_t> BloomFilter::bytes() const {
    static_assert(std::endian::native == std::endian::little, "the Bloom filter bytes are little-endian words");
    return {reinterpret_cast<const std::uint8_t*>(words_.data()), words_.size() * 8};
}

// ---- reading the blocks of a key ----

namespace {

constexpr int block_page = 8;

// The blocks of `run` that may hold `key`, in order, to `visit(first_key, data, last_key, seq)`,
// which returns false to stop; `find` is find_blocks_, read a page at a time.
template <class Visit>
void blocks_for_key(Statement& find, std::int64_t run, std::uint64_t key, Visit&& visit) {
    std::int64_t from_last = std::int64_t(key), from_seq = std::numeric_limits<std::int64_t>::min();
    for (;;) {
        int rows = 0;
        const ResetAtExit done(find);
        find.bind(1, run).bind(2, from_last).bind(3, from_seq);
        while (find.step()) {
            ++rows;
            const auto first = std::uint64_t(find.get_int64(0));
            if (std::int64_t(first) > std::int64_t(key)) return;
            from_last = find.get_int64(2);
            const std::int64_t seq = find.get_int64(3);
            from_seq = seq + 1;
            if (!visit(first, find.get_blob(1), from_last, seq)) return;
        }
        if (rows < block_page) return;
    }
}

} // namespace

// ---- writing a run ----

namespace {

class RunWriter {
public:
    RunWriter(Database& db, Statement& insert_run, BulkWriter& insert_block, std::int64_t expected_entries)
        : db_(db), insert_block_(insert_block), bloom_(std::size_t(std::max<std::int64_t>(expected_entries, 1))) {
        insert_run.bind(1, std::int64_t(0)).bind_blob(2, {});
        insert_run.run();
        run_id_ = db_.last_insert_rowid();
    }

    void add(const IndexEntry& e) {
        if (entries_ == 0 || e.key != last_.key) bloom_.add(e.key);
        scratch_.clear();
        encode_entry(e, block_entries_ ? &last_ : nullptr, scratch_);
        if (block_entries_ && buf_.size() + scratch_.size() > block_limit) {
            flush();
            scratch_.clear();
            encode_entry(e, nullptr, scratch_);
        }
        if (block_entries_ == 0) first_key_ = e.key;
        buf_.insert(buf_.end(), scratch_.begin(), scratch_.end());
        last_ = e;
        ++block_entries_;
        ++entries_;
    }

    // Writes the last block and the run's size and filter; returns the run id.
    std::int64_t finish(Statement& update_run) {
        flush();
        update_run.bind(1, entries_).bind_blob(2, bloom_.bytes()).bind(3, run_id_);
        update_run.run();
        return run_id_;
    }

    std::int64_t entries() const { return entries_; }
    BloomFilter take_bloom() { return std::move(bloom_); }

private:
    void flush() {
        if (!block_entries_) return;
        insert_block_.add(run_id_).add(std::int64_t(last_.key)).add(seq_++).add(std::int64_t(first_key_)).add_blob(buf_).end_row();
        buf_.clear();
        block_entries_ = 0;
    }

    Database& db_;
    BulkWriter& insert_block_;
    BloomFilter bloom_;
    std::int64_t run_id_ = 0;
    std::int64_t seq_ = 0;
    std::int64_t entries_ = 0;
    int block_entries_ = 0;
    std::uint64_t first_key_ = 0;
    IndexEntry last_;
    std::vector<std::uint8_t> buf_, scratch_;
};

} // namespace

PositionIndex::PositionIndex(Database& db)
    : db_(db), insert_run_(db, "INSERT INTO position_runs (entries, bloom) VALUES (?1, ?2)"),
      update_bloom_(db, "UPDATE position_runs SET entries = ?1, bloom = ?2 WHERE id = ?3"),
      insert_block_(db, "position_blocks", "run_id, last_key, seq, first_key, data"),
      // A page of blocks at a time: a server sends a statement's whole answer at once, and a run's
      // blocks past the key are not wanted.
      find_blocks_(db,
                   "SELECT first_key, data, last_key, seq FROM position_blocks WHERE run_id = ?1 AND (last_key, seq) >= "
                   "(?2, ?3) ORDER BY last_key, seq LIMIT " + std::to_string(block_page)),
      list_runs_(db, "SELECT id, entries FROM position_runs ORDER BY id"),
      load_bloom_(db, "SELECT bloom FROM position_runs WHERE id = ?1") {}

void PositionIndex::add_run(std::span<const IndexEntry> sorted) {
    if (sorted.empty()) return;
    RunWriter w(db_, insert_run_, insert_block_, std::int64_t(sorted.size()));
    for (const IndexEntry& e : sorted) w.add(e);
    const std::int64_t id = w.finish(update_bloom_);
    // An importer keeps the filter of the run it wrote rather than read it back next batch. Had
    // the transaction to fail, refresh_filters() drops it: the run id is then gone.
    filters_[id] = KnownFilter{w.entries(), w.take_bloom()};
}

std::vector<RunInfo> PositionIndex::runs() {
    std::vector<RunInfo> out;
    const ResetAtExit done(list_runs_);
    while (list_runs_.step()) out.push_back({list_runs_.get_int64(0), list_runs_.get_int64(1)});
    return out;
}

void PositionIndex::lookup_run(std::int64_t run, std::uint64_t key, std::vector<IndexEntry>& out, std::uint32_t min_ply) {
    blocks_for_key(find_blocks_, run, key, [&](std::uint64_t first, std::span<const std::uint8_t> data, std::int64_t, std::int64_t) {
        bool past = false;
        const bool ok = decode_block(first, data, [&](const IndexEntry& e) {
            if (e.key == key) {
                if (e.ply >= min_ply) out.push_back(e);
            }
            else if (std::int64_t(e.key) > std::int64_t(key)) past = true;
        });
        if (!ok) throw DbError(0, "the position index is damaged (a malformed block in run " + std::to_string(run) + ")");
        return !past;
    });
}

void PositionIndex::lookup(std::uint64_t key, std::vector<IndexEntry>& out, std::uint32_t min_ply) {
    // Each run gives its entries sorted by (game, ply); merging the runs' pieces pairwise costs
    // less than sorting a million entries of a popular position.
    std::vector<std::size_t> bounds{out.size()};
    for (const RunInfo& r : runs()) {
        lookup_run(r.id, key, out, min_ply);
        if (out.size() != bounds.back()) bounds.push_back(out.size());
    }
    while (bounds.size() > 2) {
        std::vector<std::size_t> merged{bounds[0]};
        for (std::size_t i = 0; i + 2 < bounds.size(); i += 2) {
            std::inplace_merge(out.begin() + std::ptrdiff_t(bounds[i]), out.begin() + std::ptrdiff_t(bounds[i + 1]),
                               out.begin() + std::ptrdiff_t(bounds[i + 2]));
            merged.push_back(bounds[i + 2]);
        }
        if (bounds.size() % 2 == 0) merged.push_back(bounds.back());
        bounds.swap(merged);
    }
}

void PositionIndex::refresh_filters() {
    std::unordered_map<std::int64_t, KnownFilter> kept;
    for (const RunInfo& r : runs()) {
        auto it = filters_.find(r.id);
        if (it != filters_.end() && it->second.entries == r.entries) {
            kept.emplace(r.id, std::move(it->second));
            continue;
        }
        // Another importer's run, or one a deletion shrank: read its filter.
        BloomFilter f;
        {
            const ResetAtExit done(load_bloom_);
            load_bloom_.bind(1, r.id);
            if (load_bloom_.step()) f = BloomFilter::from_bytes(load_bloom_.get_blob(0));
        }
        kept.emplace(r.id, KnownFilter{r.entries, std::move(f)});
    }
    filters_ = std::move(kept);
    active_.clear();
    for (const auto& [id, known] : filters_) active_.emplace_back(id, &known.filter);
    std::sort(active_.begin(), active_.end());
}

std::vector<bool> PositionIndex::may_contain(std::span<const std::uint64_t> sorted_keys) const {
    std::vector<bool> out(sorted_keys.size(), false);
    for (const auto& [run, filter] : active_)
        for (std::size_t i = 0; i < sorted_keys.size(); ++i)
            if (!out[i] && filter->may_contain(sorted_keys[i])) out[i] = true;
    return out;
}

void PositionIndex::lookup_filtered(std::uint64_t key, std::vector<IndexEntry>& out) {
    for (const auto& [run, filter] : active_)
        if (filter->may_contain(key)) lookup_run(run, key, out);
}

namespace {

// The games being removed, as a bitmap over their range of ids: one test per entry of the index.
class GameSet {
public:
    explicit GameSet(std::span<const std::int64_t> sorted) {
        if (sorted.empty()) return;
        low_ = sorted.front();
        bits_.assign(std::size_t(sorted.back() - low_) / 64 + 1, 0);
        for (std::int64_t g : sorted) bits_[std::size_t(g - low_) / 64] |= std::uint64_t(1) << (std::uint64_t(g - low_) % 64);
    }
    bool contains(std::int64_t g) const {
        if (g < low_) return false;
        const std::uint64_t d = std::uint64_t(g - low_);
        return d / 64 < bits_.size() && (bits_[d / 64] >> (d % 64) & 1);
    }

private:
    std::int64_t low_ = 0;
    std::vector<std::uint64_t> bits_;
};

// A block read by remove_games, with what stays of it once read.
struct PageBlock {
    std::uint64_t first_key = 0;
    std::int64_t last_key = 0, seq = 0;
    std::vector<std::uint8_t> data;
    std::vector<IndexEntry> kept;
    std::int64_t removed = 0;
};

bool key_less(std::uint64_t a, std::uint64_t b) { return std::int64_t(a) < std::int64_t(b); }

// Takes the entries of the games being removed out of pages of blocks, and writes the blocks that
// changed again.
class PageRewriter {
public:
    PageRewriter(Database& db, BulkWriter& insert, std::span<const std::int64_t> sorted_games, std::span<const std::uint64_t> sorted_keys)
        : postgres_(db.is_postgres()), insert_(insert), doomed_(sorted_games), keys_(sorted_keys),
          update_(db, "UPDATE position_blocks SET first_key = ?4, data = ?5 WHERE run_id = ?1 AND last_key = ?2 AND seq = ?3"),
          drop_(db, "DELETE FROM position_blocks WHERE run_id = ?1 AND last_key = ?2 AND seq = ?3"),
          drop_range_(db, "DELETE FROM position_blocks WHERE run_id = ?1 AND (last_key, seq) >= (?2, ?3) AND (last_key, seq) <= (?4, ?5)") {}

    // The entries removed from this page of the run's blocks. by_key: only the blocks that may hold
    // one of the keys are decoded.
    std::int64_t sift(std::int64_t run, std::vector<PageBlock>& blocks, bool by_key) {
        std::size_t lo = blocks.size(), hi = 0;
        std::int64_t removed = 0;
        for (std::size_t i = 0; i < blocks.size(); ++i) {
            PageBlock& b = blocks[i];
            if (by_key) {
                const auto k = std::lower_bound(keys_.begin(), keys_.end(), b.first_key, key_less);
                if (k == keys_.end() || std::int64_t(*k) > b.last_key) continue;
            }
            const bool ok = decode_block(b.first_key, b.data, [&](const IndexEntry& e) {
                if (doomed_.contains(e.game)) ++b.removed;
                else b.kept.push_back(e);
            });
            if (!ok) throw DbError(0, "the position index is damaged (a malformed block in run " + std::to_string(run) + ")");
            if (!b.removed) continue;
            lo = std::min(lo, i);
            hi = i;
            removed += b.removed;
        }
        if (lo == blocks.size()) return removed;
        if (postgres_) write_span(run, blocks, lo, hi);
        else write_in_place(run, blocks, lo, hi);
        return removed;
    }

private:
    // The block keeps its number: its entries still lie between its neighbours'.
    void insert_kept(std::int64_t run, const PageBlock& b) {
        insert_.add(run).add(std::int64_t(b.kept.back().key)).add(b.seq).add(std::int64_t(b.kept.front().key)).add_blob(data_).end_row();
    }

    // SQLite: each changed block written again where it lies (no round trips to save).
    void write_in_place(std::int64_t run, const std::vector<PageBlock>& blocks, std::size_t lo, std::size_t hi) {
        for (std::size_t i = lo; i <= hi; ++i) {
            const PageBlock& b = blocks[i];
            if (!b.removed) continue;
            data_.clear();
            encode_block(b.kept, data_);
            if (!b.kept.empty() && std::int64_t(b.kept.back().key) == b.last_key) {
                update_.bind(1, run).bind(2, b.last_key).bind(3, b.seq).bind(4, std::int64_t(b.kept.front().key)).bind_blob(5, data_);
                update_.run();
                continue;
            }
            drop_.bind(1, run).bind(2, b.last_key).bind(3, b.seq);
            drop_.run();
            if (!b.kept.empty()) insert_kept(run, b);
        }
    }

    // PostgreSQL: the span of changed blocks deleted in one statement and sent again by COPY.
    void write_span(std::int64_t run, const std::vector<PageBlock>& blocks, std::size_t lo, std::size_t hi) {
        drop_range_.bind(1, run).bind(2, blocks[lo].last_key).bind(3, blocks[lo].seq).bind(4, blocks[hi].last_key).bind(5, blocks[hi].seq);
        drop_range_.run();
        for (std::size_t i = lo; i <= hi; ++i) {
            const PageBlock& b = blocks[i];
            if (!b.removed) {
                insert_.add(run).add(b.last_key).add(b.seq).add(std::int64_t(b.first_key)).add_blob(b.data).end_row();
            } else if (!b.kept.empty()) {
                data_.clear();
                encode_block(b.kept, data_);
                insert_kept(run, b);
            }
        }
    }

    bool postgres_;
    BulkWriter& insert_;
    GameSet doomed_;
    std::span<const std::uint64_t> keys_;
    Statement update_, drop_, drop_range_;
    std::vector<std::uint8_t> data_;
};

} // namespace

std::int64_t PositionIndex::remove_games(std::span<const std::int64_t> sorted_games, std::span<const std::uint64_t> sorted_keys) {
    if (sorted_games.empty()) return 0;
    PageRewriter rewriter(db_, insert_block_, sorted_games, sorted_keys);
    Statement page(db_,
                   "SELECT first_key, data, last_key, seq FROM position_blocks WHERE run_id = ?1 AND (last_key, seq) >= (?2, ?3) "
                   "ORDER BY last_key, seq LIMIT ?4");
    Statement update_entries(db_, "UPDATE position_runs SET entries = entries - ?1 WHERE id = ?2");
    Statement drop_empty(db_, "DELETE FROM position_runs WHERE id = ?1 AND entries <= 0");
    std::int64_t total = 0;
    for (const RunInfo& r : runs()) {
        // About 80 entries a block: a run of many more blocks than keys is read key by key, a few
        // blocks a seek; otherwise from end to end, a page of 256 blocks at a time.
        const bool by_key = !sorted_keys.empty() && std::int64_t(sorted_keys.size()) * 256 < r.entries;
        const std::int64_t page_rows = by_key ? 4 : 256;
        std::int64_t from_last = by_key ? std::int64_t(sorted_keys.front()) : std::numeric_limits<std::int64_t>::min();
        std::int64_t from_seq = std::numeric_limits<std::int64_t>::min(), removed = 0;
        for (;;) {
            std::vector<PageBlock> blocks;
            {
                const ResetAtExit done(page);
                page.bind(1, r.id).bind(2, from_last).bind(3, from_seq).bind(4, page_rows);
                while (page.step()) {
                    const auto data = page.get_blob(1);
                    blocks.push_back({std::uint64_t(page.get_int64(0)), page.get_int64(2), page.get_int64(3),
                                      {data.begin(), data.end()}, {}, 0});
                }
            }
            if (blocks.empty()) break;
            removed += rewriter.sift(r.id, blocks, by_key);
            if (std::int64_t(blocks.size()) < page_rows) break;
            from_last = blocks.back().last_key;
            from_seq = blocks.back().seq + 1;
            if (by_key) {
                // On to the next key past this page; none: the run is done.
                const auto next = std::upper_bound(sorted_keys.begin(), sorted_keys.end(), std::uint64_t(from_last), key_less);
                if (next == sorted_keys.end()) break;
                if (std::int64_t(*next) > from_last) {
                    from_last = std::int64_t(*next);
                    from_seq = std::numeric_limits<std::int64_t>::min();
                }
            }
        }
        if (removed) {
            update_entries.bind(1, removed).bind(2, r.id);
            update_entries.run();
            drop_empty.bind(1, r.id);
            drop_empty.run();
            total += removed;
        }
    }
    return total;
}

int PositionIndex::compact() {
    int merges = 0;
    for (;;) {
        // Size tiers: below 4096 entries, then each tier 8 times the one before.
        std::map<int, std::vector<std::int64_t>> tiers;
        for (const RunInfo& r : runs()) {
            int t = 0;
            for (std::int64_t m = r.entries / 4096; m > 0; m /= 8) ++t;
            tiers[t].push_back(r.id);
        }
        const std::vector<std::int64_t>* full = nullptr;
        for (const auto& [t, ids] : tiers)
            if (ids.size() >= 8) {
                full = &ids;
                break;
            }
        if (!full) return merges;
        merge(*full);
        ++merges;
    }
}

void PositionIndex::compact_all() {
    std::vector<std::int64_t> ids;
    for (const RunInfo& r : runs()) ids.push_back(r.id);
    if (ids.size() > 1) merge(ids);
}

namespace {

// One run's entries in key order, read block by block.
struct RunSource {
    Statement blocks;
    std::vector<IndexEntry> buf;
    std::size_t pos = 0;
    // The next entry into `e`; false when the run is done.
    bool next(IndexEntry& e) {
        while (pos == buf.size()) {
            buf.clear();
            pos = 0;
            if (!blocks.step()) return false;
            if (!decode_block(std::uint64_t(blocks.get_int64(0)), blocks.get_blob(1), [&](const IndexEntry& x) { buf.push_back(x); }))
                throw DbError(0, "the position index is damaged (a malformed block)");
        }
        e = buf[pos++];
        return true;
    }
};

// The sources' entries into `w` in key order: a binary min-heap of their next entries whose top is
// replaced in place as it is used (one sift per entry, where a priority queue pops and pushes).
void merge_sources(std::vector<RunSource>& sources, RunWriter& w) {
    struct Head {
        IndexEntry e;
        std::size_t source;
    };
    std::vector<Head> heap;
    for (std::size_t i = 0; i < sources.size(); ++i) {
        Head h{{}, i};
        if (sources[i].next(h.e)) heap.push_back(h);
    }
    const auto sift_down = [&heap](std::size_t i) {
        const std::size_t n = heap.size();
        const Head h = heap[i];
        for (;;) {
            std::size_t c = 2 * i + 1;
            if (c >= n) break;
            if (c + 1 < n && heap[c + 1].e < heap[c].e) ++c;
            if (!(heap[c].e < h.e)) break;
            heap[i] = heap[c];
            i = c;
        }
        heap[i] = h;
    };
    for (std::size_t i = heap.size() / 2; i-- > 0;) sift_down(i);
    while (!heap.empty()) {
        w.add(heap[0].e);
        if (!sources[heap[0].source].next(heap[0].e)) {
            heap[0] = heap.back();
            heap.pop_back();
            if (heap.empty()) break;
        }
        sift_down(0);
    }
}

} // namespace

void PositionIndex::merge(std::span<const std::int64_t> run_ids) {
    Transaction tx(db_, TransactionKind::immediate);
    // Another importer may have merged these runs meanwhile: merge only those still there.
    std::vector<RunInfo> present;
    std::int64_t total = 0;
    for (const RunInfo& r : runs())
        if (std::find(run_ids.begin(), run_ids.end(), r.id) != run_ids.end()) {
            present.push_back(r);
            total += r.entries;
        }
    if (present.size() < 2) return;

    std::vector<RunSource> sources;
    sources.reserve(present.size());
    for (const RunInfo& r : present) {
        sources.push_back(RunSource{
            Statement(db_, "SELECT first_key, data FROM position_blocks WHERE run_id = ?1 ORDER BY last_key, seq"), {}, 0});
        sources.back().blocks.bind(1, r.id);
    }
    RunWriter w(db_, insert_run_, insert_block_, total);
    merge_sources(sources, w);
    sources.clear(); // finalises their statements before the merged run is written
    const std::int64_t merged = w.finish(update_bloom_);
    Statement drop(db_, "DELETE FROM position_runs WHERE id = ?1");
    for (const RunInfo& r : present) {
        drop.bind(1, r.id);
        drop.run();
    }
    tx.commit();
    filters_[merged] = KnownFilter{w.entries(), w.take_bloom()};
}

} // namespace gounki::db
