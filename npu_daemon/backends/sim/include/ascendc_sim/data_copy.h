// Data movement: DataCopy (32 B units, tail silently dropped as on hardware) and DataCopyPad
// (byte lengths, padded UB rows). GM->UB runs on PIPE_MTE2, UB->GM on PIPE_MTE3, UB->UB on PIPE_V.
#pragma once

#include "../../guest/include/ascendc_guest/params.h"  // the parameter structs, shared with the guest
#include "ascendc_sim/memory.h"

namespace ascendc_sim {

// L1 -> bias table copies share DataCopy(LocalTensor, LocalTensor, DataCopyParams) (cube_compute.h).
template <typename D, typename S>
bool CopyL1ToBt(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src,
                const AscendC::DataCopyParams& p, const SrcLoc& loc);

// One DMA: `bursts` rows of `rowBytes`; GM rows `gmPitch` bytes apart, UB rows `ubPitch` apart.
struct Dma {
  uint32_t bursts;
  uint32_t rowBytes;
  uint64_t gmPitch;
  uint32_t ubPitch;
  uint32_t ubRowBytes;  // UB footprint of one row (row padded to 32 B for DataCopyPad)
};

// Record one DMA after checking its UB and GM ranges (runtime/issue.cpp).
void IssueDma(Op op, const char* api, uint8_t* gm, uint32_t ubAddr, const Dma& d, CacheMode cache, const SrcLoc& loc);
// Store UB bytes to GM under the core's atomic mode (a plain copy without one).
void StoreGm(uint8_t* gm, const uint8_t* ub, uint32_t bytes);

template <typename T>
void CopyRows(const Dma& d, T* dst, const T* src, bool toUb) {
  auto* out = reinterpret_cast<uint8_t*>(dst);
  auto* in = reinterpret_cast<const uint8_t*>(src);
  for (uint32_t i = 0; i < d.bursts; ++i) {
    if (toUb)
      std::memcpy(out + i * d.ubPitch, in + i * d.gmPitch, d.rowBytes);
    else
      StoreGm(out + i * d.gmPitch, in + i * d.ubPitch, d.rowBytes);
  }
}

void CheckParams(const AscendC::DataCopyParams& p, const char* api, const SrcLoc& loc);
// The A2 library accepts blockCount in [0, 4095] and blockLen in [0, 2097151] bytes (its own
// parameter check for dav_c220); a zero count or length moves nothing. False: nothing to copy.
inline bool CheckPadParams(uint32_t blockCount, uint32_t blockLen, const SrcLoc& loc) {
  ASCENDC_SIM_CHECK(blockCount <= 4095, loc, "DataCopyPad: blockCount %u out of range [0, 4095]", blockCount);
  ASCENDC_SIM_CHECK(blockLen <= 2097151, loc, "DataCopyPad: blockLen %u bytes out of range [0, 2097151]", blockLen);
  return blockCount != 0 && blockLen != 0;
}

// The piece rows of a slice: one per index combination of the dimensions past the first (the
// second dimension fastest); the library issues one DMA per row, the first dimension's pieces its bursts.
inline uint64_t SliceRowCount(const AscendC::SliceInfo* s, uint32_t dims, const SrcLoc& loc) {
  ASCENDC_SIM_CHECK(dims >= 1 && dims <= 8, loc, "DataCopy with SliceInfo: dimValue %u out of range [1, 8]", dims);
  uint64_t rows = 1;
  for (uint32_t d = 1; d < dims; ++d) {
    ASCENDC_SIM_CHECK(s[d - 1].shapeValue > 0, loc,
                      "DataCopy with SliceInfo: shapeValue 0 (the tensor's ShapeInfo) is not emulated");
    ASCENDC_SIM_CHECK(s[d].startIndex <= s[d].endIndex && s[d].burstLen == 1, loc,
                      "DataCopy with SliceInfo: dimension %u needs startIndex <= endIndex and burstLen 1", d);
    rows *= (s[d].endIndex - s[d].startIndex + 1 + s[d].stride) / (1 + s[d].stride);
  }
  return rows;
}
// Element offset of row k (the first dimension's start included).
inline uint64_t SliceRowOffset(const AscendC::SliceInfo* s, uint32_t dims, uint64_t k) {
  uint64_t offset = s[0].startIndex, size = 1;
  for (uint32_t d = 1; d < dims; ++d) {
    size *= s[d - 1].shapeValue;
    const uint64_t count = (s[d].endIndex - s[d].startIndex + 1 + s[d].stride) / (1 + s[d].stride);
    offset += (s[d].startIndex + k % count * (1 + s[d].stride)) * size;
    k /= count;
  }
  return offset;
}

// A slice copy: for each piece row, `bursts` runs of burstLen blocks; the GM side's gap between
// runs is stride elements (any byte count), the UB side's whole 32 B blocks.
template <typename T, bool toUb>
void SliceCopy(uint8_t* gm, uint8_t* gmBase, uint32_t ubAddr, uint8_t* ub, const AscendC::SliceInfo* gmSlice,
               const AscendC::SliceInfo* ubSlice, uint32_t dims, CacheMode cache, const SrcLoc& loc) {
  const AscendC::SliceInfo& src = toUb ? gmSlice[0] : ubSlice[0];  // the source's first dimension sets the bursts
  ASCENDC_SIM_CHECK(
      src.burstLen >= 1 && src.burstLen == (toUb ? ubSlice : gmSlice)[0].burstLen && src.startIndex <= src.endIndex,
      loc, "DataCopy with SliceInfo: burstLen must be >= 1 and equal on both sides, startIndex <= endIndex");
  const uint32_t burstElems = src.burstLen * 32 / sizeof(T);
  const uint32_t bursts = (src.endIndex - src.startIndex + 1 + src.stride) / (burstElems + src.stride);
  const uint64_t gmRows = SliceRowCount(gmSlice, dims, loc), ubRows = SliceRowCount(ubSlice, dims, loc);
  ASCENDC_SIM_CHECK(gmRows == ubRows, loc, "DataCopy with SliceInfo: %llu source rows for %llu destination rows",
                    static_cast<unsigned long long>(toUb ? gmRows : ubRows),
                    static_cast<unsigned long long>(toUb ? ubRows : gmRows));
  const uint32_t rowBytes = src.burstLen * 32;
  const Dma d{bursts, rowBytes, rowBytes + static_cast<uint64_t>(gmSlice[0].stride) * sizeof(T),
              rowBytes + ubSlice[0].stride * static_cast<uint32_t>(sizeof(T)) / 32 * 32, rowBytes};
  for (uint64_t i = 0; i < gmRows; ++i) {
    uint8_t* g = gm + SliceRowOffset(gmSlice, dims, i) * sizeof(T);
    const uint64_t u = SliceRowOffset(ubSlice, dims, i) * sizeof(T);
    ASCENDC_SIM_CHECK(u % 32 == 0, loc, "DataCopy with SliceInfo: UB row at byte %llu is not 32 B aligned",
                      static_cast<unsigned long long>(u));
    IssueDma(toUb ? Op::kCopyGmToUb : Op::kCopyUbToGm, "DataCopy", g, ubAddr + static_cast<uint32_t>(u), d, cache, loc);
    const uint8_t* gmData = gmBase + (g - gm);
    for (uint32_t b = 0; b < bursts; ++b) {
      if (toUb)
        std::memcpy(ub + u + b * d.ubPitch, gmData + b * d.gmPitch, rowBytes);
      else
        StoreGm(gmBase + (g - gm) + b * d.gmPitch, ub + u + b * d.ubPitch, rowBytes);
    }
  }
}

}  // namespace ascendc_sim

