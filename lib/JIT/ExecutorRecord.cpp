//===- ExecutorRecord.cpp - an executor as bytes, for the disk cache -------===//
#include "plait/JIT/ExecutorRecord.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace plait::jit {
namespace {

constexpr char kMagic[] = "plait-executor-3";

/// Appends fixed-width integers and length-prefixed strings.
class Writer {
public:
  void integer(int64_t value) { bytes.append(reinterpret_cast<const char *>(&value), 8); }
  void text(const std::string &value) {
    integer(static_cast<int64_t>(value.size()));
    bytes += value;
  }
  void type(const frontend::Type &t) {
    integer(static_cast<int64_t>(t.kind));
    integer(static_cast<int64_t>(t.dtype));
    integer(t.ndim);
    integer(t.contiguous | t.fortran << 1 | t.takesClosure << 2 | (t.named != nullptr) << 3);
    if (t.named && t.named != &frontend::eighResultClass())
      throw std::invalid_argument("an unknown named tuple class cannot be cached");
    integer(t.function);
    text(t.text);
    integer(static_cast<int64_t>(t.elements.size()));
    for (const frontend::Type &element : t.elements)
      type(element);
  }
  std::string bytes;
};

/// Reads what Writer wrote; any overrun or bad value is invalid_argument.
class Reader {
public:
  explicit Reader(const std::string &bytes) : bytes(bytes) {}

  int64_t integer() {
    need(8);
    int64_t value;
    std::memcpy(&value, bytes.data() + at, 8);
    at += 8;
    return value;
  }
  /// A count of items that follow, at most `limit`.
  int64_t count(int64_t limit) {
    int64_t value = integer();
    if (value < 0 || value > limit)
      fail();
    return value;
  }
  std::string text() {
    int64_t size = count(INT64_MAX);
    need(static_cast<size_t>(size));
    std::string value = bytes.substr(at, size);
    at += size;
    return value;
  }
  frontend::Type type(int depth = 0) {
    if (depth > 64)
      fail();
    frontend::Type t;
    int64_t kind = integer();
    if (kind < 0 || kind > static_cast<int64_t>(frontend::Type::Kind::Str))
      fail();
    t.kind = static_cast<frontend::Type::Kind>(kind);
    t.dtype = static_cast<frontend::DType>(integer());
    t.ndim = static_cast<int>(integer());
    int64_t flags = integer();
    t.contiguous = flags & 1;
    t.fortran = flags & 2;
    t.takesClosure = flags & 4;
    if (flags & 8)
      t.named = &frontend::eighResultClass();
    t.function = static_cast<int>(integer());
    t.text = text();
    for (int64_t i = 0, elements = count(1 << 16); i < elements; ++i)
      t.elements.push_back(type(depth + 1));
    return t;
  }
  bool done() const { return at == bytes.size(); }

private:
  void need(size_t size) {
    if (bytes.size() - at < size)
      fail();
  }
  [[noreturn]] static void fail() {
    throw std::invalid_argument("malformed plait executor record");
  }
  const std::string &bytes;
  size_t at = 0;
};

} // namespace

std::string executorRecord(const Executor &executor) {
  if (executor.objectCode.empty())
    throw std::invalid_argument("the executor kept no object code");
  const frontend::EmittedModule &info = executor.info;
  Writer w;
  w.text(kMagic);
  w.text(info.entrySymbol);
  w.integer(static_cast<int64_t>(info.argumentTypes.size()));
  for (const frontend::Type &t : info.argumentTypes)
    w.type(t);
  w.type(info.resultType);
  w.integer(static_cast<int64_t>(info.errors.size()));
  for (const frontend::ErrorSite &site : info.errors) {
    w.text(site.exception);
    w.text(site.message);
    w.text(site.frames);
  }
  w.integer(info.mayRunLong);
  w.integer(static_cast<int64_t>(info.writesArgument.size()));
  for (bool writes : info.writesArgument)
    w.integer(writes);
  w.integer(static_cast<int64_t>(executor.packedSlots));
  w.integer(static_cast<int64_t>(executor.resultWords));
  w.text(executor.objectCode);
  return std::move(w.bytes);
}

std::shared_ptr<Executor> loadExecutorRecord(const std::string &record) {
  auto start = std::chrono::steady_clock::now();
  Reader r(record);
  if (r.text() != kMagic)
    throw std::invalid_argument("not a plait executor record of this version");
  auto executor = std::make_shared<Executor>();
  frontend::EmittedModule &info = executor->info;
  info.entrySymbol = r.text();
  for (int64_t i = 0, arguments = r.count(1 << 16); i < arguments; ++i)
    info.argumentTypes.push_back(r.type());
  info.resultType = r.type();
  for (int64_t i = 0, errors = r.count(1 << 24); i < errors; ++i) {
    frontend::ErrorSite site;
    site.exception = r.text();
    site.message = r.text();
    site.frames = r.text();
    info.errors.push_back(std::move(site));
  }
  info.speculationStatus = speculationStatusOf(info.errors);
  info.mayRunLong = r.integer() != 0;
  for (int64_t i = 0, written = r.count(1 << 16); i < written; ++i)
    info.writesArgument.push_back(r.integer() != 0);
  executor->packedSlots = static_cast<size_t>(r.integer());
  executor->resultWords = static_cast<size_t>(r.integer());
  std::string object = r.text();
  if (!r.done())
    throw std::invalid_argument("malformed plait executor record");
  std::string packedSymbol = info.entrySymbol + "_packed";
  executor->code = SharedJIT::get().load(object, packedSymbol);
  executor->entry = executor->code->lookup(packedSymbol);
  executor->compileSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  executor->phaseSeconds.emplace_back("loading from the cache", executor->compileSeconds);
  return executor;
}

HostTarget hostTarget() {
  HostTarget host;
  host.llvmVersion = LLVM_VERSION_STRING;
  host.triple = llvm::sys::getProcessTriple();
  host.cpu = llvm::sys::getHostCPUName().str();
  llvm::StringMap<bool> features;
  if (llvm::sys::getHostCPUFeatures(features))
    for (const auto &feature : features)
      if (feature.getValue())
        host.features.push_back(feature.getKey().str());
  std::sort(host.features.begin(), host.features.end());
  return host;
}

std::string codeFingerprint() {
  HostTarget host = hostTarget();
  std::string text = std::string(kMagic) + " llvm " + host.llvmVersion + " " + host.triple +
                     " cpu " + host.cpu + " features";
  for (const std::string &name : host.features)
    text += " +" + name;
  return text;
}

} // namespace plait::jit
