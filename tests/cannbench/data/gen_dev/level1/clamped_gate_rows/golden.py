import torch


def clamped_gate_rows(x, gate, limit=3.0, alpha=1.5):
    # the rows counted as PyTorch code often does, from a tensor of the shape's sizes
    rows = int(torch.prod(torch.tensor(x.shape[:-1])).item())
    x2 = x.float().reshape(rows, x.shape[-1])
    g2 = gate.float().reshape(rows, gate.shape[-1])
    kept, rest = x2[:rows], torch.zeros_like(x2[rows:, : x.shape[-1]])  # rest: no rows
    y = torch.sigmoid(alpha * g2.clamp(min=-limit, max=limit)) * kept.clamp(-limit, limit)
    return torch.cat((y, rest), dim=0).reshape(x.shape).to(x.dtype)
