// The cube unit's basic API (docs/ascendc.md API 9): GM -> L1 copies (ND, ND2NZ), LoadData L1 -> L0A/L0B
// (2D with fractal transpose, 3D img2col), Mmad, Fixpipe L0C -> GM / UB / L1, and L1 -> bias table.
//
// Layouts, as the cube reads them (k0 = 32 B / sizeof(input): 16 for b16, 32 for int8, 8 for fp32):
// - L0A holds A (M x K) "Zz": 16 x k0 fractals, row-major, fractal rows of ceil(K / k0) fractals.
// - L0B holds B (K x N) "Zn": k0 x 16 fractals in row-major order, each stored column by column.
// - L0C holds C (M x N) "Nz": 16 x 16 fractals of fp32/int32, column of fractals after column
//   (ceil(M / 16) fractals each), each fractal row-major.
// Numbers (docs/simulator.md, cube): fp16 and bf16 products are exact in fp32; each output sums its
// k0 products of one fractal step in fp32, in k order, from 0, then adds that partial sum to the
// accumulator in fp32, fractal step after fractal step in k order. int8 accumulates exactly in int32.
#pragma once

#include <cstring>

#include "ascendc_sim/data_copy.h"
#include "ascendc_sim/memory.h"
// The parameter structs: the guest engine's cube API passes them across its boundary byte for byte.
#include "../../guest/include/ascendc_guest/cube_params.h"

namespace ascendc_sim {

// Numerics of one Mmad on row-major operands (runtime/cube.cpp, built at -O3): c = init + a x b in
// the fractal-step order above. `a` is m x k, `b` k x n, `c` m x n (holding the initial values).
void MmadFloat(float* c, const float* a, const float* b, uint32_t m, uint32_t n, uint32_t k, uint32_t k0,
               bool exactProducts);
void MmadInt(int32_t* c, const int8_t* a, const int8_t* b, uint32_t m, uint32_t n, uint32_t k);
// Rounds fp32 values to HF32 (1 sign, 8 exponent, 11 mantissa bits) in place: to nearest, ties to
// even or away from zero (SetHF32TransMode); infinities and NaNs pass unchanged.
void RoundToHf32(float* v, size_t n, bool tiesAway);

// The AIC check every cube instruction makes: a vector core has no cube unit.
inline void RequireAic(const char* api, const SrcLoc& loc) {
  ASCENDC_SIM_CHECK(CurrentCore().Spec().type == CoreType::kAic, loc,
                    "%s on a vector core (AIV): cube instructions run on the AIC. Declare the kernel type with "
                    "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY / KERNEL_TYPE_MIX_AIC_1_2) and guard AIC code with "
                    "`if ASCEND_IS_AIC`",
                    api);
}

// A local operand of a cube instruction: in the expected buffer, aligned within it, `bytes` inside
// the tensor. Returns the byte address.
template <typename T>
uint32_t CubeOperand(const AscendC::LocalTensor<T>& t, LocalBuf want, uint32_t align, uint64_t bytes, const char* api,
                     const char* role, const SrcLoc& loc) {
  const Core& core = CurrentCore();
  const uint32_t addr = t.UbAddr();
  const LocalBuf buf = core.Local().Of(addr);
  ASCENDC_SIM_CHECK(buf == want, loc, "%s: %s must be in %s but the tensor is in %s", api, role, LocalBufName(want),
                    LocalBufName(buf));
  const uint32_t off = addr - core.Local().Base(buf);
  ASCENDC_SIM_CHECK(off % align == 0, loc, "%s: %s at %s address %u is not %u B aligned", api, role, LocalBufName(buf),
                    off, align);
  const uint64_t have = static_cast<uint64_t>(t.GetSize()) * sizeof(T);
  ASCENDC_SIM_CHECK(bytes <= have, loc, "%s: %s footprint of %llu bytes exceeds the tensor's %llu bytes", api, role,
                    static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(have));
  ASCENDC_SIM_CHECK(off + bytes <= core.Local().Size(buf), loc, "%s: %s bytes [%u, %llu) exceed the %u B of %s", api,
                    role, off, static_cast<unsigned long long>(off + bytes), core.Local().Size(buf), LocalBufName(buf));
  return addr;
}

// Cube input element sizes and their fractal depth k0.
template <typename T>
constexpr uint32_t K0() {
  return 32 / sizeof(T);
}

template <typename T>
constexpr bool kCubeIn =
    std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, float> || std::is_same_v<T, int8_t>;

inline Instr CubeInstr(uint8_t pipe, Op op) {
  Instr ins{};
  ins.pipe = pipe;
  ins.op = op;
  ins.link = -1;
  return ins;
}

}  // namespace ascendc_sim

namespace AscendC {

// GM (ND) -> L1 (NZ) on PIPE_MTE2: row r, column c of ND matrix i lands in column block c / C0 at
// i * dstNzMatrixStride + (c / C0) * dstNzC0Stride * C0 + r * dstNzNStride * C0 + c % C0 elements
// (C0 = 32 B of T); a row's tail up to the next 32 B is zero-filled.
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p,
                                ASCENDC_SIM_LOC) {
  using namespace ascendc_sim;
  const char* api = "DataCopy(Nd2Nz)";
  RequireAic(api, loc);
  if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
  ASCENDC_SIM_CHECK(p.ndNum <= 4095 && p.nValue <= 16384, loc, "%s: ndNum %u / nValue %u out of range", api, p.ndNum,
                    p.nValue);
  ASCENDC_SIM_CHECK(p.srcDValue >= p.dValue, loc, "%s: srcDValue %u is less than dValue %u", api, p.srcDValue,
                    p.dValue);
  ASCENDC_SIM_CHECK(p.dstNzC0Stride >= 1 && p.dstNzNStride >= 1, loc, "%s: dstNzC0Stride and dstNzNStride must be >= 1",
                    api);
  constexpr uint32_t c0 = 32 / sizeof(T);
  const uint32_t blocks = (p.dValue + c0 - 1) / c0;
  // Footprint: the last element written, past the first (elements).
  const uint64_t last = static_cast<uint64_t>(p.ndNum - 1) * p.dstNzMatrixStride +
                        static_cast<uint64_t>(blocks - 1) * p.dstNzC0Stride * c0 +
                        static_cast<uint64_t>(p.nValue - 1) * p.dstNzNStride * c0 + c0;
  const uint32_t addr = CubeOperand(dst, LocalBuf::kL1, 32, last * sizeof(T), api, "dst", loc);
  T* out = ascendc_sim::HostData(dst);
  Core& core = CurrentCore();
  for (uint32_t i = 0; i < p.ndNum; ++i) {
    const T* in = ascendc_sim::HostData(src) + static_cast<uint64_t>(i) * p.srcNdMatrixStride;
    const uint64_t gmBytes = (static_cast<uint64_t>(p.nValue - 1) * p.srcDValue + p.dValue) * sizeof(T);
    ASCENDC_SIM_CHECK(
        GmRangeValid(src.GetPhyAddr() + static_cast<uint64_t>(i) * p.srcNdMatrixStride, gmBytes), loc,
        "%s: GM range of %llu bytes at %s is outside every GM buffer", api, static_cast<unsigned long long>(gmBytes),
        DescribeGm(reinterpret_cast<uintptr_t>(src.GetPhyAddr() + static_cast<uint64_t>(i) * p.srcNdMatrixStride))
            .c_str());
    T* o = out + static_cast<uint64_t>(i) * p.dstNzMatrixStride;
    for (uint32_t r = 0; r < p.nValue; ++r)
      for (uint32_t c = 0; c < blocks * c0; ++c)
        o[(c / c0) * p.dstNzC0Stride * c0 + r * p.dstNzNStride * c0 + c % c0] =
            c < p.dValue ? in[static_cast<uint64_t>(r) * p.srcDValue + c] : T{};
    // One DMA per ND matrix: nValue bursts of dValue elements at the source row pitch.
    Instr ins = CubeInstr(PIPE_MTE2, Op::kCopyGmToL1);
    ins.cacheMode = static_cast<uint8_t>(src.GetCacheMode());
    ins.repeats = p.nValue;
    ins.unitBytes = p.dValue * sizeof(T);
    ins.gmAddr = reinterpret_cast<uintptr_t>(src.GetPhyAddr() + static_cast<uint64_t>(i) * p.srcNdMatrixStride);
    ins.gmPitch = static_cast<uint64_t>(p.srcDValue) * sizeof(T);
    ins.elements = static_cast<uint64_t>(p.nValue) * ins.unitBytes;
    const uint32_t dstAddr = addr + static_cast<uint32_t>(static_cast<uint64_t>(i) * p.dstNzMatrixStride * sizeof(T));
    const uint32_t span = static_cast<uint32_t>(
        ((static_cast<uint64_t>(blocks - 1) * p.dstNzC0Stride + static_cast<uint64_t>(p.nValue - 1) * p.dstNzNStride) *
             c0 +
         c0) *
        sizeof(T));
    ins.ubAddr[0] = dstAddr;
    ins.ubBytes[0] = span;
    UbAccess a{dstAddr, span, true};
    core.IssueAccesses(ins, loc, api, &a, 1);
    core.GmAccess(PIPE_MTE2, GmPattern{ins.gmAddr, p.nValue, ins.unitBytes, ins.gmPitch}, false, loc, api);
  }
}

