import torch.nn.functional as F


def sdpa_causal(q, k, v):
    # is_causal: query row i attends to the keys j <= i (a lower triangle from the top left)
    return F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.3)
