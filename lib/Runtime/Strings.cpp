//===- Strings.cpp - strs computed at run time ----------------------------===//
//
// CPython's spelling of numbers (Python/pystrtod.c's float repr and 'g'
// rules, Python/formatter_unicode.c's format specs, Objects/floatobject.c's
// float()), on the correctly rounded digits of the C library.
//
//===----------------------------------------------------------------------===//
#include "plait/Runtime/Strings.h"
#include "plait/Runtime/Lists.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

using CodePoints = std::vector<int64_t>;

/// Makes the empty str `out` hold `text`'s code points: 0, or 1 when
/// memory runs out.
int32_t fillStr(int64_t out, const CodePoints &text) {
  auto length = static_cast<int64_t>(text.size());
  if (plait_rt_list_reserve(out, length, sizeof(int64_t), 0) != 0)
    return 1;
  auto *box = reinterpret_cast<int64_t *>(out);
  if (length)
    std::memcpy(reinterpret_cast<void *>(box[plait::kListItems]), text.data(),
                text.size() * sizeof(int64_t));
  box[plait::kListLength] = length;
  return 0;
}

void append(CodePoints &out, const std::string &ascii) {
  out.insert(out.end(), ascii.begin(), ascii.end());
}

/// A number as format() lays it out: its sign, the digits grouping and
/// zero padding apply to, and what follows them (".5e+10", "%").
struct Spelled {
  bool negative = false;
  std::string prefix; // 0x, 0b, 0o
  std::string integer;
  std::string rest;
  /// inf or nan: zero padding puts no separators in.
  bool digitless = false;
};

/// The digits of `integer` grouped by `separator` every `group` digits,
/// zero-padded to at least `minWidth` characters as CPython's
/// _PyUnicode_InsertThousandsGrouping pads them (never starting with a
/// separator).
std::string groupDigits(const std::string &integer, char separator, int group, int64_t minWidth) {
  std::string out; // reversed
  int64_t remaining = static_cast<int64_t>(integer.size());
  size_t next = integer.size();
  if (!separator) { // no groups: zeros up to the width
    int64_t zeros = std::max<int64_t>(0, minWidth - remaining);
    return std::string(static_cast<size_t>(zeros), '0') + integer;
  }
  bool first = true;
  for (;;) {
    int64_t length = std::min<int64_t>(group, std::max<int64_t>(std::max(remaining, minWidth), 1));
    int64_t zeros = std::max<int64_t>(0, length - remaining);
    int64_t chars = std::max<int64_t>(0, std::min(remaining, length));
    if (!first)
      out += separator;
    first = false;
    for (int64_t k = 0; k < chars; ++k)
      out += integer[--next];
    out.append(static_cast<size_t>(zeros), '0');
    remaining -= chars;
    minWidth -= length;
    if (remaining <= 0 && minWidth <= 0)
      break;
    minWidth -= 1;
  }
  return std::string(out.rbegin(), out.rend());
}

/// format()'s layout of `number`: sign, prefix, grouped digits, the rest,
/// padded with `padWith` to `width` as `align` says.
int32_t layOut(int64_t result, const Spelled &number, int64_t padWith, char align, char sign,
               int64_t width, char separator, int group) {
  std::string signText = number.negative ? "-" : sign == '+' ? "+" : sign == ' ' ? " " : "";
  int64_t around =
      static_cast<int64_t>(signText.size() + number.prefix.size() + number.rest.size());
  bool zeroPadded = padWith == '0' && align == '=';
  std::string digits = groupDigits(number.integer, number.digitless ? 0 : separator, group,
                                   zeroPadded ? width - around : 0);
  int64_t length = around + static_cast<int64_t>(digits.size());
  int64_t padding = std::max<int64_t>(0, width - length);
  int64_t left = align == '>' ? padding : align == '^' ? padding / 2 : 0;
  int64_t right = align == '<' ? padding : align == '^' ? padding - left : 0;
  int64_t inside = align == '=' ? padding : 0;
  CodePoints out;
  out.insert(out.end(), static_cast<size_t>(left), padWith);
  append(out, signText + number.prefix);
  out.insert(out.end(), static_cast<size_t>(inside), padWith);
  append(out, digits + number.rest);
  out.insert(out.end(), static_cast<size_t>(right), padWith);
  return fillStr(result, out);
}

