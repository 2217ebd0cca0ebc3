"""ModernVBERT (`modernvbert`, `ModernVBertForMaskedLM`): a SigLIP tower and a pixel-shuffle connector on ModernBERT.

The masked-LM wrapper has no image-text-to-text class and no processor of its own,
so nnterp serves it as the encoder it wraps: the text model is the `modernbert`
entry's, and the tower (SigLIP's, shrunk) only has to build. The saved tokenizer is
the encoder's with the wrappers' added tokens, so the config's `image_token_id` names
a real token (`<image>`).
"""

from ..entry import INIT_STD, MAX_POSITIONS, Entry
from ..tokenizer import encoder_token_ids, special_token_ids
from ..vision import SIGLIP_TOWER, WRAPPED_VOCAB, image_token_id, with_image_tokens

#: The `modernbert` entry's text model: a global block, then a sliding one with 4 keys on each side.
TEXT = {
    "model_type": "modernbert",
    "hidden_size": 64,
    "intermediate_size": 96,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "max_position_embeddings": MAX_POSITIONS,
    "local_attention": 8,
    "layer_types": ["full_attention", "sliding_attention"],
    "initializer_range": INIT_STD,
    "vocab_size": WRAPPED_VOCAB,
    **special_token_ids(),
    **encoder_token_ids(),
}


def _tokenizer(tokenizer, config):
    return with_image_tokens(tokenizer)


ENTRIES = (
    Entry(
        "modernvbert",
        "modernvbert",
        {
            "text_config": TEXT,
            "vision_config": {"model_type": "siglip_vision_model", **SIGLIP_TOWER},
            "pixel_shuffle_factor": 2,
            "image_token_id": image_token_id(),
            "initializer_range": INIT_STD,
        },
        tokenizer="encoder",
        auto_class="AutoModelForMaskedLM",
        processor=_tokenizer,
    ),
)
