#!/bin/bash
# Rendered lines measured on one GPU: five trainings at once with the shipped recipe (train-all.sh), each half of
# the development folder held out with the real lines alone and with as many rendered lines again a pass, and
# every real line with rendered ones (the model to ship if the held-out measure confirms it).
#   scripts/recogniser-training/train-rendered.sh <data> <fonts dir> <out dir> [seconds] [seed]
# <data> as train-all.sh's. The rendered lines are the shipped language-model text less the development folder's
# own lines (render-lines.py --skip), so no held-out receipt's text is rendered. [seconds] ends each training's
# schedule at that time if its steps have not ended it (default 330); [seed] is every training's (default 1).
# Writes <out>/rec-<name>.npz (model-delta.py) and <out>/logs.txt, the trainings' logs (the models and logs
# themselves stay in a temporary folder: a device machine returns at most 8 files).
set -euo pipefail
data=$1 fonts=$2 out=$3 seconds=${4:-330} seed=${5:-1}
here=$(dirname "$0")
text=lambdas/adapters/local-recogniser/models/receipt-lines.txt
# The development folder's lines at the head of $text: `wc -l` of held-out.sh's lm-folder.txt, which held-out.sh
# checks against the head of $text. Set FOLDER_LINES to that count whenever receipt-lines.txt is made again, or
# the rendered lines take in held-out receipts' text.
folder_lines=${FOLDER_LINES:-6643}
work=$(mktemp -d)
mkdir -p "$out"
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=2 PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True
python3 "$here/render-lines.py" "$text" "$fonts" "$data/rendered" --skip "$folder_lines" --workers "$(nproc)"
train() {
  python3 "$here/train.py" --data "$data" --base "$data/base.onnx" --dict "$data/dict.txt" --no-eval --seed "$seed" \
    --epochs 4 --narrow 64 --lr 1e-4 --time-limit "$seconds" "$@"
}
train --hold-out 0 --out "$work/rec-real-0.onnx" > "$work/real-0.log" 2>&1 &
train --hold-out 1 --out "$work/rec-real-1.onnx" > "$work/real-1.log" 2>&1 &
for hold in 0 1 none; do
  name=$([ "$hold" = none ] && echo all || echo "$hold")
  train --hold-out "$hold" --extra "$data/rendered" --out "$work/rec-rendered-$name.onnx" > "$work/rendered-$name.log" 2>&1 &
done
wait
tail -n 4 "$work"/*.log
for f in "$work"/*.log; do echo "== $f"; cat "$f"; done > "$out/logs.txt"
for name in real-0 real-1 rendered-0 rendered-1 rendered-all; do
  python3 "$here/model-delta.py" pack "$data/base.onnx" "$out/rec-$name.npz" "$name=$work/rec-$name.onnx" &
done
wait
