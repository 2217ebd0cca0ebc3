from ..entry import Entry
from ..tokenizer import build_tokenizer, special_token_ids
from ..vision import WRAPPED_VOCAB, ProcessorParts, chat_template, image_token_id, processor_of, with_image_tokens
from .qwen3_5 import MROPE
from .qwen3_5_text import QWEN3_5_SHAPE

#: The image side, in pixels: an 8x8 grid of 8-pixel patches, which the tower's window merger takes to 4x4 and the
#: projector to 2x2, four image tokens.
SIDE = 64

#: The wrapper's marker tokens, named as the processor reads them off its tokenizer, each one of the added tokens.
MARKERS = {
    "image_token": "<|image_pad|>",
    "video_token": "<|video_pad|>",
    "image_start_token": "<image>",
    "image_end_token": "<end_of_image>",
    "slice_start_token": "<|vision_start|>",
    "slice_end_token": "<|vision_end|>",
    "image_id_start_token": "<start_of_image>",
    "image_id_end_token": "<image_soft_token>",
}

#: MiniCPM-V 4.7's NaViT tower shrunk: two blocks of width 16 over 8-pixel patches, a 4x4 learned position grid
#: resampled to each image, and the 2x2 window-attention merger after block 0, so block 1 runs on a quarter of the
#: patches.
MINICPM_TOWER = {
    "hidden_size": 16,
    "intermediate_size": 32,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "image_size": 32,
    "patch_size": 8,
    "window_kernel_size": [2, 2],
    "attention_dropout": 0.0,
}


def minicpm_processor(tokenizer, config):
    """The processor's parts: the marker tokens named, the PIL image processor over `SIDE`-pixel images."""
    from transformers.models.minicpmv4_6.image_processing_pil_minicpmv4_6 import MiniCPMV4_6ImageProcessorPil

    images = MiniCPMV4_6ImageProcessorPil(
        patch_size=config.vision_config.patch_size,
        scale_resolution=SIDE,
        downsample_mode=config.downsample_mode,
    )
    return ProcessorParts(with_image_tokens(tokenizer, **MARKERS), images, chat_template(MARKERS["image_token"]))


class NoVideos:
    """The processor's video slot without a video processor: transformers has MiniCPM-V's only as a torchvision class.

    The processor reads its slicing and downsampling settings when it is built and
    never calls it for images.
    """

    slice_mode = False
    downsample_mode = "16x"


def images_only_processor():
    """The checkpoint's processor, built from its parts with `NoVideos` in the video slot."""
    from transformers import ProcessorMixin

    check = ProcessorMixin.check_argument_for_proper_class

    def lenient(self, name, argument):
        return None if isinstance(argument, NoVideos) else check(self, name, argument)

    ProcessorMixin.check_argument_for_proper_class = lenient
    try:
        return processor_of("minicpmv4_7", "MiniCPMV4_7Processor", video_slot=False, video_processor=NoVideos())
    finally:
        ProcessorMixin.check_argument_for_proper_class = check


def _marker_ids() -> dict[str, int]:
    """The config's ids of the image markers and of the newline that ends a row of slices."""
    newline = build_tokenizer().encode("\n")
    assert len(newline) == 1, newline
    return {
        "image_token_id": image_token_id(MARKERS["image_token"]),
        "video_token_id": image_token_id(MARKERS["video_token"]),
        "image_start_id": image_token_id(MARKERS["image_start_token"]),
        "image_end_id": image_token_id(MARKERS["image_end_token"]),
        "slice_start_id": image_token_id(MARKERS["slice_start_token"]),
        "slice_end_id": image_token_id(MARKERS["slice_end_token"]),
        "newline_id": newline[0],
    }


#: MiniCPM-V 4.7: the NaViT tower with its window merger, the 2x2 merging projector, on the Qwen3.5 hybrid text model
#: under the canvas multimodal rotary embedding.
ENTRIES = (
    Entry(
        "minicpmv4_7",
        "minicpmv4_7",
        {
            "text_config": {
                **QWEN3_5_SHAPE,
                "vocab_size": WRAPPED_VOCAB,
                **special_token_ids(),
                "rope_parameters": MROPE,
            },
            "vision_config": MINICPM_TOWER,
            "insert_layer_id": 0,
            "image_size": SIDE,
            **_marker_ids(),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=minicpm_processor,
    ),
)