/// The digits of scientific notation `s` ("1.25e-05") and where the
/// decimal point goes (x = 0.d1d2... * 10**decimalPoint).
void splitScientific(const std::string &s, std::string &digits, int &decimalPoint) {
  size_t e = s.find('e');
  digits.clear();
  for (size_t k = 0; k < e; ++k)
    if (s[k] != '.')
      digits += s[k];
  decimalPoint = std::atoi(s.c_str() + e + 1) + 1;
}

/// The shortest digits that read back as `x` (x finite, not negative).
void shortestDigits(double x, std::string &digits, int &decimalPoint) {
  char text[64];
  auto end = std::to_chars(text, text + sizeof text, x, std::chars_format::scientific).ptr;
  splitScientific(std::string(text, end), digits, decimalPoint);
  while (digits.size() > 1 && digits.back() == '0')
    digits.pop_back();
}

/// `significant` correctly rounded digits of `x` (finite, not negative).
void roundedDigits(double x, int significant, std::string &digits, int &decimalPoint) {
  std::vector<char> text(static_cast<size_t>(significant) + 32);
  std::snprintf(text.data(), text.size(), "%.*e", significant - 1, x);
  splitScientific(text.data(), digits, decimalPoint);
  if (x == 0.0)
    decimalPoint = 1;
}

/// Fixed notation of `digits` with the point at `decimalPoint`.
void fixedNotation(const std::string &digits, int decimalPoint, bool point, Spelled &out) {
  std::string fraction;
  if (decimalPoint <= 0) {
    out.integer = "0";
    fraction = std::string(static_cast<size_t>(-decimalPoint), '0') + digits;
  } else if (static_cast<size_t>(decimalPoint) >= digits.size()) {
    out.integer = digits + std::string(decimalPoint - digits.size(), '0');
  } else {
    out.integer = digits.substr(0, static_cast<size_t>(decimalPoint));
    fraction = digits.substr(static_cast<size_t>(decimalPoint));
  }
  if (!fraction.empty() || point)
    out.rest = "." + fraction;
}

void exponentNotation(const std::string &digits, int decimalPoint, bool point, char e,
                      Spelled &out) {
  out.integer = digits.substr(0, 1);
  std::string fraction = digits.substr(1);
  if (!fraction.empty() || point)
    out.rest = "." + fraction;
  int exponent = decimalPoint - 1;
  char text[16];
  std::snprintf(text, sizeof text, "%c%c%02d", e, exponent < 0 ? '-' : '+', std::abs(exponent));
  out.rest += text;
}

