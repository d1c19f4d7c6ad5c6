import torch


def cumprod_mid(x, dim=1):
    return torch.cumprod(x, dim=dim)
