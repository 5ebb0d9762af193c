#!/bin/sh
# build.sh <libdir> [output]: builds main.rs with plain rustc against the libkernforge.so in
# <libdir> (the kernforge-dev package's link name), with an RPATH to <libdir>.
#   sh examples/rust/build.sh /usr/lib/x86_64-linux-gnu && ./example_rust
#   sh examples/rust/build.sh /opt/kernforge/lib /tmp/example_rust && /tmp/example_rust opencl
set -eu
libdir=${1:?usage: build.sh <folder of libkernforge.so> [output, default ./example_rust]}
output=${2:-example_rust}
exec rustc -O --edition 2021 -L "$libdir" -l dylib=kernforge -C "link-arg=-Wl,-rpath,$libdir" \
  "$(dirname "$0")/main.rs" -o "$output"
