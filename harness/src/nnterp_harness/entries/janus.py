from ..entry import Entry
from ..vision import IMAGE_TOKEN, chat_template, image_token_id, with_image_tokens
from .llava import LLAMA_TEXT, SIGLIP_PATCHES, SIGLIP_VISION

#: The tokens Janus's processor reads off its tokenizer: the image token, and those it writes around an image.
JANUS_TOKENS = {"image_token": IMAGE_TOKEN, "boi_token": "<start_of_image>", "eoi_token": "<end_of_image>"}
#: Janus's text model: Llama's block at half the shared width, so the VQ-VAE below fits the checkpoint budget.
JANUS_TEXT = {**LLAMA_TEXT, "hidden_size": 32, "intermediate_size": 48}
#: The tower: SigLIP's shape at half its width, so it stays narrower than the text model.
JANUS_VISION = {
    **{key: value for key, value in SIGLIP_VISION.items() if key not in ("model_type", "vision_use_head")},
    "hidden_size": 16,
    "mlp_ratio": 2.0,
    "projection_dim": JANUS_TEXT["hidden_size"],
    "depth": 2,
    "num_image_tokens": SIGLIP_PATCHES,
}
#: Janus's generation side, shrunk: a VQ-VAE of one resolution, 32 channels (its group norms' least), no
#: residual blocks outside the middle, and a small codebook. The tests never generate an image.
VQ_CONFIG = {
    "embed_dim": 4,
    "num_embeddings": 16,
    "latent_channels": 4,
    "base_channels": 32,
    "channel_multiplier": [1],
    "num_res_blocks": 0,
    "num_patches": 4,
    "projection_dim": JANUS_TEXT["hidden_size"],
    "image_token_embed_dim": JANUS_TEXT["hidden_size"],
    "num_hidden_layers": 1,
}


def _processor(tokenizer, config):
    from transformers import JanusProcessor
    from transformers.models.janus.image_processing_pil_janus import JanusImageProcessorPil

    side = config.vision_config.image_size
    return JanusProcessor(
        image_processor=JanusImageProcessorPil(size={"height": side, "width": side}, min_size=8),
        tokenizer=with_image_tokens(tokenizer, **JANUS_TOKENS),
        chat_template=chat_template(IMAGE_TOKEN),
        num_image_tokens=SIGLIP_PATCHES,
    )


#: Janus: a SigLIP-built tower and an MLP aligner on a Llama text model, beside a VQ-VAE for image generation.
ENTRIES = (
    Entry(
        "janus",
        "janus",
        {
            "text_config": JANUS_TEXT,
            "vision_config": JANUS_VISION,
            "vq_config": VQ_CONFIG,
            "image_token_id": image_token_id(IMAGE_TOKEN),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
