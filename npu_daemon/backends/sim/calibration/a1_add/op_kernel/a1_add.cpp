// Anchor A1: z = x + y over half data, the rungs of Huawei's Add optimisation ladder.
// Single buffer: x, y, z queues of one tile each (x and y 32 KiB apart: a read-read bank conflict
// at tile 16384). Double buffer: two slots holding [x tile | y tile], z computed in place into x,
// ordered by hand with flags; with tile 16256 the x and y halves of a slot sit 8 bank groups apart.
#include "kernel_operator.h"

using namespace AscendC;

class A1Add {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const A1AddTilingData& t) {
    const uint32_t offset = GetBlockIdx() * t.blockLength;
    len_ = GetBlockIdx() == GetBlockNum() - 1 ? t.totalLength - offset : t.blockLength;
    tile_ = t.tileLength;
    xGm_.SetGlobalBuffer((__gm__ half*)x + offset, len_);
    yGm_.SetGlobalBuffer((__gm__ half*)y + offset, len_);
    zGm_.SetGlobalBuffer((__gm__ half*)z + offset, len_);
    if (t.l2Bypass) {
      xGm_.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);
      yGm_.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);
    }
  }

  __aicore__ inline void SingleBuffer(bool scalarLoop) {
    pipe_.InitBuffer(inX_, 1, tile_ * sizeof(half));
    pipe_.InitBuffer(inY_, 1, tile_ * sizeof(half));
    pipe_.InitBuffer(outZ_, 1, tile_ * sizeof(half));
    for (uint32_t done = 0; done < len_; done += tile_) {
      const uint32_t n = len_ - done < tile_ ? len_ - done : tile_;
      LocalTensor<half> x = inX_.AllocTensor<half>();
      LocalTensor<half> y = inY_.AllocTensor<half>();
      DataCopy(x, xGm_[done], n);
      DataCopy(y, yGm_[done], n);
      inX_.EnQue(x);
      inY_.EnQue(y);
      x = inX_.DeQue<half>();
      y = inY_.DeQue<half>();
      LocalTensor<half> z = outZ_.AllocTensor<half>();
      if (scalarLoop) {
        PipeBarrier<PIPE_ALL>();  // the scalar unit reads what MTE2 wrote
        for (uint32_t i = 0; i < n; ++i) z.SetValue(i, static_cast<half>(x.GetValue(i) + y.GetValue(i)));
      } else {
        Add(z, x, y, n);
      }
      outZ_.EnQue(z);
      inX_.FreeTensor(x);
      inY_.FreeTensor(y);
      z = outZ_.DeQue<half>();
      DataCopy(zGm_[done], z, n);
      outZ_.FreeTensor(z);
    }
  }

  __aicore__ inline void DoubleBuffer() {
    pipe_.InitBuffer(slots_, 2 * 2 * tile_ * sizeof(half));
    LocalTensor<half> all = slots_.Get<half>();
    uint32_t k = 0;
    for (uint32_t done = 0; done < len_; done += tile_, ++k) {
      const uint32_t n = len_ - done < tile_ ? len_ - done : tile_;
      const int32_t s = static_cast<int32_t>(k % 2);
      LocalTensor<half> x = all[s * 2 * tile_];
      LocalTensor<half> y = all[s * 2 * tile_ + tile_];
      if (k >= 2) WaitFlag<HardEvent::MTE3_MTE2>(s);  // the slot's previous result has left
      DataCopy(x, xGm_[done], n);
      DataCopy(y, yGm_[done], n);
      SetFlag<HardEvent::MTE2_V>(s);
      WaitFlag<HardEvent::MTE2_V>(s);
      Add(x, x, y, n);
      SetFlag<HardEvent::V_MTE3>(s);
      WaitFlag<HardEvent::V_MTE3>(s);
      DataCopy(zGm_[done], x, n);
      SetFlag<HardEvent::MTE3_MTE2>(s);
    }
    for (uint32_t s = 0; s < 2 && s < k; ++s) WaitFlag<HardEvent::MTE3_MTE2>(static_cast<int32_t>((k + s) % 2));
  }

 private:
  TPipe pipe_;
  TQue<QuePosition::VECIN, 1> inX_, inY_;
  TQue<QuePosition::VECOUT, 1> outZ_;
  TBuf<QuePosition::VECCALC> slots_;
  GlobalTensor<half> xGm_, yGm_, zGm_;
  uint32_t len_ = 0, tile_ = 0;
};

extern "C" __global__ __aicore__ void a1_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  A1Add op;
  op.Init(x, y, z, t);
  if (t.doubleBuffer) op.DoubleBuffer();
  else op.SingleBuffer(t.scalarLoop != 0);
}
