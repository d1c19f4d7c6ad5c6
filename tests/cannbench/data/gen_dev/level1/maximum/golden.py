import torch


def maximum(x1, x2):
    return torch.maximum(x1, x2)
