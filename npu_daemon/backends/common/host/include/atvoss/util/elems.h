// The op base's type list (opbase atvoss/util/elems.h): what a DAG's outputs and a node's
// arguments are collected in.
#pragma once

#include <cstddef>

namespace Ops {
namespace Base {

template <typename... Ts>
struct Elems {
  static constexpr size_t Size = sizeof...(Ts);
};

}  // namespace Base
}  // namespace Ops
