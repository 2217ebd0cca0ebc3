"""Every value of every reference family refuses a write of the wrong shape, naming the value and the shape given.

The message leads with the value's standard name, its native module after it.
"""

import re

import pytest
import torch
from bad_input_support import PROMPT, still_runs

from nnterp import StandardizedTransformer

FAMILIES = ["gpt2", "llama", "gpt_neox", "qwen2", "gemma2", "bloom", "opt"]


@pytest.mark.parametrize("name", FAMILIES)
def test_every_value_refuses_a_write_of_the_wrong_shape(path, name):
    from nnterp.components import DerivedEProperty, block_values
    from nnterp.standardized import _root_values

    model = StandardizedTransformer(path(name), dispatch=True, attn_implementation="eager")
    # (host, value, how the message leads: the standard name, then the native module below the root)
    targets = [
        (host, key.rsplit(".", 1)[-1], f"layers[1].{key} (on {host.path})")
        for key, host, attr in block_values(model.layers[1])
        if attr.reason(host) is None and not isinstance(attr, DerivedEProperty)
    ]
    targets += [
        (model, key, key)
        for key, attr in _root_values(type(model)).items()
        if not isinstance(attr, DerivedEProperty) and key != "input_size" and attr.reason(model) is None
    ]
    assert len(targets) > 8
    wrong = torch.zeros(1, 1, 1, 1, 1)
    for host, value, named in targets:
        with pytest.raises(ValueError, match=rf"^{re.escape(named)} is .*\(1, 1, 1, 1, 1\)"):
            with model.trace(PROMPT):
                setattr(host, value, wrong)
    still_runs(model)
