import torch


def bmm_scores(q, k):
    # attention scores per batch: q @ k^T, as torch.bmm documents it for [B, n, m] x [B, m, p]
    return torch.bmm(q.float(), k.float().transpose(1, 2)).to(q.dtype)
