import torch.nn.functional as F


def kl_div_batchmean(a, b, reduction="batchmean"):
    return F.kl_div(a, b, reduction=reduction, log_target=True)