/// format()'s digits of a float (`type` as format() takes it).
Spelled spellFloat(double value, int64_t precision, char type, bool alternate,
                   bool noNegativeZero) {
  Spelled out;
  out.negative = std::signbit(value) && !std::isnan(value);
  double x = std::fabs(value);
  if (type == '%')
    x *= 100.0; // (before anything else: it may overflow to inf)
  bool upper = type == 'E' || type == 'F' || type == 'G';
  if (!std::isfinite(x)) {
    out.integer = std::isnan(x) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
    out.digitless = true;
    if (type == '%')
      out.rest = "%";
    return out;
  }
  std::string digits;
  int decimalPoint = 0;
  if (type == 0 && precision < 0) { // repr: the shortest digits
    shortestDigits(x, digits, decimalPoint);
    if (decimalPoint <= -4 || decimalPoint > 16) {
      exponentNotation(digits, decimalPoint, alternate, 'e', out);
    } else {
      fixedNotation(digits, decimalPoint, alternate, out);
      if (out.rest.empty() || out.rest == ".")
        out.rest = ".0"; // (a float always shows a fraction)
    }
  } else if (type == 'f' || type == 'F' || type == '%') {
    int64_t p = precision < 0 ? 6 : precision;
    std::vector<char> text(static_cast<size_t>(p) + 400);
    std::snprintf(text.data(), text.size(), "%.*f", static_cast<int>(p), x);
    std::string s(text.data());
    size_t dot = s.find('.');
    out.integer = s.substr(0, dot);
    if (dot != std::string::npos)
      out.rest = s.substr(dot);
    else if (alternate)
      out.rest = ".";
    if (type == '%')
      out.rest += "%";
  } else if (type == 'e' || type == 'E') {
    int64_t p = precision < 0 ? 6 : precision;
    roundedDigits(x, static_cast<int>(p) + 1, digits, decimalPoint);
    exponentNotation(digits, decimalPoint, alternate, type, out);
  } else { // g, G, or none with a precision ('g' that keeps a ".0")
    int64_t p = precision < 0 ? 6 : precision == 0 ? 1 : precision;
    bool addDot0 = type == 0;
    roundedDigits(x, static_cast<int>(p), digits, decimalPoint);
    if (!alternate)
      while (digits.size() > 1 && digits.back() == '0')
        digits.pop_back();
    bool useExponent = decimalPoint <= -4 || decimalPoint > (addDot0 ? p - 1 : p);
    if (useExponent)
      exponentNotation(digits, decimalPoint, alternate, upper ? 'E' : 'e', out);
    else
      fixedNotation(digits, decimalPoint, alternate || addDot0, out);
    if (addDot0 && !useExponent && out.rest == ".")
      out.rest = ".0";
  }
  if (noNegativeZero && out.negative &&
      (out.integer + out.rest).find_first_of("123456789") == std::string::npos)
    out.negative = false;
  return out;
}

/// The first code point of each run of ten Unicode decimal digits (0-9 of a
/// script: the Nd characters) up to Unicode 16.0. Which of them the
/// interpreter knows depends on its Unicode version (3.11: 14.0, 3.14:
/// 16.0): the bindings keep those (plait::setKnownDecimalZeros).
constexpr int64_t kDecimalZeroCandidates[] = {
    0x30,    0x660,   0x6f0,   0x7c0,   0x966,   0x9e6,   0xa66,   0xae6,   0xb66,   0xbe6,
    0xc66,   0xce6,   0xd66,   0xde6,   0xe50,   0xed0,   0xf20,   0x1040,  0x1090,  0x17e0,
    0x1810,  0x1946,  0x19d0,  0x1a80,  0x1a90,  0x1b50,  0x1bb0,  0x1c40,  0x1c50,  0xa620,
    0xa8d0,  0xa900,  0xa9d0,  0xa9f0,  0xaa50,  0xabf0,  0xff10,  0x104a0, 0x10d30, 0x10d40,
    0x11066, 0x110f0, 0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650, 0x116c0, 0x116d0,
    0x116da, 0x11730, 0x118e0, 0x11950, 0x11bf0, 0x11c50, 0x11d50, 0x11da0, 0x11f50, 0x16130,
    0x16a60, 0x16ac0, 0x16b50, 0x16d70, 0x1ccf0, 0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6,
    0x1e140, 0x1e2f0, 0x1e4f0, 0x1e5f1, 0x1e950, 0x1fbf0};

/// The candidates the interpreter knows (all until the bindings say).
/// Published once, at import, before any compiled code runs; never freed.
std::atomic<const std::vector<int64_t> *> knownDecimalZeros{nullptr};

