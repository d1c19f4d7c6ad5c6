// TransDataTo5HD, the scatter transpose over 16 address lists (included by kernel_operator.h; the
// 16 x 16 Transpose is the elementwise family's, vector.h).
#pragma once

namespace ascendc_guest {
// lists: 16 destination then 16 source UB byte addresses.
ASCENDC_GUEST_IMPORT(vec_trans_5hd)
void vec_trans_5hd(int32_t elemBytes, const uint32_t* lists, int32_t dstHighHalf, int32_t srcHighHalf,
                   int32_t repeatTimes, int32_t dstRepStride, int32_t srcRepStride, int32_t line);
// The address lists stored in the UB: 16 uint64_t entries at each of dstList and srcList.
ASCENDC_GUEST_IMPORT(vec_trans_5hd_ub)
void vec_trans_5hd_ub(int32_t elemBytes, uint32_t dstList, uint32_t dstListSize, uint32_t srcList, uint32_t srcListSize,
                      int32_t dstHighHalf, int32_t srcHighHalf, int32_t repeatTimes, int32_t dstRepStride,
                      int32_t srcRepStride, int32_t line);
// The register form: set_va_reg_sb's eight pointer values into VA register `reg` (kept by the host),
// and the transpose on the 16 destinations of VA registers dstReg, dstReg + 1 and the 16 sources of
// srcReg, srcReg + 1, which the host resolves and holds to the UB.
ASCENDC_GUEST_IMPORT(vec_set_va) void vec_set_va(int32_t reg, const uint64_t* values, int32_t line);
ASCENDC_GUEST_IMPORT(vec_trans_5hd_va)
void vec_trans_5hd_va(int32_t elemBytes, int32_t dstReg, int32_t srcReg, int32_t dstHighHalf, int32_t srcHighHalf,
                      int32_t repeatTimes, int32_t dstRepStride, int32_t srcRepStride, int32_t line);
}  // namespace ascendc_guest

namespace ascendc_guest {

// The address-list forms take UB pointer values (a LocalTensor's GetPhyAddr(), kUbBase + its UB
// byte address, or the bare address): the host holds each to a block of the UB.
template <typename T>
void TransDataTo5HDCall(const uint32_t (&lists)[2 * AscendC::NCHW_CONV_ADDR_LIST_SIZE],
                        const AscendC::TransDataTo5HDParams& p, int32_t line) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "TransDataTo5HD takes 8-, 16- or 32-bit elements");
  vec_trans_5hd(sizeof(T), lists, p.dstHighHalf, p.srcHighHalf, p.repeatTimes, p.dstRepStride, p.srcRepStride, line);
}
// An address past 32 bits is no UB address: the host refuses the one it becomes.
inline uint32_t UbAddressOf(uint64_t a) { return a >> 32 ? UINT32_MAX : static_cast<uint32_t>(a); }

}  // namespace ascendc_guest

namespace AscendC {

template <typename T>
void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams& p,
                    ASCENDC_GUEST_LINE) {
  uint32_t lists[2 * NCHW_CONV_ADDR_LIST_SIZE];
  for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i)
    lists[i] = dstList[i].UbAddr(), lists[NCHW_CONV_ADDR_LIST_SIZE + i] = srcList[i].UbAddr();
  ascendc_guest::TransDataTo5HDCall<T>(lists, p, line);
}
template <typename T>
void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& p, ASCENDC_GUEST_LINE) {
  uint32_t lists[2 * NCHW_CONV_ADDR_LIST_SIZE];
  for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i)
    lists[i] = ascendc_guest::UbAddressOf(dstList[i]),
    lists[NCHW_CONV_ADDR_LIST_SIZE + i] = ascendc_guest::UbAddressOf(srcList[i]);
  ascendc_guest::TransDataTo5HDCall<T>(lists, p, line);
}
template <typename T>
void TransDataTo5HD(const LocalTensor<uint64_t>& dstList, const LocalTensor<uint64_t>& srcList,
                    const TransDataTo5HDParams& p, ASCENDC_GUEST_LINE) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "TransDataTo5HD takes 8-, 16- or 32-bit elements");
  ascendc_guest::vec_trans_5hd_ub(sizeof(T), dstList.UbAddr(), dstList.GetSize(), srcList.UbAddr(), srcList.GetSize(),
                                  p.dstHighHalf, p.srcHighHalf, p.repeatTimes, p.dstRepStride, p.srcRepStride, line);
}
// The library's internal forms (kernel_operator_vec_transpose_impl.h), which kernels call directly.
template <typename T>
void TransDataTo5HDImpl(__ubuf__ T* dstList[NCHW_CONV_ADDR_LIST_SIZE], __ubuf__ T* srcList[NCHW_CONV_ADDR_LIST_SIZE],
                        const TransDataTo5HDParams& p, ASCENDC_GUEST_LINE) {
  uint32_t lists[2 * NCHW_CONV_ADDR_LIST_SIZE];
  for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i)
    lists[i] = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(dstList[i])),
    lists[NCHW_CONV_ADDR_LIST_SIZE + i] = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(srcList[i]));
  ascendc_guest::TransDataTo5HDCall<T>(lists, p, line);
}
template <typename T>
void TransDataTo5HDImpl(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                        const TransDataTo5HDParams& p, ASCENDC_GUEST_LINE) {
  TransDataTo5HD<T>(dstList, srcList, p, line);
}

}  // namespace AscendC

// ---- the CCE intrinsics of the register form (as the native engine's, ascendc_sim/vec_transdata.h) ----
enum ub_addr8_t : uint8_t { VA0 = 0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 };
inline void set_va_reg_sb(ub_addr8_t reg, const uint64_t* array, ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_set_va(reg, array, line);
}
inline void scatter_vnchwconv_b8(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride, uint16_t srcStride,
                                 bool dstHighHalf, bool srcHighHalf, ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_trans_5hd_va(1, dst, src, dstHighHalf, srcHighHalf, repeat, dstStride, srcStride, line);
}
inline void scatter_vnchwconv_b16(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride,
                                  uint16_t srcStride, ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_trans_5hd_va(2, dst, src, 0, 0, repeat, dstStride, srcStride, line);
}
inline void scatter_vnchwconv_b32(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride,
                                  uint16_t srcStride, ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_trans_5hd_va(4, dst, src, 0, 0, repeat, dstStride, srcStride, line);
}
