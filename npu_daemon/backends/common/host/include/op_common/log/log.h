// Operator logging and checks of the CANN op base (opbase's op_common/log/log.h): OP_LOGE and its
// kin format like printf; errors go to stderr (a failed tiling's log), the other levels are off as
// in a default CANN log level. OP_CHECK_IF / OP_CHECK_NULL_WITH_CONTEXT run the action on failure;
// the predefined reports (OP_LOGE_WITH_*, OP_LOGE_FOR_*) only log.
#pragma once

#include <cstdio>
#include <initializer_list>
#include <string>
#include <type_traits>

#include "ascendc_sim/host_context.h"
#include "graph/utils/type_utils.h"
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
// The aclnn layer's log (aclnn/opdev/op_log.h) starts a line with its error code instead.
template <typename Code, std::enable_if_t<std::is_integral_v<Code> || std::is_enum_v<Code>, int> = 0>
std::string OpInfo(Code code) {
  return "error " + std::to_string(static_cast<long long>(code));
}
template <typename Context>
std::string OpInfo(const Context* context) {
  return context == nullptr ? "nil" : OpInfo(context->GetNodeType());
}

inline std::string ToString(ge::DataType type) { return ge::TypeUtils::DataTypeToSerialString(type); }
inline std::string ToString(ge::Format format) { return ge::TypeUtils::FormatToSerialString(format); }
inline std::string ToString(const gert::Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.GetDimNum(); ++i) s += (i ? ", " : "") + std::to_string(shape.GetDim(i));
  return s + "]";
}

// One line of a predefined report: each "{}" of text takes the next argument.
inline void LogReport(const std::string& entity, const char* text, std::initializer_list<std::string> args) {
  std::string line;
  auto arg = args.begin();
  for (const char* c = text; *c != '\0'; ++c) {
    if (c[0] == '{' && c[1] == '}' && arg != args.end()) {
      line += *arg++;
      ++c;
    } else {
      line += *c;
    }
  }
  std::fprintf(stderr, "[ERROR] %s: %s.\n", entity.c_str(), line.c_str());
}

}  // namespace Base
}  // namespace Ops

// The log levels and module id of CANN's dlog, which the D_OP_LOG* forms take.
#ifndef DLOG_DEBUG
#define DLOG_DEBUG 0
#endif
#ifndef DLOG_INFO
#define DLOG_INFO 1
#endif
#ifndef DLOG_WARN
#define DLOG_WARN 2
#endif
#ifndef DLOG_ERROR
#define DLOG_ERROR 3
#endif
#ifndef OP_SUBMOD_NAME
#define OP_SUBMOD_NAME "OPS_BASE"
#endif
constexpr int32_t OP_MODULE_ID = 63;

