def softsign_struct(x):
    v = x.astype(np.float32)
    return (v / (1 + np.abs(v))).astype(x.dtype)
