"""Cuts a recogniser's output to the characters receipts print in Latin script, with a dictionary of its own.

PaddleOCR's recogniser scores 6,625 classes at every time step (the CTC blank, 6,623 characters, most of them CJK,
and the space). The product reads receipts in Latin script, and the fine-tuned model learnt from lines of it: the
last fully connected layer and softmax over all classes, and carrying their output out of ONNX Runtime, are about a
tenth of a recogniser run. This keeps the blank, every character whose plain form (`loadCharacters`: full-width
forms as ASCII) is ASCII or Latin (below U+0250, with the currency and measure signs of the dictionary), and the
space, in their order; the softmax then shares its probability among them alone.

    python3 scripts/recogniser-training/cut_classes.py <in.onnx> <ppocr_keys_v1.txt> <out.onnx>

writes <out.onnx> and <out>.dict.txt beside it (one character a line, as the package's dictionary): the recogniser
reads a model with the dictionary beside it (`paddle-ocr.ts`, `recogniserDictionary`). docs/recognition.md "Stop 41".
"""
import sys
import unicodedata

import numpy as np
import onnx
from onnx import numpy_helper

IDEOGRAPHIC = {'\u3002': '.', '\u3001': ','}
SIGNS = set('¢£¥°§±×÷·')


def plain(c):
    """The character the product reads a class as (`loadCharacters` in paddle-ocr.ts)."""
    n = IDEOGRAPHIC.get(c) or unicodedata.normalize('NFKC', c)
    return n if len(n) == 1 else c


def kept(c):
    p = plain(c)
    return ord(p) < 0x250 or p in SIGNS


def main(src, dictionary, out):
    chars = open(dictionary, encoding='utf8').read().split('\n')
    if chars[-1] == '':
        chars.pop()
    model = onnx.load(src)
    inits = {i.name: i for i in model.graph.initializer}
    head = [n for n in model.graph.node if n.op_type == 'MatMul'][-1]
    bias = [n for n in model.graph.node if n.op_type == 'Add'][-1]
    weights = numpy_helper.to_array(inits[head.input[1]])
    offsets = numpy_helper.to_array(inits[bias.input[1]])
    classes = len(chars) + 2
    if weights.shape[1] != classes or offsets.shape != (classes,):
        raise SystemExit(f'the last layer has {weights.shape[1]} outputs, the dictionary {classes} classes')
    # Class 0 is the blank, class k the dictionary's k-th character, the last the space.
    keep = [0] + [k + 1 for k, c in enumerate(chars) if kept(c)] + [classes - 1]
    inits[head.input[1]].CopyFrom(numpy_helper.from_array(np.ascontiguousarray(weights[:, keep]), head.input[1]))
    inits[bias.input[1]].CopyFrom(numpy_helper.from_array(np.ascontiguousarray(offsets[keep]), bias.input[1]))
    for value in model.graph.output:
        dims = value.type.tensor_type.shape.dim
        if dims and dims[-1].HasField('dim_value'):
            dims[-1].dim_value = len(keep)
    onnx.save(model, out)
    stem = out[:-5] if out.endswith('.onnx') else out
    with open(f'{stem}.dict.txt', 'w', encoding='utf8') as f:
        f.write(''.join(chars[k - 1] + '\n' for k in keep[1:-1]))
    print(f'{out}: {len(keep)} of {classes} classes')


if __name__ == '__main__':
    if len(sys.argv) != 4:
        raise SystemExit('usage: cut_classes.py <in.onnx> <ppocr_keys_v1.txt> <out.onnx>')
    main(*sys.argv[1:])
