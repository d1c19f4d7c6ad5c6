import torch


def add_alpha_bf16(x1, x2, alpha=1.0):
    return torch.add(x1, x2, alpha=alpha)
