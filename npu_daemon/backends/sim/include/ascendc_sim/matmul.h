// The Matmul high-level API (docs/ascendc.md API 9): Matmul<MatmulType<...> x 4>, REGIST_MATMUL_OBJ,
// SetTensorA/B, SetBias, SetTail, Iterate / GetTensorC (to GM, or to the UB of an AIV), IterateAll, End,
// driven by a TCubeTiling.
//
// The library is written with the basic cube API (cube_compute.h), so its instructions are traced
// and timed like a hand-written kernel's. On a cube core (KERNEL_TYPE_AIC_ONLY / ASCENDC_CUBE_ONLY)
// the object computes where it is called. In a mixed kernel the AIV code drives it and every request
// runs on the group's AIC (RunOnGroupAic: a message, the cube work on the AIC, the answer); the AIC
// itself parks in REGIST_MATMUL_OBJ until its AIVs have ended, then returns from the kernel.
//
// The object's L1 buffers are its place in L1, which Init takes from the core's TPipe as the device's
// library does (asc-devkit MatmulImplBase::Init, CubeInBuffer and C1Buffer Init: GetTPipePtr()->
// InitBuffer, whatever pipe Init is given): A's buffer, depthA1 base blocks under NORM, one or two of
// stepM x stepKa base blocks under MDL (two when depthA1 / (stepM x stepKa) is even), none when A's
// MatmulType is at an L1 position; B's likewise (depthB1, stepKb x stepN); baseN of the bias when the
// tiling has one. So a kernel's L1 buffers from that TPipe lie before or after it, never in it. Inside
// its buffer an operand's chunks (the chunk being loaded and the one being consumed) take two slots
// when two fit, else one. The object owns L0A/L0B (two base blocks each) and L0C (two base C blocks
// when they fit, dbL0C, else one). Per C block: K in order, one Mmad per baseK (so the sums are those
// of one Mmad over K, docs/simulator.md), the bias as the initial C, then Fixpipe (NZ -> ND, fp32 ->
// half / bf16 on the way). Blocks go N-major (iterateOrder 0: M inner) or M-major (1). K goes in steps
// of the smaller of A's and B's chunks (NORM: one base block each; MDL: stepKa and stepKb base blocks,
// one a multiple of the other), each operand's chunk loaded at the step that starts it (asc-devkit's
// MDL K loop, KLoop minStepK_).
//
// A and B in GM are ND or NZ (MatmulType's CubeFormat; asc-devkit "Matmul使用说明", table 3: NZ is
// [inner / C0][outer, 16-aligned][C0], C0 = 32 B of elements): an ND block goes into L1 by Nd2Nz, an NZ
// one by a plain block copy of its C0 columns (CopyNz). C in GM is ND or NZ: the Fixpipe with NZ2ND or
// without it (Out).
//
// A user copy of A or B into L1 (MatmulCallBackFunc's CopyA1 / CopyB1, asc-devkit page
// MatmulCallBackFunc and copy_tile_to_cube: the library calls it where its own GM -> L1 copy of a
// tile would be) replaces that copy. A tile is what the library loads at once: a base block under
// NORM (baseM x baseK of A, baseK x baseN of B), stepM x stepKa base blocks of A and stepKb x stepN
// of B under MDL. The user function gets the tile's L1 buffer (LocalTensor<int8_t>), the operand's GM
// address as SetTensorA / B gave it, the tile's position (row, col: its index in tiles down and
// across the operand as laid out in GM, A [M, K], B [K, N]), its extent in elements (height, width:
// the tile clipped to the single-core shape) and the values of SetUserDefInfo / SetSelfDefineData.
// It must leave the tile in L1 as the library's own copy does: NZ, 16-row fractals, rows padded to 16
// (asc-devkit ND2NZ: dstNzC0Stride the rows rounded up to 16). The object keeps one such tile per
// operand in its own L1 place and calls the function again only for another tile or after
// SetTensorA / B (the library's L1 cache is reset there): a function that copies once and later
// returns (the projects' L1 full-load copies) finds its tile where it left it. Its copies are the
// kernel's own API calls, charged as such; on the guest engine it runs in the kernel's module
// (api_matmul.cpp), so the data movement it asks for crosses to the host as every DataCopy does.
//
// C in the UB (a C MatmulType at VECIN / VECCALC / VECOUT, GetTensorC into a LocalTensor) goes as on
// the A2, whose AIC cannot write an AIV's UB (asc-devkit matmul_client.h, GetTensorC and CopyToUB): the
// AIC's Fixpipe writes the block as an ND [baseM, baseN] block (rows baseN apart) into a GM area the
// client takes from the library workspace (GetSysWorkSpacePtr's 16 MiB before the user's part: here
// the AIV's own UB-sized slice, at the tensor's UB offset), then the AIV copies baseM x baseN elements
// of it into the tensor (MTE2) and waits MTE2 -> V before returning, as the sync mode does.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>

#include "ascendc_sim/cube_compute.h"
#include "ascendc_sim/cube_sync.h"
#include "ascendc_sim/runtime.h"
#include "ascendc_sim/system.h"
#include "tiling/tiling_api.h"
// MatmulType, MatmulConfig and the constant tiling: the guest engine's Matmul names them alike.
#include "../../guest/include/ascendc_guest/matmul_config.h"
#include "../../guest/include/ascendc_guest/matmul_utils.h"

namespace AscendC {

namespace detail {
// A Matmul object's id, unique in the process (a core's L1 place records whose tiles it holds).
inline uint64_t NextMatmulId() {
  static std::atomic<uint64_t> next{1};
  return next++;
}

// Reserved flag keys of the library (user event ids are small integers).
constexpr uint64_t kMmFlag = 0x4d4d000000ull;

// A flag the library sets and later waits for, at most once outstanding per key.
class MmFlags {
 public:
  void Set(int src, int dst, uint64_t k, const SrcLoc& loc) {
    ascendc_sim::CurrentCore().SetFlag(src, dst, kMmFlag + k, loc, "Matmul");
    pending_[Index(src, dst, k)] = true;
  }
  void Wait(int src, int dst, uint64_t k, const SrcLoc& loc) {
    bool& p = pending_[Index(src, dst, k)];
    if (!p) return;
    ascendc_sim::CurrentCore().WaitFlag(src, dst, kMmFlag + k, loc, "Matmul");
    p = false;
  }
  void Drain(const SrcLoc& loc) {  // wait for everything still signalled (no flag left behind)
    for (int i = 0; i < kN; ++i)
      if (pending_[i]) Wait(i / 64 / 8, i / 64 % 8, static_cast<uint64_t>(i % 64), loc);
  }

 private:
  static constexpr int kN = 8 * 8 * 64;
  static int Index(int src, int dst, uint64_t k) { return (src * 8 + dst) * 64 + static_cast<int>(k % 64); }
  bool pending_[kN] = {};
};

template <typename CT>
constexpr QuantMode_t OutQuant() {
  if constexpr (std::is_same_v<CT, half>)
    return QuantMode_t::F322F16;
  else if constexpr (std::is_same_v<CT, bfloat16_t>)
    return QuantMode_t::F322BF16;
  else
    return QuantMode_t::NoQuant;
}
}  // namespace detail

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<>,
          template <const auto&, typename...> class MATMUL_POLICY = Impl::Detail::MatmulPolicy>
class Matmul {
  using AT = typename A_TYPE::T;
  using BT = typename B_TYPE::T;
  using CT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;
  using L0CT = std::conditional_t<std::is_same_v<AT, int8_t>, int32_t, float>;
  static_assert(std::is_same_v<AT, BT>, "Matmul: A and B must have the same type");
  static_assert(detail::MatmulCallbacksModelled<MM_CB>::value,
                "Matmul: MatmulCallBackFunc's DataCopyOut (C out of L0C by a user function) is not modelled");
  using Policy = detail::CheckedMatmulPolicy<MATMUL_POLICY, detail::ConfigOf(MM_CFG).doMultiDataLoad>;
  static_assert(Policy::checked);
  static constexpr detail::MatmulPolicyKind kPolicy = Policy::kind;
  static_assert(detail::GmOrL1(A_TYPE::pos) && detail::GmOrL1(B_TYPE::pos),
                "Matmul: the simulator models A and B in GM or in L1 (TSCM / A1 / B1); in the UB (VECOUT) they are "
                "not modelled");
  static_assert(C_TYPE::pos == TPosition::GM || C_TYPE::pos == TPosition::VECIN || C_TYPE::pos == TPosition::VECCALC ||
                    C_TYPE::pos == TPosition::VECOUT,
                "Matmul: the simulator models C in GM or in the UB (VECIN / VECCALC / VECOUT)");
  static_assert(detail::NdOrNz(A_TYPE::format) && detail::NdOrNz(B_TYPE::format) && detail::NdOrNz(C_TYPE::format),
                "Matmul: the simulator models A, B and C in ND or NZ");
  static_assert(C_TYPE::format == CubeFormat::ND || C_TYPE::pos == TPosition::GM,
                "Matmul: an NZ C is modelled in GM (in the UB it is not)");

 public:
  // A user copy of a tile into L1 (header comment) by another route than MM_CB (the guest engine's:
  // a call into the kernel's module), `ctx` the route's own: operand 0 (A) or 1 (B), the tile's L1
  // buffer, its position and extent, and the SetUserDefInfo / SetSelfDefineData values. A plain
  // function pointer, so the object stays trivially destructible as the kernels' Matmuls were.
  using UserCopy = void (*)(void* ctx, int operand, const LocalTensor<int8_t>& l1, int row, int col, int height,
                            int width, uint64_t tilingPtr, uint64_t dataPtr);

