#!/usr/bin/env bash
# Makes every picture README.md and docs/ show, from the app's own screenshots and exports, into
# docs/images/. Each picture's state is the command line below (and the caption that shows it names it).
#
#   bash docs/make-pictures.sh                      # the build in ./build
#   ROPE_EXPLORER=path/to/rope-explorer bash docs/make-pictures.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${ROPE_EXPLORER:-$here/../build/rope-explorer}"
out="$here/images"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export XDG_STATE_HOME="$work/state"

window() {  # NAME SIZE ARGS...: a screenshot of the window
  local name="$1" size="$2"; shift 2
  xvfb-run -a -s "-screen 0 1920x1080x24" "$bin" --fresh --size "$size" "$@" --screenshot "$out/$name.png" --quit
}

# README: the Basics page
window app 1280x720 --set preset=llama-3.1-8b --set position=1000
# README's tour: presenting lesson step 5 (for a teacher), two models side by side (for an explorer)
printf '{"parameters": {}, "view": {"presentation": true}}\n' > "$work/presenting.json"
window teacher 1280x720 --session "$work/presenting.json" --lesson 5
window explorer 1280x720 --set preset=llama-2-7b --set compare_to=llama-3.1-8b
# ... and an export as a blog post would use it (for a blogger)
"$bin" export heatmap --out "$out/blogger.png" --width 800 --set preset=llama-3.1-8b --set position=1000
echo "docs/images: app.png teacher.png explorer.png blogger.png"
