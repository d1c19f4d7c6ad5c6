// Operator logging and checks of the CANN op base (opbase's op_common/log/log.h): OP_LOGE and its
// kin format like printf; errors go to stderr (a failed tiling's log), the other levels are off as
// in a default CANN log level. OP_CHECK_IF / OP_CHECK_NULL_WITH_CONTEXT run the action on failure.
#pragma once

#include <cstdio>
#include <string>

#include "ascendc_sim/host_context.h"
#include "securec.h"  // reached through the op base's headers in CANN

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

namespace Ops {
namespace Base {

// The op name a log line starts with: a context's node type, or the string given.
inline std::string OpInfo(const char* name) { return name == nullptr ? "nil" : name; }
inline std::string OpInfo(const std::string& name) { return name; }
template <typename Context>
std::string OpInfo(const Context* context) {
  return context == nullptr ? "nil" : OpInfo(context->GetNodeType());
}

inline std::string ToString(ge::DataType type) { return "DT(" + std::to_string(static_cast<int>(type)) + ")"; }
inline std::string ToString(ge::Format format) { return "FORMAT(" + std::to_string(static_cast<int>(format)) + ")"; }
inline std::string ToString(const gert::Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.GetDimNum(); ++i) s += (i ? ", " : "") + std::to_string(shape.GetDim(i));
  return s + "]";
}

}  // namespace Base
}  // namespace Ops

#define OP_LOGE(opName, fmt, ...) \
  std::fprintf(stderr, "[ERROR] %s: " fmt "\n", ::Ops::Base::OpInfo(opName).c_str(), ##__VA_ARGS__)
#define OP_LOGE_WITHOUT_REPORT(opName, ...) OP_LOGE(opName, __VA_ARGS__)
#define OP_LOGW(opName, ...) ((void)0)
#define OP_LOGI(opName, ...) ((void)0)
#define OP_LOGD(opName, ...) ((void)0)
#define OP_LOGE_WITH_INVALID_INPUT_DTYPE(opName, paramName, dataDtype, expectedDtypeList) \
  OP_LOGE(opName, "%s has incorrect dtype [%s], it should be %s.", paramName, dataDtype, expectedDtypeList)
#define OP_LOGE_WITH_INVALID_INPUT_SHAPE(opName, index, incorrectShape, correctShape) \
  OP_LOGE(opName, "input %d has incorrect shape [%s], it should be [%s].", static_cast<int>(index), incorrectShape, correctShape)
#define OP_LOGE_WITH_INVALID_ATTR(opName, attrName, incorrectVal, correctVal) \
  OP_LOGE(opName, "attr %s has incorrect value [%s], it should be [%s].", attrName, incorrectVal, correctVal)

#define OP_CHECK_IF(condition, log, return_expr) \
  do {                                           \
    if (unlikely(condition)) {                   \
      log;                                       \
      return_expr;                               \
    }                                            \
  } while (0)
#define OP_CHECK_NULL_WITH_CONTEXT(context, ptr)   \
  do {                                             \
    if (unlikely((ptr) == nullptr)) {              \
      OP_LOGE(context, "%s is nullptr!", #ptr);    \
      return ge::GRAPH_FAILED;                     \
    }                                              \
  } while (0)
