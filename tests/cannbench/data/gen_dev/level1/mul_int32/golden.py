import torch


def mul_int32(x1, x2):
    return torch.mul(x1, x2)
