"""layer_norm: y = (x - mean) / sqrt(var + eps) * gamma + beta over the last axis."""

from ascend_gym.dsl import Kernel, rsqrt

k = Kernel("layer_norm")
x = k.input("x")
gamma = k.input("gamma", "cols")
beta = k.input("beta", "cols")
y = k.output("y")
eps = k.attr("eps")
with k.rows() as r:
    v = r.load(x).float()
    d = v - v.mean()  # a row value broadcast back over the row (Adds)
    inv = rsqrt((d * d).mean() + eps)  # per-row arithmetic on one 32 B block
    r.store(y, d * inv * r.load(gamma).float() + r.load(beta).float())
k.schedule(rows_per_tile=32, buffer_num=2, block_dim=40)
