// The Matmul library's 16-bit block arithmetic (asc-devkit batch_matmul_utils.h, which its matmul.h
// includes), called unqualified by matmul kernels under `using namespace AscendC`. Arguments and
// result are uint16_t there, so wider counts wrap as on the device. Scalar code of the kernel's own
// compile, counted with the kernel's scalar instructions. Included by the native engine's
// ascendc_sim/matmul.h and the guest's ascendc_guest/matmul.h.
#pragma once

#include <cstdint>

namespace AscendC {
constexpr uint16_t CeilDiv(uint16_t num1, uint16_t num2) { return (num1 + num2 - 1) / num2; }
constexpr uint16_t CeilAlign(uint16_t num1, uint16_t num2) { return CeilDiv(num1, num2) * num2; }
}  // namespace AscendC
