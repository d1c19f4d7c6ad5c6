import numpy as np


def geglu(x: np.ndarray) -> np.ndarray:
    a, b = np.split(x.astype(np.float64), 2, axis=-1)
    return 0.5 * a * (1 + np.tanh(np.sqrt(2 / np.pi) * (a + 0.044715 * a**3))) * b
