"""qwen2_5_omni_text: its text family's suite on the `qwen2_5_omni_thinker` wrapper checkpoint, beside the wrapper's `test_qwen2_5_omni_thinker.py`.

No causal-LM class of the auto mapping builds `qwen2_5_omni_text` alone, so the wrapper checkpoint serves its text stack.
"""

# ruff: noqa: E402  - the imports follow the skip, which must run first on a release without the type

from nnterp_harness.release import skip_unless_known

skip_unless_known("qwen2_5_omni_thinker")

from test_qwen2_5_omni_thinker import FAMILY, PROCESSOR

from nnterp_harness.suite import (
    FamilySuite,
    rows,
)


class TestQwen2_5OmniText(FamilySuite):
    CHECKPOINT = "qwen2_5_omni_thinker"
    FAMILY = FAMILY
    NATIVE = rows("model.language_model", "layers", "embed_tokens", "norm")
    LOAD_KWARGS = {"task": "image-text-to-text", "processor": PROCESSOR}
