#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// y = x * cos + rotate_half(x) * sin, computed in fp32. Every row is copied as two bursts (its
// halves), each on its own 32 B-aligned UB row: [x1 | pad | x2 | pad], so rotate_half is addressing.
// One copy in and one copy out per token for all its heads; the casts run once per token.
template <typename T>
class KernelRotaryEmbedding {
 public:
  __aicore__ inline KernelRotaryEmbedding() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR cos, GM_ADDR sin, GM_ADDR y, uint32_t heads, uint32_t half, uint32_t formerNum,
                              uint32_t formerTokens, uint32_t tailTokens) {
    const uint32_t block = GetBlockIdx();
    const uint32_t first = block < formerNum ? block * formerTokens : formerNum * formerTokens + (block - formerNum) * tailTokens;
    blockTokens = block < formerNum ? formerTokens : tailTokens;
    this->heads = heads;
    this->half = half;
    halfPad = (half + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    const uint64_t dim = 2 * half;
    xGm.SetGlobalBuffer((__gm__ T*)x + first * heads * dim, static_cast<uint64_t>(blockTokens) * heads * dim);
    yGm.SetGlobalBuffer((__gm__ T*)y + first * heads * dim, static_cast<uint64_t>(blockTokens) * heads * dim);
    cosGm.SetGlobalBuffer((__gm__ T*)cos + first * dim, blockTokens * dim);
    sinGm.SetGlobalBuffer((__gm__ T*)sin + first * dim, blockTokens * dim);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, heads * 2 * halfPad * sizeof(T));
    pipe.InitBuffer(inQueueCs, BUFFER_NUM, 2 * 2 * halfPad * sizeof(T));
    pipe.InitBuffer(outQueueY, BUFFER_NUM, heads * 2 * halfPad * sizeof(T));
    pipe.InitBuffer(csBuf, 2 * 2 * halfPad * sizeof(float));
    pipe.InitBuffer(xfBuf, heads * 2 * halfPad * sizeof(float));
    pipe.InitBuffer(yfBuf, heads * 2 * halfPad * sizeof(float));
    pipe.InitBuffer(tBuf, heads * 2 * halfPad * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t t = 0; t < blockTokens; ++t) {
      LoadAngles(t);
      const uint64_t row = static_cast<uint64_t>(t) * heads * 2 * half;
      CopyIn(row);
      Compute();
      CopyOut(row);
    }
  }

 private:
  __aicore__ inline DataCopyExtParams Halves(uint32_t rows = 1) const {
    return {static_cast<uint16_t>(2 * rows), static_cast<uint32_t>(half * sizeof(T)), 0, 0, 0};
  }
  // cos and sin of one token, kept in fp32 for all its heads: csf = [cos | sin], each 2 * halfPad.
  __aicore__ inline void LoadAngles(uint32_t t) {
    LocalTensor<T> cs = inQueueCs.AllocTensor<T>();
    DataCopyPad(cs, cosGm[static_cast<uint64_t>(t) * 2 * half], Halves(), DataCopyPadExtParams<T>{false, 0, 0, 0});
    DataCopyPad(cs[2 * halfPad], sinGm[static_cast<uint64_t>(t) * 2 * half], Halves(), DataCopyPadExtParams<T>{false, 0, 0, 0});
    inQueueCs.EnQue(cs);
    cs = inQueueCs.DeQue<T>();
    LocalTensor<float> csf = csBuf.Get<float>();
    if constexpr (sizeof(T) == sizeof(float)) {
      Adds(csf, cs, 0.0f, 4 * halfPad);
    } else {
      Cast(csf, cs, RoundMode::CAST_NONE, 4 * halfPad);
    }
    inQueueCs.FreeTensor(cs);
  }
  __aicore__ inline void CopyIn(uint64_t row) {
    LocalTensor<T> x = inQueueX.AllocTensor<T>();
    DataCopyPad(x, xGm[row], Halves(heads), DataCopyPadExtParams<T>{false, 0, 0, 0});
    inQueueX.EnQue(x);
  }
  __aicore__ inline void Compute() {
    LocalTensor<T> x = inQueueX.DeQue<T>();
    LocalTensor<T> y = outQueueY.AllocTensor<T>();
    LocalTensor<float> csf = csBuf.Get<float>();
    LocalTensor<float> xf = xfBuf.Get<float>();
    LocalTensor<float> yf = yfBuf.Get<float>();
    LocalTensor<float> t = tBuf.Get<float>();
    const uint32_t n = 2 * halfPad;
    const uint32_t all = heads * n;
    if constexpr (sizeof(T) == sizeof(float)) {
      Adds(xf, x, 0.0f, all);
    } else {
      Cast(xf, x, RoundMode::CAST_NONE, all);
    }
    LocalTensor<float> sinf = csf[n];
    for (uint32_t h = 0; h < heads; ++h) {
      const uint32_t o = h * n;
      Mul(yf[o], xf[o], csf, n);                                 // x * cos
      Mul(t[o], xf[o + halfPad], sinf, halfPad);                 // x2 * sin1
      Mul(t[o + halfPad], xf[o], sinf[halfPad], halfPad);        // x1 * sin2
    }
    // y1 -= x2 sin1 and y2 += x1 sin2 differ only in sign: flip the first halves, one Add for all.
    for (uint32_t h = 0; h < heads; ++h) Muls(t[h * n], t[h * n], -1.0f, halfPad);
    Add(yf, yf, t, all);
    if constexpr (sizeof(T) == sizeof(float)) {
      Adds(y, yf, 0.0f, all);
    } else {
      Cast(y, yf, RoundMode::CAST_RINT, all);
    }
    outQueueY.EnQue<T>(y);
    inQueueX.FreeTensor(x);
  }
  __aicore__ inline void CopyOut(uint64_t row) {
    LocalTensor<T> y = outQueueY.DeQue<T>();
    DataCopyPad(yGm[row], y, Halves(heads));
    outQueueY.FreeTensor(y);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueCs;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueY;
  TBuf<QuePosition::VECCALC> csBuf, xfBuf, yfBuf, tBuf;
  GlobalTensor<T> xGm, cosGm, sinGm, yGm;
  uint32_t blockTokens, heads, half, halfPad;
};

extern "C" __global__ __aicore__ void rotary_embedding(GM_ADDR x, GM_ADDR cos, GM_ADDR sin, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelRotaryEmbedding<DTYPE_Y> op;
  op.Init(x, cos, sin, y, tilingData.heads, tilingData.half, tilingData.formerNum, tilingData.formerTokens, tilingData.tailTokens);
  op.Process();
}
