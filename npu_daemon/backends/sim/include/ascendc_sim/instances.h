// The API templates kernels instantiate most, for the element types they take: declared
// `extern template` here and instantiated once in the runtime library (runtime/instances.cpp, built
// at -O3), so a kernel's translation unit neither instantiates nor optimises them (docs/simulator.md,
// Speed). Their definitions are not `inline`: g++ instantiates an extern template declared inline
// whenever it optimises. Any other type or overload is instantiated in the kernel as before.
#pragma once

#ifdef ASCENDC_SIM_INSTANTIATE
#define ASCENDC_SIM_INSTANCE template
#else
#define ASCENDC_SIM_INSTANCE extern template
#endif

#define ASCENDC_SIM_DATA_COPY_INSTANCES(T)                                                                             \
  ASCENDC_SIM_INSTANCE void DataCopy<T>(const LocalTensor<T>&, const GlobalTensor<T>&, uint32_t, SrcLoc);              \
  ASCENDC_SIM_INSTANCE void DataCopy<T>(const GlobalTensor<T>&, const LocalTensor<T>&, uint32_t, SrcLoc);              \
  ASCENDC_SIM_INSTANCE void DataCopy<T>(const LocalTensor<T>&, const GlobalTensor<T>&, const DataCopyParams&, SrcLoc); \
  ASCENDC_SIM_INSTANCE void DataCopy<T>(const GlobalTensor<T>&, const LocalTensor<T>&, const DataCopyParams&, SrcLoc); \
  ASCENDC_SIM_INSTANCE void DataCopy<T>(const LocalTensor<T>&, const LocalTensor<T>&, const DataCopyParams&, SrcLoc);  \
  ASCENDC_SIM_INSTANCE void DataCopy<T>(const LocalTensor<T>&, const LocalTensor<T>&, uint32_t, SrcLoc);               \
  ASCENDC_SIM_INSTANCE void DataCopyPad<T>(const LocalTensor<T>&, const GlobalTensor<T>&, const DataCopyExtParams&,    \
                                           const DataCopyPadExtParams<T>&, SrcLoc);                                    \
  ASCENDC_SIM_INSTANCE void DataCopyPad<T>(const GlobalTensor<T>&, const LocalTensor<T>&, const DataCopyExtParams&,    \
                                           SrcLoc);                                                                    \
  ASCENDC_SIM_INSTANCE void DataCopyPad<T>(const LocalTensor<T>&, const GlobalTensor<T>&, const DataCopyParams&,       \
                                           const DataCopyPadParams&, SrcLoc);                                          \
  ASCENDC_SIM_INSTANCE void DataCopyPad<T>(const GlobalTensor<T>&, const LocalTensor<T>&, const DataCopyParams&,       \
                                           SrcLoc);

// The three forms of a binary op: count, continuous mask, bit mask (mask set by the call).
#define ASCENDC_SIM_BINARY_INSTANCES(NAME, T)                                                                  \
  ASCENDC_SIM_INSTANCE void NAME<T>(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&,       \
                                    const int32_t&, SrcLoc);                                                   \
  ASCENDC_SIM_INSTANCE void NAME<T, true>(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, \
                                          uint64_t, uint8_t, const BinaryRepeatParams&, SrcLoc);               \
  ASCENDC_SIM_INSTANCE void NAME<T, true>(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, \
                                          const uint64_t*, uint8_t, const BinaryRepeatParams&, SrcLoc);
#define ASCENDC_SIM_VEC_SCALAR_INSTANCES(NAME, T)                                                                    \
  ASCENDC_SIM_INSTANCE void NAME<T>(const LocalTensor<T>&, const LocalTensor<T>&, const T&, const int32_t&, SrcLoc); \
  ASCENDC_SIM_INSTANCE void NAME<T, true>(const LocalTensor<T>&, const LocalTensor<T>&, const T&, uint64_t, uint8_t, \
                                          const UnaryRepeatParams&, SrcLoc);                                         \
  ASCENDC_SIM_INSTANCE void NAME<T, true>(const LocalTensor<T>&, const LocalTensor<T>&, const T&, const uint64_t*,   \
                                          uint8_t, const UnaryRepeatParams&, SrcLoc);
#define ASCENDC_SIM_UNARY_INSTANCES(NAME, T)                                                                      \
  ASCENDC_SIM_INSTANCE void NAME<T>(const LocalTensor<T>&, const LocalTensor<T>&, const int32_t&, SrcLoc);        \
  ASCENDC_SIM_INSTANCE void NAME<T, true>(const LocalTensor<T>&, const LocalTensor<T>&, uint64_t, uint8_t,        \
                                          const UnaryRepeatParams&, SrcLoc);                                      \
  ASCENDC_SIM_INSTANCE void NAME<T, true>(const LocalTensor<T>&, const LocalTensor<T>&, const uint64_t*, uint8_t, \
                                          const UnaryRepeatParams&, SrcLoc);