namespace AscendC {

// ---- DataCopy, count form: count elements' bytes rounded down to 32 B -----------------------
template <typename T>
__aicore__ void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count, ASCENDC_SIM_LOC) {
  uint32_t bytes = static_cast<uint32_t>(ascendc_sim::BytesOf<T>(count) / 32 * 32);
  // The DMA takes a UB address: nothing on the device compares the copy with the tensor's length.
  ASCENDC_SIM_WARN_UNLESS(bytes <= dst.GetLength(), loc, "DataCopy GM->UB of %u bytes into a %u-byte tensor", bytes,
                          dst.GetLength());
  ascendc_sim::Dma d{1, bytes, bytes, bytes, bytes};
  ascendc_sim::IssueDma(ascendc_sim::Op::kCopyGmToUb, "DataCopy", reinterpret_cast<uint8_t*>(src.GetPhyAddr()),
                        dst.UbAddr(), d, src.GetCacheMode(), loc);
  std::memcpy(ascendc_sim::HostData(dst), ascendc_sim::HostData(src), bytes);
}
template <typename T>
__aicore__ void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, ASCENDC_SIM_LOC) {
  uint32_t bytes = static_cast<uint32_t>(ascendc_sim::BytesOf<T>(count) / 32 * 32);
  ASCENDC_SIM_WARN_UNLESS(bytes <= src.GetLength(), loc, "DataCopy UB->GM of %u bytes from a %u-byte tensor", bytes,
                          src.GetLength());
  ascendc_sim::Dma d{1, bytes, bytes, bytes, bytes};
  ascendc_sim::IssueDma(ascendc_sim::Op::kCopyUbToGm, "DataCopy", reinterpret_cast<uint8_t*>(dst.GetPhyAddr()),
                        src.UbAddr(), d, dst.GetCacheMode(), loc);
  ascendc_sim::StoreGm(reinterpret_cast<uint8_t*>(ascendc_sim::HostData(dst)),
                       reinterpret_cast<const uint8_t*>(ascendc_sim::HostData(src)), bytes);
}

