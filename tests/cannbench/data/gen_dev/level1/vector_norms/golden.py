import torch


def vector_norms(x):
    l1 = torch.norm(x, p=1, dim=-1)
    linf = torch.linalg.vector_norm(x, ord=float("inf"), dim=-1, keepdim=True)
    return l1, linf
