"""Qwen3-VL's text model (`Qwen3VLTextModel`), with DeepStack taps after its first blocks.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Qwen3's block (per-head query and key norms) under the multimodal rotary embedding,
its temporal, height and width rows interleaved over the rotary channels. DeepStack:
the text model adds the k-th of the visual embeddings it is handed to the image rows
of the stream right after text block k (`_deepstack_process`), so block k+1 receives
`layers[k].deepstack_output`, not `layers[k].layer_output`. `deepstack_output` is read
at block k's occurrence of that one call in the text model's forward, which is
instrumented at build (`nnterp.components.deepstack`). Only a run with an image
reaches it, so `model.order()`, which probes a text prompt, gives it no rank. The
text model's own names (`embed_tokens`, `layers`, `norm`) are the standard ones.

The Qwen3-VL wrapper (`qwen3_vl`) is served by `nnterp.families.qwen3_vl`.
"""

from transformers.models.qwen3_vl.modeling_qwen3_vl import (
    Qwen3VLTextAttention,
    Qwen3VLTextDecoderLayer,
    Qwen3VLTextMLP,
    Qwen3VLTextModel,
)

from nnterp.components import Attention, Mlp
from nnterp.components.deepstack import DeepstackLayer, DeepstackTextModel

#: Empty: the text model's names are the standard ones, and only a wrapper nests it under a path of its own.
RENAME = {}

ENVOYS = {
    Qwen3VLTextModel: DeepstackTextModel,
    Qwen3VLTextDecoderLayer: DeepstackLayer,
    Qwen3VLTextAttention: Attention,
    Qwen3VLTextMLP: Mlp,
}
