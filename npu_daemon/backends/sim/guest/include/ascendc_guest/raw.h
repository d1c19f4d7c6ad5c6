// Raw __gm__ / __ubuf__ pointers (docs/trust_boundary.md). The kernel does not call these imports:
// the build rewrites every load, store, memcpy and memset through a pointer of either address space
// into one of them (guest_ir.py), and the host charges each element as GetValue / SetValue.
// `space` is an ascendc_guest::RawSpace, `elem` the bytes of one charged access of a copy or fill.
#pragma once

namespace ascendc_guest {
ASCENDC_GUEST_IMPORT(raw_load) int64_t raw_load(int32_t space, uint32_t addr, int32_t bytes);
ASCENDC_GUEST_IMPORT(raw_store) void raw_store(int32_t space, uint32_t addr, int32_t bytes, int64_t bits);
ASCENDC_GUEST_IMPORT(raw_copy)
void raw_copy(int32_t dstSpace, uint32_t dst, int32_t srcSpace, uint32_t src, uint32_t bytes, int32_t elem);
ASCENDC_GUEST_IMPORT(raw_fill)
void raw_fill(int32_t space, uint32_t addr, int32_t byte, uint32_t bytes, int32_t elem);
}  // namespace ascendc_guest
