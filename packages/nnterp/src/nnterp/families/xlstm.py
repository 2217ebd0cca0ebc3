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

from transformers.models.xlstm.modeling_xlstm import xLSTMBlock, xLSTMFeedForward, xLSTMLayer

from nnterp.components import HybridLayer, LogitLens, Mlp
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


project_on_vocab = LogitLens(float32=True, softcap="output_logit_soft_cap")


ENVOYS = {xLSTMBlock: Layer, xLSTMLayer: Mlstm, xLSTMFeedForward: Mlp}
