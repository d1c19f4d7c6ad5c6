def expand_rows(x, b):
    return np.broadcast_to(b, x.shape).astype(x.dtype)
