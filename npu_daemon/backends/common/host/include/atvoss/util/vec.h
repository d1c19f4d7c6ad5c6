// The vector operations an atvoss DAG binds (opbase atvoss/util/vec.h), as types on the host:
// each names its result type (DType) and how many arguments it takes. The kernel side of these
// (the regbase micro-instruction library of the arch35 kernels) is not emulated. On the host the
// op base stands in its own 2-byte half and bfloat16_t for the kernel's types.
#pragma once

#include <cstdint>

#include "atvoss/util/elems.h"

namespace Ops {
namespace Base {

struct half {
  uint16_t value;
};
struct bfloat16_t {
  uint16_t value;
};

namespace Vec {

template <typename R, int Inputs>
struct Fun {
  using DType = R;
  static constexpr int InputSize = Inputs;
};

template <typename T>
struct CopyIn : Fun<T, 1> {};
// CopyOut's arguments: the output placeholder and the value written to it.
template <typename T>
struct CopyOut : Fun<T, 2> {};
template <typename T>
struct Duplicate : Fun<T, 1> {};
template <typename T>
struct Abs : Fun<T, 1> {};
template <typename To, typename From, int RoundMode>
struct Cast : Fun<To, 1> {};
// Compare gives a mask of R (uint8_t) from two T operands under a CMPMODE.
template <typename R, typename T, int Mode>
struct Compare : Fun<R, 2> {};
// Select picks between two operands of T by a mask of R under a SELMODE.
template <typename R, typename T, int Mode>
struct Select : Fun<T, 3> {};

}  // namespace Vec
}  // namespace Base
}  // namespace Ops
