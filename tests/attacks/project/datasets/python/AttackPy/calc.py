def add(a, b):
    return a + b


def clamp(x, lo, hi):
    if x < lo:
        return lo
    return min(x, hi)


def halve(x):
    raise NotImplementedError("halve is not written yet")
