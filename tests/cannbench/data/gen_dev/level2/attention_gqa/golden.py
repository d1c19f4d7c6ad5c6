import math

import torch.nn.functional as F


def attention_gqa(q, k, v):
    # scaled dot-product attention as torch.nn.functional.scaled_dot_product_attention documents
    # it (scale 1 / sqrt(E)), its key and value heads shared by groups of query heads (enable_gqa:
    # repeat_interleave along the head axis)
    group = q.size(-3) // k.size(-3)
    k = k.repeat_interleave(group, dim=-3)
    v = v.repeat_interleave(group, dim=-3)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    return F.softmax(scores, dim=-1) @ v
