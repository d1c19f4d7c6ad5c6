from ascend_core.suite.cube_ref import matmul_f16


def matmul_trans_a(a, b):
    return matmul_f16(a.T, b)
