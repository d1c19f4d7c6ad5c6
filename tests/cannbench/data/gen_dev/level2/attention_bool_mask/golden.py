import torch


def attention_bool_mask(q, k, v, mask):
    # a 0 / 1 mask input read as bool, masked_fill(~mask, -inf) in fp32; a row the mask leaves
    # no key is NaN, as torch's softmax of -inf alone gives it
    scores = torch.einsum("bhsd,bhkd->bhsk", q.float(), k.float()) * q.shape[-1] ** -0.5
    scores = scores.masked_fill(~mask.to(torch.bool), -torch.inf)
    out = torch.einsum("bhsk,bhkd->bhsd", scores.softmax(dim=-1), v.float())
    return out.to(q.dtype)


def get_input(q, k, v, mask, **kwargs):
    # the drawn 0 / 1 mask with the last query row of every matrix masked whole
    mask = mask.clone()
    mask[..., -1, :] = 0
    return q, k, v, mask
