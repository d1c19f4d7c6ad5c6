#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// ReduceMax reports the index in an element of the data's width; -inf masks a taken element.
template <int BYTES> struct IndexOf;
template <> struct IndexOf<2> { using Type = uint16_t; static constexpr uint16_t NEG_INF = 0xFC00; };
template <> struct IndexOf<4> { using Type = uint32_t; static constexpr uint32_t NEG_INF = 0xFF800000u; };

// k rounds of (ReduceMax with index over the row, record, mask the winner with -inf). ReduceMax
// keeps the first occurrence of the maximum, so equal values come out in ascending index order.
template <typename T>
class KernelTopK {
  using IndexT = typename IndexOf<sizeof(T)>::Type;

 public:
  __aicore__ inline KernelTopK() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR values, GM_ADDR indices, uint32_t cols, uint32_t k, uint32_t formerNum,
                              uint32_t formerRows, uint32_t tailRows) {
    const uint32_t block = GetBlockIdx();
    const uint32_t first = block < formerNum ? block * formerRows : formerNum * formerRows + (block - formerNum) * tailRows;
    blockRows = block < formerNum ? formerRows : tailRows;
    this->cols = cols;
    this->k = k;
    xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(first) * cols, static_cast<uint64_t>(blockRows) * cols);
    valuesGm.SetGlobalBuffer((__gm__ T*)values + static_cast<uint64_t>(first) * k, static_cast<uint64_t>(blockRows) * k);
    indicesGm.SetGlobalBuffer((__gm__ int32_t*)indices + static_cast<uint64_t>(first) * k, static_cast<uint64_t>(blockRows) * k);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, cols * sizeof(T));
    pipe.InitBuffer(outQueueValues, BUFFER_NUM, k * sizeof(T));
    pipe.InitBuffer(outQueueIndices, BUFFER_NUM, k * sizeof(int32_t));
    pipe.InitBuffer(workBuf, cols * sizeof(T));
    pipe.InitBuffer(redBuf, 32);
  }
  __aicore__ inline void Process() {
    for (uint32_t r = 0; r < blockRows; ++r) {
      CopyIn(r);
      Select();
      CopyOut(r);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t r) {
    LocalTensor<T> x = inQueueX.AllocTensor<T>();
    DataCopyPad(x, xGm[static_cast<uint64_t>(r) * cols], DataCopyExtParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, 0});
    inQueueX.EnQue(x);
  }
  __aicore__ inline void Select() {
    LocalTensor<T> x = inQueueX.DeQue<T>();
    LocalTensor<T> values = outQueueValues.AllocTensor<T>();
    LocalTensor<int32_t> indices = outQueueIndices.AllocTensor<int32_t>();
    LocalTensor<T> work = workBuf.Get<T>();
    LocalTensor<T> red = redBuf.Get<T>();
    LocalTensor<IndexT> xBits = x.template ReinterpretCast<IndexT>();
    LocalTensor<IndexT> redBits = red.template ReinterpretCast<IndexT>();
    for (uint32_t j = 0; j < k; ++j) {
      ReduceMax(red, x, work, cols, true);
      const IndexT at = redBits.GetValue(1);
      values.SetValue(j, red.GetValue(0));
      indices.SetValue(j, static_cast<int32_t>(at));
      xBits.SetValue(at, IndexOf<sizeof(T)>::NEG_INF);
    }
    outQueueValues.EnQue(values);
    outQueueIndices.EnQue(indices);
    inQueueX.FreeTensor(x);
  }
  __aicore__ inline void CopyOut(uint32_t r) {
    LocalTensor<T> values = outQueueValues.DeQue<T>();
    LocalTensor<int32_t> indices = outQueueIndices.DeQue<int32_t>();
    DataCopyPad(valuesGm[static_cast<uint64_t>(r) * k], values, DataCopyExtParams{1, static_cast<uint32_t>(k * sizeof(T)), 0, 0, 0});
    DataCopyPad(indicesGm[static_cast<uint64_t>(r) * k], indices,
                DataCopyExtParams{1, static_cast<uint32_t>(k * sizeof(int32_t)), 0, 0, 0});
    outQueueValues.FreeTensor(values);
    outQueueIndices.FreeTensor(indices);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueValues, outQueueIndices;
  TBuf<QuePosition::VECCALC> workBuf, redBuf;
  GlobalTensor<T> xGm, valuesGm;
  GlobalTensor<int32_t> indicesGm;
  uint32_t blockRows, cols, k;
};

extern "C" __global__ __aicore__ void top_k(GM_ADDR x, GM_ADDR values, GM_ADDR indices, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelTopK<DTYPE_X> op;
  op.Init(x, values, indices, tilingData.cols, tilingData.k, tilingData.formerNum, tilingData.formerRows, tilingData.tailRows);
  op.Process();
}