// LoadData 2D from GM (asc-devkit Load2D page: GM -> A1 / B1 / A2 / B2) on PIPE_MTE2: repeatTimes 512 B
// fractals, the r-th read from fractal startIndex + r * srcStride of src and written to fractal
// r * (1 + dstGap) of dst. The A2's GM paths pass no transpose to the instruction (asc-devkit's v220
// LoadData2DGM2*Cal), so ifTranspose is ignored as there; its GM -> L0 paths ignore addrMode too, and
// the decrementing addrMode of GM -> L1 is not modelled.
template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const LoadData2DParams& p,
                                ASCENDC_SIM_LOC) {
  using namespace ascendc_sim;
  const char* api = "LoadData(2D, GM)";
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "LoadData(2D, GM): b8, b16 and b32 on the A2");
  RequireAic(api, loc);
  if (p.repeatTimes == 0) return;
  Core& core = CurrentCore();
  const LocalBuf dstBuf = core.Local().Of(dst.UbAddr());
  ASCENDC_SIM_CHECK(dstBuf == LocalBuf::kL1 || dstBuf == LocalBuf::kL0A || dstBuf == LocalBuf::kL0B, loc,
                    "%s: dst must be in L1, L0A or L0B but is in %s", api, LocalBufName(dstBuf));
  ASCENDC_SIM_CHECK(dstBuf != LocalBuf::kL1 || p.addrMode == 0, loc,
                    "%s: addrMode %u (decrementing addresses) is not modelled", api, p.addrMode);
  constexpr uint32_t frac = 512, elems = 512 / sizeof(T);
  const uint64_t dstEnd = (static_cast<uint64_t>(p.repeatTimes - 1) * (1 + p.dstGap) + 1) * frac;
  const uint32_t d = CubeOperand(dst, dstBuf, dstBuf == LocalBuf::kL1 ? 32 : 512, dstEnd, api, "dst", loc);
  const uint64_t first = static_cast<uint64_t>(p.startIndex) * elems;
  const uint64_t gmBytes = (static_cast<uint64_t>(p.repeatTimes - 1) * p.srcStride + 1) * frac;
  ASCENDC_SIM_CHECK(GmRangeValid(src.GetPhyAddr() + first, gmBytes), loc,
                    "%s: GM range of %llu bytes at %s is outside every GM buffer", api,
                    static_cast<unsigned long long>(gmBytes),
                    DescribeGm(reinterpret_cast<uintptr_t>(src.GetPhyAddr() + first)).c_str());
  const T* in = ascendc_sim::HostData(src) + first;
  T* out = ascendc_sim::HostData(dst);
  for (uint32_t r = 0; r < p.repeatTimes; ++r)
    std::memcpy(out + static_cast<uint64_t>(r) * (1 + p.dstGap) * elems,
                in + static_cast<uint64_t>(r) * p.srcStride * elems, frac);
  // One DMA of repeatTimes fractal bursts at the source's fractal pitch.
  Instr ins = CubeInstr(PIPE_MTE2, Op::kCopyGmToL1);
  ins.cacheMode = static_cast<uint8_t>(src.GetCacheMode());
  ins.repeats = p.repeatTimes;
  ins.unitBytes = frac;
  ins.gmAddr = reinterpret_cast<uintptr_t>(src.GetPhyAddr() + first);
  ins.gmPitch = static_cast<uint64_t>(p.srcStride) * frac;
  ins.elements = static_cast<uint64_t>(p.repeatTimes) * frac;
  ins.ubAddr[0] = d;
  ins.ubBytes[0] = static_cast<uint32_t>(dstEnd);
  UbAccess a{d, static_cast<uint32_t>(dstEnd), true};
  core.IssueAccesses(ins, loc, api, &a, 1);
  // A zero srcStride reads one fractal repeatTimes times.
  const uint32_t rows = p.srcStride == 0 ? 1 : p.repeatTimes;
  core.GmAccess(PIPE_MTE2, GmPattern{ins.gmAddr, rows, frac, p.srcStride == 0 ? frac : ins.gmPitch}, false, loc, api);
}

// L1 (A1/B1) -> L0A (A2) / L0B (B2) on PIPE_MTE1, 512 B fractal by fractal.
template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p,
                                ASCENDC_SIM_LOC) {
  using namespace ascendc_sim;
  const char* api = "LoadData(2D)";
  RequireAic(api, loc);
  if (p.repeatTimes == 0) return;
  ASCENDC_SIM_CHECK(!p.ifTranspose || sizeof(T) == 2, loc,
                    "%s: ifTranspose needs a 16-bit type (got %zu-byte elements)", api, sizeof(T));
  ASCENDC_SIM_CHECK(p.addrMode == 0, loc, "%s: addrMode %u is supported only on the GM -> L1 path", api, p.addrMode);
  Core& core = CurrentCore();
  const LocalBuf dstBuf = core.Local().Of(dst.UbAddr());
  ASCENDC_SIM_CHECK(dstBuf == LocalBuf::kL0A || dstBuf == LocalBuf::kL0B, loc,
                    "%s: dst must be in L0A or L0B but is in %s", api, LocalBufName(dstBuf));
  constexpr uint32_t frac = 512, elems = 512 / sizeof(T);
  const uint64_t srcEnd =
      (static_cast<uint64_t>(p.startIndex) + static_cast<uint64_t>(p.repeatTimes - 1) * p.srcStride + 1) * frac;
  const uint64_t dstEnd = (static_cast<uint64_t>(p.repeatTimes - 1) * (1 + p.dstGap) + 1) * frac;
  const uint32_t s = CubeOperand(src, LocalBuf::kL1, 32, srcEnd, api, "src", loc);
  const uint32_t d = CubeOperand(dst, dstBuf, 512, dstEnd, api, "dst", loc);
  const T* in = ascendc_sim::HostData(src);
  T* out = ascendc_sim::HostData(dst);
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    const T* f = in + (static_cast<uint64_t>(p.startIndex) + static_cast<uint64_t>(r) * p.srcStride) * elems;
    T* g = out + static_cast<uint64_t>(r) * (1 + p.dstGap) * elems;
    if (p.ifTranspose)
      for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t j = 0; j < 16; ++j) g[j * 16 + i] = f[i * 16 + j];
    else
      std::memcpy(g, f, frac);
  }
  Instr ins = CubeInstr(PIPE_MTE1, Op::kLoadL0);
  ins.repeats = p.repeatTimes;
  ins.elemBytes = sizeof(T);
  ins.elements = static_cast<uint64_t>(p.repeatTimes) * frac;
  ins.ubAddr[0] = d;
  ins.ubAddr[1] = s;
  ins.ubBytes[0] = static_cast<uint32_t>(dstEnd);
  ins.ubBytes[1] = static_cast<uint32_t>(srcEnd - static_cast<uint64_t>(p.startIndex) * frac);
  UbAccess acc[2] = {{d, static_cast<uint32_t>(dstEnd), true},
                     {s + static_cast<uint32_t>(p.startIndex) * frac, ins.ubBytes[1], false}};
  core.IssueAccesses(ins, loc, api, acc, 2);
}

