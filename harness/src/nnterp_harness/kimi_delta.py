"""`KimiDeltaChecks`: `RecurrentChecks` for a Kimi delta attention hybrid (Kimi-Linear, the Ling hybrid).

A family whose `ENVOYS` hold a `KimiDeltaAttention` runs it in place of `RecurrentChecks`
(`nnterp_harness.contracts`). Every check of `RecurrentChecks` holds as it states it,
the delta rule by hand included (its decay broadcast per key channel); these add the
two things that set KDA apart:

- the mixer is the native `self_attn` of its block, served as `linear_attn` there, and
  `self_attn` is refused on that block while the attention blocks keep theirs;
- `decays` has one value per head and key channel, and they differ along the channels.
"""

from __future__ import annotations

import pytest
import torch

from nnterp.components.kimi_delta import KimiDeltaAttention

from .helpers import run
from .recurrent import RecurrentChecks


class KimiDeltaChecks(RecurrentChecks):
    """Checks for Kimi delta attention blocks; the class it is mixed into is a `FamilySuite`."""

    def test_the_delta_mixer_sits_under_self_attn(self, model):
        index, mix = self.mixer(model)
        block = model.layers[index]
        assert isinstance(mix, KimiDeltaAttention)
        assert mix is block._child_map["self_attn"], "linear_attn is not the block's native self_attn"
        with pytest.raises(AttributeError, match="no self_attn module on this block"):
            block.self_attn  # noqa: B018
        others = [i for i in range(len(model.layers)) if i not in self.mixer_blocks(model)]
        for other in others:
            assert model.layers[other].self_attn is model.layers[other]._child_map["self_attn"]

    def test_decays_are_per_key_channel(self, model, clean):
        index, mix = self.mixer(model)
        decays, betas = run(model, lambda m: (m.layers[index].linear_attn.decays, m.layers[index].linear_attn.betas))
        n = self.n_tokens(clean)
        assert decays.shape == (1, n, mix.heads, mix.key_dim) and betas.shape == (1, n, mix.heads)
        assert bool((decays < 0).all()), "a decay that keeps all of the state or more"
        # A per-head gate would give every key channel of a head the same decay.
        assert not torch.equal(decays[..., :1].expand_as(decays), decays)
