// CANN's error-message reports as a tiling program calls them: the report's code and text, to
// stderr beside the operator's own error logs (op_common/log/log.h).
#pragma once

#include <cstdio>

#define REPORT_INNER_ERR_MSG(code, fmt, ...) std::fprintf(stderr, "[ERROR] %s: " fmt "\n", code, ##__VA_ARGS__)
