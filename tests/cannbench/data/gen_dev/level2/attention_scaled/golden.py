import torch


class Model(torch.nn.Module):
    # attention with a fixed scale and one key / value head for every query head (expand), the
    # matrix products written as einsum, in the style of a multi-query attention block
    def __init__(self, scale):
        super().__init__()
        self.scale = scale
        self.dropout = torch.nn.Dropout(0.0)

    def forward(self, q, k, v):
        k = k.expand(-1, q.shape[1], -1, -1)
        v = v.expand(-1, q.shape[1], -1, -1)
        s = torch.einsum("bhsd,bhkd->bhsk", q, k) * self.scale
        p = self.dropout(s.softmax(dim=-1))
        return torch.einsum("bhsk,bhkd->bhsd", p, v)


def attention_scaled(q, k, v):
    return Model(0.25)(q, k, v)
