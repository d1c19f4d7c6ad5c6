// Data movement (included by kernel_operator.h): DataCopy and DataCopyPad between GM and local
// buffers and UB to UB, in the count and parameter forms; the pad value and atomic registers.
// Parameter structs cross as guest pointers: the host reads them with the same layout.
#pragma once

namespace ascendc_guest {
ASCENDC_GUEST_IMPORT(copy_gm_ub)
void copy_gm_ub(Dtype t, int32_t toGm, uint32_t gm, int64_t gmSize, int32_t cache, uint32_t ub, uint32_t ubSize,
                int32_t pos, uint32_t count, int32_t line);
ASCENDC_GUEST_IMPORT(copy_blocks_gm_ub)
void copy_blocks_gm_ub(Dtype t, int32_t toGm, uint32_t gm, int64_t gmSize, int32_t cache, uint32_t ub, uint32_t ubSize,
                       int32_t pos, const void* params, int32_t line);
ASCENDC_GUEST_IMPORT(copy_pad_gm_ub)
void copy_pad_gm_ub(Dtype t, int32_t toGm, uint32_t gm, int64_t gmSize, int32_t cache, uint32_t ub, uint32_t ubSize,
                    int32_t pos, int32_t legacy, const void* params, const void* pad, int32_t line);
ASCENDC_GUEST_IMPORT(copy_ub_ub)
void copy_ub_ub(Dtype t, uint32_t dst, uint32_t dstSize, int32_t dstPos, uint32_t src, uint32_t srcSize, int32_t srcPos,
                const void* params, uint32_t count, int32_t line);
ASCENDC_GUEST_IMPORT(copy_l1_bt)
void copy_l1_bt(Dtype dstType, Dtype srcType, uint32_t dst, uint32_t dstSize, int32_t dstPos, uint32_t src,
                uint32_t srcSize, int32_t srcPos, const void* params, int32_t line);
ASCENDC_GUEST_IMPORT(set_pad_value) void set_pad_value(int64_t bits);
ASCENDC_GUEST_IMPORT(set_atomic) void set_atomic(Dtype t, AtomicOp op);
ASCENDC_GUEST_IMPORT(init_gm)
void init_gm(Dtype t, uint32_t gm, int64_t gmSize, int64_t count, int64_t bits, int32_t line);
ASCENDC_GUEST_IMPORT(data_cache_clean) void data_cache_clean(uint32_t gm, int32_t entire);
ASCENDC_GUEST_IMPORT(data_cache_preload) void data_cache_preload(uint32_t gm, int64_t offset, int32_t line);

// A copy moves whole bytes: int4b_t tensors (two elements a byte) cross as their bytes, so every
// other layer sees uint8 elements and the element counts halve.
template <typename T>
constexpr Dtype CopyDtype() {
  if constexpr (kHalfByte<T>)
    return Dtype::kU8;
  else
    return DtypeOf<T>();
}
template <typename T>
uint32_t CopyCount(uint32_t elems) {
  return kHalfByte<T> ? elems / 2 : elems;
}
template <typename T>
int64_t CopySize(const AscendC::GlobalTensor<T>& g) {
  return static_cast<int64_t>(kHalfByte<T> ? g.GetSize() / 2 : g.GetSize());
}
template <typename T>
uint32_t CopySize(const AscendC::LocalTensor<T>& l) {
  return CopyCount<T>(l.GetSize());
}
template <typename T>
int32_t CacheOf(const AscendC::GlobalTensor<T>& g) {
  return static_cast<int32_t>(g.GetCacheMode());
}
template <typename T>
void Atomic(AtomicOp op) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
                    std::is_same_v<T, int8_t> || std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t>,
                "atomic GM updates support float, half, bfloat16_t, int8_t, int16_t, int32_t");
  set_atomic(DtypeOf<T>(), op);
}
}  // namespace ascendc_guest

