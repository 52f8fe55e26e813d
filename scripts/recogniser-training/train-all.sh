#!/bin/bash
# The three trainings of one setting at once on one GPU: each half of the receipts held out, and every line.
#   scripts/recogniser-training/train-all.sh <data> <out dir> [learning rate] [seconds]
# <data> holds export-lines.ts's output plus base.onnx (the package's recogniser) and dict.txt (ppocr_keys_v1.txt).
# Writes <out>/rec-hold-0.onnx, rec-hold-1.onnx (for the held-out benchmark, `--only` the held-out half) and
# rec-all.onnx (the one to ship), with one log each.
set -euo pipefail
data=$1 out=$2 lr=${3:-1e-4} seconds=${4:-130}
here=$(dirname "$0")
mkdir -p "$out"
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=2
for hold in 0 1 none; do
  name=$([ "$hold" = none ] && echo all || echo "hold-$hold")
  python3 "$here/train.py" --data "$data" --base "$data/base.onnx" --dict "$data/dict.txt" --no-eval \
    --epochs 40 --time-limit "$seconds" --lr "$lr" --hold-out "$hold" --out "$out/rec-$name.onnx" > "$out/$name.log" 2>&1 &
done
wait
tail -n 3 "$out"/*.log