// LoadDataWithTranspose, L1 (A1/B1) -> L0A / L0B on PIPE_MTE1, as documented (asc-devkit
// LoadDataWithTranspose page and its pseudo code): per repeat one 16 x 16 square is transposed. b16: the
// square is one fractal. b32: the square is two consecutive 16 x 8 fractals side by side, [F0 | F1];
// its transpose is written as two 16 x 8 fractals side by side again, [G0 | G1], G1 dstFracGap
// fractals after G0's end. (The b8 and b4 forms are not emulated.)
template <typename T>
__aicore__ inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                             const LoadData2dTransposeParams& p, ASCENDC_SIM_LOC) {
  using namespace ascendc_sim;
  const char* api = "LoadDataWithTranspose";
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "LoadDataWithTranspose: the simulator emulates b16 and b32");
  RequireAic(api, loc);
  if (p.repeatTimes == 0) return;
  ASCENDC_SIM_CHECK(p.addrMode == 0, loc, "%s: addrMode %u (decreasing addresses) is not emulated", api, p.addrMode);
  Core& core = CurrentCore();
  const LocalBuf dstBuf = core.Local().Of(dst.UbAddr());
  ASCENDC_SIM_CHECK(dstBuf == LocalBuf::kL0A || dstBuf == LocalBuf::kL0B, loc,
                    "%s: dst must be in L0A or L0B but is in %s", api, LocalBufName(dstBuf));
  constexpr uint32_t frac = 512, fracs = sizeof(T) == 4 ? 2 : 1, square = frac * fracs, elems = 512 / sizeof(T);
  const uint64_t srcEnd =
      (static_cast<uint64_t>(p.startIndex) + static_cast<uint64_t>(p.repeatTimes - 1) * p.srcStride + 1) * square;
  const uint64_t last = static_cast<uint64_t>(p.repeatTimes - 1) * (1 + p.dstGap);  // last square's first fractal
  const uint64_t dstEnd = (last + 1 + (fracs == 2 ? 1 + p.dstFracGap : 0)) * frac;
  const uint32_t s = CubeOperand(src, LocalBuf::kL1, 32, srcEnd, api, "src", loc);
  const uint32_t d = CubeOperand(dst, dstBuf, 512, dstEnd, api, "dst", loc);
  const T* in = ascendc_sim::HostData(src);
  T* out = ascendc_sim::HostData(dst);
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    const T* f = in + (static_cast<uint64_t>(p.startIndex) + static_cast<uint64_t>(r) * p.srcStride) * fracs * elems;
    T* g = out + static_cast<uint64_t>(r) * (1 + p.dstGap) * elems;
    if constexpr (sizeof(T) == 2) {
      std::vector<T> t(f, f + elems);  // (the source and destination may not overlap; copied anyway)
      for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t j = 0; j < 16; ++j) g[j * 16 + i] = t[i * 16 + j];
    } else {
      // S[i][j] = (j < 8 ? F0[i][j] : F1[i][j - 8]); G0[r][c] = S[c][r], G1[r][c] = S[8 + c][r].
      std::vector<T> t(f, f + 2 * elems);
      T* g1 = g + static_cast<uint64_t>(1 + p.dstFracGap) * elems;
      auto at = [&t](uint32_t i, uint32_t j) { return j < 8 ? t[i * 8 + j] : t[128 + i * 8 + (j - 8)]; };
      for (uint32_t row = 0; row < 16; ++row)
        for (uint32_t c = 0; c < 8; ++c) {
          g[row * 8 + c] = at(c, row);
          g1[row * 8 + c] = at(8 + c, row);
        }
    }
  }
  Instr ins = CubeInstr(PIPE_MTE1, Op::kLoadL0);
  ins.repeats = static_cast<uint32_t>(p.repeatTimes) * fracs;
  ins.elemBytes = sizeof(T);
  ins.elements = static_cast<uint64_t>(p.repeatTimes) * square;
  ins.ubAddr[0] = d;
  ins.ubAddr[1] = s;
  ins.ubBytes[0] = static_cast<uint32_t>(dstEnd);
  ins.ubBytes[1] = static_cast<uint32_t>(srcEnd - static_cast<uint64_t>(p.startIndex) * square);
  UbAccess acc[2] = {{d, static_cast<uint32_t>(dstEnd), true},
                     {s + static_cast<uint32_t>(p.startIndex) * square, ins.ubBytes[1], false}};
  core.IssueAccesses(ins, loc, api, acc, 2);
}

