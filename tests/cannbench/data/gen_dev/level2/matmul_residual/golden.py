import torch


def matmul_residual(x1, x2, residual, alpha=1.0):
    y = alpha * torch.matmul(x1.float(), x2.float()) + residual.float()
    return y.to(x1.dtype)
