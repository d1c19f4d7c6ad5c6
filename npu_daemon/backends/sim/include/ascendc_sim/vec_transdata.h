// TransDataTo5HD: the vector unit's scatter transpose (NCHW -> NC1HWC0, or a block transpose), in
// every form the A2 library offers: LocalTensor lists, address lists (uint64_t values or `__ubuf__`
// pointers, the library's TransDataTo5HDImpl) and address lists stored in the UB.
//
// One repeat reads one 32 B block at each of the 16 source addresses and writes 16 half/whole
// blocks at the destination addresses (hicann/asc-devkit, docs: TransDataTo5HD):
//   b16: destination i gets element i of sources 0..15 (a 16 x 16 transpose);
//   b32: the 16 values at element j of the sources make two blocks: destination 2j gets sources
//        0..7, destination 2j+1 sources 8..15 (C0 = 16; the pairing is the one the library's own
//        operators rely on, e.g. cann-ops ge_glu_grad_v2's 8-wide transpose back);
//   b8:  destination i gets element i (srcHighHalf: i + 16) of sources 0..15 as half a block, in
//        its low half (dstHighHalf: high half).
// Repeat r adds r * repStride blocks to every address; with repeatTimes 1 the single repeat
// already adds the stride once (the documentation's note: set the strides to 0 to start at the
// lists themselves), and repeatTimes 0 is a no-op.
#pragma once

#include <cstdint>
#include <cstring>

#include "ascendc_sim/core.h"
#include "../../guest/include/ascendc_guest/params.h"  // TransDataTo5HDParams, shared with the guest
#include "ascendc_sim/memory.h"
#include "ascendc_sim/vec_core.h"

namespace ascendc_sim {

// The instruction on UB byte addresses. `lists` are the UB ranges holding the address lists, when
// the instruction reads them from the UB.
template <typename T>
void TransDataTo5HD(const uint32_t (&dst)[16], const uint32_t (&src)[16], const AscendC::TransDataTo5HDParams& p,
                    std::initializer_list<UbAccess> lists, const SrcLoc& loc) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "TransDataTo5HD takes 8-, 16- or 32-bit elements");
  constexpr const char* api = "TransDataTo5HD";
  if (p.repeatTimes == 0) return;
  Core& core = CurrentCore();
  const uint32_t first = p.repeatTimes == 1 ? 1 : 0;  // repeat 1 of 1 already steps by the stride
  const uint32_t last = first + p.repeatTimes - 1;
  UbAccess acc[34];
  size_t n = 0;
  // Each address's blocks over the repeats, as one range (its hull) per address.
  for (int i = 0; i < 16; ++i) {
    ASCENDC_SIM_CHECK(src[i] % 32 == 0 && dst[i] % 32 == 0, loc,
                      "%s: list entry %d (dst %u, src %u) is not 32 B aligned", api, i, dst[i], src[i]);
    acc[n++] = UbAccess{src[i] + first * p.srcRepStride * 32u, (last - first) * p.srcRepStride * 32u + 32u, false};
    acc[n++] = UbAccess{dst[i] + first * p.dstRepStride * 32u, (last - first) * p.dstRepStride * 32u + 32u, true};
  }
  for (const UbAccess& a : lists) acc[n++] = a;
  Instr ins{};
  ins.pipe = PIPE_V;
  ins.op = Op::kCopyUbToUb;  // cost: 512 B moved per repeat
  ins.elemBytes = sizeof(T);
  ins.repeats = p.repeatTimes;
  ins.unitBytes = 512;
  ins.ubAddr[0] = dst[0];
  ins.ubAddr[1] = src[0];
  ins.link = -1;
  ins.elements = p.repeatTimes * 512ull;
  core.IssueAccesses(ins, loc, api, acc, n);

  for (uint32_t r = first; r <= last; ++r) {
    uint8_t in[16][32], out[16][32];
    for (int s = 0; s < 16; ++s) std::memcpy(in[s], core.UbPtr(src[s] + r * p.srcRepStride * 32u), 32);
    for (int d = 0; d < 16; ++d) std::memcpy(out[d], core.UbPtr(dst[d] + r * p.dstRepStride * 32u), 32);
    for (int s = 0; s < 16; ++s) {
      if constexpr (sizeof(T) == 2) {
        for (int e = 0; e < 16; ++e) std::memcpy(&out[e][s * 2], &in[s][e * 2], 2);
      } else if constexpr (sizeof(T) == 4) {
        for (int e = 0; e < 8; ++e) std::memcpy(&out[2 * e + s / 8][(s % 8) * 4], &in[s][e * 4], 4);
      } else {
        for (int e = 0; e < 16; ++e) out[e][s + (p.dstHighHalf ? 16 : 0)] = in[s][e + (p.srcHighHalf ? 16 : 0)];
      }
    }
    for (int d = 0; d < 16; ++d) std::memcpy(core.UbPtr(dst[d] + r * p.dstRepStride * 32u), out[d], 32);
  }
}