// ---- DataCopy, DataCopyParams form: units of 32 B blocks -------------------------------------
template <typename T>
__aicore__ void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                         ASCENDC_SIM_LOC) {
  ascendc_sim::CheckParams(p, "DataCopy", loc);
  ascendc_sim::Dma d{p.blockCount, p.blockLen * 32u, (p.blockLen + p.srcStride) * 32ull,
                     (p.blockLen + p.dstStride) * 32u, p.blockLen * 32u};
  ascendc_sim::IssueDma(ascendc_sim::Op::kCopyGmToUb, "DataCopy", reinterpret_cast<uint8_t*>(src.GetPhyAddr()),
                        dst.UbAddr(), d, src.GetCacheMode(), loc);
  ascendc_sim::CopyRows(d, ascendc_sim::HostData(dst), ascendc_sim::HostData(src), true);
}
template <typename T>
__aicore__ void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                         ASCENDC_SIM_LOC) {
  ascendc_sim::CheckParams(p, "DataCopy", loc);
  ascendc_sim::Dma d{p.blockCount, p.blockLen * 32u, (p.blockLen + p.dstStride) * 32ull,
                     (p.blockLen + p.srcStride) * 32u, p.blockLen * 32u};
  ascendc_sim::IssueDma(ascendc_sim::Op::kCopyUbToGm, "DataCopy", reinterpret_cast<uint8_t*>(dst.GetPhyAddr()),
                        src.UbAddr(), d, dst.GetCacheMode(), loc);
  ascendc_sim::CopyRows(d, ascendc_sim::HostData(dst), ascendc_sim::HostData(src), false);
}

// The library's internal UB -> GM form on raw pointers (kernel_operator_data_copy_impl.h): the
// DataCopyParams copy of the tensor form.
template <typename T>
__aicore__ inline void DataCopyUB2GMImpl(__gm__ T* dst, __ubuf__ T* src, const DataCopyParams& p, ASCENDC_SIM_LOC) {
  GlobalTensor<T> gm;
  gm.SetGlobalBuffer(dst);
  const uint32_t span = p.blockCount * (p.blockLen + p.srcStride) * 32u / sizeof(T);
  DataCopy(gm, UbTensorAt(src, span, TPosition::VECOUT, loc), p, loc);
}

