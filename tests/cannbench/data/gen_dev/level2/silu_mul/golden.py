import torch.nn.functional as F


def silu_mul(a, b):
    return F.silu(a) * b
