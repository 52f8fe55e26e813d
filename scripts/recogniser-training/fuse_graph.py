"""Rewrite a PP-OCR ONNX model (PP-LCNetV3 backbone) into an equivalent graph with fewer, larger operations.

The graphs exported from PaddlePaddle spell every operation of the backbone out in element-wise nodes:
- a convolution followed by its learnable affine block (`Mul` by a scalar, `Add` of a scalar);
- hard swish as four nodes (`Add 3`, `Clip 0..6`, `Mul`, `Div 6`);
- the activation's own affine block (`Mul`, `Add` of scalars) before the next convolution.
ONNX Runtime fuses none of these, and on the CPU each is one more pass over the feature map (about half of the
recogniser's time on one thread, with the layout reorders they force between convolutions). This script:
1. folds a convolution's scale and shift into its weights and bias (exact);
2. writes hard swish as `x * HardSigmoid(x)` with alpha 1/6 and beta 1/2 (the same function, two nodes);
3. folds an affine block that feeds a 1x1 convolution without padding into that convolution's weights and bias
   (exact: no padded border to shift);
4. writes one that feeds a padded (depthwise) convolution, where folding would shift the zero border, as a 1x1
   depthwise convolution (the same scale and shift on every channel), which ONNX Runtime keeps in its blocked
   channel layout between the convolutions instead of reordering the map for an element-wise node.
ONNX Runtime then fuses each convolution with its hard swish. Every other node, the inputs, the outputs and the
opset stay. It checks the rewritten model against the original
on random inputs with ONNX Runtime and prints the largest difference of the outputs.

usage: python3 fuse_graph.py <in.onnx> <out.onnx> [--shape 1,3,48,320]
"""
import argparse
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper


def constants_to_initializers(graph):
    """Constant nodes as initializers, so that every weight is found and rewritten the same way."""
    kept = []
    for node in graph.node:
        if node.op_type == 'Constant' and len(node.attribute) == 1 and node.attribute[0].name == 'value':
            graph.initializer.append(numpy_helper.from_array(numpy_helper.to_array(node.attribute[0].t), node.output[0]))
        else:
            kept.append(node)
    del graph.node[:]
    graph.node.extend(kept)


class Graph:
    def __init__(self, graph):
        self.g = graph
        self.nodes = list(graph.node)  # edited as a list; written back by save()
        self.init = {i.name: i for i in graph.initializer}
        self.outputs = {o.name for o in graph.output}

    def array(self, name):
        return numpy_helper.to_array(self.init[name]) if name in self.init else None

    def set_array(self, name, value):
        tensor = numpy_helper.from_array(value.astype(np.float32), name)
        if name in self.init:
            self.init[name].CopyFrom(tensor)
        else:
            self.g.initializer.append(tensor)
            self.init[name] = self.g.initializer[-1]

    def consumers(self, name):
        return [n for n in self.nodes if name in n.input]

    def only_consumer(self, name):
        if name in self.outputs:
            return None
        users = self.consumers(name)
        return users[0] if len(users) == 1 else None

    def scalar_operand(self, node, other):
        """The scalar constant a binary node applies to `other`, if it is one."""
        if len(node.input) != 2 or other not in node.input:
            return None
        const = node.input[1] if node.input[0] == other else node.input[0]
        value = self.array(const)
        return float(value.reshape(-1)[0]) if value is not None and value.size == 1 else None

    def affine_after(self, name):
        """`name` scaled and shifted by scalars (Mul then Add, each the only consumer): (mul, add, scale, shift)."""
        mul = self.only_consumer(name)
        if mul is None or mul.op_type != 'Mul':
            return None
        scale = self.scalar_operand(mul, name)
        add = self.only_consumer(mul.output[0])
        if scale is None or add is None or add.op_type != 'Add':
            return None
        shift = self.scalar_operand(add, mul.output[0])
        return None if shift is None else (mul, add, scale, shift)

    def rename_input(self, old, new):
        for n in self.nodes:
            for i, name in enumerate(n.input):
                if name == old:
                    n.input[i] = new

    def remove(self, nodes):
        ids = {id(n) for n in nodes}
        self.nodes = [n for n in self.nodes if id(n) not in ids]

    def insert_at(self, old, new_nodes):
        at = self.nodes.index(old)
        self.nodes[at:at] = new_nodes

    def save(self):
        """The edited nodes back into the graph, without the initializers no node reads any more."""
        del self.g.node[:]
        self.g.node.extend(self.nodes)
        used = {i for n in self.nodes for i in n.input} | {o.name for o in self.g.output}
        kept = [i for i in self.g.initializer if i.name in used]
        del self.g.initializer[:]
        self.g.initializer.extend(kept)

    def conv_bias(self, conv):
        if len(conv.input) > 2:
            return self.array(conv.input[2])
        out_channels = self.array(conv.input[1]).shape[0]
        conv.input.append(conv.output[0] + '.fused_bias')
        return np.zeros(out_channels, np.float32)


