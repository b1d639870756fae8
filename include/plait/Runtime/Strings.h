//===- Strings.h - strs computed at run time ------------------------*-===//
//
// A str compiled code computes is a list's box (Lists.h) of its code points,
// one int64 item each: it is owned, stored and passed as a list is, and
// Python's str methods are Python code on those items (python/plait/
// _strings.py). What needs CPython's exact spelling of numbers (repr of a
// float, format() of a number with a format spec, float() of a str) is
// here, with CPython's algorithms on the correctly rounded digits of the C
// library. Each function but plait_rt_str_to_float fills `result`, an empty
// str compiled code made, and returns 0, or 1 when memory runs out.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_RUNTIME_STRINGS_H
#define PLAIT_RUNTIME_STRINGS_H

#include <cstdint>
#include <vector>

namespace plait {
/// The first code points of the runs of ten decimal digits plait knows
/// (up to Unicode 16.0), for the bindings to keep those the interpreter
/// knows: float() and int() of a str read exactly the interpreter's digits.
std::vector<int64_t> decimalZeroCandidates();
/// Called once, at import, before any compiled code runs.
void setKnownDecimalZeros(std::vector<int64_t> zeros);
} // namespace plait

extern "C" {
/// str(value) of an int.
int32_t plait_rt_str_of_int(int64_t result, int64_t value);
/// repr(value) of a float (CPython's shortest round-trip digits).
int32_t plait_rt_str_of_float(int64_t result, double value);
/// format(value, spec) of an int, the spec parsed (and checked) when
/// compiling: `fill` a code point, `align` one of < > = ^, `sign` one of
/// - + space, `alternate` the '#' flag, `width`, `grouping` ',' '_' or 0,
/// `type` one of d b o x X c (0: d).
int32_t plait_rt_str_format_int(int64_t result, int64_t value, int64_t fill, int64_t align,
                                int64_t sign, int64_t alternate, int64_t width, int64_t grouping,
                                int64_t type);
/// format(value, spec) of a float: as plait_rt_str_format_int, with
/// `precision` (-1: not given), `type` one of e E f F g G % (0: none given),
/// `noNegativeZero` the 'z' flag.
int32_t plait_rt_str_format_float(int64_t result, double value, int64_t fill, int64_t align,
                                  int64_t sign, int64_t alternate, int64_t width, int64_t grouping,
                                  int64_t precision, int64_t type, int64_t noNegativeZero);
/// format(text, spec) of a str (the box `text`): padded to `width` with
/// `fill` as `align` says, cut to `precision` code points (-1: all).
int32_t plait_rt_str_format_str(int64_t result, int64_t text, int64_t fill, int64_t align,
                                int64_t width, int64_t precision);
/// The concatenation of the `count` strs whose boxes' addresses are at
/// `boxes`.
int32_t plait_rt_str_concat(int64_t result, int64_t boxes, int64_t count);
/// What int() and float() read of `text`: non-ASCII whitespace as a space,
/// non-ASCII decimal digits as ASCII ones, other non-ASCII as '?'.
int32_t plait_rt_str_number_text(int64_t result, int64_t text);
/// float(text) by CPython's rules (whitespace around, '_' between digits,
/// inf/infinity/nan in any case): 0 with the value in *out, or 1 when
/// `text` is no float literal.
int32_t plait_rt_str_to_float(int64_t text, double *out);
}

#endif // PLAIT_RUNTIME_STRINGS_H
