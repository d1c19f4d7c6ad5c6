import torch


def add_list_rms_norm(xs: list[torch.Tensor], gamma: torch.Tensor, epsilon: float = 1e-6):
    # the list's tensors summed in fp32, then an RMS norm over the last axis with a weight
    total = xs[0].float()
    for t in xs[1:]:
        total = total + t.float()
    rstd = torch.rsqrt(total.pow(2).mean(dim=-1, keepdim=True) + epsilon)
    return (total * rstd * gamma.float()).to(gamma.dtype)
