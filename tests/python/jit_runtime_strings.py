"""Functions over strs computed at run time, run interpreted and compiled by
test_jit_runtime_strings.py."""

import numpy as np

from plait._strings import _format_float, _format_int, _format_str


def operators(a, b, n):
    s = a + b
    return (s, s * n, n * a, s == b, s != a, a < b, a <= b, a > b, a >= b, b in s, a not in b,
            len(s), bool(s))


def index(s, i):
    return s[i]


def slices(s, i, j, k):
    return s[i:j], s[i:], s[:j], s[::k], s[i:j:k]


def chosen(c):
    mode = "wrap" if c > 0 else "clip"
    if c == 0:
        mode = "edge"
    return mode, mode == "wrap", len(mode), mode + "!"


def accumulated(n):
    s = ""
    for i in range(n):
        s += str(i) + ","
    return s


def iterates(s, t):
    doubled = []
    for ch in s:
        doubled.append(ch + ch)
    found = -1
    for i, c in enumerate(t):
        if c == "a" and found < 0:
            found = i
    return doubled, found, [a + b for a, b in zip(s, t)], [c for c in reversed(s)], list(s)


def conversions(i, x, b):
    return str(i), str(x), str(b), str(None), str(np.int32(i)), str(np.float64(x)), repr(x)


def repr_of(s):
    return repr(s), f"{s!r}"


def to_int(s):
    return int(s)


def to_int_base(s, base):
    return int(s, base)


def to_float(s):
    return float(s)


def format_float(x, fill, align, sign, alternate, width, grouping, precision, kind, z):
    return _format_float(x, fill, align, sign, alternate, width, grouping, precision, kind, z)


def format_int(i, fill, align, sign, alternate, width, grouping, kind):
    return _format_int(i, fill, align, sign, alternate, width, grouping, kind)


def format_str(s, fill, align, width, precision):
    return _format_str(s, fill, align, width, precision)


def f_strings(i, x, s):
    return (f"i={i} x={x} s={s}", f"{i:>6d}|{i:<+5}|{i:^7x}|{i:#o}|{i:_b}|{i:,}",
            f"{x:.3f}|{x:10.2e}|{x:g}|{x:+.1%}|{x:.4}|{x:,.2f}|{x:012.3f}",
            f"{s:>8}|{s:*^9}|{s:.2}|{s!r:>10}", f"{True}{False:d}{None}")


def splits(s, sep, n):
    return s.split(), s.split(sep), s.split(sep, n), s.split(None, n)


def joins(parts, sep):
    return sep.join(parts), "".join(parts), ", ".join(["a", "b"])


def strips(s, chars):
    return s.strip(), s.lstrip(), s.rstrip(), s.strip(chars), s.lstrip(chars), s.rstrip(chars)


def searches(s, sub, i, j):
    return (s.find(sub), s.find(sub, i), s.find(sub, i, j), s.rfind(sub), s.rfind(sub, i, j),
            s.count(sub), s.count(sub, i, j), s.startswith(sub), s.startswith(sub, i, j),
            s.endswith(sub), s.endswith(sub, i, j), s.startswith((sub, "x")))


def index_of(s, sub):
    return s.index(sub), s.rindex(sub)


def replaces(s, old, new, n):
    return s.replace(old, new), s.replace(old, new, n)


def cases(s):
    return s.upper(), s.lower(), s.isdigit(), s.isalpha(), s.isspace()


def pads(s, width, fill):
    return s.ljust(width), s.rjust(width, fill), s.center(width, fill), s.zfill(width)


def list_of_strs(words, extra):
    out = []
    for w in words.split():
        if w not in out:
            out.append(w)
    out.append(extra)
    out.sort()
    return out, extra in out, min(out), max(out), sorted(out, reverse=True)


def word_counts(text, drop):
    counts = {}
    for w in text.split():
        counts[w] = counts.get(w, 0) + 1
    if drop in counts:
        del counts[drop]
    pairs = {(w, len(w)): i for i, w in enumerate(text.split())}
    return counts, pairs, "a" in counts, counts.get("b" + "", -1), sorted(list(counts.keys()))


def str_key_error(d, k):
    return d[k + "!"]


def str_keys_passed_in(d, k):
    d[k] = d.get(k, 0.0) + 1.0
    return d


def dict_of_strs(n):
    names = {}
    for i in range(n):
        names[i] = "item" + str(i)
    return names


def message(x):
    label = "x" + str(x)
    if x < 0:
        raise ValueError(f"negative {label!r}: {label}")
    return label


def prints(x, s):
    t = s + "!"
    print(t, f"{x:.2f}", [t, s])
    return t


def item_assignment(s):
    s[0] = "x"
    return s


def concatenate_int(s):
    return s + 1


def ordering_int(s):
    return s < 1


def str_of_float32(x):
    return str(np.float32(x))


def bad_spec(x):
    return f"{x:d}"


def operand_values(n, s):
    t = str(n)
    return t or "d", s or "empty", t and s, (s and "yes") or "no", "" or t


def str_of_str(s, n):
    t = "x" + str(n)
    return str(t), str(s), str(), f"{t!s:>4}"


def int_of_computed(n, base):
    return int(str(n), 16), int(str(n).strip() + "1", base)


def int_of_list_item(items, base):
    return int(items[0], base)


def pop_strs(n, i):
    out = []
    for k in range(n):
        out.append(str(k))
    return out.pop(i), out


def ascii_of(s, x):
    return f"{s!a}", f"{x!a}", f"{s!a:>12}"


def numpy_fields(b, u):
    return f"{b:5}", f"{b}", str(u), f"{u}"


def extremes(a, b, c):
    return min(a, b), max(a, b, c), min((a, "m")), max([a + "", c])
