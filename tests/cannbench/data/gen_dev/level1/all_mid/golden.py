import torch


def all_mid(x, dim=1):
    return torch.all(x > -1.5, dim=dim)
