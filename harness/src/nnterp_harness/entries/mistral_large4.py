from ..entry import LATENT_ATTENTION_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, chat_template, image_token_id, with_image_tokens
from .lighton_ocr import PIXTRAL_TOKENS
from .llava import PIXTRAL_VISION
from .mistral3 import MERGE, PIXTRAL_PROCESSOR_TOKENS, pixtral_processor_class
from .mistral4 import MISTRAL4_ROPE

#: Mistral Large 4's text model, shrunk: three blocks of latent attention with no query compression. Block 0 (dense
#: MLP) rotates nothing and runs the indexer, keeping 8 keys per query (more than the suite's prompts have, fewer than
#: the long prompt); block 1 (a mixture) reuses its choice; block 2 (a mixture) runs its own indexer and decompresses
#: block 1's latent and rotary key. No later block reuses block 0's latent, so the suite's skip of block 0 runs.
#: The mixture: 8 experts in 4 groups, 2 groups and 2 experts per token, a shared expert.
MISTRAL_LARGE4_TEXT = {
    "model_type": "mistral_large4_text",
    **{key: value for key, value in LATENT_ATTENTION_SHAPE.items() if key != "q_lora_rank"},
    "hidden_size": 64,
    "intermediate_size": 64,
    "moe_intermediate_size": 16,
    "n_routed_experts": 8,
    "n_shared_experts": 1,
    "num_experts_per_tok": 2,
    "n_group": 4,
    "topk_group": 2,
    "routed_scaling_factor": 2.5,
    "num_hidden_layers": 3,
    "first_k_dense_replace": 1,
    "mlp_layer_types": ["dense", "sparse", "sparse"],
    "indexer_types": ["full", "shared", "full"],
    "no_rope_layers": [0, 1, 1],
    "kv_source_layers": [0, 1, 1],
    "index_topk": 8,
    "index_head_dim": 16,
    "index_n_heads": 2,
    "rope_parameters": {key: value for key, value in MISTRAL4_ROPE.items() if key != "llama_4_scaling_beta"},
    "vocab_size": WRAPPED_VOCAB,
    **special_token_ids(),
}


def _processor(tokenizer, config):
    from transformers.models.pixtral.image_processing_pil_pixtral import PixtralImageProcessorPil

    vision = config.vision_config
    images = PixtralImageProcessorPil(
        size={"longest_edge": vision.image_size}, patch_size={"height": vision.patch_size, "width": vision.patch_size}
    )
    return pixtral_processor_class()(
        image_processor=images,
        tokenizer=with_image_tokens(tokenizer),
        patch_size=vision.patch_size,
        spatial_merge_size=config.spatial_merge_size,
        chat_template=chat_template(PIXTRAL_TOKENS["image_token"]),
        **PIXTRAL_PROCESSOR_TOKENS,
    )


def mistral_large4_processor():
    """The pinned checkpoint's `PixtralProcessor`, loaded from its saved files with the PIL image processor."""
    from .. import locate

    return pixtral_processor_class().from_pretrained(locate.checkpoint_path("mistral_large4"))


#: Mistral Large 4: Mistral 3's Pixtral tower, RMS norm, learned 2x2 patch merger and two-layer projector, on the
#: indexed latent-attention mixture text model above; the head's output is softcapped.
ENTRIES = (
    Entry(
        "mistral_large4",
        "mistral_large4",
        {
            "text_config": MISTRAL_LARGE4_TEXT,
            "vision_config": PIXTRAL_VISION,
            "spatial_merge_size": MERGE,
            "vision_feature_layer": -1,
            "image_token_index": image_token_id(PIXTRAL_TOKENS["image_token"]),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)
