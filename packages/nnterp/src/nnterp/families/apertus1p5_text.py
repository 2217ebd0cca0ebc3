"""Apertus 1.5, text (`Apertus1p5TextForCausalLM`): Apertus's block and Apertus's envoy classes.

`h = x + self_attn(input_layernorm(x)); out = h + mlp(post_attention_layernorm(h))`.

The block's pre-norms are `attention_layernorm` and `feedforward_layernorm`, aliased
`input_layernorm` and `post_attention_layernorm`. `q_norm` and `k_norm` norm each head's query and
key before the rotary embedding. The MLP is `down_proj(act_fn(up_proj(x)))` with the trainable xIELU
activation and no gate, so `mlp_neurons` is `mlp_activation` itself. The head may be cut to
`output_vocab_size`, the text-only prefix of the vocabulary.

Apertus 1.5's wrapper (`Apertus1p5ForConditionalGeneration`) holds this text model under
`model.language_model` and fuses early: its VQ image tokenizer (`model.vision_tokenizer`, a
convolutional encoder and a codebook scored by inner product) turns each image into a grid
of codebook indices, offset into ordinary vocabulary ids, and the wrapper scatters
`embed_tokens` of those ids into the image token positions in `Apertus1p5Model`; its audio
tokenizer does the same for audio clips. No tower of blocks and no projector sit on that
path, so the family names no `vision` and the image is read as text: `layers[0].layer_input`
at the image positions is the codes' embeddings. The wrapper has no text-only class, so the
default task builds it with no processor.
"""

from transformers.models.apertus1p5.modeling_apertus1p5 import (
    Apertus1p5TextAttention,
    Apertus1p5TextDecoderLayer,
    Apertus1p5TextMLP,
)

from nnterp.components.vision import WRAPPED_TEXT_RENAME
from nnterp.families import apertus
from nnterp.families.apertus import Attention, Layer, Mlp

__all__ = ["ENVOYS", "RENAME", "Attention", "Layer", "Mlp"]

RENAME = {**apertus.RENAME, **WRAPPED_TEXT_RENAME}

ENVOYS = {Apertus1p5TextDecoderLayer: Layer, Apertus1p5TextAttention: Attention, Apertus1p5TextMLP: Mlp}
