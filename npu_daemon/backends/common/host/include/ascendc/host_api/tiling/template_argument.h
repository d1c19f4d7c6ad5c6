// Template tiling keys (asc-devkit include/utils/tiling/template_argument.h). An op declares its
// kernel's template parameters with ASCENDC_TPL_ARGS_DECL and the combinations it builds with
// ASCENDC_TPL_SEL; the host encodes the values it picks into the tiling key with
// GET_TPL_TILING_KEY. Each declared parameter, in order, takes its bit width of the key from bit 0
// (UINT: the declared width, BOOL: 1, DTYPE/FORMAT: 8); a UINT encodes its index in the declared
// values, the others their value. One header, three readings:
// - ASCENDC_TPL_PRE: the `@@...@@` text the toolchain's generator (here
//   npu_daemon/backends/common/template_key.py) parses to instantiate the kernel per combination;
// - a kernel compile (ASCENDC_SIM_KERNEL): the declarations vanish;
// - the host: declarations and selections become tables, and a key outside every selection is a
//   TILING_ERROR here (the device would find no kernel binary for it).
#pragma once

#include <cstdint>

#include "graph/c_types.h"  // the C_DT_* values DTYPE parameters name, reachable as in CANN

#define ASCENDC_TPL_AIV_ONLY 0
#define ASCENDC_TPL_AIC_ONLY 1
#define ASCENDC_TPL_MIX_AIV_1_0 4
#define ASCENDC_TPL_MIX_AIC_1_0 5
#define ASCENDC_TPL_MIX_AIC_1_1 6
#define ASCENDC_TPL_MIX_AIC_1_2 7
#define ASCENDC_TPL_AICORE 8
#define ASCENDC_TPL_VECTORCORE 9
#define ASCENDC_TPL_MIX_AICORE 10
#define ASCENDC_TPL_MIX_VECTOR_CORE 11
#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_2_BW 2
#define ASCENDC_TPL_4_BW 4
#define ASCENDC_TPL_8_BW 8
#define ASCENDC_TPL_DTYPE 0
#define ASCENDC_TPL_FORMAT 1
#define ASCENDC_TPL_UINT 2
#define ASCENDC_TPL_BOOL 3
#define ASCENDC_TPL_KERNEL_TYPE 4
#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2
// A DTYPE declared as "the dtype of input / output x": resolved by the toolchain, never encoded.
#define ASCENDC_TPL_INPUT_BIAS 100000000
#define ASCENDC_TPL_OUTPUT_BIAS 900000000
#define ASCENDC_TPL_INPUT(x) (ASCENDC_TPL_INPUT_BIAS + (x))
#define ASCENDC_TPL_OUTPUT(x) (ASCENDC_TPL_OUTPUT_BIAS + (x))

// A combination's tiling data struct (the toolchain's per-key struct registration) and its
// deterministic flag select nothing a key encodes: the launch takes the struct the tiling fills,
// and every simulated kernel is deterministic. Empty in all three readings (a trailing comma in a
// selection list is dropped).
#define ASCENDC_TPL_TILING_STRUCT_SEL(...)
#define ASCENDC_TPL_DETERMINISTIC_SEL(...)

#if defined(ASCENDC_TPL_PRE)

// clang-format off
#define ASCENDC_TPL_DTYPE_DECL(x, ...) @@ASCENDC_TPL_DTYPE_DECL_##x@@ = {__VA_ARGS__}
#define ASCENDC_TPL_DATATYPE_DECL(x, ...) @@ASCENDC_TPL_DATATYPE_DECL_##x@@ = {__VA_ARGS__}
#define ASCENDC_TPL_FORMAT_DECL(x, ...) @@ASCENDC_TPL_FORMAT_DECL_##x@@ = {__VA_ARGS__}
#define ASCENDC_TPL_UINT_DECL(x, ...) @@ASCENDC_TPL_UINT_DECL_##x@@ = {__VA_ARGS__}
#define ASCENDC_TPL_BOOL_DECL(x, ...) @@ASCENDC_TPL_BOOL_DECL_##x@@ = {__VA_ARGS__}
#define ASCENDC_TPL_DTYPE_SEL(x, ...) @@ASCENDC_TPL_DTYPE_SEL_##x@@ = {__VA_ARGS__}
#define ASCENDC_TPL_DATATYPE_SEL(x, ...) @@ASCENDC_TPL_DATATYPE_SEL_##x@@ = {__VA_ARGS__}
#define ASCENDC_TPL_FORMAT_SEL(x, ...) @@ASCENDC_TPL_FORMAT_SEL_##x@@ = {__VA_ARGS__}
#define ASCENDC_TPL_UINT_SEL(x, ...) @@ASCENDC_TPL_UINT_SEL_##x@@ = {__VA_ARGS__}
#define ASCENDC_TPL_BOOL_SEL(x, ...) @@ASCENDC_TPL_BOOL_SEL_##x@@ = {__VA_ARGS__}
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...) @@ASCENDC_TPL_KERNEL_TYPE_SEL@@ = {__VA_ARGS__}
#define ASCENDC_TPL_ARGS_DECL(x, ...) @@ASCENDC_TPL_ARGS_DECL_##x@@ = {__VA_ARGS__}
#define ASCENDC_TPL_ARGS_SEL(...) @@{__VA_ARGS__}
#define ASCENDC_TPL_SEL(...) @@ASCENDC_TPL_LISTS@@ = {__VA_ARGS__}
// clang-format on