#define ASCENDC_SIM_DUPLICATE_INSTANCES(T)                                                                            \
  ASCENDC_SIM_INSTANCE void Duplicate<T>(const LocalTensor<T>&, const T&, const int32_t&, SrcLoc);                    \
  ASCENDC_SIM_INSTANCE void Duplicate<T, true>(const LocalTensor<T>&, const T&, uint64_t, uint8_t, uint16_t, uint8_t, \
                                               SrcLoc);                                                               \
  ASCENDC_SIM_INSTANCE void Duplicate<T, true>(const LocalTensor<T>&, const T&, const uint64_t*, uint8_t, uint16_t,   \
                                               uint8_t, SrcLoc);
#define ASCENDC_SIM_CAST_INSTANCES(D, S)                                                                               \
  ASCENDC_SIM_INSTANCE void Cast<D, S>(const LocalTensor<D>&, const LocalTensor<S>&, const RoundMode&, uint32_t,       \
                                       SrcLoc);                                                                        \
  ASCENDC_SIM_INSTANCE void Cast<D, S, true>(const LocalTensor<D>&, const LocalTensor<S>&, const RoundMode&, uint64_t, \
                                             uint8_t, const UnaryRepeatParams&, SrcLoc);                               \
  ASCENDC_SIM_INSTANCE void Cast<D, S, true>(const LocalTensor<D>&, const LocalTensor<S>&, const RoundMode&,           \
                                             const uint64_t*, uint8_t, const UnaryRepeatParams&, SrcLoc);

#define ASCENDC_SIM_REDUCE_INSTANCES(T)                                                                                \
  ASCENDC_SIM_INSTANCE void ReduceSum<T>(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, int32_t, \
                                         SrcLoc);                                                                      \
  ASCENDC_SIM_INSTANCE void ReduceSum<T>(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, int32_t, \
                                         int32_t, int32_t, SrcLoc);                                                    \
  ASCENDC_SIM_INSTANCE void ReduceSum<T>(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&,          \
                                         const uint64_t*, int32_t, int32_t, SrcLoc);                                   \
  ASCENDC_SIM_INSTANCE void WholeReduceSum<T, true>(const LocalTensor<T>&, const LocalTensor<T>&, int32_t, int32_t,    \
                                                    int32_t, int32_t, int32_t, SrcLoc);                                \
  ASCENDC_SIM_INSTANCE void WholeReduceSum<T, true>(const LocalTensor<T>&, const LocalTensor<T>&, const uint64_t*,     \
                                                    int32_t, int32_t, int32_t, int32_t, SrcLoc);                       \
  ASCENDC_SIM_REDUCE_EXTREME_INSTANCES(ReduceMax, WholeReduceMax, BlockReduceMax, T)                                   \
  ASCENDC_SIM_REDUCE_EXTREME_INSTANCES(ReduceMin, WholeReduceMin, BlockReduceMin, T)                                   \
  ASCENDC_SIM_BLOCK_REDUCE_INSTANCES(BlockReduceSum, T)
#define ASCENDC_SIM_REDUCE_EXTREME_INSTANCES(RANGE, WHOLE, BLOCK, T)                                                \
  ASCENDC_SIM_INSTANCE void RANGE<T>(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, int32_t,  \
                                     bool, SrcLoc);                                                                 \
  ASCENDC_SIM_INSTANCE void RANGE<T>(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, int32_t,  \
                                     int32_t, int32_t, bool, SrcLoc);                                               \
  ASCENDC_SIM_INSTANCE void RANGE<T>(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&,           \
                                     const uint64_t*, int32_t, int32_t, bool, SrcLoc);                              \
  ASCENDC_SIM_INSTANCE void WHOLE<T, true>(const LocalTensor<T>&, const LocalTensor<T>&, int32_t, int32_t, int32_t, \
                                           int32_t, int32_t, ReduceOrder, SrcLoc);                                  \
  ASCENDC_SIM_INSTANCE void WHOLE<T, true>(const LocalTensor<T>&, const LocalTensor<T>&, const uint64_t*, int32_t,  \
                                           int32_t, int32_t, int32_t, ReduceOrder, SrcLoc);                         \
  ASCENDC_SIM_BLOCK_REDUCE_INSTANCES(BLOCK, T)
#define ASCENDC_SIM_BLOCK_REDUCE_INSTANCES(NAME, T)                                                                \
  ASCENDC_SIM_INSTANCE void NAME<T, true>(const LocalTensor<T>&, const LocalTensor<T>&, int32_t, int32_t, int32_t, \
                                          int32_t, int32_t, SrcLoc);                                               \
  ASCENDC_SIM_INSTANCE void NAME<T, true>(const LocalTensor<T>&, const LocalTensor<T>&, int32_t, const uint64_t*,  \
                                          int32_t, int32_t, int32_t, SrcLoc);

// An op over each arithmetic element type of the vector unit.
#define ASCENDC_SIM_ARITH(KIND, NAME) KIND(NAME, half) KIND(NAME, float) KIND(NAME, int16_t) KIND(NAME, int32_t)
#define ASCENDC_SIM_FLOATING(KIND, NAME) KIND(NAME, half) KIND(NAME, float)

