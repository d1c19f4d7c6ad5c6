import torch


def einsum_scores(q, k):
    return torch.einsum("bhqd,bhkd->bhqk", q, k)
