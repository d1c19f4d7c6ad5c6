def fp8_cast(x, q):
    # The checker rounds these float values to each output's dtype (ml_dtypes' rounding for the
    # OCP types, npu_daemon/float8.py's for HiFloat8), so y must be the kernel's bytes exactly.
    return x, q
