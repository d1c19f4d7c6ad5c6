import torch


def attention_causal(q, k, v):
    # causal self-attention written out: a lower triangle of ones (torch.tril) masks the keys
    # after each query by masked_fill(mask == 0, -inf), the scale a tensor's sqrt
    scale = torch.tensor(1.0 / q.shape[-1], dtype=q.dtype).sqrt()
    scores = torch.matmul(q, k.transpose(-2, -1)) * scale
    mask = torch.tril(torch.ones(q.shape[-2], k.shape[-2], device=q.device))
    scores = scores.masked_fill(mask == 0, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v
