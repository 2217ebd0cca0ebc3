import torch

from ..entry import Entry
from ..tokenizer import VOCAB_SIZE
from ..vision import IMAGE_TOKEN, WRAPPED_VOCAB, image_token_id, with_image_tokens
from .llava import LLAMA_TEXT

#: The image side, in pixels: the VQ-VAE downsamples by 8 (the factor Emu3's processor assumes), a 4x4 grid of codes.
SIDE = 32
#: The VQ-VAE's downsampling, fixed by `Emu3Processor`.
DOWNSAMPLE = 8
#: The codebook: each code maps to one token of the shared vocabulary.
CODES = 16
#: Emu3's own tokens, after the shared image tokens: the one opening the code rows, and the row and image ends.
IMAGE_WRAPPER_TOKEN = "<|image token|>"
EOL_TOKEN = "<|extra_200|>"
EOF_TOKEN = "<|extra_201|>"
EMU3_TOKENS = (IMAGE_WRAPPER_TOKEN, EOL_TOKEN, EOF_TOKEN)
#: The id of each of Emu3's own tokens.
EMU3_IDS = {token: WRAPPED_VOCAB + index for index, token in enumerate(EMU3_TOKENS)}
#: The image tokens of one image: one per code of its grid, and an end-of-row token after each row.
IMAGE_CODES = (SIDE // DOWNSAMPLE) * (SIDE // DOWNSAMPLE + 1)
#: The tokens the processor reads off its tokenizer by name.
EMU3_NAMED = {
    "image_token": IMAGE_TOKEN,
    "boi_token": "<start_of_image>",
    "eoi_token": "<end_of_image>",
    "image_wrapper_token": IMAGE_WRAPPER_TOKEN,
    "eof_token": EOF_TOKEN,
}
#: Emu3's image tokenizer, shrunk: a VQ-VAE of four resolutions (three downsamplings) at 32 channels (its group
#: norms' least), no residual blocks outside the middle, no attention outside it, no temporal layers, a 16-code
#: codebook. Its decoder, which serves image generation only, is stored too.
VQ_CONFIG = {
    "codebook_size": CODES,
    "embed_dim": 4,
    "latent_channels": 4,
    "base_channels": 32,
    "channel_multiplier": [1, 1, 1, 1],
    "num_res_blocks": 0,
    "attn_resolutions": [],
    "hidden_size": 32,
    "num_attention_heads": 2,
    "temporal_downsample_factor": 1,
}


def vocabulary_map() -> dict[str, int]:
    """The image token, the end-of-row token, and each code mapped to one of the last `CODES` shared tokens."""
    codes = {f"<|visual token{code:06d}|>": VOCAB_SIZE - CODES + code for code in range(CODES)}
    return {IMAGE_TOKEN: image_token_id(IMAGE_TOKEN), EOL_TOKEN: EMU3_IDS[EOL_TOKEN], **codes}


def _processor(tokenizer, config):
    from transformers import Emu3ImageProcessor, Emu3Processor

    tokenizer = with_image_tokens(tokenizer)
    tokenizer.add_tokens(list(EMU3_TOKENS), special_tokens=True)
    tokenizer._set_model_specific_special_tokens(special_tokens=EMU3_NAMED)
    images = Emu3ImageProcessor(min_pixels=SIDE * SIDE, max_pixels=SIDE * SIDE, spatial_factor=DOWNSAMPLE)
    return Emu3Processor(image_processor=images, tokenizer=tokenizer)


def _store_vq_in_bfloat16(model) -> None:
    # The VQ-VAE at its least is 0.9 MB in float32; stored in bfloat16 as the vocabulary tables are, and loaded
    # back as float32 (the config's dtype), the checkpoint stays under 1 MB.
    model.model.vqmodel.to(dtype=torch.bfloat16)


#: Emu3: early fusion, each image a grid of VQ-VAE codes read as text tokens (an end-of-row token after each row),
#: on Llama's block; the default task builds `Emu3ForCausalLM` from the same checkpoint.
ENTRIES = (
    Entry(
        "emu3",
        "emu3",
        {
            "text_config": {
                **{key: value for key, value in LLAMA_TEXT.items() if key != "model_type"},
                "vocab_size": WRAPPED_VOCAB + len(EMU3_TOKENS),
            },
            "vq_config": VQ_CONFIG,
            "vocabulary_map": vocabulary_map(),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
        prepare=_store_vq_in_bfloat16,
    ),
)
