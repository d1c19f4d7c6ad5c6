import torch


def cumsum(x, dim=1):
    return torch.cumsum(x, dim=dim)