// img2col (LoadData 3D v2): the feature map in L1 is NC1HWC0 for one C1 slice range (C0 = 32 B of
// T), [H, W, C0] per C1; the result is the K x M (channels x kernel positions by output positions)
// matrix that Mmad reads as A, in Zz fractals (to L0A) or as B in Zn fractals (to L0B).
// Element (k, m) of the img2col matrix: k = (kh * filterW + kw) * channelSize + c over the kernel
// window and the channels, m = oh * outW + ow over the output positions.
// The feature map's description comes from the FMATRIX register fMatrixCtrl selects (left, or right
// when set) and the pad value from PADDING; with defaultConfig's isSetFMatrix / isSetPadding (the
// default) the instruction first writes its own l1H, l1W, padList into the left register and its
// padValue into PADDING, as asc-devkit's LoadDataImpl does. L3D_RPT's repeatTime 0 makes it a no-op;
// more than one repeat is not modelled (a RUNTIME_ERROR, never a different result).
template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<T>& p,
                                ASCENDC_SIM_LOC) {
  using namespace ascendc_sim;
  const char* api = "LoadData(3Dv2)";
  RequireAic(api, loc);
  Core& core = CurrentCore();
  uint64_t* reg = core.Registers().load3d;
  if constexpr (defaultConfig.isSetFMatrix) reg[detail::kFmatrixLeft] = detail::FmatrixBits(p.l1H, p.l1W, p.padList);
  if constexpr (defaultConfig.isSetPadding) reg[detail::kPadding] = detail::PaddingBits(p.padValue);
  const uint32_t repeatTime = (reg[detail::kRepeat] >> 16) & 0xFF;
  if (p.kExtension == 0 || p.mExtension == 0 || repeatTime == 0) return;
  ASCENDC_SIM_CHECK(repeatTime == 1, loc, "%s: SetLoadDataRepeat's repeatTime %u: repeats past one are not modelled",
                    api, repeatTime);
  const uint64_t fm = reg[p.fMatrixCtrl ? detail::kFmatrixRight : detail::kFmatrixLeft];
  const uint32_t l1W = fm & 0xFFFF, l1H = (fm >> 16) & 0xFFFF;
  uint8_t padList[4];
  for (int i = 0; i < 4; ++i) padList[i] = static_cast<uint8_t>(fm >> (32 + 8 * i));
  ASCENDC_SIM_CHECK(l1H >= 1 && l1H <= 32767 && l1W >= 1 && l1W <= 32767, loc,
                    "%s: the %s FMATRIX register holds l1H %u, l1W %u (each in [1, 32767]): SetFmatrix sets it", api,
                    p.fMatrixCtrl ? "right" : "left", l1H, l1W);
  T padValue;
  std::memcpy(&padValue, &reg[detail::kPadding], sizeof(T));  // the low bytes (little-endian)
  constexpr uint32_t c0 = 32 / sizeof(T);
  ASCENDC_SIM_CHECK(p.channelSize % c0 == 0, loc, "%s: channelSize %u is not a multiple of C0 = %u", api, p.channelSize,
                    c0);
  ASCENDC_SIM_CHECK(
      p.kExtension % c0 == 0 && p.mExtension % 16 == 0 && p.kStartPt % c0 == 0 && p.mStartPt % 16 == 0, loc,
      "%s: kExtension/kStartPt must be multiples of %u and mExtension/mStartPt of 16 (fractal layout)", api, c0);
  const LocalBuf dstBuf = core.Local().Of(dst.UbAddr());
  ASCENDC_SIM_CHECK(dstBuf == LocalBuf::kL0A || dstBuf == LocalBuf::kL0B, loc,
                    "%s: dst must be in L0A or L0B but is in %s", api, LocalBufName(dstBuf));
  const uint64_t srcBytes = static_cast<uint64_t>(p.channelSize) * l1H * l1W * sizeof(T);
  const uint64_t dstBytes = static_cast<uint64_t>(p.kExtension) * p.mExtension * sizeof(T);
  const uint32_t s = CubeOperand(src, LocalBuf::kL1, 32, srcBytes, api, "src", loc);
  const uint32_t d = CubeOperand(dst, dstBuf, 512, dstBytes, api, "dst", loc);
  // SetLoadDataBoundary: reads past the boundary wrap to L1's start, which is not modelled.
  const uint64_t boundary = reg[detail::kBoundary], l1Off = s - core.Local().Base(LocalBuf::kL1);
  ASCENDC_SIM_CHECK(boundary == 0 || (boundary >= 1024 && l1Off + srcBytes <= boundary), loc,
                    "%s: the feature map [%llu, %llu) of L1 against SetLoadDataBoundary's %llu bytes (0, or at least "
                    "1024, documented): a boundary under 1024 is undefined and wrapped reads are not modelled",
                    api, static_cast<unsigned long long>(l1Off), static_cast<unsigned long long>(l1Off + srcBytes),
                    static_cast<unsigned long long>(boundary));
  // The documented ranges start at 1; a stride of 0 would divide by zero here, in trusted code.
  ASCENDC_SIM_CHECK(p.strideW >= 1 && p.strideH >= 1 && p.filterW >= 1 && p.filterH >= 1 && p.dilationFilterW >= 1 &&
                        p.dilationFilterH >= 1,
                    loc, "%s: strideW/H %u/%u, filterW/H %u/%u, dilationFilterW/H %u/%u: each must be at least 1", api,
                    p.strideW, p.strideH, p.filterW, p.filterH, p.dilationFilterW, p.dilationFilterH);
  const int dilH = (p.filterH - 1) * p.dilationFilterH + 1, dilW = (p.filterW - 1) * p.dilationFilterW + 1;
  const int outW = (static_cast<int>(l1W) + padList[0] + padList[1] - dilW) / p.strideW + 1;
  ASCENDC_SIM_CHECK(outW >= 1 && p.channelSize >= 1, loc,
                    "%s: no output position (l1W %u with pads %u + %u against a dilated filter %d wide) or a "
                    "channelSize of 0",
                    api, static_cast<unsigned>(l1W), static_cast<unsigned>(padList[0]),
                    static_cast<unsigned>(padList[1]), dilW);
  const T* in = ascendc_sim::HostData(src);
  T* out = ascendc_sim::HostData(dst);
  const uint32_t kFr = p.kExtension / c0, mFr = p.mExtension / 16;
  for (uint32_t mi = 0; mi < p.mExtension; ++mi)
    for (uint32_t ki = 0; ki < p.kExtension; ++ki) {
      const uint32_t m = p.mStartPt + mi, k = p.kStartPt + ki;
      const uint32_t c = k % p.channelSize, pos = k / p.channelSize;
      const int kh = static_cast<int>(pos / p.filterW), kw = static_cast<int>(pos % p.filterW);
      const int oh = static_cast<int>(m) / outW, ow = static_cast<int>(m) % outW;
      const int h = oh * p.strideH - padList[2] + kh * p.dilationFilterH;
      const int w = ow * p.strideW - padList[0] + kw * p.dilationFilterW;
      T v = padValue;
      if (h >= 0 && h < static_cast<int>(l1H) && w >= 0 && w < static_cast<int>(l1W) && kh < p.filterH)
        v = in[((static_cast<uint64_t>(c / c0) * l1H + h) * l1W + w) * c0 + c % c0];
      // A (L0A, Zz): rows are output positions m, columns k. B (L0B, Zn): rows k, columns m.
      const uint64_t at = dstBuf == LocalBuf::kL0A
                              ? ((static_cast<uint64_t>(mi / 16) * kFr + ki / c0) * 16 + mi % 16) * c0 + ki % c0
                              : ((static_cast<uint64_t>(ki / c0) * mFr + mi / 16) * 16 + mi % 16) * c0 + ki % c0;
      out[at] = v;
    }
  (void)dilH;
  Instr ins = CubeInstr(PIPE_MTE1, Op::kLoadL0);
  ins.repeats = kFr * mFr;
  ins.elemBytes = sizeof(T);
  ins.elements = dstBytes;
  ins.ubAddr[0] = d;
  ins.ubAddr[1] = s;
  ins.ubBytes[0] = static_cast<uint32_t>(dstBytes);
  ins.ubBytes[1] = static_cast<uint32_t>(srcBytes);
  UbAccess acc[2] = {{d, static_cast<uint32_t>(dstBytes), true}, {s, static_cast<uint32_t>(srcBytes), false}};
  core.IssueAccesses(ins, loc, api, acc, 2);
}

namespace detail {
// One Load3D register write (a register write: the kernel's own scalar work, as any). The device
// writes them only on the AIC (asc-devkit's `if ASCEND_IS_AIC`): on an AIV it does nothing.
inline void SetLoad3dRegister(int32_t reg, uint64_t bits, const SrcLoc& loc) {
  ASCENDC_SIM_CHECK(reg >= kFmatrixLeft && reg <= kBoundary, loc, "Load3D register %d unknown", reg);
  ascendc_sim::Core& core = ascendc_sim::CurrentCore();
  if (core.Spec().type == ascendc_sim::CoreType::kAic) core.Registers().load3d[reg] = bits;
}
}  // namespace detail
__aicore__ inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[4], const FmatrixMode& fmatrixMode,
                                  ASCENDC_SIM_LOC) {
  detail::SetLoad3dRegister(fmatrixMode == FmatrixMode::FMATRIX_RIGHT ? detail::kFmatrixRight : detail::kFmatrixLeft,
                            detail::FmatrixBits(l1H, l1W, padList), loc);
}
template <typename T>
__aicore__ inline void SetLoadDataPaddingValue(const T padValue, ASCENDC_SIM_LOC) {
  detail::SetLoad3dRegister(detail::kPadding, detail::PaddingBits(padValue), loc);
}
__aicore__ inline void SetLoadDataRepeat(const LoadDataRepeatParam& repeatParams, ASCENDC_SIM_LOC) {
  detail::SetLoad3dRegister(detail::kRepeat, detail::RepeatBits(repeatParams), loc);
}
__aicore__ inline void SetLoadDataBoundary(uint32_t boundaryValue, ASCENDC_SIM_LOC) {
  detail::SetLoad3dRegister(detail::kBoundary, boundaryValue, loc);
}

