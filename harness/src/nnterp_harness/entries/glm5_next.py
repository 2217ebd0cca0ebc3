from ..entry import GROUPED_TOP_K_SHAPE, INIT_STD, MAX_POSITIONS, Entry, redraw_by_name
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, image_token_id
from .glm4v import GLM_VISION_TOKENS, SIDE, glm_processor


def release_named_layer_types(model) -> None:
    """Save the indexed blocks as `full_attention`, the one name every release reads as its own (5.24 writes
    back `indexed_attention`, which 5.17 rejects), and draw the weights by name: the releases initialise the
    modules in another order, which shifts the shared random stream."""
    text = model.config.text_config
    text.layer_types = [
        "linear_attention" if kind == "linear_attention" else "full_attention" for kind in text.layer_types
    ]
    redraw_by_name(model)


#: GLM-5.3-Flash's text model in miniature, inside two hyper-connection streams: an indexed latent attention block
#: (no rotary part, its own indexer keeping 4 pools of 2 keys plus the unfinished tail per query) with the dense
#: MLP, an indexed block that reuses that choice with a grouped mixture of 8 experts in 4 groups and a shared
#: expert, then a forget-gated linear attention block with the dense MLP.
GLM5_NEXT_TEXT = {
    **GROUPED_TOP_K_SHAPE,
    "vocab_size": WRAPPED_VOCAB,
    **special_token_ids(),
    "hidden_size": 64,
    "intermediate_size": 64,
    "moe_intermediate_size": 16,
    "n_routed_experts": 8,
    "n_shared_experts": 1,
    "num_hidden_layers": 3,
    # `full_attention` for the indexed blocks: 5.17 names them `deepseek_sparse_attention` and later releases
    # `indexed_attention`, each rejects the other's name, and each reads `full_attention` as its own.
    "layer_types": ["full_attention", "full_attention", "linear_attention"],
    "indexer_types": ["full", "shared", "full"],
    "mlp_layer_types": ["dense", "sparse", "dense"],
    "num_attention_heads": 4,
    "num_key_value_heads": 4,
    "q_lora_rank": 32,
    "kv_lora_rank": 32,
    "qk_rope_head_dim": 0,
    "qk_nope_head_dim": 16,
    "v_head_dim": 16,
    "index_topk": 8,
    "index_kpool": 2,
    "index_head_dim": 16,
    "index_n_heads": 2,
    "linear_num_heads": 4,
    "linear_head_dim": 16,
    "linear_conv_kernel_dim": 4,
    "hc_mult": 2,
    "hc_sinkhorn_iters": 3,
    "max_position_embeddings": MAX_POSITIONS,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
}

#: The GLM-5.3-Flash ViT shrunk: two blocks of width 16 over 8-pixel patches (an axial rotary over each patch's row
#: and column, no position grid), a block MLP 48 wide, merged 2x2 by the downsample convolution to the text width and
#: projected by a merger 48 wide.
GLM5_NEXT_VIT = {
    "depth": 2,
    "hidden_size": 16,
    "intermediate_size": 48,
    "num_heads": 2,
    "patch_size": 8,
    "image_size": SIDE,
    "spatial_merge_size": 2,
    "temporal_patch_size": 2,
    "out_hidden_size": GLM5_NEXT_TEXT["hidden_size"],
    "projection_intermediate_size": 48,
    "rope_parameters": {"rope_type": "axial", "rope_theta": 10000.0},
}

#: GLM-5.3-Flash: the ViT with its merger as projector, on the hyper-connection hybrid. An image and a video share
#: one placeholder, told apart by the video's start and end tokens, which the prompts never hold.
ENTRIES = (
    Entry(
        "glm5_next",
        "glm5_next",
        {
            "text_config": GLM5_NEXT_TEXT,
            "vision_config": GLM5_NEXT_VIT,
            **GLM_VISION_TOKENS,
            "video_token_id": image_token_id("<|image_pad|>"),
            "video_start_token_id": image_token_id("<start_of_image>"),
            "video_end_token_id": image_token_id("<end_of_image>"),
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=glm_processor(SIDE, "Glm5NextImageProcessorPil", "glm5_next"),
        prepare=release_named_layer_types,
    ),
)
