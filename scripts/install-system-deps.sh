#!/usr/bin/env bash
# Installs the distribution packages plait builds with, when missing.
set -eu
version="$1"
packages="llvm-$version-dev libmlir-$version-dev mlir-$version-tools libgtest-dev ninja-build ccache g++ cmake"
missing=""
for p in $packages; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "plait: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q $missing
