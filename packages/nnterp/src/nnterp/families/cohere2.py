"""Cohere 2 (`Cohere2ForCausalLM`, Command R7B): Cohere's parallel block over sliding and global attention.

`out = x + self_attn(input_layernorm(x)) + mlp(input_layernorm(x))`

As Cohere: one bias-free LayerNorm feeds both sublayers, `layer_mid` is unavailable,
the block adds `(x + attn) + mlp` so the contribution identity holds bit for bit,
and the model multiplies the head's output by `logit_scale` (Cohere's
`project_on_vocab`). `config.layer_types` gives each block a sliding-window or a
global attention; only the sliding blocks rotate their queries and keys, and both
kinds call the shared eager interface. There is no query/key norm.

The vision-language wrappers over a Cohere 2 text model (Aya Vision, Command A Vision)
are modules of their own that compose this one's `RENAME`, `ENVOYS` and `project_on_vocab`.
"""

from transformers.models.cohere2.modeling_cohere2 import (
    Cohere2Attention,
    Cohere2DecoderLayer,
    Cohere2ForCausalLM,
    Cohere2MLP,
)

from nnterp.components import Attention, Mlp, ParallelLayer
from nnterp.components.logit_lens import LogitLens, module_attribute, only_on

__all__ = ["ENVOYS", "RENAME", "Attention", "Mlp", "project_on_vocab"]

RENAME = {
    "model.embed_tokens": "embed_tokens",
    "model.layers": "layers",
    "model.norm": "norm",
}


#: The causal LM scales its logits by `logit_scale`; the wrappers (Aya Vision, Command A Vision) do not.
project_on_vocab = LogitLens(multiply=only_on(Cohere2ForCausalLM, module_attribute("logit_scale")))


ENVOYS = {
    Cohere2DecoderLayer: ParallelLayer,
    Cohere2Attention: Attention,
    Cohere2MLP: Mlp,
}
