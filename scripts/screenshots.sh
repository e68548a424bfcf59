#!/usr/bin/env bash
# Builds the GUI and saves the screenshots in docs/:
#   screenshot-main-window.png     the bundled default model (Llama-3-8B shape), folded view
#   screenshot-folded-llama3.png   Llama-3-8B folded: the 32 decoder layers as one "×32" box
#   screenshot-coarse-llama3.png   Llama-3-8B coarse: every layer-like node
#   screenshot-scope-llama3.png    Llama-3-8B original graph grouped by module scope
#   screenshot-folded-resnet50.png ResNet-50 (TorchScript export) folded
#   screenshot-folded-gpt3.png     GPT-3 175B (synthesized, shapes only) folded: "×96"
#   screenshot-search-llama3.png   a plan search of Llama-3-8B on dgx-h100x2, mesh 2x8, batch 16,
#                                  sequence 2048: the candidates and the expert plans as a list
#                                  and as step time against peak memory per device
#   screenshot-inspector-llama3.png the best plan of that search: the decoder layer coloured by
#                                  strategy with its collectives, the per-node cost table and the
#                                  time and memory breakdown charts
#   screenshot-edit-llama3.png     that plan in the plan editor with the MLP's down projection set
#                                  to another strategy: every legal strategy with the step time
#                                  and memory it would give, undo and redo, pin and complete
#   screenshot-compare-llama3.png  the edited plan compared with the searched one: both folded
#                                  graphs with the differing block highlighted, the nodes that
#                                  differ and the totals' delta
#   screenshot-timeline-gpt3.png   the plan searched for GPT-3 175B on dgx-h100x16, mesh
#                                  pp=8,dp=2,tp=8, batch 1536 x 2048: its pipeline schedule per
#                                  stage (the schedule the search chose), the steady state cut out
#   screenshot-timeline-megatron-gpt3.png  the Megatron-LM style plan of the same run (megatron-sp,
#                                  interleaved with 4 chunks, micro-batch 1, selective
#                                  recomputation, ZeRO 1) priced by tapestry-cli evaluate and
#                                  opened as a plan file
#   screenshot-timeline-megatron-gpt3-start.png  its first 480 ms zoomed in: Megatron-LM's
#                                  interleaved warm-up (stage s: 2 (p - s - 1) + (v - 1) p forwards,
#                                  then one forward, one backward in turn), micro-batch numbers
#   screenshot-context-parallel-llama3.png  the plan searched for Llama-3-8B at 131,072 tokens on 8
#                                  DGX-H100 (mesh 8x8, batch 64, micro-batch 1), the README's run:
#                                  attention's core coloured as context parallel, and the
#                                  inspector's ring attention and all-to-all traffic per layer
#   screenshot-expert-parallel-mixtral.png  the plan searched for the synthesized Mixtral 8x7B on
#                                  4 DGX-H100 (mesh 4x8, 4096 tokens, batch 64, micro-batch 1): the
#                                  experts' block selected, its expert and ring traffic per layer
#   screenshot-iopddl-example.png  the IOPDDL example problem solved (cost 445 = nodes 275 +
#                                  edges 170) with its memory profile at the limit, 50
#   screenshot-laptop-{search,inspector,export}-{en,de}.png  the same Llama-3-8B search on
#                                  a 1366x768 screen, in English and in German: the results,
#                                  the inspector and the export dialog of the best plan
#   screenshot-laptop-{edit,compare}-{en,de,zh_CN}.png  on that screen in English, German and
#                                  Chinese: the best plan edited in the editor (its strategy
#                                  table beside the folded graph and the inspector), and the
#                                  edit compared with the searched plan
#   screenshot-fullhd-{search,inspector,edit,compare,export}.png  the same on a 1920x1080 screen
#   screenshot-iopddl-g.png        IOPDDL problem G (Transformer inference, 816 nodes) after a
#                                  10 s solve: 680 time points against the usage limit
#                                  (skipped when ../shared/iopddl is not there)
#
# The searched pictures search every per-node strategy (--target any, the search the
# pictures showed before the Target choice existed; the GUI's default is Megatron-LM).
#
# The pictures come from the app itself: `tapestry --screenshot FILE [--view V] MODEL`
# renders the window with QWidget::grab once the model has loaded and the chosen graph
# view is drawn (with --search: once the search has finished; for a sharding problem, its
# window once read and, with --solve-seconds, solved), then exits (non-zero if the model or the image failed), so no window
# manager or screen-capture tool is involved. It runs under xvfb-run, in English, with a
# scratch settings directory so that a saved window size or language of your own does
# not leak into the images.
#
# BUILD_DIR=build/gui scripts/screenshots.sh uses an already configured build directory
# instead of setting up and building the release preset.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${BUILD_DIR:-}" ]; then
  cmake --build "$BUILD_DIR" --target tapestry tapestry-cli
