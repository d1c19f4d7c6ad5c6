from ascend_core.suite.cube_ref import matmul_f16


def gemv(x, w):
    return matmul_f16(x, w.T)
