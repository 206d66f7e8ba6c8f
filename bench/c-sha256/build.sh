#!/bin/sh
# Builds the C SHA-256 experiment (issue 3: "C built with Debian's clang and wasm-ld where that
# measures faster") into $1 (default /tmp/provena-c-sha256): loop and rolling-window variants,
# each scalar and -msimd128. Needs Debian's clang and lld (apt-get install -y clang lld).
set -e
out=${1:-/tmp/provena-c-sha256}
dir=$(dirname "$0")
mkdir -p "$out"
for src in loop window; do
  for v in scalar simd; do
    flags=""; [ "$v" = simd ] && flags="-msimd128"
    clang --target=wasm32 -O3 $flags -nostdlib -fno-builtin -Wl,--no-entry \
      -Wl,--export=blocks -Wl,--export=init -Wl,--export=state_ptr -Wl,--export=input_ptr \
      -Wl,--initial-memory=18874368 -o "$out/c-$src-$v.wasm" "$dir/sha256-$src.c"
  done
done
echo "$out"
