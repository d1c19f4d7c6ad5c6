import torch


def permute_rotate(x):
    return torch.movedim(x, 0, -1)
