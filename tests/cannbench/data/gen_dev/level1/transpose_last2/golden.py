import torch


def transpose_last2(x):
    return torch.transpose(x, -1, -2).contiguous()
