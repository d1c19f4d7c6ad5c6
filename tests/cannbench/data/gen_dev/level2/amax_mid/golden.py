import torch


def amax_mid(x):
    return torch.amax(x, dim=1, keepdim=True)
