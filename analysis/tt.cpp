#include "analysis/tt.hpp"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>

namespace gounki::analysis {

TranspositionTable::TranspositionTable(std::size_t megabytes) { resize(megabytes); }

std::size_t max_table_megabytes() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return 65536;
    const std::size_t mb = std::size_t(pages) / 2 * std::size_t(page) / (1024 * 1024);
    return mb ? std::bit_floor(mb) : 1;
}

void TranspositionTable::resize(std::size_t megabytes) {
    std::size_t count = std::min(megabytes, max_table_megabytes()) * 1024 * 1024 / sizeof(Bucket);
    count = count ? std::bit_floor(count) : 1;
    for (;;) {
        try {
            buckets_.clear();
            buckets_.shrink_to_fit();
            buckets_.assign(count, Bucket{});
            break;
        } catch (const std::bad_alloc&) { // what the machine cannot give now: half of it
            if (count == 1) throw;
            count /= 2;
        }
    }
    mask_ = count - 1;
    generation_ = 1;
}

void TranspositionTable::new_search() {
    if (++generation_ == 64) {
        std::memset(static_cast<void*>(buckets_.data()), 0, buckets_.size() * sizeof(Bucket));
        generation_ = 1;
    }
}

bool TranspositionTable::probe(std::uint64_t key, TTHit& hit) const {
    const Bucket& b = buckets_[key & mask_];
    for (const Entry& e : b.e)
        if (e.key == key && (e.meta >> 2) == generation_) {
            hit.move = Move::from_raw(e.move);
            hit.score = e.score;
            hit.depth = e.depth;
            hit.bound = Bound(e.meta & 3);
            return true;
        }
    return false;
}

void TranspositionTable::store(std::uint64_t key, Move move, Score score, int depth, Bound bound) {
    Bucket& b = buckets_[key & mask_];
    Entry* slot = nullptr;
    for (Entry& e : b.e) {
        const bool current = (e.meta >> 2) == generation_;
        if (current && e.key == key) {
            // Keep a deeper result unless the new one is exact; keep the old move if we have none.
            if (bound != Bound::exact && depth < e.depth - 1) return;
            if (!move) move = Move::from_raw(e.move);
            slot = &e;
            break;
        }
        if (!current) { // free for this search
            if (!slot || (slot->meta >> 2) == generation_) slot = &e;
        } else if (!slot || ((slot->meta >> 2) == generation_ && e.depth < slot->depth)) {
            slot = &e;
        }
    }
    slot->key = key;
    slot->move = move.raw();
    slot->score = std::int16_t(score);
    slot->depth = std::int8_t(depth < 0 ? 0 : depth > 127 ? 127 : depth);
    slot->meta = std::uint8_t(generation_ << 2 | int(bound));
}

int TranspositionTable::hashfull() const {
    int used = 0, seen = 0;
    for (std::size_t i = 0; i < buckets_.size() && seen < 1000; ++i)
        for (const Entry& e : buckets_[i].e) {
            used += (e.meta >> 2) == generation_;
            ++seen;
        }
    return seen ? used * 1000 / seen : 0;
}

} // namespace gounki::analysis