else
  BUILD_DIR=build/release
  bash scripts/build.sh --target tapestry tapestry-cli
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$BUILD_DIR/app/tapestry-cli" synth --preset gpt3-175b -o "$scratch/gpt3-175b.onnx" >/dev/null
mkdir -p docs

# shot_on SCREEN LANGUAGE OUTPUT VIEW MODEL [OPTION...]: on a screen of that size (the
# window as large as it), in that language (en, de, zh_CN).
shot_on() {
  local settings
  settings=$(mktemp -d -p "$scratch")
  mkdir -p "$settings/Tapestry"
  printf '[General]\nlanguage=%s\n' "$2" >"$settings/Tapestry/Tapestry.conf"
  XDG_CONFIG_HOME="$settings" TAPESTRY_HISTORY="$settings/history.sqlite" LANG=en_US.UTF-8 LC_ALL= LANGUAGE= \
    xvfb-run -a -s "-screen 0 $1x24" \
    "$BUILD_DIR/app/gui/tapestry" --screenshot "docs/$3" --view "$4" --window-size "$1" "${@:6}" "$5"
  echo "wrote docs/$3"
}

# shot OUTPUT VIEW MODEL [OPTION...]
shot() {
  local settings
  settings=$(mktemp -d -p "$scratch")
  XDG_CONFIG_HOME="$settings" TAPESTRY_HISTORY="$settings/history.sqlite" LANG=en_US.UTF-8 LC_ALL= LANGUAGE= \
    xvfb-run -a -s "-screen 0 1600x1000x24" \
    "$BUILD_DIR/app/gui/tapestry" --screenshot "docs/$1" --view "$2" "${@:4}" "$3"
  echo "wrote docs/$1"
}

shot screenshot-main-window.png folded resources/models/default.onnx
shot screenshot-folded-llama3.png folded tests/data/llama3_8b_shape.dynamo.stripped.onnx
shot screenshot-coarse-llama3.png coarse tests/data/llama3_8b_shape.dynamo.stripped.onnx
shot screenshot-scope-llama3.png scope tests/data/llama3_8b_shape.dynamo.stripped.onnx
shot screenshot-folded-resnet50.png folded tests/data/resnet50.ts.stripped.onnx
shot screenshot-folded-gpt3.png folded "$scratch/gpt3-175b.onnx"
search=(--window-size 1600x1000 --search --target any --cluster dgx-h100x2 --mesh 2x8 --batch 16 --seq 2048)
shot screenshot-search-llama3.png folded tests/data/llama3_8b_shape.dynamo.stripped.onnx \
  "${search[@]}" --show results --expand-block
shot screenshot-inspector-llama3.png folded tests/data/llama3_8b_shape.dynamo.stripped.onnx \
  "${search[@]}" --show inspector --expand-block --select q_proj
shot screenshot-edit-llama3.png folded tests/data/llama3_8b_shape.dynamo.stripped.onnx \
  "${search[@]}" --show inspector --edit mlp/down_proj
shot screenshot-compare-llama3.png folded tests/data/llama3_8b_shape.dynamo.stripped.onnx \
  "${search[@]}" --show compare --edit mlp/down_proj
