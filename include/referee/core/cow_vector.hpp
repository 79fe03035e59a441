// A vector shared between copies until one of them changes it (copy on
// write). For data that is copied with its owner far more often than it is
// changed: a Warmaster battlefield's terrain is copied with every state that
// moves a stand, and never changes during a game.
//
// Reads (const access) never copy. Any non-const access (operator[],
// begin/end, push_back, ...) first makes this copy the only owner, copying
// the elements if another copy shares them, so references taken from one copy
// never see changes made through another. Like std::vector, changing it
// invalidates references and iterators into it.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

namespace referee {

template <class T>
class CowVector {
 public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = typename std::vector<T>::iterator;
  using const_iterator = typename std::vector<T>::const_iterator;
  using reference = T&;
  using const_reference = const T&;

  CowVector() = default;
  CowVector(std::initializer_list<T> init) : CowVector(std::vector<T>(init)) {}
  CowVector(std::vector<T> v) : data_(v.empty() ? nullptr : std::make_shared<std::vector<T>>(std::move(v))) {}
  CowVector& operator=(std::initializer_list<T> init) { return *this = CowVector(init); }

  // --- Reads: never copy.
  const std::vector<T>& get() const { return data_ ? *data_ : none(); }
  size_type size() const { return get().size(); }
  bool empty() const { return get().empty(); }
  const_iterator begin() const { return get().begin(); }
  const_iterator end() const { return get().end(); }
  const_iterator cbegin() const { return get().begin(); }
  const_iterator cend() const { return get().end(); }
  const T& operator[](size_type i) const { return get()[i]; }
  const T& at(size_type i) const { return get().at(i); }
  const T& front() const { return get().front(); }
  const T& back() const { return get().back(); }
  bool operator==(const CowVector& o) const { return data_ == o.data_ || get() == o.get(); }

  // --- Writes: this copy becomes the only owner first.
  std::vector<T>& edit() {
    if (!data_) data_ = std::make_shared<std::vector<T>>();
    else if (data_.use_count() > 1) data_ = std::make_shared<std::vector<T>>(*data_);
    return *data_;
  }
  iterator begin() { return edit().begin(); }
  iterator end() { return edit().end(); }
  T& operator[](size_type i) { return edit()[i]; }
  T& at(size_type i) { return edit().at(i); }
  T& front() { return edit().front(); }
  T& back() { return edit().back(); }
  void push_back(const T& v) { edit().push_back(v); }
  void push_back(T&& v) { edit().push_back(std::move(v)); }
  template <class... A>
  T& emplace_back(A&&... a) { return edit().emplace_back(std::forward<A>(a)...); }
  void clear() { data_.reset(); }
  void reserve(size_type n) { edit().reserve(n); }
  void resize(size_type n) { edit().resize(n); }

 private:
  static const std::vector<T>& none() {
    static const std::vector<T> nothing;
    return nothing;
  }
  std::shared_ptr<std::vector<T>> data_;  // null when empty
};

}  // namespace referee
