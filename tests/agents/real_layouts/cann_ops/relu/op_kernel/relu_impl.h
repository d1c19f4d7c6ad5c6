// The kernel's class in a header, as ops-nn keeps them, ordered by whole-pipe barriers as older
// kernels are: every stage waits for every pipe.
#pragma once
#include "kernel_operator.h"
using namespace AscendC;

class KernelRelu {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t total, uint32_t perCore, uint32_t tile) {
    const uint32_t start = GetBlockIdx() * perCore;
    count = total - start < perCore ? total - start : perCore;
    this->tile = tile < count ? tile : count;
    xGm.SetGlobalBuffer((__gm__ float*)x + start, count);
    yGm.SetGlobalBuffer((__gm__ float*)y + start, count);
    pipe.InitBuffer(xBuf, this->tile * sizeof(float));
    pipe.InitBuffer(zeroBuf, this->tile * sizeof(float));
    pipe.InitBuffer(yBuf, this->tile * sizeof(float));
  }

  __aicore__ inline void Process() {
    LocalTensor<float> xLocal = xBuf.Get<float>();
    LocalTensor<float> zeros = zeroBuf.Get<float>();
    LocalTensor<float> yLocal = yBuf.Get<float>();
    for (uint32_t offset = 0; offset < count; offset += tile) {
      const uint32_t n = count - offset < tile ? count - offset : tile;
      DataCopyPad(xLocal, xGm[offset], {1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0}, {false, 0, 0, 0});
      PipeBarrier<PIPE_ALL>();
      Duplicate(zeros, 0.0f, n);
      PipeBarrier<PIPE_ALL>();
      Max(yLocal, xLocal, zeros, n);
      PipeBarrier<PIPE_ALL>();
      DataCopyPad(yGm[offset], yLocal, {1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0});
      PipeBarrier<PIPE_ALL>();
    }
  }

 private:
  TPipe pipe;
  TBuf<TPosition::VECCALC> xBuf, zeroBuf, yBuf;
  GlobalTensor<float> xGm;
  GlobalTensor<float> yGm;
  uint32_t count = 0;
  uint32_t tile = 0;
};
