// extremum_reducers.hpp — the reducers of amax/amin (the extreme value) and argmax/argmin (the
// first index of it), written once over the ordering: Greater for the max family, Less for the
// min family. NaN wins in both orders (amax and amin propagate it; argmax and argmin return
// the first NaN), as PyTorch does. Used through the drivers of reducer_util.hpp.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "elementwise.hpp"
#include "reducer_util.hpp"

namespace kf::cpu {

/// The max family's order: x beats y when x > y; nothing beats the lowest value.
struct Greater {
  template <class M>
  static bool beats(M x, M y) { return x > y; }
  template <class M>
  static M worst() {
    if constexpr (std::is_floating_point_v<M>) return -std::numeric_limits<M>::infinity();
    else return std::numeric_limits<M>::lowest();
  }
};

/// The min family's order: x beats y when x < y; nothing beats the greatest value.
struct Less {
  template <class M>
  static bool beats(M x, M y) { return x < y; }
  template <class M>
  static M worst() {
    if constexpr (std::is_floating_point_v<M>) return std::numeric_limits<M>::infinity();
    else return std::numeric_limits<M>::max();
  }
};

/// The better of acc and x in Order, a NaN x always taken (so a NaN, once seen, stays).
template <class Order, class M>
inline M pick(M acc, M x) {
  if constexpr (std::is_floating_point_v<M>) {
    return (Order::beats(x, acc) || x != x) ? x : acc;
  } else {
    return Order::beats(x, acc) ? x : acc;
  }
}

/// amax / amin: the extreme value, contiguous rows over kReduceLanes independent lanes.
template <class Order, class T>
struct ExtremumReducer {
  using Acc = OpMath<T>;
  Acc identity() const { return Order::template worst<Acc>(); }
  void step(Acc& acc, T v, int64_t) const { acc = pick<Order>(acc, load(v)); }
  void row(Acc& acc, const char* p, int64_t s, int64_t n, int64_t) const {
    if (s != static_cast<int64_t>(sizeof(T))) {
      for (int64_t i = 0; i < n; ++i) acc = pick<Order>(acc, load(row_elem<T>(p, i, s)));
      return;
    }
    const T* x = reinterpret_cast<const T*>(p);
    Acc lane[kReduceLanes];
    for (int k = 0; k < kReduceLanes; ++k) lane[k] = acc;
    int64_t i = 0;
    for (; i + kReduceLanes <= n; i += kReduceLanes) {
      for (int k = 0; k < kReduceLanes; ++k) lane[k] = pick<Order>(lane[k], load(elem(x, i + k)));
    }
    for (; i < n; ++i) lane[0] = pick<Order>(lane[0], load(elem(x, i)));
    for (int k = 0; k < kReduceLanes; ++k) acc = pick<Order>(acc, lane[k]);
  }
  void combine(Acc& acc, const Acc& later) const { acc = pick<Order>(acc, later); }
  void store(char* out, const Acc& acc) const { *reinterpret_cast<T*>(out) = convert<T>(acc); }
};

template <class T>
struct ArgPick {
  OpMath<T> value;
  int64_t index;  // -1: nothing seen yet
};

/// argmax / argmin: the first index of the extreme value, NaN counting as the extreme.
template <class Order, class T>
struct ArgExtremumReducer {
  using Acc = ArgPick<T>;
  using M = OpMath<T>;
  /// x replaces best: strictly better, or the first NaN.
  static bool better(M x, M best) {
    if constexpr (std::is_floating_point_v<M>) {
      return Order::beats(x, best) || (x != x && best == best);
    } else {
      return Order::beats(x, best);
    }
  }
  Acc identity() const { return Acc{M(), -1}; }
  void step(Acc& acc, T v, int64_t pos) const {
    const M x = load(v);
    if (acc.index < 0 || better(x, acc.value)) acc = Acc{x, pos};
  }
  /// A contiguous run in two passes: its extreme value (vectorised, ExtremumReducer's rule),
  /// then the first position holding it; an earlier position in acc wins ties.
  void row(Acc& acc, const char* p, int64_t s, int64_t n, int64_t pos) const {
    if (s != static_cast<int64_t>(sizeof(T)) || n < 2 * kReduceLanes) {
      for (int64_t i = 0; i < n; ++i) step(acc, row_elem<T>(p, i, s), pos + i);
      return;
    }
    const ExtremumReducer<Order, T> values;
    M m = values.identity();
    values.row(m, p, s, n, pos);
    const T* x = reinterpret_cast<const T*>(p);
    int64_t i = 0;
    if constexpr (std::is_floating_point_v<M>) {
      if (m != m) {
        while (load(elem(x, i)) == load(elem(x, i))) ++i;  // the first NaN
      } else {
        while (load(elem(x, i)) != m) ++i;
      }
    } else {
      while (load(elem(x, i)) != m) ++i;
    }
    combine(acc, Acc{m, pos + i});
  }
  void combine(Acc& acc, const Acc& later) const {
    if (later.index >= 0 && (acc.index < 0 || better(later.value, acc.value))) acc = later;
  }
  void store(char* out, const Acc& acc) const {
    *reinterpret_cast<int64_t*>(out) = acc.index < 0 ? 0 : acc.index;
  }
};

template <class T>
using MaxReducer = ExtremumReducer<Greater, T>;
template <class T>
using MinReducer = ExtremumReducer<Less, T>;
template <class T>
using ArgmaxReducer = ArgExtremumReducer<Greater, T>;
template <class T>
using ArgminReducer = ArgExtremumReducer<Less, T>;

}  // namespace kf::cpu
