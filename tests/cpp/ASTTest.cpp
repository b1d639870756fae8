//===- ASTTest.cpp - snapshot nodes read by kind and field name -----------===//
#include "plait/Frontend/AST.h"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace plait::frontend;

namespace {

// for i in range(n): s += i
const char *kLoop = R"sx((For 2 4 3 14 (Name 2 8 2 9 i)
  (Call 2 13 2 21 (Name 2 13 2 18 range) (Args (Name 2 19 2 20 n)) (Keywords (Keyword step (Const 2 22 2 23 2))))
  (Body (AugAssign 3 8 3 14 (Name 3 8 3 9 s) Add (Name 3 13 3 14 i))) (Body)))sx";

TEST(AST, FieldsAreReadByName) {
  SExpr loop = parseSExpr(kLoop);
  EXPECT_EQ(ast::kindOf(loop), ast::NodeKind::For);
  EXPECT_EQ(ast::id(ast::target(loop)), "i");
  const SExpr &call = ast::iter(loop);
  EXPECT_TRUE(ast::is(call, ast::NodeKind::Call));
  EXPECT_EQ(ast::id(ast::func(call)), "range");
  ASSERT_EQ(ast::args(call).rest().size(), 1u);
  const SExpr &keyword = *ast::keywords(call).rest().at(0);
  EXPECT_EQ(ast::kindOf(keyword), ast::NodeKind::Keyword);
  EXPECT_EQ(ast::keywordName(keyword), "step");
  EXPECT_EQ(ast::value(ast::keywordValue(keyword)).text, "2");
  const SExpr &update = *ast::body(loop).rest().at(0);
  EXPECT_EQ(ast::op(update), ast::Operator::Add);
  EXPECT_EQ(ast::id(ast::value(update)), "i");
  EXPECT_TRUE(ast::orelse(loop).rest().empty());
}

TEST(AST, AFieldTheKindLacksIsAnInternalError) {
  SExpr name = parseSExpr("(Name 1 0 1 1 x)");
  EXPECT_THROW(ast::body(name), std::logic_error);
  EXPECT_THROW(ast::op(name), std::logic_error);
  SExpr list = parseSExpr("(Body)");
  EXPECT_EQ(ast::kindOf(list), ast::NodeKind::Other);
  EXPECT_THROW(ast::value(list), std::logic_error);
}

TEST(AST, SpreadAndOptionalFields) {
  SExpr tuple = parseSExpr("(Tuple 1 0 1 6 (Name 1 1 1 2 a) (Name 1 4 1 5 b))");
  std::vector<const SExpr *> elements = ast::elts(tuple);
  ASSERT_EQ(elements.size(), 2u);
  EXPECT_EQ(ast::id(*elements[1]), "b");
  SExpr slice = parseSExpr("(Slice 1 2 1 4 #none (Const 1 3 1 4 5) #none)");
  EXPECT_TRUE(ast::isNone(ast::lower(slice)));
  EXPECT_FALSE(ast::isNone(ast::upper(slice)));
  EXPECT_TRUE(ast::isNone(ast::step(slice)));
}

TEST(AST, Operators) {
  SExpr symbol = parseSExpr("NotIn");
  EXPECT_EQ(ast::operatorOf(symbol), ast::Operator::NotIn);
  EXPECT_STREQ(ast::spelling(ast::Operator::NotIn), "not in");
  EXPECT_STREQ(ast::spelling(ast::Operator::FloorDiv), "//");
  EXPECT_EQ(ast::swapped(ast::Operator::LtE), ast::Operator::GtE);
  EXPECT_EQ(ast::swapped(ast::Operator::Eq), ast::Operator::Eq);
  EXPECT_THROW(ast::operatorOf(parseSExpr("Spaceship")), std::invalid_argument);
}

TEST(AST, SnapshotFieldsSpellArities) {
  bool sawFor = false, sawConst = false;
  for (const auto &[kind, fields] : ast::snapshotFields()) {
    sawConst |= kind == "Const"; // written by the serializer itself
    if (kind == "For") {
      sawFor = true;
      EXPECT_EQ(fields, (std::vector<std::string>{"target", "iter", "body*", "orelse*"}));
    }
    if (kind == "Slice")
      EXPECT_EQ(fields, (std::vector<std::string>{"lower?", "upper?", "step?"}));
    if (kind == "Tuple")
      EXPECT_EQ(fields, (std::vector<std::string>{"elts+"}));
  }
  EXPECT_TRUE(sawFor);
  EXPECT_FALSE(sawConst);
}

} // namespace
