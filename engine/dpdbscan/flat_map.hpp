#pragma once
// A flat open-addressing hash map keyed by 64-bit cell codes (linear probing, power-of-two capacity,
// load factor <= 1/2). Codes are < 2^62 (grid.hpp), so the all-ones key marks an empty slot. Used when
// the universe |X| is too large for dense arrays; iteration order never leaks into results (callers
// sort what they extract).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dpclust::dpdbscan {

template <class V>
class FlatMap {
 public:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};

  explicit FlatMap(std::size_t expected = 16) { rehash(capacity_for(expected)); }

  std::size_t size() const { return size_; }

  // The value of key, default-constructed and inserted when absent.
  V& operator[](std::uint64_t key) {
    if (2 * (size_ + 1) > keys_.size()) rehash(keys_.size() * 2);
    std::size_t i = slot(key);
    while (keys_[i] != kEmpty) {
      if (keys_[i] == key) return vals_[i];
      i = (i + 1) & mask_;
    }
    keys_[i] = key;
    vals_[i] = V{};
    ++size_;
    return vals_[i];
  }
  // Inserts key -> v when absent; returns false (and leaves the map unchanged) when present.
  bool insert(std::uint64_t key, const V& v) {
    if (2 * (size_ + 1) > keys_.size()) rehash(keys_.size() * 2);
    std::size_t i = slot(key);
    while (keys_[i] != kEmpty) {
      if (keys_[i] == key) return false;
      i = (i + 1) & mask_;
    }
    keys_[i] = key;
    vals_[i] = v;
    ++size_;
    return true;
  }
  const V* find(std::uint64_t key) const {
    std::size_t i = slot(key);
    while (keys_[i] != kEmpty) {
      if (keys_[i] == key) return &vals_[i];
      i = (i + 1) & mask_;
    }
    return nullptr;
  }
  bool contains(std::uint64_t key) const { return find(key) != nullptr; }

  template <class F>
  void for_each(F&& f) const {
    for (std::size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] != kEmpty) f(keys_[i], vals_[i]);
  }

 private:
  static std::size_t capacity_for(std::size_t n) {
    std::size_t c = 16;
    while (c < 2 * n) c *= 2;
    return c;
  }
  std::size_t slot(std::uint64_t key) const {
    // Fibonacci hashing of a SplitMix-style mix: neighbouring codes land far apart.
    std::uint64_t x = key ^ (key >> 31);
    x *= 0x9e3779b97f4a7c15ULL;
    return static_cast<std::size_t>(x >> shift_);
  }
  void rehash(std::size_t cap) {
    std::vector<std::uint64_t> old_keys(cap, kEmpty);
    std::vector<V> old_vals(cap);
    old_keys.swap(keys_);
    old_vals.swap(vals_);
    mask_ = cap - 1;
    shift_ = 64;
    for (std::size_t c = cap; c > 1; c >>= 1) --shift_;
    size_ = 0;
    for (std::size_t i = 0; i < old_keys.size(); ++i)
      if (old_keys[i] != kEmpty) insert(old_keys[i], old_vals[i]);
  }

  std::vector<std::uint64_t> keys_;
  std::vector<V> vals_;
  std::size_t mask_ = 0;
  unsigned shift_ = 64;
  std::size_t size_ = 0;
};

}  // namespace dpclust::dpdbscan