namespace detail {
template <typename C, typename A, typename B, typename Bias>
__aicore__ inline void MmadImpl(const LocalTensor<C>& dst, const LocalTensor<A>& fm, const LocalTensor<B>& filter,
                                const LocalTensor<Bias>* bias, const MmadParams& p, const SrcLoc& loc) {
  using namespace ascendc_sim;
  const char* api = "Mmad";
  static_assert(std::is_same_v<A, B>, "Mmad: fm and filter must have the same type");
  static_assert(kCubeIn<A>, "Mmad: inputs must be half, bfloat16_t, float or int8_t");
  static_assert(std::is_same_v<C, std::conditional_t<std::is_same_v<A, int8_t>, int32_t, float>>,
                "Mmad: dst must be float for half/bfloat16_t/float inputs and int32_t for int8_t");
  RequireAic(api, loc);
  if (p.m == 0 || p.n == 0 || p.k == 0) return;
  ASCENDC_SIM_CHECK(p.m <= 4095 && p.n <= 4095 && p.k <= 4095, loc, "%s: m %u, n %u, k %u must each be <= 4095", api,
                    p.m, p.n, p.k);
  ASCENDC_SIM_CHECK(p.unitFlag == 0 || p.unitFlag == 2 || p.unitFlag == 3, loc, "%s: unitFlag %u (0, 2 or 3)", api,
                    p.unitFlag);
  constexpr uint32_t k0 = K0<A>();
  const uint32_t m1 = (p.m + 15) / 16, n1 = (p.n + 15) / 16, k1 = (p.k + k0 - 1) / k0;
  const uint32_t a = CubeOperand(fm, LocalBuf::kL0A, 512, static_cast<uint64_t>(m1) * k1 * 512, api, "fm (A)", loc);
  const uint32_t b =
      CubeOperand(filter, LocalBuf::kL0B, 512, static_cast<uint64_t>(k1) * n1 * 512, api, "filter (B)", loc);
  const uint64_t cBytes = static_cast<uint64_t>(m1) * n1 * 256 * sizeof(C);
  const uint32_t c = CubeOperand(dst, LocalBuf::kL0C, 1024, cBytes, api, "dst (C)", loc);
  const bool accumulate = p.isBias || !p.cmatrixInitVal;
  const bool fromBias = bias != nullptr || (!p.cmatrixInitVal && p.cmatrixSource);
  ASCENDC_SIM_CHECK(!(fromBias && bias == nullptr), loc,
                    "%s: cmatrixSource selects the bias table but no bias tensor was given", api);
  uint32_t biasAddr = 0;
  if (bias != nullptr) {
    static_assert(std::is_same_v<Bias, C>, "Mmad: bias must have the type of dst");
    biasAddr = CubeOperand(*bias, LocalBuf::kBT, 64, static_cast<uint64_t>(p.n) * sizeof(Bias), api, "bias", loc);
  }
  Core& core = CurrentCore();
  // Row-major views of the fractal layouts, then the arithmetic, then back into L0C.
  const A* fa = ascendc_sim::HostData(fm);
  const A* fb = ascendc_sim::HostData(filter);
  C* fc = ascendc_sim::HostData(dst);
  using Acc = std::conditional_t<std::is_same_v<A, int8_t>, int32_t, float>;
  using In = std::conditional_t<std::is_same_v<A, int8_t>, int8_t, float>;
  std::vector<In> ra(static_cast<size_t>(p.m) * p.k), rb(static_cast<size_t>(p.k) * p.n);
  std::vector<Acc> rc(static_cast<size_t>(p.m) * p.n);
  for (uint32_t i = 0; i < p.m; ++i)
    for (uint32_t j = 0; j < p.k; ++j)
      ra[static_cast<size_t>(i) * p.k + j] =
          static_cast<In>(fa[((i / 16) * k1 + j / k0) * 16 * k0 + (i % 16) * k0 + j % k0]);
  for (uint32_t j = 0; j < p.k; ++j)
    for (uint32_t n = 0; n < p.n; ++n)
      rb[static_cast<size_t>(j) * p.n + n] =
          static_cast<In>(fb[((j / k0) * n1 + n / 16) * 16 * k0 + (n % 16) * k0 + j % k0]);
  auto cAt = [&](uint32_t i, uint32_t n) { return ((n / 16) * m1 + i / 16) * 256 + (i % 16) * 16 + n % 16; };
  const C* bt = bias != nullptr ? ascendc_sim::HostData(*bias) : nullptr;
  for (uint32_t i = 0; i < p.m; ++i)
    for (uint32_t n = 0; n < p.n; ++n)
      rc[static_cast<size_t>(i) * p.n + n] = fromBias ? bt[n] : accumulate ? fc[cAt(i, n)] : Acc{};
  // HF32 (SetHF32Mode) applies to fp32 inputs only; the products of 12-bit significands are exact.
  const bool hf32 = std::is_same_v<A, float> && core.Registers().hf32;
  if constexpr (std::is_same_v<A, float>) {
    if (hf32) {
      RoundToHf32(ra.data(), ra.size(), core.Registers().hf32TiesAway);
      RoundToHf32(rb.data(), rb.size(), core.Registers().hf32TiesAway);
    }
  }
  if constexpr (std::is_same_v<A, int8_t>)
    MmadInt(rc.data(), ra.data(), rb.data(), p.m, p.n, p.k);
  else
    MmadFloat(rc.data(), ra.data(), rb.data(), p.m, p.n, p.k, k0, !std::is_same_v<A, float>);
  for (uint32_t i = 0; i < p.m; ++i)
    for (uint32_t n = 0; n < p.n; ++n) fc[cAt(i, n)] = rc[static_cast<size_t>(i) * p.n + n];

  Instr ins = CubeInstr(PIPE_M, Op::kMmad);
  ins.repeats = m1 * n1 * k1;
  ins.elemBytes = sizeof(A);
  ins.elements = static_cast<uint64_t>(p.m) * p.n * p.k;
  ins.unitBytes = p.unitFlag;
  ins.hf32 = hf32;
  ins.ubAddr[0] = c;
  ins.ubAddr[1] = a;
  ins.ubAddr[2] = b;
  ins.ubBytes[0] = static_cast<uint32_t>(cBytes);
  ins.ubBytes[1] = m1 * k1 * 512;
  ins.ubBytes[2] = k1 * n1 * 512;
  UbAccess acc[5] = {{a, ins.ubBytes[1], false},
                     {b, ins.ubBytes[2], false},
                     {c, static_cast<uint32_t>(cBytes), false},
                     {c, static_cast<uint32_t>(cBytes), true},
                     {biasAddr, bias ? static_cast<uint32_t>(p.n * sizeof(C)) : 0u, false}};
  if (!accumulate) acc[2].bytes = 0;  // C is only written
  core.IssueAccesses(ins, loc, api, acc, 5);
}
}  // namespace detail

// The HF32 registers Mmad reads (a register write each, the kernel's own scalar work as any).
// SetHF32TransMode's `true` (NEAREST_ZERO) is the Matmul's transMode 1, documented there as round
// to nearest with ties away from zero; `false` (NEAREST_EVEN) ties to even.
__aicore__ inline void SetHF32Mode(bool hf32Mode) { ascendc_sim::CurrentCore().Registers().hf32 = hf32Mode; }
__aicore__ inline void SetHF32Mode(HF32Mode mode) { SetHF32Mode(mode == HF32Mode::ENABLE); }
__aicore__ inline void SetHF32TransMode(bool hf32TransMode) {
  ascendc_sim::CurrentCore().Registers().hf32TiesAway = hf32TransMode;
}
__aicore__ inline void SetHF32TransMode(HF32TransMode mode) { SetHF32TransMode(mode == HF32TransMode::NEAREST_ZERO); }
// The Mmad direction, CTRL bit 51 (asc-devkit SetMMLayoutTransform: true, the cube passes N first and
// then M; false, M first): the order Mmad produces its result fractals in, which a FIXPIPE pairing with
// it reads; the values are the same either way (core.h CoreRegisters::mmadDirectionN, set_ctrl). Its
// newer names (asc-devkit's migration table): SetMMRowMajor is SetMMLayoutTransform(true),
// SetMMColumnMajor SetMMLayoutTransform(false).
__aicore__ inline void SetMMLayoutTransform(bool mmLayoutMode) {
  ascendc_sim::CurrentCore().Registers().mmadDirectionN = mmLayoutMode;
}
__aicore__ inline void SetMMRowMajor() { SetMMLayoutTransform(true); }
__aicore__ inline void SetMMColumnMajor() { SetMMLayoutTransform(false); }

