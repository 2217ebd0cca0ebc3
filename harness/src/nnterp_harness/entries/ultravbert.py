"""UltraVBERT (`ultravbert`, `UltraVBertForMaskedLM`): a SigLIP tower and a pixel-shuffle connector on UltraBERT.

The masked-LM wrapper has no image-text-to-text class, so nnterp serves it as the
encoder it wraps: the text model is the `ultrabert` entry's (a global block, then one
banded two keys either side), and the tower (SigLIP's, shrunk) only has to build. The
saved tokenizer is the encoder's with the wrappers' added tokens, so the config's
`image_token_id` names a real token (`<image>`).
"""

from ..entry import INIT_STD, Entry
from ..tokenizer import encoder_token_ids, special_token_ids
from ..vision import SIGLIP_TOWER, WRAPPED_VOCAB, image_token_id, with_image_tokens

#: The `ultrabert` entry's text model.
TEXT = {
    "model_type": "ultrabert",
    "hidden_size": 64,
    "intermediate_size": 96,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "num_key_value_heads": 4,
    "max_position_embeddings": 128,
    "layer_types": ["full_attention", "sliding_attention"],
    "sliding_window": 2,
    "prediction_head_size": 32,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
    "vocab_size": WRAPPED_VOCAB,
    **special_token_ids(),
    **encoder_token_ids(),
}


def _tokenizer(tokenizer, config):
    return with_image_tokens(tokenizer)


ENTRIES = (
    Entry(
        "ultravbert",
        "ultravbert",
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
