//===- IRInterfaces.cpp - Python-defined operations and interface models --===//
//
// The callbacks made here run when native code (a verifier, cse, canonicalize,
// loop-invariant-code-motion...) asks an operation about itself, on whichever
// thread and usually while a pipeline runs detached. Each call attaches to
// the interpreter for exactly its own duration (the GIL on default builds, a
// thread state on free-threaded ones), turns a Python exception into a
// failure with the exception's text, and never lets one escape into MLIR.
//
//===----------------------------------------------------------------------===//
#include "IRBindings.h"

#include "plait/IR/Extensions.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

using namespace plait;
using namespace plait::python;

namespace {

std::string describe(nb::python_error &error) {
  nb::object type = nb::borrow(error.type());
  return nb::cast<std::string>(type.attr("__name__")) + ": " +
         nb::cast<std::string>(nb::str(error.value()));
}

/// A weak reference to a Python Context: the callbacks live inside the native
/// context, and a strong reference would keep it alive through itself.
std::shared_ptr<GilSafeObject> weakContext(const nb::object &pyContext) {
  return std::make_shared<GilSafeObject>(
      nb::module_::import_("weakref").attr("ref")(pyContext));
}

nb::object contextOf(const std::shared_ptr<GilSafeObject> &weak) {
  nb::object context = weak->get()();
  if (context.is_none())
    throw std::runtime_error("the plait.ir.Context was released");
  return context;
}

/// Calls `body` attached, with a strong reference to the Python callable and
/// context; false with `error` set when Python raised.
template <typename Body>
bool callAttached(const std::shared_ptr<GilSafeObject> &callable,
                  std::string &error, Body body) {
  nb::gil_scoped_acquire acquire;
  try {
    body(callable->get());
    return true;
  } catch (nb::python_error &exception) {
    error = describe(exception);
  } catch (const std::exception &exception) {
    error = exception.what();
  }
  return false;
}

EffectInfo::Kind effectKind(nb::handle effect) {
  int kind = nb::cast<int>(effect.attr("value"));
  if (kind < 0 || kind > 3)
    throw nb::value_error("unknown MemoryEffect");
  return static_cast<EffectInfo::Kind>(kind);
}

/// `get_effects(op)`'s answer (MemoryEffectInstance objects) as EffectInfos.
std::vector<EffectInfo> toEffects(nb::handle answer) {
  std::vector<EffectInfo> effects;
  for (nb::handle instance : answer) {
    EffectInfo info;
    info.kind = effectKind(instance.attr("effect"));
    nb::object value = instance.attr("value");
    if (!value.is_none())
      info.value = toValue(value);
    nb::object symbol = instance.attr("symbol");
    if (!symbol.is_none()) {
      auto attribute = toAttribute(symbol).dyn_cast<mlir::SymbolRefAttr>();
      if (!attribute)
        throw nb::type_error("MemoryEffectInstance.symbol must be a SymbolRefAttr");
      info.symbol = attribute.getAsOpaquePointer();
    }
    nb::object resource = instance.attr("resource");
    if (!resource.is_none())
      info.resource = nb::cast<std::string>(resource.attr("name"));
    if (info.resource == "<Default>")
      info.resource.clear();
    effects.push_back(std::move(info));
  }
  return effects;
}

EffectsFn effectsCallback(nb::object callable, nb::object pyContext) {
  auto shared = std::make_shared<GilSafeObject>(std::move(callable));
  auto context = weakContext(pyContext);
  return [shared, context](const OperationRef &op, std::vector<EffectInfo> &out,
                           std::string &error) {
    return callAttached(shared, error, [&](const nb::object &fn) {
      out = toEffects(fn(wrapOperation(contextOf(context), op)));
    });
  };
}

SpeculatabilityFn speculatabilityCallback(nb::object callable,
                                          nb::object pyContext) {
  auto shared = std::make_shared<GilSafeObject>(std::move(callable));
  auto context = weakContext(pyContext);
  return [shared, context](const OperationRef &op, Speculatability &out,
                           std::string &error) {
    return callAttached(shared, error, [&](const nb::object &fn) {
      int answer = nb::cast<int>(
          nb::int_(fn(wrapOperation(contextOf(context), op))));
      if (answer < 0 || answer > 2)
        throw nb::value_error("get_speculatability must return a Speculatability");
      out = static_cast<Speculatability>(answer);
    });
  };
}

VerifyFn verifyCallback(nb::object callable, nb::object pyContext) {
  auto shared = std::make_shared<GilSafeObject>(std::move(callable));
  auto context = weakContext(pyContext);
  return [shared, context](const OperationRef &op, std::string &error) {
    std::string raised;
    bool ok = callAttached(shared, raised, [&](const nb::object &fn) {
      fn(wrapOperation(contextOf(context), op));
    });
    if (!ok)
      error = raised;
    return ok;
  };
}

} // namespace

