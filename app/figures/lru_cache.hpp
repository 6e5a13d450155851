// A small cache of shared, immutable results keyed by the values of their inputs: at most
// `capacity` entries, the least recently used one dropped first, with its hits, misses and size
// counted. Not locked: its owner (FigureCache) holds its own mutex around every call.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace rope::figures {

struct CacheStats {
    std::size_t entries = 0, capacity = 0;
    std::uint64_t hits = 0, misses = 0;
    std::size_t bytes = 0;  // what the entries hold, roughly (their main arrays)
};

template <typename Key, typename Value>
class LruCache {
public:
    // `bytes_of`: the memory a value holds (for the stats).
    LruCache(std::size_t capacity, std::size_t (*bytes_of)(const Value&)) : capacity_(capacity), bytes_of_(bytes_of) {}

    // The value kept for `key`, marked as used at `clock` (a hit), or null (a miss).
    std::shared_ptr<const Value> find(const Key& key, std::uint64_t clock) {
        for (Entry& e : entries_)
            if (e.key == key) {
                e.last_use = clock;
                ++hits_;
                return e.value;
            }
        ++misses_;
        return nullptr;
    }

    // Keeps `value` for `key` (another thread may have kept one meanwhile: the newer replaces it).
    void put(Key key, std::shared_ptr<const Value> value, std::uint64_t clock) {
        entries_.erase(std::remove_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.key == key; }), entries_.end());
        if (entries_.size() >= capacity_) {
            const auto oldest = std::min_element(entries_.begin(), entries_.end(),
                                                 [](const Entry& a, const Entry& b) { return a.last_use < b.last_use; });
            entries_.erase(oldest);
        }
        entries_.push_back({std::move(key), std::move(value), clock});
    }

    // Drops the entries no one asked for since `mark` (idle: what the screen shows stays).
    void drop_unused_since(std::uint64_t mark) {
        entries_.erase(std::remove_if(entries_.begin(), entries_.end(), [mark](const Entry& e) { return e.last_use <= mark; }),
                       entries_.end());
        entries_.shrink_to_fit();
    }

    CacheStats stats() const {
        CacheStats s{entries_.size(), capacity_, hits_, misses_, 0};
        for (const Entry& e : entries_) s.bytes += bytes_of_(*e.value);
        return s;
    }

private:
    struct Entry {
        Key key;
        std::shared_ptr<const Value> value;
        std::uint64_t last_use;
    };
    std::vector<Entry> entries_;
    std::size_t capacity_;
    std::size_t (*bytes_of_)(const Value&);
    std::uint64_t hits_ = 0, misses_ = 0;
};

}  // namespace rope::figures
