"""Mamba (`MambaForCausalLM`): every block a norm and a Mamba-1 selective-scan mixer, no attention, no MLP.

The mixer is `linear_attn`, a `SelectiveScan`:
`out = x + linear_attn(input_layernorm(x))`. The block adds the residual in
float32 when `residual_in_fp32` is set. With `mamba_ssm` installed transformers
calls its compiled kernels, so `nnterp.route_kernels(model.family, "torch")` comes
before any trace; the state per token needs it in any case.
"""

from transformers.models.mamba.modeling_mamba import MambaBlock, MambaMixer

from nnterp.components import HybridLayer, SelectiveScan

RENAME = {
    "backbone.embeddings": "embed_tokens",
    "backbone.layers": "layers",
    "backbone.norm_f": "norm",
    "mixer": "linear_attn",
    "norm": "input_layernorm",
}


ENVOYS = {MambaBlock: HybridLayer, MambaMixer: SelectiveScan}
