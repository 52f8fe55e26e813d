"""Fine-tunes the text-line recogniser on exported training lines (export-lines.ts) and writes a new ONNX file.

    python3 scripts/recogniser-training/train.py --data .train --base <rec.onnx> --dict <ppocr_keys_v1.txt> \
        --hold-out 0|1|none --out <new.onnx> [--epochs 16] [--lr 1e-4] [--batch 32] [--time-limit S] [--no-eval] \
        [--narrow 64 [--narrow-share 0.75]] [--seed 1] [--extra <rendered lines> [--extra-share 1.0]]

--hold-out k keeps the receipts at even (0) or odd (1) positions of the sorted receipt list out of training and
reports the character error rate on their lines before and after (unless --no-eval); `none` trains on every line
(the shipped model). --time-limit ends the learning-rate schedule, and the training, after S seconds. --narrow W
pads that share of the batches only to W px instead of PaddleOCR's 320, so that the model reads short lines as the
product pads them (`defaultMinRecognitionRatio` in paddle-ocr.ts).
--extra mixes rendered lines (render-lines.py) into every pass: --extra-share times as many as the real training
lines, drawn in turn from the folder, so that the passes see different ones.
The graph and its preprocessing stay the PP-OCRv4 recogniser's; only weight values change (onnx_torch.py).
"""
import argparse
import json
import math
import os
import random
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_torch import OnnxModule  # noqa: E402

MIN_WIDTH = 320  # the product pads shorter lines to 320 px (PaddleOCR's own)


def load_dictionary(path):
    chars = open(path, encoding='utf8').read().split('\n')
    if chars and chars[-1] == '':
        chars.pop()
    index = {}
    for i, c in enumerate(chars):
        index.setdefault(c, i + 1)
    index.setdefault(' ', len(chars) + 1)
    return index, ['', *chars, ' ']


def load_lines(data, index):
    lines = []
    for row in open(os.path.join(data, 'lines.jsonl'), encoding='utf8'):
        if not row.strip():
            continue
        r = json.loads(row)
        codes = [index.get(c) for c in r['label']]
        if None in codes:
            continue
        img = np.asarray(Image.open(os.path.join(data, r['file'])).convert('RGB'))
        # Kept as bytes (BGR, the product's channel order); batch_of scales them to [-1, 1] as the product does.
        x = torch.from_numpy(img[:, :, ::-1].copy()).permute(2, 0, 1)
        lines.append({'x': x, 'codes': codes, 'label': r['label'], 'receipt': r['receipt']})
    return lines


def augment(x):
    """Scanner-like variation of one line image (3×48×W in [-1, 1])."""
    if random.random() < 0.5:
        x = x * random.uniform(0.8, 1.2) + random.uniform(-0.15, 0.15)
    if random.random() < 0.3:
        k = torch.tensor([0.25, 0.5, 0.25], device=x.device)
        w = (k[:, None] * k[None, :]).expand(3, 1, 3, 3)
        x = F.conv2d(x[None], w, padding=1, groups=3)[0]
    if random.random() < 0.5:
        width = max(8, int(x.shape[2] * random.uniform(0.85, 1.15)))
        x = F.interpolate(x[None], size=(48, width), mode='bilinear', align_corners=False)[0]
    return x.clamp(-1, 1)


def batch_of(items, device, train, min_width=MIN_WIDTH):
    xs = [it['x'].to(device).float() / 127.5 - 1 for it in items]
    xs = [augment(x) for x in xs] if train else xs
    width = max(min_width, max(x.shape[2] for x in xs))
    out = torch.zeros(len(xs), 3, 48, width, device=device)
    for i, x in enumerate(xs):
        out[i, :, :, : x.shape[2]] = x
    return out


def decode(logits, chars):
    best = logits.argmax(-1).tolist()
    texts = []
    for row in best:
        prev, s = 0, []
        for k in row:
            if k != prev and k != 0:
                s.append(chars[k])
            prev = k
        texts.append(''.join(s))
    return texts


