def orig_dtype_branch(x):
    # float16 takes the half path (x 2); float32 and bfloat16 (which arrives as float32) the float path (x 3).
    factor = 2.0 if x.dtype == np.float16 else 3.0
    return (x.astype(np.float32) * factor).astype(x.dtype)
