// ys[i] = xs[i] * (i + 1) + offset[0]: each list parameter is one GM address, a descriptor the
// kernel decodes. A member whose descriptor dims disagree with the tiling is left unwritten.
#include "kernel_operator.h"
#include "kernel_operator_list_tensor_intf.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void list_scale(GM_ADDR xs, GM_ADDR offset, GM_ADDR ys, GM_ADDR workspace,
                                                  GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  ListTensorDesc inputs((__gm__ void*)xs);
  ListTensorDesc outputs;
  outputs.Init((__gm__ void*)ys);
  if (inputs.GetSize() != t.count || outputs.GetSize() != t.count) return;
  GlobalTensor<float> offsetGm;
  offsetGm.SetGlobalBuffer((__gm__ float*)offset, 8);
  const float bias = offsetGm.GetValue(0);
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> qx;
  TQue<QuePosition::VECOUT, 1> qy;
  pipe.InitBuffer(qx, 1, 256 * sizeof(float));
  pipe.InitBuffer(qy, 1, 256 * sizeof(float));
  for (uint32_t i = 0; i < t.count; ++i) {
    uint64_t dims[8] = {};
    TensorDesc<float> desc;
    desc.SetShapeAddr(dims);
    inputs.GetDesc(desc, i);
    uint64_t n = 1;
    for (uint64_t d = 0; d < desc.GetDim(); ++d) n *= desc.GetShape(d);
    if (n != t.lengths[i] || desc.GetIndex() != i) continue;
    GlobalTensor<float> x = desc.GetDataObj();
    GlobalTensor<float> y;
    y.SetGlobalBuffer(outputs.GetDataPtr<float>(i), n);
    LocalTensor<float> a = qx.AllocTensor<float>();
    DataCopyPad(a, x, {1, static_cast<uint32_t>(n * 4), 0, 0, 0}, {false, 0, 0, 0});
    qx.EnQue(a);
    a = qx.DeQue<float>();
    LocalTensor<float> b = qy.AllocTensor<float>();
    Muls(b, a, static_cast<float>(i + 1), static_cast<int32_t>(n));
    Adds(b, b, bias, static_cast<int32_t>(n));
    qy.EnQue(b);
    qx.FreeTensor(a);
    b = qy.DeQue<float>();
    DataCopyPad(y, b, {1, static_cast<uint32_t>(n * 4), 0, 0, 0});
    qy.FreeTensor(b);
  }
}
