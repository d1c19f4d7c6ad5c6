"""foreach_add_scalar: y_i = x_i + scalar for three tensors of different shapes, one loop each."""

from ascend_gym.dsl import Kernel

k = Kernel("foreach_add_scalar")
xs = [k.input(f"x{i}") for i in range(3)]
ys = [k.output(f"y{i}") for i in range(3)]
scalar = k.attr("scalar")
for x, y in zip(xs, ys):
    with k.tiles() as t:  # each loop splits its own tensors across the blocks
        t.store(y, t.load(x).float() + scalar)
k.schedule(tile_length=8192, buffer_num=2, block_dim=40)
