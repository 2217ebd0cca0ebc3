"""The byte-level BPE tokenizer shared by every harness checkpoint.

It is trained with the ``tokenizers`` library on :func:`nnterp_harness.corpus.tokenizer_corpus`
and is the same on every run. Its single special token ``<|endoftext|>`` has id 0
and serves as bos, eos, pad and unk. Encoding adds no special token.
"""

from __future__ import annotations

import functools

from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
from transformers import PreTrainedTokenizerFast

from . import corpus, facts

VOCAB_SIZE = 1024
MODEL_MAX_LENGTH = 512
SPECIAL_TOKEN = "<|endoftext|>"
SPECIAL_ID = 0


@functools.lru_cache(maxsize=1)
def _backend_json() -> str:
    """Train the backend tokenizer once per process and keep its JSON form."""
    backend = Tokenizer(models.BPE(unk_token=SPECIAL_TOKEN))
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    backend.decoder = decoders.ByteLevel()
    backend.post_processor = processors.ByteLevel(trim_offsets=False)
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB_SIZE,
        min_frequency=2,
        special_tokens=[SPECIAL_TOKEN],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    backend.train_from_iterator(corpus.tokenizer_corpus(), trainer=trainer)
    _check(backend)
    return backend.to_str()


def _check(backend: Tokenizer) -> None:
    """Refuse a tokenizer that breaks the harness's token-level promises."""
    if backend.token_to_id(SPECIAL_TOKEN) != SPECIAL_ID:
        raise RuntimeError(f"{SPECIAL_TOKEN} must have id {SPECIAL_ID}")
    if backend.get_vocab_size() > VOCAB_SIZE:
        raise RuntimeError(f"vocabulary has {backend.get_vocab_size()} entries, over {VOCAB_SIZE}")
    split = [w for w in facts.answer_words() if len(backend.encode(" " + w).ids) != 1]
    if split:
        raise RuntimeError(f"answer words that are not a single token: {split}")
    probe = backend.encode("The Eiffel Tower is in").ids
    if len(probe) > 7:
        raise RuntimeError(f"'The Eiffel Tower is in' takes {len(probe)} tokens")


def build_tokenizer() -> PreTrainedTokenizerFast:
    """A fresh ``PreTrainedTokenizerFast`` wrapping the trained backend."""
    return PreTrainedTokenizerFast(
        tokenizer_object=Tokenizer.from_str(_backend_json()),
        bos_token=SPECIAL_TOKEN,
        eos_token=SPECIAL_TOKEN,
        pad_token=SPECIAL_TOKEN,
        unk_token=SPECIAL_TOKEN,
        model_max_length=MODEL_MAX_LENGTH,
        padding_side="right",
        clean_up_tokenization_spaces=False,
    )


def special_token_ids() -> dict[str, int]:
    """The ids to write into a model config and generation config."""
    return {"bos_token_id": SPECIAL_ID, "eos_token_id": SPECIAL_ID, "pad_token_id": SPECIAL_ID}