namespace plait::python {

void populateIRInterfaces(nb::module_ &m) {
  m.def(
      "_register_dynamic_op",
      [](nb::object context, const std::string &dialect, const std::string &name,
         int numOperands, int numResults, int numRegions,
         std::vector<std::string> traits, nb::object verify,
         nb::object getEffects, nb::object getSpeculatability) {
        nb::object pyContext = resolveContext(context);
        DynamicOpSpec spec;
        spec.dialect = dialect;
        spec.name = name;
        spec.numOperands = numOperands;
        spec.numResults = numResults;
        spec.numRegions = numRegions;
        for (const std::string &trait : traits) {
          if (trait == "IsTerminator")
            spec.isTerminator = true;
          else if (trait == "IsCommutative")
            spec.isCommutative = true;
          else if (trait == "NoTerminator")
            spec.noTerminator = true;
          else if (trait == "IsolatedFromAbove")
            spec.isolatedFromAbove = true;
          else if (trait == "SameOperandsAndResultType")
            spec.sameOperandsAndResultType = true;
          else if (trait == "NoMemoryEffect")
            spec.noMemoryEffect = true;
          else if (trait == "AlwaysSpeculatable")
            spec.alwaysSpeculatable = true;
          else
            throw nb::value_error(("unknown trait '" + trait + "'").c_str());
        }
        if (!verify.is_none())
          spec.verify = verifyCallback(verify, pyContext);
        if (!getEffects.is_none())
          spec.effects = effectsCallback(getEffects, pyContext);
        if (!getSpeculatability.is_none())
          spec.speculatability =
              speculatabilityCallback(getSpeculatability, pyContext);
        Context &native = nativeContext(pyContext);
        detached([&] { registerDynamicOperation(native, std::move(spec)); });
      },
      nb::arg("context").none(), nb::arg("dialect"), nb::arg("name"),
      nb::arg("num_operands"), nb::arg("num_results"), nb::arg("num_regions"),
      nb::arg("traits"), nb::arg("verify").none(), nb::arg("get_effects").none(),
      nb::arg("get_speculatability").none(),
      "Internal: registers an operation defined in Python (plait.dialects.ext).");

  m.def(
      "_attach_memory_effects_model",
      [](const std::string &opName, nb::object getEffects, nb::object context) {
        nb::object pyContext = resolveContext(context);
        EffectsFn callback = effectsCallback(getEffects, pyContext);
        Context &native = nativeContext(pyContext);
        detached([&] {
          attachMemoryEffectsModel(native, opName, std::move(callback));
        });
      },
      nb::arg("op_name"), nb::arg("get_effects"), nb::arg("context").none());

  m.def(
      "_attach_speculatability_model",
      [](const std::string &opName, nb::object getSpeculatability,
         nb::object context) {
        nb::object pyContext = resolveContext(context);
        SpeculatabilityFn callback =
            speculatabilityCallback(getSpeculatability, pyContext);
        Context &native = nativeContext(pyContext);
        detached([&] {
          attachSpeculatabilityModel(native, opName, std::move(callback));
        });
      },
      nb::arg("op_name"), nb::arg("get_speculatability"),
      nb::arg("context").none());

  m.def(
      "_memory_effects_of",
      [](nb::handle operation) -> nb::object {
        PyOperation &op = nb::cast<PyOperation &>(operation);
        std::optional<std::vector<EffectInfo>> effects =
            detached([&] { return memoryEffectsOf(op.ref); });
        if (!effects)
          return nb::none();
        nb::list result;
        for (EffectInfo &info : *effects) {
          nb::object value = info.value
                                 ? wrapValue(op.pyContext, std::move(*info.value))
                                 : nb::none();
          nb::object symbol =
              info.symbol ? wrapAttribute(op.pyContext,
                                          mlir::SymbolRefAttr::getFromOpaquePointer(
                                              info.symbol))
                          : nb::none();
          result.append(nb::make_tuple(static_cast<int>(info.kind), value, symbol,
                                       nb::str(info.resource.c_str())));
        }
        return result;
      },
      "Internal: (kind, value, symbol, resource name) of each effect, or None "
      "when the operation does not implement MemoryEffectsOpInterface.");

  m.def(
      "_speculatability_of",
      [](nb::handle operation) -> nb::object {
        PyOperation &op = nb::cast<PyOperation &>(operation);
        std::optional<Speculatability> answer =
            detached([&] { return speculatabilityOf(op.ref); });
        if (!answer)
          return nb::none();
        return nb::int_(static_cast<int>(*answer));
      },
      "Internal: the operation's Speculatability as an int, or None when it "
      "does not implement ConditionallySpeculatable.");
}

} // namespace plait::python
