// Error reporting of hicann/ops-nn's op base (common/inc/error_util.h): the reporting macros log
// through OP_LOGE (CANN also files the message with the error manager, which a tiling run here
// has not got); OP_TILING_CHECK runs `expr` when `cond` holds.
#pragma once

#include <sstream>
#include <string>
#include <type_traits>

#include "log/log.h"

#define CUBE_INNER_ERR_REPORT(opName, errMsg, ...) OP_LOGE(opName, errMsg, ##__VA_ARGS__)
#define VECTOR_INNER_ERR_REPORT_TILIING(opName, errMsg, ...) OP_LOGE(opName, errMsg, ##__VA_ARGS__)
#define OPS_REPORT_VECTOR_INNER_ERR(opName, ...) OP_LOGE(opName, ##__VA_ARGS__)
#define OPS_REPORT_CUBE_INNER_ERR(opName, ...) OP_LOGE(opName, ##__VA_ARGS__)
#define OPS_LOG_E(opName, ...) OP_LOGE(opName, ##__VA_ARGS__)
#define OPS_LOG_W(opName, ...) OP_LOGW(opName, ##__VA_ARGS__)
#define OPS_LOG_I(opName, ...) OP_LOGI(opName, ##__VA_ARGS__)
#define OPS_LOG_D(opName, ...) OP_LOGD(opName, ##__VA_ARGS__)
#define OPS_CHECK_NULL_WITH_CONTEXT OP_CHECK_NULL_WITH_CONTEXT

#define OP_TILING_CHECK(cond, log_func, expr) \
  do {                                        \
    if (cond) {                               \
      log_func;                               \
      expr;                                   \
    }                                         \
  } while (0)
#define OPS_ERR_IF(cond, log_func, expr) \
  if (unlikely(cond)) {                  \
    log_func;                            \
    expr;                                \
  }
#define OP_LOGE_IF(condition, returnValue, opName, fmt, ...)                                          \
  static_assert(std::is_same<bool, std::decay<decltype(condition)>::type>::value, "condition: bool"); \
  do {                                                                                                \
    if (unlikely(condition)) {                                                                        \
      OP_LOGE(opName, fmt, ##__VA_ARGS__);                                                            \
      return returnValue;                                                                             \
    }                                                                                                 \
  } while (0)
#define OP_LOGI_IF_RETURN(condition, returnValue, opName, fmt, ...)                                   \
  static_assert(std::is_same<bool, std::decay<decltype(condition)>::type>::value, "condition: bool"); \
  do {                                                                                                \
    if (unlikely(condition)) {                                                                        \
      OP_LOGI(opName, fmt, ##__VA_ARGS__);                                                            \
      return returnValue;                                                                             \
    }                                                                                                 \
  } while (0)
#define OP_LOGW_IF(condition, opName, fmt, ...)                                                       \
  static_assert(std::is_same<bool, std::decay<decltype(condition)>::type>::value, "condition: bool"); \
  do {                                                                                                \
    if (unlikely(condition)) OP_LOGW(opName, fmt, ##__VA_ARGS__);                                     \
  } while (0)

// "[d0, d1, ...]" of a gert::Shape (or anything with GetDimNum / GetDim).
template <typename T>
std::string Shape2String(const T& shape) {
  std::ostringstream out;
  out << "[";
  for (size_t i = 0; i < shape.GetDimNum(); ++i) out << (i ? ", " : "") << shape.GetDim(i);
  out << "]";
  return out.str();
}
