//===- DispatchKeyTest.cpp - the dispatch key alphabet and the entry ABI --===//
#include "plait/JIT/DispatchKey.h"
#include "plait/JIT/EntryABI.h"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace plait;
using frontend::DType;
using frontend::Type;

namespace {

TEST(DispatchKey, SplitsOnePartPerArgument) {
  EXPECT_EQ(jit::key::split("ifAd2CNbc"), (std::vector<std::string>{"i", "f", "Ad2C", "Nb", "c"}));
  EXPECT_TRUE(jit::key::split("").empty());
  EXPECT_THROW(jit::key::split("iAd2"), std::invalid_argument);
  EXPECT_THROW(jit::key::split("N"), std::invalid_argument);
}

TEST(DispatchKey, PartsAndTypesRoundTrip) {
  const Type types[] = {Type::boolean(),
                        Type::integer(),
                        Type::floating(),
                        Type::complex(),
                        Type::numpy(DType::Float32),
                        Type::numpy(DType::UInt64),
                        Type::array(DType::Float64, 2, /*contiguous=*/true),
                        Type::array(DType::Int8, 3, false, /*fortran=*/true),
                        Type::array(DType::Bool, 8)};
  for (const Type &type : types) {
    std::string part = jit::key::partOf(type);
    EXPECT_EQ(jit::key::typeOf(part), type) << part;
    bool narrow = true;
    EXPECT_EQ(jit::key::typeOfName(jit::key::nameOf(part), narrow), type) << part;
    EXPECT_FALSE(narrow);
  }
  EXPECT_EQ(jit::key::partOf(Type::array(DType::Float64, 2, true)), "Ad2C");
  EXPECT_EQ(jit::key::nameOf("Ad2C"), "float64[:, ::1]");
  EXPECT_EQ(jit::key::nameOf("Ab3F"), "int8[::1, :, :]");
  EXPECT_EQ(jit::key::nameOf("Nf"), "numpy.float32");
  EXPECT_THROW(jit::key::typeOf("Ax2C"), std::invalid_argument); // no such dtype
  EXPECT_THROW(jit::key::typeOf("Ad9C"), std::invalid_argument); // 9 axes
  EXPECT_THROW(jit::key::typeOf("z"), std::invalid_argument);
}

TEST(DispatchKey, StrsAndNoneAreConstantsOfTheKey) {
  // A str's bytes (with the characters that delimit names and literals),
  // None: each part round-trips through its name too.
  const Type types[] = {Type::stringConstant("wrap"), Type::stringConstant(""),
                        Type::stringConstant("it's, [odd]\\ \xc3\xa9"), Type::none(),
                        Type::tuple({Type::integer(), Type::floating()})};
  for (const Type &type : types) {
    std::string part = jit::key::partOf(type);
    EXPECT_EQ(jit::key::typeOf(part), type) << part;
    bool narrow = false;
    EXPECT_EQ(jit::key::typeOfName(jit::key::nameOf(part), narrow), type) << part;
  }
  EXPECT_EQ(jit::key::partOf(Type::stringConstant("wrap")), "S04wrap");
  EXPECT_EQ(jit::key::split("S04wrapnS00i"),
            (std::vector<std::string>{"S04wrap", "n", "S00", "i"}));
  EXPECT_THROW(jit::key::split("S05wrap"), std::invalid_argument);
  // Exactly the signature's str.
  EXPECT_TRUE(jit::key::accepts("S04wrap", "S04wrap"));
  EXPECT_FALSE(jit::key::accepts("S04wrap", "S04clip"));
  EXPECT_THROW(jit::key::partOf(Type::stringConstant(std::string(65, 'x'))), std::invalid_argument);
}

TEST(DispatchKey, NamesOfSignatures) {
  bool narrow = false;
  EXPECT_EQ(jit::key::typeOfName("int32", narrow), Type::integer());
  EXPECT_TRUE(narrow);
  EXPECT_EQ(jit::key::typeOfName("float64[::1,:]", narrow),
            Type::array(DType::Float64, 2, false, true));
  EXPECT_EQ(jit::key::typeOfName("float64[::1]", narrow), Type::array(DType::Float64, 1, true));
  for (const char *bad : {"float16", "float64[]", "float64[:, ::1, :]", "float64[::1, ::1]",
                          "float64[:,:,:,:,:,:,:,:,:]", "float64[::2]", "numpy.float128"})
    EXPECT_THROW(jit::key::typeOfName(bad, narrow), std::invalid_argument) << bad;
  EXPECT_EQ(jit::key::typeOfName("numpy.float16", narrow), Type::numpy(DType::Float16));
  EXPECT_EQ(jit::key::typeOfName("complex64[:]", narrow), Type::array(DType::Complex64, 1));
  jit::key::Signature signature =
      jit::key::signatureOf({"int32", "float32", "bool", "complex128[:]"});
  EXPECT_EQ(signature.key, "ifbAD1A");
  EXPECT_EQ(signature.kinds, "IFbA");
}

TEST(DispatchKey, ExplicitSignaturesAcceptConvertingArguments) {
  using jit::key::accepts;
  EXPECT_TRUE(accepts("f", "i")); // int -> float
  EXPECT_TRUE(accepts("c", "b")); // bool -> complex
  EXPECT_TRUE(accepts("ff", "bf"));
  EXPECT_FALSE(accepts("i", "f"));      // never narrowing
  EXPECT_FALSE(accepts("if", "i"));     // arity
  EXPECT_TRUE(accepts("Ad2A", "Ad2C")); // any layout takes contiguous
  EXPECT_TRUE(accepts("Ad2A", "Ad2F"));
  EXPECT_FALSE(accepts("Ad2C", "Ad2A")); // but not the other way
  EXPECT_FALSE(accepts("Ad2A", "Af2A")); // no dtype conversion
  EXPECT_FALSE(accepts("Ad2A", "Ad1A"));
  EXPECT_FALSE(accepts("Ad1A", "f"));
  EXPECT_FALSE(accepts("f", "Ad1A"));
}

TEST(EntryABI, SlotsAndWords) {
  EXPECT_EQ(jit::abi::argumentSlots(Type::integer()), 1u);
  EXPECT_EQ(jit::abi::argumentSlots(Type::complex()), 2u);
  EXPECT_EQ(jit::abi::argumentSlots(Type::numpy(DType::Complex128)), 2u);
  EXPECT_EQ(jit::abi::argumentSlots(Type::array(DType::Float64, 3)), 9u);
  EXPECT_EQ(jit::abi::resultWords(Type::array(DType::Float64, 2)), 6u);
  EXPECT_EQ(jit::abi::resultWords(Type::tuple({Type::complex(), Type::integer()})), 3u);
  EXPECT_EQ(jit::abi::resultWords(Type::none()), 1u);
  int64_t words[3];
  jit::abi::ResultsDescriptor descriptor(words, 3);
  EXPECT_EQ(descriptor.fields[0], reinterpret_cast<int64_t>(words));
  EXPECT_EQ(descriptor.fields[3], 3);
  EXPECT_EQ(descriptor.fields[4], 1);
}

} // namespace
