//===- InterfaceModelTable.h - a context's interface callbacks --*- C++ -*-===//
//
// Internal to PlaitIR: the callbacks behind the interface models of
// Extensions.cpp, by operation name. Written under the context lock; read by
// models on whichever thread a pass runs, so entries are shared_ptrs copied
// out under `mutex` and called after unlocking.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_LIB_IR_INTERFACEMODELTABLE_H
#define PLAIT_LIB_IR_INTERFACEMODELTABLE_H

#include "plait/IR/Extensions.h"

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace plait {

struct InterfaceModelTable {
  std::mutex mutex;
  std::unordered_map<std::string, std::shared_ptr<const EffectsFn>> effects;
  std::unordered_map<std::string, std::shared_ptr<const SpeculatabilityFn>>
      speculatability;
};

} // namespace plait

#endif // PLAIT_LIB_IR_INTERFACEMODELTABLE_H
