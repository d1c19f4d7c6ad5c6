"""elu: y = x > 0 ? x : alpha * (e^x - 1), element by element."""

from ascend_gym.dsl import Kernel, exp, minimum, where

k = Kernel("elu")
x = k.input("x")
y = k.output("y")
alpha = k.attr("alpha")
with k.tiles() as t:
    v = t.load(x).float()  # fp16 tiles are cast up; fp32 tiles are used as they are
    t.store(y, where(v > 0, v, alpha * (exp(minimum(v, 0)) - 1)))  # cast back down on store
k.schedule(tile_length=8192, buffer_num=2, block_dim=40, l2_disable=["x"])
