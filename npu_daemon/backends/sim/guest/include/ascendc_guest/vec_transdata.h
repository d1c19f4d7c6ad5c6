// TransDataTo5HD (the scatter transpose over 16 address lists) and Transpose (one 16 x 16 matrix
// of 2-byte elements) (included by kernel_operator.h).
#pragma once

namespace ascendc_guest {
extern "C" {
// lists: 16 destination then 16 source UB byte addresses.
ASCENDC_GUEST_IMPORT(vec_trans_5hd)
void vec_trans_5hd(int32_t elemBytes, const uint32_t* lists, int32_t dstHighHalf, int32_t srcHighHalf,
                   int32_t repeatTimes, int32_t dstRepStride, int32_t srcRepStride, int32_t line);
ASCENDC_GUEST_IMPORT(vec_transpose)
void vec_transpose(Dtype t, uint32_t d, uint32_t dSize, uint32_t a, uint32_t aSize, int32_t line);
}
}  // namespace ascendc_guest

namespace AscendC {

constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

struct TransDataTo5HDParams {
  constexpr TransDataTo5HDParams() = default;
  constexpr TransDataTo5HDParams(bool dstHigh, bool srcHigh, uint8_t repeats, uint16_t dstRep, uint16_t srcRep)
      : dstHighHalf(dstHigh), srcHighHalf(srcHigh), repeatTimes(repeats), dstRepStride(dstRep), srcRepStride(srcRep) {}
  bool dstHighHalf = false;
  bool srcHighHalf = false;
  uint8_t repeatTimes = 1;
  uint16_t dstRepStride = 0;
  uint16_t srcRepStride = 0;
};

template <typename T>
void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams& p,
                    ASCENDC_GUEST_LINE) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "TransDataTo5HD takes 8-, 16- or 32-bit elements");
  uint32_t lists[2 * NCHW_CONV_ADDR_LIST_SIZE];
  for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i)
    lists[i] = dstList[i].UbAddr(), lists[NCHW_CONV_ADDR_LIST_SIZE + i] = srcList[i].UbAddr();
  ascendc_guest::vec_trans_5hd(sizeof(T), lists, p.dstHighHalf, p.srcHighHalf, p.repeatTimes, p.dstRepStride,
                               p.srcRepStride, line);
}

template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, ASCENDC_GUEST_LINE) {
  static_assert(sizeof(T) == 2, "Transpose (16 x 16) takes half, int16_t or uint16_t");
  ascendc_guest::vec_transpose(ascendc_guest::DtypeOf<T>(), dst.UbAddr(), dst.GetSize(), src.UbAddr(), src.GetSize(),
                               line);
}

}  // namespace AscendC
