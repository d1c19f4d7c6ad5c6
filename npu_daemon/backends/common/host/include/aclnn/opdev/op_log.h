// The aclnn layer's log (opbase opdev/op_log.h): the op base's log levels and OP_LOGE_IF
// (error_util.h, where OP_LOGE also takes the layer's error code first), the layer's own event,
// file-and-line and report forms, and its checks (CHECK_RET, OP_CHECK, OP_CHECK_NOTNULL,
// CHECK_COND, CHECK_RET_CODE), which run their action when the condition does not hold.
#pragma once

#include <cstdio>

#include "error_util.h"

#define OP_LOG_DEBUG 0
#define OP_LOG_INFO 1
#define OP_LOG_WARN 2
#define OP_LOG_ERROR 3
#define OP_LOG_EVENT 0x10
#define OP_EVENT(...) ((void)0)
#define D_OP_EVENT(opname, ...) ((void)0)
#define OP_DFX_LOGD(file, line, func, ...) ((void)0)
#define OP_DFX_LOGI(file, line, func, ...) ((void)0)
#define OP_DFX_LOGW(file, line, func, ...) ((void)0)
#define OP_DFX_LOGE(file, line, func, ...) ((void)0)
#define D_OP_DFX_LOGD(opname, file, line, func, ...) ((void)0)
#define D_OP_DFX_LOGI(opname, file, line, func, ...) ((void)0)
#define D_OP_DFX_LOGW(opname, file, line, func, ...) ((void)0)
#define D_OP_DFX_LOGE(opname, file, line, func, ...) ((void)0)
// An error report CANN files with its error manager: printed here.
#define REPORT_ERROR_MESSAGE(code, fmt, ...) std::fprintf(stderr, "[ERROR] %s: " fmt "\n", code, ##__VA_ARGS__)

#define RET_IF_NOT_SUCCESS(x)
#define CHECK_RET(condition, ret_value) \
  do {                                  \
    if (unlikely(!(condition))) {       \
      return ret_value;                 \
    }                                   \
  } while (0)
#define OP_CHECK(cond, log_func, return_expr) \
  do {                                        \
    if (unlikely(!(cond))) {                  \
      log_func;                               \
      return_expr;                            \
    }                                         \
  } while (0)
#define OP_CHECK_NO_RETURN(cond, log_func) \
  do {                                     \
    if (unlikely(!(cond))) {               \
      log_func;                            \
    }                                      \
  } while (0)
// 161001: ACLNN_ERR_PARAM_NULLPTR, the layer's status for a null argument.
#define OP_CHECK_NOTNULL(val)                 \
  do {                                        \
    if (unlikely((val) == nullptr)) {         \
      OP_LOGE(161001, "%s is nullptr", #val); \
      return 161001;                          \
    }                                         \
  } while (0)
#define CHECK_COND(cond, ret, fmt, ...) \
  do {                                  \
    if (unlikely(!(cond))) {            \
      OP_LOGE(ret, fmt, ##__VA_ARGS__); \
      return ret;                       \
    }                                   \
  } while (0)
// `func` returns the layer's status: a failure is logged and returned.
#define CHECK_RET_CODE(func, fmt, ...)           \
  do {                                           \
    const auto checkRetCode = (func);            \
    if (checkRetCode != 0) {                     \
      OP_LOGE(checkRetCode, fmt, ##__VA_ARGS__); \
      return checkRetCode;                       \
    }                                            \
  } while (0)
