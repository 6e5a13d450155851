#!/usr/bin/env bash
# Regenerates assets/base_bounds.csv: Men et al. 2024's smallest base per context length for every
# even rotated dims from 2 to 1024, as `rope-explorer compute base-bounds` computes it (the exact,
# certified search of core/src/bounds.cpp). The app reads this table so that the base sweep panel's
# bound curve appears at once while the dim slider moves; other dims are computed in the
# background. tests/core checks rows of it against the search. ~10 minutes on 2 cores.
#   bash assets/make_base_bounds.sh [path/to/rope-explorer]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${1:-$here/../build/rope-explorer}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
seq 1024 -2 2 | xargs -P "$(nproc)" -I{} sh -c \
  '"$0" compute base-bounds --set dim={} --set max_position=1048576 | tail -n +2 > "$1/{}.csv"' "$bin" "$work"
{
  echo "rotated_dims,context,base"
  for d in $(seq 2 2 1024); do cat "$work/$d.csv"; done
} > "$work/all.csv"
mv "$work/all.csv" "$here/base_bounds.csv"
