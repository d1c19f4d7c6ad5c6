// The kernel's class in a header, as ops-nn keeps them. Each plane's weight is read from GM by the
// scalar unit, one element per plane, as kernels with a small per-channel parameter often do.
#pragma once
#include "kernel_operator.h"
using namespace AscendC;

class KernelPrelu {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR y, uint32_t planes, uint32_t inner, uint32_t channels,
                              uint32_t perCore, uint32_t tile) {
    firstPlane = GetBlockIdx() * perCore;
    planeCount = planes - firstPlane < perCore ? planes - firstPlane : perCore;
    this->inner = inner;
    this->channels = channels;
    this->tile = tile;
    xGm.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(planes) * inner);
    yGm.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(planes) * inner);
    weightGm.SetGlobalBuffer((__gm__ float*)weight, channels);
    pipe.InitBuffer(inQueue, 2, tile * sizeof(float));
    pipe.InitBuffer(outQueue, 2, tile * sizeof(float));
    pipe.InitBuffer(negBuf, tile * sizeof(float));
  }

  __aicore__ inline void Process() {
    for (uint32_t p = firstPlane; p < firstPlane + planeCount; ++p) {
      const float w = weightGm.GetValue(channels == 1 ? 0 : p % channels);
      for (uint32_t done = 0; done < inner; done += tile) {
        const uint32_t n = inner - done < tile ? inner - done : tile;
        const uint64_t offset = static_cast<uint64_t>(p) * inner + done;
        CopyIn(offset, n);
        Compute(w, n);
        CopyOut(offset, n);
      }
    }
  }

 private:
  __aicore__ inline void CopyIn(uint64_t offset, uint32_t n) {
    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopyPad(xLocal, xGm[offset], {1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0}, {false, 0, 0, 0});
    inQueue.EnQue(xLocal);
  }

  // y = max(x, 0) + w * min(x, 0)
  __aicore__ inline void Compute(float w, uint32_t n) {
    LocalTensor<float> xLocal = inQueue.DeQue<float>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    LocalTensor<float> neg = negBuf.Get<float>();
    Maxs(yLocal, xLocal, 0.0f, n);
    Mins(neg, xLocal, 0.0f, n);
    Muls(neg, neg, w, n);
    Add(yLocal, yLocal, neg, n);
    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
  }

  __aicore__ inline void CopyOut(uint64_t offset, uint32_t n) {
    LocalTensor<float> yLocal = outQueue.DeQue<float>();
    DataCopyPad(yGm[offset], yLocal, {1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0});
    outQueue.FreeTensor(yLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, 2> inQueue;
  TQue<QuePosition::VECOUT, 2> outQueue;
  TBuf<TPosition::VECCALC> negBuf;
  GlobalTensor<float> xGm;
  GlobalTensor<float> yGm;
  GlobalTensor<float> weightGm;
  uint32_t firstPlane = 0;
  uint32_t planeCount = 0;
  uint32_t inner = 0;
  uint32_t channels = 0;
  uint32_t tile = 0;
};