template <typename C, typename A, typename B>
__aicore__ inline void Mmad(const LocalTensor<C>& dst, const LocalTensor<A>& fm, const LocalTensor<B>& filter,
                            const MmadParams& p, ASCENDC_SIM_LOC) {
  detail::MmadImpl<C, A, B, C>(dst, fm, filter, nullptr, p, loc);
}
template <typename C, typename A, typename B, typename Bias>
__aicore__ inline void Mmad(const LocalTensor<C>& dst, const LocalTensor<A>& fm, const LocalTensor<B>& filter,
                            const LocalTensor<Bias>& bias, const MmadParams& p, ASCENDC_SIM_LOC) {
  detail::MmadImpl<C, A, B, Bias>(dst, fm, filter, &bias, p, loc);
}

// ---- Fixpipe: L0C -> GM / UB / L1 ----------------------------------------------------------------

namespace detail {
// One L0C value through the fixpipe: ReLU, then the quantisation / cast (round to nearest even;
// int8 saturates).
template <typename D, typename S>
inline D FixValue(S v, const FixpipeParamsV220& p, float scale) {
  float f = static_cast<float>(v);
  if (p.reluEn && f < 0) f = 0;
  switch (p.quantPre) {
    case QuantMode_t::DEQF16:
    case QuantMode_t::QF322B8_PRE:
    case QuantMode_t::REQ8:
      f = f * scale;
      break;
    default:
      break;
  }
  if constexpr (std::is_same_v<D, int8_t> || std::is_same_v<D, uint8_t>) {
    const float lo = std::is_same_v<D, int8_t> ? -128.f : 0.f, hi = std::is_same_v<D, int8_t> ? 127.f : 255.f;
    return static_cast<D>(std::nearbyint(std::fmin(std::fmax(f, lo), hi)));
  } else if constexpr (std::is_same_v<D, int32_t>) {
    return p.reluEn && v < 0 ? 0 : static_cast<int32_t>(v);
  } else if constexpr (std::is_same_v<S, int32_t> && std::is_same_v<D, half>) {
    return static_cast<half>(f);
  } else {
    return static_cast<D>(f);
  }
}

template <typename D, typename S>
inline void CheckFixpipe(const FixpipeParamsV220& p, bool nd, const char* api, const SrcLoc& loc) {
  using ascendc_sim::Fail;
  static_assert(std::is_same_v<S, float> || std::is_same_v<S, int32_t>,
                "Fixpipe: the source (L0C) must be float or int32_t");
  const QuantMode_t q = p.quantPre;
  bool ok;
  if constexpr (std::is_same_v<S, float>) {
    ok = (std::is_same_v<D, float> && q == QuantMode_t::NoQuant) ||
         (std::is_same_v<D, half> && q == QuantMode_t::F322F16) ||
         (std::is_same_v<D, bfloat16_t> && q == QuantMode_t::F322BF16) ||
         ((std::is_same_v<D, int8_t> || std::is_same_v<D, uint8_t>) && q == QuantMode_t::QF322B8_PRE);
  } else {
    ok = (std::is_same_v<D, int32_t> && q == QuantMode_t::NoQuant) ||
         (std::is_same_v<D, half> && q == QuantMode_t::DEQF16) ||
         ((std::is_same_v<D, int8_t> || std::is_same_v<D, uint8_t>) && q == QuantMode_t::REQ8);
  }
  ASCENDC_SIM_CHECK(ok, loc,
                    "%s: quantPre %d does not convert the L0C type to the destination type (%zu-byte elements)", api,
                    static_cast<int>(q), sizeof(D));
  ASCENDC_SIM_CHECK(p.srcStride * 16 >= (p.mSize + 15u) / 16 * 16 || p.nSize <= 16, loc,
                    "%s: srcStride %u is less than mSize %u rounded up to 16: column blocks of L0C would overlap", api,
                    p.srcStride, p.mSize);
  ASCENDC_SIM_CHECK(nd || p.nSize % 16 == 0, loc, "%s: nSize %u must be a multiple of 16 for NZ output", api, p.nSize);
  ASCENDC_SIM_CHECK(!nd || p.dstStride >= p.nSize, loc, "%s: dstStride %u (elements per row) is less than nSize %u",
                    api, p.dstStride, p.nSize);
  ASCENDC_SIM_CHECK(p.unitFlag == 0 || p.unitFlag == 2 || p.unitFlag == 3, loc, "%s: unitFlag %u (0, 2 or 3)", api,
                    p.unitFlag);
  ASCENDC_SIM_CHECK(!p.isChannelSplit, loc, "%s: isChannelSplit is not modelled", api);
}

// Walk the values of a Fixpipe: f(srcIndex, dstIndex) with indices in elements.
template <typename F>
inline void ForEachFix(const FixpipeParamsV220& p, bool nd, uint32_t dstElemBytes, F f) {
  for (uint32_t t = 0; t < std::max<uint32_t>(p.ndNum, 1); ++t)
    for (uint32_t i = 0; i < p.mSize; ++i)
      for (uint32_t j = 0; j < p.nSize; ++j) {
        const uint64_t s = static_cast<uint64_t>(t) * p.srcNdStride * 256 +
                           (j / 16) * static_cast<uint64_t>(p.srcStride) * 16 + i * 16 + j % 16;
        const uint64_t d = nd ? static_cast<uint64_t>(t) * p.dstNdStride + static_cast<uint64_t>(i) * p.dstStride + j
                              : (j / 16) * static_cast<uint64_t>(p.dstStride) * 32 / dstElemBytes + i * 16 + j % 16;
        f(s, d);
      }
}

template <typename S>
inline uint32_t FixSource(const LocalTensor<S>& src, const FixpipeParamsV220& p, const char* api, const SrcLoc& loc) {
  const uint64_t last = static_cast<uint64_t>(std::max<uint32_t>(p.ndNum, 1) - 1) * p.srcNdStride * 256 +
                        static_cast<uint64_t>((p.nSize + 15) / 16 - 1) * p.srcStride * 16 +
                        static_cast<uint64_t>((p.mSize + 15) / 16) * 256;
  return ascendc_sim::CubeOperand(src, ascendc_sim::LocalBuf::kL0C, 64, last * sizeof(S), api, "src", loc);
}

// Issues a Fixpipe from `s` (FixSource's address, its reach checked) with the L0C bytes it reads as
// the race checker's reads (runtime/cube.cpp), and `dst` when its destination is local. Out of
// line: a kernel that calls Fixpipe keeps the code it had around the call, which the native
// engine's scalar count sees.
void IssueFixpipe(ascendc_sim::Core& core, const ascendc_sim::Instr& ins, const FixpipeParamsV220& p, uint32_t s,
                  uint32_t srcBytes, const ascendc_sim::UbAccess* dst, const ascendc_sim::SrcLoc& loc, const char* api);
}  // namespace detail

