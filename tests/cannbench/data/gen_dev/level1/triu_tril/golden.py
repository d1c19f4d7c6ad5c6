import torch


def triu_tril(x):
    return torch.triu(x, diagonal=1) - 2 * torch.tril(x, diagonal=-2)
