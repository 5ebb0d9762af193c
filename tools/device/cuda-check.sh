#!/usr/bin/env bash
# tools/device/cuda-check.sh [BUILD_DIR] — builds the GPU check of the cuda backend into a
# self-contained bundle and checks it here (README.md beside this script).
#
#   1. builds, in BUILD_DIR (default build/release, the release preset), the core, the CLI,
#      the conformance suite, the cpu and cuda plugins, kernforge_cuda_gpu_tests and
#      kernforge_bench_cuda, and the nccl plugin with kernforge_nccl_worker where it is built;
#   2. lays them out in build/cuda-bundle/kernforge-cuda-check/ (bin/, lib/, lib/kernforge/
#      plugins/, run.sh) with every shared library they need that is neither the C runtime
#      (glibc, libstdc++, libgcc_s) nor CUDA's (the driver, cudart, cuBLAS, cuFFT, nvJitLink,
#      cuSPARSE, cuSOLVER, NVRTC, NCCL come from the GPU machine), RUNPATH set to $ORIGIN-relative folders, and packs it as
#      build/cuda-bundle/kernforge-cuda-check.tar.xz (what travels to the GPU machine);
#   3. unpacks that archive into a fresh folder and runs its run.sh here with an empty
#      environment: every library must resolve inside the bundle, and on this machine (no GPU)
#      it must start, find no GPU and say so.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
build="${1:-build/release}"
dest=build/cuda-bundle
name=kernforge-cuda-check
root="$dest/$name"

command -v patchelf >/dev/null || { echo "cuda-check.sh: patchelf is needed (Debian: patchelf; tools/install-deps.sh installs it)" >&2; exit 1; }
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake --preset release
fi
cmake --build "$build" --target kernforge_cli kernforge_cts kernforge_cpu kernforge_cuda \
  kernforge_cuda_gpu_tests kernforge_bench_cuda
# The nccl plugin and its worker, where NCCL was found (backend nccl: built).
if grep -q '^KF_NCCL_LIBRARY:FILEPATH=/' "$build/CMakeCache.txt"; then
  cmake --build "$build" --target kernforge_nccl kernforge_nccl_worker
fi
[[ -f "$build/lib/kernforge/plugins/libkernforge_cuda.so" ]] || {
  echo "cuda-check.sh: $build has no cuda plugin (backend cuda: skipped? see its configure log)" >&2
  exit 1
}

echo "== laying out $root"
rm -rf "$root" "$dest/$name.tar.xz"
mkdir -p "$root/bin" "$root/lib/kernforge/plugins"
cp -a "$build"/bin/{kernforge,kernforge-cts,kernforge_cuda_gpu_tests,kernforge_bench_cuda} "$root/bin/"
cp -a "$build"/lib/libkernforge.so* "$build"/lib/libkernforge_global_deps.so "$root/lib/"
plugins=(cpu cuda)
if [[ -f "$build/lib/kernforge/plugins/libkernforge_nccl.so" && -x "$build/bin/kernforge_nccl_worker" ]]; then
  plugins+=(nccl)
  cp -a "$build/bin/kernforge_nccl_worker" "$root/bin/"
fi
for p in "${plugins[@]}"; do
  cp -a "$build/lib/kernforge/plugins/libkernforge_$p.so" "$build/lib/kernforge/plugins/$p.json" \
    "$root/lib/kernforge/plugins/"
done
cp tools/device/cuda-bundle-run.sh "$root/run.sh"
cp tools/device/torch_tiny_add.py "$root/"
chmod +x "$root/run.sh"

# The shared libraries the bundle's files need, less the C runtime's and CUDA's.
cuda_libs='libcuda|libcudart|libcublas|libcublasLt|libcufft|libnvJitLink|libcusparse'
cuda_libs+='|libcusolver|libnvrtc|libnccl'
c_runtime='linux-vdso|ld-linux|libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s'
system_or_cuda="^($c_runtime|$cuda_libs)\\."
mapfile -t files < <(find "$root/bin" "$root/lib" -type f \( -perm -u+x -o -name '*.so*' \))
for f in "${files[@]}"; do
  ldd "$f" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r soname path; do
  [[ "$soname" =~ $system_or_cuda ]] && continue
  [[ -e "$root/lib/$soname" || "$soname" == libkernforge* ]] && continue
  cp -L "$path" "$root/lib/$soname"
done
for f in "$root"/bin/*; do patchelf --set-rpath '$ORIGIN/../lib' "$f"; done
for f in "$root"/lib/*.so*; do [[ -L "$f" ]] || patchelf --set-rpath '$ORIGIN' "$f"; done
patchelf --set-rpath '$ORIGIN/../..' "$root/lib/kernforge/plugins/libkernforge_cpu.so"
echo "bundle: $(du -sh "$root" | cut -f1): $(ls "$root/lib" | tr '\n' ' ')"
tar -C "$dest" -cJf "$dest/$name.tar.xz" "$name"
echo "archive: $dest/$name.tar.xz ($(du -h "$dest/$name.tar.xz" | cut -f1))"

echo "== checking the archive here"
check="$(mktemp -d)"
trap 'rm -rf "$check"' EXIT
tar -C "$check" -xJf "$dest/$name.tar.xz"
missing="$(for f in $(find "$check/$name" -type f \( -perm -u+x -o -name '*.so*' \) ! -name '*.sh' ! -name '*.py'); do
  env -i ldd "$f" 2>/dev/null | awk -v f="$f" '/not found/ {print f ": " $1}'
done | grep -vE ": ($cuda_libs)\\." || true)"
if [[ -n "$missing" ]]; then
  echo "cuda-check.sh: the bundle's files need libraries it does not hold:" >&2
  echo "$missing" >&2
  exit 1
fi
env -i PATH=/usr/bin:/bin HOME="$check" bash "$check/$name/run.sh" "$check/out"
grep -q '^no NVIDIA GPU: \|^done: every step passed' "$check/out/summary.txt" || {
  echo "cuda-check.sh: run.sh did not say whether it found a GPU" >&2
  exit 1
}
echo "cuda-check.sh: the bundle is ready: $dest/$name.tar.xz (README.md beside this script says how to run it on a GPU machine)"
