//===- Types.cpp - plait's types and compile options ------------------------===//
#include "plait/Frontend/Frontend.h"
#include "plait/Dialect/Plait/Messages.h"

#include <algorithm>
#include <stdexcept>

namespace plait::frontend {

const NamedTupleClass &eighResultClass() {
  static const NamedTupleClass eigh{
      "numpy.linalg._linalg", "EighResult", {"eigenvalues", "eigenvectors"}};
  return eigh;
}

bool complexUsesNumPy(const Type &left, const Type &right) {
  if (left.kind == Type::Kind::Complex && right.isNumPy() && right.dtype == DType::Float64)
    return false;
  return left.isNumPy() || right.isNumPy();
}

Type complexResultType(const Type &left, const Type &right) {
  return complexUsesNumPy(left, right) ? numpyCommonType(left, right) : Type::complex();
}

Type numpyCommonType(const Type &a, const Type &b) {
  if (a.isNumPy() && b.isNumPy())
    return Type::numpy(promoteDTypes(a.dtype, b.dtype));
  DType np = a.isNumPy() ? a.dtype : b.dtype;
  Type::Kind python = a.isNumPy() ? b.kind : a.kind;
  // A Python complex keeps float32's and float16's precision (complex64).
  if (python == Type::Kind::Complex)
    return Type::numpy(isComplexDType(np) || isFloatDType(np)
                           ? complexOfPartDType(complexPartDType(np))
                           : DType::Complex128);
  if (python == Type::Kind::Int && np == DType::Bool)
    return Type::numpy(DType::Int64);
  if (python == Type::Kind::Float && !isFloatDType(np) && !isComplexDType(np))
    return Type::numpy(DType::Float64);
  return Type::numpy(np);
}

std::string pythonStringLiteral(const std::string &text) {
  std::string quoted = "'";
  for (unsigned char c : text) {
    if (c == '\\' || c == '\'') {
      quoted += '\\';
      quoted += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      static const char digits[] = "0123456789abcdef";
      quoted += "\\x";
      quoted += digits[c >> 4];
      quoted += digits[c & 15];
    } else {
      quoted += static_cast<char>(c);
    }
  }
  return quoted + "'";
}

std::string stringOfPythonLiteral(const std::string &literal) {
  auto fail = [&]() -> std::string {
    throw std::invalid_argument("malformed str literal " + literal);
  };
  if (literal.size() < 2 || literal.front() != '\'' || literal.back() != '\'')
    return fail();
  std::string text;
  for (size_t k = 1; k + 1 < literal.size(); ++k) {
    if (literal[k] != '\\') {
      text += literal[k];
    } else if (k + 1 < literal.size() - 1 && literal[k + 1] == 'x' && k + 3 < literal.size() - 1) {
      text += static_cast<char>(std::stoi(literal.substr(k + 2, 2), nullptr, 16));
      k += 3;
    } else if (k + 1 < literal.size() - 1) {
      text += literal[++k];
    } else {
      return fail();
    }
  }
  return text;
}

std::string Type::str() const {
  switch (kind) {
  case Kind::Array: {
    // The signature spelling: float64[:, :], float64[:, ::1] if C-contiguous,
    // float64[::1, :] if Fortran-contiguous.
    std::string axes;
    for (int axis = 0; axis < ndim; ++axis)
      axes += std::string(axis ? ", " : "") +
              ((contiguous && axis + 1 == ndim) || (fortran && axis == 0) ? "::1" : ":");
    return std::string(dtypeName(dtype)) + "[" + axes + "]";
  }
  case Kind::Bottom:
    return "<unknown>";
  case Kind::None:
    return "None";
  case Kind::Bool:
    return "bool";
  case Kind::Int:
    return "int";
  case Kind::Float:
    return "float";
  case Kind::Complex:
    return "complex";
  case Kind::NumPy:
    return std::string("numpy.") + dtypeName(dtype);
  case Kind::DType:
    return std::string("dtype[") + dtypeName(dtype) + "]";
  case Kind::String:
    return "str[" + pythonStringLiteral(text) + "]";
  case Kind::Function: {
    // function[7](float, float64[:]): function 7 of the program, with the
    // values it captured.
    if (!takesClosure) // a jitted function named as a value
      return "function[" + std::to_string(function) + "]";
    std::string s = "function[" + std::to_string(function) + "](";
    for (size_t i = 0; i < elements.size(); ++i)
      s += (i ? ", " : "") + elements[i].str();
    return s + ")";
  }
  case Kind::List:
    return "list[" + itemType().str() + "]";
  case Kind::Str:
    return "str";
  case Kind::Dict:
    return "dict[" + keyType().str() + ", " + valueType().str() + "]";
  case Kind::Tuple: {
    std::string s = std::string(named ? named->name : "tuple") + "[";
    for (size_t i = 0; i < elements.size(); ++i)
      s += (i ? ", " : "") + elements[i].str();
    return s + "]";
  }
  }
  return "?";
}

size_t Type::numLeaves() const {
  if (kind == Kind::None || kind == Kind::Bottom || kind == Kind::DType || kind == Kind::String)
    return 0; // an array is one leaf: its memref
  if (isComplex())
    return 2; // real and imaginary parts
  if (kind != Kind::Tuple && kind != Kind::Function)
    return 1; // a list or a dict too: its box
  size_t n = 0;
  for (const Type &element : elements)
    n += element.numLeaves();
  return n;
}

namespace {
/// Appends the words of one `item` to `layout` (words so far in `at`);
/// false when it is not a list item or takes more than 64 words.
bool appendItemWords(const Type &item, ListItemLayout &layout, int64_t &at) {
  switch (item.kind) {
  case Type::Kind::Bool:
  case Type::Kind::Int:
  case Type::Kind::Float:
  case Type::Kind::NumPy:
  case Type::Kind::Complex:
    at += static_cast<int64_t>(item.numLeaves());
    return at <= 64;
  case Type::Kind::Array:
  case Type::Kind::List:
  case Type::Kind::Str:
  case Type::Kind::String: { // a memref descriptor (a list's box is 1-D; a
                             // constant str is kept as a run-time one)
    int64_t rank = item.kind == Type::Kind::Array ? item.ndim : 1;
    if (at + 3 + 2 * rank > 64)
      return false;
    layout.owned |= uint64_t(1) << at;
    at += 3 + 2 * rank;
    return true;
  }
  case Type::Kind::Tuple:
    for (const Type &element : item.elements)
      if (!appendItemWords(element, layout, at))
        return false;
    return true;
  default:
    return false;
  }
}
} // namespace

bool isListItem(const Type &item) {
  ListItemLayout layout;
  int64_t words = 0;
  return appendItemWords(item, layout, words);
}

ListItemLayout listItemLayout(const Type &item) {
  ListItemLayout layout;
  switch (item.kind) {
  case Type::Kind::Bool:
    layout.bytes = 1;
    return layout;
  case Type::Kind::Int:
  case Type::Kind::Float:
    layout.bytes = 8;
    return layout;
  case Type::Kind::Complex:
    layout.bytes = 16;
    return layout;
  case Type::Kind::NumPy:
    layout.bytes = dtypeInfo(item.dtype).bytes;
    return layout;
  case Type::Kind::Bottom:
    return layout; // (no item yet: none stored)
  default: {
    int64_t words = 0;
    if (!appendItemWords(item, layout, words))
      throw std::logic_error("internal: lists cannot hold " + item.str());
    layout.words = true;
    layout.bytes = 8 * words;
    return layout;
  }
  }
}

Type listItemOf(const Type &item) {
  if (item.kind == Type::Kind::Array)
    return Type::array(item.dtype, item.ndim);
  if (item.kind == Type::Kind::String) // kept as a run-time str
    return Type::runtimeStr();
  if (item.kind != Type::Kind::Tuple)
    return item;
  Type tuple = item;
  for (Type &element : tuple.elements)
    element = listItemOf(element);
  return tuple;
}

ListItemLayout dictValueLayout(const Type &value) {
  if (value.kind == Type::Kind::Bottom)
    return {};
  ListItemLayout layout = listItemLayout(value);
  if (!layout.words) // a scalar's two words
    return {16, false, 0};
  return layout;
}

bool isDictKey(const Type &key) {
  if (key.kind == Type::Kind::Tuple) // (its words are the key's)
    return !key.elements.empty() && dictKeyWords(key) <= 16 &&
           std::all_of(key.elements.begin(), key.elements.end(), isDictKey);
  return key.kind == Type::Kind::Bool || key.kind == Type::Kind::Int ||
         key.kind == Type::Kind::Float || key.isStr() ||
         (key.kind == Type::Kind::NumPy && !key.isComplex());
}

int64_t dictKeyWords(const Type &key) {
  if (key.kind != Type::Kind::Tuple)
    return key.kind == Type::Kind::Bottom ? 0 : 1;
  int64_t words = 0;
  for (const Type &element : key.elements)
    words += dictKeyWords(element);
  return words;
}

uint64_t dictStrKeyWords(const Type &key) {
  if (key.kind != Type::Kind::Tuple)
    return key.isStr() ? 1 : 0;
  uint64_t mask = 0;
  int64_t at = 0;
  for (const Type &element : key.elements) {
    mask |= dictStrKeyWords(element) << at;
    at += dictKeyWords(element);
  }
  return mask;
}

std::string CompileOptions::message(const std::string &key) const {
  auto it = messages.find(key);
  if (it != messages.end())
    return it->second;
  return dialect::defaultMessage(key).str();
}

} // namespace plait::frontend
