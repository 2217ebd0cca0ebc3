"""EXAONE 4.5, end to end: the Qwen2.5 ViT with grouped key/value heads and window attention, its merger as
projector, on EXAONE 4's post-norm text model."""

from nnterp_harness.post_norm import PostNormChecks
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.towers import QwenVisionSuite, WindowOrderChecks
from nnterp_harness.vision import processor_of, prompt_for

skip_unless_known("exaone4_5")
FAMILY = family("exaone4_5")
#: Built from the checkpoint's parts: without torchvision the saved processor cannot load whole.
LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("exaone4_5", "Exaone4_5_Processor")}


class TestExaone4_5Vision(QwenVisionSuite):
    CHECKS = (WindowOrderChecks,)
    CHECKPOINT = "exaone4_5"
    FAMILY = FAMILY
    LOAD_KWARGS = {"processor": LOAD_KWARGS["processor"]}

    def test_the_keys_have_fewer_heads_than_the_queries(self, model):
        box = []
        with model.trace(prompt_for(model), images=self.images(0)):
            attn = model.vision.layers[0].self_attn
            box.append((attn.attention_queries.save(), attn.attention_keys.save()))
        queries, keys = box[0]
        config = model.vision.tower_config
        assert queries.shape[1] == config.num_heads and keys.shape[1] == config.num_key_value_heads < config.num_heads


class TestExaone4_5Text(FamilySuite):
    CHECKS = (PostNormChecks,)
    CHECKPOINT = "exaone4_5"
    FAMILY = FAMILY
    # A post-norm block: no norm feeds either sublayer.
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm", ln1=None, ln2=None)
    LOAD_KWARGS = LOAD_KWARGS
