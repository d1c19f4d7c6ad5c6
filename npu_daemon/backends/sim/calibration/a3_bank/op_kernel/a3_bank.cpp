// Anchor A3: UB bank conflicts. UB has 16 bank groups of 32 B rows (a group repeats every 512 B)
// and three 64 KiB thirds; a bank is a group within a third. One Add repeat reads 8 rows of each
// source and writes 8 rows of the destination. The operands of every variant live in one buffer:
//   no conflict: src1 256 B past a 512 B multiple (the other 8 groups), dst in another third;
//   read-read:   src1 16 KiB after src0 (the same 8 groups), dst in another third;
//   read-write:  src1 as in no conflict, dst in src0's third on src0's groups.
#include "kernel_operator.h"

using namespace AscendC;

class A3Bank {
 public:
  __aicore__ inline void Run(GM_ADDR x, GM_ADDR z, const A3BankTilingData& t) {
    xGm_.SetGlobalBuffer((__gm__ float*)x, t.length);
    zGm_.SetGlobalBuffer((__gm__ float*)z, t.length);
    constexpr uint32_t kThird = 65536 / sizeof(float), kHalfGroups = 256 / sizeof(float);
    pipe_.InitBuffer(ub_, 2 * kThird * sizeof(float) + t.length * sizeof(float));
    LocalTensor<float> all = ub_.Get<float>();
    const uint32_t src1 = t.variant == 1 ? t.length : t.length + kHalfGroups;
    const uint32_t dst = t.variant == 2 ? 2 * t.length + 2 * kHalfGroups : 2 * kThird;
    LocalTensor<float> a = all, b = all[src1], c = all[dst];
    DataCopy(a, xGm_, t.length);
    DataCopy(b, xGm_, t.length);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    for (uint32_t i = 0; i < t.adds; ++i) Add(c, a, b, t.length);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(zGm_, c, t.length);
  }

 private:
  TPipe pipe_;
  TBuf<QuePosition::VECCALC> ub_;
  GlobalTensor<float> xGm_, zGm_;
};

extern "C" __global__ __aicore__ void a3_bank(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  A3Bank op;
  op.Run(x, z, t);
}
