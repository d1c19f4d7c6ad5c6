#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelCummax {
 public:
  __aicore__ inline KernelCummax() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t outer, uint32_t reduceLen, uint32_t inner, uint32_t formerNum,
                              uint32_t formerSlices, uint32_t tailSlices, uint32_t chunkRows) {
    const uint32_t block = GetBlockIdx();
    const uint32_t first = block < formerNum ? block * formerSlices
                                             : formerNum * formerSlices + (block - formerNum) * tailSlices;
    blockSlices = block < formerNum ? formerSlices : tailSlices;
    this->reduceLen = reduceLen;
    this->inner = inner;
    this->chunkRows = chunkRows;
    innerPad = (inner + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(first) * reduceLen * inner,
                        static_cast<uint64_t>(blockSlices) * reduceLen * inner);
    yGm.SetGlobalBuffer((__gm__ T*)y + static_cast<uint64_t>(first) * reduceLen * inner, static_cast<uint64_t>(blockSlices) * reduceLen * inner);
    pipe.InitBuffer(inQueue, BUFFER_NUM, chunkRows * innerPad * sizeof(T));
    pipe.InitBuffer(outQueue, BUFFER_NUM, chunkRows * innerPad * sizeof(T));
    pipe.InitBuffer(accBuf, innerPad * sizeof(T));
  }
  __aicore__ inline void Process() {
    for (uint32_t s = 0; s < blockSlices; ++s) {
      Slice(s);
    }
  }

 private:
  __aicore__ inline void Slice(uint32_t s) {
    const uint64_t base = static_cast<uint64_t>(s) * reduceLen * inner;
    LocalTensor<T> acc = accBuf.Get<T>();
    for (uint32_t r = 0; r < reduceLen; ++r) {
      const uint64_t off = base + static_cast<uint64_t>(r) * inner;
      CopyIn(off, 1);
      LocalTensor<T> x = inQueue.DeQue<T>();
      LocalTensor<T> y = outQueue.AllocTensor<T>();
      if (r == 0) {
        Adds(acc, x, static_cast<T>(0), innerPad);
      } else {
        Max(acc, acc, x, innerPad);
      }
      Adds(y, acc, static_cast<T>(0), innerPad);
      outQueue.EnQue(y);
      inQueue.FreeTensor(x);
      CopyOut(off, 1);
    }
  }
  __aicore__ inline void CopyIn(uint64_t offset, uint32_t rows) {
    LocalTensor<T> x = inQueue.AllocTensor<T>();
    DataCopyPad(x, xGm[offset], DataCopyExtParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(inner * sizeof(T)), 0, 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, 0});
    inQueue.EnQue(x);
  }
  __aicore__ inline void CopyOut(uint64_t offset, uint32_t rows) {
    LocalTensor<T> y = outQueue.DeQue<T>();
    DataCopyPad(yGm[offset], y, DataCopyExtParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(inner * sizeof(T)), 0, 0, 0});
    outQueue.FreeTensor(y);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
  TBuf<QuePosition::VECCALC> accBuf;
  GlobalTensor<T> xGm, yGm;
  uint32_t blockSlices, reduceLen, inner, innerPad, chunkRows;
};

extern "C" __global__ __aicore__ void cummax(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelCummax<DTYPE_Y> op;
  op.Init(x, y, tilingData.outer, tilingData.reduceLen, tilingData.inner, tilingData.formerNum, tilingData.formerSlices,
          tilingData.tailSlices, tilingData.chunkRows);
  op.Process();
}
