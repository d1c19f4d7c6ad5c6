// "../inc/row_ops.h" resolves beside this file once the build has copied op_kernel/ to
// tbe/ascendc/affine_rows/ and common/inc/op_kernel/ to tbe/ascendc/inc/.
#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "affine_rows_tiling_data.h"
#include "../inc/row_ops.h"
#include "arch22/affine_rows_impl.h"

extern "C" __global__ __aicore__ void affine_rows(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  REGISTER_TILING_DEFAULT(AffineRowsTilingData);
  GET_TILING_DATA_WITH_STRUCT(AffineRowsTilingData, tilingData, tiling);
  AffineRowsImpl(x, y, FloatBlocks(tilingData.total), tilingData.scale, tilingData.shift);
}
