import numpy as np

def where_max(x, y):
    return np.where(x > y, x, y)