def edit_distance(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def evaluate(model, lines, chars, device):
    """Character error rate (spaces ignored) and share of lines read exactly, each line padded as the product pads it."""
    model.eval()
    errors = total = exact = 0
    # Lines up to MIN_WIDTH are padded to it and can share a run; wider ones run alone, as in the product.
    short = [l for l in lines if l['x'].shape[2] <= MIN_WIDTH]
    groups = [short[i:i + 64] for i in range(0, len(short), 64)] + [[l] for l in lines if l['x'].shape[2] > MIN_WIDTH]
    with torch.no_grad():
        for items in groups:
            texts = decode(model(batch_of(items, device, False), logits=True), chars)
            for it, text in zip(items, texts):
                a, b = it['label'].replace(' ', ''), text.replace(' ', '')
                d = edit_distance(a, b)
                errors += d
                total += len(a)
                exact += d == 0
    return errors / max(1, total), exact / max(1, len(lines))


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--data', required=True)
    p.add_argument('--base', required=True)
    p.add_argument('--dict', required=True)
    p.add_argument('--hold-out', default='none')
    p.add_argument('--out', required=True)
    p.add_argument('--epochs', type=int, default=16)
    p.add_argument('--lr', type=float, default=1e-4)
    p.add_argument('--batch', type=int, default=32)
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--eval-every', type=int, default=4)
    p.add_argument('--max-steps', type=int, default=0)
    p.add_argument('--no-eval', action='store_true', help='hold the receipts out without measuring them')
    p.add_argument('--narrow', type=int, default=0,
                   help='pad a share of the batches only to this width (px) instead of 320, so that the model reads short lines unpadded')
    p.add_argument('--narrow-share', type=float, default=0.75, help='share of the batches padded only to --narrow')
    p.add_argument('--extra', help='a folder of further lines (render-lines.py): mixed into every pass, never held out')
    p.add_argument('--extra-share', type=float, default=1.0,
                   help='further lines a pass, as a share of the real training lines (drawn in turn from the folder)')
    p.add_argument('--time-limit', type=float, default=0, help='seconds of training: the learning-rate schedule ends with them')
    args = p.parse_args()
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    device = 'cuda' if torch.cuda.is_available() else 'cpu'
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True

    index, chars = load_dictionary(args.dict)
    lines = load_lines(args.data, index)
    receipts = sorted({l['receipt'] for l in lines})
    if args.hold_out == 'none':
        held = set()
    else:
        k = int(args.hold_out)
        held = {r for i, r in enumerate(receipts) if i % 2 == k}
    train = [l for l in lines if l['receipt'] not in held]
    test = [l for l in lines if l['receipt'] in held]
    held_out = len(test)
    if args.no_eval:
        test = []
    print(f'lines: {len(lines)}, training {len(train)}, held out {held_out} ({len(held)} receipts), device {device}', flush=True)
    extra = load_lines(args.extra, index) if args.extra else []
    random.shuffle(extra)
    per_pass = min(len(extra), int(len(train) * args.extra_share))
    if extra:
        print(f'further lines: {len(extra)}, {per_pass} a pass', flush=True)

    model = OnnxModule(args.base).to(device)
    if test:
        cer, exact = evaluate(model, test, chars, device)
        print(f'before: held-out character errors {cer * 100:.2f} %, lines exact {exact * 100:.1f} %', flush=True)
    params = [q for q in model.parameters() if q.requires_grad]
    opt = torch.optim.AdamW(params, lr=args.lr, weight_decay=0.0)
    steps_per_epoch = math.ceil((len(train) + per_pass) / args.batch)
    total_steps = steps_per_epoch * args.epochs
    warmup = max(1, min(100, total_steps // 10))
    started = time.time()

    def progress(step):
        # With a time limit the schedule runs on whichever ends first, the steps or the time.
        done = step / total_steps
        if args.time_limit:
            done = max(done, (time.time() - started) / args.time_limit)
        return done

    def lr_factor(step):
        if step < warmup:
            return (step + 1) / warmup
        return 0.5 * (1 + math.cos(math.pi * min(1.0, progress(step))))

    sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_factor)
    step = 0
    for epoch in range(1, args.epochs + 1):
        model.train()
        # Batches of similar width (less padding), in random order.
        drawn = [extra[((epoch - 1) * per_pass + i) % len(extra)] for i in range(per_pass)] if per_pass else []
        order = sorted(train + drawn, key=lambda l: l['x'].shape[2] + random.uniform(0, 64))
        batches = [order[i:i + args.batch] for i in range(0, len(order), args.batch)]
        random.shuffle(batches)
        loss_sum = 0.0
        for items in batches:
            narrow = args.narrow and random.random() < args.narrow_share
            x = batch_of(items, device, True, args.narrow if narrow else MIN_WIDTH)
            logits = model(x, logits=True).float()
            log_probs = logits.log_softmax(-1).permute(1, 0, 2)
            targets = torch.tensor([c for it in items for c in it['codes']], dtype=torch.long)
            target_lengths = torch.tensor([len(it['codes']) for it in items], dtype=torch.long)
            input_lengths = torch.full((len(items),), log_probs.shape[0], dtype=torch.long)
            loss = F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=True)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 5.0)
            opt.step()
            sched.step()
            loss_sum += loss.item()
            step += 1
            if (args.max_steps and step >= args.max_steps) or progress(step) >= 1:
                break
        msg = f'epoch {epoch}: loss {loss_sum / len(batches):.4f}, {time.time() - started:.0f} s'
        last = epoch == args.epochs or (args.max_steps and step >= args.max_steps) or progress(step) >= 1
        if test and (epoch % args.eval_every == 0 or last):
            cer, exact = evaluate(model, test, chars, device)
            msg += f', held-out character errors {cer * 100:.2f} %, lines exact {exact * 100:.1f} %'
        print(msg, flush=True)
        if (args.max_steps and step >= args.max_steps) or progress(step) >= 1:
            print(f'stopped after {step} of {total_steps} steps', flush=True)
            break
    model.cpu().write_onnx(args.out)
    print(f'written {args.out}', flush=True)


if __name__ == '__main__':
    main()
