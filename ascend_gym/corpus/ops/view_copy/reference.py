"""numpy reference of the corpus operator view_copy (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def _view(size, stride, offset):
    """Flat indices of the strided view (size, stride, offset) of a buffer."""
    index = np.full([int(s) for s in size], int(offset[0]), np.int64)
    for axis, (s, t) in enumerate(zip(size, stride)):
        shape = [1] * len(size)
        shape[axis] = int(s)
        index = index + np.arange(int(s)).reshape(shape) * int(t)
    return index


def view_copy(
    dst, dst_size, dst_stride, dst_storage_offset, src, src_size, src_stride, src_storage_offset
):
    out = dst.copy()
    out[_view(dst_size, dst_stride, dst_storage_offset)] = src[
        _view(src_size, src_stride, src_storage_offset)
    ]
    return out