// The same library's DataCopyPad forms on raw pointers: the tensor forms on a UB tensor at the
// pointer, spanning every row the copy touches (each row's bytes and padding rounded up to 32 B,
// and the UB-side gap in 32 B blocks).
template <typename T>
__aicore__ inline void DataCopyPadGm2UBImpl(__ubuf__ T* dst, __gm__ T* src, const DataCopyExtParams& p,
                                            const DataCopyPadExtParams<T>& pad, ASCENDC_SIM_LOC) {
  GlobalTensor<T> gm;
  gm.SetGlobalBuffer(src);
  const uint32_t rowBytes = p.blockLen + (pad.leftPadding + pad.rightPadding) * sizeof(T);
  DataCopyPad(
      UbTensorAt(dst, p.blockCount * ((rowBytes + 31) / 32 + p.dstStride) * 32u / sizeof(T), TPosition::VECIN, loc), gm,
      p, pad, loc);
}
template <typename T>
__aicore__ inline void DataCopyPadGm2UBImpl(__ubuf__ T* dst, __gm__ T* src, const DataCopyParams& p,
                                            const DataCopyPadParams& pad, ASCENDC_SIM_LOC) {
  DataCopyPadGm2UBImpl(
      dst, src, DataCopyExtParams{p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0},
      DataCopyPadExtParams<T>{pad.isPad, pad.leftPadding, pad.rightPadding, static_cast<T>(pad.paddingValue)}, loc);
}
template <typename T>
__aicore__ inline void DataCopyPadUB2GMImpl(__gm__ T* dst, __ubuf__ T* src, const DataCopyExtParams& p,
                                            ASCENDC_SIM_LOC) {
  GlobalTensor<T> gm;
  gm.SetGlobalBuffer(dst);
  DataCopyPad(
      gm,
      UbTensorAt(src, p.blockCount * ((p.blockLen + 31) / 32 + p.srcStride) * 32u / sizeof(T), TPosition::VECOUT, loc),
      p, loc);
}
template <typename T>
__aicore__ inline void DataCopyPadUB2GMImpl(__gm__ T* dst, __ubuf__ T* src, const DataCopyParams& p, ASCENDC_SIM_LOC) {
  DataCopyPadUB2GMImpl(dst, src, DataCopyExtParams{p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0}, loc);
}

// ---- DataCopy with SliceInfo: pieces of a multi-dimensional tensor ----------------------------
template <typename T>
__aicore__ void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[],
                         const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1, ASCENDC_SIM_LOC) {
  ascendc_sim::SliceCopy<T, true>(reinterpret_cast<uint8_t*>(src.GetPhyAddr()),
                                  reinterpret_cast<uint8_t*>(ascendc_sim::HostData(src)), dst.UbAddr(),
                                  reinterpret_cast<uint8_t*>(ascendc_sim::HostData(dst)), srcSliceInfo, dstSliceInfo,
                                  dimValue, src.GetCacheMode(), loc);
}
template <typename T>
__aicore__ void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[],
                         const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1, ASCENDC_SIM_LOC) {
  ascendc_sim::SliceCopy<T, false>(reinterpret_cast<uint8_t*>(dst.GetPhyAddr()),
                                   reinterpret_cast<uint8_t*>(ascendc_sim::HostData(dst)), src.UbAddr(),
                                   reinterpret_cast<uint8_t*>(ascendc_sim::HostData(src)), dstSliceInfo, srcSliceInfo,
                                   dimValue, dst.GetCacheMode(), loc);
}

