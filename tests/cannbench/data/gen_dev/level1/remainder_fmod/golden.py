import torch


def remainder_fmod(x1, x2):
    return torch.remainder(x1, x2) + torch.fmod(x1, x2)
