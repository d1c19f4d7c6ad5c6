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

// The Matmul's callback parameter (asc-devkit matmul_call_back.h; API page MatmulCallBackFunc): user
// functions that replace the library's copy of C out of L0C (DataCopyOut) and of A / B into L1 (CopyA1,
// CopyB1); nullptr keeps the library's own. CopyA1 / CopyB1 are modelled (both engines' matmul.h: the
// tile, its L1 buffer and when the library calls them); DataCopyOut is refused at compile time
// (MatmulCallbacksModelled).
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

// The Matmul's built-in policies, its seventh template parameter (asc-devkit page MatmulPolicy, all
// supported on the A2): the default; NBuffer33, a schedule of the MDL template that keeps 3 x 3 base
// blocks of A in L1 and streams 3 x 1 blocks of B, the same C, its constraints held at compile time
// (MDL only, IterateAll only) and its L1 schedule timed as MDL's; and the triangular ones, which skip
// the base blocks of C below (upper) or above (lower) the diagonal, not modelled: refused at compile
// time, never a full C in their place.
namespace Impl::Detail {
template <const auto& MM_CFG, typename... Modules>
struct MatmulPolicy {};
template <const auto& MM_CFG, typename... Modules>
struct NBuffer33MatmulPolicy {};
template <const auto& MM_CFG, typename... Modules>
struct TrianUpperMatmulPolicy {};
template <const auto& MM_CFG, typename... Modules>
struct TrianLowerMatmulPolicy {};
}  // namespace Impl::Detail

namespace detail {
enum class MatmulPolicyKind { kDefault, kNBuffer33, kTriangular };
template <template <const auto&, typename...> class P>
struct MatmulPolicyOf : std::integral_constant<MatmulPolicyKind, MatmulPolicyKind::kDefault> {};
template <>
struct MatmulPolicyOf<Impl::Detail::NBuffer33MatmulPolicy>
    : std::integral_constant<MatmulPolicyKind, MatmulPolicyKind::kNBuffer33> {};
template <>
struct MatmulPolicyOf<Impl::Detail::TrianUpperMatmulPolicy>
    : std::integral_constant<MatmulPolicyKind, MatmulPolicyKind::kTriangular> {};
template <>
struct MatmulPolicyOf<Impl::Detail::TrianLowerMatmulPolicy>
    : std::integral_constant<MatmulPolicyKind, MatmulPolicyKind::kTriangular> {};

// A Matmul's policy, held to what is modelled and documented (`mdl`: its config is the MDL template).
template <template <const auto&, typename...> class P, bool mdl>
struct CheckedMatmulPolicy {
  static constexpr MatmulPolicyKind kind = MatmulPolicyOf<P>::value;
  static_assert(kind != MatmulPolicyKind::kTriangular,
                "Matmul: TrianUpperMatmulPolicy / TrianLowerMatmulPolicy (C's base blocks on one side of the diagonal "
                "skipped) are not modelled");
  static_assert(kind != MatmulPolicyKind::kNBuffer33 || mdl,
                "Matmul: NBuffer33MatmulPolicy supports only the MDL template");
  static constexpr bool checked = true;  // named by a static_assert, so the class's run on its instantiation
};

template <class T>
struct MatmulCallbacksModelled : std::true_type {};
template <auto Out, auto A, auto B>
struct MatmulCallbacksModelled<MatmulCallBackFunc<Out, A, B>> : std::bool_constant<Out == nullptr> {};
}  // namespace detail
}  // namespace AscendC