#elif defined(ASCENDC_SIM_KERNEL)

#define ASCENDC_TPL_DTYPE_DECL(...)
#define ASCENDC_TPL_DATATYPE_DECL(...)
#define ASCENDC_TPL_FORMAT_DECL(...)
#define ASCENDC_TPL_UINT_DECL(...)
#define ASCENDC_TPL_BOOL_DECL(...)
#define ASCENDC_TPL_DTYPE_SEL(...)
#define ASCENDC_TPL_DATATYPE_SEL(...)
#define ASCENDC_TPL_FORMAT_SEL(...)
#define ASCENDC_TPL_UINT_SEL(...)
#define ASCENDC_TPL_BOOL_SEL(...)
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...)
#define ASCENDC_TPL_ARGS_DECL(...)
#define ASCENDC_TPL_ARGS_SEL(...)
#define ASCENDC_TPL_SEL(...)

#else

#include <initializer_list>
#include <vector>

namespace ascendc_sim {
namespace tpl {

// One declared or selected parameter; a UINT's values are kept expanded (ranges unrolled).
struct Param {
  const char* name;
  uint32_t type;
  uint32_t bitWidth;
  std::vector<uint64_t> values;
};
// {flag, ...}: UI_LIST values; UI_RANGE {n, lo1, hi1, ...}; UI_MIX the ranges, then listed values.
std::vector<uint64_t> UintValues(std::initializer_list<uint64_t> spelled);
// The key of `args` (one per declared parameter, in order); a TILING_ERROR for a UINT value not
// declared. Whether a kernel is built for the key is the launch's to say (no kernel instance).
uint64_t EncodeKey(const std::vector<Param>& declared, std::initializer_list<uint64_t> args);

}  // namespace tpl
}  // namespace ascendc_sim

#define ASCENDC_TPL_DTYPE_DECL(x, ...)        \
  ::ascendc_sim::tpl::Param {                 \
    #x, ASCENDC_TPL_DTYPE, 8, { __VA_ARGS__ } \
  }
#define ASCENDC_TPL_DATATYPE_DECL(x, ...) ASCENDC_TPL_DTYPE_DECL(x, __VA_ARGS__)
#define ASCENDC_TPL_FORMAT_DECL(x, ...)        \
  ::ascendc_sim::tpl::Param {                  \
    #x, ASCENDC_TPL_FORMAT, 8, { __VA_ARGS__ } \
  }
#define ASCENDC_TPL_UINT_DECL(x, bw, ...) \
  ::ascendc_sim::tpl::Param { #x, ASCENDC_TPL_UINT, bw, ::ascendc_sim::tpl::UintValues({__VA_ARGS__}) }
#define ASCENDC_TPL_BOOL_DECL(x, ...)        \
  ::ascendc_sim::tpl::Param {                \
    #x, ASCENDC_TPL_BOOL, 1, { __VA_ARGS__ } \
  }
#define ASCENDC_TPL_ARGS_DECL(x, ...) \
  [[maybe_unused]] static const std::vector<::ascendc_sim::tpl::Param> g_tilingDeclareParams { __VA_ARGS__ }
// The release toolkit's host (asc-devkit, ASCENDC_DEBUG undefined) compiles no selection: its
// list is the device build's (ASCENDC_TPL_PRE), and may name values the host never defines.
#define ASCENDC_TPL_SEL(...)
#define GET_TPL_TILING_KEY(...) ::ascendc_sim::tpl::EncodeKey(g_tilingDeclareParams, {__VA_ARGS__})
#define ASCENDC_TPL_SEL_PARAM(context, ...)                   \
  do {                                                        \
    uint64_t ascendcTplKey = GET_TPL_TILING_KEY(__VA_ARGS__); \
    (context)->SetTilingKey(ascendcTplKey);                   \
  } while (0)

#endif
