"""numpy reference of the corpus operator diag_v2 (ours): the inputs positionally, the attrs by
their spec names."""

import numpy as np


def diag_v2(x, diagonal):
    return np.diagonal(x, diagonal).copy()
