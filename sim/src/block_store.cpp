// Block stores (runtime_state.h) and the process-wide free list they come from,
// so a launch does not map and unmap (and page-fault in) a fresh 200 KB UB per
// block, nor grow its maps and vectors from nothing: that cost more than the
// whole kernel at small sizes.
#include <cstdlib>
#include <new>

#include "ascend_sim/runtime_state.h"

namespace ascend_sim::detail {

BlockStore::BlockStore(size_t bytes) : ub(static_cast<uint8_t*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64))), ubBytes(bytes) {
    if (!ub) throw std::bad_alloc();
}

BlockStore::~BlockStore() { std::free(ub); }

// Everything lent by the store starts empty: only capacity carries over.
Block::Block(BlockStore& s)
    : store(s),
      ub(s.ub),
      hz(s.ubCells, s.gmCells),
      init(s.initNodes),
      bufs(std::move(s.bufs)),
      queues(std::move(s.queues)),
      spareInts(std::move(s.spareInts)),
      dirtyLines(PoolAllocator<uint64_t>(&s.lineNodes)),
      cachedLines(PoolAllocator<uint64_t>(&s.lineNodes)),
      staleLines(PoolAllocator<uint64_t>(&s.lineNodes)),
      records(std::move(s.records)),
      scalarReadsSeen(std::move(s.scalarReadsSeen)) {
    bufs.clear();
    for (Queue& q : queues)
        for (std::vector<int32_t>* v : {&q.bufs, &q.ring}) {
            v->clear();
            spareInts.push_back(std::move(*v));
        }
    queues.clear();
    records.clear();
    scalarReadsSeen.clear();
}

Block::~Block() {
    store.bufs = std::move(bufs);
    store.queues = std::move(queues);
    store.spareInts = std::move(spareInts);
    store.records = std::move(records);
    store.scalarReadsSeen = std::move(scalarReadsSeen);
}

namespace {
class StorePool {
public:
    std::unique_ptr<BlockStore> take(size_t ubBytes) {
        {
            std::lock_guard<std::mutex> lk(mu_);
            for (size_t i = free_.size(); i-- > 0;)
                if (free_[i]->ubBytes == ubBytes) {
                    std::unique_ptr<BlockStore> s = std::move(free_[i]);
                    free_[i] = std::move(free_.back());
                    free_.pop_back();
                    return s;
                }
        }
        return std::make_unique<BlockStore>(ubBytes);
    }
    void give(std::unique_ptr<BlockStore> s) {
        std::lock_guard<std::mutex> lk(mu_);
        if (free_.size() < kMaxCached) free_.push_back(std::move(s));
    }

private:
    static constexpr size_t kMaxCached = 128;  // enough for 64 resident blocks twice over (~33 MB of UB at most)
    std::mutex mu_;
    std::vector<std::unique_ptr<BlockStore>> free_;
};

StorePool& pool() {
    static StorePool* p = new StorePool;  // never destroyed: blocks of detached launches may still return stores
    return *p;
}
}  // namespace

std::unique_ptr<BlockStore> take_store(size_t ubBytes) { return pool().take(ubBytes); }
void give_store(std::unique_ptr<BlockStore> s) { pool().give(std::move(s)); }

}  // namespace ascend_sim::detail
