#!/usr/bin/env bash
# The frame-time scenarios: the app at 1920x1080 under Xvfb (llvmpipe), each scenario sweeping base,
# position and dim in turn (FRAMES frames each, one slider step a frame), RUNS runs each. Prints one
# table: frame time and the latency from a change to its final picture (p50 and p99, each run's
# value), then each figure's build and draw times (p50 / p99 over the runs' frames, first run).
#
#   bash bench/frames.sh                  # the build in ./build
#   ROPE_EXPLORER=path FRAMES=200 RUNS=3 SCENARIOS="defaults 131072/256" bash bench/frames.sh
#   SCENARIOS="page4-gemma-4-31b page4-llama-4-scout" bash bench/frames.sh   # the Today's models page
#   SCENARIOS="page5-12x16 page5-128x128" bash bench/frames.sh   # Images, M-RoPE, two grid sizes
#   SCENARIOS="page6-video" bash bench/frames.sh   # Video: Qwen2.5-VL, 32 frames
#   SCENARIOS="a-llama ab-llama" bash bench/frames.sh   # Basics: Llama 2 alone, then with Llama 3 as model B
#   SCENARIOS="a-why ab-why a-models ab-models a-images ab-images a-video ab-video" bash bench/frames.sh
#     # the other pages alone and with model B: Why it works (Llama 2 / 3), Today's models (Gemma 3 / 4),
#     # Images and Video (Qwen2.5-VL / Qwen3-VL, a 32-frame video)
# It is a benchmark, not a test: this 2-core machine is noisy, so read the spread.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${ROPE_EXPLORER:-$here/../build/rope-explorer}"
frames="${FRAMES:-200}"
runs="${RUNS:-3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

scenario_args() {  # name -> the app's arguments
  case "$1" in
    defaults) echo "--fresh" ;;
    a-llama) echo "--fresh --set preset=llama-2-7b" ;;
    ab-llama) echo "--fresh --set preset=llama-2-7b --set compare_to=llama-3-8b" ;;
    131072/256) echo "--fresh --set max_position=131072 --set dim=256" ;;
    1048576/1024) echo "--fresh --set max_position=1048576 --set dim=1024" ;;
    page2-131072/256|page3-131072/256)
      local page=1; [[ "$1" == page3* ]] && page=2
      printf '{"parameters": {"max_position": 131072, "dim": 256}, "view": {"page": %d}}\n' "$page" > "$work/page$page.json"
      echo "--session $work/page$page.json" ;;
    page4-gemma-4-31b|page4-llama-4-scout)  # Today's models with a model of many layers loaded
      printf '{"parameters": {"preset": "%s"}, "view": {"page": 3}}\n' "${1#page4-}" > "$work/page4.json"
      echo "--session $work/page4.json" ;;
    page6-video)  # Video: Qwen2.5-VL's seconds on a 32-frame video
      printf '{"parameters": {"preset": "qwen2.5-vl-7b", "media": "video", "video_frames": 32}, "view": {"page": 5}}\n' > "$work/page6.json"
      echo "--session $work/page6.json" ;;
    a-why|ab-why|a-models|ab-models|a-images|ab-images|a-video|ab-video)  # a page, alone or with model B
      local page a b more=""
      case "${1#*-}" in
        why) page=2 a=llama-2-7b b=llama-3-8b ;;
        models) page=3 a=gemma-3-12b b=gemma-4-31b ;;
        images) page=4 a=qwen2.5-vl-7b b=qwen3-vl-8b ;;
        video) page=5 a=qwen2.5-vl-7b b=qwen3-vl-8b more=', "media": "video", "video_frames": 32' ;;
      esac
      [[ "$1" == ab-* ]] && more+=", \"compare_to\": \"$b\""
      printf '{"parameters": {"preset": "%s"%s}, "view": {"page": %d}}\n' "$a" "$more" "$page" > "$work/$1.json"
      echo "--session $work/$1.json" ;;
    page5-12x16|page5-128x128)  # Images: M-RoPE (valid at every dim the sweep reaches) on a grid
      local rows="${1#page5-}"; rows="${rows%x*}"; local cols="${1##*x}"
      printf '{"parameters": {"rope_axes": "mrope", "grid_rows": %d, "grid_cols": %d}, "view": {"page": 4}}\n' "$rows" "$cols" > "$work/page5.json"
      echo "--session $work/page5.json" ;;
  esac
}

value() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

printf '| scenario | frame p50 ms | frame p99 ms | latency p50 ms | latency p99 ms |\n|---|---|---|---|---|\n'
panels=""
for name in ${SCENARIOS:-defaults 131072/256 1048576/1024 page2-131072/256 page3-131072/256}; do
  f50=(); f99=(); l50=(); l99=()
  for ((r = 1; r <= runs; r++)); do
    out="$work/run.txt"
    # shellcheck disable=SC2046
    XDG_STATE_HOME="$work/state" xvfb-run -a -s "-screen 0 1920x1080x24" "$bin" $(scenario_args "$name") --size 1920x1080 \
      --bench-frames "$frames" --sweep base,position,dim > "$out"
    f50+=("$(value p50_ms "$out")"); f99+=("$(value p99_ms "$out")")
    l50+=("$(value latency_p50_ms "$out")"); l99+=("$(value latency_p99_ms "$out")")
    if ((r == 1)); then
      panels+="$(awk -v s="$name" '$1 == "panel" { printf "| %s | %s | %s / %s | %s / %s |\n", s, $2, $6, $8, $12, $14 }' "$out")"$'\n'
    fi
  done
  join() { local out="$1"; shift; for v in "$@"; do out+=", $v"; done; echo "$out"; }
  printf '| %s | %s | %s | %s | %s |\n' "$name" "$(join "${f50[@]}")" "$(join "${f99[@]}")" "$(join "${l50[@]}")" "$(join "${l99[@]}")"
done
printf '\n| scenario | figure | build p50 / p99 ms | draw p50 / p99 ms |\n|---|---|---|---|\n%s' "$panels"
