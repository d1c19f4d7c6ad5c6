#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_TILE_ROWS = 64;

// ReduceMax reports the index in an element of the data's width; -inf masks a taken element.
template <int BYTES> struct IndexOf;
template <> struct IndexOf<2> { using Type = uint16_t; static constexpr uint16_t NEG_INF = 0xFC00; };
template <> struct IndexOf<4> { using Type = uint32_t; static constexpr uint32_t NEG_INF = 0xFF800000u; };

// k rounds of (ReduceMax with index, record, mask the winner with -inf), run side by side on the
// rows of a tile: every round issues the tile's ReduceMaxes back to back and reads their winners
// together, one vector -> scalar wait per round and tile instead of per row. One multi-burst copy
// per tile in, one per output out. ReduceMax keeps the first occurrence of the maximum, so equal
// values come out in ascending index order.
template <typename T>
class KernelTopK {
  using IndexT = typename IndexOf<sizeof(T)>::Type;
  static constexpr uint32_t SLOT = 32 / sizeof(T);  // elements per row result slot (32 B aligned)

 public:
  __aicore__ inline KernelTopK() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR values, GM_ADDR indices, uint32_t cols, uint32_t k, uint32_t formerNum,
                              uint32_t formerRows, uint32_t tailRows, uint32_t rowsPerTile) {
    const uint32_t block = GetBlockIdx();
    const uint32_t first = block < formerNum ? block * formerRows : formerNum * formerRows + (block - formerNum) * tailRows;
    blockRows = block < formerNum ? formerRows : tailRows;
    this->cols = cols;
    this->k = k;
    this->rowsPerTile = rowsPerTile < MAX_TILE_ROWS ? rowsPerTile : MAX_TILE_ROWS;  // bounds at[]
    colsPad = (cols + SLOT - 1) / SLOT * SLOT;
    kPad = (k + SLOT - 1) / SLOT * SLOT;
    kPadIdx = (k + 7) / 8 * 8;
    xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(first) * cols, static_cast<uint64_t>(blockRows) * cols);
    valuesGm.SetGlobalBuffer((__gm__ T*)values + static_cast<uint64_t>(first) * k, static_cast<uint64_t>(blockRows) * k);
    indicesGm.SetGlobalBuffer((__gm__ int32_t*)indices + static_cast<uint64_t>(first) * k, static_cast<uint64_t>(blockRows) * k);
    xGm.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);  // read exactly once
    pipe.InitBuffer(inQueueX, BUFFER_NUM, this->rowsPerTile * colsPad * sizeof(T));
    pipe.InitBuffer(outQueueValues, BUFFER_NUM, this->rowsPerTile * kPad * sizeof(T));
    pipe.InitBuffer(outQueueIndices, BUFFER_NUM, this->rowsPerTile * kPadIdx * sizeof(int32_t));
    pipe.InitBuffer(workBuf, colsPad * sizeof(T));
    pipe.InitBuffer(redBuf, this->rowsPerTile * SLOT * sizeof(T));
  }
  __aicore__ inline void Process() {
    for (uint32_t done = 0; done < blockRows; done += rowsPerTile) {
      const uint32_t n = blockRows - done < rowsPerTile ? blockRows - done : rowsPerTile;
      CopyIn(done, n);
      Select(n);
      CopyOut(done, n);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t first, uint32_t n) {
    LocalTensor<T> x = inQueueX.AllocTensor<T>();
    DataCopyPad(x, xGm[static_cast<uint64_t>(first) * cols],
                DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, 0});
    inQueueX.EnQue(x);
  }
  __aicore__ inline void Select(uint32_t n) {
    LocalTensor<T> x = inQueueX.DeQue<T>();
    LocalTensor<T> values = outQueueValues.AllocTensor<T>();
    LocalTensor<int32_t> indices = outQueueIndices.AllocTensor<int32_t>();
    LocalTensor<T> work = workBuf.Get<T>();
    LocalTensor<T> red = redBuf.Get<T>();
    LocalTensor<IndexT> xBits = x.template ReinterpretCast<IndexT>();
    LocalTensor<IndexT> redBits = red.template ReinterpretCast<IndexT>();
    for (uint32_t j = 0; j < k; ++j) {
      for (uint32_t r = 0; r < n; ++r) ReduceMax(red[r * SLOT], x[r * colsPad], work, cols, true);
      for (uint32_t r = 0; r < n; ++r) at[r] = redBits.GetValue(r * SLOT + 1);
      for (uint32_t r = 0; r < n; ++r) {
        values.SetValue(r * kPad + j, red.GetValue(r * SLOT));
        indices.SetValue(r * kPadIdx + j, static_cast<int32_t>(at[r]));
        xBits.SetValue(r * colsPad + at[r], IndexOf<sizeof(T)>::NEG_INF);
      }
    }
    outQueueValues.EnQue(values);
    outQueueIndices.EnQue(indices);
    inQueueX.FreeTensor(x);
  }
  __aicore__ inline void CopyOut(uint32_t first, uint32_t n) {
    LocalTensor<T> values = outQueueValues.DeQue<T>();
    LocalTensor<int32_t> indices = outQueueIndices.DeQue<int32_t>();
    DataCopyPad(valuesGm[static_cast<uint64_t>(first) * k], values,
                DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(k * sizeof(T)), 0, 0, 0});
    DataCopyPad(indicesGm[static_cast<uint64_t>(first) * k], indices,
                DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(k * sizeof(int32_t)), 0, 0, 0});
    outQueueValues.FreeTensor(values);
    outQueueIndices.FreeTensor(indices);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueValues, outQueueIndices;
  TBuf<QuePosition::VECCALC> workBuf, redBuf;
  GlobalTensor<T> xGm, valuesGm;
  GlobalTensor<int32_t> indicesGm;
  IndexT at[MAX_TILE_ROWS];  // this round's winner of each row
  uint32_t blockRows, cols, colsPad, k, kPad, kPadIdx, rowsPerTile;
};

extern "C" __global__ __aicore__ void top_k(GM_ADDR x, GM_ADDR values, GM_ADDR indices, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelTopK<DTYPE_X> op;
  op.Init(x, values, indices, tilingData.cols, tilingData.k, tilingData.formerNum, tilingData.formerRows, tilingData.tailRows,
          tilingData.rowsPerTile);
  op.Process();
}
