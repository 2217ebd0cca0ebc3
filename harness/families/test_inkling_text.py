"""Inkling (`InklingForCausalLM`), end to end: a sliding block with the dense MLP, then a full block with a mixture."""

import pytest
import torch
import torch.nn.functional as F

from nnterp_harness.entries.inkling_text import embedding_norm_elsewhere
from nnterp_harness.release import family
from nnterp_harness.suite import LLAMA_ROWS, ROUTED_EXPERTS, FamilySuite, run, scale_of

FAMILY = family("inkling_text")

if reason := embedding_norm_elsewhere():
    pytest.skip(reason, allow_module_level=True)


class TestInklingText(FamilySuite):
    CHECKPOINT = "inkling_text"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)

    def test_contributions_are_the_convolved_sublayers(self, model):
        """Each contribution is its sublayer's output plus a causal depthwise convolution of it, by hand."""

        def convolved(module, y):
            weight = module.conv1d.weight
            width = weight.shape[-1]
            columns = F.pad(y.float().transpose(1, 2), (width - 1, 0))
            return (y.float() + F.conv1d(columns, weight, groups=weight.shape[0]).transpose(1, 2)).to(y.dtype)

        for index, block in enumerate(model.layers):

            def body(m, index=index):
                layer = m.layers[index]
                return (
                    layer.self_attn.output[0],
                    layer.self_attn.attention_output,
                    layer.mlp.output,
                    layer.mlp.mlp_output,
                )

            attention, attention_output, mlp, mlp_output = run(model, body)
            native = block._module
            with torch.no_grad():
                expected_attention = convolved(native.attn_sconv, attention)
                expected_mlp = convolved(native.mlp_sconv, mlp)
            assert torch.allclose(attention_output, expected_attention, atol=1e-5 * scale_of(expected_attention))
            assert torch.allclose(mlp_output, expected_mlp, atol=1e-5 * scale_of(expected_mlp))
            assert not torch.allclose(attention_output, attention), "the convolution left the attention output alone"