// The register form (dav_c220 kernel_operator_vec_transpose_impl.h, asc-devkit C API asc_set_va_reg /
// asc_transto5hd): set_va_reg_sb loads eight addresses into one VA register, a PIPE_V instruction
// charged as a one-repeat mask-setting one; scatter_vnchwconv_b8/b16/b32 take their 16 destination
// addresses from VA registers dst and dst + 1, their 16 sources from src and src + 1.
inline void SetVaRegister(int reg, const uint64_t (&values)[8], const SrcLoc& loc) {
  ASCENDC_SIM_CHECK(reg >= 0 && reg < 8, loc, "set_va_reg_sb: VA register %d unknown (VA0..VA7)", reg);
  IssueVector(Op::kVecMask, "set_va_reg_sb", CountLanes<uint64_t>(8), {}, sizeof(uint64_t), loc);
  std::memcpy(CurrentCore().Registers().va[reg], values, sizeof values);
}
// The 16 addresses of VA registers `reg` and `reg + 1`, each resolved by `ub` (the engine's reading of
// a pointer value as a UB byte address, checked there).
template <typename Resolve>
void VaAddresses(int reg, uint32_t (&out)[16], const Resolve& ub, const SrcLoc& loc) {
  ASCENDC_SIM_CHECK(reg >= 0 && reg < 7, loc, "scatter_vnchwconv: VA register %d has no VA%d after it", reg, reg + 1);
  const auto& va = CurrentCore().Registers().va;
  for (int i = 0; i < 16; ++i) out[i] = ub(va[reg + i / 8][i % 8]);
}
template <typename T, typename Resolve>
void ScatterVnchwconv(int dstReg, int srcReg, const AscendC::TransDataTo5HDParams& p, const Resolve& ub,
                      const SrcLoc& loc) {
  uint32_t dst[16], src[16];
  VaAddresses(dstReg, dst, ub, loc);
  VaAddresses(srcReg, src, ub, loc);
  TransDataTo5HD<T>(dst, src, p, {}, loc);
}
// This engine's pointer values: host pointers into the UB or bare UB byte addresses.
template <typename T>
void ScatterVnchwconvAt(int dstReg, int srcReg, const AscendC::TransDataTo5HDParams& p, const SrcLoc& loc) {
  ScatterVnchwconv<T>(dstReg, srcReg, p, [&](uint64_t a) { return UbAddrOf(a, "scatter_vnchwconv", loc); }, loc);
}

}  // namespace ascendc_sim

namespace AscendC {

template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& p, ASCENDC_SIM_LOC) {
  uint32_t dst[16], src[16];
  for (int i = 0; i < 16; ++i) dst[i] = dstList[i].UbAddr(), src[i] = srcList[i].UbAddr();
  ascendc_sim::TransDataTo5HD<T>(dst, src, p, {}, loc);
}

