"""str arguments and constants (compile-time values), None checks, and the
branches they decide; run interpreted and compiled by test_jit_strings.py."""


def boundary(a, mode="wrap"):
    n = a.shape[0]
    if mode == "wrap":
        return a[n - 1] + a[0]
    elif mode in ("clip", "edge"):
        return a[0] * 2.0
    elif mode == "reflect":
        return a[1] + a[0]
    raise ValueError(f"mode must be 'wrap', 'clip', 'edge' or 'reflect', not {mode!r}")


def by_rank(a, layout):
    # Only the live branch is typed: a[i, j] of a 1-D array never is.
    if layout == "2d":
        return a[0, 0] + a.shape[1]
    return a[0] + 0


def total(a, axis=None, scale=None):
    if axis is None:
        s = a.sum()
    else:
        s = a[axis]
    if scale is not None:
        s = s * scale
    return s


def compare(s, t):
    return (s == t, s != t, s < t, s <= t, s > t, s >= t, s in t, s not in t,
            s in ("a", "b", t), s == 3, 3 != s, s is None, s is not None, len(s), len(t))


def truth(s):
    return (1 if s else 0), (not s), ("yes" == s or "no" == s) and len(s) > 0


def chooses(flag):
    # A conditional expression known when compiling: its live side.
    return (1.0 if flag == "float" else 1) + 0


def shows(s, x):
    print(s, x, f"<{s}> <{s!r}> <{s:>6}> <{x:.2f}>", len(s))
    if len(s) > 3:
        raise KeyError(s)
    return len(s) * x


def ordering_mixed(s):
    return s < 3


def identity_of_values(a, b):
    return a is b


def returns_strs(mode, x):
    # strs go back to Python as str (the constant the code was compiled for).
    return mode, (mode, len(mode)), "done"


def checked(x):
    if x < 0:
        raise ValueError("negative")
    return "ok"


def calls_for_effect(x):
    # A call whose result is a str still runs (here: for its raise).
    checked(x)
    return x


def ends_in_a_pruned_branch(x, mode):
    if mode == "a":
        return x + 1
    else:
        pass