// ---- DataCopyPad: byte lengths; each UB row padded to 32 B -----------------------------------
template <typename T>
__aicore__ void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                            const DataCopyPadExtParams<T>& pad, ASCENDC_SIM_LOC) {
  if (!ascendc_sim::CheckPadParams(p.blockCount, p.blockLen, loc)) return;
  const uint32_t left = pad.isPad ? pad.leftPadding * sizeof(T) : 0;
  const uint32_t row = (left + p.blockLen + (pad.isPad ? pad.rightPadding * sizeof(T) : 0) + 31u) / 32u * 32u;
  ascendc_sim::Dma d{p.blockCount, p.blockLen, static_cast<uint64_t>(p.blockLen) + p.srcStride, row + p.dstStride * 32u,
                     row};
  ascendc_sim::IssueDma(ascendc_sim::Op::kCopyGmToUb, "DataCopyPad", reinterpret_cast<uint8_t*>(src.GetPhyAddr()),
                        dst.UbAddr(), d, src.GetCacheMode(), loc);
  auto* ub = reinterpret_cast<uint8_t*>(ascendc_sim::HostData(dst));
  auto* gm = reinterpret_cast<const uint8_t*>(ascendc_sim::HostData(src));
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    uint8_t* rowPtr = ub + i * d.ubPitch;
    std::memcpy(rowPtr + left, gm + i * d.gmPitch, p.blockLen);
    T* elems = reinterpret_cast<T*>(rowPtr);
    if (pad.isPad && (pad.leftPadding || pad.rightPadding)) {
      for (uint32_t e = 0; e < left / sizeof(T); ++e) elems[e] = pad.paddingValue;
      for (uint32_t e = (left + p.blockLen) / sizeof(T); e < row / sizeof(T); ++e) elems[e] = pad.paddingValue;
    } else if (!pad.isPad &&
               ascendc_sim::CurrentCore().Registers().padValueSet) {  // the 32 B tail takes the SetPadValue register
      T v;
      std::memcpy(&v, &ascendc_sim::CurrentCore().Registers().padValue, sizeof(T));
      for (uint32_t e = p.blockLen / sizeof(T); e < row / sizeof(T); ++e) elems[e] = v;
    } else {  // no padding asked for: the hardware's dummy fill repeats the row's first element
      for (uint32_t e = (left + p.blockLen + sizeof(T) - 1) / sizeof(T); e < row / sizeof(T); ++e)
        elems[e] = elems[left / sizeof(T)];
    }
  }
}
// The value DataCopyPad (GM -> VECIN/VECOUT, isPad false) writes into each row's 32 B alignment tail.
template <typename T, TPosition pos = TPosition::MAX>
__aicore__ inline void SetPadValue(T paddingValue) {
  static_assert(sizeof(T) <= 8, "SetPadValue takes a scalar of at most 8 bytes");
  ascendc_sim::Core& core = ascendc_sim::CurrentCore();
  core.Registers().padValue = 0;
  std::memcpy(&core.Registers().padValue, &paddingValue, sizeof(T));
  core.Registers().padValueSet = true;
  core.Scalar(1);
}
template <typename T>
__aicore__ void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p,
                            ASCENDC_SIM_LOC) {
  if (!ascendc_sim::CheckPadParams(p.blockCount, p.blockLen, loc)) return;
  const uint32_t row = (p.blockLen + 31u) / 32u * 32u;
  ascendc_sim::Dma d{p.blockCount, p.blockLen, static_cast<uint64_t>(p.blockLen) + p.dstStride, row + p.srcStride * 32u,
                     row};
  ascendc_sim::IssueDma(ascendc_sim::Op::kCopyUbToGm, "DataCopyPad", reinterpret_cast<uint8_t*>(dst.GetPhyAddr()),
                        src.UbAddr(), d, dst.GetCacheMode(), loc);
  ascendc_sim::CopyRows(d, ascendc_sim::HostData(dst), ascendc_sim::HostData(src), false);
}
// Legacy overloads with DataCopyParams (blockLen in bytes here) and DataCopyPadParams.
template <typename T>
__aicore__ void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                            const DataCopyPadParams& pad, ASCENDC_SIM_LOC) {
  T value;
  std::memcpy(&value, &pad.paddingValue, sizeof(T));
  DataCopyPad(dst, src, DataCopyExtParams{p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0},
              DataCopyPadExtParams<T>{pad.isPad, pad.leftPadding, pad.rightPadding, value}, loc);
}
template <typename T>
__aicore__ void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                            ASCENDC_SIM_LOC) {
  DataCopyPad(dst, src, DataCopyExtParams{p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0}, loc);
}

