def keyed_tiling(x, scale=1.0):
    return (x.astype(np.float32) * np.float32(scale)).astype(x.dtype)