namespace AscendC {

// ---- GM <-> local: count form (whole 32 B blocks) and DataCopyParams form ----------------------
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count, ASCENDC_GUEST_LINE) {
  ascendc_guest::copy_gm_ub(ascendc_guest::CopyDtype<T>(), 0, src.GmAddr(), ascendc_guest::CopySize(src),
                            ascendc_guest::CacheOf(src), dst.UbAddr(), ascendc_guest::CopySize(dst),
                            static_cast<int32_t>(dst.GetPosition()), ascendc_guest::CopyCount<T>(count), line);
}
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count, ASCENDC_GUEST_LINE) {
  ascendc_guest::copy_gm_ub(ascendc_guest::CopyDtype<T>(), 1, dst.GmAddr(), ascendc_guest::CopySize(dst),
                            ascendc_guest::CacheOf(dst), src.UbAddr(), ascendc_guest::CopySize(src),
                            static_cast<int32_t>(src.GetPosition()), ascendc_guest::CopyCount<T>(count), line);
}
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p, ASCENDC_GUEST_LINE) {
  ascendc_guest::copy_blocks_gm_ub(ascendc_guest::CopyDtype<T>(), 0, src.GmAddr(), ascendc_guest::CopySize(src),
                                   ascendc_guest::CacheOf(src), dst.UbAddr(), ascendc_guest::CopySize(dst),
                                   static_cast<int32_t>(dst.GetPosition()), &p, line);
}
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, ASCENDC_GUEST_LINE) {
  ascendc_guest::copy_blocks_gm_ub(ascendc_guest::CopyDtype<T>(), 1, dst.GmAddr(), ascendc_guest::CopySize(dst),
                                   ascendc_guest::CacheOf(dst), src.UbAddr(), ascendc_guest::CopySize(src),
                                   static_cast<int32_t>(src.GetPosition()), &p, line);
}

// ---- DataCopyPad: byte lengths, each UB row padded to 32 B -------------------------------------
template <typename T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                 const DataCopyPadExtParams<T>& pad, ASCENDC_GUEST_LINE) {
  ascendc_guest::copy_pad_gm_ub(ascendc_guest::CopyDtype<T>(), 0, src.GmAddr(), ascendc_guest::CopySize(src),
                                ascendc_guest::CacheOf(src), dst.UbAddr(), ascendc_guest::CopySize(dst),
                                static_cast<int32_t>(dst.GetPosition()), 0, &p, &pad, line);
}
template <typename T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p,
                 ASCENDC_GUEST_LINE) {
  ascendc_guest::copy_pad_gm_ub(ascendc_guest::CopyDtype<T>(), 1, dst.GmAddr(), ascendc_guest::CopySize(dst),
                                ascendc_guest::CacheOf(dst), src.UbAddr(), ascendc_guest::CopySize(src),
                                static_cast<int32_t>(src.GetPosition()), 0, &p, nullptr, line);
}
// The legacy forms: DataCopyParams (blockLen in bytes here) and DataCopyPadParams.
template <typename T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                 const DataCopyPadParams& pad, ASCENDC_GUEST_LINE) {
  ascendc_guest::copy_pad_gm_ub(ascendc_guest::CopyDtype<T>(), 0, src.GmAddr(), ascendc_guest::CopySize(src),
                                ascendc_guest::CacheOf(src), dst.UbAddr(), ascendc_guest::CopySize(dst),
                                static_cast<int32_t>(dst.GetPosition()), 1, &p, &pad, line);
}
template <typename T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, ASCENDC_GUEST_LINE) {
  ascendc_guest::copy_pad_gm_ub(ascendc_guest::CopyDtype<T>(), 1, dst.GmAddr(), ascendc_guest::CopySize(dst),
                                ascendc_guest::CacheOf(dst), src.UbAddr(), ascendc_guest::CopySize(src),
                                static_cast<int32_t>(src.GetPosition()), 1, &p, nullptr, line);
}
// The value DataCopyPad (GM -> VECIN/VECOUT, isPad false) writes into each row's 32 B tail.
template <typename T, TPosition pos = TPosition::MAX>
void SetPadValue(T paddingValue) {
  static_assert(sizeof(T) <= 8, "SetPadValue takes a scalar of at most 8 bytes");
  ascendc_guest::set_pad_value(ascendc_guest::BitsOf(paddingValue));
}

