// An atvoss DAG (opbase atvoss/util/dag.h): Bind<Fun, Args...> applies a Vec operation to
// placeholders, constants and other Binds; DAGSch<Outputs, ComputeOrder, MemOptCfg> is the
// schedule the regbase elementwise kernels and their tiling (ElewiseBaseTiling) are instantiated
// over. Here the DAG is vocabulary only: its buffer planning is not emulated (see
// atvoss/elewise/elewise_tiling.h).
#pragma once

#include <cstdint>

#include "atvoss/util/elems.h"

namespace Ops {
namespace Base {

// How hard the schedule reuses UB buffers between nodes.
enum class MemLevel : uint8_t { LEVEL_0 = 0, LEVEL_1 = 1, LEVEL_2 = 2 };

template <MemLevel Level = MemLevel::LEVEL_0, bool ReuseIn = false>
struct MemOptCfg {
  static constexpr MemLevel memoryLevel = Level;
  static constexpr bool reuseIn = ReuseIn;
};

template <typename Func, typename... Args>
struct Bind {
  using Fun = Func;
  using ArgList = Elems<Args...>;
  using DType = typename Func::DType;
  static_assert(sizeof...(Args) == Func::InputSize, "a Bind passes its operation as many arguments as it takes");
};

template <typename Outputs, typename ComputeOrder = void, typename MemCfg = MemOptCfg<>>
struct DAGSch {
  using OutList = Outputs;
  using MemOpt = MemCfg;
};

}  // namespace Base
}  // namespace Ops
