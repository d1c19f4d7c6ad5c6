from ascend_core.suite.cube_ref import mmad


def cube_fill(a, b):
    a, b = a.copy(), b.copy()
    a[0:8, 0:16] = 2.0  # L1, Fill: 2 runs of 8 rows of column block 0, 8 rows apart
    a[16:24, 0:16] = 2.0
    a[31, 16:32] = 2.0  # L1, Fill as uint32_t words: block 63, row 31 of column block 1
    a[0:16, 16:32] = 0.5  # L0A, InitConstValue: fractal (0, 1)
    b[0:16, 0:16] = 0.0  # L0B, Fill: fractal (0, 0)
    return mmad(a, b)
