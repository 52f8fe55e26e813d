"""Packs exported training lines (export-lines.ts) for a GPU machine whose transfer holds 64 MiB with the checkout.

    python3 scripts/recogniser-training/pack-lines.py <lines dir> <package rec.onnx> <ppocr_keys_v1.txt> <out dir>

Grey lines (all three channels within 1) become one-channel lossless WebP, colour lines lossy WebP at quality 96,
all in one uncompressed zip (no per-file padding, unlike tar); the package's recogniser is xz-compressed. There:

    python3 -c "import zipfile, lzma; zipfile.ZipFile('<out>/data.zip').extractall('.');
                open('data/base.onnx', 'wb').write(lzma.open('<out>/base.onnx.xz').read())"
    cp <out>/dict.txt data/dict.txt

gives the data folder that train.py and train-all.sh read (train.py reads every line as RGB).
"""
import io
import json
import lzma
import os
import shutil
import sys
import zipfile

import numpy as np
from PIL import Image


def main():
    src, base, dictionary, out = sys.argv[1:5]
    os.makedirs(out, exist_ok=True)
    grey = colour = 0
    with zipfile.ZipFile(os.path.join(out, 'data.zip'), 'w', zipfile.ZIP_STORED) as z:
        rows = [r for r in open(os.path.join(src, 'lines.jsonl'), encoding='utf8') if r.strip()]
        z.writestr('data/lines.jsonl', ''.join(rows))
        for row in rows:
            name = json.loads(row)['file']
            image = Image.open(os.path.join(src, name)).convert('RGB')
            pixels = np.asarray(image).astype(int)
            buffer = io.BytesIO()
            if (pixels.max(2) - pixels.min(2)).max() <= 1:
                Image.fromarray(pixels[:, :, 1].astype(np.uint8)).save(buffer, 'WEBP', lossless=True, method=6)
                grey += 1
            else:
                image.save(buffer, 'WEBP', quality=96, method=6)
                colour += 1
            z.writestr('data/' + name, buffer.getvalue())
    with open(base, 'rb') as f, lzma.open(os.path.join(out, 'base.onnx.xz'), 'wb', preset=9) as g:
        g.write(f.read())
    shutil.copyfile(dictionary, os.path.join(out, 'dict.txt'))
    size = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))
    print(f'{grey} grey and {colour} colour lines; {size / 2**20:.1f} MiB in {out}')


if __name__ == '__main__':
    main()