def attr(node, name, default=None):
    for a in node.attribute:
        if a.name == name:
            return helper.get_attribute_value(a)
    return default


def fold_conv_affines(gr):
    """Conv → Mul(s) → Add(b): W·s, bias·s + b."""
    count = 0
    for conv in [n for n in gr.nodes if n.op_type == 'Conv']:
        found = gr.affine_after(conv.output[0])
        if not found:
            continue
        mul, add, scale, shift = found
        weight = gr.array(conv.input[1])
        bias = gr.conv_bias(conv)
        gr.set_array(conv.input[1], weight * scale)
        gr.set_array(conv.input[2], bias * scale + shift)
        gr.rename_input(add.output[0], conv.output[0])
        gr.remove([mul, add])
        count += 1
    return count


def clip_bounds(gr, clip):
    """A Clip's (min, max): attributes up to opset 10, constant inputs from opset 11."""
    if len(clip.input) == 1:
        return attr(clip, 'min', None), attr(clip, 'max', None)
    bounds = [gr.array(name) if name else None for name in list(clip.input[1:3]) + [''] * (3 - len(clip.input))]
    return tuple(None if b is None else float(b.reshape(-1)[0]) for b in bounds[:2])


def hard_swish_nodes(gr, add3):
    """x → Add(x, 3) → Clip(0, 6) → Mul(x, ·) → Div(·, 6): the nodes, and x."""
    x = next((i for i in add3.input if gr.array(i) is None), None)
    if x is None or gr.scalar_operand(add3, x) != 3.0:
        return None
    clip = gr.only_consumer(add3.output[0])
    if clip is None or clip.op_type != 'Clip' or clip_bounds(gr, clip) != (0.0, 6.0):
        return None
    mul = gr.only_consumer(clip.output[0])
    if mul is None or mul.op_type != 'Mul' or set(mul.input) != {x, clip.output[0]}:
        return None
    div = gr.only_consumer(mul.output[0])
    if div is None or div.op_type != 'Div' or div.input[0] != mul.output[0] or gr.array(div.input[1]) is None:
        return None
    if float(gr.array(div.input[1]).reshape(-1)[0]) != 6.0:
        return None
    return x, [add3, clip, mul, div]


def rewrite_hard_swish(gr):
    count = 0
    for add3 in [n for n in gr.nodes if n.op_type == 'Add']:
        found = hard_swish_nodes(gr, add3)
        if not found:
            continue
        x, (a, clip, mul, div) = found
        gate = helper.make_node('HardSigmoid', [x], [div.output[0] + '.gate'], alpha=1.0 / 6.0, beta=0.5)
        out = helper.make_node('Mul', [x, gate.output[0]], [div.output[0]])
        gr.insert_at(a, [gate, out])
        gr.remove([a, clip, mul, div])
        count += 1
    return count