  __aicore__ Matmul() = default;
  // `pipe` is not what the buffers come from: the device's library takes the TPipe constructed last
  // (GetTPipePtr) whatever is given (asc-devkit MatmulImplBase::Init).
  __aicore__ void Init(const TCubeTiling* tiling, TPipe* pipe = nullptr, ASCENDC_SIM_LOC) {
    (void)pipe;
    tile_[0].valid = tile_[1].valid = false;
    t_ = *tiling;
    detail::FixTiling(t_, MM_CFG);
    singleM_ = t_.singleCoreM, singleN_ = t_.singleCoreN, singleK_ = t_.singleCoreK;
    orgKa_ = t_.Ka, orgKb_ = t_.Kb, orgN_ = orgNc_ = t_.N, orgM_ = t_.M;
    hasBias_ = t_.isBias != 0;
    TakeL1Buffers(loc);
    inited_ = true;
  }
  // Each operand set starts Iterate over from C's first block, as the device's library resets its
  // scheduler there (asc-devkit MatmulImplBase::SetTensorA / SetTensorB / SetBias: Scheduler Reset).
  __aicore__ void SetTensorA(const GlobalTensor<AT>& gm, bool isTransposeA = false) {
    a_ = gm, transA_ = isTransposeA || A_TYPE::isTrans, tile_[0].valid = false, fromL1_[0] = false, next_ = 0;
  }
  __aicore__ void SetTensorB(const GlobalTensor<BT>& gm, bool isTransposeB = false) {
    b_ = gm, transB_ = isTransposeB || B_TYPE::isTrans, tile_[1].valid = false, fromL1_[1] = false, next_ = 0;
  }
  // A or B already in L1 (header comment: TSCM input), the whole single-core matrix in NZ.
  __aicore__ void SetTensorA(const LocalTensor<AT>& l1, bool isTransposeA = false, ASCENDC_SIM_LOC) {
    SetL1(0, l1, loc);
    transA_ = isTransposeA || A_TYPE::isTrans;
  }
  __aicore__ void SetTensorB(const LocalTensor<BT>& l1, bool isTransposeB = false, ASCENDC_SIM_LOC) {
    SetL1(1, l1, loc);
    transB_ = isTransposeB || B_TYPE::isTrans;
  }
  // The values the library hands to the user copies as they are (tilingPtr, dataPtr).
  __aicore__ void SetUserDefInfo(const uint64_t tilingPtr) { userDefInfo_ = tilingPtr; }
  __aicore__ void SetSelfDefineData(const uint64_t dataPtr) { selfDefineData_ = dataPtr; }
  // The formats of A, B and C in GM by another route than the MatmulTypes (the guest engine's: its
  // MatmulTypes are the kernel's), each ND or NZ.
  void SetFormats(bool nzA, bool nzB, bool nzC) { nz_[0] = nzA, nz_[1] = nzB, nz_[2] = nzC; }
  // Whether A's and B's MatmulTypes are at an L1 position (TSCM / A1 / B1), by the same route: the
  // library takes no L1 buffer at Init for such an operand. Before Init.
  void SetL1Positions(bool l1A, bool l1B) { l1Type_[0] = l1A, l1Type_[1] = l1B; }
  // The user copy of operand 0 (A) or 1 (B) by another route than MM_CB.
  void SetUserCopy(int operand, UserCopy copy, void* ctx) { userCopy_[operand] = copy, userCtx_ = ctx; }
  __aicore__ void SetBias(const GlobalTensor<BiasT>& gm) { bias_ = gm, hasBias_ = true, next_ = 0; }
  __aicore__ void DisableBias() { hasBias_ = false; }
  __aicore__ void ClearBias() { hasBias_ = false; }
  __aicore__ void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
    if (tailM > 0) singleM_ = tailM;
    if (tailN > 0) singleN_ = tailN;
    if (tailK > 0) singleK_ = tailK;
  }
  __aicore__ void SetSingleShape(int m, int n, int k) { SetTail(m, n, k); }
  // orgKc is C's N where it differs from B's (asc-devkit SetOrgShape; 0: B's), as a kernel whose B
  // in NZ has N rounded up to a whole C0 column gives it.
  __aicore__ void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb = 0, int orgKc = 0) {
    orgM_ = orgM, orgN_ = orgN, orgKa_ = orgKa, orgKb_ = orgKb > 0 ? orgKb : orgKa;
    orgNc_ = orgKc > 0 ? orgKc : orgN;
  }
  // The asynchronous mode's cache of C (Iterate<false> / GetTensorC<false>); the sync mode ignores it.
  __aicore__ void SetWorkspace(GM_ADDR addr, int size) { (void)size, cache_ = addr; }
  template <class T>
  __aicore__ void SetWorkspace(const GlobalTensor<T>& addr) {
    cache_ = reinterpret_cast<GM_ADDR>(addr.GetPhyAddr());
  }
  __aicore__ void SetLocalWorkspace(const LocalTensor<uint8_t>&) {}
  // The AIV the object serves (REGIST_MATMUL_OBJ sets it; a cube-only kernel sets 0): it routes the
  // library's AIV -> AIC messages, and the emulated Matmul computes on the group's AIC for any AIV.
  __aicore__ void SetSubBlockIdx(uint8_t subBlockIdx) { (void)subBlockIdx; }
  // HF32 for the following Mmads of fp32 A and B (asc-devkit's SetHF32: the AIC's SetHF32Mode and
  // SetHF32TransMode, which stay set until the next call; transMode 1 rounds ties away from zero).
  // From an AIV of a mixed kernel it is the library's message to the AIC, charged as every message.
  __aicore__ void SetHF32(bool enableHF32 = false, int32_t transMode = 0, ASCENDC_SIM_LOC) {
    ASCENDC_SIM_CHECK(transMode == 0 || transMode == 1, loc, "Matmul::SetHF32: transMode %d (0 or 1)", transMode);
    ascendc_sim::RunOnGroupAic(
        [&] {
          SetHF32Mode(enableHF32);
          SetHF32TransMode(transMode == 1);
        },
        loc);
  }

  // Every C block of the single-core shape into `gm` (row pitch: the original N).
  __aicore__ void IterateAll(const GlobalTensor<CT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                             bool waitIterateAll = false, bool fakeMsg = false, ASCENDC_SIM_LOC) {
    (void)enSequentialWrite, (void)waitIterateAll, (void)fakeMsg;
    Check(loc);
    ascendc_sim::RunOnGroupAic(
        [&] {
          for (uint32_t b = 0; b < Blocks(); ++b) {
            Compute(b, loc);
            Out(b, gm, enAtomic, true, orgNc_, loc, nz_[2]);
          }
          flags_.Drain(loc);
        },
        loc);
  }
  // The batch counts of A and B for the cube-only IterateBatch (asc-devkit SetBatchNum).
  __aicore__ void SetBatchNum(int32_t batchA, int32_t batchB) { batchA_ = batchA, batchB_ = batchB; }
  // IterateBatch (asc-devkit page IterateBatch, NORMAL layout: BMNK, one [M, K] x [K, N] after the
  // other): max(batchA, batchB) single-core products, A's batch i / (that / batchA) and B's likewise
  // (the smaller count broadcast), A's matrices matrixStrideA elements apart (0: M x Ka), B's
  // matrixStrideB (0: Kb x N), C's singleCoreM x singleCoreN, each C at its place as IterateAll puts
  // it. The cube-only form takes the counts of SetBatchNum; the mixed form, an AIV's, takes them here.
  __aicore__ void IterateBatch(const GlobalTensor<CT>& gm, bool enPartialSum, uint8_t enAtomic, bool enSequentialWrite,
                               const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                               const uint32_t matrixStrideC = 0, ASCENDC_SIM_LOC) {
    (void)matrixStrideC;  // reserved
    ASCENDC_SIM_CHECK(ascendc_sim::CurrentCore().Spec().type == ascendc_sim::CoreType::kAic, loc,
                      "Matmul::IterateBatch(gm, enPartialSum, enAtomic, ...) is the cube-only form (batch counts of "
                      "SetBatchNum); an AIV calls IterateBatch(gm, batchA, batchB, ...)");
    Batch(gm, batchA_, batchB_, enSequentialWrite, matrixStrideA, matrixStrideB, enPartialSum, enAtomic, loc);
  }
  template <bool sync = true, bool waitIterateBatch = false>
  __aicore__ void IterateBatch(const GlobalTensor<CT>& gm, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                               const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                               const uint32_t matrixStrideC = 0, const bool enPartialSum = false,
                               const uint8_t enAtomic = 0, ASCENDC_SIM_LOC) {
    (void)matrixStrideC;
    static_assert(sync, "Matmul::IterateBatch<false> (asynchronous, WaitIterateBatch) is not modelled");
    ASCENDC_SIM_CHECK(ascendc_sim::CurrentCore().Spec().type == ascendc_sim::CoreType::kAiv, loc,
                      "Matmul::IterateBatch(gm, batchA, batchB, ...) is the mixed kernel's AIV form; a cube core "
                      "calls SetBatchNum and IterateBatch(gm, enPartialSum, enAtomic, ...)");
    Batch(gm, static_cast<int32_t>(batchA), static_cast<int32_t>(batchB), enSequentialWrite, matrixStrideA,
          matrixStrideB, enPartialSum, enAtomic, loc);
  }

  // Every C block into a UB tensor of the calling AIV (asc-devkit IterateAll, its LocalTensor form: C at
  // VECIN), each at its place in a [singleCoreM, singleCoreN] ND C (rows singleCoreN apart), through the
  // library's GM staging area as GetTensorC's UB form: the AIC's Fixpipe writes the whole C there, the
  // AIV copies it into the tensor (MTE2) and waits MTE2 -> V.
  template <bool sync = true>
  __aicore__ void IterateAll(const LocalTensor<CT>& ub, uint8_t enAtomic = 0, ASCENDC_SIM_LOC) {
    static_assert(sync, "Matmul::IterateAll<false> into a local tensor is not modelled");
    Check(loc);
    ASCENDC_SIM_CHECK(enAtomic == 0, loc, "Matmul::IterateAll into a local tensor takes no atomic mode (enAtomic %u)",
                      static_cast<unsigned>(enAtomic));
    const uint32_t n = singleM_ * singleN_;
    ASCENDC_SIM_CHECK(n * sizeof(CT) % 32 == 0, loc,
                      "Matmul::IterateAll into a local tensor: singleCoreM x singleCoreN = %u elements, not whole "
                      "32-byte blocks, is not modelled",
                      n);
    const GlobalTensor<CT> stage = Stage(ub, n, "IterateAll", loc);
    ASCENDC_SIM_CHECK(!nz_[2], loc, "Matmul::IterateAll: an NZ C in the UB is not modelled");
    PostWait(loc);
    ascendc_sim::RunOnGroupAic(
        [&] {
          for (uint32_t b = 0; b < Blocks(); ++b) {
            Compute(b, loc);
            Out(b, stage, 0, true, singleN_, loc);
          }
          flags_.Drain(loc);
        },
        loc);
    DataCopy(ub, stage, n, loc);
    flags_.Set(PIPE_MTE2, PIPE_V, 40, loc);
    flags_.Wait(PIPE_MTE2, PIPE_V, 40, loc);
  }

  // The next C block into L0C; false once every block was computed. Asynchronous (sync false), as
  // the A2 client does it (asc-devkit matmul_client.h): the first call has every block computed into
  // the SetWorkspace cache as [baseM, baseN] blocks in iterate order, the next calls count the blocks
  // (true until each was counted), and GetTensorC<false> takes them from the cache in order. Here the
  // first call returns once the whole single-core C is in the cache (the device's AIV may start on
  // the first block earlier: a timing difference, not a numeric one).
  template <bool sync = true>
  __aicore__ bool Iterate(bool enPartialSum = false, ASCENDC_SIM_LOC) {
    (void)enPartialSum;
    static_assert(kPolicy != detail::MatmulPolicyKind::kNBuffer33,
                  "Matmul::Iterate does not support NBuffer33MatmulPolicy (IterateAll only)");
    Check(loc);
    if constexpr (!sync) {
      if (asyncCached_) {
        if (++asyncIter_ < Blocks()) return true;
        asyncCached_ = false;
        return false;
      }
      ASCENDC_SIM_CHECK(cache_ != nullptr, loc,
                        "Matmul: the asynchronous Iterate<false> caches C in the workspace SetWorkspace gives; none "
                        "was set");
      PostWait(loc);
      ascendc_sim::RunOnGroupAic(
          [&] {
            for (uint32_t b = 0; b < Blocks(); ++b) {
              Compute(b, loc);
              Out(b, Cached(b), 0, false, t_.baseN, loc);
            }
            flags_.Drain(loc);
          },
          loc);
      asyncCached_ = true, asyncIter_ = 0, asyncGot_ = 0;
      return true;
    }
    if (next_ >= Blocks()) {
      next_ = 0;
      return false;
    }
    ascendc_sim::RunOnGroupAic([&] { Compute(next_, loc); }, loc);
    ++next_;
    return true;
  }
  // The block of the last Iterate into GM: at its place in the single-core C (rows the original N
  // apart), or with enSequentialWrite at `gm` itself as a [baseM, baseN] block (rows baseN apart).
  template <bool sync = true>
  __aicore__ void GetTensorC(const GlobalTensor<CT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                             ASCENDC_SIM_LOC) {
    ASCENDC_SIM_CHECK(next_ > 0, loc, "Matmul::GetTensorC before Iterate");
    ascendc_sim::RunOnGroupAic(
        [&] {
          Out(next_ - 1, gm, enAtomic, !enSequentialWrite, enSequentialWrite ? t_.baseN : orgNc_, loc, nz_[2]);
          flags_.Drain(loc);
        },
        loc);
  }
  // The block of the last Iterate into a UB tensor of the calling AIV as a [baseM, baseN] ND block (rows
  // baseN apart; past a tail block's rows and columns the tensor gets what the staging area held),
  // through the library's GM staging area (header comment). The tensor holds at least baseM x baseN
  // elements and enAtomic is 0, as documented; enSequentialWrite changes nothing here.
  template <bool sync = true>
  __aicore__ void GetTensorC(const LocalTensor<CT>& ub, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                             ASCENDC_SIM_LOC) {
    (void)enSequentialWrite;
    if constexpr (!sync) {  // the next block of the asynchronous Iterate's cache
      const uint32_t n = static_cast<uint32_t>(t_.baseM * t_.baseN);
      ASCENDC_SIM_CHECK(enAtomic == 0, loc, "Matmul::GetTensorC<false> takes no atomic mode (enAtomic %u)",
                        static_cast<unsigned>(enAtomic));
      ASCENDC_SIM_CHECK(cache_ != nullptr && asyncGot_ < Blocks(), loc,
                        "Matmul::GetTensorC<false>: no block left of an asynchronous Iterate<false> (%u taken of %u)",
                        asyncGot_, Blocks());
      ASCENDC_SIM_CHECK(ub.GetSize() >= n, loc,
                        "Matmul::GetTensorC: the local tensor holds %u elements, fewer than baseM x baseN = %u",
                        static_cast<unsigned>(ub.GetSize()), n);
      DataCopy(ub, Cached(asyncGot_++), n, loc);
      flags_.Set(PIPE_MTE2, PIPE_V, 40, loc);
      flags_.Wait(PIPE_MTE2, PIPE_V, 40, loc);
      return;
    }
    ASCENDC_SIM_CHECK(next_ > 0, loc, "Matmul::GetTensorC before Iterate");
    ASCENDC_SIM_CHECK(enAtomic == 0, loc, "Matmul::GetTensorC into a local tensor takes no atomic mode (enAtomic %u)",
                      static_cast<unsigned>(enAtomic));
    const uint32_t n = static_cast<uint32_t>(t_.baseM * t_.baseN);
    const GlobalTensor<CT> stage = Stage(ub, n, "GetTensorC", loc);
    ASCENDC_SIM_CHECK(!nz_[2], loc, "Matmul::GetTensorC: an NZ C in the UB is not modelled");
    PostWait(loc);
    ascendc_sim::RunOnGroupAic(
        [&] {
          Out(next_ - 1, stage, 0, false, t_.baseN, loc);
          flags_.Drain(loc);
        },
        loc);
    DataCopy(ub, stage, n, loc);
    flags_.Set(PIPE_MTE2, PIPE_V, 40, loc);
    flags_.Wait(PIPE_MTE2, PIPE_V, 40, loc);
  }
  // On an AIV of a mixed launch, End is a message to the AIC too (it releases the client's state there).
  __aicore__ void End(ASCENDC_SIM_LOC) {
    next_ = 0;
    ascendc_sim::PostToGroupAic(loc);
  }
  __aicore__ uint32_t BlockCount() const { return Blocks(); }

 private:
  uint32_t MBlocks() const { return (singleM_ + t_.baseM - 1) / t_.baseM; }
  uint32_t NBlocks() const { return (singleN_ + t_.baseN - 1) / t_.baseN; }
  uint32_t Blocks() const { return MBlocks() * NBlocks(); }
  void Where(uint32_t b, uint32_t& mi, uint32_t& ni) const {
    if (t_.iterateOrder == 1)
      mi = b / NBlocks(), ni = b % NBlocks();
    else
      ni = b / MBlocks(), mi = b % MBlocks();
  }
  void Check(const SrcLoc& loc) const {
    ASCENDC_SIM_CHECK(inited_, loc, "Matmul used before REGIST_MATMUL_OBJ / Init gave it a TCubeTiling");
    ASCENDC_SIM_CHECK(t_.baseM > 0 && t_.baseN > 0 && t_.baseK > 0 && t_.baseM % 16 == 0 && t_.baseN % 16 == 0 &&
                          t_.baseK % static_cast<int32_t>(ascendc_sim::K0<AT>()) == 0,
                      loc, "Matmul: baseM %d / baseN %d must be multiples of 16 and baseK %d of %u", t_.baseM, t_.baseN,
                      t_.baseK, ascendc_sim::K0<AT>());
    ASCENDC_SIM_CHECK(sizeof(AT) == 2 || (!transA_ && (transB_ || sizeof(AT) == 4)), loc,
                      "Matmul: %zu-byte inputs need A not transposed%s (the fractal transpose of LoadData is "
                      "16-bit only)",
                      sizeof(AT), sizeof(AT) == 1 ? " and B transposed" : "");
    ASCENDC_SIM_CHECK(sizeof(AT) != 4 || transB_ || t_.baseK % 16 == 0, loc,
                      "Matmul: a 32-bit B not transposed needs baseK %d a multiple of 16 (16 x 16 squares of "
                      "LoadDataWithTranspose)",
                      t_.baseK);
  }

  // Where a block of an operand lies in an L1 NZ buffer: `rows` fractal rows (16 each) per C0 column,
  // the block's first fractal row and C0 column. Fractal (r, c) is at c x rows + r.
  struct InL1 {
    LocalTensor<AT> buf;
    uint32_t rows, row0, col0;
  };
  // IterateBatch's products (its comment) on the group's AIC, charged as IterateAll's each.
  void Batch(const GlobalTensor<CT>& gm, int32_t batchA, int32_t batchB, bool sequential, uint32_t strideA,
             uint32_t strideB, bool partialSum, uint8_t enAtomic, const SrcLoc& loc) {
    Check(loc);
    ASCENDC_SIM_CHECK(batchA > 0 && batchB > 0 && (batchA % batchB == 0 || batchB % batchA == 0), loc,
                      "Matmul::IterateBatch: batchA %d and batchB %d must be positive, one a multiple of the other",
                      batchA, batchB);
    ASCENDC_SIM_CHECK(!sequential && !partialSum, loc,
                      "Matmul::IterateBatch into GM: enSequentialWrite / enPartialSum are not modelled");
    ASCENDC_SIM_CHECK(!fromL1_[0] && !fromL1_[1] && !HasUserCopy(0) && !HasUserCopy(1), loc,
                      "Matmul::IterateBatch with A or B in L1 or copied by the kernel is not modelled");
    ASCENDC_SIM_CHECK(!nz_[0] && !nz_[1] && !nz_[2], loc, "Matmul::IterateBatch with NZ operands is not modelled");
    const int32_t n = std::max(batchA, batchB);
    const uint64_t sA = strideA != 0 ? strideA : static_cast<uint64_t>(orgM_) * orgKa_;
    const uint64_t sB = strideB != 0 ? strideB : static_cast<uint64_t>(orgKb_) * orgN_;
    const uint64_t sC = static_cast<uint64_t>(singleM_) * singleN_;
    const GlobalTensor<AT> a = a_;
    const GlobalTensor<BT> b = b_;
    const GlobalTensor<BiasT> bias = bias_;
    ascendc_sim::RunOnGroupAic(
        [&] {
          for (int32_t i = 0; i < n; ++i) {
            a_ = a[static_cast<uint64_t>(i / (n / batchA)) * sA];
            b_ = b[static_cast<uint64_t>(i / (n / batchB)) * sB];
            // A bias per batch (MatmulConfig isBiasBatch, the default), else one for all.
            if (detail::ConfigOf(MM_CFG).isBiasBatch) bias_ = bias[static_cast<uint64_t>(i) * singleN_];
            for (uint32_t blk = 0; blk < Blocks(); ++blk) {
              Compute(blk, loc);
              Out(blk, gm[static_cast<uint64_t>(i) * sC], enAtomic, true, orgNc_, loc);
            }
          }
          flags_.Drain(loc);
        },
        loc);
    a_ = a, b_ = b, bias_ = bias;
  }

  // Buffers: static tensors at fixed places of the cube buffers (the object owns them). In L1, from
  // l1Base_ (header comment): A's buffer (its chunk slots, or its user-copied tile), B's, the bias.
  // An operand's chunk in K (NORM one base block, MDL stepKa of A and stepKb of B) and its slot's bytes.
  // (Sizes are taken in 64 bits or in double, from 32-bit fields a kernel may forge; TakeL1Buffers
  // holds them to L1's bytes, so the 32-bit sizes the buffers are made with are exact.)
  uint64_t ChunkK(int op) const {
    const int32_t step = detail::ConfigOf(MM_CFG).doMultiDataLoad ? (op == 0 ? t_.stepKa : t_.stepKb) : 1;
    return static_cast<uint64_t>(std::max(step, 1)) * static_cast<uint64_t>(std::max(t_.baseK, 0));
  }
  double SlotSize(int op) const {
    return static_cast<double>(ChunkK(op)) * std::max(op == 0 ? t_.baseM : t_.baseN, 0) * sizeof(AT);
  }
  uint32_t SlotBytes(int op) const { return static_cast<uint32_t>(SlotSize(op)); }
  // Operand op's buffer as the device's library sizes it at Init (header comment; asc-devkit
  // CubeInBuffer NORMAL: depth base blocks; DOUBLE_BUFFER: (depth / step - 1) & 1 ? two : one of step).
  double DeviceSize(int op) const {
    if (l1Type_[op]) return 0;
    const double block =
        static_cast<double>(std::max(op == 0 ? t_.baseM : t_.baseN, 0)) * std::max(t_.baseK, 0) * sizeof(AT);
    const int64_t depth = std::max(op == 0 ? t_.depthA1 : t_.depthB1, 0);
    if (!detail::ConfigOf(MM_CFG).doMultiDataLoad) return static_cast<double>(depth) * block;
    const int64_t step =
        op == 0 ? static_cast<int64_t>(t_.stepKa) * t_.stepM : static_cast<int64_t>(t_.stepKb) * t_.stepN;
    if (step <= 0) return 0;
    return ((depth / step - 1) & 1 ? 2 : 1) * static_cast<double>(step) * block;
  }
  // The bytes the emulation lays in operand op's buffer: the device's, or where a tiling's depth gives
  // less than one chunk (or the user-copied tile) the emulation works in, that one (more than the
  // device takes: the library then never writes past what it took).
  double PartSize(int op) const {
    if (l1Type_[op]) return 0;
    const double least = HasUserCopy(op) ? TileSize(op) : SlotSize(op);
    return std::ceil(std::max(DeviceSize(op), least) / 32) * 32;
  }
  // Takes the object's L1 place (header comment) on a cube core. An AIV's object computes on its group's
  // AIC, which served no kernel L1 buffers past REGIST_MATMUL_OBJ: the place there starts at 0.
  void TakeL1Buffers(const SrcLoc& loc) {
    const double bias = t_.isBias != 0 ? std::max(t_.baseN, 0) * static_cast<double>(sizeof(BiasT)) : 0,
                 total = PartSize(0) + PartSize(1) + bias;
    const int64_t l1 = ascendc_sim::SocParamInt("l1_bytes");
    ASCENDC_SIM_CHECK(total <= static_cast<double>(l1), loc,
                      "Matmul::Init: the tiling's L1 buffers (A %.0f, B %.0f, bias %.0f bytes) exceed the L1's %lld",
                      PartSize(0), PartSize(1), bias, static_cast<long long>(l1));
    partA_ = static_cast<uint32_t>(PartSize(0)), partB_ = static_cast<uint32_t>(PartSize(1));
    slots_[0] = HasUserCopy(0) || 2 * SlotSize(0) > partA_ ? 1 : 2;
    slots_[1] = HasUserCopy(1) || 2 * SlotSize(1) > partB_ ? 1 : 2;
    l1Base_ = 0;
    ascendc_sim::Core& core = ascendc_sim::CurrentCore();
    const uint32_t bytes = static_cast<uint32_t>(total);
    if (core.Spec().type != ascendc_sim::CoreType::kAic || bytes == 0) return;
    TPipe* pipe = GetTPipePtr();
    ASCENDC_SIM_CHECK(pipe != nullptr, loc,
                      "Matmul::Init on a cube core takes the object's L1 buffers from the TPipe (GetTPipePtr), and "
                      "there is none");
    l1Base_ = pipe->InitScratch(TPosition::A1, 1, bytes, loc) - core.Local().Base(ascendc_sim::LocalBuf::kL1);
  }
  LocalTensor<AT> L1A(int s, const SrcLoc& loc) const {
    return LocalTensor<AT>(TPosition::A1, l1Base_ + s * SlotBytes(0), SlotBytes(0) / sizeof(AT), loc);
  }
  LocalTensor<AT> L1B(int s, const SrcLoc& loc) const {
    return LocalTensor<AT>(TPosition::B1, l1Base_ + partA_ + s * SlotBytes(1), SlotBytes(1) / sizeof(AT), loc);
  }
  LocalTensor<BiasT> L1Bias(const SrcLoc& loc) const {
    return LocalTensor<BiasT>(TPosition::C1, l1Base_ + partA_ + partB_, static_cast<uint32_t>(t_.baseN), loc);
  }

  // An operand the kernel holds in L1 (SetTensorA / B with a LocalTensor): asc-devkit SetTensorA and
  // the TSCM input guide, "the matrix is fully loaded in L1, Iterate copies nothing from GM", so the
  // library reads the single-core matrix from it as NZ (its L1 -> L0 split: rows singleCoreM of A or
  // singleCoreK of B, base blocks at their offsets) and moves no byte into L1 for it.
  void SetL1(int op, const LocalTensor<AT>& l1, const SrcLoc& loc) {
    ASCENDC_SIM_CHECK(BufferOf(l1.GetPosition()) == ascendc_sim::LocalBuf::kL1, loc,
                      "Matmul::SetTensor%s: a LocalTensor in L1 (TSCM / A1 / B1) is modelled; one in the UB (VECOUT) "
                      "is not",
                      op == 0 ? "A" : "B");
    l1_[op] = l1, fromL1_[op] = true, tile_[op].valid = false, next_ = 0;
  }
  // Operand `op`'s block at (r0, c0) (elements, GM layout: A [M, K], B [K, N]) in the kernel's L1 matrix.
  InL1 FromL1(int op, uint32_t r0, uint32_t c0, bool trans, const SrcLoc& loc) const {
    ASCENDC_SIM_CHECK(sizeof(AT) == 2 || op == 0 || trans, loc,
                      "Matmul: a %zu-byte B not transposed in L1 is not modelled", sizeof(AT));
    return Within(op, l1_[op], op == 0 ? singleM_ : singleK_, op == 0 ? singleK_ : singleN_, r0, c0, trans);
  }
  // Where the block at (offRows, offCols) of a rows x cols NZ matrix of operand `op` lies in `buf`.
  // Transposed, the NZ's rows are the GM layout's columns; its C0 columns run k0 elements along K,
  // else 16.
  static InL1 Within(int op, const LocalTensor<AT>& buf, uint32_t rows, uint32_t cols, uint32_t offRows,
                     uint32_t offCols, bool trans) {
    constexpr uint32_t k0 = ascendc_sim::K0<AT>();
    const uint32_t nzRows = trans ? cols : rows, rowOff = trans ? offCols : offRows;
    const uint32_t colOff = trans ? offRows : offCols;
    const bool kAcross = (op == 0) != trans;
    return {buf, (nzRows + 15) / 16, rowOff / 16, colOff / (kAcross ? k0 : 16)};
  }

  // User copies (header comment). A tile in base blocks: NORM one, MDL stepM x stepKa of A, stepKb x
  // stepN of B; in elements rows x cols of the operand as laid out in GM (A [M, K], B [K, N]).
  bool HasUserCopy(int op) const {
    if constexpr (MM_CB::CopyA1Ptr != nullptr)
      if (op == 0) return true;
    if constexpr (MM_CB::CopyB1Ptr != nullptr)
      if (op == 1) return true;
    return userCopy_[op] != nullptr;
  }
  // A tile's rows (cols false) or columns, in 64 bits from the fields a kernel may forge: Init holds
  // the tile's bytes to L1's, so the 32-bit sides below are exact.
  int64_t TileSide(int op, bool cols) const {
    const int32_t steps = cols ? (op == 0 ? t_.stepKa : t_.stepN) : (op == 0 ? t_.stepM : t_.stepKb);
    const int32_t base = cols ? (op == 0 ? t_.baseK : t_.baseN) : (op == 0 ? t_.baseM : t_.baseK);
    return (detail::ConfigOf(MM_CFG).doMultiDataLoad ? std::max<int64_t>(steps, 1) : 1) * base;
  }
  uint32_t TileRows(int op) const { return static_cast<uint32_t>(TileSide(op, false)); }
  uint32_t TileCols(int op) const { return static_cast<uint32_t>(TileSide(op, true)); }
  // A tile's NZ in either orientation: both sides rounded up to 32 elements (16-row fractals, C0 of 16
  // or 32 elements).
  double TileSize(int op) const {
    auto side = [](int64_t n) { return std::ceil(std::max<double>(static_cast<double>(n), 0) / 32) * 32; };
    return side(TileSide(op, false)) * side(TileSide(op, true)) * sizeof(AT);
  }
  uint32_t TileBytes(int op) const { return static_cast<uint32_t>(TileSize(op)); }
  void CallUserCopy(int op, const LocalTensor<int8_t>& l1, int row, int col, int height, int width) {
    if constexpr (MM_CB::CopyA1Ptr != nullptr)
      if (op == 0) return MM_CB::CopyA1Ptr(l1, a_.GetPhyAddr(), row, col, height, width, userDefInfo_, selfDefineData_);
    if constexpr (MM_CB::CopyB1Ptr != nullptr)
      if (op == 1) return MM_CB::CopyB1Ptr(l1, b_.GetPhyAddr(), row, col, height, width, userDefInfo_, selfDefineData_);
    userCopy_[op](userCtx_, op, l1, row, col, height, width, userDefInfo_, selfDefineData_);
  }

  // On the device each object's tiles have an L1 place of their own; here the objects of a mixed
  // kernel's AIVs, all computing on their AIC, lay them at one (TakeL1Buffers). So an object takes
  // the place back holding its tiles as its last user copies left them, or cleared before its first:
  // another object's tile is never its data (a copy that skips a tile another object loaded read it
  // here alone, and an object whose held tile another one overwrote computed from that one's data).
  void TakeL1Place(const SrcLoc& loc) {
    ascendc_sim::Core::MatmulTiles& place = ascendc_sim::CurrentCore().MatmulL1();
    if (place.holder == id_) return;
    place.holder = id_;
    for (int op = 0; op < 2; ++op) {
      if (!HasUserCopy(op)) continue;
      uint8_t* at = UserTileBytes(op, loc);
      const auto kept = place.kept[op].find(id_);
      if (kept != place.kept[op].end() && kept->second.size() == TileBytes(op))
        std::memcpy(at, kept->second.data(), kept->second.size());
      else
        std::memset(at, 0, TileBytes(op));
    }
  }
  uint8_t* UserTileBytes(int op, const SrcLoc& loc) const {
    const LocalTensor<int8_t> tile(op == 0 ? TPosition::A1 : TPosition::B1, l1Base_ + (op == 0 ? 0 : partA_),
                                   TileBytes(op), loc);
    return reinterpret_cast<uint8_t*>(ascendc_sim::HostData(tile));
  }

  // Operand `op`'s block at (r0, c0) (elements, GM layout: A [M, K], B [K, N]) of `height` x `width`,
  // from the tile holding it, which the user copy fills first unless it is the tile the object holds.
  // Transposed (`trans`), the NZ's rows are the GM layout's columns.
  InL1 UserTile(int op, uint32_t r0, uint32_t c0, uint32_t height, uint32_t width, bool trans, const SrcLoc& loc) {
    const uint32_t tr = TileRows(op), tc = TileCols(op), row = r0 / tr, col = c0 / tc;
    const uint32_t allRows = op == 0 ? singleM_ : singleK_, allCols = op == 0 ? singleK_ : singleN_;
    ASCENDC_SIM_CHECK((r0 + height - 1) / tr == row && (c0 + width - 1) / tc == col, loc,
                      "Matmul: a user copy of %s fills %u x %u tiles, which the library's %u x %u blocks straddle",
                      op == 0 ? "A" : "B", tr, tc, height, width);
    ASCENDC_SIM_CHECK(sizeof(AT) == 2 || op == 0 || trans, loc,
                      "Matmul: a user copy of a %zu-byte B not transposed is not modelled", sizeof(AT));
    const uint32_t useRows = std::min(tr, allRows - row * tr), useCols = std::min(tc, allCols - col * tc);
    Tile& t = tile_[op];
    LocalTensor<AT> l1(op == 0 ? TPosition::A1 : TPosition::B1, l1Base_ + (op == 0 ? 0 : partA_),
                       TileBytes(op) / sizeof(AT), loc);
    TakeL1Place(loc);
    if (!t.valid || t.row != row || t.col != col) {
      flags_.Wait(PIPE_MTE1, PIPE_MTE2, 30 + op, loc);  // the LoadData of the tile held before is done
      CallUserCopy(op, l1.template ReinterpretCast<int8_t>(), static_cast<int>(row), static_cast<int>(col),
                   static_cast<int>(useRows), static_cast<int>(useCols));
      const uint8_t* left = UserTileBytes(op, loc);
      ascendc_sim::CurrentCore().MatmulL1().kept[op][id_].assign(left, left + TileBytes(op));
      t = Tile{true, row, col};
    }
    return Within(op, l1, useRows, useCols, r0 - row * tr, c0 - col * tc, trans);
  }
  LocalTensor<AT> L0A(int p, const SrcLoc& loc) const {
    const uint32_t n = static_cast<uint32_t>(t_.baseM * t_.baseK);
    return LocalTensor<AT>(TPosition::A2, p * n * sizeof(AT), n, loc);
  }
  LocalTensor<AT> L0B(int p, const SrcLoc& loc) const {
    const uint32_t n = static_cast<uint32_t>(t_.baseN * t_.baseK);
    return LocalTensor<AT>(TPosition::B2, p * n * sizeof(AT), n, loc);
  }
  LocalTensor<L0CT> L0C(int p, const SrcLoc& loc) const {
    const uint32_t n = static_cast<uint32_t>(t_.baseM * t_.baseN);
    return LocalTensor<L0CT>(TPosition::CO1, p * n * sizeof(L0CT), n, loc);
  }

  // One C block into L0C slot (b % 2): K in steps of the smaller chunk (header comment), each chunk of
  // A and B through its L1 slot, base blocks through L0A/L0B, one Mmad each.
  void Compute(uint32_t b, const SrcLoc& loc) {
    uint32_t mi, ni;
    Where(b, mi, ni);
    const uint32_t m0 = mi * t_.baseM, n0 = ni * t_.baseN;
    const uint32_t mLen = std::min<uint32_t>(t_.baseM, singleM_ - m0),
                   nLen = std::min<uint32_t>(t_.baseN, singleN_ - n0);
    const uint32_t mA = (mLen + 15) / 16 * 16, nA = (nLen + 15) / 16 * 16;
    constexpr uint32_t k0 = ascendc_sim::K0<AT>(), frac = 512 / sizeof(AT);
    // (exact in 32 bits: Init held the chunks' slots to L1's bytes, Check the base sides to > 0)
    const uint32_t K = singleK_, baseK = t_.baseK, chunkA = static_cast<uint32_t>(ChunkK(0)),
                   chunkB = static_cast<uint32_t>(ChunkK(1)), stepK = std::min(chunkA, chunkB);
    ASCENDC_SIM_CHECK(std::max(chunkA, chunkB) % stepK == 0, loc,
                      "Matmul (MDL): stepKa %d and stepKb %d, neither a multiple of the other, are not modelled",
                      t_.stepKa, t_.stepKb);
    for (int op = 0; op < 2; ++op)
      ASCENDC_SIM_CHECK(fromL1_[op] || !l1Type_[op], loc,
                        "Matmul: %s's MatmulType is at an L1 position (TSCM / A1 / B1), for which the library takes "
                        "no L1 buffer at Init; SetTensor%s with a GlobalTensor is not modelled",
                        op == 0 ? "A" : "B", op == 0 ? "A" : "B");
    ASCENDC_SIM_CHECK(!hasBias_ || t_.isBias != 0, loc,
                      "Matmul::SetBias with a tiling whose isBias is 0: the library took no L1 buffer for the bias "
                      "at Init (asc-devkit BiasScheduler::Init)");
    const int c = static_cast<int>(b % static_cast<uint32_t>(std::max(t_.dbL0C, 1)));
    LocalTensor<L0CT> co = L0C(c, loc);
    flags_.Wait(PIPE_FIX, PIPE_M, 8 + c, loc);  // the Fixpipe of the block two before has read this slot
    bool first = true;
    if (hasBias_) {
      flags_.Wait(PIPE_M, PIPE_MTE1, 20, loc);  // the last block's first Mmad has read the bias table
      flags_.Wait(PIPE_MTE1, PIPE_MTE2, 21, loc);
      DataCopy(L1Bias(loc), bias_[n0],
               Nd2NzParams(1, 1, static_cast<uint16_t>(nLen), 0, static_cast<uint16_t>(nLen), 1, 1, 0), loc);
      flags_.Set(PIPE_MTE2, PIPE_MTE1, 22, loc);
      flags_.Wait(PIPE_MTE2, PIPE_MTE1, 22, loc);
      LocalTensor<float> bt(TPosition::C2, 0, nA, loc);
      DataCopy(bt, L1Bias(loc), DataCopyParams{1, static_cast<uint16_t>((nA * 4 + 63) / 64), 0, 0}, loc);
      flags_.Set(PIPE_MTE1, PIPE_MTE2, 21, loc);
      flags_.Set(PIPE_MTE1, PIPE_M, 23, loc);
      flags_.Wait(PIPE_MTE1, PIPE_M, 23, loc);
    }
    // The chunks of A and B in L1 (InL1), where each starts in K and its length, and its slot's flag:
    // LoadData done with the slot (MTE1 -> MTE2). With equal chunks A and B share it, as one chunk.
    InL1 a1{}, b1{};
    uint32_t kcA = 0, kcB = 0, kLenA = 0, kLenB = 0;
    uint64_t keyA = 2, keyB = 2;
    for (uint32_t kc = 0; kc < K; kc += stepK, ++chunk_) {
      const int s = static_cast<int>(chunk_ % 2);
      const uint32_t kLen = std::min(stepK, K - kc), kA = (kLen + k0 - 1) / k0 * k0;
      if (kc % chunkA == 0) {
        const int sA = static_cast<int>(loads_[0]++ % static_cast<uint64_t>(slots_[0]));
        kcA = kc, kLenA = std::min(chunkA, K - kc), keyA = 2 + sA;
        flags_.Wait(PIPE_MTE1, PIPE_MTE2, keyA, loc);  // LoadData done with this slot's last chunk
        a1 = ChunkOfA(sA, m0, kcA, mLen, kLenA, loc);
      }
      if (kc % chunkB == 0) {
        const int sB = static_cast<int>(loads_[1]++ % static_cast<uint64_t>(slots_[1]));
        kcB = kc, kLenB = std::min(chunkB, K - kc), keyB = (chunkA == chunkB ? 2 : 24) + sB;
        flags_.Wait(PIPE_MTE1, PIPE_MTE2, keyB, loc);
        b1 = ChunkOfB(sB, n0, kcB, nLen, kLenB, loc);
      }
      flags_.Set(PIPE_MTE2, PIPE_MTE1, 4 + s, loc);
      flags_.Wait(PIPE_MTE2, PIPE_MTE1, 4 + s, loc);
      for (uint32_t kb = 0; kb < kA; kb += baseK, ++step_) {
        const int p = static_cast<int>(step_ % 2);
        // the base block's first fractal column in A's and in B's chunk
        const uint32_t kl = std::min(baseK, kLen - kb), kFb = (kl + k0 - 1) / k0, fA = (kc - kcA + kb) / k0,
                       fB = (kc - kcB + kb) / k0;
        const uint32_t m1 = mA / 16, n1 = nA / 16;
        LocalTensor<AT> a2 = L0A(p, loc), b2 = L0B(p, loc);
        flags_.Wait(PIPE_M, PIPE_MTE1, 6 + p, loc);  // the Mmad two steps back has read this slot
        if (!transA_) {                              // NZ fractal (m, k) at k * rows + m -> Zz (m, k) at m * kFb + k
          for (uint32_t m = 0; m < m1; ++m)
            LoadData(a2[m * kFb * frac], a1.buf[((a1.col0 + fA) * a1.rows + a1.row0 + m) * frac],
                     LoadData2DParams(0, kFb, a1.rows, 0, 0, false, 0), loc);
        } else {  // NZ of A^T: fractal (k, m) at m * rows + k, transposed -> Zz
          for (uint32_t m = 0; m < m1; ++m)
            LoadData(a2[m * kFb * frac], a1.buf[((a1.col0 + m) * a1.rows + a1.row0 + fA) * frac],
                     LoadData2DParams(0, kFb, 1, 0, 0, true, 0), loc);
        }
        if (!transB_ && sizeof(AT) == 4) {  // strip j's squares from kb / 16 on -> Zn (k, n) at k * n1 + n
          const uint32_t rows = (kLenB + 15) / 16 * 16, squares = (kl + 15) / 16;
          if constexpr (sizeof(AT) == 4)  // (instantiated for 32-bit types only)
            for (uint32_t j = 0; j < n1; ++j)
              LoadDataWithTranspose(
                  b2[j * frac], b1.buf[(j * rows / 16 + (kc - kcB + kb) / 16) * 2 * frac],
                  LoadData2dTransposeParams(0, static_cast<uint8_t>(squares), 1, static_cast<uint16_t>(2 * n1 - 1),
                                            static_cast<uint16_t>(n1 - 1)),
                  loc);
        } else if (!transB_) {  // NZ fractal (k, n) at n * rows + k, transposed -> Zn (k, n) at k * n1 + n
          for (uint32_t k = 0; k < kFb; ++k)
            LoadData(b2[k * n1 * frac], b1.buf[(b1.col0 * b1.rows + b1.row0 + fB + k) * frac],
                     LoadData2DParams(0, n1, b1.rows, 0, 0, true, 0), loc);
        } else if (b1.rows == n1 && b1.row0 == 0) {  // NZ of B^T: fractal (n, k) at k * n1 + n is already Zn
          LoadData(b2, b1.buf[(b1.col0 + fB) * n1 * frac], LoadData2DParams(0, kFb * n1, 1, 0, 0, false, 0), loc);
        } else {  // B^T in a wider tile: each K fractal column's n1 fractals from row0 on
          for (uint32_t k = 0; k < kFb; ++k)
            LoadData(b2[k * n1 * frac], b1.buf[((b1.col0 + fB + k) * b1.rows + b1.row0) * frac],
                     LoadData2DParams(0, n1, 1, 0, 0, false, 0), loc);
        }
        flags_.Set(PIPE_MTE1, PIPE_M, 10 + p, loc);
        flags_.Wait(PIPE_MTE1, PIPE_M, 10 + p, loc);
        MmadParams mp;
        mp.m = mLen, mp.n = nLen, mp.k = kl;
        mp.cmatrixInitVal = first && !hasBias_;
        if (first && hasBias_) {
          LocalTensor<float> bt(TPosition::C2, 0, nA, loc);
          if constexpr (std::is_same_v<L0CT, float>)
            Mmad(co, a2, b2, bt, mp, loc);
          else
            ASCENDC_SIM_CHECK(false, loc, "Matmul: an int8 matmul's bias is not modelled");
          flags_.Set(PIPE_M, PIPE_MTE1, 20, loc);
        } else {
          Mmad(co, a2, b2, mp, loc);
        }
        if ((mA / 16) * (nA / 16) < 10) PipeBarrier<PIPE_M>(loc);  // small Mmads: the write-read hazard on L0C
        first = false;
        flags_.Set(PIPE_M, PIPE_MTE1, 6 + p, loc);
      }
      // A chunk whose last step this was leaves its slot (and a user tile) to the next load.
      const bool endA = kc + stepK >= kcA + kLenA, endB = kc + stepK >= kcB + kLenB;
      if (endA) flags_.Set(PIPE_MTE1, PIPE_MTE2, keyA, loc);
      if (endB && !(endA && keyB == keyA)) flags_.Set(PIPE_MTE1, PIPE_MTE2, keyB, loc);
      if (endA && HasUserCopy(0)) flags_.Set(PIPE_MTE1, PIPE_MTE2, 30, loc);
      if (endB && HasUserCopy(1)) flags_.Set(PIPE_MTE1, PIPE_MTE2, 31, loc);
    }
    flags_.Set(PIPE_M, PIPE_FIX, 12 + c, loc);
  }
  // A's chunk [mLen, kLen] at (m0, kc) (or its transpose [kLen, mLen]) into NZ in slot s: copied there,
  // or where the kernel holds A in L1, or the user-copied tile that holds it.
  InL1 ChunkOfA(int s, uint32_t m0, uint32_t kc, uint32_t mLen, uint32_t kLen, const SrcLoc& loc) {
    constexpr uint32_t k0 = ascendc_sim::K0<AT>();
    const uint32_t mA = (mLen + 15) / 16 * 16, kA = (kLen + k0 - 1) / k0 * k0;
    InL1 a1{L1A(s, loc), transA_ ? kA / k0 : mA / 16, 0, 0};
    if (fromL1_[0])
      a1 = FromL1(0, m0, kc, transA_, loc);
    else if (HasUserCopy(0))
      a1 = UserTile(0, m0, kc, mLen, kLen, transA_, loc);
    else if (nz_[0] && !transA_)
      CopyNz(a1.buf, a_, orgM_, m0, kc, mA, kA, k0, loc);
    else if (nz_[0])
      CopyNz(a1.buf, a_, orgKa_, kc, m0, kA, mA, 16, loc);
    else if (!transA_)
      DataCopy(a1.buf, a_[static_cast<uint64_t>(m0) * orgKa_ + kc], Nd2NzParams(1, mLen, kLen, 0, orgKa_, mA, 1, 0),
               loc);
    else
      DataCopy(a1.buf, a_[static_cast<uint64_t>(kc) * orgM_ + m0], Nd2NzParams(1, kLen, mLen, 0, orgM_, kA, 1, 0), loc);
    return a1;
  }
  // B's chunk [kLen, nLen] at (kc, n0) (or its transpose [nLen, kLen]) likewise.
  InL1 ChunkOfB(int s, uint32_t n0, uint32_t kc, uint32_t nLen, uint32_t kLen, const SrcLoc& loc) {
    constexpr uint32_t k0 = ascendc_sim::K0<AT>();
    const uint32_t nA = (nLen + 15) / 16 * 16, kA = (kLen + k0 - 1) / k0 * k0;
    InL1 b1{L1B(s, loc), transB_ ? nA / 16 : kA / k0, 0, 0};
    if (fromL1_[1])
      b1 = FromL1(1, kc, n0, transB_, loc);
    else if (HasUserCopy(1))
      b1 = UserTile(1, kc, n0, kLen, nLen, transB_, loc);
    else if (nz_[1] && !transB_ && sizeof(AT) == 4)
      CopyB32Nz(b1.buf, kc, n0, kLen, nLen, loc);
    else if (nz_[1] && !transB_)
      CopyNz(b1.buf, b_, orgKb_, kc, n0, kA, nA, 16, loc);
    else if (nz_[1])
      CopyNz(b1.buf, b_, orgN_, n0, kc, nA, kA, k0, loc);
    else if (!transB_ && sizeof(AT) == 4)
      CopyB32(b1.buf, kc, n0, kLen, nLen, loc);
    else if (!transB_)
      DataCopy(b1.buf, b_[static_cast<uint64_t>(kc) * orgN_ + n0], Nd2NzParams(1, kLen, nLen, 0, orgN_, kA, 1, 0), loc);
    else
      DataCopy(b1.buf, b_[static_cast<uint64_t>(n0) * orgKb_ + kc], Nd2NzParams(1, nLen, kLen, 0, orgKb_, nA, 1, 0),
               loc);
    return b1;
  }

  // A 32-bit B not transposed, [kLen, nLen] at (kc, n0), into L1 as LoadDataWithTranspose reads it: per
  // 16-column strip j (at j x rows x 16, rows = kLen rounded up to 16), 16 x 16 squares of 16 rows down
  // K, each two 16 x 8 fractals side by side (columns 0-7, then 8-15). One Nd2Nz per strip for the
  // whole 16-row groups (one ND matrix each) and one for the rows past them. (The vendor library's own
  // sequence for this case is not documented; the numbers do not depend on it.)
  void CopyB32(const LocalTensor<AT>& b1, uint32_t kc, uint32_t n0, uint32_t kLen, uint32_t nLen, const SrcLoc& loc) {
    const uint32_t rows = (kLen + 15) / 16 * 16, groups = kLen / 16, tail = kLen % 16;
    for (uint32_t j = 0; j * 16 < nLen; ++j) {
      const uint16_t cols = static_cast<uint16_t>(std::min<uint32_t>(16, nLen - j * 16));
      const GlobalTensor<BT> src = b_[static_cast<uint64_t>(kc) * orgN_ + n0 + j * 16];
      const LocalTensor<AT> strip = b1[j * rows * 16];
      // (srcNdMatrixStride is 16 bits: past 65535 elements between groups, one call per group)
      const uint32_t per = 16u * orgN_ <= 65535u ? std::max<uint32_t>(groups, 1) : 1;
      for (uint32_t g = 0; g < groups; g += per)
        DataCopy(strip[g * 256], src[static_cast<uint64_t>(g) * 16 * orgN_],
                 Nd2NzParams(static_cast<uint16_t>(std::min(per, groups - g)), 16, cols,
                             static_cast<uint16_t>(per > 1 ? 16 * orgN_ : 0), static_cast<uint16_t>(orgN_), 16, 1, 256),
                 loc);
      if (tail > 0)
        DataCopy(strip[groups * 256], src[static_cast<uint64_t>(groups) * 16 * orgN_],
                 Nd2NzParams(1, static_cast<uint16_t>(tail), cols, 0, static_cast<uint16_t>(orgN_), 16, 1, 0), loc);
    }
  }

  // A block of an operand in NZ in GM (asc-devkit Matmul: [cols / C0][rows, 16-aligned][C0], C0 = 32 B
  // of elements along the inner axis) into L1 as the library's own copy leaves it, the same NZ of the
  // block alone: `rowsA` rows from r0 of each of its `colsA / c0` C0 columns from c0, one burst of rowsA
  // x 32 B per C0 column (the GM's C0 columns `orgRows` rounded up to 16 rows apart). No Nd2Nz: a
  // plain block copy, charged as the library's DataCopy of those bytes.
  template <typename T>
  static void CopyNz(const LocalTensor<T>& l1, const GlobalTensor<T>& gm, uint32_t orgRows, uint32_t r0, uint32_t c0,
                     uint32_t rowsA, uint32_t colsA, uint32_t k0, const SrcLoc& loc) {
    const uint32_t gmRows = (orgRows + 15) / 16 * 16, cols = colsA / k0;
    // (srcStride is 16 bits: past 65535 blocks between C0 columns, one call per column)
    const uint32_t per = gmRows - rowsA <= 65535u ? cols : 1;
    for (uint32_t c = 0; c < cols; c += per)
      DataCopy(l1[c * rowsA * k0], gm[(static_cast<uint64_t>(c0 / k0 + c) * gmRows + r0) * k0],
               DataCopyParams(static_cast<uint16_t>(std::min(per, cols - c)), static_cast<uint16_t>(rowsA),
                              static_cast<uint16_t>(per > 1 ? gmRows - rowsA : 0), 0),
               loc);
  }
  // CopyB32's layout from an NZ B in GM (8-column C0 columns, K rounded up to 16 rows): each strip's
  // two C0 columns, each one burst per 16-row group into its half of every 16 x 16 square.
  void CopyB32Nz(const LocalTensor<AT>& b1, uint32_t kc, uint32_t n0, uint32_t kLen, uint32_t nLen, const SrcLoc& loc) {
    const uint32_t rows = (kLen + 15) / 16 * 16, gmRows = (orgKb_ + 15) / 16 * 16;
    for (uint32_t c = 0; c * 8 < nLen; ++c)
      DataCopy(b1[(c / 2) * rows * 16 + (c % 2) * 128], b_[(static_cast<uint64_t>(n0 / 8 + c) * gmRows + kc) * 8],
               DataCopyParams(static_cast<uint16_t>(rows / 16), 16, 0, 16), loc);
  }

  // The GM staging area of `n` elements of C for the UB tensor `ub` of the calling AIV (header comment).
  GlobalTensor<CT> Stage(const LocalTensor<CT>& ub, uint32_t n, const char* api, const SrcLoc& loc) const {
    ascendc_sim::Core& core = ascendc_sim::CurrentCore();
    ASCENDC_SIM_CHECK(core.Spec().type == ascendc_sim::CoreType::kAiv, loc,
                      "Matmul::%s into a local tensor runs on an AIV of a mixed kernel (the AIC has no UB)", api);
    ASCENDC_SIM_CHECK(ub.GetSize() >= n, loc, "Matmul::%s: the local tensor holds %u elements, fewer than the %u of C",
                      api, static_cast<unsigned>(ub.GetSize()), n);
    const int64_t ubBytes = ascendc_sim::SocParamInt("ub_bytes");
    const int64_t at = core.Spec().blockIdx * ubBytes + ub.UbAddr();
    ASCENDC_SIM_CHECK(ascendc_sim::SysWorkspace() != nullptr &&
                          at + static_cast<int64_t>(n * sizeof(CT)) <= ascendc_sim::SocParamInt("lib_workspace_bytes"),
                      loc,
                      "Matmul::%s into a local tensor stages C in the library workspace: the launch needs "
                      "GetLibApiWorkSpaceSize() bytes of workspace",
                      api);
    GlobalTensor<CT> stage;
    stage.SetGlobalBuffer(reinterpret_cast<__gm__ CT*>(ascendc_sim::SysWorkspace() + at), n);
    return stage;
  }

  // The A2 client copies its message to GM on MTE3 and the scalar waits for that copy (MTE3 -> S,
  // kfc_comm_client.h PostMessage), so a later copy into the UB comes after every earlier MTE3 copy
  // of the core and what those waited for (the vector work on the tensor's last contents).
  void PostWait(const SrcLoc& loc) {
    flags_.Set(PIPE_MTE3, PIPE_S, 41, loc);
    flags_.Wait(PIPE_MTE3, PIPE_S, 41, loc);
  }
  // Block b of the asynchronous cache: [baseM, baseN], blocks one after the other.
  GlobalTensor<CT> Cached(uint32_t b) const {
    const uint64_t n = static_cast<uint64_t>(t_.baseM) * t_.baseN;
    GlobalTensor<CT> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ CT*>(cache_) + b * n, n);
    return g;
  }

  // The C block of `b` from its L0C slot to GM, rows `pitch` elements apart (at its place: in a C of
  // that row pitch); into the kernel's NZ C (`nz`) as NZ instead, in 16 x 16 fractals (asc-devkit
  // Matmul: an NZ C's both axes 16-aligned), C0 columns as many rows apart as the C it lies in has
  // (at its place the original M rounded up to 16, else the [baseM, baseN] block's baseM): the
  // Fixpipe without NZ2ND, whole fractals of the block's columns.
  void Out(uint32_t b, const GlobalTensor<CT>& gm, uint8_t enAtomic, bool atItsPlace, uint32_t pitch, const SrcLoc& loc,
           bool nz = false) {
    uint32_t mi, ni;
    Where(b, mi, ni);
    const uint32_t m0 = mi * t_.baseM, n0 = ni * t_.baseN;
    const uint32_t mLen = std::min<uint32_t>(t_.baseM, singleM_ - m0),
                   nLen = std::min<uint32_t>(t_.baseN, singleN_ - n0);
    const int c = static_cast<int>(b % static_cast<uint32_t>(std::max(t_.dbL0C, 1)));
    flags_.Wait(PIPE_M, PIPE_FIX, 12 + c, loc);
    const uint32_t rows = atItsPlace ? (orgM_ + 15) / 16 * 16 : static_cast<uint32_t>(t_.baseM);
    FixpipeParamsV220 fp(static_cast<uint16_t>(nz ? (nLen + 15) / 16 * 16 : nLen), static_cast<uint16_t>(mLen),
                         static_cast<uint16_t>((mLen + 15) / 16 * 16),
                         nz ? rows * 16 * static_cast<uint32_t>(sizeof(CT)) / 32 : pitch, false);
    fp.quantPre = detail::OutQuant<CT>();
    ascendc_sim::Core& core = ascendc_sim::CurrentCore();
    const ascendc_sim::AtomicOp keep = core.Registers().atomicOp;
    const ascendc_sim::AtomicType keepType = core.Registers().atomicType;
    if (enAtomic == 1) SetAtomicAdd<CT>();
    const uint64_t at = nz ? (static_cast<uint64_t>(n0) / 16 * rows + m0) * 16 : static_cast<uint64_t>(m0) * pitch + n0;
    const GlobalTensor<CT> dst = atItsPlace ? gm[at] : gm;
    if (nz)
      Fixpipe<CT, L0CT, CFG_NZ>(dst, L0C(c, loc), fp, loc);
    else
      Fixpipe(dst, L0C(c, loc), fp, loc);
    core.Registers().atomicOp = keep, core.Registers().atomicType = keepType;
    flags_.Set(PIPE_FIX, PIPE_M, 8 + c, loc);
  }

  TCubeTiling t_{};
  bool inited_ = false;
  GlobalTensor<AT> a_;
  GlobalTensor<BT> b_;
  GlobalTensor<BiasT> bias_;
  bool transA_ = false, transB_ = false, hasBias_ = false;
  uint32_t singleM_ = 0, singleN_ = 0, singleK_ = 0;
  uint32_t orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0;
  uint32_t orgNc_ = 0;               // C's N (SetOrgShape's orgKc)
  int32_t batchA_ = 1, batchB_ = 1;  // SetBatchNum
  uint32_t next_ = 0;                // Iterate: blocks computed
  GM_ADDR cache_ = nullptr;          // SetWorkspace: the asynchronous mode's cache of C
  bool asyncCached_ = false;         // an Iterate<false> filled the cache; its blocks are being counted
  uint32_t asyncIter_ = 0, asyncGot_ = 0;
  uint64_t chunk_ = 0, step_ = 0;  // K steps through L1 and L0 steps so far (ping-pong flags and slots)
  // The tile of A (0) and B (1) a user copy filled, by its position in tiles.
  struct Tile {
    bool valid = false;
    uint32_t row = 0, col = 0;
  };
  Tile tile_[2];
  LocalTensor<AT> l1_[2];  // A's and B's L1 matrices when the kernel holds them there
  bool fromL1_[2] = {};    // ... and whether it does
  bool l1Type_[2] = {detail::InL1(A_TYPE::pos), detail::InL1(B_TYPE::pos)};  // ... by their MatmulTypes
  // The object's L1 place (TakeL1Buffers): its L1 offset, A's and B's buffers' bytes, their chunk slots.
  uint32_t l1Base_ = 0, partA_ = 0, partB_ = 0;
  int slots_[2] = {2, 2};
  uint64_t loads_[2] = {};  // A's and B's chunks so far (their slots)
  UserCopy userCopy_[2] = {};
  void* userCtx_ = nullptr;
  uint64_t id_ = detail::NextMatmulId();  // whose tiles a core's L1 place holds (TakeL1Place)
  uint64_t userDefInfo_ = 0, selfDefineData_ = 0;
  // A, B and C in GM in NZ, else ND (their MatmulTypes, or SetFormats)
  bool nz_[3] = {A_TYPE::format == CubeFormat::NZ, B_TYPE::format == CubeFormat::NZ, C_TYPE::format == CubeFormat::NZ};
  detail::MmFlags flags_;
};

