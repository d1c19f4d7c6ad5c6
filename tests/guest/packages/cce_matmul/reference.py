from ascend_core.suite.cube_ref import mmad


def cce_matmul(a, b):
    return mmad(a, b)
