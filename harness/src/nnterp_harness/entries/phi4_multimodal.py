from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import SPECIAL_ID, VOCAB_SIZE, special_token_ids
from ..vision import SIGLIP_TOWER

#: Phi-4-multimodal's audio conformer shrunk to two blocks of width 32.
TINY_AUDIO = {
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_blocks": 2,
    "num_attention_heads": 2,
    "ext_pw_out_channel": 32,
    "depthwise_separable_out_channel": 32,
    "nemo_conv_channels": 32,
    "input_size": 16,
    "time_reduction": 8,
    "bias_max_distance": 16,
}


def _listed_eos(config) -> None:
    """The config replaces a falsy `eos_token_id` (the shared id 0) by its own ids on load; a list keeps it."""
    config.eos_token_id = [SPECIAL_ID]


#: Phi-4-multimodal: Phi-3's blocks, with an image and an audio embedder writing into the token embeddings.
ENTRIES = (
    Entry(
        "phi4_multimodal",
        "phi4_multimodal",
        {
            **GROUPED_LLAMA_SHAPE,
            "num_hidden_layers": 2,
            "vocab_size": VOCAB_SIZE,
            "original_max_position_embeddings": 512,
            "tie_word_embeddings": True,
            **special_token_ids(),
            "vision_config": {
                **{key: value for key, value in SIGLIP_TOWER.items() if key != "vision_use_head"},
                "crop_size": SIGLIP_TOWER["image_size"],
            },
            "audio_config": TINY_AUDIO,
        },
        configure=_listed_eos,
    ),
)
