"""GLM-4V's text stack, on the wrapper checkpoint: GLM-4's block with a post-norm after each sublayer.

transformers has no causal-LM class for `glm4v_text`, so the GLM-4V and GLM-4.6V
wrapper checkpoints serve its text model.
"""

from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import FamilySuite, rows
from nnterp_harness.vision import processor_of

skip_unless_known("glm4v")


class TestGlm4vText(FamilySuite):
    CHECKPOINT = "glm4v"
    FAMILY = family("glm4v")
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": processor_of("glm4v", "Glm4vProcessor")}
    # One `gate_up_proj` computes the gate and the up half; no module outputs the up half alone.
    NEURONS_FROM_ACTIVATION = False
