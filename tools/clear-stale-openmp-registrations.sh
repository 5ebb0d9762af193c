#!/usr/bin/env bash
# Removes the OpenMP registrations of processes that no longer exist.
#
# LLVM's libomp (linked by the clang builds) registers each process as
# /dev/shm/__KMP_REGISTERED_LIB_<pid>_<uid> and removes the file only when the process ends
# normally; forked children that _exit, killed fuzzers and aborted death tests leave theirs.
# A later process given the same pid aborts at its first parallel region when that file cannot
# be opened or holds no registration, so a machine that keeps /dev/shm from run to run fails at
# random. CI calls this before its test stages. Files of live processes are left alone.
set -euo pipefail
shopt -s nullglob
stale=()
for file in /dev/shm/__KMP_REGISTERED_LIB_*; do
  name="${file##*/__KMP_REGISTERED_LIB_}"
  pid="${name%%_*}"
  [[ "$pid" =~ ^[0-9]+$ ]] || continue
  if [[ ! -e "/proc/$pid" ]]; then
    stale+=("$file")
  fi
done
# One rm for them all (xargs splits the list): a run can leave tens of thousands.
if ((${#stale[@]} > 0)); then
  printf '%s\0' "${stale[@]}" | xargs -0 rm -f --
fi
echo "stale OpenMP registrations removed from /dev/shm: ${#stale[@]}"