// The class by its implementation's name (asc-devkit lib/matmul: Matmul is MatmulImpl with the
// default policy), which kernels name directly as well.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<>,
          template <const auto&, typename...> class MATMUL_POLICY = Impl::Detail::MatmulPolicy>
using MatmulImpl = Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MATMUL_POLICY>;

namespace detail {
// Each object given a tiling is initialised; on an AIV of a mixed launch its client also posts the
// INIT message to the group's AIC.
template <class MM>
inline void InitMatmuls(const SrcLoc& loc, bool client, TPipe* pipe, MM& mm, const TCubeTiling* tiling) {
  if (tiling == nullptr) return;
  mm.Init(tiling, pipe, loc);
  if (client) ascendc_sim::PostToGroupAic(loc);
}
template <class MM, class... More>
inline void InitMatmuls(const SrcLoc& loc, bool client, TPipe* pipe, MM& mm, const TCubeTiling* tiling,
                        More&&... more) {
  InitMatmuls(loc, client, pipe, mm, tiling);
  InitMatmuls(loc, client, pipe, more...);
}
// True on the AIC of a mixed launch, after serving its AIVs: the kernel then returns.
template <class... Objs>
inline bool RegistMatmul(const SrcLoc& loc, TPipe* pipe, GM_ADDR workspace, Objs&&... objs) {
  (void)workspace;
  ascendc_sim::Core& core = ascendc_sim::CurrentCore();
  bool mixed = false;
  for (const ascendc_sim::CoreSpec& s : ascendc_sim::LaunchSpecs()) mixed |= s.type == ascendc_sim::CoreType::kAiv;
  const bool aic = core.Spec().type == ascendc_sim::CoreType::kAic;
  InitMatmuls(loc, mixed && !aic, pipe, objs...);
  if (!aic || !mixed) return false;
  const int group = core.Spec().group;
  ascendc_sim::ServeGroupAivs(group);
  return true;
}
}  // namespace detail

}  // namespace AscendC

// On the AIC of a mixed kernel the macro serves the AIVs' requests and returns from the kernel.
#define REGIST_MATMUL_OBJ(pipe, workspace, ...) \
  if (::AscendC::detail::RegistMatmul(::ascendc_sim::SrcLoc::here(), pipe, workspace, __VA_ARGS__)) return

// The Matmul API's older namespace, an alias of AscendC as in CANN's matmul.h: public kernels write
// `using namespace matmul;` or `matmul::MatmulType<...>`. A kernel entry named `matmul` could not
// coexist with it (nor can it with CANN's); the kernel build renames such an entry by a macro
// (kernel_view.entry_renames), and the alias is then left out.
#ifndef matmul
namespace matmul = AscendC;
#endif
