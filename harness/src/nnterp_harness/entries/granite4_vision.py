from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import IMAGE_TOKEN, SIGLIP_TOWER, WRAPPED_VOCAB, chat_template, image_token_id, with_image_tokens
from .granite import GRANITE_SCALES

#: The Q-Former's window: each 2x2 window of patches becomes one image token.
DOWNSAMPLE_RATE = "1/2"
#: The one any-resolution grid: a square image becomes its resized whole plus one tile of the same side.
GRID = [[SIGLIP_TOWER["image_size"], SIGLIP_TOWER["image_size"]]]
#: The tower's width: the Q-Former takes one head per 64 channels of it, so 64 is the least that builds.
TOWER_WIDTH = 64


def _processor(tokenizer, config):
    from transformers import Granite4VisionProcessor
    from transformers.models.llava_next.image_processing_pil_llava_next import LlavaNextImageProcessorPil

    side = config.vision_config.image_size
    images = LlavaNextImageProcessorPil(
        size={"shortest_edge": side},
        crop_size={"height": side, "width": side},
        image_grid_pinpoints=config.image_grid_pinpoints,
        image_mean=[0.5, 0.5, 0.5],
        image_std=[0.5, 0.5, 0.5],
    )
    return Granite4VisionProcessor(
        image_processor=images,
        tokenizer=with_image_tokens(tokenizer),
        patch_size=config.vision_config.patch_size,
        vision_feature_select_strategy="full",
        downsample_rate=DOWNSAMPLE_RATE,
        chat_template=chat_template(IMAGE_TOKEN),
        image_token=IMAGE_TOKEN,
    )


#: Granite 4 Vision (granite-vision-4.1's layout, shrunk): a SigLIP tower on each image's crops, window Q-Former
#: projectors, and no scatter of a projected image: the image rows enter zeroed and every projector's output is
#: added to them before its text block. The last tower block enters before text block 0, the same block's
#: top-left spatial sample before block 1, and tower block 0 before block 2; three text blocks on Granite's scales
#: and a narrower text width than the tower's.
ENTRIES = (
    Entry(
        "granite4_vision",
        "granite4_vision",
        {
            "text_config": {
                **GROUPED_LLAMA_SHAPE,
                **GRANITE_SCALES,
                "hidden_size": 32,
                "intermediate_size": 48,
                "vocab_size": WRAPPED_VOCAB,
                "tie_word_embeddings": True,
                **special_token_ids(),
            },
            "vision_config": {
                "model_type": "siglip_vision_model",
                **SIGLIP_TOWER,
                "hidden_size": TOWER_WIDTH,
            },
            # No Q-Former layer: one is 0.15 MB at the least width, times six projectors; the projectors keep
            # their norm, window downsampling, learned queries and output projection.
            "qformer_config": {
                # 5.17 leaves these at their full-size defaults; later releases derive them from the tower.
                "hidden_size": TOWER_WIDTH,
                "encoder_hidden_size": TOWER_WIDTH,
                "num_attention_heads": 1,
                "num_hidden_layers": 0,
                "intermediate_size": 16,
                "cross_attention_frequency": 1,
                "max_position_embeddings": 16,
                "use_qformer_text_input": False,
            },
            "image_token_index": image_token_id(),
            "vision_feature_select_strategy": "full",
            "image_grid_pinpoints": GRID,
            "downsample_rate": DOWNSAMPLE_RATE,
            "deepstack_layer_map": [[-1, 0], [-2, 2]],
            "spatial_vision_layer": -1,
            "spatial_target_layers": [1],
            "projector_dropout": 0.0,
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
