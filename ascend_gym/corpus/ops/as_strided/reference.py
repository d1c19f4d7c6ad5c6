"""numpy reference of the corpus operator as_strided (ours): the inputs positionally (floats as
float32/float16 values, bf16 as float32), the attrs by their spec names; computed in float64
where rounding matters, rounded to each output's dtype by the checker."""

import numpy as np


def as_strided(x, size, stride, storage_offset):
    # torch.as_strided: y[i0, .., ik] = x.flat[storage_offset + sum(i_j * stride_j)].
    index = int(np.asarray(storage_offset).ravel()[0]) + sum(
        np.arange(int(n)).reshape([-1 if j == i else 1 for j in range(len(size))]) * int(s)
        for i, (n, s) in enumerate(zip(np.asarray(size).ravel(), np.asarray(stride).ravel()))
    )
    return np.asarray(x).ravel()[index]


def as_strided_attrs(x, input_size, input_stride, input_storage_offset):
    return as_strided(x, input_size, input_stride, input_storage_offset)