/// CPython's _PyUnicode_TransformDecimalAndSpaceToASCII: what int() and
/// float() read. ASCII stays; other whitespace is a space, other decimal
/// digits their ASCII digit, anything else '?' (no number has it).
CodePoints numberText(const int64_t *points, int64_t length) {
  const std::vector<int64_t> *known = knownDecimalZeros.load(std::memory_order_acquire);
  const int64_t *zerosBegin = known ? known->data() : std::begin(kDecimalZeroCandidates);
  const int64_t *zerosEnd =
      known ? known->data() + known->size() : std::end(kDecimalZeroCandidates);
  CodePoints out;
  for (int64_t k = 0; k < length; ++k) {
    int64_t c = points[k];
    if (c < 128) {
      out.push_back(c);
      continue;
    }
    bool space = c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
                 c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
    int64_t digit = -1;
    for (const int64_t *zero = zerosBegin; zero != zerosEnd; ++zero)
      if (c >= *zero && c < *zero + 10)
        digit = c - *zero;
    out.push_back(space ? ' ' : digit >= 0 ? '0' + digit : '?');
  }
  return out;
}

} // namespace

namespace plait {

std::vector<int64_t> decimalZeroCandidates() {
  return {std::begin(kDecimalZeroCandidates), std::end(kDecimalZeroCandidates)};
}

void setKnownDecimalZeros(std::vector<int64_t> zeros) {
  // Once per process (the interpreter's Unicode version does not change);
  // the published table is never freed: compiled code may be reading it.
  auto known = std::make_unique<std::vector<int64_t>>(std::move(zeros));
  const std::vector<int64_t> *expected = nullptr;
  if (knownDecimalZeros.compare_exchange_strong(expected, known.get(), std::memory_order_acq_rel))
    (void)known.release();
}

} // namespace plait

