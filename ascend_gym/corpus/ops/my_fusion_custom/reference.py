"""numpy reference of the corpus operator my_fusion_custom (ours): c = a @ b as the cube computes fp16
inputs (`ascend_core.suite.cube_ref.mmad`, docs/simulator.md, cube numbers)."""

from ascend_core.suite.cube_ref import mmad as cube_mmad


def my_fusion_custom(a, b):
    return cube_mmad(a, b)
