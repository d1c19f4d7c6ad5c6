#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelMseLoss {
 public:
  __aicore__ inline KernelMseLoss() {}
  __aicore__ inline void Init(GM_ADDR predict, GM_ADDR label, GM_ADDR y, GM_ADDR workspace, uint32_t totalLength,
                              uint32_t formerNum, uint32_t formerLength, uint32_t tailLength, uint32_t tileLength) {
    block = GetBlockIdx();
    const uint32_t offset = block < formerNum ? block * formerLength : formerNum * formerLength + (block - formerNum) * tailLength;
    blockLength = block < formerNum ? formerLength : tailLength;
    if (block == GetBlockNum() - 1) blockLength = totalLength - offset;  // the last block takes the ragged end
    this->totalLength = totalLength;
    this->tileLength = tileLength;
    predictGm.SetGlobalBuffer((__gm__ T*)predict + offset, blockLength);
    labelGm.SetGlobalBuffer((__gm__ T*)label + offset, blockLength);
    yGm.SetGlobalBuffer((__gm__ T*)y, 1);
    partialGm.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace), GetBlockNum());
    pipe.InitBuffer(inQueueP, BUFFER_NUM, tileLength * sizeof(T));
    pipe.InitBuffer(inQueueL, BUFFER_NUM, tileLength * sizeof(T));
    pipe.InitBuffer(diffBuf, tileLength * sizeof(float));
    pipe.InitBuffer(castBuf, tileLength * sizeof(float));
    pipe.InitBuffer(workBuf, tileLength * sizeof(float));
    pipe.InitBuffer(statBuf, 32);
    pipe.InitBuffer(partialQueue, 1, (GetBlockNum() * sizeof(float) + 31) / 32 * 32);
    pipe.InitBuffer(outQueue, 1, 32);
  }
  __aicore__ inline void Process() {
    float sum = 0.0f;
    for (uint32_t done = 0; done < blockLength; done += tileLength) {
      const uint32_t len = blockLength - done < tileLength ? blockLength - done : tileLength;
      CopyIn(done, len);
      sum += SquaredErrorSum(len);
    }
    WritePartial(sum);
    SyncAll();
    if (block == 0) {
      Finish();
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t offset, uint32_t len) {
    LocalTensor<T> p = inQueueP.AllocTensor<T>();
    LocalTensor<T> l = inQueueL.AllocTensor<T>();
    const DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
    DataCopyPad(p, predictGm[offset], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
    DataCopyPad(l, labelGm[offset], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
    inQueueP.EnQue(p);
    inQueueL.EnQue(l);
  }
  // sum((p - l)^2) over one tile, in float (fp16 tiles are cast up first).
  __aicore__ inline float SquaredErrorSum(uint32_t len) {
    LocalTensor<T> p = inQueueP.DeQue<T>();
    LocalTensor<T> l = inQueueL.DeQue<T>();
    LocalTensor<float> diff = diffBuf.Get<float>();
    LocalTensor<float> stat = statBuf.Get<float>();
    if constexpr (sizeof(T) == sizeof(float)) {
      Sub(diff, p.template ReinterpretCast<float>(), l.template ReinterpretCast<float>(), len);
    } else {
      LocalTensor<float> labelF = castBuf.Get<float>();
      Cast(diff, p, RoundMode::CAST_NONE, len);
      Cast(labelF, l, RoundMode::CAST_NONE, len);
      Sub(diff, diff, labelF, len);
    }
    Mul(diff, diff, diff, len);
    ReduceSum(stat, diff, workBuf.Get<float>(), len);
    inQueueP.FreeTensor(p);
    inQueueL.FreeTensor(l);
    return stat.GetValue(0);
  }
  // Each block leaves its partial sum in the workspace; it must land before the barrier.
  __aicore__ inline void WritePartial(float sum) {
    LocalTensor<float> part = outQueue.AllocTensor<float>();
    part.SetValue(0, sum);
    outQueue.EnQue(part);
    part = outQueue.DeQue<float>();
    DataCopyPad(partialGm[block], part, DataCopyExtParams{1, sizeof(float), 0, 0, 0});
    outQueue.FreeTensor(part);
    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
  }
  // Block 0 adds the partials of every block and divides by the element count.
  __aicore__ inline void Finish() {
    const uint32_t blocks = GetBlockNum();
    LocalTensor<float> parts = partialQueue.AllocTensor<float>();
    DataCopyPad(parts, partialGm, DataCopyExtParams{1, static_cast<uint32_t>(blocks * sizeof(float)), 0, 0, 0},
                DataCopyPadExtParams<float>{false, 0, 0, 0});
    partialQueue.EnQue(parts);
    parts = partialQueue.DeQue<float>();
    LocalTensor<float> stat = statBuf.Get<float>();
    ReduceSum(stat, parts, workBuf.Get<float>(), blocks);
    Muls(stat, stat, 1.0f / static_cast<float>(totalLength), 1);
    partialQueue.FreeTensor(parts);
    LocalTensor<T> out = outQueue.AllocTensor<T>();
    if constexpr (sizeof(T) == sizeof(float)) {
      Adds(out.template ReinterpretCast<float>(), stat, 0.0f, 1);
    } else {
      Cast(out, stat, RoundMode::CAST_RINT, 1);
    }
    outQueue.EnQue(out);
    out = outQueue.DeQue<T>();
    DataCopyPad(yGm, out, DataCopyExtParams{1, sizeof(T), 0, 0, 0});
    outQueue.FreeTensor(out);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueP, inQueueL;
  TQue<QuePosition::VECIN, 1> partialQueue;
  TQue<QuePosition::VECOUT, 1> outQueue;
  TBuf<QuePosition::VECCALC> diffBuf, castBuf, workBuf, statBuf;
  GlobalTensor<T> predictGm, labelGm, yGm;
  GlobalTensor<float> partialGm;
  uint32_t block, blockLength, totalLength, tileLength;
};

extern "C" __global__ __aicore__ void mse_loss(GM_ADDR predict, GM_ADDR label, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelMseLoss<DTYPE_Y> op;
  op.Init(predict, label, y, workspace, tilingData.totalLength, tilingData.formerNum, tilingData.formerLength, tilingData.tailLength,
          tilingData.tileLength);
  op.Process();
}
