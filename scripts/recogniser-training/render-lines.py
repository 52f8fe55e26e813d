"""Renders text lines as printed receipt lines, for training the recogniser beside the exported real lines.

    python3 scripts/recogniser-training/render-lines.py <text> <fonts dir> <out dir> [--skip N] [--seed 1] [--workers 8]

<text> holds one line of receipt text a line (the language model's `receipt-lines.txt`); --skip N leaves out its
first N lines (the development folder's own, which that file starts with: lm-lines.ts), so that the held-out
measure reads no receipt whose text was rendered. Every remaining line is rendered once, in a random style: one
of the fonts in <fonts dir> (*.ttf), its size, letter spacing, boldness, ink and paper tone, a dot-matrix or
faded thermal look, blur, noise, a slight slant and JPEG, on a band 48 px high framed as `scaledBand` frames a
detected line (the font's line box 70-95 % of the band, a few pixels either side). Writes <out dir>/lines.jsonl in
export-lines.ts's form (`file`, `receipt`: `synthetic`, `label`) and the images as PNG in <out dir>/img.
"""
import argparse
import io
import json
import os
import random
import sys
from multiprocessing import Pool

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

HEIGHT = 48
MAX_CHARS = 72


def fonts_in(folder):
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.lower().endswith('.ttf'))


def draw_text(text, font, spacing):
    """The text in black on white, each character placed after the last plus `spacing` px; cropped to its ink."""
    size = font.size
    width = int(len(text) * (size * 0.9 + max(0, spacing)) + 2 * size)
    canvas = Image.new('L', (width, size * 2), 255)
    draw = ImageDraw.Draw(canvas)
    x = size // 2
    for ch in text:
        draw.text((x, size // 2), ch, font=font, fill=0)
        x += font.getlength(ch) + spacing
    ink = np.asarray(canvas) < 128
    rows, cols = np.where(ink.any(1))[0], np.where(ink.any(0))[0]
    if len(rows) == 0:
        return None
    # Keep the font's own line box vertically (ascender to descender), so that `.` and `-` sit where printed.
    ascent, descent = font.getmetrics()
    top, bottom = size // 2, size // 2 + ascent + descent
    return canvas.crop((cols[0], min(top, rows[0]), cols[-1] + 1, max(bottom, rows[-1] + 1)))


def style_line(text, fonts, rng):
    font = ImageFont.truetype(rng.choice(fonts), rng.randint(28, 44))
    spacing = rng.choice([0, 0, 0, 1, 2, 3, 5]) if rng.random() < 0.6 else rng.uniform(-1, 1)
    glyphs = draw_text(text, font, spacing)
    if glyphs is None:
        return None
    # Scale into the band: the line box 70-95 % of its height, squeezed or stretched sideways by up to 20 %.
    box_h = rng.uniform(0.7, 0.95) * HEIGHT
    scale = box_h / glyphs.height
    w = max(4, int(glyphs.width * scale * rng.uniform(0.8, 1.2)))
    h = max(4, int(round(box_h)))
    dots = rng.random() < 0.15
    if dots:  # a dot-matrix or coarse thermal head: drawn small, then enlarged
        f = rng.uniform(2.0, 3.0)
        glyphs = glyphs.resize((max(2, int(w / f)), max(2, int(h / f))), Image.BILINEAR).resize((w, h), Image.NEAREST)
    else:
        glyphs = glyphs.resize((w, h), Image.LANCZOS)
    if rng.random() < 0.25:  # heavier print
        glyphs = glyphs.filter(ImageFilter.MinFilter(3))
    left, right = rng.randint(1, 10), rng.randint(1, 10)
    top = rng.randint(0, HEIGHT - h)
    ink = np.zeros((HEIGHT, w + left + right), np.float32)
    ink[top:top + h, left:left + w] = 1 - np.asarray(glyphs, np.float32) / 255
    if rng.random() < 0.3:  # faded thermal print: ink strength varies along the line
        ink *= np.linspace(rng.uniform(0.5, 1), rng.uniform(0.5, 1), ink.shape[1])[None, :]
    paper = rng.uniform(185, 255)
    dark = rng.uniform(0, min(110, paper - 60))
    pixels = paper - ink * (paper - dark)
    if rng.random() < 0.3:  # uneven lighting across the band
        pixels += np.linspace(rng.uniform(-25, 0), rng.uniform(-25, 0), pixels.shape[1])[None, :]
    image = Image.fromarray(pixels.clip(0, 255).astype(np.uint8))
    if rng.random() < 0.4:
        image = image.rotate(rng.uniform(-1.5, 1.5), resample=Image.BILINEAR, fillcolor=int(paper))
    if rng.random() < 0.5:
        image = image.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.3)))
    pixels = np.asarray(image, np.float32)
    if rng.random() < 0.5:
        pixels = pixels + np.random.default_rng(rng.randint(0, 2**31)).normal(0, rng.uniform(2, 12), pixels.shape)
    image = Image.fromarray(pixels.clip(0, 255).astype(np.uint8))
    if rng.random() < 0.3:
        buffer = io.BytesIO()
        image.save(buffer, 'JPEG', quality=rng.randint(40, 90))
        image = Image.open(buffer).convert('L')
    return image


def render(job):
    i, text, fonts, seed, out = job
    rng = random.Random(seed * 1_000_003 + i)
    image = style_line(text, fonts, rng)
    if image is None:
        return None
    name = f'img/s{i:06d}.png'
    image.save(os.path.join(out, name), compress_level=1)
    return {'file': name, 'receipt': 'synthetic', 'label': text}


def main():
    p = argparse.ArgumentParser()
    p.add_argument('text')
    p.add_argument('fonts')
    p.add_argument('out')
    p.add_argument('--skip', type=int, default=0)
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--workers', type=int, default=8)
    args = p.parse_args()
    lines = open(args.text, encoding='utf8').read().split('\n')[args.skip:]
    texts = [t.strip() for t in lines if t.strip() and len(t.strip()) <= MAX_CHARS]
    fonts = fonts_in(args.fonts)
    os.makedirs(os.path.join(args.out, 'img'), exist_ok=True)
    jobs = [(i, t, fonts, args.seed, args.out) for i, t in enumerate(texts)]
    with Pool(args.workers) as pool:
        rows = [r for r in pool.map(render, jobs, chunksize=64) if r]
    with open(os.path.join(args.out, 'lines.jsonl'), 'w', encoding='utf8') as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + '\n')
    print(f'{len(rows)} lines rendered from {len(texts)} texts in {len(fonts)} fonts', file=sys.stderr)


if __name__ == '__main__':
    main()
