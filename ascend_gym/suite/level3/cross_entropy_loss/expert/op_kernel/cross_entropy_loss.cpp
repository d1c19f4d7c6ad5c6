#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t SLOT = 8;    // floats per row result slot: reductions need a 32 B-aligned dst
constexpr uint32_t MAX_TILE_ROWS = 64;

// loss = max + ln(sum(exp(x - max))) - x[target] per row, in fp32, outChunk rows per tile: one
// multi-burst copy in for logits and targets, one copy out for the losses; Cast and Exp run once
// over the tile, and each stage's row results are read back together (one vector -> scalar wait
// per stage and tile instead of one per row).
template <typename T>
class KernelCrossEntropyLoss {
 public:
  __aicore__ inline KernelCrossEntropyLoss() {}
  __aicore__ inline void Init(GM_ADDR logits, GM_ADDR target, GM_ADDR loss, uint32_t classes, uint32_t formerNum,
                              uint32_t formerRows, uint32_t tailRows, uint32_t outChunk, int32_t ignoreIndex) {
    const uint32_t block = GetBlockIdx();
    const uint32_t first = block < formerNum ? block * formerRows : formerNum * formerRows + (block - formerNum) * tailRows;
    blockRows = block < formerNum ? formerRows : tailRows;
    this->classes = classes;
    tileRows = outChunk < MAX_TILE_ROWS ? outChunk : MAX_TILE_ROWS;  // bounds the per-row arrays
    this->ignoreIndex = ignoreIndex;
    rowPad = (classes + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));  // the 32 B-padded UB row
    xGm.SetGlobalBuffer((__gm__ T*)logits + static_cast<uint64_t>(first) * classes, static_cast<uint64_t>(blockRows) * classes);
    targetGm.SetGlobalBuffer((__gm__ int32_t*)target + first, blockRows);
    lossGm.SetGlobalBuffer((__gm__ T*)loss + first, blockRows);
    xGm.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);  // the logits are read exactly once
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileRows * rowPad * sizeof(T));
    pipe.InitBuffer(inQueueTarget, BUFFER_NUM, tileRows * sizeof(int32_t));
    pipe.InitBuffer(outQueueLoss, BUFFER_NUM, tileRows * sizeof(T));
    pipe.InitBuffer(xfBuf, tileRows * rowPad * sizeof(float));
    pipe.InitBuffer(workBuf, rowPad * sizeof(float));
    pipe.InitBuffer(redBuf, tileRows * SLOT * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t done = 0; done < blockRows; done += tileRows) {
      const uint32_t n = blockRows - done < tileRows ? blockRows - done : tileRows;
      CopyIn(done, n);
      Compute(n);
      CopyOut(done, n);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t first, uint32_t n) {
    LocalTensor<T> x = inQueueX.AllocTensor<T>();
    LocalTensor<int32_t> t = inQueueTarget.AllocTensor<int32_t>();
    DataCopyPad(x, xGm[static_cast<uint64_t>(first) * classes],
                DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(classes * sizeof(T)), 0, 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, 0});
    DataCopyPad(t, targetGm[first], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(int32_t)), 0, 0, 0},
                DataCopyPadExtParams<int32_t>{false, 0, 0, 0});
    inQueueX.EnQue(x);
    inQueueTarget.EnQue(t);
  }
  __aicore__ inline void Compute(uint32_t n) {
    LocalTensor<T> x = inQueueX.DeQue<T>();
    LocalTensor<int32_t> t = inQueueTarget.DeQue<int32_t>();
    LocalTensor<T> losses = outQueueLoss.AllocTensor<T>();
    LocalTensor<float> xf = xfBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> red = redBuf.Get<float>();
    const uint32_t all = n * rowPad;  // padded lanes are computed too, never reduced nor picked
    if constexpr (sizeof(T) == sizeof(float)) {
      Adds(xf, x, 0.0f, all);
    } else {
      Cast(xf, x, RoundMode::CAST_NONE, all);
    }
    inQueueX.FreeTensor(x);
    for (uint32_t r = 0; r < n; ++r) {
      const int32_t target = t.GetValue(r);
      valid[r] = target != ignoreIndex && target >= 0 && target < static_cast<int32_t>(classes);
      picked[r] = valid[r] ? xf.GetValue(r * rowPad + target) : 0.0f;
    }
    inQueueTarget.FreeTensor(t);
    for (uint32_t r = 0; r < n; ++r) ReduceMax(red[r * SLOT], xf[r * rowPad], work, classes);
    for (uint32_t r = 0; r < n; ++r) rowMax[r] = red.GetValue(r * SLOT);
    for (uint32_t r = 0; r < n; ++r) Adds(xf[r * rowPad], xf[r * rowPad], -rowMax[r], classes);
    Exp(xf, xf, all);
    for (uint32_t r = 0; r < n; ++r) ReduceSum(red[r * SLOT], xf[r * rowPad], work, classes);
    Ln(red, red, n * SLOT);  // every row's sum in one pass (the slots' other lanes are never read)
    for (uint32_t r = 0; r < n; ++r)
      losses.SetValue(r, static_cast<T>(valid[r] ? rowMax[r] + red.GetValue(r * SLOT) - picked[r] : 0.0f));
    outQueueLoss.EnQue(losses);
  }
  __aicore__ inline void CopyOut(uint32_t first, uint32_t n) {
    LocalTensor<T> losses = outQueueLoss.DeQue<T>();
    DataCopyPad(lossGm[first], losses, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
    outQueueLoss.FreeTensor(losses);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueTarget;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueLoss;
  TBuf<QuePosition::VECCALC> xfBuf, workBuf, redBuf;
  GlobalTensor<T> xGm, lossGm;
  GlobalTensor<int32_t> targetGm;
  float rowMax[MAX_TILE_ROWS], picked[MAX_TILE_ROWS];
  bool valid[MAX_TILE_ROWS];
  uint32_t blockRows, classes, rowPad, tileRows;
  int32_t ignoreIndex;
};

extern "C" __global__ __aicore__ void cross_entropy_loss(GM_ADDR logits, GM_ADDR target, GM_ADDR loss, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelCrossEntropyLoss<DTYPE_LOSS> op;
  op.Init(logits, target, loss, tilingData.classes, tilingData.formerNum, tilingData.formerRows, tilingData.tailRows,
          tilingData.outChunk, tilingData.ignoreIndex);
  op.Process();
}