template <typename T>
__aicore__ inline void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                                      uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams& p,
                                      ASCENDC_SIM_LOC) {
  uint32_t dst[16], src[16];
  for (int i = 0; i < 16; ++i)
    dst[i] = ascendc_sim::UbAddrOf(dstList[i], "TransDataTo5HD", loc),
    src[i] = ascendc_sim::UbAddrOf(srcList[i], "TransDataTo5HD", loc);
  ascendc_sim::TransDataTo5HD<T>(dst, src, p, {}, loc);
}

// The address lists stored in the UB: the instruction loads them itself.
template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<uint64_t>& dstList, const LocalTensor<uint64_t>& srcList,
                                      const TransDataTo5HDParams& p, ASCENDC_SIM_LOC) {
  ASCENDC_SIM_CHECK(dstList.GetSize() >= 16 && srcList.GetSize() >= 16, loc,
                    "TransDataTo5HD: the address lists need 16 entries (dst has %u, src %u)", dstList.GetSize(),
                    srcList.GetSize());
  uint32_t dst[16], src[16];
  for (int i = 0; i < 16; ++i)
    dst[i] = ascendc_sim::UbAddrOf(ascendc_sim::HostData(dstList)[i], "TransDataTo5HD", loc),
    src[i] = ascendc_sim::UbAddrOf(ascendc_sim::HostData(srcList)[i], "TransDataTo5HD", loc);
  ascendc_sim::TransDataTo5HD<T>(dst, src, p, {{dstList.UbAddr(), 128, false}, {srcList.UbAddr(), 128, false}}, loc);
}

// The library's internal forms (kernel_operator_vec_transpose_impl.h), which kernels call directly.
template <typename T>
__aicore__ inline void TransDataTo5HDImpl(__ubuf__ T* dstList[NCHW_CONV_ADDR_LIST_SIZE],
                                          __ubuf__ T* srcList[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams& p,
                                          ASCENDC_SIM_LOC) {
  uint64_t dst[16], src[16];
  for (int i = 0; i < 16; ++i)
    dst[i] = reinterpret_cast<uintptr_t>(dstList[i]), src[i] = reinterpret_cast<uintptr_t>(srcList[i]);
  TransDataTo5HD<T>(dst, src, p, loc);
}
template <typename T>
__aicore__ inline void TransDataTo5HDImpl(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                                          uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams& p,
                                          ASCENDC_SIM_LOC) {
  TransDataTo5HD<T>(dstList, srcList, p, loc);
}

}  // namespace AscendC

// ---- the CCE intrinsics of the register form --------------------------------------------------------
enum ub_addr8_t : uint8_t { VA0 = 0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 };
__aicore__ inline void set_va_reg_sb(ub_addr8_t reg, const uint64_t* array, ASCENDC_SIM_LOC) {
  uint64_t values[8];
  std::memcpy(values, array, sizeof values);
  ascendc_sim::SetVaRegister(reg, values, loc);
}
__aicore__ inline void scatter_vnchwconv_b8(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride,
                                            uint16_t srcStride, bool dstHighHalf, bool srcHighHalf, ASCENDC_SIM_LOC) {
  ascendc_sim::ScatterVnchwconvAt<uint8_t>(dst, src, {dstHighHalf, srcHighHalf, repeat, dstStride, srcStride}, loc);
}
__aicore__ inline void scatter_vnchwconv_b16(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride,
                                             uint16_t srcStride, ASCENDC_SIM_LOC) {
  ascendc_sim::ScatterVnchwconvAt<uint16_t>(dst, src, {false, false, repeat, dstStride, srcStride}, loc);
}
__aicore__ inline void scatter_vnchwconv_b32(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride,
                                             uint16_t srcStride, ASCENDC_SIM_LOC) {
  ascendc_sim::ScatterVnchwconvAt<uint32_t>(dst, src, {false, false, repeat, dstStride, srcStride}, loc);
}