gpt3=(--window-size 1600x1000 --cluster dgx-h100x16 --show timeline)
shot screenshot-timeline-gpt3.png folded "$scratch/gpt3-175b.onnx" "${gpt3[@]}" \
  --search --target any --mesh pp=8,dp=2,tp=8 --batch 1536 --seq 2048
"$BUILD_DIR/app/tapestry-cli" evaluate "$scratch/gpt3-175b.onnx" --cluster dgx-h100x16 --mesh pp=8,dp=2,tp=8 \
  --batch 1536 --seq 2048 --plan megatron-sp --micro-batch 1 --recompute selective --zero 1 \
  --schedule interleaved --virtual-stages 4 --no-history -o "$scratch/megatron-gpt3.json" >/dev/null
shot screenshot-timeline-megatron-gpt3.png folded "$scratch/gpt3-175b.onnx" "${gpt3[@]}" \
  --open-plan "$scratch/megatron-gpt3.json"
shot screenshot-timeline-megatron-gpt3-start.png folded "$scratch/gpt3-175b.onnx" "${gpt3[@]}" \
  --open-plan "$scratch/megatron-gpt3.json" --zoom 5
llama=tests/data/llama3_8b_shape.dynamo.stripped.onnx
laptop=(--search --target any --cluster dgx-h100x2 --mesh 2x8 --batch 16 --seq 2048)
for language in en de; do
  shot_on 1366x768 "$language" "screenshot-laptop-search-$language.png" folded "$llama" "${laptop[@]}" --show results
  shot_on 1366x768 "$language" "screenshot-laptop-inspector-$language.png" folded "$llama" "${laptop[@]}" \
    --show inspector --expand-block --select q_proj
  shot_on 1366x768 "$language" "screenshot-laptop-export-$language.png" folded "$llama" "${laptop[@]}" --show export
done
for language in en de zh_CN; do
  shot_on 1366x768 "$language" "screenshot-laptop-edit-$language.png" folded "$llama" "${laptop[@]}" \
    --show inspector --edit mlp/down_proj
  shot_on 1366x768 "$language" "screenshot-laptop-compare-$language.png" folded "$llama" "${laptop[@]}" \
    --show compare --edit mlp/down_proj
done
shot_on 1920x1080 en screenshot-fullhd-search.png folded "$llama" "${laptop[@]}" --show results
shot_on 1920x1080 en screenshot-fullhd-inspector.png folded "$llama" "${laptop[@]}" --show inspector \
  --expand-block --select q_proj
shot_on 1920x1080 en screenshot-fullhd-edit.png folded "$llama" "${laptop[@]}" --show inspector --edit mlp/down_proj
shot_on 1920x1080 en screenshot-fullhd-compare.png folded "$llama" "${laptop[@]}" --show compare --edit mlp/down_proj
shot_on 1920x1080 en screenshot-fullhd-export.png folded "$llama" "${laptop[@]}" --show export
# Context and expert parallelism: the README's two runs, searched in the GUI.
long=(--window-size 1600x1000 --search --target any --cluster dgx-h100x1 --nodes 8 --mesh 8x8 --batch 64 --seq 131072 --micro-batch 1)
shot screenshot-context-parallel-llama3.png folded "$llama" "${long[@]}" --show traffic --expand-block \
  --select self_attn/MatMul
"$BUILD_DIR/app/tapestry-cli" synth --preset mixtral-8x7b -o "$scratch/mixtral-8x7b.onnx" >/dev/null
moe=(--window-size 1600x1000 --search --target any --cluster dgx-h100x4 --mesh 4x8 --batch 64 --seq 4096 --micro-batch 1)
shot screenshot-expert-parallel-mixtral.png folded "$scratch/mixtral-8x7b.onnx" "${moe[@]}" --show traffic \
  --expand-block --select experts
problem=(--window-size 1280x800)
shot screenshot-iopddl-example.png folded tests/data/iopddl/example.json "${problem[@]}" --solve-seconds 5
if [ -f ../shared/iopddl/asplos-2025-iopddl-G.json.gz ]; then
  shot screenshot-iopddl-g.png folded ../shared/iopddl/asplos-2025-iopddl-G.json.gz "${problem[@]}" --solve-seconds 10
fi
