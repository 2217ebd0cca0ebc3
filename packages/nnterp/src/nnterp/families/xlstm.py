"""xLSTM (`xLSTMForCausalLM`): every block an mLSTM layer (the recurrent mixer) and a gated MLP.

`h = x + linear_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`,
the norms native `norm_mlstm` and `norm_ffn` (RMS norms), the mixer native
`mlstm_layer` (an `Mlstm`, read at its backend module), the MLP native `ffn` with
`proj_up_gate`, `proj_up` and `proj_down` aliased `gate_proj`, `up_proj` and
`down_proj` (SiLU-gated). A block returns `(stream, state)`, the state the model then
copies into its cache. The head's output is soft-capped, `cap * tanh(logits / cap)`
with `output_logit_soft_cap`, which `project_on_vocab` applies too. The family covers
transformers' own mLSTM code, which it uses when the `xlstm` package is not installed.
"""

import torch
from transformers.models.xlstm.modeling_xlstm import xLSTMBlock, xLSTMFeedForward, xLSTMLayer

from nnterp.components import HybridLayer, Mlp
from nnterp.components.mlstm import Mlstm

RENAME = {
    "backbone.embeddings": "embed_tokens",
    "backbone.blocks": "layers",
    "backbone.out_norm": "norm",
    "mlstm_layer": "linear_attn",
    "norm_mlstm": "input_layernorm",
    "norm_ffn": "post_attention_layernorm",
    "ffn": "mlp",
    "ffn.proj_up_gate": "ffn.gate_proj",
    "ffn.proj_up": "ffn.up_proj",
    "ffn.proj_down": "ffn.down_proj",
}


class Layer(HybridLayer):
    """xLSTM's block, which returns `(stream, state)`."""

    returns_tuple = True

    def skip_with(self, stream):
        """`stream` with the state the block received, which the model copies back into its cache unchanged."""
        args, kwargs = self.inputs
        return stream, args[1] if len(args) > 1 else kwargs.get("state")


class Mlstm(Mlstm):
    """xLSTM's mLSTM layer; the backend's boundary, so the base holds."""


class Mlp(Mlp):
    """xLSTM's SiLU-gated MLP; the base holds."""


def project_on_vocab(model, hidden):
    """The logit lens: the final norm, `lm_head` in float32, then the model's soft cap."""
    if not model.interleaver.interleaving:
        hidden = hidden.to(model.lm_head._module.weight.device)
    cap = model.config.output_logit_soft_cap
    logits = model.lm_head(model.norm(hidden)).float()
    return logits if cap is None else cap * torch.tanh(logits / cap)


ENVOYS = {xLSTMBlock: Layer, xLSTMLayer: Mlstm, xLSTMFeedForward: Mlp}
