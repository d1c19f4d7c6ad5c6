// The codes that cross the guest engine's boundary: element types and vector operations by family.
// Included by the guest's kernel_operator.h (clang, wasm32) and by the host (runtime/guest/api.cpp).
#pragma once

#include <cstdint>
#include <cstring>

namespace ascendc_guest {

// kF64: a kernel's double branches compile (its other dtypes' tiling keys); no import serves them.
// kF8*, kHiF8: Ascend 950's one-byte floats (fp8_e4m3fn_t, fp8_e5m2_t, fp8_e8m0_t, hifloat8_t).
enum class Dtype : int32_t {
  kF16 = 1,
  kF32,
  kBf16,
  kI8,
  kU8,
  kI16,
  kU16,
  kI32,
  kU32,
  kI64,
  kU64,
  kF64,
  kF8E4M3FN,
  kF8E5M2,
  kF8E8M0,
  kHiF8
};
enum class Binary : int32_t {
  kAdd = 1,
  kSub,
  kMul,
  kDiv,
  kMax,
  kMin,
  kAnd,
  kOr,
  kAddRelu,
  kSubRelu,
  kMulAddDst,  // the dst-accumulating ones: dst = f(src0, src1, dst)
  kFusedMulAdd,
  kFusedMulAddRelu
};
enum class Unary : int32_t { kExp = 1, kLn, kAbs, kReciprocal, kSqrt, kRsqrt, kRelu, kNot };
enum class WithScalar : int32_t { kAdds = 1, kMuls, kMaxs, kMins, kLeakyRelu, kShiftLeft, kShiftRight };
// How a mask/repeat form names its lanes: a continuous mask (a lane count), a bit mask of two
// words, or (isSetMask = false) the mask registers as the kernel last set them.
enum class MaskKind : int32_t { kContinuous = 1, kBits, kRegister };
enum class Reduce : int32_t { kSum = 1, kMax, kMin };

// The GM update of later UB -> GM copies (SetAtomicAdd/Max/Min/None; kKeep: SetAtomicType, the type only).
enum class AtomicOp : int32_t { kNone = 0, kAdd, kMax, kMin, kKeep };
// What a kernel asks of its core (GetSubBlockIdx, GetSubBlockNum, ASCEND_IS_AIV, GetSystemCycle).
enum class CoreInfo : int32_t { kSubBlockIdx = 1, kSubBlockNum, kCoreType, kSystemCycle };
// A queue's state a kernel reads (TQueBind::GetTensorCountInQue, HasIdleBuffer).
enum class QueState : int32_t { kQueued = 1, kIdle };
// The API's checks that run in the guest (arguments it holds itself) and stop the kernel on the host.
enum class Fault : int32_t {
  kTrap = 1,
  kAssert,
  kTBufGet,
  kTBufGetWithOffset,
  kSyncAllCores,
  kNoTemplateInstance,
  kCo1CopyMode,
  kFixpipeVectorQuant,
};

// The guest's view of GM: every buffer of the launch at an address of this range, which the guest's
// linear memory never reaches (the host caps it below kGmBase), so a GM address is only a name.
constexpr uint32_t kGmBase = 0x80000000u;
// The kernel's own __gm__ globals (guest_ir.py, gm_data): one image at this GM address, whose first
// kGmDataHead bytes hold its byte count; the launch buffers stay below it.
constexpr uint32_t kGmDataBase = 0xFC000000u;
constexpr uint32_t kGmDataHead = 64;
// Raw pointers: __gm__ and __ubuf__ are these clang address spaces (guest_ir.py rewrites accesses
// through them into imports). LocalTensor::GetPhyAddr gives kUbBase + the UB byte address, past the
// guest's memory too; the host also takes the bare UB address, which kernels form from integers.
enum RawSpace : int32_t { kRawGuest = 0, kRawGm = 7, kRawUb = 8 };
constexpr uint32_t kUbBase = 0x40000000u;
// The CCE intrinsics of ascendc_guest/cce.h: copy directions, where a compare writes its bits, and the
// vconv_<src><dst>[mode] forms.
enum class CceCopy : int32_t { kGmToUb = 1, kUbToGm, kUbToUb };
enum class CceCompare : int32_t { kBits = 1, kCmpMask };
enum class Vconv : int32_t {
  kF16F32 = 1,
  kBf16F32,
  kS16F32,
  kS32F32,
  kS16F16,
  kF32F16r,
  kF32Bf16r,
  kF32S16r,
  kF32S32r,
  kF32S32f,
  kF16S32r,
  kF32F16,  // vconv_f322f16: Cast's CAST_NONE
};
// The cube's L1 -> L0 intrinsics (load_cbuf_to_ca / _cb and their _transpose forms) and the registers
// the cube's and the copies' intrinsics set (set_nd_para, set_padding, set_atomic_<op>, set_atomic_<type>).
enum class CceLoad : int32_t { kToA = 1, kToB, kToATranspose, kToBTranspose };
enum class CceReg : int32_t {
  kNdPara = 1,
  kPadding,
  kAtomicOp,
  kAtomicType,
  kFmatrixLeft,
  kFmatrixRight,
  kL3dRepeat,
  kL3dSize
};

// An element's bits as an i64 across the boundary, and back.
template <typename T>
int64_t BitsOf(T v) {
  int64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
template <typename T>
T FromBits(int64_t b) {
  T v;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}

}  // namespace ascendc_guest

namespace AscendC {

// Where a tensor lives (its buffer and the pipes around it): the same codes on both sides.
enum class TPosition : uint8_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM,
  TSCM,
  C2PIPE2GM,
  MAX
};
using QuePosition = TPosition;

}  // namespace AscendC

// The launch's kernel types (read from the source before the launch, kernel_view.py: kernel_type).
// The AI Core / Vector Core types are for the inference products (310P); on the A2 their kernels
// launch as vector blocks, as the default AIV-only type does.
enum KernelMetaType {
  KERNEL_TYPE_AIV_ONLY,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2,
  KERNEL_TYPE_MIX_AIC_1_4,
  KERNEL_TYPE_AICORE,
  KERNEL_TYPE_VECTORCORE,
  KERNEL_TYPE_MIX_AICORE,
  KERNEL_TYPE_MIX_VECTOR_CORE
};
