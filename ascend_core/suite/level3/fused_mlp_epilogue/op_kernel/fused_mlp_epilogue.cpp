#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelFusedMlpEpilogue {
 public:
  __aicore__ inline KernelFusedMlpEpilogue() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, uint32_t rows, uint32_t cols, uint32_t formerNum,
                              uint32_t formerRows, uint32_t tailRows, uint32_t rowsPerTile) {
    const uint32_t block = GetBlockIdx();
    rowStart = block < formerNum ? block * formerRows : formerNum * formerRows + (block - formerNum) * tailRows;
    blockRows = block < formerNum ? formerRows : tailRows;
    this->cols = cols;
    this->rowsPerTile = rowsPerTile;
    colsPad = (cols + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
    xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(rowStart) * cols * 1, static_cast<uint64_t>(blockRows) * cols * 1);
    yGm.SetGlobalBuffer((__gm__ T*)y + static_cast<uint64_t>(rowStart) * cols, static_cast<uint64_t>(blockRows) * cols);
    biasGm.SetGlobalBuffer((__gm__ T*)bias, cols);
    gammaGm.SetGlobalBuffer((__gm__ T*)gamma, cols);
    betaGm.SetGlobalBuffer((__gm__ T*)beta, cols);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, rowsPerTile * colsPad * sizeof(T));
    pipe.InitBuffer(outQueueY, BUFFER_NUM, rowsPerTile * colsPad * sizeof(T));
    pipe.InitBuffer(tmpBuf0, rowsPerTile * colsPad * sizeof(T));
    pipe.InitBuffer(vecQueue, 1, (3 * colsPad) * sizeof(T));
  }
  __aicore__ inline void Process() {
    LoadVectors();
    for (uint32_t r = 0; r < blockRows; ++r) {
      CopyIn(r, 1);
      Compute(r, 1);
      CopyOut(r, 1);
    }
    vecQueue.FreeTensor(vecs);
  }

 private:
  // The broadcast operands are read once per block and stay in the UB for every row.
  __aicore__ inline void LoadVectors() {
    LocalTensor<T> v = vecQueue.AllocTensor<T>();
    DataCopyPadExtParams<T> pad{false, 0, 0, 0};
    DataCopyPad(v, biasGm, DataCopyExtParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0}, pad);
    DataCopyPad(v[1 * colsPad], gammaGm, DataCopyExtParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0}, pad);
    DataCopyPad(v[2 * colsPad], betaGm, DataCopyExtParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0}, pad);
    vecQueue.EnQue(v);
    vecs = vecQueue.DeQue<T>();
  }
  __aicore__ inline void CopyIn(uint32_t row, uint32_t n) {
    LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
    DataCopyPadExtParams<T> pad{false, 0, 0, 0};
    DataCopyPad(xLocal, xGm[static_cast<uint64_t>(row) * cols],
                DataCopyExtParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0}, pad);
    inQueueX.EnQue(xLocal);
  }
  __aicore__ inline void Compute(uint32_t row, uint32_t rowsHere) {
    LocalTensor<T> xAll = inQueueX.DeQue<T>();
    LocalTensor<T> yAll = outQueueY.AllocTensor<T>();
    LocalTensor<T> tAll0 = tmpBuf0.Get<T>();
    const uint32_t n = colsPad;  // padded lanes are computed too and never written back
    // gelu(v) = v / (1 + e^(-2u)) with u = sqrt(2/pi) (v + 0.044715 v^3).
    for (uint32_t r = 0; r < rowsHere; ++r) {
      LocalTensor<T> x = xAll[r * colsPad];
      LocalTensor<T> y = yAll[r * colsPad];
      LocalTensor<T> t0 = tAll0[r * colsPad];
      LocalTensor<T> bias = vecs;
      LocalTensor<T> gamma = vecs[1 * colsPad];
      LocalTensor<T> beta = vecs[2 * colsPad];
      Add(y, x, bias, n);
      Mul(t0, y, y, n);
      Mul(t0, t0, y, n);
      Muls(t0, t0, static_cast<T>(0.044715f), n);
      Add(t0, t0, y, n);
      Muls(t0, t0, static_cast<T>(-1.5957691216057308f), n);
      Exp(t0, t0, n);
      Adds(t0, t0, static_cast<T>(1.0f), n);
      Div(y, y, t0, n);
      Mul(y, y, gamma, n);
      Add(y, y, beta, n);
    }
    outQueueY.EnQue<T>(yAll);
    inQueueX.FreeTensor(xAll);
  }
  __aicore__ inline void CopyOut(uint32_t row, uint32_t n) {
    LocalTensor<T> yLocal = outQueueY.DeQue<T>();
    DataCopyPad(yGm[static_cast<uint64_t>(row) * cols], yLocal,
                DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0});
    outQueueY.FreeTensor(yLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueY;
  TBuf<QuePosition::VECCALC> tmpBuf0;
  TQue<QuePosition::VECIN, 1> vecQueue;
  LocalTensor<T> vecs;
  GlobalTensor<T> xGm;
  GlobalTensor<T> biasGm;
  GlobalTensor<T> gammaGm;
  GlobalTensor<T> betaGm;
  GlobalTensor<T> yGm;
  uint32_t rowStart, blockRows, cols, colsPad, rowsPerTile;
};

extern "C" __global__ __aicore__ void fused_mlp_epilogue(GM_ADDR x, GM_ADDR bias, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelFusedMlpEpilogue<DTYPE_Y> op;
  op.Init(x, bias, gamma, beta, y, tilingData.rows, tilingData.cols, tilingData.formerNum, tilingData.formerRows,
          tilingData.tailRows, tilingData.rowsPerTile);
  op.Process();
}
