from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import IMAGE_TOKEN, WRAPPED_VOCAB, ProcessorParts, chat_template, image_token_id, with_image_tokens
from .gemma import ENTRIES as GEMMA
from .llava import SIGLIP_PATCHES, SIGLIP_VISION


def _processor(tokenizer, config):
    from transformers.models.siglip.image_processing_pil_siglip import SiglipImageProcessorPil

    side = config.vision_config.image_size
    images = SiglipImageProcessorPil(size={"height": side, "width": side})
    # The processor reads the image tokens per image off its image processor.
    images.image_seq_length = SIGLIP_PATCHES
    # Saved as parts: the processor adds its 1152 location and segmentation tokens to the
    # tokenizer on every load, and saving them would ask the tiny vocabulary for rows.
    return ProcessorParts(
        with_image_tokens(tokenizer, image_token=IMAGE_TOKEN),
        images,
        chat_template(IMAGE_TOKEN),
        processor_class="PaliGemmaProcessor",
    )


#: PaliGemma: a SigLIP tower, a linear projector, on a Gemma text model that attends both ways over the prompt.
ENTRIES = (
    Entry(
        "paligemma",
        "paligemma",
        {
            "text_config": {
                "model_type": "gemma",
                **GEMMA[0].overrides,
                "num_hidden_layers": 2,
                "vocab_size": WRAPPED_VOCAB,
                **special_token_ids(),
            },
            "vision_config": SIGLIP_VISION,
            "projection_dim": GEMMA[0].overrides["hidden_size"],
            "image_token_id": image_token_id(),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
