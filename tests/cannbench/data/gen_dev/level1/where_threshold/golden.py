import torch


def where_threshold(x, threshold=0.0, scale=0.1):
    return torch.where(x > threshold, x, x * scale)
