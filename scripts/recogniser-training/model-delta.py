"""Carries trained recognisers back from a GPU machine as their changes from the package's model, in float16.

A device machine returns files of at most 16 MiB; a trained recogniser is 10.8 MB, its change from the model it was
trained from about 5.5 MB. The change of each float constant (Constant node or initializer) is stored as float16:
restored, the model's outputs differ from the trained one's by about 2e-5 (checked on random line images).

    python3 model-delta.py pack <base.onnx> <out.npz> <name>=<trained.onnx> [...]
    python3 model-delta.py unpack <base.onnx> <in.npz> <name> <out.onnx>

<base.onnx> is the same file on both machines (the package's `ch_PP-OCRv4_rec_infer.onnx`); `unpack` writes the
trained graph, which fuse_graph.py then makes the shipped form of.
"""
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def constants(model):
    """Every constant tensor of the graph by name, with the proto that holds it."""
    out = {}
    for node in model.graph.node:
        if node.op_type == 'Constant' and node.attribute and node.attribute[0].name == 'value':
            out[node.output[0]] = (node, numpy_helper.to_array(node.attribute[0].t))
    for init in model.graph.initializer:
        out[init.name] = (init, numpy_helper.to_array(init))
    return out


def pack(base, out, specs):
    arrays = {}
    for spec in specs:
        name, path = spec.split('=', 1)
        for key, (_, t) in constants(onnx.load(path)).items():
            if t.dtype == np.float32 and key in base and base[key][1].shape == t.shape:
                arrays[f'{name}/{key}'] = (t - base[key][1]).astype(np.float16)
    np.savez(out, **arrays)


def unpack(model, base, path, name, out):
    stored = np.load(path)
    restored = 0
    for key in stored.files:
        owner, constant = key.split('/', 1)
        if owner != name:
            continue
        proto, t = base[constant]
        value = numpy_helper.from_array((t + stored[key].astype(np.float32)).astype(np.float32), constant)
        if isinstance(proto, onnx.NodeProto):
            proto.attribute[0].t.CopyFrom(value)
        else:
            proto.CopyFrom(value)
        restored += 1
    if not restored:
        sys.exit(f'no model named {name} in {path}')
    onnx.save(model, out)
    print(f'restored {restored} constants of {name}')


def main():
    if len(sys.argv) < 5 or sys.argv[1] not in ('pack', 'unpack'):
        sys.exit(__doc__)
    model = onnx.load(sys.argv[2])
    base = constants(model)
    if sys.argv[1] == 'pack':
        pack(base, sys.argv[3], sys.argv[4:])
    else:
        unpack(model, base, sys.argv[3], sys.argv[4], sys.argv[5])


if __name__ == '__main__':
    main()
