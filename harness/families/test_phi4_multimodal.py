"""Phi-4-multimodal, end to end: Phi-3's block; the one class serves every task.

transformers maps the type to no image-text-to-text class, so a load with
`task="image-text-to-text"` builds `Phi4MultimodalForCausalLM` too, with a warning. Its
image processor exists only as a torchvision class, so no processor is built here.
"""

import torch
from transformers import AutoTokenizer

from nnterp import StandardizedTransformer
from nnterp_harness import locate
from nnterp_harness.release import family, skip_unless_known
from nnterp_harness.suite import LLAMA_ROWS, FamilySuite, run

skip_unless_known("phi4_multimodal")
FAMILY = family("phi4_multimodal")


class TestPhi4MultimodalDefaultTask(FamilySuite):
    CHECKPOINT = "phi4_multimodal"
    FAMILY = FAMILY
    NATIVE = LLAMA_ROWS
    # One `gate_up_proj` computes the gate and the up half; no module outputs the up half alone.
    NEURONS_FROM_ACTIVATION = False

    def test_the_default_task_builds_the_one_class(self, model):
        assert type(model._module).__name__ == "Phi4MultimodalForCausalLM"
        assert isinstance(model._module.model.embed_tokens_extend, torch.nn.Module)
        assert not {"vision", "projector"} & set(model._aliases)
        assert not [name for name in model.support() if name.startswith("vision")]

    def test_neurons_are_the_activated_gate_times_the_up_half(self, model):
        def body(m):
            mlp = m.layers[0].mlp
            return mlp.gate_up_proj.output, mlp.mlp_activation, mlp.mlp_neurons

        fused, activation, neurons = run(model, body)
        _, up = fused.chunk(2, dim=-1)
        assert torch.equal(neurons, up * activation), "mlp_neurons is not up * act(gate)"

    def test_the_image_text_to_text_load_builds_the_same_class(self, model):
        # Its image processor exists only as a torchvision class, so the tokenizer stands in for the processor.
        path = locate.checkpoint_path("phi4_multimodal")
        tokenizer = AutoTokenizer.from_pretrained(path)
        wrapper = StandardizedTransformer(str(path), task="image-text-to-text", processor=tokenizer, dispatch=True)
        assert type(wrapper._module).__name__ == "Phi4MultimodalForCausalLM"
        assert wrapper.family is FAMILY
        assert wrapper._aliases == model._aliases
        assert not [name for name in wrapper.support() if name.startswith("vision")]
