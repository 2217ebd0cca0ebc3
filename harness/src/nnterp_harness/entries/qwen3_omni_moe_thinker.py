from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, image_token_id
from .qwen2_5_omni_thinker import MEL_BINS, THINKER_VOCAB, thinker_processor_parts
from .qwen3_5 import QWEN3_VIT, SIDE

#: Qwen3-Omni's audio tower at its smallest: one encoder layer of width 8 behind three strided convolutions of
#: four channels over `MEL_BINS` bins, projected to the text width. Its chunks are the processor's 100 frames.
AUDIO_TOWER = {
    "num_mel_bins": MEL_BINS,
    "encoder_layers": 1,
    "encoder_attention_heads": 2,
    "encoder_ffn_dim": 16,
    "d_model": 8,
    "downsample_hidden_size": 4,
    "max_source_positions": 64,
    "n_window": 50,
    "output_dim": GROUPED_LLAMA_SHAPE["hidden_size"],
}


def _processor(tokenizer, config):
    parts = thinker_processor_parts(tokenizer, config, side=SIDE)
    parts.settings["processor_class"] = "Qwen3OmniMoeProcessor"
    return parts


def thinker_model_missing() -> str | None:
    """Why this release's thinker has no model between it and its parts, or `None`.

    Before `Qwen3OmniMoeThinkerModel` the thinker holds its text model at `model`, its
    towers beside it, and scatters the features in its own forward: a layout the
    family does not key.
    """
    from transformers.models.qwen3_omni_moe import modeling_qwen3_omni_moe

    if hasattr(modeling_qwen3_omni_moe, "Qwen3OmniMoeThinkerModel"):
        return None
    return (
        "this transformers release has no Qwen3OmniMoeThinkerModel: its thinker holds the text model at `model` "
        "and scatters in its own forward, a layout the qwen3_omni_moe_thinker family does not key"
    )


#: Qwen3-Omni's thinker: Qwen3-VL's ViT with deepstack taps from blocks 0 and 1, its merger as projector, and a
#: one-layer audio tower, on three text blocks whose first two are mixtures of four experts (two per token) and
#: whose last is dense (`mlp_only_layers`).
ENTRIES = (
    Entry(
        "qwen3_omni_moe_thinker",
        "qwen3_omni_moe_thinker",
        {
            "text_config": {
                **GROUPED_LLAMA_SHAPE,
                "num_hidden_layers": 3,
                "head_dim": 16,
                "moe_intermediate_size": 32,
                "num_experts": 4,
                "num_experts_per_tok": 2,
                "mlp_only_layers": [2],
                "vocab_size": THINKER_VOCAB,
                **special_token_ids(),
                "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [4, 2, 2]},
            },
            "vision_config": {**QWEN3_VIT, "deepstack_visual_indexes": [0, 1]},
            "audio_config": AUDIO_TOWER,
            "image_token_id": image_token_id("<|image_pad|>"),
            "video_token_id": image_token_id("<|video_pad|>"),
            "vision_start_token_id": image_token_id("<|vision_start|>"),
            "vision_end_token_id": image_token_id("<|vision_end|>"),
            "audio_token_id": WRAPPED_VOCAB,
            "audio_start_token_id": WRAPPED_VOCAB + 1,
            "audio_end_token_id": WRAPPED_VOCAB + 2,
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
        unserved=thinker_model_missing,
    ),
)
