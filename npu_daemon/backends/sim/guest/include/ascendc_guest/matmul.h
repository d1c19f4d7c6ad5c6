// The Matmul high-level API on the guest engine: the object is a handle of the host's Matmul (the
// native engine's, ascendc_sim/matmul.h), which owns the cube buffers, the schedule and the tiling;
// each call (Init, SetTensorA, Iterate, ...) is one import. The template arguments pick the host's
// instance: the element types, the C position and whether MDL loads stepKa blocks at once.
#pragma once

#include "ascendc_guest/matmul_config.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

#include "ascendc_guest/matmul_utils.h"  // after the tensors it names

namespace ascendc_guest {
// flags: bit 0 MDL; bits 1-3, 4-6, 7-9 the CubeFormat of A, B, C (ND and NZ modelled in GM, another
// refused where used from GM); bits 10, 11 A's, B's MatmulType at an L1 position (no L1 buffer of the
// library's for it).
ASCENDC_GUEST_IMPORT(matmul_new) int32_t matmul_new(Dtype a, Dtype c, Dtype bias, int32_t flags, int32_t line);
// Init with the guest's TCubeTiling (the shared header's plain struct); from REGIST_MATMUL_OBJ
// (regist 1) on an AIV of a mixed launch it posts the INIT message to the group's AIC too.
ASCENDC_GUEST_IMPORT(matmul_init) void matmul_init(int32_t mm, const void* tiling, int32_t regist, int32_t line);
// REGIST_MATMUL_OBJ's end: 1 on the AIC of a mixed launch once it has served its AIVs.
ASCENDC_GUEST_IMPORT(matmul_serve) int32_t matmul_serve(int32_t line);
// Operand 0 A, 1 B, 2 bias (trans unused), 3 the asynchronous mode's workspace; gm 0 with operand 2
// disables the bias.
ASCENDC_GUEST_IMPORT(matmul_set_tensor)
void matmul_set_tensor(int32_t mm, int32_t operand, uint32_t gm, int64_t size, int32_t trans);
// SetTensorA (operand 0) / SetTensorB (1) with a LocalTensor in L1: its byte address, elements and position.
ASCENDC_GUEST_IMPORT(matmul_set_local)
void matmul_set_local(int32_t mm, int32_t operand, uint32_t addr, int64_t size, int32_t pos, int32_t trans);
// Shape 0 SetTail(m, n, k), 1 SetOrgShape(m, n, ka, kb), 2 SetBatchNum(m: batchA, n: batchB).
ASCENDC_GUEST_IMPORT(matmul_set_shape)
void matmul_set_shape(int32_t mm, int32_t shape, int32_t m, int32_t n, int32_t ka, int32_t kb);
ASCENDC_GUEST_IMPORT(matmul_iterate_all)
void matmul_iterate_all(int32_t mm, uint32_t gm, int64_t size, int32_t enAtomic, int32_t line);
// IterateBatch: the cube-only form (cube 1, counts of SetBatchNum: shape 2) or the AIV's (batchA, batchB).
ASCENDC_GUEST_IMPORT(matmul_iterate_batch)
void matmul_iterate_batch(int32_t mm, uint32_t gm, int64_t size, int32_t cube, int32_t batchA, int32_t batchB,
                          int32_t sequential, int64_t strideA, int64_t strideB, int32_t partialSum, int32_t enAtomic,
                          int32_t line);
// IterateAll into a local tensor of the calling AIV (dst its UB address, size, pos).
ASCENDC_GUEST_IMPORT(matmul_iterate_all_local)
void matmul_iterate_all_local(int32_t mm, uint32_t dst, int64_t size, int32_t pos, int32_t enAtomic, int32_t line);
ASCENDC_GUEST_IMPORT(matmul_iterate) int32_t matmul_iterate(int32_t mm, int32_t sync, int32_t line);
// GetTensorC into GM (toGm 1: dst, size) or a local tensor (dst, size, pos).
ASCENDC_GUEST_IMPORT(matmul_get_c)
void matmul_get_c(int32_t mm, int32_t sync, int32_t toGm, uint32_t dst, int64_t size, int32_t pos, int32_t enAtomic,
                  int32_t sequential, int32_t line);
ASCENDC_GUEST_IMPORT(matmul_end) void matmul_end(int32_t mm, int32_t line);
ASCENDC_GUEST_IMPORT(matmul_set_hf32)
void matmul_set_hf32(int32_t mm, int32_t enableHF32, int32_t transMode, int32_t line);
// MatmulCallBackFunc's CopyA1 (operand 0) / CopyB1 (1): `fn` a function of this module by its address
// (its table index), which the host calls back through ascendc_guest_matmul_user_copy below.
ASCENDC_GUEST_IMPORT(matmul_user_copy) void matmul_user_copy(int32_t mm, int32_t operand, uint32_t fn);
// SetUserDefInfo (which 0) / SetSelfDefineData (1): values the host hands to the user copies.
ASCENDC_GUEST_IMPORT(matmul_user_data) void matmul_user_data(int32_t mm, int32_t which, int64_t value);

// The user copy's signature (asc-devkit matmul_call_back.h: CopyA1 and CopyB1 alike).
using MatmulUserCopyFn = void (*)(const AscendC::LocalTensor<int8_t>&, const __gm__ void*, int, int, int, int,
                                  const uint64_t, const uint64_t);

// The host's call into the kernel for a Matmul's user copy (api_matmul.cpp): the function the kernel
// named, on the tile's L1 buffer (byte address, bytes, position), with the operand's GM address, the
// tile's position and extent and the user data. Guest code: it makes a tensor and calls the kernel's.
extern "C" inline __attribute__((used, export_name("ascendc_guest_matmul_user_copy"))) void
ascendc_guest_matmul_user_copy(uint32_t fn, uint32_t l1, uint32_t bytes, int32_t pos, uint32_t gm, int32_t row,
                               int32_t col, int32_t height, int32_t width, int64_t tilingPtr, int64_t dataPtr) {
  const AscendC::LocalTensor<int8_t> tile(l1, bytes, static_cast<AscendC::TPosition>(pos));
  reinterpret_cast<MatmulUserCopyFn>(static_cast<uintptr_t>(fn))(
      tile, reinterpret_cast<const __gm__ void*>(static_cast<uintptr_t>(gm)), row, col, height, width,
      static_cast<uint64_t>(tilingPtr), static_cast<uint64_t>(dataPtr));
}
}  // namespace ascendc_guest

