//===- Error.cpp - plait's error values -----------------------------------===//
#include "plait/Support/Error.h"

namespace plait {

const char *toString(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  return "unknown";
}

static void appendDiagnostic(std::string &out, const DiagnosticInfo &diag,
                             const std::string &indent) {
  out += indent;
  out += toString(diag.severity);
  out += ": ";
  if (!diag.location.empty()) {
    out += diag.location;
    out += ": ";
  }
  out += diag.message;
  for (const DiagnosticInfo &note : diag.notes) {
    out += "\n";
    appendDiagnostic(out, note, indent + "  ");
  }
}

std::string DiagnosticInfo::str() const {
  std::string out;
  appendDiagnostic(out, *this, "");
  return out;
}

static std::string describe(const std::string &message,
                            const std::vector<DiagnosticInfo> &diagnostics) {
  std::string out = message;
  for (const DiagnosticInfo &diag : diagnostics) {
    out += "\n";
    appendDiagnostic(out, diag, "  ");
  }
  return out;
}

MlirError::MlirError(std::string message,
                     std::vector<DiagnosticInfo> diagnostics)
    : std::runtime_error(describe(message, diagnostics)),
      messageText(std::move(message)), diags(std::move(diagnostics)) {}

} // namespace plait