template <typename D, typename S, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const GlobalTensor<D>& dst, const LocalTensor<S>& src, const FixpipeParamsV220& p,
                               ASCENDC_SIM_LOC) {
  using namespace ascendc_sim;
  const char* api = "Fixpipe";
  RequireAic(api, loc);
  if (p.nSize == 0 || p.mSize == 0 || p.ndNum == 0) return;
  const bool nd = config.format == CO2Layout::ROW_MAJOR;
  detail::CheckFixpipe<D, S>(p, nd, api, loc);
  const uint32_t s = detail::FixSource(src, p, api, loc);
  const float scale = [&] {
    uint32_t u = static_cast<uint32_t>(p.deqScalar);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }();
  uint64_t hi = 0;
  detail::ForEachFix(p, nd, sizeof(D), [&](uint64_t, uint64_t d) { hi = std::max(hi, d + 1); });
  ASCENDC_SIM_CHECK(GmRangeValid(dst.GetPhyAddr(), hi * sizeof(D)), loc,
                    "%s: GM range of %llu bytes at %s is outside every GM buffer", api,
                    static_cast<unsigned long long>(hi * sizeof(D)),
                    DescribeGm(reinterpret_cast<uintptr_t>(dst.GetPhyAddr())).c_str());
  const S* in = ascendc_sim::HostData(src);
  D* out = ascendc_sim::HostData(dst);
  Core& core = CurrentCore();
  // The GM write, as rows: ND writes mSize rows of nSize elements per matrix; NZ writes 16-wide
  // column blocks of mSize rows each.
  Instr ins = CubeInstr(PIPE_FIX, Op::kFixpipe);
  ins.cacheMode = static_cast<uint8_t>(dst.GetCacheMode());
  ins.gmAddr = reinterpret_cast<uintptr_t>(dst.GetPhyAddr());
  ins.elemBytes = sizeof(D);
  if (nd) {
    ins.repeats = p.mSize * std::max<uint32_t>(p.ndNum, 1);
    ins.unitBytes = p.nSize * sizeof(D);
    ins.gmPitch = static_cast<uint64_t>(p.dstStride) * sizeof(D);
  } else {
    ins.repeats = (p.nSize + 15) / 16;
    ins.unitBytes = p.mSize * 16 * sizeof(D);
    ins.gmPitch = static_cast<uint64_t>(p.dstStride) * 32;
  }
  ins.elements = static_cast<uint64_t>(p.mSize) * p.nSize * std::max<uint32_t>(p.ndNum, 1) * sizeof(D);
  ins.ubAddr[1] = s;
  ins.ubBytes[1] = static_cast<uint32_t>(p.mSize) * ((p.nSize + 15) / 16) * 16 * sizeof(S);
  ins.atomic = static_cast<uint8_t>(core.Registers().atomicOp);
  detail::IssueFixpipe(core, ins, p, s, sizeof(S), nullptr, loc, api);
  if (p.ndNum > 1 && nd)
    core.GmAccess(PIPE_FIX, GmPattern{ins.gmAddr, 1, static_cast<uint32_t>(hi * sizeof(D)), hi * sizeof(D)}, true, loc,
                  api);
  else
    core.GmAccess(PIPE_FIX, GmPattern{ins.gmAddr, ins.repeats, ins.unitBytes, ins.gmPitch}, true, loc, api);
  detail::ForEachFix(p, nd, sizeof(D), [&](uint64_t si, uint64_t di) {
    const D v = detail::FixValue<D>(in[si], p, scale);
    StoreGm(reinterpret_cast<uint8_t*>(out + di), reinterpret_cast<const uint8_t*>(&v), sizeof(D));
  });
}

// L0C -> UB (CO2 / VECIN) or L1 (A1/B1): the same conversions, no GM traffic.
template <typename D, typename S, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const LocalTensor<D>& dst, const LocalTensor<S>& src, const FixpipeParamsV220& p,
                               ASCENDC_SIM_LOC) {
  using namespace ascendc_sim;
  const char* api = "Fixpipe";
  RequireAic(api, loc);
  if (p.nSize == 0 || p.mSize == 0 || p.ndNum == 0) return;
  const bool nd = config.format == CO2Layout::ROW_MAJOR;
  detail::CheckFixpipe<D, S>(p, nd, api, loc);
  const uint32_t s = detail::FixSource(src, p, api, loc);
  const float scale = [&] {
    uint32_t u = static_cast<uint32_t>(p.deqScalar);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }();
  uint64_t hi = 0;
  detail::ForEachFix(p, nd, sizeof(D), [&](uint64_t, uint64_t d) { hi = std::max(hi, d + 1); });
  Core& core = CurrentCore();
  const LocalBuf buf = core.Local().Of(dst.UbAddr());
  ASCENDC_SIM_CHECK(buf == LocalBuf::kUB || buf == LocalBuf::kL1, loc,
                    "%s: a local dst must be in UB or L1 but is in %s", api, LocalBufName(buf));
  const uint32_t d = CubeOperand(dst, buf, 32, hi * sizeof(D), api, "dst", loc);
  const S* in = ascendc_sim::HostData(src);
  D* out = ascendc_sim::HostData(dst);
  detail::ForEachFix(p, nd, sizeof(D),
                     [&](uint64_t si, uint64_t di) { out[di] = detail::FixValue<D>(in[si], p, scale); });
  Instr ins = CubeInstr(PIPE_FIX, Op::kFixpipeUb);
  ins.elemBytes = sizeof(D);
  ins.elements = static_cast<uint64_t>(p.mSize) * p.nSize * std::max<uint32_t>(p.ndNum, 1) * sizeof(D);
  ins.ubAddr[0] = d;
  ins.ubAddr[1] = s;
  ins.ubBytes[0] = static_cast<uint32_t>(hi * sizeof(D));
  ins.ubBytes[1] = static_cast<uint32_t>(p.mSize) * ((p.nSize + 15) / 16) * 16 * sizeof(S);
  const UbAccess written{d, ins.ubBytes[0], true};
  detail::IssueFixpipe(core, ins, p, s, sizeof(S), &written, loc, api);
}

// DataCopy from L0C to GM or L1 (a GlobalTensor or LocalTensor `dst`): the Fixpipe it is
// (cube_params.h), in ND with nz2ndEn, else in NZ; charged as that Fixpipe.
template <typename Dst, typename U>
__aicore__ inline void DataCopy(const Dst& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& p,
                                ASCENDC_SIM_LOC) {
  using T = typename Dst::PrimType;
  ASCENDC_SIM_CHECK(detail::Co1CopyModelled(p), loc, "%s", detail::kCo1CopyModeMessage);
  if (p.nz2ndEn)
    Fixpipe<T, U, CFG_ROW_MAJOR>(dst, src, detail::FixpipeOf(p), loc);
  else
    Fixpipe<T, U, CFG_NZ>(dst, src, detail::FixpipeOf(p), loc);
}

// Fixpipe with the library's earlier parameters (cube_params.h): the FixpipeParamsV220 Fixpipe it
// issues, in ND with nz2ndEn, else in NZ; the forms with an L1 workspace serve the vector quant modes.
template <typename Dst, typename S>
__aicore__ inline void Fixpipe(const Dst& dst, const LocalTensor<S>& src, const FixpipeParams<S>& p, ASCENDC_SIM_LOC) {
  using D = typename Dst::PrimType;
  ASCENDC_SIM_CHECK(!detail::FixpipeVectorQuant(p.quantParams.quantPre), loc, "%s", detail::kFixpipeVectorQuantMessage);
  if (p.nz2ndParams.nz2ndEn)
    Fixpipe<D, S, CFG_ROW_MAJOR>(dst, src, detail::FixpipeOf(p, sizeof(D)), loc);
  else
    Fixpipe<D, S, CFG_NZ>(dst, src, detail::FixpipeOf(p, sizeof(D)), loc);
}
template <typename Dst, typename S, typename B>
__aicore__ inline void Fixpipe(const Dst& dst, const LocalTensor<S>& src, const LocalTensor<B>&,
                               const FixpipeParams<S>& p, ASCENDC_SIM_LOC) {
  Fixpipe(dst, src, p, loc);
}

}  // namespace AscendC

