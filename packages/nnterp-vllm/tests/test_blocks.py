"""The engine's block classes refuse a standard module they lack in the wording of every engine's blocks.

vLLM is not needed: the block classes are envoys, built here over a small torch module.
"""

import re

import pytest
import torch
from nnsight import Envoy

from nnterp.components import BlockModules
from nnterp_vllm.components import layer, transformers_backend


class _Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.self_attn = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.self_attn(x)


class _Blocks(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.h = torch.nn.ModuleList([_Block(), _Block()])


@pytest.mark.parametrize(
    "kind", [layer.Layer, layer.FusedLayer, transformers_backend.Layer], ids=["layer", "fused", "backend"]
)
def test_a_missing_module_reads_as_on_the_transformers_engine(kind):
    assert issubclass(kind, BlockModules)
    model = Envoy(_Blocks(), rename={"h": "layers"}, envoys={_Block: kind})
    assert getattr(model.layers[1], "mlp", None) is None
    with pytest.raises(AttributeError) as caught:
        model.layers[1].mlp  # noqa: B018
    assert re.fullmatch(
        r"layers\[1\]\.mlp: no mlp module on this block \(it has self_attn\); model\.support\(layer=1\) lists what "
        r"it serves, with a reason for each value it lacks \(native block model\.h\.1\)",
        str(caught.value),
    ), caught.value
