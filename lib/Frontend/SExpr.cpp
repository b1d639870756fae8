//===- SExpr.cpp - the snapshot format of Python functions ----------------===//
#include "plait/Frontend/SExpr.h"
#include "plait/Frontend/Frontend.h"

#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace plait::frontend {

const std::string &SExpr::head() const {
  static const std::string empty;
  if (!isList() || items.empty() || items[0].kind != Kind::Symbol)
    return empty;
  return items[0].text;
}

SourceLocation SExpr::location() const {
  SourceLocation loc;
  if (isList() && items.size() >= 5) {
    loc.line = std::atoi(items[1].text.c_str());
    loc.column = std::atoi(items[2].text.c_str());
    loc.endLine = std::atoi(items[3].text.c_str());
    loc.endColumn = std::atoi(items[4].text.c_str());
  }
  return loc;
}

const SExpr &SExpr::field(size_t i) const {
  if (5 + i >= items.size())
    throw std::invalid_argument("snapshot node '" + head() + "' lacks field " +
                                std::to_string(i));
  return items[5 + i];
}

size_t SExpr::numFields() const {
  return items.size() > 5 ? items.size() - 5 : 0;
}

std::vector<const SExpr *> SExpr::rest() const {
  std::vector<const SExpr *> result;
  for (size_t i = 1; i < items.size(); ++i)
    result.push_back(&items[i]);
  return result;
}

namespace {

class Reader {
public:
  explicit Reader(const std::string &text) : text(text) {}

  SExpr read() {
    skipSpace();
    if (pos >= text.size())
      fail("unexpected end of snapshot");
    char c = text[pos];
    if (c == '(') {
      ++pos;
      SExpr list;
      list.kind = SExpr::Kind::List;
      while (true) {
        skipSpace();
        if (pos >= text.size())
          fail("unterminated list");
        if (text[pos] == ')') {
          ++pos;
          return list;
        }
        list.items.push_back(read());
      }
    }
    if (c == ')')
      fail("unexpected ')'");
    if (c == '"')
      return readString();
    if (c == '#')
      return readHash();
    return readAtom();
  }

  void expectEnd() {
    skipSpace();
    if (pos != text.size())
      fail("trailing text after the snapshot");
  }

private:
  [[noreturn]] void fail(const std::string &message) {
    throw std::invalid_argument("malformed snapshot at offset " +
                                std::to_string(pos) + ": " + message);
  }

  void skipSpace() {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }

  std::string token() {
    size_t start = pos;
    while (pos < text.size() && !std::isspace(static_cast<unsigned char>(text[pos])) &&
           text[pos] != '(' && text[pos] != ')' && text[pos] != '"')
      ++pos;
    return text.substr(start, pos - start);
  }

  SExpr readString() {
    ++pos; // opening quote
    SExpr atom;
    atom.kind = SExpr::Kind::String;
    while (pos < text.size() && text[pos] != '"') {
      char c = text[pos++];
      if (c == '\\') {
        if (pos >= text.size())
          fail("unterminated escape");
        char e = text[pos++];
        if (e == 'n')
          c = '\n';
        else if (e == 't')
          c = '\t';
        else if (e == 'x') {
          if (pos + 2 > text.size())
            fail("short \\x escape");
          c = static_cast<char>(std::strtol(text.substr(pos, 2).c_str(), nullptr, 16));
          pos += 2;
        } else
          c = e; // \\ and \"
      }
      atom.text.push_back(c);
    }
    if (pos >= text.size())
      fail("unterminated string");
    ++pos;
    return atom;
  }

  SExpr readHash() {
    std::string t = token();
    SExpr atom;
    if (t == "#true")
      atom.kind = SExpr::Kind::True;
    else if (t == "#false")
      atom.kind = SExpr::Kind::False;
    else if (t == "#none")
      atom.kind = SExpr::Kind::None;
    else if (t.rfind("#f", 0) == 0) {
      atom.kind = SExpr::Kind::Float;
      std::string body = t.substr(2);
      if (body == "inf")
        atom.floating = HUGE_VAL;
      else if (body == "-inf")
        atom.floating = -HUGE_VAL;
      else if (body == "nan")
        atom.floating = std::nan("");
      else {
        char *end = nullptr;
        atom.floating = std::strtod(body.c_str(), &end);
        if (end == body.c_str() || *end)
          fail("bad float '" + t + "'");
      }
    } else
      fail("unknown atom '" + t + "'");
    return atom;
  }

  SExpr readAtom() {
    std::string t = token();
    if (t.empty())
      fail("empty atom");
    SExpr atom;
    bool numeric = std::isdigit(static_cast<unsigned char>(t[0])) ||
                   (t[0] == '-' && t.size() > 1);
    atom.kind = numeric ? SExpr::Kind::Integer : SExpr::Kind::Symbol;
    atom.text = t;
    return atom;
  }

  const std::string &text;
  size_t pos = 0;
};

} // namespace

SExpr parseSExpr(const std::string &text) {
  Reader reader(text);
  SExpr result = reader.read();
  reader.expectEnd();
  return result;
}

Program parseProgram(const std::string &snapshot) {
  SExpr root = parseSExpr(snapshot);
  if (root.head() != "Program")
    throw std::invalid_argument("snapshot is not a (Program ...)");
  Program program;
  for (const SExpr *item : root.rest()) {
    if (item->head() != "Function" || item->items.size() < 9)
      throw std::invalid_argument("malformed (Function ...) in snapshot");
    FunctionSource fn;
    fn.id = std::stoi(item->items[1].text);
    fn.name = item->items[2].text;
    fn.filename = item->items[3].text;
    for (const SExpr *p : item->items[4].rest()) {
      // (Star name): the *args parameter, always the last.
      fn.varargs = p->isList();
      fn.params.push_back(fn.varargs ? p->items.at(1).text : p->text);
    }
    for (const SExpr *d : item->items[5].rest())
      fn.defaults.push_back(*d);
    for (const SExpr *g : item->items[6].rest())
      fn.globals[g->items.at(1).text] = g->items.at(2);
    for (const SExpr *l : item->items[7].rest())
      fn.lines[std::stoi(l->items.at(1).text)] = l->items.at(2).text;
    fn.definition = item->items[8];
    if (item->items.size() > 9) {
      // (Options (name 0|1) ...)
      if (item->items[9].head() != "Options")
        throw std::invalid_argument("malformed (Options ...) in snapshot");
      for (const SExpr *option : item->items[9].rest()) {
        const std::string &name = option->items.at(0).text;
        bool on = option->items.at(1).text == "1";
        if (name == "check_overflow")
          fn.checkOverflow = on;
        else if (name == "fastmath")
          fn.fastmath = on;
        else if (name == "boundscheck")
          fn.boundsCheck = on;
        else
          throw std::invalid_argument("unknown option '" + name + "' in snapshot");
      }
    }
    program.functions[fn.id] = std::move(fn);
  }
  return program;
}


} // namespace plait::frontend
