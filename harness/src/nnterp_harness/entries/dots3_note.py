from ..entry import Entry
from ..tokenizer import special_token_ids
from ..vision import ADDED_TOKENS, WRAPPED_VOCAB, ProcessorParts, chat_template, image_token_id, with_image_tokens
from .dots3_note_text import DOTS3_TEXT_SHAPE

#: The image side, in pixels: two merged 2x2 groups of 8-pixel patches on each side.
SIDE = 32
#: The placeholders `Dots3NoteProcessor` names outright, added after the shared wrapper tokens.
DOTS3_TOKENS = ("<|imgpad|>", "<|audio_comp_pad|>")


def _processor(tokenizer, config):
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil

    tokenizer = with_image_tokens(tokenizer)
    tokenizer.add_special_tokens({"additional_special_tokens": [*ADDED_TOKENS, *DOTS3_TOKENS]})
    vision = config.vision_config
    # The tower embeds single frames: one patch is `num_channels x patch_size x patch_size` pixels.
    images = Qwen2VLImageProcessorPil(
        min_pixels=SIDE * SIDE,
        max_pixels=SIDE * SIDE,
        patch_size=vision.patch_size,
        temporal_patch_size=1,
        merge_size=vision.spatial_merge_size,
    )
    return ProcessorParts(tokenizer, images, chat_template(DOTS3_TOKENS[0]))


#: dots3 note's tower in miniature: a dense block, then a block whose MLP is a routed mixture (4 experts, top 2).
DOTS3_VIT = {
    "hidden_size": 16,
    "intermediate_size": 32,
    "moe_intermediate_size": 16,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "patch_size": 8,
    "spatial_merge_size": 2,
    "mlp_layer_types": ["dense", "sparse"],
    "per_layer_config": {1: {"num_local_experts": 4, "num_experts_per_tok": 2}},
    "router_scaling_factor": 2.0,
    "adapter_in_dim": 16,
    "adapter_out_dim": DOTS3_TEXT_SHAPE["hidden_size"],
    "adapter_merge_size": 2,
}

#: The audio tower shrunk to one block; nothing serves it, it only has to build small.
DOTS3_AUDIO = {
    "hidden_size": 16,
    "intermediate_size": 32,
    "num_hidden_layers": 1,
    "num_attention_heads": 2,
    "feature_size": 16,
    "downsample_hidden_size": 8,
    "max_position_embeddings": 64,
    "adapter_input_size": 16,
    "adapter_out_dim": DOTS3_TEXT_SHAPE["hidden_size"],
}

#: dots3 note: a packed ViT (routed mixtures in its later blocks), its merger as projector, on the latent-attention
#: mixture text model; the audio tower is built but never run.
ENTRIES = (
    Entry(
        "dots3_note",
        "dots3_note",
        {
            "text_config": {
                **DOTS3_TEXT_SHAPE,
                "vocab_size": WRAPPED_VOCAB + len(DOTS3_TOKENS),
                **special_token_ids(),
            },
            "vision_config": DOTS3_VIT,
            "audio_config": DOTS3_AUDIO,
            "image_token_id": WRAPPED_VOCAB,
            "audio_token_id": WRAPPED_VOCAB + 1,
            "video_token_id": image_token_id("<|video_pad|>"),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
