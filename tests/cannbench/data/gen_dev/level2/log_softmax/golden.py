import torch.nn.functional as F


def log_softmax(x, dim=-1):
    return F.log_softmax(x, dim=dim)
