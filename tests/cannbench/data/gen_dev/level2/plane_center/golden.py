def plane_center(x):
    return x - x.mean(dim=(2, 3), keepdim=True)