namespace AscendC {

ASCENDC_SIM_DATA_COPY_INSTANCES(half)
ASCENDC_SIM_DATA_COPY_INSTANCES(float)
ASCENDC_SIM_DATA_COPY_INSTANCES(bfloat16_t)
ASCENDC_SIM_DATA_COPY_INSTANCES(int8_t)
ASCENDC_SIM_DATA_COPY_INSTANCES(uint8_t)
ASCENDC_SIM_DATA_COPY_INSTANCES(int16_t)
ASCENDC_SIM_DATA_COPY_INSTANCES(uint16_t)
ASCENDC_SIM_DATA_COPY_INSTANCES(int32_t)
ASCENDC_SIM_DATA_COPY_INSTANCES(uint32_t)
ASCENDC_SIM_DATA_COPY_INSTANCES(int64_t)

ASCENDC_SIM_ARITH(ASCENDC_SIM_BINARY_INSTANCES, Add)
ASCENDC_SIM_ARITH(ASCENDC_SIM_BINARY_INSTANCES, Sub)
ASCENDC_SIM_ARITH(ASCENDC_SIM_BINARY_INSTANCES, Mul)
ASCENDC_SIM_ARITH(ASCENDC_SIM_BINARY_INSTANCES, Max)
ASCENDC_SIM_ARITH(ASCENDC_SIM_BINARY_INSTANCES, Min)
ASCENDC_SIM_FLOATING(ASCENDC_SIM_BINARY_INSTANCES, Div)
ASCENDC_SIM_FLOATING(ASCENDC_SIM_BINARY_INSTANCES, AddRelu)
ASCENDC_SIM_FLOATING(ASCENDC_SIM_BINARY_INSTANCES, SubRelu)
ASCENDC_SIM_FLOATING(ASCENDC_SIM_BINARY_INSTANCES, MulAddDst)
ASCENDC_SIM_FLOATING(ASCENDC_SIM_BINARY_INSTANCES, FusedMulAdd)
ASCENDC_SIM_BINARY_INSTANCES(And, int16_t)
ASCENDC_SIM_BINARY_INSTANCES(And, uint16_t)
ASCENDC_SIM_BINARY_INSTANCES(Or, int16_t)
ASCENDC_SIM_BINARY_INSTANCES(Or, uint16_t)

ASCENDC_SIM_ARITH(ASCENDC_SIM_VEC_SCALAR_INSTANCES, Adds)
ASCENDC_SIM_ARITH(ASCENDC_SIM_VEC_SCALAR_INSTANCES, Muls)
ASCENDC_SIM_ARITH(ASCENDC_SIM_VEC_SCALAR_INSTANCES, Maxs)
ASCENDC_SIM_ARITH(ASCENDC_SIM_VEC_SCALAR_INSTANCES, Mins)
ASCENDC_SIM_FLOATING(ASCENDC_SIM_VEC_SCALAR_INSTANCES, LeakyRelu)

ASCENDC_SIM_FLOATING(ASCENDC_SIM_UNARY_INSTANCES, Relu)
ASCENDC_SIM_UNARY_INSTANCES(Relu, int32_t)
ASCENDC_SIM_FLOATING(ASCENDC_SIM_UNARY_INSTANCES, Abs)
ASCENDC_SIM_FLOATING(ASCENDC_SIM_UNARY_INSTANCES, Exp)
ASCENDC_SIM_FLOATING(ASCENDC_SIM_UNARY_INSTANCES, Ln)
ASCENDC_SIM_FLOATING(ASCENDC_SIM_UNARY_INSTANCES, Sqrt)
ASCENDC_SIM_FLOATING(ASCENDC_SIM_UNARY_INSTANCES, Rsqrt)
ASCENDC_SIM_FLOATING(ASCENDC_SIM_UNARY_INSTANCES, Reciprocal)

ASCENDC_SIM_DUPLICATE_INSTANCES(half)
ASCENDC_SIM_DUPLICATE_INSTANCES(float)
ASCENDC_SIM_DUPLICATE_INSTANCES(int16_t)
ASCENDC_SIM_DUPLICATE_INSTANCES(uint16_t)
ASCENDC_SIM_DUPLICATE_INSTANCES(int32_t)
ASCENDC_SIM_DUPLICATE_INSTANCES(uint32_t)

ASCENDC_SIM_REDUCE_INSTANCES(half)
ASCENDC_SIM_REDUCE_INSTANCES(float)

ASCENDC_SIM_CAST_INSTANCES(float, half)
ASCENDC_SIM_CAST_INSTANCES(half, float)
ASCENDC_SIM_CAST_INSTANCES(float, bfloat16_t)
ASCENDC_SIM_CAST_INSTANCES(bfloat16_t, float)
ASCENDC_SIM_CAST_INSTANCES(int32_t, float)
ASCENDC_SIM_CAST_INSTANCES(float, int32_t)
ASCENDC_SIM_CAST_INSTANCES(int32_t, half)
ASCENDC_SIM_CAST_INSTANCES(half, int32_t)

}  // namespace AscendC
