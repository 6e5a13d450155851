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

# The user guide: each panel as a blog export (800 wide, the figure's own aspect), in the state its
# caption names. The Trained model panel reads the weights of a small Llama-shaped folder written by
# the tests' generator (a head planted on one pair), since no real model ships with the app.
panel() {  # FIGURE ARGS...
  local figure="$1"; shift
  "$bin" export "$figure" --out "$out/panel-$figure.png" --width 800 "$@"
}
for figure in vectors heatmap sweep decay context scores pairing precision sinusoidal model_card; do
  panel "$figure" --set preset=llama-3.1-8b --set position=1000
done
panel partial_vs_proportional --set preset=gemma-4-31b
panel model_anatomy --set preset=llama-4-scout
panel relatives --set preset=bloom-176b
panel mla --set preset=deepseek-v3
for figure in patch_grid position_ids; do panel "$figure" --set preset=qwen2.5-vl-7b; done
for figure in video video_frames video_ids; do panel "$figure" --set preset=qwen3-vl-8b; done
/usr/bin/python3 "$here/../tests/weights/synthetic_model.py" --layout llama_gqa --out "$work/llama-gqa"
panel trained --set model="$work/llama-gqa"

# The browser guide: the web build's page (chromium, headless), if the web build is there
page="${ROPE_WEB_PAGE:-$here/../build-web/rope-explorer.html}"
if [ -f "$page" ]; then
  chromium --headless=new --no-sandbox --force-device-scale-factor=1 --window-size=1280,720 --virtual-time-budget=8000 \
    --screenshot="$out/web-page.png" "file://$(realpath "$page")#preset=llama-3-8b&position=1000" 2>/dev/null
else
  echo "no web build at $page (ROPE_WEB_PAGE=...): docs/images/web-page.png left as it is" >&2
fi
echo "docs/images: app.png teacher.png explorer.png blogger.png panel-*.png web-page.png"
