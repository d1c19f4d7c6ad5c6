import numpy as np

def scale_shift_attr(x, scale, shift):
    return x * scale + shift
