#!/usr/bin/env bash
# Prints the LLVM/MLIR major version to build against: 16 when it is installed
# or packaged (Debian 12), otherwise the newest packaged one (Debian 13: 19).
set -u
candidates="16 22 21 20 19 18 17"
for v in $candidates; do
  if [ -f "/usr/lib/llvm-$v/lib/cmake/mlir/MLIRConfig.cmake" ]; then echo "$v"; exit 0; fi
done
if command -v apt-cache >/dev/null 2>&1; then
  if [ -z "$(ls -A /var/lib/apt/lists 2>/dev/null | grep -v lock)" ]; then
    ${SUDO:-} apt-get update -qq >/dev/null 2>&1 || true
  fi
  for v in $candidates; do
    if apt-cache show "libmlir-$v-dev" >/dev/null 2>&1; then echo "$v"; exit 0; fi
  done
fi
echo 16
