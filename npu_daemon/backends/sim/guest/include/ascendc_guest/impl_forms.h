// The library's internal forms on raw pointers (kernel_operator_vec_duplicate_impl.h,
// kernel_operator_data_copy_impl.h) that some kernels call directly: the tensor forms on a tensor
// at the pointer's UB address, which the host checks as it checks every tensor handle.
#pragma once

namespace ascendc_guest {
// The UB byte address of a __ubuf__ pointer: GetPhyAddr's kUbBase + address, or the bare address.
template <typename T>
uint32_t UbAddrOf(__ubuf__ T* p) {
  const uint32_t a = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p));
  return a >= kUbBase ? a - kUbBase : a;
}
}  // namespace ascendc_guest

namespace AscendC {

template <typename T>
void DuplicateImpl(__ubuf__ T* dst, const T& scalar, const int32_t& count, ASCENDC_GUEST_LINE) {
  Duplicate(LocalTensor<T>(ascendc_guest::UbAddrOf(dst), static_cast<uint32_t>(count), TPosition::VECCALC), scalar,
            count, line);
}
template <typename T, bool isSetMask = true, typename M>
void DuplicateImpl(__ubuf__ T* dst, const T& scalar, M mask, const uint8_t repeatTime, const uint16_t dstBlockStride,
                   const uint8_t dstRepeatStride, ASCENDC_GUEST_LINE) {
  const uint32_t span = (repeatTime * dstRepeatStride + 8u * dstBlockStride) * (32u / sizeof(T));
  Duplicate<T, isSetMask>(LocalTensor<T>(ascendc_guest::UbAddrOf(dst), span, TPosition::VECCALC), scalar, mask,
                          repeatTime, dstBlockStride, dstRepeatStride, line);
}
template <typename T>
void DataCopyUB2GMImpl(__gm__ T* dst, __ubuf__ T* src, const DataCopyParams& p, ASCENDC_GUEST_LINE) {
  GlobalTensor<T> gm;
  gm.SetGlobalBuffer(dst);
  const uint32_t span = p.blockCount * (p.blockLen + p.srcStride) * 32u / sizeof(T);
  DataCopy(gm, LocalTensor<T>(ascendc_guest::UbAddrOf(src), span, TPosition::VECOUT), p, line);
}

// DataCopyPad's raw-pointer forms: the tensor forms on a UB tensor spanning every row the copy
// touches (each row's bytes and padding rounded up to 32 B, and the UB-side gap in 32 B blocks).
template <typename T>
void DataCopyPadGm2UBImpl(__ubuf__ T* dst, __gm__ T* src, const DataCopyExtParams& p,
                          const DataCopyPadExtParams<T>& pad, ASCENDC_GUEST_LINE) {
  GlobalTensor<T> gm;
  gm.SetGlobalBuffer(src);
  const uint32_t rowBytes = p.blockLen + (pad.leftPadding + pad.rightPadding) * sizeof(T);
  const uint32_t span = p.blockCount * ((rowBytes + 31) / 32 + p.dstStride) * 32u / sizeof(T);
  DataCopyPad(LocalTensor<T>(ascendc_guest::UbAddrOf(dst), span, TPosition::VECIN), gm, p, pad, line);
}
template <typename T>
void DataCopyPadGm2UBImpl(__ubuf__ T* dst, __gm__ T* src, const DataCopyParams& p, const DataCopyPadParams& pad,
                          ASCENDC_GUEST_LINE) {
  DataCopyPadGm2UBImpl(
      dst, src, DataCopyExtParams{p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0},
      DataCopyPadExtParams<T>{pad.isPad, pad.leftPadding, pad.rightPadding, static_cast<T>(pad.paddingValue)}, line);
}
template <typename T>
void DataCopyPadUB2GMImpl(__gm__ T* dst, __ubuf__ T* src, const DataCopyExtParams& p, ASCENDC_GUEST_LINE) {
  GlobalTensor<T> gm;
  gm.SetGlobalBuffer(dst);
  const uint32_t span = p.blockCount * ((p.blockLen + 31) / 32 + p.srcStride) * 32u / sizeof(T);
  DataCopyPad(gm, LocalTensor<T>(ascendc_guest::UbAddrOf(src), span, TPosition::VECOUT), p, line);
}
template <typename T>
void DataCopyPadUB2GMImpl(__gm__ T* dst, __ubuf__ T* src, const DataCopyParams& p, ASCENDC_GUEST_LINE) {
  DataCopyPadUB2GMImpl(dst, src, DataCopyExtParams{p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0}, line);
}

}  // namespace AscendC
