"""reduce_mean_last: y[..., 0] = mean over the last axis, one value per row."""

from ascend_gym.dsl import Kernel

k = Kernel("reduce_mean_last")
x = k.input("x")
y = k.output("y", "rows")  # shape [rows, 1]: one value per row
with k.rows() as r:
    r.store(y, r.load(x).float().mean())
k.schedule(rows_per_tile=64, buffer_num=2, block_dim=40)
