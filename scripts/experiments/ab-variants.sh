#!/usr/bin/env bash
# Builds variants of one source file beside the current build on the device,
# for scripts/experiments/spmv-ab.sh's AB_BINARIES, cheaper than scripts/experiments/ab-base.sh when
# a change touches one file: each variant replaces the file, the CLI is
# rebuilt incrementally (that file and the link), its binary is copied to
# $VARIANT_DIR/hsparse-NAME, and the file is restored at the end and the CLI
# rebuilt from it (the tree's own binary is also $VARIANT_DIR/hsparse-this).
# Calls run one after another, one file each, each followed by its spmv-ab.sh.
# Usage on the device, after gpu-check.sh built build-gpu:
#   AB_FILE=src/backends/cuda/bcsr_spmv.cu AB_VARIANTS="base=ab-variants/base.cu u8=ab-variants/u8.cu" scripts/experiments/ab-variants.sh
# prints the AB_BINARIES string for spmv-ab.sh on its last line ("this" is the tree's own file).
# The variant files are left untracked here so the device call carries them.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD_DIR:-build-gpu}
dir=${VARIANT_DIR:-/tmp/ab-variants}
file=${AB_FILE:?AB_FILE: the source file the variants replace}
mkdir -p "$dir"
# The tree's own binary first: a no-op after gpu-check.sh, and after an
# earlier call of this script it rebuilds the file that call restored.
cmake --build "$build" --target hsparse_cli > "$dir/this-build.log" 2>&1 || { tail -20 "$dir/this-build.log" >&2; exit 1; }
cp "$build/bin/hsparse" "$dir/hsparse-this"
cp "$file" "$dir/original"
# On exit, the tree's file back and the build rebuilt from it (below).
restore() {
  cp "$dir/original" "$file"
  find "$build" -name "$(basename "$file").o" -delete
  cmake --build "$build" --target hsparse_cli > "$dir/restore-build.log" 2>&1 || echo "ab-variants.sh: rebuilding the tree's own $file failed ($dir/restore-build.log)" >&2
}
trap restore EXIT
binaries="this=$dir/hsparse-this"
for v in ${AB_VARIANTS:?AB_VARIANTS: name=file ...}; do
  name=${v%%=*}
  cp "${v#*=}" "$file"
  if cmake --build "$build" --target hsparse_cli > "$dir/$name-build.log" 2>&1; then
    cp "$build/bin/hsparse" "$dir/hsparse-$name"
    binaries+=" $name=$dir/hsparse-$name"
  else
    echo "variant $name: the build failed" >&2
    tail -20 "$dir/$name-build.log" >&2
  fi
done
# restore() rebuilds the tree's own file at exit: its new time stamp does not
# survive the next device call, which copies the tree again with the old one,
# so ninja would keep the last variant's objects (session 26's first suite ran
# main's kernels this way). The rebuild also covers a header as AB_FILE, whose
# dependents' objects a deleted .o would not.
echo "$binaries"
