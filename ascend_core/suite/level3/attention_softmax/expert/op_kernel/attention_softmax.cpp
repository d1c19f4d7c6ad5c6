#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t SLOT = 8;  // floats per row result slot: ReduceMax/ReduceSum need a 32 B-aligned dst
constexpr uint32_t MAX_TILE_ROWS = 64;

// Row-wise softmax(x * scale + mask), computed in fp32 whatever the storage dtype T, many rows per
// tile: element-wise stages run once over the whole tile, only the two reductions and the two
// row-scalar stages run per row, and each stage's row results are read back together (one
// vector -> scalar wait per stage and tile instead of one per row).
template <typename T>
class KernelAttentionSoftmax {
 public:
  __aicore__ inline KernelAttentionSoftmax() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR mask, GM_ADDR y, uint32_t cols, uint32_t maskRows, uint32_t formerNum,
                              uint32_t formerRows, uint32_t tailRows, uint32_t rowsPerTile, float scale) {
    const uint32_t block = GetBlockIdx();
    rowStart = block < formerNum ? block * formerRows : formerNum * formerRows + (block - formerNum) * tailRows;
    blockRows = block < formerNum ? formerRows : tailRows;
    this->cols = cols;
    this->maskRows = maskRows;
    this->rowsPerTile = rowsPerTile < MAX_TILE_ROWS ? rowsPerTile : MAX_TILE_ROWS;  // bounds rowScalar
    this->scale = scale;
    colsPad = (cols + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));  // the 32 B-padded UB row of DataCopyPad
    xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(rowStart) * cols, static_cast<uint64_t>(blockRows) * cols);
    yGm.SetGlobalBuffer((__gm__ T*)y + static_cast<uint64_t>(rowStart) * cols, static_cast<uint64_t>(blockRows) * cols);
    maskGm.SetGlobalBuffer((__gm__ T*)mask, static_cast<uint64_t>(maskRows) * cols);
    xGm.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);  // read once; the mask is re-read by every head and stays
    pipe.InitBuffer(inQueueX, BUFFER_NUM, this->rowsPerTile * colsPad * sizeof(T));
    pipe.InitBuffer(inQueueMask, BUFFER_NUM, this->rowsPerTile * colsPad * sizeof(T));
    pipe.InitBuffer(outQueueY, BUFFER_NUM, this->rowsPerTile * colsPad * sizeof(T));
    pipe.InitBuffer(xBuf, this->rowsPerTile * colsPad * sizeof(float));
    pipe.InitBuffer(maskBuf, this->rowsPerTile * colsPad * sizeof(float));
    pipe.InitBuffer(workBuf, colsPad * sizeof(float));
    pipe.InitBuffer(redBuf, this->rowsPerTile * SLOT * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t done = 0; done < blockRows; done += rowsPerTile) {
      const uint32_t n = blockRows - done < rowsPerTile ? blockRows - done : rowsPerTile;
      CopyIn(done, n);
      Compute(n);
      CopyOut(done, n);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t first, uint32_t n) {
    LocalTensor<T> x = inQueueX.AllocTensor<T>();
    LocalTensor<T> m = inQueueMask.AllocTensor<T>();
    DataCopyPad(x, xGm[static_cast<uint64_t>(first) * cols], DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, 0});
    // The tile's mask rows are consecutive modulo q: one multi-burst copy per wrap.
    for (uint32_t got = 0; got < n;) {
      const uint32_t mRow = (rowStart + first + got) % maskRows;
      const uint32_t take = n - got < maskRows - mRow ? n - got : maskRows - mRow;
      DataCopyPad(m[got * colsPad], maskGm[static_cast<uint64_t>(mRow) * cols],
                  DataCopyExtParams{static_cast<uint16_t>(take), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0},
                  DataCopyPadExtParams<T>{false, 0, 0, 0});
      got += take;
    }
    inQueueX.EnQue(x);
    inQueueMask.EnQue(m);
  }
  __aicore__ inline void Compute(uint32_t n) {
    LocalTensor<T> x = inQueueX.DeQue<T>();
    LocalTensor<T> m = inQueueMask.DeQue<T>();
    LocalTensor<T> y = outQueueY.AllocTensor<T>();
    LocalTensor<float> xf = xBuf.Get<float>();
    LocalTensor<float> mf = maskBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> red = redBuf.Get<float>();
    const uint32_t all = n * colsPad;  // padded lanes are computed too, never reduced nor written back
    if constexpr (sizeof(T) == sizeof(float)) {
      Muls(xf, x, scale, all);
      Add(xf, xf, m, all);
    } else {
      Cast(xf, x, RoundMode::CAST_NONE, all);
      Cast(mf, m, RoundMode::CAST_NONE, all);
      Muls(xf, xf, scale, all);
      Add(xf, xf, mf, all);
    }
    for (uint32_t r = 0; r < n; ++r) ReduceMax(red[r * SLOT], xf[r * colsPad], work, cols);
    for (uint32_t r = 0; r < n; ++r) rowScalar[r] = -red.GetValue(r * SLOT);
    for (uint32_t r = 0; r < n; ++r) Adds(xf[r * colsPad], xf[r * colsPad], rowScalar[r], cols);
    Exp(xf, xf, all);
    for (uint32_t r = 0; r < n; ++r) ReduceSum(red[r * SLOT], xf[r * colsPad], work, cols);
    for (uint32_t r = 0; r < n; ++r) rowScalar[r] = 1.0f / red.GetValue(r * SLOT);
    if constexpr (sizeof(T) == sizeof(float)) {
      for (uint32_t r = 0; r < n; ++r) Muls(y[r * colsPad], xf[r * colsPad], rowScalar[r], cols);
    } else {
      for (uint32_t r = 0; r < n; ++r) Muls(xf[r * colsPad], xf[r * colsPad], rowScalar[r], cols);
      Cast(y, xf, RoundMode::CAST_RINT, all);
    }
    outQueueY.EnQue<T>(y);
    inQueueX.FreeTensor(x);
    inQueueMask.FreeTensor(m);
  }
  __aicore__ inline void CopyOut(uint32_t first, uint32_t n) {
    LocalTensor<T> y = outQueueY.DeQue<T>();
    DataCopyPad(yGm[static_cast<uint64_t>(first) * cols], y,
                DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0});
    outQueueY.FreeTensor(y);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueMask;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueY;
  TBuf<QuePosition::VECCALC> xBuf, maskBuf, workBuf, redBuf;
  GlobalTensor<T> xGm, maskGm, yGm;
  float rowScalar[MAX_TILE_ROWS];  // per-row max / reciprocal sum of one tile
  uint32_t rowStart, blockRows, cols, colsPad, maskRows, rowsPerTile;
  float scale;
};

extern "C" __global__ __aicore__ void attention_softmax(GM_ADDR x, GM_ADDR mask, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelAttentionSoftmax<DTYPE_Y> op;
  op.Init(x, mask, y, tilingData.cols, tilingData.maskRows, tilingData.formerNum, tilingData.formerRows, tilingData.tailRows,
          tilingData.rowsPerTile, tilingData.scale);
  op.Process();
}
