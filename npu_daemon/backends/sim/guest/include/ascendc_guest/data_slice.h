// DataCopy with SliceInfo (included by kernel_operator.h): pieces of a multi-dimensional tensor
// between GM and a local buffer, one DMA per piece row. The slice records cross as guest pointers
// (SliceInfo, ascendc_guest/params.h: the layout the host reads).
#pragma once

namespace ascendc_guest {
ASCENDC_GUEST_IMPORT(copy_slice)
void copy_slice(Dtype t, int32_t toGm, uint32_t gm, int64_t gmSize, int32_t cache, uint32_t ub, uint32_t ubSize,
                int32_t pos, const AscendC::SliceInfo* gmSlice, const AscendC::SliceInfo* ubSlice, uint32_t dims,
                int32_t line);
}  // namespace ascendc_guest

namespace AscendC {

template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1, ASCENDC_GUEST_LINE) {
  ascendc_guest::copy_slice(ascendc_guest::DtypeOf<T>(), 0, src.GmAddr(), static_cast<int64_t>(src.GetSize()),
                            ascendc_guest::CacheOf(src), dst.UbAddr(), dst.GetSize(),
                            static_cast<int32_t>(dst.GetPosition()), srcSliceInfo, dstSliceInfo, dimValue, line);
}
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1, ASCENDC_GUEST_LINE) {
  ascendc_guest::copy_slice(ascendc_guest::DtypeOf<T>(), 1, dst.GmAddr(), static_cast<int64_t>(dst.GetSize()),
                            ascendc_guest::CacheOf(dst), src.UbAddr(), src.GetSize(),
                            static_cast<int32_t>(src.GetPosition()), dstSliceInfo, srcSliceInfo, dimValue, line);
}

}  // namespace AscendC