// ---- UB -> UB on PIPE_V: count form and 32 B block form -------------------------------------
template <typename T>
__aicore__ void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                         ASCENDC_SIM_LOC) {
  ascendc_sim::CheckParams(p, "DataCopy", loc);
  if (ascendc_sim::CopyL1ToBt(dst, src, p, loc)) return;
  ascendc_sim::Core& core = ascendc_sim::CurrentCore();
  const uint32_t row = p.blockLen * 32u, dstPitch = (p.blockLen + p.dstStride) * 32u,
                 srcPitch = (p.blockLen + p.srcStride) * 32u;
  const uint32_t dstBytes = (p.blockCount - 1) * dstPitch + row, srcBytes = (p.blockCount - 1) * srcPitch + row;
  ASCENDC_SIM_CHECK(dst.UbAddr() % 32 == 0 && src.UbAddr() % 32 == 0, loc,
                    "DataCopy UB->UB: operands at %u, %u not 32 B aligned", dst.UbAddr(), src.UbAddr());
  ASCENDC_SIM_WARN_UNLESS(dstBytes <= dst.GetLength() && srcBytes <= src.GetLength(), loc,
                          "DataCopy UB->UB touches %u B of a %u-byte destination and %u B of a %u-byte source",
                          dstBytes, dst.GetLength(), srcBytes, src.GetLength());
  ascendc_sim::Instr ins{};
  ins.pipe = PIPE_V;
  ins.op = ascendc_sim::Op::kCopyUbToUb;
  ins.repeats = p.blockCount;
  ins.unitBytes = row;
  ins.ubAddr[0] = dst.UbAddr();
  ins.ubAddr[1] = src.UbAddr();
  ins.link = -1;
  ins.elements = static_cast<uint64_t>(p.blockCount) * row;
  ins.ubBytes[0] = dstBytes;
  ins.ubBytes[1] = srcBytes;
  ascendc_sim::UbAccess acc[2] = {{src.UbAddr(), srcBytes, false}, {dst.UbAddr(), dstBytes, true}};
  core.IssueAccesses(ins, loc, "DataCopy", acc, 2);
  auto* out = reinterpret_cast<uint8_t*>(ascendc_sim::HostData(dst));
  auto* in = reinterpret_cast<const uint8_t*>(ascendc_sim::HostData(src));
  for (uint32_t i = 0; i < p.blockCount; ++i) std::memmove(out + i * dstPitch, in + i * srcPitch, row);
}
// The count form sizes its blocks by the copy, as asc-devkit's DataCopy(LocalTensor, LocalTensor, count) does
// on the A2: 64 B for L1 -> bias table (the unit of that copy's blockLen), 32 B otherwise.
template <typename T>
__aicore__ void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, ASCENDC_SIM_LOC) {
  const ascendc_sim::Core& core = ascendc_sim::CurrentCore();
  const bool toBt = core.Local().Of(dst.UbAddr()) == ascendc_sim::LocalBuf::kBT &&
                    core.Local().Of(src.UbAddr()) == ascendc_sim::LocalBuf::kL1;
  const uint32_t blocks = static_cast<uint32_t>(count * sizeof(T) / (toBt ? 64 : 32));
  if (blocks == 0) return;  // below one block the hardware moves nothing
  DataCopy(dst, src, DataCopyParams{1, static_cast<uint16_t>(blocks), 0, 0}, loc);
}

