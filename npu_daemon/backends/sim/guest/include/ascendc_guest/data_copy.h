// DataCopy and DataCopyPad between GM and local buffers (included by kernel_operator.h).
#pragma once

namespace ascendc_guest {
extern "C" {
ASCENDC_GUEST_IMPORT(copy_gm_ub)
void copy_gm_ub(Dtype t, int32_t toGm, uint32_t gm, int64_t gmSize, uint32_t ub, uint32_t ubSize, int32_t pos,
                uint32_t count, int32_t line);
ASCENDC_GUEST_IMPORT(copy_pad_gm_ub)
void copy_pad_gm_ub(Dtype t, int32_t toGm, uint32_t gm, int64_t gmSize, uint32_t ub, uint32_t ubSize, int32_t pos,
                    const void* params, const void* pad, int32_t line);
}
}  // namespace ascendc_guest

namespace AscendC {

struct DataCopyExtParams {
  DataCopyExtParams() = default;
  DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcStrideIn, uint32_t dstStrideIn, uint32_t rsvIn)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {}
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
};
template <typename T>
struct DataCopyPadExtParams {
  DataCopyPadExtParams() = default;
  DataCopyPadExtParams(bool isPadValue, uint8_t left, uint8_t right, T value)
      : isPad(isPadValue), leftPadding(left), rightPadding(right), paddingValue(value) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  T paddingValue = 0;
};

template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count, ASCENDC_GUEST_LINE) {
  ascendc_guest::copy_gm_ub(ascendc_guest::DtypeOf<T>(), 0, src.GmAddr(), static_cast<int64_t>(src.GetSize()),
                            dst.UbAddr(), dst.GetSize(), static_cast<int32_t>(dst.GetPosition()), count, line);
}
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count, ASCENDC_GUEST_LINE) {
  ascendc_guest::copy_gm_ub(ascendc_guest::DtypeOf<T>(), 1, dst.GmAddr(), static_cast<int64_t>(dst.GetSize()),
                            src.UbAddr(), src.GetSize(), static_cast<int32_t>(src.GetPosition()), count, line);
}
template <typename T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                 const DataCopyPadExtParams<T>& pad, ASCENDC_GUEST_LINE) {
  ascendc_guest::copy_pad_gm_ub(ascendc_guest::DtypeOf<T>(), 0, src.GmAddr(), static_cast<int64_t>(src.GetSize()),
                                dst.UbAddr(), dst.GetSize(), static_cast<int32_t>(dst.GetPosition()), &p, &pad, line);
}
template <typename T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p,
                 ASCENDC_GUEST_LINE) {
  ascendc_guest::copy_pad_gm_ub(ascendc_guest::DtypeOf<T>(), 1, dst.GmAddr(), static_cast<int64_t>(dst.GetSize()),
                                src.UbAddr(), src.GetSize(), static_cast<int32_t>(src.GetPosition()), &p, nullptr,
                                line);
}

}  // namespace AscendC