extern "C" {

int32_t plait_rt_str_number_text(int64_t result, int64_t text) {
  const auto *box = reinterpret_cast<const int64_t *>(text);
  return fillStr(result, numberText(reinterpret_cast<const int64_t *>(box[plait::kListItems]),
                                    box[plait::kListLength]));
}

int32_t plait_rt_str_of_int(int64_t result, int64_t value) {
  std::string text = std::to_string(value);
  return fillStr(result, CodePoints(text.begin(), text.end()));
}

int32_t plait_rt_str_of_float(int64_t result, double value) {
  Spelled spelled = spellFloat(value, -1, 0, false, false);
  std::string text = (spelled.negative ? "-" : "") + spelled.integer + spelled.rest;
  return fillStr(result, CodePoints(text.begin(), text.end()));
}

int32_t plait_rt_str_format_int(int64_t result, int64_t value, int64_t fill, int64_t align,
                                int64_t sign, int64_t alternate, int64_t width, int64_t grouping,
                                int64_t type) {
  Spelled spelled;
  spelled.negative = value < 0;
  uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  int base = type == 'b' ? 2 : type == 'o' ? 8 : (type == 'x' || type == 'X') ? 16 : 10;
  const char *digitSet = type == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
  do {
    spelled.integer.insert(spelled.integer.begin(), digitSet[magnitude % base]);
    magnitude /= base;
  } while (magnitude);
  if (alternate && base != 10)
    spelled.prefix = std::string("0") + static_cast<char>(type);
  int group = base == 10 ? 3 : 4;
  return layOut(result, spelled, fill, static_cast<char>(align), static_cast<char>(sign), width,
                static_cast<char>(grouping), group);
}

int32_t plait_rt_str_format_float(int64_t result, double value, int64_t fill, int64_t align,
                                  int64_t sign, int64_t alternate, int64_t width, int64_t grouping,
                                  int64_t precision, int64_t type, int64_t noNegativeZero) {
  Spelled spelled =
      spellFloat(value, precision, static_cast<char>(type), alternate != 0, noNegativeZero != 0);
  return layOut(result, spelled, fill, static_cast<char>(align), static_cast<char>(sign), width,
                static_cast<char>(grouping), 3);
}

int32_t plait_rt_str_format_str(int64_t result, int64_t text, int64_t fill, int64_t align,
                                int64_t width, int64_t precision) {
  const auto *box = reinterpret_cast<const int64_t *>(text);
  const auto *points = reinterpret_cast<const int64_t *>(box[plait::kListItems]);
  int64_t length = box[plait::kListLength];
  if (precision >= 0 && precision < length)
    length = precision;
  int64_t padding = std::max<int64_t>(0, width - length);
  int64_t left = align == '>' ? padding : align == '^' ? padding / 2 : 0;
  CodePoints out(static_cast<size_t>(left), fill);
  out.insert(out.end(), points, points + length);
  out.insert(out.end(), static_cast<size_t>(padding - left), fill);
  return fillStr(result, out);
}

int32_t plait_rt_str_concat(int64_t result, int64_t boxes, int64_t count) {
  const auto *addresses = reinterpret_cast<const int64_t *>(boxes);
  CodePoints out;
  for (int64_t k = 0; k < count; ++k) {
    const auto *box = reinterpret_cast<const int64_t *>(addresses[k]);
    const auto *points = reinterpret_cast<const int64_t *>(box[plait::kListItems]);
    out.insert(out.end(), points, points + box[plait::kListLength]);
  }
  return fillStr(result, out);
}

int32_t plait_rt_str_to_float(int64_t text, double *out) {
  const auto *box = reinterpret_cast<const int64_t *>(text);
  CodePoints points = numberText(reinterpret_cast<const int64_t *>(box[plait::kListItems]),
                                 box[plait::kListLength]);
  size_t begin = 0, end = points.size();
  auto isSpace = [](int64_t c) { return (c >= 9 && c <= 13) || c == 32; }; // (ASCII's)
  while (begin < end && isSpace(points[begin]))
    ++begin;
  while (end > begin && isSpace(points[end - 1]))
    --end;
  std::string ascii;
  for (size_t k = begin; k < end; ++k) {
    if (points[k] < 0 || points[k] > 127)
      return 1;
    ascii += static_cast<char>(points[k]);
  }
  // Python's grammar: a sign, then inf, infinity or nan (any case), or
  // digits with an optional point and exponent, '_' only between digits.
  size_t at = 0;
  std::string plain;
  if (at < ascii.size() && (ascii[at] == '+' || ascii[at] == '-'))
    plain += ascii[at++];
  std::string word;
  for (size_t k = at; k < ascii.size(); ++k)
    word += static_cast<char>(std::tolower(static_cast<unsigned char>(ascii[k])));
  if (word == "inf" || word == "infinity" || word == "nan") {
    double special = word == "nan" ? std::nan("") : HUGE_VAL;
    *out = plain == "-" ? -special : special;
    return 0;
  }
  auto digitRun = [&](bool required) { // digits, '_' only between two
    size_t start = at;
    while (at < ascii.size() && std::isdigit(static_cast<unsigned char>(ascii[at]))) {
      plain += ascii[at++];
      if (at + 1 < ascii.size() && ascii[at] == '_' &&
          std::isdigit(static_cast<unsigned char>(ascii[at + 1])))
        ++at;
    }
    return !required || at > start;
  };
  size_t mantissa = at;
  digitRun(false);
  bool integerDigits = at > mantissa;
  if (at < ascii.size() && ascii[at] == '.') {
    plain += ascii[at++];
    size_t fraction = at;
    digitRun(false);
    if (!integerDigits && at == fraction)
      return 1;
  } else if (!integerDigits) {
    return 1;
  }
  if (at < ascii.size() && (ascii[at] == 'e' || ascii[at] == 'E')) {
    plain += ascii[at++];
    if (at < ascii.size() && (ascii[at] == '+' || ascii[at] == '-'))
      plain += ascii[at++];
    if (!digitRun(true))
      return 1;
  }
  if (at != ascii.size())
    return 1;
  *out = std::strtod(plain.c_str(), nullptr);
  return 0;
}

} // extern "C"