static_assert(sizeof(TCubeTiling) == 50 * sizeof(int32_t), "TCubeTiling crosses the boundary as the host lays it out");

namespace AscendC {

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<>,
          template <const auto&, typename...> class MATMUL_POLICY = Impl::Detail::MatmulPolicy>
class Matmul {
  using AT = typename A_TYPE::T;
  using BT = typename B_TYPE::T;
  using CT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;
  static_assert(std::is_same_v<AT, BT>, "Matmul: A and B must have the same type");
  static_assert(detail::MatmulCallbacksModelled<MM_CB>::value,
                "Matmul: MatmulCallBackFunc's DataCopyOut (C out of L0C by a user function) is not modelled");
  using Policy = detail::CheckedMatmulPolicy<MATMUL_POLICY, detail::ConfigOf(MM_CFG).doMultiDataLoad>;
  static_assert(Policy::checked);
  static constexpr detail::MatmulPolicyKind kPolicy = Policy::kind;
  static_assert(detail::GmOrL1(A_TYPE::pos) && detail::GmOrL1(B_TYPE::pos),
                "Matmul: the simulator models A and B in GM or in L1 (TSCM / A1 / B1); in the UB (VECOUT) they are "
                "not modelled");

 public:
  Matmul(ASCENDC_GUEST_LINE)
      : id_(ascendc_guest::matmul_new(ascendc_guest::DtypeOf<AT>(), ascendc_guest::DtypeOf<CT>(),
                                      ascendc_guest::DtypeOf<BiasT>(), Flags(), line)) {
    if constexpr (MM_CB::CopyA1Ptr != nullptr) ascendc_guest::matmul_user_copy(id_, 0, FnIndex(MM_CB::CopyA1Ptr));
    if constexpr (MM_CB::CopyB1Ptr != nullptr) ascendc_guest::matmul_user_copy(id_, 1, FnIndex(MM_CB::CopyB1Ptr));
  }
  void Init(const TCubeTiling* tiling, TPipe* pipe = nullptr, ASCENDC_GUEST_LINE) { Regist(tiling, 0, line); }
  void Regist(const TCubeTiling* tiling, int32_t regist, int32_t line) {
    TCubeTiling t = *tiling;
    detail::FixTiling(t, MM_CFG);
    ascendc_guest::matmul_init(id_, &t, regist, line);
  }
  void SetTensorA(const GlobalTensor<AT>& gm, bool isTransposeA = false) {
    ascendc_guest::matmul_set_tensor(id_, 0, gm.GmAddr(), static_cast<int64_t>(gm.GetSize()),
                                     isTransposeA || A_TYPE::isTrans);
  }
  void SetTensorB(const GlobalTensor<BT>& gm, bool isTransposeB = false) {
    ascendc_guest::matmul_set_tensor(id_, 1, gm.GmAddr(), static_cast<int64_t>(gm.GetSize()),
                                     isTransposeB || B_TYPE::isTrans);
  }
  // A or B the kernel holds in L1 (the host's Matmul reads it there as NZ and copies nothing in).
  void SetTensorA(const LocalTensor<AT>& l1, bool isTransposeA = false) {
    ascendc_guest::matmul_set_local(id_, 0, l1.UbAddr(), static_cast<int64_t>(l1.GetSize()),
                                    static_cast<int32_t>(l1.GetPosition()), isTransposeA || A_TYPE::isTrans);
  }
  void SetTensorB(const LocalTensor<BT>& l1, bool isTransposeB = false) {
    ascendc_guest::matmul_set_local(id_, 1, l1.UbAddr(), static_cast<int64_t>(l1.GetSize()),
                                    static_cast<int32_t>(l1.GetPosition()), isTransposeB || B_TYPE::isTrans);
  }
  void SetBias(const GlobalTensor<BiasT>& gm) {
    ascendc_guest::matmul_set_tensor(id_, 2, gm.GmAddr(), static_cast<int64_t>(gm.GetSize()), 0);
  }
  void DisableBias() { ascendc_guest::matmul_set_tensor(id_, 2, 0, 0, 0); }
  void SetUserDefInfo(const uint64_t tilingPtr) {
    ascendc_guest::matmul_user_data(id_, 0, static_cast<int64_t>(tilingPtr));
  }
  void SetSelfDefineData(const uint64_t dataPtr) {
    ascendc_guest::matmul_user_data(id_, 1, static_cast<int64_t>(dataPtr));
  }
  void ClearBias() { DisableBias(); }
  void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
    ascendc_guest::matmul_set_shape(id_, 0, tailM, tailN, tailK, 0);
  }
  void SetSingleShape(int m, int n, int k) { SetTail(m, n, k); }
  void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb = 0, int orgKc = 0) {
    (void)orgKc;
    ascendc_guest::matmul_set_shape(id_, 1, orgM, orgN, orgKa, orgKb);
  }
  void SetWorkspace(GM_ADDR addr, int size) {
    ascendc_guest::matmul_set_tensor(id_, 3, static_cast<uint32_t>(reinterpret_cast<uintptr_t>(addr)), size, 0);
  }
  template <class T>
  void SetWorkspace(const GlobalTensor<T>& addr) {
    ascendc_guest::matmul_set_tensor(id_, 3, addr.GmAddr(), static_cast<int64_t>(addr.GetSize() * sizeof(T)), 0);
  }
  void SetLocalWorkspace(const LocalTensor<uint8_t>&) {}
  // As the native engine's: the message routing it names is not emulated (ascendc_sim/matmul.h).
  void SetSubBlockIdx(uint8_t subBlockIdx) { (void)subBlockIdx; }
  void SetHF32(bool enableHF32 = false, int32_t transMode = 0, ASCENDC_GUEST_LINE) {
    ascendc_guest::matmul_set_hf32(id_, enableHF32, transMode, line);
  }
  void IterateAll(const GlobalTensor<CT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                  bool waitIterateAll = false, bool fakeMsg = false, ASCENDC_GUEST_LINE) {
    (void)enSequentialWrite, (void)waitIterateAll, (void)fakeMsg;
    ascendc_guest::matmul_iterate_all(id_, gm.GmAddr(), static_cast<int64_t>(gm.GetSize()), enAtomic, line);
  }
  void SetBatchNum(int32_t batchA, int32_t batchB) { ascendc_guest::matmul_set_shape(id_, 2, batchA, batchB, 0, 0); }
  // The cube-only form (a non-template, so a call with literal flags resolves to it as on the device's
  // cube-side class) and the mixed kernel's AIV form; the host holds each to its core.
  void IterateBatch(const GlobalTensor<CT>& gm, bool enPartialSum, uint8_t enAtomic, bool enSequentialWrite,
                    const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                    const uint32_t matrixStrideC = 0, ASCENDC_GUEST_LINE) {
    (void)matrixStrideC;
    ascendc_guest::matmul_iterate_batch(id_, gm.GmAddr(), static_cast<int64_t>(gm.GetSize()), 1, 0, 0,
                                        enSequentialWrite, matrixStrideA, matrixStrideB, enPartialSum, enAtomic, line);
  }
  template <bool sync = true, bool waitIterateBatch = false>
  void IterateBatch(const GlobalTensor<CT>& gm, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                    const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                    const uint32_t matrixStrideC = 0, const bool enPartialSum = false, const uint8_t enAtomic = 0,
                    ASCENDC_GUEST_LINE) {
    (void)matrixStrideC;
    static_assert(sync, "Matmul::IterateBatch<false> (asynchronous, WaitIterateBatch) is not modelled");
    ascendc_guest::matmul_iterate_batch(id_, gm.GmAddr(), static_cast<int64_t>(gm.GetSize()), 0,
                                        static_cast<int32_t>(batchA), static_cast<int32_t>(batchB), enSequentialWrite,
                                        matrixStrideA, matrixStrideB, enPartialSum, enAtomic, line);
  }
  template <bool sync = true>
  void IterateAll(const LocalTensor<CT>& ub, uint8_t enAtomic = 0, ASCENDC_GUEST_LINE) {
    static_assert(sync, "Matmul::IterateAll<false> into a local tensor is not modelled");
    ascendc_guest::matmul_iterate_all_local(id_, ub.UbAddr(), ub.GetSize(), static_cast<int32_t>(ub.GetPosition()),
                                            enAtomic, line);
  }
  template <bool sync = true>
  bool Iterate(bool enPartialSum = false, ASCENDC_GUEST_LINE) {
    (void)enPartialSum;
    static_assert(kPolicy != detail::MatmulPolicyKind::kNBuffer33,
                  "Matmul::Iterate does not support NBuffer33MatmulPolicy (IterateAll only)");
    return ascendc_guest::matmul_iterate(id_, sync, line) != 0;
  }
  template <bool sync = true>
  void GetTensorC(const GlobalTensor<CT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                  ASCENDC_GUEST_LINE) {
    ascendc_guest::matmul_get_c(id_, sync, 1, gm.GmAddr(), static_cast<int64_t>(gm.GetSize()), 0, enAtomic,
                                enSequentialWrite, line);
  }
  template <bool sync = true>
  void GetTensorC(const LocalTensor<CT>& ub, uint8_t enAtomic = 0, bool enSequentialWrite = false, ASCENDC_GUEST_LINE) {
    ascendc_guest::matmul_get_c(id_, sync, 0, ub.UbAddr(), ub.GetSize(), static_cast<int32_t>(ub.GetPosition()),
                                enAtomic, enSequentialWrite, line);
  }
  void End(ASCENDC_GUEST_LINE) { ascendc_guest::matmul_end(id_, line); }

 private:
  static constexpr int32_t Flags() {
    return (detail::ConfigOf(MM_CFG).doMultiDataLoad ? 1 : 0) | static_cast<int32_t>(A_TYPE::format) << 1 |
           static_cast<int32_t>(B_TYPE::format) << 4 | static_cast<int32_t>(C_TYPE::format) << 7 |
           (detail::InL1(A_TYPE::pos) ? 1 << 10 : 0) | (detail::InL1(B_TYPE::pos) ? 1 << 11 : 0);
  }
  static uint32_t FnIndex(ascendc_guest::MatmulUserCopyFn fn) {
    return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(fn));
  }
  int32_t id_;  // the host's object on this core
};
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<>,
          template <const auto&, typename...> class MATMUL_POLICY = Impl::Detail::MatmulPolicy>
using MatmulImpl = Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MATMUL_POLICY>;

namespace detail {
template <class MM>
void InitMatmuls(int32_t line, TPipe* pipe, MM& mm, const TCubeTiling* tiling) {
  (void)pipe;
  if (tiling != nullptr) mm.Regist(tiling, 1, line);
}
template <class MM, class... More>
void InitMatmuls(int32_t line, TPipe* pipe, MM& mm, const TCubeTiling* tiling, More&&... more) {
  InitMatmuls(line, pipe, mm, tiling);
  InitMatmuls(line, pipe, more...);
}
}  // namespace detail

}  // namespace AscendC

// On the AIC of a mixed kernel the macro serves the AIVs' requests and returns from the kernel.
#define REGIST_MATMUL_OBJ(pipe, workspace, ...)                \
  ::AscendC::detail::InitMatmuls(__LINE__, pipe, __VA_ARGS__); \
  (void)(workspace);                                           \
  if (::ascendc_guest::matmul_serve(__LINE__)) return

// Kernels pass it to REGIST_MATMUL_OBJ unqualified, outside `using namespace AscendC`.
using AscendC::GetSysWorkSpacePtr;

#ifndef matmul
namespace matmul = AscendC;
#endif
