//===- JITModule.cpp - plait.jit glue: compiling and dispatching ----------===//
//
// Glue: the compile() binding (converts its arguments, then compiles
// detached) and nanobind adapters over the dispatcher component
// (plait/Dispatcher/Dispatcher.h), which holds the call path.
//
//===----------------------------------------------------------------------===//
#include "Bindings.h"

#include "plait/Dispatcher/Dispatcher.h"
#include "plait/Frontend/AST.h"
#include "plait/JIT/Compiler.h"
#include "plait/JIT/DispatchKey.h"
#include "plait/JIT/ExecutorRecord.h"
#include "plait/Runtime/LinearAlgebra.h"
#include "plait/Runtime/Parallel.h"
#include "plait/Runtime/Strings.h"
#include "plait/Support/NumPyLoops.h"

#include <nanobind/stl/map.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <atomic>

using namespace plait;
using namespace plait::python;
using frontend::Type;

namespace {

std::atomic<PyObject *> typingErrorClass{nullptr};
std::atomic<PyObject *> unsupportedErrorClass{nullptr};

/// Turns a dispatcher function's failure (false, Python error set) into the
/// exception nanobind propagates.
void check(bool succeeded) {
  if (!succeeded)
    throw nb::python_error();
}

nb::dict statsDict(const dispatch::DispatchStats &stats, bool processWide) {
  nb::dict dict;
  dict["compilations"] = stats.compilations;
  dict["cache_hits"] = stats.cacheHits;
  dict["single_flight_waits"] = stats.singleFlightWaits;
  dict["invalidations"] = stats.invalidations;
  dict["interpreter_fallbacks"] = stats.interpreterFallbacks;
  dict["live_executors"] = stats.liveExecutors;
  dict["jit_code_bytes"] = stats.codeBytes;
  dict["compile_seconds"] = stats.compileSeconds;
  if (processWide)
    dict["retired_pending"] = stats.retiredPending;
  return dict;
}

/// Asks Python how a call of a plait.overload target compiles (typing runs
/// detached; this re-attaches for the call): resolver(target, positional
/// type names, [(keyword, type name)], literals: per argument its value in
/// Python's syntax or None) returns ("function", id, program) or
/// ("ufunc", kernel id, program, [loop input dtypes], loop output dtype,
/// simd products, check Python ints).
/// Its TypingError or UnsupportedError becomes the compilation's error,
/// located at the call by the typer.
frontend::OverloadResolution resolveOverload(PyObject *resolver,
                                             const frontend::OverloadRequest &call) {
  nb::gil_scoped_acquire attached;
  try {
    nb::list positional, keywords, literals;
    for (const Type &t : call.positional)
      positional.append(t.str());
    for (const auto &[name, t] : call.keywords)
      keywords.append(nb::make_tuple(name, t.str()));
    for (const std::string &literal : call.literals)
      literals.append(literal.empty() ? nb::none() : nb::object(nb::str(literal.c_str())));
    nb::tuple answer =
        nb::cast<nb::tuple>(nb::handle(resolver)(call.target, positional, keywords, literals));
    frontend::OverloadResolution resolution;
    if (nb::cast<std::string>(answer[0]) == "native") {
      resolution.kind = frontend::OverloadResolution::Kind::Native;
      return resolution;
    }
    resolution.functionId = nb::cast<int>(answer[1]);
    resolution.program = nb::cast<std::string>(answer[2]);
    if (nb::cast<std::string>(answer[0]) == "ufunc") {
      auto loopDType = [](const std::string &name) {
        frontend::DType dtype;
        if (!frontend::dtypeFromName(name, dtype))
          throw frontend::CompileError(frontend::CompileError::Kind::Unsupported,
                                       "ufunc loops of " + name + " are not supported");
        return dtype;
      };
      resolution.kind = frontend::OverloadResolution::Kind::Ufunc;
      for (const std::string &name : nb::cast<std::vector<std::string>>(answer[3]))
        resolution.loopInputs.push_back(loopDType(name));
      resolution.loopOutput = loopDType(nb::cast<std::string>(answer[4]));
      resolution.simdProducts = nb::cast<bool>(answer[5]);
      resolution.checkPythonInts = nb::cast<bool>(answer[6]);
    }
    return resolution;
  } catch (nb::python_error &error) {
    bool unsupported = error.matches(unsupportedErrorClass.load());
    std::string message = nb::cast<std::string>(nb::str(error.value()));
    if (!unsupported && !error.matches(typingErrorClass.load()))
      message = nb::cast<std::string>(nb::str(error.type().attr("__name__"))) + ": " + message;
    throw frontend::CompileError(unsupported ? frontend::CompileError::Kind::Unsupported
                                             : frontend::CompileError::Kind::Typing,
                                 message);
  } catch (const nb::cast_error &) {
    throw frontend::CompileError(frontend::CompileError::Kind::Typing,
                                 "a plait.overload resolver returned a malformed answer");
  }
}

} // namespace