// ---- UB -> UB on PIPE_V: DataCopyParams form and count form ------------------------------------
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, ASCENDC_GUEST_LINE) {
  ascendc_guest::copy_ub_ub(ascendc_guest::CopyDtype<T>(), dst.UbAddr(), ascendc_guest::CopySize(dst),
                            static_cast<int32_t>(dst.GetPosition()), src.UbAddr(), ascendc_guest::CopySize(src),
                            static_cast<int32_t>(src.GetPosition()), &p, 0, line);
}
// L1 -> bias table with the element type converted (half -> float): asc-devkit's two-type
// prototype. Naming one type twice is the same-type copy above, as a deduced call picks it.
template <typename D, typename S>
void DataCopy(const LocalTensor<D>& dst, const LocalTensor<S>& src, const DataCopyParams& p, ASCENDC_GUEST_LINE) {
  if constexpr (std::is_same_v<D, S>)
    DataCopy<D>(dst, src, p, line);
  else
    ascendc_guest::copy_l1_bt(ascendc_guest::DtypeOf<D>(), ascendc_guest::DtypeOf<S>(), dst.UbAddr(),
                              ascendc_guest::CopySize(dst), static_cast<int32_t>(dst.GetPosition()), src.UbAddr(),
                              ascendc_guest::CopySize(src), static_cast<int32_t>(src.GetPosition()), &p, line);
}
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count, ASCENDC_GUEST_LINE) {
  ascendc_guest::copy_ub_ub(ascendc_guest::CopyDtype<T>(), dst.UbAddr(), ascendc_guest::CopySize(dst),
                            static_cast<int32_t>(dst.GetPosition()), src.UbAddr(), ascendc_guest::CopySize(src),
                            static_cast<int32_t>(src.GetPosition()), nullptr, ascendc_guest::CopyCount<T>(count), line);
}

// ---- atomics: the GM read-modify-write of later UB -> GM copies --------------------------------
template <typename T>
void SetAtomicType() {
  ascendc_guest::Atomic<T>(ascendc_guest::AtomicOp::kKeep);
}
template <typename T>
void SetAtomicAdd() {
  ascendc_guest::Atomic<T>(ascendc_guest::AtomicOp::kAdd);
}
template <typename T>
void SetAtomicMax() {
  ascendc_guest::Atomic<T>(ascendc_guest::AtomicOp::kMax);
}
template <typename T>
void SetAtomicMin() {
  ascendc_guest::Atomic<T>(ascendc_guest::AtomicOp::kMin);
}
inline void SetAtomicNone() { ascendc_guest::set_atomic(ascendc_guest::Dtype::kF32, ascendc_guest::AtomicOp::kNone); }

// ---- the scalar unit's data cache: the line at the tensor, or every line, leaves it; or a line is preloaded
enum class CacheLine : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
template <typename T, CacheLine entire, DcciDst dst = DcciDst::CACHELINE_OUT>
void DataCacheCleanAndInvalid(const GlobalTensor<T>& t) {
  ascendc_guest::data_cache_clean(t.GmAddr(), entire == CacheLine::ENTIRE_DATA_CACHE);
}
template <typename T, CacheLine entire, DcciDst dst = DcciDst::CACHELINE_OUT>
void DataCacheCleanAndInvalid(const LocalTensor<T>&) {}
// DataCachePreload: the host checks the byte at `cacheOffset` of `src` is in a GM buffer of the launch.
template <typename T>
void DataCachePreload(const GlobalTensor<uint64_t>& src, const T cacheOffset, ASCENDC_GUEST_LINE) {
  static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, int64_t>,
                "DataCachePreload takes an int16_t or int64_t byte offset");
  ascendc_guest::data_cache_preload(src.GmAddr(), static_cast<int64_t>(cacheOffset), line);
}

// ---- InitGlobalMemory: `size` elements of GM set to `value` (one MTE3 copy) ----------------------
template <typename T>
void InitGlobalMemory(const GlobalTensor<T>& gm, uint64_t size, T value, ASCENDC_GUEST_LINE) {
  ascendc_guest::init_gm(ascendc_guest::DtypeOf<T>(), gm.GmAddr(), static_cast<int64_t>(gm.GetSize()),
                         static_cast<int64_t>(size), ascendc_guest::BitsOf(value), line);
}
template <typename T>
void InitOutput(GlobalTensor<T> gm, uint32_t size, T value = 0, ASCENDC_GUEST_LINE) {
  InitGlobalMemory(gm, size, value, line);
}

}  // namespace AscendC
