#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t SLOT = 8;  // floats per 32 B block: each partial and each reduction result gets its own

// F.cross_entropy(reduction="mean") in three stages. (1) Every block computes, one row at a time in
// fp32, loss = max + ln(sum(exp(x - max))) - x[target] for its rows whose target is a class index
// other than ignoreIndex, and keeps their sum and count. (2) Each block leaves (sum, count) in the
// workspace: sums at [0, blocks), counts at [blocks, 2 * blocks). (3) After SyncAll, block 0 adds
// both rows and writes sum / count (0 / 0 = NaN when no row is valid, as in PyTorch).
template <typename T>
class KernelCrossEntropyLoss {
 public:
  __aicore__ inline KernelCrossEntropyLoss() {}
  __aicore__ inline void Init(GM_ADDR logits, GM_ADDR target, GM_ADDR loss, GM_ADDR workspace, uint32_t classes,
                              uint32_t formerNum, uint32_t formerRows, uint32_t tailRows, int32_t ignoreIndex) {
    block = GetBlockIdx();
    blocks = GetBlockNum();
    const uint32_t first = block < formerNum ? block * formerRows : formerNum * formerRows + (block - formerNum) * tailRows;
    blockRows = block < formerNum ? formerRows : tailRows;
    this->classes = classes;
    this->ignoreIndex = ignoreIndex;
    rowPad = (classes + 15) / 16 * 16;
    blocksPad = (blocks + SLOT - 1) / SLOT * SLOT;
    xGm.SetGlobalBuffer((__gm__ T*)logits + static_cast<uint64_t>(first) * classes, static_cast<uint64_t>(blockRows) * classes);
    targetGm.SetGlobalBuffer((__gm__ int32_t*)target + first, blockRows);
    lossGm.SetGlobalBuffer((__gm__ T*)loss, 1);
    partialGm.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace), 2 * blocks);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, rowPad * sizeof(T));
    pipe.InitBuffer(inQueuePartial, 1, 2 * blocksPad * sizeof(float));
    pipe.InitBuffer(outQueue, 1, 2 * SLOT * sizeof(float));
    pipe.InitBuffer(xfBuf, rowPad * sizeof(float));
    pipe.InitBuffer(workBuf, (rowPad > blocksPad ? rowPad : blocksPad) * sizeof(float));
    pipe.InitBuffer(statBuf, 2 * SLOT * sizeof(float));
  }
  __aicore__ inline void Process() {
    float sum = 0.0f;
    float count = 0.0f;
    for (uint32_t r = 0; r < blockRows; ++r) {
      CopyIn(r);
      const int32_t target = targetGm.GetValue(r);
      const bool valid = target != ignoreIndex && target >= 0 && target < static_cast<int32_t>(classes);
      sum += RowLoss(target, valid);
      count += valid ? 1.0f : 0.0f;
    }
    WritePartial(sum, count);
    SyncAll();
    if (block == 0) Finish();
  }

 private:
  __aicore__ inline void CopyIn(uint32_t r) {
    LocalTensor<T> x = inQueueX.AllocTensor<T>();
    DataCopyPad(x, xGm[static_cast<uint64_t>(r) * classes], DataCopyExtParams{1, static_cast<uint32_t>(classes * sizeof(T)), 0, 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, 0});
    inQueueX.EnQue(x);
  }
  // The row's loss, or 0 for a row that does not count.
  __aicore__ inline float RowLoss(int32_t target, bool valid) {
    LocalTensor<T> x = inQueueX.DeQue<T>();
    LocalTensor<float> xf = xfBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> stat = statBuf.Get<float>();
    if constexpr (sizeof(T) == sizeof(float)) {
      Adds(xf, x, 0.0f, classes);
    } else {
      Cast(xf, x, RoundMode::CAST_NONE, classes);
    }
    inQueueX.FreeTensor(x);
    if (!valid) return 0.0f;
    const float picked = xf.GetValue(target);
    ReduceMax(stat, xf, work, classes);
    const float rowMax = stat.GetValue(0);
    Adds(xf, xf, -rowMax, classes);
    Exp(xf, xf, classes);
    ReduceSum(stat, xf, work, classes);
    Ln(stat, stat, 1);
    return rowMax + stat.GetValue(0) - picked;
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
  __aicore__ inline void Finish() {
    LocalTensor<float> parts = inQueuePartial.AllocTensor<float>();
    DataCopyPad(parts, partialGm, DataCopyExtParams{2, static_cast<uint32_t>(blocks * sizeof(float)), 0, 0, 0},
                DataCopyPadExtParams<float>{false, 0, 0, 0});
    inQueuePartial.EnQue(parts);
    parts = inQueuePartial.DeQue<float>();
    LocalTensor<float> stat = statBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    ReduceSum(stat, parts, work, blocks);                  // total loss
    ReduceSum(stat[SLOT], parts[blocksPad], work, blocks);  // valid rows
    Div(stat, stat, stat[SLOT], 1);
    inQueuePartial.FreeTensor(parts);
    LocalTensor<T> out = outQueue.AllocTensor<T>();
    if constexpr (sizeof(T) == sizeof(float)) {
      Adds(out.template ReinterpretCast<float>(), stat, 0.0f, 1);
    } else {
      Cast(out, stat, RoundMode::CAST_RINT, 1);
    }
    outQueue.EnQue(out);
    out = outQueue.DeQue<T>();
    DataCopyPad(lossGm, out, DataCopyExtParams{1, sizeof(T), 0, 0, 0});
    outQueue.FreeTensor(out);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
  TQue<QuePosition::VECIN, 1> inQueuePartial;
  TQue<QuePosition::VECOUT, 1> outQueue;
  TBuf<QuePosition::VECCALC> xfBuf, workBuf, statBuf;
  GlobalTensor<T> xGm, lossGm;
  GlobalTensor<int32_t> targetGm;
  GlobalTensor<float> partialGm;
  uint32_t block, blocks, blockRows, classes, rowPad, blocksPad;
  int32_t ignoreIndex;
};

extern "C" __global__ __aicore__ void cross_entropy_loss(GM_ADDR logits, GM_ADDR target, GM_ADDR loss, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelCrossEntropyLoss<DTYPE_LOSS> op;
  op.Init(logits, target, loss, workspace, tilingData.classes, tilingData.formerNum, tilingData.formerRows, tilingData.tailRows,
          tilingData.ignoreIndex);
  op.Process();
}