// ---- atomics: the GM read-modify-write of later UB->GM copies ---------------------------------
template <typename T>
constexpr ascendc_sim::AtomicType AtomicTypeOf() {
  using ascendc_sim::AtomicType;
  if constexpr (std::is_same_v<T, float>)
    return AtomicType::kFloat;
  else if constexpr (std::is_same_v<T, half>)
    return AtomicType::kHalf;
  else if constexpr (std::is_same_v<T, bfloat16_t>)
    return AtomicType::kBf16;
  else if constexpr (std::is_same_v<T, int8_t>)
    return AtomicType::kInt8;
  else if constexpr (std::is_same_v<T, int16_t>)
    return AtomicType::kInt16;
  else {
    static_assert(std::is_same_v<T, int32_t>,
                  "atomic GM updates support float, half, bfloat16_t, int8_t, int16_t, int32_t");
    return AtomicType::kInt32;
  }
}
template <typename T>
__aicore__ inline void SetAtomicType() {
  ascendc_sim::CurrentCore().Registers().atomicType = AtomicTypeOf<T>();
}
template <typename T>
__aicore__ inline void SetAtomicAdd() {
  ascendc_sim::Core& core = ascendc_sim::CurrentCore();
  core.Registers().atomicType = AtomicTypeOf<T>();
  core.Registers().atomicOp = ascendc_sim::AtomicOp::kAdd;
}
template <typename T>
__aicore__ inline void SetAtomicMax() {
  ascendc_sim::Core& core = ascendc_sim::CurrentCore();
  core.Registers().atomicType = AtomicTypeOf<T>();
  core.Registers().atomicOp = ascendc_sim::AtomicOp::kMax;
}
template <typename T>
__aicore__ inline void SetAtomicMin() {
  ascendc_sim::Core& core = ascendc_sim::CurrentCore();
  core.Registers().atomicType = AtomicTypeOf<T>();
  core.Registers().atomicOp = ascendc_sim::AtomicOp::kMin;
}
__aicore__ inline void SetAtomicNone() {
  ascendc_sim::CurrentCore().Registers().atomicOp = ascendc_sim::AtomicOp::kNone;
}

// ---- the scalar unit's data cache (Core::ScalarGmCost): the line at the tensor, or every line,
// leaves it, so the next scalar GM access there misses; or a line is preloaded into it. UB accesses
// do not go through it. -------------------------------------------------------------------------
enum class CacheLine : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
template <typename T, CacheLine entire, DcciDst dst = DcciDst::CACHELINE_OUT>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& t) {
  ascendc_sim::CurrentCore().InvalidateDataCache(reinterpret_cast<uintptr_t>(t.GetPhyAddr()),
                                                 entire == CacheLine::ENTIRE_DATA_CACHE);
}
template <typename T, CacheLine entire, DcciDst dst = DcciDst::CACHELINE_OUT>
__aicore__ inline void DataCacheCleanAndInvalid(const LocalTensor<T>&) {}
// DataCachePreload: the 64 B line holding byte `cacheOffset` of `src` starts to fill (Core::PreloadDataCache).
template <typename T>
__aicore__ inline void DataCachePreload(const GlobalTensor<uint64_t>& src, const T cacheOffset, ASCENDC_SIM_LOC) {
  static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, int64_t>,
                "DataCachePreload takes an int16_t or int64_t byte offset");
  ascendc_sim::PreloadDataCache(src.GetPhyAddr(), static_cast<int64_t>(cacheOffset), loc);
}

// ---- DumpTensor: print `dumpSize` elements with a user tag to the kernel log ----------------------
}  // namespace AscendC
namespace ascendc_sim {
template <typename T>
void DumpValues(const char* where, uint32_t desc, const T* data, uint32_t n) {
  std::printf("DumpTensor: block %d, %s, desc %u, %u elements:", CurrentCore().Spec().blockIdx, where, desc, n);
  for (uint32_t i = 0; i < n; ++i) {
    if constexpr (std::is_integral_v<T>)
      std::printf(" %lld", static_cast<long long>(data[i]));
    else
      std::printf(" %g", static_cast<double>(static_cast<float>(data[i])));
  }
  std::printf("\n");
  CurrentCore().Scalar(n);
}
}  // namespace ascendc_sim
namespace AscendC {
template <typename T>
__aicore__ inline void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize, ASCENDC_SIM_LOC) {
  // The documentation bounds only the printed total (30 KB): more elements than the tensor holds
  // print the UB that follows it, which the device reads without complaint while it is UB.
  ASCENDC_SIM_CHECK(tensor.UbAddr() + static_cast<uint64_t>(dumpSize) * sizeof(T) <=
                        ascendc_sim::CurrentCore().Local().Size(ascendc_sim::LocalBuf::kUB),
                    loc, "DumpTensor of %u elements from UB address %u runs past the UB", dumpSize, tensor.UbAddr());
  ASCENDC_SIM_WARN_UNLESS(dumpSize <= tensor.GetSize(), loc,
                          "DumpTensor of %u elements from a %u-element tensor prints the UB after it", dumpSize,
                          tensor.GetSize());
  ascendc_sim::DumpValues("UB", desc, ascendc_sim::HostData(tensor), dumpSize);
}
template <typename T>
__aicore__ inline void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize, ASCENDC_SIM_LOC) {
  ASCENDC_SIM_CHECK(ascendc_sim::GmRangeValid(tensor.GetPhyAddr(), static_cast<uint64_t>(dumpSize) * sizeof(T)), loc,
                    "DumpTensor of %u elements at %s is outside every GM buffer", dumpSize,
                    ascendc_sim::DescribeGm(reinterpret_cast<uintptr_t>(tensor.GetPhyAddr())).c_str());
  ascendc_sim::DumpValues("GM", desc, ascendc_sim::HostData(tensor), dumpSize);
}

