import torch


def log_softmax_dim(x, dim=-1):
    return torch.log_softmax(x.float(), dim=dim).to(x.dtype)
