"""strs computed when compiled code runs, against CPython: concatenation,
comparisons, indexing, str(), repr(), int() and float() of strs, format()
specs and f-strings as values, the str methods, lists and dicts of strs, and
strs in messages and print(); the same functions run interpreted and
compiled, with their results and exceptions (type and message)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import jit_runtime_strings as py
import plait
from plait._strings import _Spec
from jit_support import assert_same, jitted_copies

jit = jitted_copies(py)
SETTINGS = settings(max_examples=60, deadline=None)

# Text of the alphabet the tests' functions see: separators, signs, digits,
# quotes and escapes, a little non-ASCII.
alphabet = st.sampled_from(list("ab ,-_+.0159eExX\t\n'\"\\é€\x1f\x85٣"))
texts = st.text(alphabet, max_size=10)
short = st.text(st.sampled_from(list("ab ,x")), max_size=3)
positions = st.integers(-12, 12)


@given(a=texts, b=texts, n=st.integers(-2, 3))
@SETTINGS
def test_operators(a: str, b: str, n: int) -> None:
    assert_same(py.operators, jit.operators, a, b, n)


@given(s=texts, i=positions, j=positions, k=st.sampled_from([1, 2, -1, -3]))
@SETTINGS
def test_indexing_and_slices(s: str, i: int, j: int, k: int) -> None:
    assert_same(py.index, jit.index, s, i)  # IndexError: string index out of range
    assert_same(py.slices, jit.slices, s, i, j, k)


@given(s=texts, t=texts)
@SETTINGS
def test_iteration(s: str, t: str) -> None:
    assert_same(py.iterates, jit.iterates, s, t)


@given(c=st.integers(-2, 2), n=st.integers(0, 12))
@SETTINGS
def test_strs_chosen_and_built_at_run_time(c: int, n: int) -> None:
    assert_same(py.chosen, jit.chosen, c)
    assert_same(py.accumulated, jit.accumulated, n)


floats = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                   st.sampled_from([0.0, -0.0, 1e16, 1e15, 9999999999999998.0, 1e-4, 1e-5, 0.1, 5e-324,
                                    1.7976931348623157e308, 123456789.125, 0.5, 2.5]))
ints = st.integers(-(2**63), 2**63 - 1)


@given(i=st.integers(-(2**31), 2**31 - 1), x=floats, b=st.booleans())
@SETTINGS
def test_str_and_repr_of_numbers(i: int, x: float, b: bool) -> None:
    assert_same(py.conversions, jit.conversions, i, x, b)


@given(s=texts)
@SETTINGS
def test_repr_of_strs(s: str) -> None:
    assert_same(py.repr_of, jit.repr_of, s)


int_texts = st.one_of(texts, st.from_regex(r"\A\s{0,2}[-+]?(0[xob])?[0-9a-f_]{0,8}\s{0,2}\Z"),
                      st.integers(-(2**62), 2**62).map(str))


@given(s=int_texts, base=st.sampled_from([0, 2, 8, 10, 16, 36]))
@SETTINGS
def test_int_of_strs(s: str, base: int) -> None:
    assert_same(py.to_int, jit.to_int, s)
    assert_same(py.to_int_base, jit.to_int_base, s, base)


float_texts = st.one_of(
    texts, floats.map(repr),
    st.from_regex(r"\A\s{0,2}[-+]?(\d{1,4}(_?\d){0,4}\.?\d{0,4}|\.\d{1,4})([eE][-+]?\d{1,3})?\s{0,2}\Z"),
    st.sampled_from(["inf", "-Infinity", "nan", "+NaN", " 1_000.5 ", "1__0", "_1", "1_", "1e", ".",
                     "0x10", "1.5\u3000", "infinit", "1e5_0"]))


@given(s=float_texts)
@SETTINGS
def test_float_of_strs(s: str) -> None:
    assert_same(py.to_float, jit.to_float, s)


@pytest.mark.parametrize("zero", plait._core.jit._decimal_zero_candidates())
def test_float_of_every_script_digit(zero: int) -> None:
    # Each script's digits that plait knows, up to Unicode 16: the
    # interpreter's own Unicode version says which float() reads.
    assert_same(py.to_float, jit.to_float, chr(zero) + chr(zero + 7) + "." + chr(zero + 9))


def _spec(draw_fill, align, sign, z, alternate, zero, width, grouping, precision, kind) -> str:
    return ((draw_fill + align if align else "") + sign + z + alternate + zero + width + grouping
            + precision + kind)


spec_parts = dict(
    draw_fill=st.sampled_from(["", "*", "0", "x", "é"]),
    align=st.sampled_from(["", "<", ">", "=", "^"]),
    sign=st.sampled_from(["", "+", "-", " "]),
    z=st.sampled_from(["", "z"]),
    alternate=st.sampled_from(["", "#"]),
    zero=st.sampled_from(["", "0"]),
    width=st.sampled_from(["", "1", "7", "12", "25"]),
    grouping=st.sampled_from(["", ",", "_"]),
)


def _checked(value, spec: str) -> _Spec:
    try:
        format(value, spec)
    except ValueError:
        assume(False)
    return _Spec(spec, value)


@given(x=floats, precision=st.sampled_from(["", ".0", ".1", ".3", ".12", ".17"]),
       kind=st.sampled_from(["", "e", "E", "f", "F", "g", "G", "%", "n"]), **spec_parts)
@settings(max_examples=400, deadline=None)
def test_format_specs_of_floats(x: float, precision: str, kind: str, **parts: str) -> None:
    spec = _spec(precision=precision, kind=kind, **parts)
    s = _checked(x, spec)
    code = 0 if not s.type else ord("g" if s.type == "n" else s.type)
    got = jit.format_float(x, s.fill, s.align, s.sign, s.alternate, s.width, s.grouping, s.precision,
                           code, s.z)
    assert got == format(x, spec), spec


@given(i=ints, kind=st.sampled_from(["", "d", "b", "o", "x", "X", "n"]), **spec_parts)
@settings(max_examples=300, deadline=None)
def test_format_specs_of_ints(i: int, kind: str, **parts: str) -> None:
    spec = _spec(precision="", kind=kind, **parts)
    assume("z" not in spec)
    s = _checked(i, spec)
    code = ord("d" if s.type in ("", "n") else s.type)
    got = jit.format_int(i, s.fill, s.align, s.sign, s.alternate, s.width, s.grouping, code)
    assert got == format(i, spec), spec


@given(s=texts, fill=st.sampled_from(["", "*", "é"]), align=st.sampled_from(["", "<", ">", "^"]),
       width=st.sampled_from(["", "3", "11"]), precision=st.sampled_from(["", ".0", ".2"]))
@SETTINGS
def test_format_specs_of_strs(s: str, fill: str, align: str, width: str, precision: str) -> None:
    spec = (fill + align if align else "") + width + precision
    parsed = _checked(s, spec)
    got = jit.format_str(s, parsed.fill, parsed.align, parsed.width, parsed.precision)
    assert got == format(s, spec), spec


@given(i=st.integers(-(10**6), 10**6), x=floats, s=texts)
@SETTINGS
def test_f_strings_as_values(i: int, x: float, s: str) -> None:
    assert_same(py.f_strings, jit.f_strings, i, x, s)


@given(s=texts, sep=st.sampled_from([",", " ", "ab", "-", "é"]), n=st.integers(-1, 3))
@SETTINGS
def test_split(s: str, sep: str, n: int) -> None:
    assert_same(py.splits, jit.splits, s, sep, n)


@given(parts=st.lists(texts, max_size=5), sep=short)
@SETTINGS
def test_join(parts: list, sep: str) -> None:
    assume(parts)  # (an empty list has no item type to compile for)
    assert_same(py.joins, jit.joins, parts, sep)


@given(s=texts, chars=short)
@SETTINGS
def test_strip(s: str, chars: str) -> None:
    assert_same(py.strips, jit.strips, s, chars)


@given(s=texts, sub=short, i=positions, j=positions)
@SETTINGS
def test_searching(s: str, sub: str, i: int, j: int) -> None:
    assert_same(py.searches, jit.searches, s, sub, i, j)
    assert_same(py.index_of, jit.index_of, s, sub)  # ValueError: substring not found


@given(s=texts, old=short, new=short, n=st.integers(-1, 3))
@SETTINGS
def test_replace(s: str, old: str, new: str, n: int) -> None:
    assert_same(py.replaces, jit.replaces, s, old, new, n)


@given(s=st.text(st.sampled_from(list("aZ09 \t_-")), max_size=6))
@SETTINGS
def test_cases_and_classes(s: str) -> None:
    assert_same(py.cases, jit.cases, s)


def test_case_mapping_of_non_ascii_text_is_refused_when_it_runs() -> None:
    with pytest.raises(NotImplementedError, match=r"str.upper\(\) of non-ASCII text"):
        jit.cases("é")


@given(s=texts, width=st.integers(-1, 14), fill=st.sampled_from(["*", "é", "ab"]))
@SETTINGS
def test_padding(s: str, width: int, fill: str) -> None:
    assert_same(py.pads, jit.pads, s, width, fill)


@given(words=texts, extra=short)
@SETTINGS
def test_lists_of_strs(words: str, extra: str) -> None:
    assert_same(py.list_of_strs, jit.list_of_strs, words, extra)


def test_dicts_of_strs() -> None:
    assert jit.dict_of_strs(4) == py.dict_of_strs(4)


@given(text=st.text(st.sampled_from(list("ab c")), max_size=14), drop=short)
@SETTINGS
def test_str_keys(text: str, drop: str) -> None:
    assert_same(py.word_counts, jit.word_counts, text, drop)
    assert_same(py.str_key_error, jit.str_key_error, {"a!": 1}, drop)  # KeyError('x!')


@given(d=st.dictionaries(short, st.floats(-2, 2), min_size=1, max_size=4), k=short)
@SETTINGS
def test_str_keys_passed_in(d: dict, k: str) -> None:
    expected, got = dict(d), dict(d)
    assert py.str_keys_passed_in(expected, k) == jit.str_keys_passed_in(got, k)
    assert expected == got and list(expected) == list(got)


@given(x=st.integers(-3, 3))
@SETTINGS
def test_strs_in_messages(x: int) -> None:
    assert_same(py.message, jit.message, x)


def test_print_of_run_time_strs(capsys: pytest.CaptureFixture[str]) -> None:
    assert jit.prints(1.5, "ab") == py.prints(1.5, "ab")
    out = capsys.readouterr().out.splitlines()
    assert out[0] == out[1] == "ab! 1.50 ['ab!', 'ab']"


def test_what_is_refused() -> None:
    with pytest.raises(plait.TypingError, match="'str' object does not support item assignment"):
        jit.item_assignment("ab")
    with pytest.raises(plait.TypingError, match=r'can only concatenate str \(not "int"\) to str'):
        jit.concatenate_int("ab")
    with pytest.raises(plait.TypingError, match="'<' not supported between instances of 'str' and 'int'"):
        jit.ordering_int("ab")
    with pytest.raises(plait.TypingError, match=r"str\(\) of numpy.float32 is not supported"):
        jit.str_of_float32(1.5)
    with pytest.raises(plait.TypingError, match="Unknown format code 'd' for object of type 'float'"):
        jit.bad_spec(1.5)


@given(n=st.integers(-3, 30), s=short)
@SETTINGS
def test_and_or_give_strs(n: int, s: str) -> None:
    assert_same(py.operand_values, jit.operand_values, n, s)
    assert_same(py.str_of_str, jit.str_of_str, s, n)


@given(n=st.integers(0, 10**6), base=st.sampled_from([0, 1, 2, 10, 16, 36, 37, -5]))
@SETTINGS
def test_int_of_computed_strs(n: int, base: int) -> None:
    assert_same(py.int_of_computed, jit.int_of_computed, n, base)


@pytest.mark.parametrize("text, base", [("-9223372036854775808", 10), ("-8000000000000000", 16),
                                        ("9223372036854775807", 0), ("12", 37), ("12", 1)])
def test_int_at_the_int64_bounds_and_bad_bases(text: str, base: int) -> None:
    assert_same(py.int_of_list_item, jit.int_of_list_item, [text], base)


@given(n=st.integers(1, 5), i=st.integers(-6, 6))
@SETTINGS
def test_pop_of_a_list_of_strs(n: int, i: int) -> None:
    assert_same(py.pop_strs, jit.pop_strs, n, i)


@given(s=texts, x=floats)
@SETTINGS
def test_ascii_conversion(s: str, x: float) -> None:
    assert_same(py.ascii_of, jit.ascii_of, s, x)


def test_numpy_bools_and_uint64_in_strs() -> None:
    for b, u in [(np.bool_(True), np.uint64(2**64 - 1)), (np.bool_(False), np.uint64(0)),
                 (np.bool_(True), np.uint64(2**63))]:
        assert_same(py.numpy_fields, jit.numpy_fields, b, u)


@given(a=texts, b=texts, c=short)
@SETTINGS
def test_min_and_max_of_strs(a: str, b: str, c: str) -> None:
    assert_same(py.extremes, jit.extremes, a, b, c)
