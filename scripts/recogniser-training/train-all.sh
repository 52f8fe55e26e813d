#!/bin/bash
# The three trainings of one setting at once on one GPU: each half of the receipts held out, and every line.
#   scripts/recogniser-training/train-all.sh <data> <out dir> [learning rate] [epochs]
# <data> holds export-lines.ts's output plus base.onnx (the package's recogniser) and dict.txt (ppocr_keys_v1.txt).
# The shipped recipe (stop 36): 4 passes over the lines at 1e-4, three batches in four padded only to 64 px.
# Writes <out>/rec-hold-0.onnx, rec-hold-1.onnx (for the held-out benchmark, `--only` the held-out half) and
# rec-all.onnx (the one to ship), with one log each, and <out>/rec-<name>.npz, each model's change from base.onnx
# (model-delta.py: under a device machine's 16 MiB a file).
set -euo pipefail
data=$1 out=$2 lr=${3:-1e-4} epochs=${4:-4}
here=$(dirname "$0")
mkdir -p "$out"
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=2 PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True
for hold in 0 1 none; do
  name=$([ "$hold" = none ] && echo all || echo "hold-$hold")
  python3 "$here/train.py" --data "$data" --base "$data/base.onnx" --dict "$data/dict.txt" --no-eval --seed 1 \
    --epochs "$epochs" --narrow 64 --lr "$lr" --hold-out "$hold" --out "$out/rec-$name.onnx" > "$out/$name.log" 2>&1 &
done
wait
tail -n 3 "$out"/*.log
for name in hold-0 hold-1 all; do
  python3 "$here/model-delta.py" pack "$data/base.onnx" "$out/rec-$name.npz" "$name=$out/rec-$name.onnx"
done
