// One core's share of y = x * scale + offset; other operators of the tree include it by a
// relative path, and it includes its sibling scale_math.h.
#pragma once
#include "kernel_operator.h"
#include "scale_math.h"

class ScaleBase {
 public:
  __aicore__ inline void Run(GM_ADDR x, GM_ADDR y, uint32_t total, uint32_t perCore, float scale, float offset) {
    const uint32_t start = AscendC::GetBlockIdx() * perCore;
    const uint32_t n = total - start < perCore ? total - start : perCore;
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x + start, n);
    yg.SetGlobalBuffer((__gm__ float*)y + start, n);
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> qi;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> qo;
    pipe.InitBuffer(qi, 1, perCore * sizeof(float));
    pipe.InitBuffer(qo, 1, perCore * sizeof(float));
    AscendC::LocalTensor<float> a = qi.AllocTensor<float>();
    AscendC::DataCopyPad(a, xg, {1, n * 4, 0, 0, 0}, {false, 0, 0, 0});
    qi.EnQue(a);
    a = qi.DeQue<float>();
    AscendC::LocalTensor<float> b = qo.AllocTensor<float>();
    ScaleOffset(b, a, scale, offset, n);
    qo.EnQue(b);
    qi.FreeTensor(a);
    b = qo.DeQue<float>();
    AscendC::DataCopyPad(yg, b, {1, n * 4, 0, 0, 0});
    qo.FreeTensor(b);
  }
};