namespace ascendc_sim {
// L1 (C1) -> bias table (C2) on PIPE_MTE1: blockCount rows of blockLen x 64 B of the destination,
// srcStride in 32 B and dstStride in 64 B between rows; half is widened to float on the way.
// Returns false when the operands are not L1 -> BT (the caller's UB -> UB copy then applies).
template <typename D, typename S>
bool CopyL1ToBt(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src,
                const AscendC::DataCopyParams& p, const SrcLoc& loc) {
  Core& core = CurrentCore();
  if (core.Local().Of(dst.UbAddr()) == LocalBuf::kUB && core.Local().Of(src.UbAddr()) == LocalBuf::kUB) return false;
  const char* api = "DataCopy(L1 -> BT)";
  RequireAic(api, loc);
  if constexpr (!(std::is_same_v<D, float> || std::is_same_v<D, int32_t>)) {
    Fail(Status::RUNTIME_ERROR, loc, "%s: the bias table holds float or int32_t", api);
  } else {
    ASCENDC_SIM_CHECK(
        core.Local().Of(dst.UbAddr()) == LocalBuf::kBT && core.Local().Of(src.UbAddr()) == LocalBuf::kL1, loc,
        "%s: copies between local buffers other than UB -> UB must go from L1 (C1) to the bias table (C2)", api);
    const uint32_t rowElems = p.blockLen * 64u / sizeof(D);
    const uint32_t dPitch = rowElems + p.dstStride * 64u / sizeof(D), sPitch = rowElems + p.srcStride * 32u / sizeof(S);
    const uint32_t dElems = (p.blockCount - 1) * dPitch + rowElems, sElems = (p.blockCount - 1) * sPitch + rowElems;
    const uint32_t d = CubeOperand(dst, LocalBuf::kBT, 64, static_cast<uint64_t>(dElems) * sizeof(D), api, "dst", loc);
    const uint32_t s = CubeOperand(src, LocalBuf::kL1, 32, static_cast<uint64_t>(sElems) * sizeof(S), api, "src", loc);
    for (uint32_t r = 0; r < p.blockCount; ++r)
      for (uint32_t i = 0; i < rowElems; ++i)
        ascendc_sim::HostData(dst)[r * dPitch + i] =
            static_cast<D>(static_cast<float>(ascendc_sim::HostData(src)[r * sPitch + i]));
    Instr ins = CubeInstr(PIPE_MTE1, Op::kCopyL1);
    ins.elements = static_cast<uint64_t>(p.blockCount) * rowElems * sizeof(D);
    ins.ubAddr[0] = d;
    ins.ubAddr[1] = s;
    ins.ubBytes[0] = dElems * sizeof(D);
    ins.ubBytes[1] = sElems * sizeof(S);
    UbAccess acc[2] = {{s, ins.ubBytes[1], false}, {d, ins.ubBytes[0], true}};
    core.IssueAccesses(ins, loc, api, acc, 2);
  }
  return true;
}
}  // namespace ascendc_sim

namespace AscendC {
// L1 -> bias table with the element type converted (half -> float), asc-devkit's two-type
// prototype `DataCopy<T, U>(LocalTensor<T>, LocalTensor<U>, DataCopyParams)`. A call naming both
// types alike (cann-ops conv3dv2's `DataCopy<L0cT, BiasT>` with a float bias) is the same-type copy
// of data_copy.h, which a deduced call picks anyway (its template is the more specialised).
template <typename D, typename S>
__aicore__ inline void DataCopy(const LocalTensor<D>& dst, const LocalTensor<S>& src, const DataCopyParams& p,
                                ASCENDC_SIM_LOC) {
  if constexpr (std::is_same_v<D, S>)
    DataCopy<D>(dst, src, p, loc);
  else if (!ascendc_sim::CopyL1ToBt(dst, src, p, loc))
    ascendc_sim::Fail(ascendc_sim::Status::RUNTIME_ERROR, loc,
                      "DataCopy: UB -> UB between tensors of two element types; only L1 -> bias table converts");
}
}  // namespace AscendC

namespace ascendc_sim {
// The element types Fill / InitConstValue take on the A2 (asc-devkit's Fill page).
template <typename T>
constexpr bool kCubeFill = std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, float> ||
                           std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> ||
                           std::is_same_v<T, uint32_t>;

// Fill / InitConstValue (asc-devkit's Fill page): an L1 tensor (A1 / B1) in 32 B blocks on
// PIPE_MTE2, or an L0A / L0B tensor (A2 / B2) in 512 B blocks on PIPE_MTE1, 32 B or 512 B aligned.
// repeatTimes runs of blockNum blocks set to initValue, dstGap blocks from one run's end to the
// next's start; a zero repeatTimes or blockNum is a no-op. Every byte written lies inside the tensor.
template <typename T>
void FillCube(const AscendC::LocalTensor<T>& dst, const AscendC::InitConstValueParams<T>& p, const char* api,
              const SrcLoc& loc) {
  static_assert(kCubeFill<T>, "Fill / InitConstValue: half, bfloat16_t, float, int16_t, uint16_t, int32_t, uint32_t");
  RequireAic(api, loc);
  constexpr uint16_t kMax = 32767;
  ASCENDC_SIM_CHECK(p.repeatTimes <= kMax && p.blockNum <= kMax && p.dstGap <= kMax, loc,
                    "%s: repeatTimes %u, blockNum %u, dstGap %u: each must be in [0, 32767]", api, p.repeatTimes,
                    p.blockNum, p.dstGap);
  Core& core = CurrentCore();
  const LocalBuf buf = core.Local().Of(dst.UbAddr());
  ASCENDC_SIM_CHECK(buf == LocalBuf::kL1 || buf == LocalBuf::kL0A || buf == LocalBuf::kL0B, loc,
                    "%s: dst must be in L1 (A1 / B1), L0A (A2) or L0B (B2) but is in %s", api, LocalBufName(buf));
  if (p.repeatTimes == 0 || p.blockNum == 0) return;
  const uint32_t block = buf == LocalBuf::kL1 ? 32 : 512;
  const uint64_t run = static_cast<uint64_t>(p.blockNum) * block;
  const uint64_t step = run + static_cast<uint64_t>(p.dstGap) * block;
  const uint64_t end = static_cast<uint64_t>(p.repeatTimes - 1) * step + run;
  const uint32_t addr = CubeOperand(dst, buf, block, end, api, "dst", loc);
  uint8_t* out = reinterpret_cast<uint8_t*>(HostData(dst));
  std::vector<UbAccess> written;
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    uint8_t* at = out + r * step;
    for (uint64_t i = 0; i < run; i += sizeof(T)) std::memcpy(at + i, &p.initValue, sizeof(T));
    // One write per run when runs leave gaps (a gap keeps its bytes), one for the whole span otherwise.
    if (p.dstGap > 0 || r == 0)
      written.push_back({addr + static_cast<uint32_t>(r * step), static_cast<uint32_t>(p.dstGap ? run : end), true});
  }
  Instr ins = CubeInstr(buf == LocalBuf::kL1 ? PIPE_MTE2 : PIPE_MTE1, Op::kFillCube);
  ins.repeats = p.repeatTimes;
  ins.elemBytes = sizeof(T);
  ins.elements = static_cast<uint64_t>(p.repeatTimes) * run;
  ins.ubAddr[0] = addr;
  ins.ubBytes[0] = static_cast<uint32_t>(end);
  core.IssueAccesses(ins, loc, api, written.data(), written.size());
}
}  // namespace ascendc_sim

namespace AscendC {
template <typename T, typename U = T, std::enable_if_t<std::is_same_v<T, U>, bool> = true>
__aicore__ inline void Fill(const LocalTensor<T>& dst, const InitConstValueParams<U>& p, ASCENDC_SIM_LOC) {
  ascendc_sim::FillCube(dst, p, "Fill", loc);
}
// The same instruction under its older name.
template <typename T, typename U = T, std::enable_if_t<std::is_same_v<T, U>, bool> = true>
__aicore__ inline void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<U>& p, ASCENDC_SIM_LOC) {
  ascendc_sim::FillCube(dst, p, "InitConstValue", loc);
}
}  // namespace AscendC