def fold_affines_into_pointwise(gr):
    """y = s·x + b → Conv 1x1 (no padding): W·s, bias + b·ΣW."""
    count = 0
    for mul in [n for n in gr.nodes if n.op_type == 'Mul']:
        x = next((i for i in mul.input if gr.array(i) is None), None)
        if x is None or gr.only_consumer(x) is not mul:
            continue
        found = gr.affine_after(x)
        if not found or found[0] is not mul:
            continue
        _, add, scale, shift = found
        conv = gr.only_consumer(add.output[0])
        if conv is None or conv.op_type != 'Conv' or conv.input[0] != add.output[0]:
            continue
        weight = gr.array(conv.input[1])
        if weight.shape[2:] != (1, 1) or any(attr(conv, 'pads', [0])) or attr(conv, 'group', 1) != 1:
            continue
        bias = gr.conv_bias(conv)
        gr.set_array(conv.input[2], bias + shift * weight.sum(axis=(1, 2, 3)))
        gr.set_array(conv.input[1], weight * scale)
        conv.input[0] = x
        gr.remove([mul, add])
        count += 1
    return count


def affines_as_depthwise(gr, shapes):
    """Remaining y = s·x + b (scalars) on a 4-D map of known channels → one 1x1 depthwise Conv."""
    count = 0
    for mul in [n for n in gr.nodes if n.op_type == 'Mul']:
        x = next((i for i in mul.input if gr.array(i) is None), None)
        if x is None or x not in shapes:
            continue
        found = gr.affine_after(x)
        if not found or found[0] is not mul:
            continue
        _, add, scale, shift = found
        c = shapes[x]
        w = np.full((c, 1, 1, 1), scale, np.float32)
        b = np.full((c,), shift, np.float32)
        gr.set_array(add.output[0] + '.dw_w', w)
        gr.set_array(add.output[0] + '.dw_b', b)
        conv = helper.make_node('Conv', [x, add.output[0] + '.dw_w', add.output[0] + '.dw_b'], [add.output[0]],
                                group=c, kernel_shape=[1, 1], pads=[0, 0, 0, 0], strides=[1, 1])
        gr.insert_at(mul, [conv])
        gr.remove([mul, add])
        count += 1
    return count


def channels_of(model):
    """The channel count of every 4-D value whose channels shape inference knows."""
    inferred = onnx.shape_inference.infer_shapes(model)
    channels = {}
    for value in inferred.graph.value_info:
        dims = value.type.tensor_type.shape.dim
        if len(dims) == 4 and dims[1].dim_value:
            channels[value.name] = dims[1].dim_value
    return channels


def largest_difference(original, rewritten, shape, runs=4):
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.log_severity_level = 3
    a = ort.InferenceSession(original.SerializeToString(), options, providers=['CPUExecutionProvider'])
    b = ort.InferenceSession(rewritten.SerializeToString(), options, providers=['CPUExecutionProvider'])
    name = a.get_inputs()[0].name
    rng = np.random.default_rng(0)
    worst = 0.0
    for _ in range(runs):
        x = rng.uniform(-1, 1, shape).astype(np.float32)
        for oa, ob in zip(a.run(None, {name: x}), b.run(None, {name: x})):
            worst = max(worst, float(np.abs(oa - ob).max()))
    return worst


def main():
    p = argparse.ArgumentParser()
    p.add_argument('src')
    p.add_argument('dst')
    p.add_argument('--shape', default='1,3,48,320')
    args = p.parse_args()
    original = onnx.load(args.src)
    model = onnx.load(args.src)
    constants_to_initializers(model.graph)
    gr = Graph(model.graph)
    convs = fold_conv_affines(gr)
    swishes = rewrite_hard_swish(gr)
    pointwise = fold_affines_into_pointwise(gr)
    gr.save()
    depthwise = affines_as_depthwise(gr, channels_of(model))
    gr.save()
    onnx.checker.check_model(model)
    onnx.save(model, args.dst)
    shape = [int(v) for v in args.shape.split(',')]
    diff = largest_difference(original, model, shape)
    print(f'conv affines folded: {convs}; hard swish rewritten: {swishes}; affines folded into 1x1 convs: {pointwise}; '
          f'affines as 1x1 depthwise convs: {depthwise}; '
          f'nodes {len(original.graph.node)} -> {len(model.graph.node)}; largest output difference {diff:.2e}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
