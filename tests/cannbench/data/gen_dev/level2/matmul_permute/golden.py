import torch


def matmul_permute(x, y):
    # x stored [B, K, M]: permute(0, 2, 1) swaps its last two axes before the batched product
    return torch.matmul(x.permute(0, 2, 1).float(), y.float()).to(x.dtype)
