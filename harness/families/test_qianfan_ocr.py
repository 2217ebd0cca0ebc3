"""Qianfan-OCR over Qwen3, end to end: InternViT's layer-scaled blocks, a pixel shuffle, the scatter in the model."""

import pytest

import nnterp
from nnterp import StandardizedTransformer
from nnterp.components import VisionLayer
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.towers import InternViTChecks
from nnterp_harness.vision import QUESTION, VisionSuite, processor_of

skip_unless_known("qianfan_ocr")
FAMILY = family("qianfan_ocr")
#: Built from the checkpoint's parts: without torchvision an older release's auto image processor cannot load.
PROCESSOR = processor_of("qianfan_ocr", "QianfanOCRProcessor", video_slot=False)


class TestQianfanOCRVision(VisionSuite):
    CHECKS = (InternViTChecks,)
    CHECKPOINT = "qianfan_ocr"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": PROCESSOR}

    TOWER_ENVOYS = (FAMILY.InternVision, VisionLayer, FAMILY.InternVisionAttention, FAMILY.InternVisionMlp)


class TestQianfanOCRText(FamilySuite):
    CHECKPOINT = "qianfan_ocr"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}

    def test_order_holds_on_every_load(self, model, checkpoint):
        """The dispatched and traced loads agree; the lazy load cannot be built.

        The tower's constructor calls `.item()` on its drop-path schedule, which nnsight's
        meta device cannot answer, so only a dispatched load exists.
        """
        kwargs = {"attn_implementation": "eager", **self.LOAD_KWARGS}
        with pytest.raises(RuntimeError, match="cannot be called on meta tensors"):
            StandardizedTransformer(str(checkpoint), **kwargs)
        fresh = StandardizedTransformer(str(checkpoint), dispatch=True, **kwargs)
        with model.trace(QUESTION):
            model.logits.save()
        model._order_cache.clear()
        for index, block in enumerate(model.layers):
            served = {
                name
                for name, host, attr in nnterp.components.block_values(block)
                if attr.reason(host) is None and not isinstance(attr, nnterp.components.DerivedEProperty)
            }
            assert set(fresh.order(index)) == served
            assert fresh.order(index) == model.order(index)
