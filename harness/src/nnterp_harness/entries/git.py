"""GIT (`git`, `GitForCausalLM`): a CLIP-like tower whose projected patches are prepended to the text rows.

The wrapper has no image token: the processor writes only the text, and the model
concatenates the projected image (a CLS row and one row per patch) in front of the
embedded text. `GitProcessor` takes no chat template argument, so the template the
suite's prompts go through is set on the built processor and saved beside it; it
writes nothing for an image item.
"""

from typing import Any

from ..entry import INIT_STD, MAX_POSITIONS, Entry

#: The tower shrunk to two blocks of width 32 over a 32-pixel image of 8-pixel patches: 16 patches and a CLS row.
GIT_VISION: dict[str, Any] = {
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "image_size": 32,
    "patch_size": 8,
    "attention_dropout": 0.0,
    "initializer_range": INIT_STD,
}


def _processor(tokenizer, config):
    from transformers import GitProcessor
    from transformers.models.clip.image_processing_pil_clip import CLIPImageProcessorPil

    from ..vision import chat_template

    side = config.vision_config.image_size
    images = CLIPImageProcessorPil(size={"shortest_edge": side}, crop_size={"height": side, "width": side})
    processor = GitProcessor(image_processor=images, tokenizer=tokenizer)
    # The image enters by concatenation, so the template writes no placeholder for it.
    processor.chat_template = chat_template("")
    return processor


ENTRIES = (
    Entry(
        "git",
        "git",
        {
            "hidden_size": 64,
            "intermediate_size": 96,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "hidden_act": "gelu",
            "hidden_dropout_prob": 0.0,
            "attention_probs_dropout_prob": 0.0,
            "max_position_embeddings": MAX_POSITIONS,
            "initializer_range": INIT_STD,
            "layer_norm_eps": 1e-5,
            "tie_word_embeddings": True,
            "vision_config": GIT_VISION,
        },
        processor=_processor,
    ),
)


def git_processor(checkpoint: str = "git") -> Any:
    """The pinned checkpoint's `GitProcessor` with its saved chat template.

    `GitProcessor.__init__` takes no `chat_template`, so `AutoProcessor` drops the saved
    `chat_template.jinja`; the suite's prompts go through it, so it is set again here.
    """
    from transformers import AutoProcessor

    from .. import locate

    path = locate.checkpoint_path(checkpoint)
    processor = AutoProcessor.from_pretrained(path)
    processor.chat_template = (path / "chat_template.jinja").read_text(encoding="utf-8")
    return processor
