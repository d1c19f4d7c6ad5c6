#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t SLOT = 8;    // floats per 32 B block: reductions need a 32 B-aligned dst
constexpr uint32_t MAX_TILE_ROWS = 64;

// F.cross_entropy(reduction="mean") in three stages, as the baseline: per-block sums and counts of
// the valid rows' loss = max + ln(sum(exp(x - max))) - x[target] (fp32), the partials through the
// workspace, SyncAll, block 0 divides. Here tileRows rows per tile: one multi-burst copy in for
// logits and targets, issued a tile ahead; Cast and Exp run once over the tile, and each stage's
// row results are read back together (one vector -> scalar wait per stage and tile, not per row).
template <typename T>
class KernelCrossEntropyLoss {
 public:
  __aicore__ inline KernelCrossEntropyLoss() {}
  __aicore__ inline void Init(GM_ADDR logits, GM_ADDR target, GM_ADDR loss, GM_ADDR workspace, uint32_t classes,
                              uint32_t formerNum, uint32_t formerRows, uint32_t tailRows, uint32_t tileRows, int32_t ignoreIndex) {
    block = GetBlockIdx();
    blocks = GetBlockNum();
    const uint32_t first = block < formerNum ? block * formerRows : formerNum * formerRows + (block - formerNum) * tailRows;
    blockRows = block < formerNum ? formerRows : tailRows;
    this->classes = classes;
    this->tileRows = tileRows < MAX_TILE_ROWS ? tileRows : MAX_TILE_ROWS;  // bounds the per-row arrays
    this->ignoreIndex = ignoreIndex;
    rowPad = (classes + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));  // the 32 B-padded UB row
    blocksPad = (blocks + SLOT - 1) / SLOT * SLOT;
    xGm.SetGlobalBuffer((__gm__ T*)logits + static_cast<uint64_t>(first) * classes, static_cast<uint64_t>(blockRows) * classes);
    targetGm.SetGlobalBuffer((__gm__ int32_t*)target + first, blockRows);
    lossGm.SetGlobalBuffer((__gm__ T*)loss, 1);
    partialGm.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace), 2 * blocks);
    xGm.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);  // the logits are read exactly once
    pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileRows * rowPad * sizeof(T));
    pipe.InitBuffer(inQueueTarget, BUFFER_NUM, this->tileRows * sizeof(int32_t));
    pipe.InitBuffer(inQueuePartial, 1, 2 * blocksPad * sizeof(float));
    pipe.InitBuffer(outQueue, 1, 2 * SLOT * sizeof(float));
    pipe.InitBuffer(xfBuf, this->tileRows * rowPad * sizeof(float));
    pipe.InitBuffer(workBuf, (rowPad > blocksPad ? rowPad : blocksPad) * sizeof(float));
    pipe.InitBuffer(redBuf, (this->tileRows > 2 ? this->tileRows : 2) * SLOT * sizeof(float));  // Finish uses two slots
  }
  __aicore__ inline void Process() {
    float sum = 0.0f;
    float count = 0.0f;
    CopyIn(0, Rows(0));
    for (uint32_t done = 0; done < blockRows; done += tileRows) {
      // The next tile's copy is issued before this tile's compute, whose scalar reads would hold it back.
      if (done + tileRows < blockRows) CopyIn(done + tileRows, Rows(done + tileRows));
      Compute(Rows(done), sum, count);
    }
    WritePartial(sum, count);
    SyncAll();
    if (block == 0) Finish();
  }

 private:
  __aicore__ inline uint32_t Rows(uint32_t first) const { return blockRows - first < tileRows ? blockRows - first : tileRows; }
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
  // Adds the losses of the tile's valid rows to sum and their number to count.
  __aicore__ inline void Compute(uint32_t n, float& sum, float& count) {
    LocalTensor<T> x = inQueueX.DeQue<T>();
    LocalTensor<int32_t> t = inQueueTarget.DeQue<int32_t>();
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
    for (uint32_t r = 0; r < n; ++r) {
      if (!valid[r]) continue;
      sum += rowMax[r] + red.GetValue(r * SLOT) - picked[r];
      count += 1.0f;
    }
  }
  // Sum and count go out in one two-burst copy; they must land before the barrier.
  __aicore__ inline void WritePartial(float sum, float count) {
    LocalTensor<float> part = outQueue.AllocTensor<float>();
    part.SetValue(0, sum);
    part.SetValue(SLOT, count);
    outQueue.EnQue(part);
    part = outQueue.DeQue<float>();
    DataCopyPad(partialGm[block], part, DataCopyExtParams{2, sizeof(float), 0, static_cast<uint32_t>((blocks - 1) * sizeof(float)), 0});
    outQueue.FreeTensor(part);
    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
  }
  // Block 0: both partial rows in one copy, two reductions and sum / count (0 / 0 = NaN).
  __aicore__ inline void Finish() {
    LocalTensor<float> parts = inQueuePartial.AllocTensor<float>();
    DataCopyPad(parts, partialGm, DataCopyExtParams{2, static_cast<uint32_t>(blocks * sizeof(float)), 0, 0, 0},
                DataCopyPadExtParams<float>{false, 0, 0, 0});
    inQueuePartial.EnQue(parts);
    parts = inQueuePartial.DeQue<float>();
    LocalTensor<float> red = redBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    ReduceSum(red, parts, work, blocks);
    ReduceSum(red[SLOT], parts[blocksPad], work, blocks);
    Div(red, red, red[SLOT], 1);
    inQueuePartial.FreeTensor(parts);
    LocalTensor<T> out = outQueue.AllocTensor<T>();
    if constexpr (sizeof(T) == sizeof(float)) {
      Adds(out.template ReinterpretCast<float>(), red, 0.0f, 1);
    } else {
      Cast(out, red, RoundMode::CAST_RINT, 1);
    }
    outQueue.EnQue(out);
    out = outQueue.DeQue<T>();
    DataCopyPad(lossGm, out, DataCopyExtParams{1, sizeof(T), 0, 0, 0});
    outQueue.FreeTensor(out);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueTarget;
  TQue<QuePosition::VECIN, 1> inQueuePartial;
  TQue<QuePosition::VECOUT, 1> outQueue;
  TBuf<QuePosition::VECCALC> xfBuf, workBuf, redBuf;
  GlobalTensor<T> xGm, lossGm;
  GlobalTensor<int32_t> targetGm;
  GlobalTensor<float> partialGm;
  float rowMax[MAX_TILE_ROWS], picked[MAX_TILE_ROWS];
  bool valid[MAX_TILE_ROWS];
  uint32_t block, blocks, blockRows, classes, rowPad, blocksPad, tileRows;
  int32_t ignoreIndex;
};

extern "C" __global__ __aicore__ void cross_entropy_loss(GM_ADDR logits, GM_ADDR target, GM_ADDR loss, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelCrossEntropyLoss<DTYPE_LOSS> op;
  op.Init(logits, target, loss, workspace, tilingData.classes, tilingData.formerNum, tilingData.formerRows, tilingData.tailRows,
          tilingData.tileRows, tilingData.ignoreIndex);
  op.Process();
}
