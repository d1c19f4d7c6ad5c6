// Shape helpers of the CANN op base's tiling utilities (opbase's op_host/tiling_util.h).
#pragma once

#include "op_common/log/log.h"
#include "op_common/op_host/util/math_util.h"
#include "op_common/op_host/util/platform_util.h"

namespace Ops {
namespace Base {

// A scalar (0-d shape) as the 1-element vector most tilings expect.
inline const gert::Shape& EnsureNotScalar(const gert::Shape& shape) {
  static const gert::Shape vector1{1};
  return shape.IsScalar() ? vector1 : shape;
}
// Regbase SoCs (the 950 family) only; the A2 is not one.
template <typename T>
bool IsRegbaseSocVersion(const T*) {
  return false;
}

}  // namespace Base
}  // namespace Ops
