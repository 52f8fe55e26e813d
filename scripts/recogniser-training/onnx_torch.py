"""The recogniser's ONNX graph run by PyTorch, its weights trainable, and written back into the same graph.

PaddleOCR's exported recogniser (paddle2onnx, opset 9) keeps its weights in Constant nodes; the fused graph the
product ships (`fuse_graph.py`) keeps them as initializers. OnnxModule turns every float Constant or initializer
with more than one element into a torch Parameter and evaluates the graph's nodes in order, so the network can be
fine-tuned without re-implementing it; `write_onnx` puts the trained values back where they came from in a copy of
the original file. Only the operators these graphs use are implemented.
"""
import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import helper, numpy_helper


def _attrs(node):
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


class OnnxModule(torch.nn.Module):
    def __init__(self, path):
        super().__init__()
        self.model = onnx.load(path)
        self.nodes = []
        self.params = torch.nn.ParameterDict()
        self.param_of = {}  # output name -> parameter key
        self.fixed = {}
        for j, init in enumerate(self.model.graph.initializer):
            arr = numpy_helper.to_array(init)
            if arr.dtype == np.float32 and arr.size > 1:
                key = f'i{j}'
                self.params[key] = torch.nn.Parameter(torch.from_numpy(arr.copy()))
                self.param_of[init.name] = key
            else:
                self.fixed[init.name] = torch.from_numpy(np.array(arr))
        for i, node in enumerate(self.model.graph.node):
            a = _attrs(node)
            if node.op_type == 'Constant':
                arr = numpy_helper.to_array(a['value'])
                if arr.dtype == np.float32 and arr.size > 1:
                    key = f'c{i}'
                    self.params[key] = torch.nn.Parameter(torch.from_numpy(arr.copy()))
                    self.param_of[node.output[0]] = key
                else:
                    self.fixed[node.output[0]] = torch.from_numpy(np.array(arr))
                continue
            self.nodes.append((node.op_type, list(node.input), list(node.output), a))
        self.input_name = self.model.graph.input[0].name
        self.output_name = self.model.graph.output[0].name
        # Batch-norm statistics stay as exported: fine-tuning adjusts scales and shifts, not the running means.
        self.frozen = set()
        for op, ins, _, _ in self.nodes:
            if op == 'BatchNormalization':
                for name in ins[3:5]:
                    if name in self.param_of:
                        self.frozen.add(self.param_of[name])
        for key in self.frozen:
            self.params[key].requires_grad_(False)

    def forward(self, x, logits=False):
        env = {self.input_name: x}
        dev = x.device
        for name, t in self.fixed.items():
            env[name] = t.to(dev) if t.dtype.is_floating_point else t  # shape arithmetic stays on the CPU
        for name, key in self.param_of.items():
            env[name] = self.params[key]
        last = len(self.nodes) - 1
        for k, (op, ins, outs, a) in enumerate(self.nodes):
            v = [env[n] if n else None for n in ins]
            if logits and k == last and op == 'Softmax':
                env[outs[0]] = v[0]
                continue
            env[outs[0]] = _run(op, v, a)
        return env[self.output_name]

    def write_onnx(self, path):
        model = onnx.ModelProto()
        model.CopyFrom(self.model)
        for i, node in enumerate(model.graph.node):
            key = f'c{i}'
            if node.op_type == 'Constant' and key in self.params:
                arr = self.params[key].detach().cpu().numpy().astype(np.float32)
                for attr in node.attribute:
                    if attr.name == 'value':
                        attr.t.CopyFrom(numpy_helper.from_array(arr, attr.t.name))
        for j, init in enumerate(model.graph.initializer):
            key = f'i{j}'
            if key in self.params:
                init.CopyFrom(numpy_helper.from_array(self.params[key].detach().cpu().numpy().astype(np.float32), init.name))
        onnx.save(model, path)


def _run(op, v, a):
    x = v[0]
    if op == 'Conv':
        pads = a.get('pads', [0, 0, 0, 0])
        n = len(pads) // 2
        if pads[:n] != pads[n:]:
            x = F.pad(x, [pads[1], pads[3], pads[0], pads[2]])
            pads = [0] * (2 * n)
        return F.conv2d(x, v[1], v[2] if len(v) > 2 else None, stride=a.get('strides', [1, 1]), padding=pads[:n],
                        dilation=a.get('dilations', [1, 1]), groups=a.get('group', 1))
    if op == 'BatchNormalization':
        return F.batch_norm(x, v[3], v[4], v[1], v[2], training=False, eps=a.get('epsilon', 1e-5))
    if op == 'Mul':
        return v[0] * v[1]
    if op == 'Add':
        return v[0] + v[1]
    if op == 'Sub':
        return v[0] - v[1]
    if op == 'Div':
        return v[0] / v[1]
    if op == 'Pow':
        return torch.pow(v[0], v[1])
    if op == 'Sqrt':
        return torch.sqrt(x)
    if op == 'Clip':
        return torch.clamp(x, a.get('min', -3.4e38), a.get('max', 3.4e38))
    if op == 'Relu':
        return F.relu(x)
    if op == 'Sigmoid':
        return torch.sigmoid(x)
    if op == 'HardSigmoid':
        return torch.clamp(a.get('alpha', 0.2) * x + a.get('beta', 0.5), 0, 1)
    if op == 'GlobalAveragePool':
        return x.mean(dim=(2, 3), keepdim=True)
    if op == 'AveragePool':
        p = a.get('pads', [0, 0, 0, 0])
        assert not any(p)
        return F.avg_pool2d(x, a['kernel_shape'], a.get('strides'))
    if op == 'MatMul':
        return torch.matmul(v[0], v[1])
    if op == 'Transpose':
        return x.permute(*a['perm'])
    if op == 'ReduceMean':
        return x.mean(dim=tuple(a['axes']), keepdim=bool(a.get('keepdims', 1)))
    if op == 'Softmax':
        assert a.get('axis', 1) in (-1, x.dim() - 1)
        return torch.softmax(x, dim=-1)
    if op == 'Shape':
        return torch.tensor(list(x.shape), dtype=torch.int64)
    if op == 'Cast':
        to = a['to']
        dtype = {1: torch.float32, 6: torch.int32, 7: torch.int64}[to]
        return x.to(dtype)
    if op == 'Slice':
        out = x
        for ax, start, end in zip(a.get('axes', range(len(a['starts']))), a['starts'], a['ends']):
            ax = ax % out.dim()
            n = out.shape[ax]
            start, end = max(-n, min(start, n)), max(-n, min(end, n))
            out = out.narrow(ax, start % n if start < 0 else start, (end % n if end < 0 else end) - (start % n if start < 0 else start))
        return out
    if op == 'Concat':
        axis = a['axis']
        if all(t.dtype in (torch.int32, torch.int64) for t in v):
            return torch.cat([t.to(torch.int64).reshape(-1) if t.dim() <= 1 else t for t in v], dim=axis)
        return torch.cat(v, dim=axis)
    if op == 'Squeeze':
        out = x
        for ax in sorted(a['axes'], reverse=True):
            out = out.squeeze(ax)
        return out
    if op == 'Reshape':
        shape = [int(s) for s in v[1].tolist()]
        shape = [x.shape[i] if s == 0 else s for i, s in enumerate(shape)]
        return x.reshape(shape)
    raise NotImplementedError(op)
