"""Qwen4-Exp, end to end: a packed Qwen3-style ViT with an axial rotary and per-image attention, its merger as
projector, on the hyper-connection hybrid of an indexed attention block and a gated DeltaNet block.

The text stack runs the text family's own suite (`test_qwen4_exp_text`), its hyper-connection, recurrent and
mixture checks among it, on the wrapper's text model; the image enters the one embedded stream before the model
copies it into every hyper-connection stream.
"""

import pytest
import torch

from nnterp_harness.entries.qwen4_exp_text import indexed_attention_unsupported
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import rows
from nnterp_harness.vision import processor_of, prompt_for

skip_unless_known("qwen4_exp")
FAMILY = family("qwen4_exp")

if reason := indexed_attention_unsupported():
    pytest.skip(reason, allow_module_level=True)

import test_qwen3_5 as qwen3_5  # noqa: E402  - Qwen3.5's tower checks, the same tower layout here
import test_qwen4_exp_text as text_suite  # noqa: E402  - the text family's suite, collected here on the wrapper

#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("qwen4_exp", "Qwen3VLProcessor")}


class TestQwen4ExpVision(qwen3_5.TestQwen3_5Vision):
    CHECKPOINT = "qwen4_exp"
    FAMILY = FAMILY
    TEXT_CLASS = "Qwen4ExpForCausalLM"
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

    def one_stream(self, first):
        return first[:, :, 0]

    def test_every_stream_enters_with_the_image(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            box.append(model.layers[0].layer_input.save())
        first = box[0]
        streams = model.config.get_text_config().hc_count
        assert first.shape[2] == streams > 1
        for stream in range(1, streams):
            assert torch.equal(first[:, :, stream], first[:, :, 0]), f"stream {stream} is not the embedded stream"


class TestQwen4ExpText(text_suite.TestQwen4ExpText):
    CHECKPOINT = "qwen4_exp"
    FAMILY = FAMILY
    NATIVE = rows(
        "model.language_model", "layers", "embed_tokens", "hyper_connection_mixer", attn=None, ln1=None, ln2=None
    )
    LOAD_KWARGS = LOAD_KWARGS

    def mixer_name(self, model, index):
        kind = model.config.get_text_config().layer_types[index]
        return "self_attn" if kind == "indexed_attention" else "linear_attn"

    def test_the_checkpoint_holds_each_block_kind(self, model):
        assert model.config.get_text_config().layer_types == ["indexed_attention", "linear_attention"]
        support = model.support()
        assert support["ple_output"] == {0: "no ple module on this block"}, support["ple_output"]
