"""Qwen3-VL-MoE's text model (`Qwen3VLMoeTextModel`): Qwen3-VL's block and DeepStack taps with Qwen3-MoE's mixture.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

Qwen3-VL's text model (`qwen3_vl_text`) with Qwen3-MoE's mixture (`qwen3_moe`):
per-head query and key norms under the interleaved multimodal rotary embedding, and an
`mlp` that is a mixture: a softmax over every expert, the top `top_k` kept and always
renormalized, grouped experts and no shared expert. Blocks in `mlp_only_layers`, or
off the `decoder_sparse_step` schedule, carry a dense MLP. DeepStack as Qwen3-VL's:
the text model adds the k-th visual embedding it is handed to the image rows after
text block k, so block k+1 receives `layers[k].deepstack_output`, read at block k's
occurrence of `_deepstack_process` and only in a run with an image. The text model's
own names (`embed_tokens`, `layers`, `norm`) are the standard ones.

The Qwen3-VL-MoE wrapper (`qwen3_vl_moe`) is served by `nnterp.families.qwen3_vl_moe`.
"""

from transformers.models.qwen3_vl_moe.modeling_qwen3_vl_moe import (
    Qwen3VLMoeTextAttention,
    Qwen3VLMoeTextDecoderLayer,
    Qwen3VLMoeTextMLP,
    Qwen3VLMoeTextModel,
    Qwen3VLMoeTextSparseMoeBlock,
)

from nnterp.components import Attention, Mlp
from nnterp.components.deepstack import DeepstackLayer, DeepstackTextModel
from nnterp.families import qwen3_moe

#: Empty: the text model's names are the standard ones, and only a wrapper nests it under a path of its own.
RENAME = {}

ENVOYS = {
    Qwen3VLMoeTextModel: DeepstackTextModel,
    Qwen3VLMoeTextDecoderLayer: DeepstackLayer,
    Qwen3VLMoeTextAttention: Attention,
    Qwen3VLMoeTextMLP: Mlp,
    Qwen3VLMoeTextSparseMoeBlock: qwen3_moe.Moe,
}
