import numpy as np


def first_tiles(x: np.ndarray, tile_rows: int, tile_cols: int, shared: int, staggered: int, queued: int,
                cores: int) -> np.ndarray:
    """y[b] = the first 16 elements of the first tile block b reads (mirrors the kernel's order)."""
    rows, cols = x.shape
    band = rows if shared else rows // cores
    col_tiles = -(-cols // tile_cols)
    tiles = -(-band // tile_rows) * col_tiles
    y = np.empty((cores, 16), dtype=x.dtype)
    for b in range(cores):
        tile = b * tiles // cores if staggered else 0
        r0 = (0 if shared else b * band) + tile // col_tiles * tile_rows
        c0 = tile % col_tiles * tile_cols
        y[b] = x.reshape(-1)[r0 * cols + c0:r0 * cols + c0 + 16]
    return y
