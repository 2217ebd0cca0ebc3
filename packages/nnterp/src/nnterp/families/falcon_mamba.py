"""Falcon-Mamba (`FalconMambaForCausalLM`): Mamba's blocks, with RMS norms on `B`, `C` and the step size.

Every block is a norm and a Mamba-1 mixer, `linear_attn`, a `SelectiveScan`:
`out = x + linear_attn(input_layernorm(x))`. The mixer normalizes `B`, `C` and the
step size before the scan, so the served keys, queries and step sizes are the
normed tensors the kernel receives.
"""

from transformers.models.falcon_mamba.modeling_falcon_mamba import FalconMambaBlock, FalconMambaMixer

from nnterp.components import HybridLayer, SelectiveScan

RENAME = {
    "backbone.embeddings": "embed_tokens",
    "backbone.layers": "layers",
    "backbone.norm_f": "norm",
    "mixer": "linear_attn",
    "norm": "input_layernorm",
}


ENVOYS = {FalconMambaBlock: HybridLayer, FalconMambaMixer: SelectiveScan}
