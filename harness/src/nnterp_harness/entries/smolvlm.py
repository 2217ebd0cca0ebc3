from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import (
    IMAGE_TOKEN,
    SIGLIP_TOWER,
    WRAPPED_VOCAB,
    ProcessorParts,
    chat_template,
    image_token_id,
    with_image_tokens,
)

#: The connector's pixel shuffle: each image's 4x4 patches become 2x2 image tokens.
SCALE_FACTOR = 2
#: The tower's side and patch, in pixels: Idefics 3's 4x4 grid of patches over a 16-pixel image.
#: Older releases merge the features in blocks of `patch_size` image tokens, so an image's
#: 4 tokens have to be a multiple of the patch side for their forward to run.
SIDE, PATCH = 16, 4
#: The image tokens of one image.
IMAGE_TOKENS = (SIDE // PATCH) ** 2 // SCALE_FACTOR**2
#: The tokens SmolVLM's processor writes around each image and after each turn, by the names it reads them under.
SMOLVLM_TOKENS = {
    "fake_image_token": "<fake_token_around_image>",
    "global_image_token": "<global-img>",
    "end_of_utterance_token": "<end_of_utterance>",
}


def merger_scatter() -> str | None:
    """Why this release's SmolVLM wrapper serves no vision value, or `None`.

    Where `SmolVLMModel` has an `inputs_merger` of its own (the matrix's releases before
    5.24), it writes the features in there, a gather in blocks of `patch_size` image
    tokens with no `masked_scatter` in the forward, so the operation `image_features`
    is read at does not exist; the forward itself runs.
    """
    from transformers.models.smolvlm.modeling_smolvlm import SmolVLMModel

    if not hasattr(SmolVLMModel, "inputs_merger"):
        return None
    return (
        "this transformers release's SmolVLMModel merges the image features in its inputs_merger helper "
        "(a gather in blocks of patch_size tokens), not in a masked_scatter of its forward, "
        "so the family's image_features location does not exist: SourceNotAvailable 'model.model.source' has no "
        "operation 'inputs_embeds_masked_scatter_0'"
    )


def _processor(tokenizer, config):
    from transformers.models.smolvlm.image_processing_pil_smolvlm import SmolVLMImageProcessorPil

    side = config.vision_config.image_size
    tokenizer = with_image_tokens(tokenizer, image_token=IMAGE_TOKEN, **SMOLVLM_TOKENS)
    tokenizer.add_tokens(list(SMOLVLM_TOKENS.values()), special_tokens=True)
    images = SmolVLMImageProcessorPil(
        size={"longest_edge": side}, max_image_size={"longest_edge": side}, do_image_splitting=False
    )
    return ProcessorParts(
        tokenizer,
        images,
        chat_template(IMAGE_TOKEN),
        processor_class="SmolVLMProcessor",
        image_seq_len=IMAGE_TOKENS,
    )


#: SmolVLM: Idefics 3's SigLIP-built tower and pixel-shuffle connector on a Llama text model; the scatter is in
#: the wrapper's forward.
ENTRIES = (
    Entry(
        "smolvlm",
        "smolvlm",
        {
            "text_config": {
                "model_type": "llama",
                **GROUPED_LLAMA_SHAPE,
                "num_hidden_layers": 2,
                "vocab_size": WRAPPED_VOCAB + len(SMOLVLM_TOKENS),
                "tie_word_embeddings": True,
                **special_token_ids(),
            },
            "vision_config": {
                **{k: v for k, v in SIGLIP_TOWER.items() if k != "vision_use_head"},
                "image_size": SIDE,
                "patch_size": PATCH,
            },
            "scale_factor": SCALE_FACTOR,
            "image_token_id": image_token_id(),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
        unserved=merger_scatter,
    ),
)
