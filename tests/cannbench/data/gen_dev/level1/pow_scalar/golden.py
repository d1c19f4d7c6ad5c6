import torch


def pow_scalar(x, exponent=2.0):
    return torch.pow(x, exponent)
