import torch


def log_softmax_mid(x):
    return torch.log_softmax(x, dim=1)
