// ops-math's shape accessors shared by its tilings and their torch builds (common/inc/
// torch_extension/tiling_utils_math.h); a CANN build reads a gert::Shape.
#pragma once

#include <type_traits>
#include <vector>

#include "ascendc_sim/host_context.h"

class TilingUtils {
 public:
  template <typename T>
  static std::vector<int64_t> GetShape(const T& x) {
    static_assert(std::is_same_v<T, gert::Shape>, "only gert::Shape outside a torch build");
    std::vector<int64_t> dims(x.GetDimNum());
    for (size_t i = 0; i < dims.size(); ++i) dims[i] = x.GetDim(i);
    return dims;
  }
  template <typename T>
  static int64_t GetDimNum(const T& x) {
    static_assert(std::is_same_v<T, gert::Shape>, "only gert::Shape outside a torch build");
    return static_cast<int64_t>(x.GetDimNum());
  }
  template <typename T>
  static int64_t GetDim(const T& x, int64_t i) {
    static_assert(std::is_same_v<T, gert::Shape>, "only gert::Shape outside a torch build");
    return x.GetDim(static_cast<size_t>(i));
  }
};
