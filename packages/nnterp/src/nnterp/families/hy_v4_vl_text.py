"""HY-V4-VL's text model (`HYV4VLTextModel`, model type `hy_v4_vl_text`).

`h = post_a * self_attn(input_layernorm(collapse_a)) + x;
out = post_m * mlp(post_attention_layernorm(collapse_m)) + h`, over every stream.

HY-V4's block (see `nnterp.families.hy_v4`): unmixed hyper-connection streams around
a gated latent attention with a sink per head and an indexer's top-k mask, and a
dense MLP or a mixture per block, under a multimodal rotary embedding. Its values are
HY-V4's, keyed on the wrapper's own copies of the classes. transformers has no
causal-LM class for `hy_v4_vl_text`: the text model is served only inside its wrapper,
under `model.language_model`, with `hc_head` there, which `collapse_streams` reads.

The `HYV4VLForConditionalGeneration` wrapper (`hy_v4_vl`) is served by
`nnterp.families.hy_v4_vl`.
"""

from transformers.models.hy_v4_vl.modeling_hy_v4_vl import HYV4VLMLP, HYV4VLAttention, HYV4VLDecoderLayer, HYV4VLMoE

from nnterp.components import LogitLens, collapse_through
from nnterp.families.hy_v4 import Attention, Layer, Mlp, Moe, head_dim, qk_head_dim

__all__ = [
    "ENVOYS",
    "RENAME",
    "Attention",
    "Layer",
    "Mlp",
    "Moe",
    "collapse_streams",
    "head_dim",
    "project_on_vocab",
    "qk_head_dim",
]

# The text model alone already names its embedding, blocks and final norm as nnterp does.
RENAME: dict[str, str] = {}


#: One stream from a `Streams` value through the text model's `hc_head`; a `Residual` as is.
collapse_streams = collapse_through("model.language_model.hc_head")


project_on_vocab = LogitLens(streams=collapse_streams)


ENVOYS = {
    HYV4VLDecoderLayer: Layer,
    HYV4VLAttention: Attention,
    HYV4VLMLP: Mlp,
    HYV4VLMoE: Moe,
}
