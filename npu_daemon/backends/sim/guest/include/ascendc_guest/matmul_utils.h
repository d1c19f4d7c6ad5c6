// Names the Matmul library's matmul.h brings along, for both engines' matmul.h (after their
// tensors): its 16-bit block arithmetic and its callback template parameter.
#pragma once

#include <cstdint>
#include <type_traits>

namespace AscendC {
// asc-devkit batch_matmul_utils.h, called unqualified by matmul kernels under `using namespace
// AscendC`: arguments and result are uint16_t there, so wider counts wrap as on the device. Scalar
// code of the kernel's own compile, counted with its scalar instructions.
constexpr uint16_t CeilDiv(uint16_t num1, uint16_t num2) { return (num1 + num2 - 1) / num2; }
constexpr uint16_t CeilAlign(uint16_t num1, uint16_t num2) { return CeilDiv(num1, num2) * num2; }

// The Matmul's callback parameter (asc-devkit matmul_call_back.h): user functions that replace the
// copy of C out of L0C and of A / B into L1. The default, all nullptr, is the library's own copies,
// the only form modelled: Matmul refuses another at compile time (MatmulCallbacksModelled).
template <void (*DataCopyOut)(const __gm__ void* gm, const LocalTensor<int8_t>& co1Local, const void* dataCopyOutParams,
                              const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr,
          void (*CopyA1)(const LocalTensor<int8_t>& aMatrix, const __gm__ void* gm, int row, int col, int useM,
                         int useK, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr,
          void (*CopyB1)(const LocalTensor<int8_t>& bMatrix, const __gm__ void* gm, int row, int col, int useK,
                         int useN, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr>
struct MatmulCallBackFunc {
  static constexpr auto DataCopyOutPtr = DataCopyOut;
  static constexpr auto CopyA1Ptr = CopyA1;
  static constexpr auto CopyB1Ptr = CopyB1;
};

namespace detail {
template <class T>
struct MatmulCallbacksModelled : std::true_type {};
template <auto Out, auto A, auto B>
struct MatmulCallbacksModelled<MatmulCallBackFunc<Out, A, B>>
    : std::bool_constant<Out == nullptr && A == nullptr && B == nullptr> {};
}  // namespace detail
}  // namespace AscendC
