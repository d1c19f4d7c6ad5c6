import torch


def amax_last(x):
    return torch.amax(x, dim=-1, keepdim=True)
