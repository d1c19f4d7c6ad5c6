// The leaves of an atvoss DAG (opbase atvoss/util/placeholder.h): the GM inputs and outputs by
// position (Placeholder::In0<T>, Out0<T>) and constants (MAKE_CONST(type, value)). Host side
// only: a DAG is compiled into the host to size the regbase tiling, never run here.
#pragma once

#include <cstdint>

#include "atvoss/util/elems.h"

namespace Ops {
namespace Base {
namespace Placeholder {

template <int Pos, typename T>
struct In {
  static constexpr int Position = Pos;
  using DType = T;
};
template <int Pos, typename T>
struct Out {
  static constexpr int Position = Pos;
  using DType = T;
};

template <typename T>
using In0 = In<0, T>;
template <typename T>
using In1 = In<1, T>;
template <typename T>
using In2 = In<2, T>;
template <typename T>
using In3 = In<3, T>;
template <typename T>
using Out0 = Out<0, T>;
template <typename T>
using Out1 = Out<1, T>;

}  // namespace Placeholder

// A constant leaf: its type and value as static members of a class of its own.
template <typename T>
struct ConstValue {
  using DType = T;
};

}  // namespace Base
}  // namespace Ops

#define ATVOSS_CONCAT_(a, b) a##b
#define ATVOSS_CONCAT(a, b) ATVOSS_CONCAT_(a, b)
// Spelled after `using Name =`: a class named uniquely per use, so every constant is its own type.
#define MAKE_CONST(t, v)                                                        \
  struct ATVOSS_CONCAT(AtvossConst, __COUNTER__) : ::Ops::Base::ConstValue<t> { \
    static constexpr t Value = static_cast<t>(v);                               \
  }
