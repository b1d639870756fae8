//===- Messages.cpp - CPython's and NumPy's error messages ----------------===//
#include "plait/Dialect/Plait/Messages.h"
#include "plait/Dialect/Plait/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

namespace plait::dialect {

llvm::StringRef defaultMessage(llvm::StringRef key) {
  static const llvm::StringMap<llvm::StringRef> defaults = {

      {"int_division_by_zero", "integer division or modulo by zero"},
      {"int_mod_by_zero", "integer division or modulo by zero"},
      {"int_divmod_by_zero", "integer division or modulo by zero"},
      {"int_truediv_by_zero", "division by zero"},
      {"float_truediv_by_zero", "float division by zero"},
      {"float_floordiv_by_zero", "float floor division by zero"},
      {"float_mod_by_zero", "float modulo"},
      {"float_divmod_by_zero", "float divmod()"},
      {"zero_pow_negative", "0.0 cannot be raised to a negative power"},
      {"float_pow_overflow", "(34, 'Numerical result out of range')"},
      {"complex_pow_overflow", "complex exponentiation"},
      {"math_domain", "math domain error"},
      // CPython 3.14 names the domain and the argument (sampled then).
      {"math_domain_sqrt", "math domain error"},
      {"math_domain_log", "math domain error"},
      {"math_domain_log2", "math domain error"},
      {"math_domain_log10", "math domain error"},
      {"math_domain_log_int", "math domain error"},
      {"math_domain_log1p", "math domain error"},
      {"math_domain_acos", "math domain error"},
      {"math_domain_asin", "math domain error"},
      {"math_domain_acosh", "math domain error"},
      {"math_domain_atanh", "math domain error"},
      {"math_domain_sin", "math domain error"},
      {"math_domain_cos", "math domain error"},
      {"math_domain_tan", "math domain error"},
      {"math_range", "math range error"},
      {"round_overflow", "rounded value too large to represent"},
      {"float_to_int_inf", "cannot convert float infinity to integer"},
      {"float_to_int_nan", "cannot convert float NaN to integer"},
      {"recursion", "maximum recursion depth exceeded"},
      {"unbound_local", "cannot access local variable '{name}' where it is not associated "
                        "with a value"},
      {"range_step_zero", "range() arg 3 must not be zero"},
      {"unpack_too_many", "too many values to unpack (expected {expected})"},
      {"unpack_not_enough", "not enough values to unpack (expected {expected}, got {0})"},
      {"negative_shift", "negative shift count"},
      {"powmod_zero", "pow() 3rd argument cannot be 0"},
      {"int_overflow", "int64 overflow (use overflow='wrap' to wrap around)"},
      {"pow_complex", "negative number cannot be raised to a fractional power (the result "
                      "would be complex)"},
      {"negative_int_exponent", "int ** negative int is a float in Python: write float(x) ** y"},
      {"index_out_of_bounds", "index {0} is out of bounds for axis {1} with size {2}"},
      {"integer_out_of_bounds", "Python integer {0} out of bounds for {dtype}"},
      {"store_int_too_large", "Python int too large to convert to C long"},
      {"negative_dimensions", "negative dimensions are not allowed"},
      {"array_too_big", "Unable to allocate the array: it is too big"},
      {"empty_minimum", "zero-size array to reduction operation minimum which has no identity"},
      {"empty_maximum", "zero-size array to reduction operation maximum which has no identity"},
      {"dot_not_aligned",
       "shapes {a} and {b} not aligned: {inner} (dim {axis}) != {other} (dim {otherAxis})"},
      {"matmul_broadcast",
       "operands could not be broadcast together with remapped shapes [original->remapped]: "
       "{a}->{aRemapped} {b}->{bRemapped}  and requested shape {core}"},
      {"matmul_mismatch",
       "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
       "(n?,k),(k,m?)->(n?,m?) (size {0} is different from {1})"},
      {"slice_step_zero", "slice step cannot be zero"},
      // NumPy's; {from}, {shapes} ... stand for shapes, "(3,)" or "(2,4)".
      {"broadcast_mismatch", "could not broadcast input array from shape {from} into shape {to}"},
      {"operands_broadcast", "operands could not be broadcast together with shapes {shapes}"},
      {"output_not_broadcastable", "non-broadcastable output operand with shape {out} doesn't "
                                   "match the broadcast shape {shape}"},
  };
  auto found = defaults.find(key);
  return found == defaults.end() ? key : found->second;
}

llvm::ArrayRef<llvm::StringRef> loweringMessageKeys() {
  static const llvm::StringRef keys[] = {"int_overflow",    "int_division_by_zero",
                                         "int_mod_by_zero", "index_out_of_bounds",
                                         "slice_step_zero", "array_too_big"};
  return keys;
}

std::string messageFor(mlir::Operation *op, llvm::StringRef key) {
  auto module = op->getParentOfType<mlir::ModuleOp>();
  if (module)
    if (auto messages = module->getAttrOfType<mlir::DictionaryAttr>(kMessagesAttrName))
      if (auto text = messages.getAs<mlir::StringAttr>(key))
        return text.str();
  return defaultMessage(key).str();
}

} // namespace plait::dialect
