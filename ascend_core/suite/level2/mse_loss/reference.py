import numpy as np


def mse_loss(predict: np.ndarray, label: np.ndarray) -> np.ndarray:
    d = predict.astype(np.float64) - label.astype(np.float64)
    return np.array([(d * d).mean()])
