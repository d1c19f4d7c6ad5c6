import torch.nn.functional as F


def nll_loss_weighted(x, t, w):
    per_row = F.nll_loss(F.log_softmax(x, dim=-1), t, weight=w, reduction="none")
    total = F.cross_entropy(x, t, weight=w, ignore_index=1, reduction="sum")
    return per_row, total
