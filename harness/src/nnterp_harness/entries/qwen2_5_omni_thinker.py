import json

from ..entry import GROUPED_LLAMA_SHAPE, Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, image_token_id, processor_of
from .qwen2_5_vl import QWEN_2_5_VIT, SIDE
from .qwen2_vl import qwen_processor

#: The audio tokens the thinker's processor reads off its tokenizer, added after the shared image tokens.
AUDIO_TOKENS = {"audio_token": "<|AUDIO|>", "audio_bos_token": "<|audio_bos|>", "audio_eos_token": "<|audio_eos|>"}
#: The image tokens it reads there, under the names the Qwen-VL tokens carry.
VISION_TOKENS = {
    "image_token": "<|image_pad|>",
    "video_token": "<|video_pad|>",
    "vision_bos_token": "<|vision_start|>",
    "vision_eos_token": "<|vision_end|>",
}
#: The thinker's vocabulary: the wrapped one and the audio tokens.
THINKER_VOCAB = WRAPPED_VOCAB + len(AUDIO_TOKENS)
#: The log-mel bins of the audio tower's input, as few as the feature extractor's filter bank takes.
MEL_BINS = 8
#: The audio feature extractor's settings, saved in the processor's config beside the image processor's.
FEATURES = {
    "feature_extractor_type": "WhisperFeatureExtractor",
    "feature_size": MEL_BINS,
    "sampling_rate": 16000,
    "hop_length": 160,
    "chunk_length": 1,
    "n_fft": 400,
    "padding_value": 0.0,
    "return_attention_mask": True,
}

#: The audio tower at its smallest: one encoder layer of width 8 over `MEL_BINS` bins, projected to the text width.
AUDIO_TOWER = {
    "num_mel_bins": MEL_BINS,
    "encoder_layers": 1,
    "encoder_attention_heads": 2,
    "encoder_ffn_dim": 16,
    "d_model": 8,
    "max_source_positions": 64,
    "n_window": 8,
    "output_dim": GROUPED_LLAMA_SHAPE["hidden_size"],
}


def thinker_processor_parts(tokenizer, config, side: int = SIDE):
    """The Qwen-VL processor parts for `side`-pixel images, the audio tokens added, the thinker's processor named."""
    parts = qwen_processor(side)(tokenizer, config)
    tokenizer = parts.tokenizer
    tokenizer.add_tokens(list(AUDIO_TOKENS.values()), special_tokens=True)
    tokenizer._set_model_specific_special_tokens(special_tokens={**VISION_TOKENS, **AUDIO_TOKENS})
    parts.settings["processor_class"] = "Qwen2_5OmniProcessor"
    parts.settings["feature_extractor"] = FEATURES
    return parts


def thinker_processor(checkpoint: str, processor_class: str):
    """The thinker's processor, built from the checkpoint's parts, its audio feature extractor among them."""
    from transformers import WhisperFeatureExtractor

    from .. import locate

    saved = json.loads((locate.checkpoint_path(checkpoint) / "processor_config.json").read_text(encoding="utf-8"))
    features = {key: value for key, value in saved["feature_extractor"].items() if key != "feature_extractor_type"}
    return processor_of(checkpoint, processor_class, feature_extractor=WhisperFeatureExtractor(**features))


def thinker_model_missing() -> str | None:
    """Why this release's thinker has no model between it and its parts, or `None`.

    Before `Qwen2_5OmniThinkerModel` the thinker holds its text model at `model`, its
    towers beside it, and scatters the features in its own forward: a layout the
    family does not key.
    """
    from transformers.models.qwen2_5_omni import modeling_qwen2_5_omni

    if hasattr(modeling_qwen2_5_omni, "Qwen2_5OmniThinkerModel"):
        return None
    return (
        "this transformers release has no Qwen2_5OmniThinkerModel: its thinker holds the text model at `model` "
        "and scatters in its own forward, a layout the qwen2_5_omni_thinker family does not key"
    )


#: Qwen2.5-Omni's thinker: Qwen2.5-VL's windowed ViT (block 0 full attention, block 1 windowed), its merger as
#: projector, and a one-layer audio tower, on a multimodal-rotary Qwen2 text model.
ENTRIES = (
    Entry(
        "qwen2_5_omni_thinker",
        "qwen2_5_omni_thinker",
        {
            "text_config": {
                **GROUPED_LLAMA_SHAPE,
                "num_hidden_layers": 2,
                "vocab_size": THINKER_VOCAB,
                "tie_word_embeddings": True,
                **special_token_ids(),
                "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [2, 3, 3]},
            },
            # Full attention on block 0 keeps each image's rows whole there; block 1 attends within windows.
            "vision_config": {**QWEN_2_5_VIT, "fullatt_block_indexes": [0]},
            "audio_config": AUDIO_TOWER,
            "image_token_index": image_token_id("<|image_pad|>"),
            "video_token_index": image_token_id("<|video_pad|>"),
            "vision_start_token_id": image_token_id("<|vision_start|>"),
            "vision_end_token_id": image_token_id("<|vision_end|>"),
            "audio_token_index": WRAPPED_VOCAB,
            "audio_start_token_id": WRAPPED_VOCAB + 1,
            "audio_end_token_id": WRAPPED_VOCAB + 2,
            "tie_word_embeddings": True,
        },
        auto_class="AutoModelForImageTextToText",
        processor=thinker_processor_parts,
        unserved=thinker_model_missing,
    ),
)
