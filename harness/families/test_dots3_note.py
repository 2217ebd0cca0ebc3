"""dots3 note, end to end: a packed ViT with per-image attention and a routed mixture in its second block, its merger
as projector, on the latent-attention mixture text model."""

import torch

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import ROUTED_EXPERTS, FamilySuite, rows
from nnterp_harness.towers import QwenVisionSuite
from nnterp_harness.vision import processor_of, prompt_for

skip_unless_known("dots3_note")
FAMILY = family("dots3_note")
TEXT = family("dots3_note_text")


def _processor():
    from transformers.models.dots3_note.feature_extraction_dots3_note import Dots3NoteFeatureExtractor

    # The audio slot takes a default feature extractor: no test hands the model audio.
    return processor_of("dots3_note", "Dots3NoteProcessor", feature_extractor=Dots3NoteFeatureExtractor())


#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": _processor()}


class TestDots3NoteVision(QwenVisionSuite):
    CHECKPOINT = "dots3_note"
    FAMILY = FAMILY
    TEXT_CLASS = "Dots3NoteForCausalLM"
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

    def test_the_second_block_is_a_routed_mixture(self, model):
        dense, routed = (block.mlp for block in model.vision.layers)
        assert not isinstance(dense, FAMILY.VisionMoe) and isinstance(routed, FAMILY.VisionMoe)
        support = model.vision.support()
        for name in ("mlp.mlp_activation", "mlp.mlp_neurons"):
            assert list(support[name]) == [1] and "routed experts" in support[name][1], support[name]
        assert support["mlp.mlp_output"] is None

    def test_the_merger_projects_2x2_groups_of_the_tower_output(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            last = model.vision.layers[-1].layer_output.save()
            received = model.projector.input.save()
            projected = model.projector.output.save()
            tower = model.vision.tower_output.save()
            features = model.vision.image_features.save()
            box.append((last, received, projected, tower, features))
        last, received, projected, tower, features = box[0]
        # The tower's final norm sits between the last block and the merger.
        assert torch.equal(received, tower[0]) and not torch.equal(tower, last)
        assert torch.equal(projected, features)
        assert features.shape[0] * 4 == tower.shape[1]


class TestDots3NoteText(FamilySuite):
    CHECKPOINT = "dots3_note"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = LOAD_KWARGS
    EXPECTED_UNAVAILABLE = dict(ROUTED_EXPERTS)
    ROUTER_EXTRA_CLASSES = (TEXT.Mlp,)
    PREMIX_IS_HEAD_OUTPUTS = False
    # The values are decompressed from the cached latent as a view out of one split, which torch refuses
    # to edit in place.
    REFUSES_IN_PLACE = ("attention_values",)
