"""ShieldGemma 2 (`shieldgemma2`): a Gemma 3 wrapper checkpoint, built as `Gemma3ForConditionalGeneration`.

Its image-text-to-text load builds `Gemma3ForConditionalGeneration` from the ShieldGemma 2
checkpoint, and so does a default-task load (with no processor), so it is served as
Gemma 3's wrapper (`nnterp.families.gemma3`): the text stack under
`model.language_model`, the SigLIP tower (`vision`) with its `post_layernorm` as `norm`,
the pooling projector, and the scatter in `Gemma3Model`. The head's output is not
softcapped, and neither is `project_on_vocab`'s.
"""

from nnterp.families import gemma3

RENAME = gemma3.RENAME

#: Gemma 3's logit lens, which softcaps on the causal LM only.
project_on_vocab = gemma3.project_on_vocab

ENVOYS = gemma3.ENVOYS
