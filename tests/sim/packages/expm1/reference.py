def expm1(x):
    return np.expm1(x.astype(np.float32)).astype(x.dtype)