// ---- InitGlobalMemory: `size` elements of GM set to `value` ------------------------------------
// The library fills a UB buffer with Duplicate and writes it out on MTE3 (the caller orders later
// reads with a flag or SyncAll, as on the device); recorded as one MTE3 copy of the whole range.
template <typename T>
__aicore__ inline void InitGlobalMemory(const GlobalTensor<T>& gm, const uint64_t size, const T value,
                                        ASCENDC_SIM_LOC) {
  const uint64_t bytes = size * sizeof(T);
  uint8_t* addr = reinterpret_cast<uint8_t*>(gm.GetPhyAddr());
  ASCENDC_SIM_CHECK(ascendc_sim::GmRangeValid(addr, bytes), loc,
                    "InitGlobalMemory: GM range of %llu bytes at %s is outside every GM buffer",
                    static_cast<unsigned long long>(bytes),
                    ascendc_sim::DescribeGm(reinterpret_cast<uintptr_t>(addr)).c_str());
  ascendc_sim::Core& core = ascendc_sim::CurrentCore();
  ascendc_sim::Instr ins{};
  ins.pipe = PIPE_MTE3;
  ins.op = ascendc_sim::Op::kCopyUbToGm;
  ins.repeats = 1;
  ins.unitBytes = static_cast<uint32_t>(bytes);
  ins.gmAddr = reinterpret_cast<uintptr_t>(addr);
  ins.link = -1;
  ins.elements = bytes;
  ins.gmPitch = bytes;
  core.IssueAccesses(ins, loc, "InitGlobalMemory", nullptr, 0);
  core.GmAccess(PIPE_MTE3, ascendc_sim::GmPattern{ins.gmAddr, 1, static_cast<uint32_t>(bytes), bytes}, true, loc,
                "InitGlobalMemory");
  // Stored once the access is recorded, as every store is (a small write keeps the bytes before it).
  T* host = ascendc_sim::HostData(gm);
  for (uint64_t i = 0; i < size; ++i) host[i] = value;
}
// Its deprecated predecessor (the library fills GM the same way: a UB buffer out on MTE3).
template <typename T>
__aicore__ inline void InitOutput(GlobalTensor<T> gm, uint32_t size, T value = 0, ASCENDC_SIM_LOC) {
  InitGlobalMemory(gm, size, value, loc);
}

// ---- cross-core barrier ----------------------------------------------------------------------
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(ASCENDC_SIM_LOC) {
  ascendc_sim::CurrentCore().SyncAll(loc);
}
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                               const int32_t usedCores = 0, ASCENDC_SIM_LOC) {
  (void)gmWorkspace;
  (void)ubWorkspace;
  ascendc_sim::Core& core = ascendc_sim::CurrentCore();
  ASCENDC_SIM_CHECK(usedCores == 0 || usedCores == core.Spec().blockNum, loc,
                    "SyncAll(usedCores = %d) with %d blocks launched: only part of the blocks would meet", usedCores,
                    core.Spec().blockNum);
  core.SyncAll(loc);
}

}  // namespace AscendC
