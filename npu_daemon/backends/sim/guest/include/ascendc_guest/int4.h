// Cast between half and int4b_t (included by kernel_operator.h after vector.h), count form: two
// int4b_t elements share a byte, so the int4 side's tensor crosses as its byte address and element
// count, served by the native engine's CastInt4.
#pragma once

namespace ascendc_guest {
ASCENDC_GUEST_IMPORT(vec_cast_int4)
void vec_cast_int4(int32_t toInt4, int32_t round, uint32_t dst, uint32_t dstSize, int32_t dstPos, uint32_t src,
                   uint32_t srcSize, int32_t srcPos, uint32_t count, int32_t line);
}  // namespace ascendc_guest

namespace AscendC {

inline void Cast(const LocalTensor<int4b_t>& d, const LocalTensor<half>& a, const RoundMode& round, uint32_t count,
                 ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_cast_int4(1, static_cast<int32_t>(round), d.UbAddr(), d.GetSize(),
                               static_cast<int32_t>(d.GetPosition()), a.UbAddr(), a.GetSize(),
                               static_cast<int32_t>(a.GetPosition()), count, line);
}
inline void Cast(const LocalTensor<half>& d, const LocalTensor<int4b_t>& a, const RoundMode& round, uint32_t count,
                 ASCENDC_GUEST_LINE) {
  ascendc_guest::vec_cast_int4(0, static_cast<int32_t>(round), d.UbAddr(), d.GetSize(),
                               static_cast<int32_t>(d.GetPosition()), a.UbAddr(), a.GetSize(),
                               static_cast<int32_t>(a.GetPosition()), count, line);
}

}  // namespace AscendC
