import torch


def clamp_tensor(x, lo, hi):
    return torch.clamp(x, min=lo, max=hi)