#define OP_LOGE(opName, fmt, ...) \
  std::fprintf(stderr, "[ERROR] %s: " fmt "\n", ::Ops::Base::OpInfo(opName).c_str(), ##__VA_ARGS__)
#define OP_LOGE_WITHOUT_REPORT(opName, ...) OP_LOGE(opName, __VA_ARGS__)
#define OP_LOGE_LIBOPAPI_REPORT(opName, ...) OP_LOGE(opName, __VA_ARGS__)
#define OP_LOGW(opName, ...) ((void)0)
#define OP_LOGI(opName, ...) ((void)0)
#define OP_LOGD(opName, ...) ((void)0)
// The op base's direct forms under the same levels: errors to stderr, the rest off.
#define D_OP_LOGE(opName, fmt, ...) OP_LOGE(opName, fmt, ##__VA_ARGS__)
#define D_OP_LOGW(opName, fmt, ...) ((void)0)
#define D_OP_LOGI(opName, fmt, ...) ((void)0)
#define D_OP_LOGD(opName, fmt, ...) ((void)0)
// The op base's predefined error reports (OP_LOGE_WITH_* and OP_LOGE_FOR_*, EZ00xx): each takes
// its arguments as strings (a tensor count and an input index as integers), logs one line and
// changes no control flow.
#define OPS_BASE_LOG_REPORT(entityName, text, ...)           \
  do {                                                       \
    ::Ops::Base::LogReport(entityName, text, {__VA_ARGS__}); \
  } while (0)

#define OP_LOGE_WITH_INVALID_INPUT_SHAPE(entityName, index, incorrectShape, correctShape)                        \
  OPS_BASE_LOG_REPORT(entityName, "input {} has incorrect shape [{}]; it should be [{}]", std::to_string(index), \
                      incorrectShape, correctShape)
#define OP_LOGE_WITH_INVALID_ATTR(entityName, attrName, incorrectVal, correctVal) \
  OPS_BASE_LOG_REPORT(entityName, "attr {} has incorrect value {}; it should be {}", attrName, incorrectVal, correctVal)
#define OP_LOGE_WITH_INVALID_ATTR_SIZE(entityName, attrName, incorrectSize, correctSize)                     \
  OPS_BASE_LOG_REPORT(entityName, "attr {} has incorrect size {}; it should be {}", attrName, incorrectSize, \
                      correctSize)
#define OP_LOGE_WITH_INVALID_INPUT(entityName, paramName) \
  OPS_BASE_LOG_REPORT(entityName, "parameter {} is required but empty", paramName)
#define OP_LOGE_WITH_INVALID_INPUT_SHAPESIZE(entityName, index, incorrectSize, correctSize)                       \
  OPS_BASE_LOG_REPORT(entityName, "input {} has incorrect shape size {}; it should be {}", std::to_string(index), \
                      incorrectSize, correctSize)
#define OP_LOGE_WITH_INVALID_INPUT_FORMAT(entityName, paramName, dataFormat, expectedFormatList)              \
  OPS_BASE_LOG_REPORT(entityName, "input {} has incorrect format {}; it should be {}", paramName, dataFormat, \
                      expectedFormatList)
#define OP_LOGE_WITH_INVALID_INPUT_DTYPE(entityName, paramName, dataDtype, expectedDtypeList)               \
  OPS_BASE_LOG_REPORT(entityName, "input {} has incorrect dtype {}; it should be {}", paramName, dataDtype, \
                      expectedDtypeList)

// A parameter (or a list of them) with a wrong property: the value it should have, or a reason.
#define OPS_BASE_LOG_SHOULD(entityName, paramName, what, incorrect, correct) \
  OPS_BASE_LOG_REPORT(entityName, "{}: incorrect " what " {}; it should be {}", paramName, incorrect, correct)
#define OPS_BASE_LOG_REASON(entityName, paramNames, what, incorrect, reason) \
  OPS_BASE_LOG_REPORT(entityName, "{}: incorrect " what " {}; reason: {}", paramNames, incorrect, reason)

#define OP_LOGE_FOR_INVALID_SHAPE(e, p, v, c) OPS_BASE_LOG_SHOULD(e, p, "shape", v, c)
#define OP_LOGE_FOR_INVALID_SHAPE_WITH_REASON(e, p, v, r) OPS_BASE_LOG_REASON(e, p, "shape", v, r)
#define OP_LOGE_FOR_INVALID_SHAPES_WITH_REASON(e, p, v, r) OPS_BASE_LOG_REASON(e, p, "shapes", v, r)
#define OP_LOGE_FOR_INVALID_SHAPEDIM(e, p, v, c) OPS_BASE_LOG_SHOULD(e, p, "shape dim", v, c)
#define OP_LOGE_FOR_INVALID_SHAPEDIM_WITH_REASON(e, p, v, r) OPS_BASE_LOG_REASON(e, p, "shape dim", v, r)
#define OP_LOGE_FOR_INVALID_SHAPEDIMS_WITH_REASON(e, p, v, r) OPS_BASE_LOG_REASON(e, p, "shape dims", v, r)
#define OP_LOGE_FOR_INVALID_SHAPESIZE(e, p, v, c) OPS_BASE_LOG_SHOULD(e, p, "shape size", v, c)
#define OP_LOGE_FOR_INVALID_SHAPESIZE_WITH_REASON(e, p, v, r) OPS_BASE_LOG_REASON(e, p, "shape size", v, r)
#define OP_LOGE_FOR_INVALID_SHAPESIZES_WITH_REASON(e, p, v, r) OPS_BASE_LOG_REASON(e, p, "shape sizes", v, r)
#define OP_LOGE_FOR_INVALID_FORMAT(e, p, v, c) OPS_BASE_LOG_SHOULD(e, p, "format", v, c)
#define OP_LOGE_FOR_INVALID_FORMAT_WITH_REASON(e, p, v, r) OPS_BASE_LOG_REASON(e, p, "format", v, r)
#define OP_LOGE_FOR_INVALID_FORMATS_WITH_REASON(e, p, v, r) OPS_BASE_LOG_REASON(e, p, "formats", v, r)
#define OP_LOGE_FOR_INVALID_DTYPE(e, p, v, c) OPS_BASE_LOG_SHOULD(e, p, "dtype", v, c)
#define OP_LOGE_FOR_INVALID_DTYPE_WITH_REASON(e, p, v, r) OPS_BASE_LOG_REASON(e, p, "dtype", v, r)
#define OP_LOGE_FOR_INVALID_DTYPES_WITH_REASON(e, p, v, r) OPS_BASE_LOG_REASON(e, p, "dtypes", v, r)
#define OP_LOGE_FOR_INVALID_TENSORNUM(e, p, num, c) \
  OPS_BASE_LOG_SHOULD(e, p, "tensor num", std::to_string(static_cast<int64_t>(num)), c)
#define OP_LOGE_FOR_INVALID_TENSORNUMS_WITH_REASON(e, p, v, r) OPS_BASE_LOG_REASON(e, p, "tensor nums", v, r)
#define OP_LOGE_FOR_INVALID_VALUE(e, p, v, c) OPS_BASE_LOG_SHOULD(e, p, "value", v, c)
#define OP_LOGE_FOR_INVALID_VALUE_WITH_REASON(e, p, v, r) OPS_BASE_LOG_REASON(e, p, "value", v, r)
#define OP_LOGE_FOR_INVALID_VALUES_WITH_REASON(e, p, v, r) OPS_BASE_LOG_REASON(e, p, "values", v, r)
#define OP_LOGE_FOR_INVALID_LISTSIZE(e, p, v, c) OPS_BASE_LOG_SHOULD(e, p, "list size", v, c)
#define OP_LOGE_FOR_INVALID_LISTSIZE_WITH_REASON(e, p, v, r) OPS_BASE_LOG_REASON(e, p, "list size", v, r)
#define OP_LOGE_FOR_INVALID_STRIDE(e, p, v, c) OPS_BASE_LOG_SHOULD(e, p, "stride", v, c)
#define OP_LOGE_FOR_INVALID_ARGUMENT_WITH_REASON(e, p, r) \
  OPS_BASE_LOG_REPORT(e, "parameter {} is invalid; reason: {}", p, r)
#define OP_LOGE_FOR_INVALID_GRAPH_NODE(nodeName, r) \
  OPS_BASE_LOG_REPORT(nodeName, "invalid graph node {}; reason: {}", nodeName, r)
#define OP_LOGE_FOR_FILE_PATH(opName, path, r) OPS_BASE_LOG_REPORT(opName, "invalid path {}; reason: {}", path, r)
#define OP_LOGE_FOR_FILE_OPEN(opName, path, r) OPS_BASE_LOG_REPORT(opName, "cannot open {}; reason: {}", path, r)
#define OP_LOGE_FOR_FILE_PARSE(opName, path, r) OPS_BASE_LOG_REPORT(opName, "cannot parse {}; reason: {}", path, r)
#define OP_LOGE_FOR_INVALID_CONFIG(opName, file, item, value, expect) \
  OPS_BASE_LOG_REPORT(opName, "item {} of config {} has invalid value {}; it should be {}", item, file, value, expect)
#define OP_LOGE_FOR_INVALID_CONFIG_WITH_REASON(opName, file, item, value, r) \
  OPS_BASE_LOG_REPORT(opName, "item {} of config {} has invalid value {}; reason: {}", item, file, value, r)
#define OP_LOGE_FOR_INVALID_CONFIGS_WITH_REASON(opName, file, items, values, r) \
  OPS_BASE_LOG_REPORT(opName, "items {} of config {} have invalid values {}; reason: {}", items, file, values, r)

#define OP_CHECK_IF(condition, log, return_expr) \
  do {                                           \
    if (unlikely(condition)) {                   \
      log;                                       \
      return_expr;                               \
    }                                            \
  } while (0)
#define OP_CHECK_NULL_WITH_CONTEXT(context, ptr) \
  do {                                           \
    if (unlikely((ptr) == nullptr)) {            \
      OP_LOGE(context, "%s is nullptr!", #ptr);  \
      return ge::GRAPH_FAILED;                   \
    }                                            \
  } while (0)
