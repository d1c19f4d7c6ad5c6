import torch


def softmax_mid(x):
    return torch.softmax(x, dim=1)
