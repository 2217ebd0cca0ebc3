"""The text the harness tokenizer is trained on.

It mixes plain English (a set of written sentences plus sentences assembled
from word lists) with the synthetic facts of :mod:`nnterp_harness.facts`. The
assembly is a fixed enumeration, so the corpus, and hence the tokenizer, is the
same on every run.
"""

from __future__ import annotations

from . import facts

_WRITTEN: tuple[str, ...] = (
    "The sun rises in the east and sets in the west.",
    "She opened the window to let some fresh air into the room.",
    "After the rain stopped, the children went outside to play.",
    "He reads a newspaper every morning before work.",
    "The train was late, so we waited on the platform for an hour.",
    "Water boils at one hundred degrees at sea level.",
    "My grandmother keeps a small garden behind her house.",
    "They decided to walk home because the evening was warm.",
    "A good book can keep you company on a long journey.",
    "The museum opens at nine and closes at five.",
    "Please write your name at the top of the page.",
    "The dog barked loudly when the stranger knocked on the door.",
    "We bought bread, cheese and apples at the market.",
    "The river flows through the valley towards the sea.",
    "It was the coldest winter that anyone could remember.",
    "The students listened carefully while the teacher spoke.",
    "Music was playing softly in the next room.",
    "He forgot his umbrella and came home wet.",
    "The old bridge was built more than two hundred years ago.",
    "On weekends the park is full of families and bicycles.",
    "Can you tell me the way to the station?",
    "I would like a cup of tea with a little milk.",
    "The meeting has been moved to Thursday afternoon.",
    "Birds build their nests in the spring.",
    "The city council plans to repair the main road next year.",
    "Every map shows the rivers, the mountains and the roads.",
    "The light from the lamp made long shadows on the wall.",
    "Nobody knew who had left the letter on the table.",
    "The shop on the corner sells fruit and vegetables.",
    "When the bell rang, everyone left the classroom.",
    "The story ends with the hero returning to his village.",
    "Many people travel abroad during the summer holidays.",
    "The mountain was covered in snow all year long.",
    "She painted the kitchen a bright shade of yellow.",
    "The computer stopped working in the middle of the night.",
    "We watched the boats sail slowly out of the harbour.",
    "His brother works as a doctor in a large hospital.",
    "The first chapter describes a quiet town by the sea.",
    "There is a small cafe next to the library.",
    "The guide showed us the oldest part of the city.",
    "The weather was fine, and the sky was clear and blue.",
    "Visitors from many countries come to see the famous buildings.",
    "The capital of a country is often its largest city, but not always.",
    "A city is a large town where many people live and work.",
    "The tower can be seen from every part of the old town.",
    "The palace has hundreds of rooms and a large garden.",
    "The bridge crosses the river near the centre of the city.",
    "People say that the square is the heart of the city.",
    "The cathedral was finished after many years of work.",
    "She sent a postcard to her parents from her trip.",
    "The number seven comes after six and before eight.",
    "He counted one, two, three, four, five and then stopped.",
    "The recipe asks for two eggs and a cup of flour.",
    "The film was long, but nobody wanted to leave.",
    "Our neighbours are moving to another country next month.",
    "This road leads to the coast, and that one leads to the hills.",
    "The answer to the question was written on the board.",
    "The end of the text is marked so that the reader knows where it stops.",
)

_SUBJECTS: tuple[str, ...] = (
    "the farmer",
    "the teacher",
    "a young girl",
    "my father",
    "the old man",
    "her sister",
    "the doctor",
    "a small boy",
    "our friend",
    "the driver",
    "the writer",
    "the baker",
    "a tired student",
    "his mother",
    "the captain",
)
_VERBS: tuple[str, ...] = (
    "found",
    "carried",
    "painted",
    "opened",
    "cleaned",
    "watched",
    "bought",
    "sold",
    "repaired",
    "described",
    "followed",
    "remembered",
    "noticed",
)
_OBJECTS: tuple[str, ...] = (
    "a wooden box",
    "the red door",
    "an old map",
    "the heavy bag",
    "a new chair",
    "the green boat",
    "a long letter",
    "the broken clock",
    "a white cat",
    "the tall tree",
    "a blue cup",
    "the narrow street",
    "a quiet house",
)
_PLACES: tuple[str, ...] = (
    "in the morning",
    "near the river",
    "after lunch",
    "at the station",
    "before the storm",
    "in the garden",
    "by the window",
    "on the hill",
    "during the summer",
    "at the market",
    "in the evening",
)


def generic_sentences() -> list[str]:
    """Plain English sentences: the written ones, then assembled ones."""
    out = list(_WRITTEN)
    count = len(_SUBJECTS) * len(_VERBS)
    for i in range(count):
        subject = _SUBJECTS[i % len(_SUBJECTS)]
        verb = _VERBS[(i // len(_SUBJECTS)) % len(_VERBS)]
        obj = _OBJECTS[(i * 7) % len(_OBJECTS)]
        place = _PLACES[(i * 5) % len(_PLACES)]
        out.append(f"{subject[0].upper()}{subject[1:]} {verb} {obj} {place}.")
    return out


# The first few sentence openers keep the corpus near two hundred kilobytes while
# still stating every fact in every pattern.
_FACT_OPENERS = 4


def tokenizer_corpus() -> list[str]:
    """The full tokenizer training text, one sentence per line, in a fixed order."""
    return generic_sentences() + facts.fact_sentences(openers=_FACT_OPENERS)
