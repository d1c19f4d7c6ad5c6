import torch


def gather_last(x, index):
    return torch.gather(x, -1, index.long())
