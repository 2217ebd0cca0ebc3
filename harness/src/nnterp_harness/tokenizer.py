"""The byte-level BPE tokenizers shared by every harness checkpoint.

Both are trained with the ``tokenizers`` library on :func:`nnterp_harness.corpus.tokenizer_corpus`
and are the same on every run. The decoders' (`build_tokenizer`) has a single special
token, ``<|endoftext|>`` at id 0, which serves as bos, eos, pad and unk, and encoding
adds no special token. The encoders' (`build_encoder_tokenizer`) adds BERT's three
special tokens after it, ``[CLS]`` (1), ``[SEP]`` (2) and ``[MASK]`` (3), and frames
every encoding as ``[CLS] text [SEP]``, as a masked LM's tokenizer does; ``[MASK]`` in
a prompt is the mask token.
"""

from __future__ import annotations

import functools

from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, processors, trainers
from transformers import PreTrainedTokenizerFast

from . import corpus, facts

VOCAB_SIZE = 1024
MODEL_MAX_LENGTH = 512
SPECIAL_TOKEN = "<|endoftext|>"
SPECIAL_ID = 0
#: The encoders' tokens after `SPECIAL_TOKEN`, in id order.
ENCODER_TOKENS = ("[CLS]", "[SEP]", "[MASK]")


@functools.lru_cache(maxsize=2)
def _backend_json(extra: tuple[str, ...] = ()) -> str:
    """Train the backend tokenizer (with `extra` special tokens after `SPECIAL_TOKEN`) once per process, as JSON."""
    backend = Tokenizer(models.BPE(unk_token=SPECIAL_TOKEN))
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    backend.decoder = decoders.ByteLevel()
    backend.post_processor = processors.ByteLevel(trim_offsets=False)
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB_SIZE,
        min_frequency=2,
        special_tokens=[SPECIAL_TOKEN, *extra],
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


def build_encoder_tokenizer() -> PreTrainedTokenizerFast:
    """A fresh masked-LM tokenizer: the BPE backend with `[CLS]`, `[SEP]` and `[MASK]`, framing every encoding."""
    backend = Tokenizer.from_str(_backend_json(ENCODER_TOKENS))
    # The mask token takes the space before it, as RoBERTa's does: "is [MASK]" is "is" then the mask.
    backend.add_special_tokens([AddedToken(ENCODER_TOKENS[2], lstrip=True, special=True)])
    cls, sep = ((token, backend.token_to_id(token)) for token in ENCODER_TOKENS[:2])
    backend.post_processor = processors.Sequence(
        [
            processors.ByteLevel(trim_offsets=False),
            processors.TemplateProcessing(
                single=f"{cls[0]} $A {sep[0]}", pair=f"{cls[0]} $A {sep[0]} $B {sep[0]}", special_tokens=[cls, sep]
            ),
        ]
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=backend,
        pad_token=SPECIAL_TOKEN,
        unk_token=SPECIAL_TOKEN,
        cls_token=ENCODER_TOKENS[0],
        sep_token=ENCODER_TOKENS[1],
        mask_token=ENCODER_TOKENS[2],
        model_max_length=MODEL_MAX_LENGTH,
        padding_side="right",
        clean_up_tokenization_spaces=False,
    )


def encoder_token_ids() -> dict[str, int]:
    """The ids to write into an encoder's config: padding at 0, and the three encoder tokens after it."""
    return {
        "pad_token_id": SPECIAL_ID,
        **{f"{name}_token_id": SPECIAL_ID + 1 + i for i, name in enumerate(("cls", "sep", "mask"))},
    }


def special_token_ids() -> dict[str, int]:
    """The ids to write into a model config and generation config."""
    return {"bos_token_id": SPECIAL_ID, "eos_token_id": SPECIAL_ID, "pad_token_id": SPECIAL_ID}
