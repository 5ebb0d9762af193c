#!/usr/bin/env bash
# The libFuzzer targets, derived from the tree: every folder of tests/fuzz/corpus/ is one, and
# prints its name, one a line (.ci/run fuzzes each for a fixed time).
#   bash tools/checks/fuzz_targets.sh              the names; checks the tree
#   bash tools/checks/fuzz_targets.sh build/asan   the same, and checks that configured build
#
# Fails, saying what is missing and printing no name, unless every corpus
# tests/fuzz/corpus/<name>/ has its source tests/fuzz/fuzz_<name>.cpp and every such source has
# a corpus. With a build
# folder (configured with Ninja; KF_FUZZ=ON is read from its CMakeCache.txt): unless the build
# defines the replay executable kernforge_fuzz_<name>_replay of every name and no other, and,
# with KF_FUZZ=ON, the libFuzzer executable kernforge_fuzz_<name> of every name and no other.
# tests/fuzz/CMakeLists.txt defines the targets; nothing else lists them. Ninja: $NINJA or the
# ninja on PATH. CTest runs it on the default build as structure.fuzz_targets.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
fuzz="$root/tests/fuzz"
errors=()

names_of() {  # the sorted, unique words on stdin
  sort -u | sed '/^$/d'
}

corpora="$(find "$fuzz/corpus" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | names_of)"
sources="$(find "$fuzz" -maxdepth 1 -type f -name 'fuzz_*.cpp' -printf '%f\n' |
           sed 's/^fuzz_//; s/\.cpp$//' | names_of)"

# Prints "<what>: <names in $1 but not $2>" into errors when there are any.
missing() {
  local have="$1" want="$2" what="$3" extra
  extra="$(comm -23 <(printf '%s\n' "$have") <(printf '%s\n' "$want") | sed '/^$/d' | paste -sd' ')"
  [[ -z "$extra" ]] || errors+=("$what: $extra")
}

[[ -n "$corpora" ]] || errors+=("no corpus folder in tests/fuzz/corpus/")
missing "$corpora" "$sources" "corpus without its source tests/fuzz/fuzz_<name>.cpp"
missing "$sources" "$corpora" \
  "source tests/fuzz/fuzz_<name>.cpp without its corpus tests/fuzz/corpus/<name>/"

if (($# > 0)); then
  build="$1"
  if [[ ! -f "$build/build.ninja" ]]; then
    errors+=("$build: no build.ninja (configure it first, with a Ninja preset)")
  else
    # The executables the build links: Ninja names each link rule after its target.
    link_rule='^\(.*/\)\{0,1\}kernforge_fuzz_\([A-Za-z0-9_]*\): [A-Z_]*EXECUTABLE_LINKER_.*'
    linked="$("${NINJA:-ninja}" -C "$build" -t targets all | sed -n "s|$link_rule|\2|p" | names_of)"
    replays="$(grep '_replay$' <<<"$linked" | sed 's/_replay$//' | names_of || true)"
    fuzzers="$(grep -v '_replay$' <<<"$linked" | names_of || true)"
    missing "$corpora" "$replays" "$build defines no replay kernforge_fuzz_<name>_replay for"
    missing "$replays" "$corpora" "$build has replays without a corpus"
    if grep -q '^KF_FUZZ:BOOL=ON$' "$build/CMakeCache.txt" 2>/dev/null; then
      missing "$corpora" "$fuzzers" \
        "$build (KF_FUZZ=ON) defines no libFuzzer kernforge_fuzz_<name> for"
      missing "$fuzzers" "$corpora" "$build defines libFuzzer targets without a corpus"
    elif [[ -n "$fuzzers" ]]; then
      errors+=("$build: KF_FUZZ is not ON, yet it links kernforge_fuzz_<name> for:" \
               "$(paste -sd' ' <<<"$fuzzers")")
    fi
  fi
fi

if ((${#errors[@]})); then
  for e in "${errors[@]}"; do
    echo "fuzz_targets: $e" >&2
  done
  echo "fuzz_targets: each fuzz target <name> needs tests/fuzz/fuzz_<name>.cpp, a seed corpus" \
       "tests/fuzz/corpus/<name>/ and its targets in tests/fuzz/CMakeLists.txt" >&2
  exit 1
fi
printf '%s\n' "$corpora"
