//===- DispatchKey.cpp - the classes of a call's arguments ----------------===//
#include "plait/JIT/DispatchKey.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>

namespace plait::jit::key {

using frontend::Type;

size_t partLength(std::string_view key, size_t at) {
  if (at >= key.size())
    return 0;
  switch (key[at]) {
  case kArray:
    return at + 4 <= key.size() ? 4 : 0;
  case kNumPyScalar:
  case kDType:
    return at + 2 <= key.size() ? 2 : 0;
  case kFunction:
    return at + 9 <= key.size() ? 9 : 0;
  case kString: {
    if (at + 3 > key.size() || !std::isxdigit(static_cast<unsigned char>(key[at + 1])) ||
        !std::isxdigit(static_cast<unsigned char>(key[at + 2])))
      return 0;
    size_t length = 3 + std::stoul(std::string(key.substr(at + 1, 2)), nullptr, 16);
    return at + length <= key.size() ? length : 0;
  }
  case kList: { // 'L' and the part of its items
    size_t item = partLength(key, at + 1);
    return item == 0 ? 0 : 1 + item;
  }
  case kDict: { // 'M', the part of its keys, the part of its values
    size_t keyPart = partLength(key, at + 1);
    size_t valuePart = keyPart == 0 ? 0 : partLength(key, at + 1 + keyPart);
    return valuePart == 0 ? 0 : 1 + keyPart + valuePart;
  }
  case kTuple: {
    if (at + 2 > key.size() || key[at + 1] < '0' ||
        static_cast<size_t>(key[at + 1] - '0') > kMaxTupleLength)
      return 0;
    size_t length = 2;
    for (int n = key[at + 1] - '0'; n > 0; --n) {
      size_t element = partLength(key, at + length);
      if (element == 0)
        return 0;
      length += element;
    }
    return length;
  }
  default:
    return 1;
  }
}

std::vector<std::string> split(const std::string &key) {
  std::vector<std::string> parts;
  for (size_t k = 0; k < key.size();) {
    size_t length = partLength(key, k);
    if (length == 0)
      throw std::invalid_argument("malformed dispatch key '" + key + "'");
    parts.push_back(key.substr(k, length));
    k += length;
  }
  return parts;
}

Type typeOf(const std::string &part) {
  auto fail = [&]() -> Type { throw std::invalid_argument("malformed dispatch key part '" + part + "'"); };
  if (part.empty())
    return fail();
  switch (part[0]) {
  case kBool:
    return Type::boolean();
  case kInt:
    return Type::integer();
  case kFloat:
    return Type::floating();
  case kComplex:
    return Type::complex();
  case kNone:
    return part.size() == 1 ? Type::none() : fail();
  case kNumPyScalar: {
    const frontend::DTypeInfo *dtype = part.size() == 2 ? frontend::dtypeOfDispatchCode(part[1]) : nullptr;
    return dtype ? Type::numpy(dtype->dtype) : fail();
  }
  case kDType: {
    const frontend::DTypeInfo *dtype =
        part.size() == 2 ? frontend::dtypeOfDispatchCode(part[1]) : nullptr;
    return dtype ? Type::dtypeValue(dtype->dtype) : fail();
  }
  case kString:
    if (partLength(part, 0) != part.size())
      return fail();
    return Type::stringConstant(part.substr(3));
  case kText:
    return part.size() == 1 ? Type::runtimeStr() : fail();
  case kFunction: {
    if (part.size() != 9 || part.find_first_not_of("0123456789abcdef", 1) != std::string::npos)
      return fail();
    return Type::globalFunction(static_cast<int>(std::stoul(part.substr(1), nullptr, 16)));
  }
  case kList:
    if (partLength(part, 0) != part.size())
      return fail();
    return Type::list(typeOf(part.substr(1)));
  case kDict: {
    if (partLength(part, 0) != part.size())
      return fail();
    size_t keyPart = partLength(part, 1);
    return Type::dict(typeOf(part.substr(1, keyPart)), typeOf(part.substr(1 + keyPart)));
  }
  case kTuple: {
    if (partLength(part, 0) != part.size())
      return fail();
    std::vector<Type> elements;
    for (size_t k = 2; k < part.size(); k += partLength(part, k))
      elements.push_back(typeOf(part.substr(k, partLength(part, k))));
    return Type::tuple(std::move(elements));
  }
  case kArray: {
    const frontend::DTypeInfo *dtype = part.size() == 4 ? frontend::dtypeOfDispatchCode(part[1]) : nullptr;
    int ndim = part.size() == 4 ? part[2] - '0' : 0;
    if (!dtype || ndim < 1 || ndim > 8)
      return fail();
    return Type::array(dtype->dtype, ndim, part[3] == kContiguous, part[3] == kFortran);
  }
  default:
    return fail();
  }
}

std::string stringPart(std::string_view text) {
  char length[3];
  std::snprintf(length, sizeof length, "%02zx", text.size());
  return std::string(1, kString) + length + std::string(text);
}

std::string partOf(const Type &type) {
  switch (type.kind) {
  case Type::Kind::Bool:
    return std::string(1, kBool);
  case Type::Kind::Int:
    return std::string(1, kInt);
  case Type::Kind::Float:
    return std::string(1, kFloat);
  case Type::Kind::Complex:
    return std::string(1, kComplex);
  case Type::Kind::None:
    return std::string(1, kNone);
  case Type::Kind::NumPy:
    return {kNumPyScalar, frontend::dtypeInfo(type.dtype).dispatchCode};
  case Type::Kind::Array:
    return {kArray, frontend::dtypeInfo(type.dtype).dispatchCode, static_cast<char>('0' + type.ndim),
            type.contiguous ? kContiguous : type.fortran ? kFortran : kAnyLayout};
  case Type::Kind::DType:
    return {kDType, frontend::dtypeInfo(type.dtype).dispatchCode};
  case Type::Kind::String:
    if (type.text.size() > kMaxStringBytes)
      break;
    return stringPart(type.text);
  case Type::Kind::Function: {
    if (type.takesClosure || type.function < 0)
      break;
    char digits[9];
    std::snprintf(digits, sizeof digits, "%08x", static_cast<unsigned>(type.function));
    return std::string(1, kFunction) + digits;
  }
  case Type::Kind::List:
    if (type.itemType().kind == Type::Kind::Bottom)
      break;
    return std::string(1, kList) + partOf(type.itemType());
  case Type::Kind::Str:
    return std::string(1, kText);
  case Type::Kind::Dict:
    if (type.keyType().kind == Type::Kind::Bottom || type.valueType().kind == Type::Kind::Bottom)
      break;
    return std::string(1, kDict) + partOf(type.keyType()) + partOf(type.valueType());
  case Type::Kind::Tuple: {
    if (type.named || type.elements.size() > kMaxTupleLength)
      break;
    std::string part = {kTuple, static_cast<char>('0' + type.elements.size())};
    for (const Type &element : type.elements)
      part += partOf(element);
    return part;
  }
  default:
    break;
  }
  throw std::invalid_argument("no dispatch key part for " + type.str());
}

std::string nameOf(const std::string &part) {
  if (!part.empty() && part[0] == kList)
    return "list[" + nameOf(part.substr(1)) + "]";
  if (!part.empty() && part[0] == kDict) {
    size_t keyPart = partLength(part, 1);
    return "dict[" + nameOf(part.substr(1, keyPart)) + ", " + nameOf(part.substr(1 + keyPart)) +
           "]";
  }
  if (!part.empty() && part[0] == kTuple) {
    std::string name = "tuple[";
    for (size_t k = 2; k < part.size(); k += partLength(part, k))
      name += (k > 2 ? ", " : "") + nameOf(part.substr(k, partLength(part, k)));
    return name + "]";
  }
  Type type = typeOf(part);
  // Python's int and float are int64 and float64 in signatures.
  if (type.kind == Type::Kind::Int)
    return "int64";
  if (type.kind == Type::Kind::Float)
    return "float64";
  return type.str();
}

namespace {

/// "float64[:, ::1]" and the like, or fails.
Type arrayTypeOfName(const std::string &name) {
  auto fail = [&]() -> Type { throw std::invalid_argument("unknown array type '" + name + "'"); };
  std::string compact;
  std::copy_if(name.begin(), name.end(), std::back_inserter(compact), [](char c) { return c != ' '; });
  size_t bracket = compact.find('[');
  std::string dtypeName = compact.substr(0, bracket);
  const frontend::DTypeInfo *dtype = nullptr;
  size_t count;
  const frontend::DTypeInfo *dtypes = frontend::allDTypes(count);
  for (size_t k = 0; k < count; ++k)
    if (dtypeName == dtypes[k].name)
      dtype = &dtypes[k];
  if (!dtype)
    return fail();
  std::vector<std::string> axes;
  std::string inner = compact.substr(bracket + 1, compact.size() - bracket - 2);
  for (size_t start = 0;;) {
    size_t comma = inner.find(',', start);
    axes.push_back(inner.substr(start, comma - start));
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  if (axes.size() > 8)
    return fail();
  for (size_t k = 0; k < axes.size(); ++k) {
    bool unitStride = axes[k] == "::1";
    // Only the first or the last axis may be marked, and not both.
    if (!(axes[k] == ":" || (unitStride && (k == 0 || k + 1 == axes.size()))))
      return fail();
  }
  int ndim = static_cast<int>(axes.size());
  bool contiguous = axes.back() == "::1";
  bool fortran = ndim >= 2 && axes.front() == "::1";
  if (contiguous && fortran)
    return fail();
  return Type::array(dtype->dtype, ndim, contiguous, fortran);
}

/// "int64, tuple[int64, float64]" -> its top-level names.
std::vector<std::string> splitNames(const std::string &text) {
  std::vector<std::string> names;
  int depth = 0;
  size_t start = 0;
  char quote = 0; // inside a str's literal: commas and brackets are text
  for (size_t k = 0; k <= text.size(); ++k) {
    if (quote && k < text.size()) {
      if (text[k] == '\\')
        ++k;
      else if (text[k] == quote)
        quote = 0;
      continue;
    }
    if (k < text.size() && (text[k] == '\'' || text[k] == '"')) {
      quote = text[k];
    } else if (k == text.size() || (text[k] == ',' && depth == 0)) {
      std::string name = text.substr(start, k - start);
      name.erase(0, name.find_first_not_of(' '));
      name.erase(name.find_last_not_of(' ') + 1);
      if (!name.empty())
        names.push_back(name);
      start = k + 1;
    } else if (text[k] == '[') {
      ++depth;
    } else if (text[k] == ']') {
      --depth;
    }
  }
  return names;
}

} // namespace

/// typeOfName, taking NumPy scalars in tuples when `listItem` (a list's
/// tuples keep them; a tuple argument's count as Python numbers).
static Type typeOfNameIn(const std::string &name, bool &narrow, bool listItem) {
  narrow = false;
  auto inside = [&](const char *prefix) -> std::optional<std::string> {
    size_t length = std::strlen(prefix);
    if (name.rfind(prefix, 0) != 0 || name.back() != ']')
      return std::nullopt;
    return name.substr(length, name.size() - length - 1);
  };
  if (std::optional<std::string> literal = inside("str["))
    return Type::stringConstant(frontend::stringOfPythonLiteral(*literal));
  if (name == "None")
    return Type::none();
  if (std::optional<std::string> elements = inside("tuple[")) {
    std::vector<Type> types;
    for (const std::string &element : splitNames(*elements)) {
      bool narrowElement = false;
      types.push_back(typeOfNameIn(element, narrowElement, listItem));
      if (narrowElement || types.back().kind == Type::Kind::Array ||
          (types.back().kind == Type::Kind::NumPy && !listItem))
        throw std::invalid_argument("tuples in signatures hold int64, float64, bool, complex128 "
                                    "and tuples, not " +
                                    element);
    }
    return Type::tuple(std::move(types));
  }
  if (std::optional<std::string> item = inside("list[")) {
    bool narrowItem = false;
    Type itemType = typeOfNameIn(*item, narrowItem, /*listItem=*/true);
    if (narrowItem || !frontend::isListItem(itemType))
      throw std::invalid_argument("lists in signatures hold int64, float64, bool, complex128, "
                                  "NumPy scalars, tuples and arrays, not " +
                                  *item);
    return Type::list(frontend::listItemOf(itemType));
  }
  if (std::optional<std::string> parts = inside("dict[")) {
    std::vector<std::string> names = splitNames(*parts);
    bool narrowPart = false;
    if (names.size() != 2)
      throw std::invalid_argument("dict types name their keys' and values' types: " + name);
    // (A tuple key keeps NumPy scalars, as a list's tuples do.)
    Type keys = typeOfNameIn(names[0], narrowPart, /*listItem=*/true);
    Type values = typeOfName(names[1], narrowPart);
    if (narrowPart || !frontend::isDictKey(keys) ||
        !(values.isNumber() || values.kind == Type::Kind::Bool))
      throw std::invalid_argument(
          "dicts in signatures map numbers, bools and tuples of them to numbers and bools, "
          "not " +
          *parts);
    return Type::dict(keys, values);
  }
  if (std::optional<std::string> id = inside("function[")) {
    if (id->empty() || id->find_first_not_of("0123456789") != std::string::npos)
      throw std::invalid_argument("unknown type name '" + name + "'");
    return Type::globalFunction(std::stoi(*id));
  }
  if (std::optional<std::string> dtypeName = inside("dtype[")) {
    frontend::DType dtype;
    if (!frontend::dtypeFromName(*dtypeName, dtype))
      throw std::invalid_argument("unknown dtype '" + *dtypeName + "'");
    return Type::dtypeValue(dtype);
  }
  if (!name.empty() && name.back() == ']' && name.find('[') != std::string::npos)
    return arrayTypeOfName(name);
  // NumPy scalars: "numpy.float32" (how .signatures spells them).
  frontend::DType scalar;
  if (name.rfind("numpy.", 0) == 0 && frontend::dtypeFromName(name.substr(6), scalar))
    return Type::numpy(scalar);
  narrow = name == "int32" || name == "float32";
  if (name == "int64" || name == "int" || name == "int32")
    return Type::integer();
  if (name == "float64" || name == "float" || name == "float32")
    return Type::floating();
  if (name == "bool")
    return Type::boolean();
  if (name == "complex" || name == "complex128")
    return Type::complex();
  if (name == "str") // a str passed as a value (its code points)
    return Type::runtimeStr();
  throw std::invalid_argument("unknown type name '" + name +
                              "' (use int64, float64, bool, complex128, int32, float32, or arrays like float64[:, :])");
}

Type typeOfName(const std::string &name, bool &narrow) {
  return typeOfNameIn(name, narrow, /*listItem=*/false);
}

bool accepts(std::string_view signature, std::string_view call) {
  auto rank = [](char c) { return c == kBool ? 0 : c == kInt ? 1 : c == kFloat ? 2 : 3; };
  size_t k = 0, w = 0;
  while (k < call.size() && w < signature.size()) {
    auto exact = [](char c) {
      return c == kTuple || c == kDType || c == kFunction || c == kString || c == kNone ||
             c == kList || c == kDict || c == kText;
    };
    if (exact(call[k]) || exact(signature[w])) {
      // Tuples, dtypes, lists and dicts: exactly the signature's.
      size_t length = partLength(call, k);
      if (length == 0 || call.substr(k, length) != signature.substr(w, length))
        return false;
      k += length;
      w += length;
      continue;
    }
    if (call[k] == kArray || signature[w] == kArray) {
      bool sameArray = call[k] == kArray && signature[w] == kArray && k + 3 < call.size() &&
                       w + 3 < signature.size() && call[k + 1] == signature[w + 1] &&
                       call[k + 2] == signature[w + 2] &&
                       (signature[w + 3] == kAnyLayout || call[k + 3] == signature[w + 3]);
      if (!sameArray)
        return false;
      k += 4;
      w += 4;
    } else {
      if (call[k] == kNumPyScalar || signature[w] == kNumPyScalar || rank(call[k]) > rank(signature[w]))
        return false;
      ++k;
      ++w;
    }
  }
  return k == call.size() && w == signature.size();
}

Signature signatureOf(const std::vector<std::string> &typeNames) {
  Signature signature;
  for (const std::string &name : typeNames) {
    bool narrow = false;
    Type type = typeOfName(name, narrow);
    std::string part = partOf(type);
    signature.key += part;
    signature.kinds += narrow ? (type.kind == Type::Kind::Int ? kInt32 : kFloat32) : part[0];
  }
  return signature;
}

} // namespace plait::jit::key
