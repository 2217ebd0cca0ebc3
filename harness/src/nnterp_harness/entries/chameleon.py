from ..entry import Entry
from ..tokenizer import VOCAB_SIZE
from ..vision import IMAGE_TOKEN, WRAPPED_VOCAB, with_image_tokens
from .llava import LLAMA_TEXT

#: The image side, in pixels: two downsamplings of the VQ-VAE make a 16-pixel image a 4x4 grid of codes.
SIDE = 16
#: The codebook: each code maps to one token of the shared vocabulary.
CODES = 16
#: The image tokens of one image: one per code of its grid.
IMAGE_CODES = (SIDE // 4) ** 2
#: The tokens the processor writes around an image.
CHAMELEON_TOKENS = {"image_token": IMAGE_TOKEN, "boi_token": "<start_of_image>", "eoi_token": "<end_of_image>"}
#: The separator Chameleon's processor appends to a prompt in chat mode, added after the shared image tokens.
SEP_TOKEN = "<reserved08706>"
#: Chameleon's image tokenizer, shrunk: a VQ-VAE encoder of three resolutions, 32 channels (its group norms'
#: least), no residual blocks outside the middle, no attention, and a 16-code codebook.
VQ_CONFIG = {
    "embed_dim": 4,
    "num_embeddings": CODES,
    "latent_channels": 4,
    "resolution": SIDE,
    "base_channels": 32,
    "channel_multiplier": [1, 1, 1],
    "num_res_blocks": 0,
    "attn_type": "none",
}


def _code_name(code: int) -> str:
    # Chameleon names code 12 `IMGIMGBCZ`: each digit written as a letter from A.
    return "IMGIMG" + "".join(chr(ord("A") + int(digit)) for digit in str(code)) + "Z"


def vocabulary_map() -> dict[str, int]:
    """The image token, and each code mapped to one of the last `CODES` tokens of the shared vocabulary."""
    from ..vision import image_token_id

    codes = {_code_name(code): VOCAB_SIZE - CODES + code for code in range(CODES)}
    return {IMAGE_TOKEN: image_token_id(IMAGE_TOKEN), **codes}


def _processor(tokenizer, config):
    from transformers import ChameleonProcessor
    from transformers.models.chameleon.image_processing_pil_chameleon import ChameleonImageProcessorPil

    images = ChameleonImageProcessorPil(size={"shortest_edge": SIDE}, crop_size={"height": SIDE, "width": SIDE})
    tokenizer = with_image_tokens(tokenizer, **CHAMELEON_TOKENS)
    tokenizer.add_special_tokens({"sep_token": SEP_TOKEN})
    # Completion mode where the release reads it off the tokenizer's saved settings (5.24): no separator
    # after a prompt. Earlier releases append it always (5.20) or take the mode only as a call argument.
    tokenizer.init_kwargs["return_for_text_completion"] = True
    return ChameleonProcessor(
        image_processor=images,
        tokenizer=tokenizer,
        image_seq_length=IMAGE_CODES,
        image_token=IMAGE_TOKEN,
    )


def _chameleon(name: str, swin_norm: bool) -> Entry:
    text = {key: value for key, value in LLAMA_TEXT.items() if key != "model_type"}
    return Entry(
        name,
        "chameleon",
        {
            **text,
            "vocab_size": WRAPPED_VOCAB + 1,
            "swin_norm": swin_norm,
            "vq_config": VQ_CONFIG,
            "vocabulary_map": vocabulary_map(),
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    )


#: Chameleon: early fusion, each image a grid of VQ-VAE codes read as text tokens, on a Llama-shaped block with
#: per-head query/key norms; `chameleon` is the pre-norm block, `chameleon_swin` the post-norm (`swin_norm`) one.
ENTRIES = (_chameleon("chameleon", False), _chameleon("chameleon_swin", True))
