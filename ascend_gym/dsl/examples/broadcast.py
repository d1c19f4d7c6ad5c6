"""bias_gelu: y = gelu(x + bias), bias of shape [cols] shared by every row (tanh form)."""

from ascend_gym.dsl import Kernel, tanh

k = Kernel("bias_gelu")
x = k.input("x")
bias = k.input("bias", "cols")  # read once per block, kept in UB
y = k.output("y")
with k.rows() as r:
    v = r.load(x).float() + r.load(bias).float()
    r.store(y, 0.5 * v * (1 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v))))
k.schedule(rows_per_tile=64, buffer_num=2, block_dim=40)
