from ..entry import INIT_STD, MAX_POSITIONS, Entry
from ..tokenizer import special_token_ids
from ..vision import WRAPPED_VOCAB, ProcessorParts, chat_template
from .muse_glimmer import IMAGE_SETTINGS, MARKERS, MUSE_TOWER, MuseImages, muse_processor, with_markers

#: The audio token `MuseSparkProcessor` reads off its tokenizer; it follows Muse Glimmer's markers.
AUDIO_TOKEN = "<|audio|>"
#: The wrapper's text vocabulary: Muse Glimmer's plus `AUDIO_TOKEN`.
SPARK_VOCAB = WRAPPED_VOCAB + len(MARKERS) + 1

#: The Muse Spark text model shrunk: two sandwich blocks whose adds gate the stream and the contribution per
#: channel, grouped gated heads with a weightless norm on their outputs, block 0 a dense MLP and sliding-window, block
#: 1 a sigmoid mixture of four experts run at a pooled width and full attention without rotary (NoPE); the head's
#: output scaled and softcapped, and not tied to the embedding (the wrapper does not tie them).
SPARK_TEXT = {
    "hidden_size": 48,
    "intermediate_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "num_key_value_heads": 1,
    "head_dim": 16,
    "max_position_embeddings": MAX_POSITIONS,
    "sliding_window": 128,
    "final_logit_softcapping": 20.0,
    "output_multiplier": 0.5,
    "moe_intermediate_size": 16,
    "moe_hidden_size": 24,
    "num_local_experts": 4,
    "num_experts_per_tok": 2,
    "mlp_layer_types": ["dense", "sparse"],
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
    "vocab_size": SPARK_VOCAB,
    **special_token_ids(),
}
#: The waveform tower shrunk to two stages of one convolution block each, two samples per patch at each stage.
SPARK_AUDIO = {
    "patch_sizes": [2, 2],
    "hidden_sizes": [8, 16],
    "depths": [1, 1],
    "num_hidden_layers": 2,
    "conv_kernel_size": 3,
    "out_hidden_size": SPARK_TEXT["hidden_size"],
    "initializer_range": INIT_STD,
}


def _processor(tokenizer, config):
    tokenizer = with_markers(tokenizer)
    tokenizer.add_tokens([AUDIO_TOKEN], special_tokens=True)
    return ProcessorParts(
        tokenizer, MuseImages(**IMAGE_SETTINGS), chat_template(MARKERS[0]), processor_class="MuseSparkProcessor"
    )


#: Muse Spark: Muse Glimmer's tower and projector, a waveform audio tower, on a text model with per-channel gated
#: residual adds and a pooled-width sigmoid mixture.
ENTRIES = (
    Entry(
        "muse_spark",
        "muse_spark",
        {
            "text_config": SPARK_TEXT,
            "vision_config": MUSE_TOWER,
            "audio_config": SPARK_AUDIO,
            "out_hidden_size": MUSE_TOWER["hidden_size"] * MUSE_TOWER["merge_size"] ** 2,
            "projector_hidden_size": 32,
            "image_token_id": WRAPPED_VOCAB,
            "video_token_id": WRAPPED_VOCAB + 3,
            "audio_token_id": WRAPPED_VOCAB + len(MARKERS),
        },
        auto_class="AutoModelForImageTextToText",
        processor=_processor,
    ),
)


def muse_spark_processor():
    """The wrapper's processor: Muse Glimmer's parts, and a feature extractor sized to the checkpoint's audio tower."""
    import json

    from transformers.models.muse_spark.feature_extraction_muse_spark import MuseSparkFeatureExtractor

    from .. import locate

    path = locate.checkpoint_path("muse_spark")
    audio = json.loads((path / "config.json").read_text(encoding="utf-8"))["audio_config"]
    samples = 1
    for size in audio["patch_sizes"]:
        samples *= size
    extractor = MuseSparkFeatureExtractor(samples_per_token=samples)
    return muse_processor("muse_spark", "MuseSparkProcessor", feature_extractor=extractor)