namespace plait::python {

void populateJIT(nb::module_ &m) {
  dispatch::installPrintHandler();
  PyObject *type = dispatch::createDispatcherType();
  if (!type)
    throw nb::python_error();
  m.attr("DispatcherBase") = nb::steal(type);

  m.def(
      "_enable_vectorcall",
      [base = nb::handle(type)](nb::handle cls) { check(dispatch::enableVectorcall(base.ptr(), cls.ptr())); },
      "Internal: let a Python subclass of DispatcherBase keep vectorcall.");

  m.def("_set_error_classes", [](nb::handle typing, nb::handle unsupported) {
    typingErrorClass.store(typing.inc_ref().ptr());
    unsupportedErrorClass.store(unsupported.inc_ref().ptr());
  });

  nb::class_<jit::Executor>(m, "Executor", "Native code for one signature.")
      .def_prop_ro("argument_types",
                   [](const jit::Executor &e) {
                     std::vector<std::string> names;
                     for (const Type &t : e.info.argumentTypes)
                       names.push_back(t.str());
                     return names;
                   })
      .def_prop_ro("result_type", [](const jit::Executor &e) { return e.info.resultType.str(); })
      .def_prop_ro("may_run_long", [](const jit::Executor &e) { return e.info.mayRunLong; })
      .def_prop_ro("compile_seconds", [](const jit::Executor &e) { return e.compileSeconds; })
      .def_prop_ro("phase_seconds",
                   [](const jit::Executor &e) {
                     nb::dict phases;
                     for (const auto &[phase, seconds] : e.phaseSeconds)
                       phases[phase.c_str()] = seconds;
                     return phases;
                   })
      .def_prop_ro("code_bytes", [](const jit::Executor &e) { return e.code->codeBytes(); })
      .def_ro("plait", &jit::Executor::plaitText)
      .def_ro("optimized_plait", &jit::Executor::optimizedPlaitText)
      .def_ro("mlir", &jit::Executor::mlirText)
      .def_ro("optimized_mlir", &jit::Executor::optimizedMlirText)
      .def_ro("llvm", &jit::Executor::llvmText)
      .def("cache_record",
           [](const jit::Executor &e) {
             try {
               std::string record = jit::executorRecord(e);
               return nb::bytes(record.data(), record.size());
             } catch (const std::invalid_argument &error) {
               throw nb::value_error(error.what());
             }
           })
      .def("asm", [](const jit::Executor &e) { return detached([&] { return e.assembly(); }); })
      .def(
          "set_fallback",
          [](const jit::Executor &e, std::shared_ptr<jit::Executor> fallback) {
            return e.setFallback(std::move(fallback));
          },
          nb::arg("fallback"),
          "Attaches the compilation without speculation that this executor runs when a guard "
          "fails (once; False when one is attached already).");

  m.def(
      "compile",
      [](const std::string &snapshot, int entry, const std::vector<std::string> &types,
         bool checkOverflow, bool fastmath, bool parallel, int64_t recursionLimit,
         const std::map<std::string, std::string> &messages, unsigned optLevel, bool boundsCheck,
         const std::vector<std::string> &overloaded, nb::object resolver, bool keepStages,
         bool keepObject, bool speculate) {
        jit::CompileRequest request;
        request.keepStages = keepStages;
        request.keepObject = keepObject;
        if (!resolver.is_none()) {
          request.options.overloaded.insert(overloaded.begin(), overloaded.end());
          request.options.resolveOverload =
              [resolver = resolver.ptr()](const frontend::OverloadRequest &call) {
                return resolveOverload(resolver, call);
              };
        }
        request.snapshot = snapshot;
        request.entryFunction = entry;
        for (const std::string &name : types) {
          bool narrow;
          request.argumentTypes.push_back(jit::key::typeOfName(name, narrow));
        }
        request.options.checkOverflow = checkOverflow;
        request.options.fastmath = fastmath;
        request.options.parallel = parallel;
        request.options.recursionLimit = recursionLimit;
        request.options.messages = messages;
        request.optLevel = optLevel;
        request.options.boundsCheck = boundsCheck;
        request.options.speculate = speculate;
        try {
          // Detached: typing, MLIR, LLVM and code generation touch no Python.
          return detached([&] { return jit::compile(request); });
        } catch (const frontend::CompileError &error) {
          PyObject *cls = error.kind == frontend::CompileError::Kind::Typing
                              ? typingErrorClass.load()
                              : unsupportedErrorClass.load();
          PyErr_SetString(cls ? cls : PyExc_RuntimeError, error.what());
          throw nb::python_error();
        }
      },
      nb::arg("snapshot"), nb::arg("entry"), nb::arg("types"), nb::arg("check_overflow") = true,
      nb::arg("fastmath") = false, nb::arg("parallel") = false, nb::arg("recursion_limit") = 1000,
      nb::arg("messages") = std::map<std::string, std::string>(), nb::arg("opt_level") = 2,
      nb::arg("boundscheck") = true, nb::arg("overloaded") = std::vector<std::string>(),
      nb::arg("resolver") = nb::none(), nb::arg("keep_stages") = false,
      nb::arg("keep_object") = false, nb::arg("speculate") = true);

  // The disk cache (cache=True): records of executors, and what besides the
  // source decides their machine code.
  m.def("_load_executor", [](nb::bytes record) {
    std::string bytes(record.c_str(), record.size());
    try {
      return detached([&] { return jit::loadExecutorRecord(bytes); });
    } catch (const std::invalid_argument &error) {
      throw nb::value_error(error.what());
    }
  });
  m.def("_code_fingerprint", [] { return jit::codeFingerprint(); });
  m.def("_host_target", [] {
    jit::HostTarget host = jit::hostTarget();
    nb::dict info;
    info["llvm_version"] = host.llvmVersion;
    info["triple"] = host.triple;
    info["cpu"] = host.cpu;
    info["features"] = host.features;
    return info;
  });

  // Dispatch keys (DispatchKey.h) are spelt in one place, for Python too.
  m.def("_signature_key", [](const std::vector<std::string> &typeNames) {
    jit::key::Signature signature = jit::key::signatureOf(typeNames);
    return std::make_pair(signature.key, signature.kinds);
  });
  m.def("_key_type_names", [](const std::string &key) {
    std::vector<std::string> names;
    for (const std::string &part : jit::key::split(key))
      names.push_back(jit::key::nameOf(part));
    return names;
  });

  // What the snapshot writes: defined by the frontend (ASTNodes.def).
  m.def("snapshot_fields", [] {
    nb::dict fields;
    for (const auto &[kind, names] : frontend::ast::snapshotFields()) {
      nb::list spelled;
      for (const std::string &name : names)
        spelled.append(nb::str(name.c_str()));
      fields[kind.c_str()] = nb::tuple(spelled);
    }
    return fields;
  });
  m.def("supported_builtins", [] { return frontend::supportedBuiltins(); });
  m.def("native_numpy_functions", [] { return frontend::nativeNumPyFunctions(); });
  m.def("native_array_methods", [] {
    const std::set<std::string> &names = frontend::nativeArrayMethods();
    return std::vector<std::string>(names.begin(), names.end());
  });
  // Looking for the library may dlopen: without the GIL.
  m.def(
      "blas_library", [] { return runtime::blasLibraryPath(); },
      nb::call_guard<nb::gil_scoped_release>());
  m.def("_set_numpy_backward_walks", &plait::setNumPyBackwardWalks);

  m.def("_configure",
        [](nb::handle self, const std::string &name, std::vector<std::string> params, bool varargs,
           nb::list defaults, int nogil, bool lazy) {
          dispatch::CallConfiguration configuration;
          configuration.name = name;
          configuration.parameters = std::move(params);
          configuration.varargs = varargs;
          for (nb::handle value : defaults)
            configuration.defaults.push_back(value.ptr());
          using Detach = dispatch::CallConfiguration::Detach;
          configuration.detach = nogil == 0 ? Detach::Never : nogil == 1 ? Detach::Always : Detach::WhenLong;
          configuration.lazy = lazy;
          check(dispatch::configure(self.ptr(), configuration));
        });

  m.def("_install",
        [](nb::handle self, const std::string &key, const std::string &kinds,
           const std::string &resultCast, std::shared_ptr<jit::Executor> executor) {
          check(dispatch::install(self.ptr(), key, kinds, resultCast.empty() ? '\0' : resultCast[0],
                                  std::move(executor)));
        });

  m.def(
      "_set_guard",
      [](nb::handle self, nb::list functions, nb::list reads) {
        check(dispatch::setGuard(self.ptr(), functions.ptr(), reads.ptr()));
      },
      "Internal: what the current executors assumed (functions' code objects "
      "and (dict, key, value) global reads).");

  m.def("_invalidate", [](nb::handle self) { check(dispatch::invalidate(self.ptr())); });
  m.def("_mark_stale", [](nb::handle self) { check(dispatch::markStale(self.ptr())); });

  m.def("_record", [](nb::handle self, const std::string &event, double seconds) {
    if (event != "wait" && event != "compile")
      throw nb::value_error("the events are 'wait' and 'compile'");
    check(dispatch::recordEvent(self.ptr(),
                                event == "wait" ? dispatch::Event::SingleFlightWait
                                                : dispatch::Event::Compilation,
                                seconds));
  });

  m.def("_stats", [](nb::handle self) {
    dispatch::DispatchStats stats;
    check(dispatch::statsOf(self.ptr(), stats));
    return statsDict(stats, /*processWide=*/false);
  });
  // The thread pool of parallel loops (prange): its size, and the calling
  // thread's limit on the threads its loops use.
  m.def("_parallel_pool_size", [] { return plait::parallelPoolSize(); });
  m.def("_parallel_threads", [] { return plait::parallelThreads(); });
  m.def("_set_parallel_threads", [](int64_t n) { return plait::setParallelThreads(n); });
  m.def("stats", [] { return statsDict(dispatch::processStats(), /*processWide=*/true); });
  // The decimal digits float() and int() of a str read: the interpreter's
  // Unicode version's (_strings.py keeps those of the candidates it knows).
  m.def("_decimal_zero_candidates", [] { return plait::decimalZeroCandidates(); });
  m.def("_set_known_decimal_zeros",
        [](std::vector<int64_t> zeros) { plait::setKnownDecimalZeros(std::move(zeros)); });

  m.def(
      "_set_compile_rendezvous",
      [](const std::string &barrierId, unsigned participants, double timeout,
         const std::string &exitBarrierId) {
        jit::setCompileRendezvous(barrierId, participants, timeout, exitBarrierId);
      },
      nb::arg("barrier_id"), nb::arg("participants"), nb::arg("timeout"),
      nb::arg("exit_barrier_id") = "",
      "Test hook: compilations meet at a native barrier on entry (and on exit when "
      "exit_barrier_id is given); 0 participants clears.");
}

} // namespace plait::python
