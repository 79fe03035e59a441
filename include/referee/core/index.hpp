// A typed index into a vector: the place of a unit in a battlefield's units,
// of a stand in its unit's stands. Each kind of index is its own type
// (Index<Tag>, one tag a kind), so a stand's index cannot be passed where a
// unit's is wanted, and indexing a vector needs no cast: `v[i.slot()]`, or
// `at(v, i)`.
//
// It holds an std::int32_t, as the plain ints it replaces did, so a state
// keeps its size and a file or a log keeps its numbers: `value()` gives the
// int back where one is written or read. `none()` (-1) stands for "no such
// element", where an int index used -1.
#pragma once

#include <compare>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace referee {

template <class Tag>
class Index {
 public:
  constexpr Index() = default;  // the first element
  // From an int, or a loop's std::size_t counter.
  constexpr explicit Index(std::integral auto v) : v_(static_cast<std::int32_t>(v)) {}

  static constexpr Index none() { return Index(-1); }
  constexpr bool is_none() const { return v_ < 0; }

  constexpr int value() const { return v_; }
  constexpr std::size_t slot() const { return static_cast<std::size_t>(v_); }
  // Whether it names an element of a vector of `size` elements.
  constexpr bool within(std::size_t size) const { return v_ >= 0 && slot() < size; }

  constexpr Index& operator++() {
    ++v_;
    return *this;
  }
  constexpr Index operator++(int) {
    Index before = *this;
    ++v_;
    return before;
  }

  friend constexpr bool operator==(Index, Index) = default;
  friend constexpr auto operator<=>(Index, Index) = default;

 private:
  std::int32_t v_ = 0;
};

// Element `i` of `v`.
template <class T, class Tag>
constexpr T& at(std::vector<T>& v, Index<Tag> i) {
  return v[i.slot()];
}
template <class T, class Tag>
constexpr const T& at(const std::vector<T>& v, Index<Tag> i) {
  return v[i.slot()];
}

// The ints of `v`, as a file or an answer writes a list of indices.
template <class Tag>
std::vector<int> values_of(const std::vector<Index<Tag>>& v) {
  std::vector<int> out;
  out.reserve(v.size());
  for (Index<Tag> i : v) out.push_back(i.value());
  return out;
}

// Every index of a vector of `n` elements, first to last:
// `for (UnitIndex u : IndexRange<UnitIndex>(bf.units.size()))`.
template <class I>
class IndexRange {
 public:
  class iterator {
   public:
    using value_type = I;
    using difference_type = std::ptrdiff_t;
    constexpr iterator() = default;
    constexpr explicit iterator(I i) : i_(i) {}
    constexpr I operator*() const { return i_; }
    constexpr iterator& operator++() {
      ++i_;
      return *this;
    }
    friend constexpr bool operator==(iterator, iterator) = default;

   private:
    I i_;
  };

  constexpr explicit IndexRange(std::size_t n) : end_(n) {}
  constexpr iterator begin() const { return iterator(I(0)); }
  constexpr iterator end() const { return iterator(end_); }

 private:
  I end_;
};

// The same, over the elements of `v`.
template <class I, class T>
constexpr IndexRange<I> indices(const std::vector<T>& v) {
  return IndexRange<I>(v.size());
}

// Every index of `v` as a list, first to last (an order to sort).
template <class I, class T>
std::vector<I> index_list(const std::vector<T>& v) {
  std::vector<I> out;
  out.reserve(v.size());
  for (I i : indices<I>(v)) out.push_back(i);
  return out;
}

}  // namespace referee

template <class Tag>
struct std::hash<referee::Index<Tag>> {
  std::size_t operator()(referee::Index<Tag> i) const noexcept { return std::hash<int>{}(i.value()); }
};
