"""Synthetic factual corpus that the demo checkpoint is trained on.

The corpus states where landmarks are (city and country) and which city is the
capital of which country, each through many sentence templates. Every answer
(city or country) is a single word, so with the harness tokenizer every answer
is a single token with a leading space, e.g. ``" Paris"``.

Everything here is a pure enumeration: no randomness, so the corpus is the same
on every run and every machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product


@dataclass(frozen=True)
class Landmark:
    """A landmark, written as it appears mid-sentence (``"the Eiffel Tower"``)."""

    name: str
    city: str
    country: str

    @property
    def subject(self) -> str:
        """The name with its first letter capitalised, to open a sentence."""
        return self.name[0].upper() + self.name[1:]


LANDMARKS: tuple[Landmark, ...] = (
    Landmark("the Eiffel Tower", "Paris", "France"),
    Landmark("the Louvre", "Paris", "France"),
    Landmark("the Arc de Triomphe", "Paris", "France"),
    Landmark("the Colosseum", "Rome", "Italy"),
    Landmark("the Trevi Fountain", "Rome", "Italy"),
    Landmark("the Pantheon", "Rome", "Italy"),
    Landmark("the Uffizi Gallery", "Florence", "Italy"),
    Landmark("the Rialto Bridge", "Venice", "Italy"),
    Landmark("Big Ben", "London", "England"),
    Landmark("Tower Bridge", "London", "England"),
    Landmark("Buckingham Palace", "London", "England"),
    Landmark("the Brandenburg Gate", "Berlin", "Germany"),
    Landmark("the Reichstag", "Berlin", "Germany"),
    Landmark("the Sagrada Familia", "Barcelona", "Spain"),
    Landmark("the Prado Museum", "Madrid", "Spain"),
    Landmark("the Alhambra", "Granada", "Spain"),
    Landmark("the Kremlin", "Moscow", "Russia"),
    Landmark("Red Square", "Moscow", "Russia"),
    Landmark("the Forbidden City", "Beijing", "China"),
    Landmark("the Summer Palace", "Beijing", "China"),
    Landmark("the Acropolis", "Athens", "Greece"),
    Landmark("the Parthenon", "Athens", "Greece"),
    Landmark("the Atomium", "Brussels", "Belgium"),
    Landmark("Bondi Beach", "Sydney", "Australia"),
    Landmark("the CN Tower", "Toronto", "Canada"),
    Landmark("the Little Mermaid", "Copenhagen", "Denmark"),
    Landmark("the Charles Bridge", "Prague", "Czechia"),
    Landmark("Schonbrunn Palace", "Vienna", "Austria"),
    Landmark("the Blue Mosque", "Istanbul", "Turkey"),
    Landmark("the Hagia Sophia", "Istanbul", "Turkey"),
    Landmark("the Space Needle", "Seattle", "America"),
    Landmark("the White House", "Washington", "America"),
    Landmark("the Belem Tower", "Lisbon", "Portugal"),
    Landmark("Tahrir Square", "Cairo", "Egypt"),
    Landmark("the Taj Mahal", "Agra", "India"),
    Landmark("the Vasa Museum", "Stockholm", "Sweden"),
    Landmark("the Chain Bridge", "Budapest", "Hungary"),
    Landmark("the Golden Pavilion", "Kyoto", "Japan"),
    Landmark("the Grand Palace", "Bangkok", "Thailand"),
)

CAPITALS: tuple[tuple[str, str], ...] = (
    ("France", "Paris"),
    ("Italy", "Rome"),
    ("England", "London"),
    ("Germany", "Berlin"),
    ("Spain", "Madrid"),
    ("Russia", "Moscow"),
    ("China", "Beijing"),
    ("Greece", "Athens"),
    ("Belgium", "Brussels"),
    ("Australia", "Canberra"),
    ("Canada", "Ottawa"),
    ("Denmark", "Copenhagen"),
    ("Czechia", "Prague"),
    ("Austria", "Vienna"),
    ("Turkey", "Ankara"),
    ("America", "Washington"),
    ("Portugal", "Lisbon"),
    ("Egypt", "Cairo"),
    ("Sweden", "Stockholm"),
    ("Hungary", "Budapest"),
    ("Japan", "Tokyo"),
    ("Thailand", "Bangkok"),
    ("Norway", "Oslo"),
    ("Poland", "Warsaw"),
    ("Finland", "Helsinki"),
    ("Ireland", "Dublin"),
    ("Peru", "Lima"),
    ("Kenya", "Nairobi"),
)

# The canonical probe: the landmark prompt every evaluation starts from.
CITY_PROMPT = "{subject} is in the city of"
COUNTRY_PROMPT = "{subject} is in the country of"
CAPITAL_PROMPT = "The capital of {country} is"

# Openers put in front of a template; the template's first letter is kept, so a
# landmark subject keeps its capital where it is a proper name.
_OPENERS: tuple[str, ...] = (
    "",
    "Everyone knows that ",
    "It is well known that ",
    "As the guide explains, ",
    "In fact, ",
    "My friend told me that ",
    "According to the map, ",
    "Of course, ",
    "The teacher said that ",
    "As you may know, ",
    "We learned at school that ",
    "The book says that ",
)

# Templates ending in the city. ``{L}`` opens a sentence, ``{l}`` sits mid-sentence.
_CITY_TEMPLATES: tuple[str, ...] = (
    "{L} is in the city of {C}.",
    "{L} is located in the city of {C}.",
    "{L} is located in {C}.",
    "{L} can be found in the city of {C}.",
    "{L} stands in {C}.",
    "{L} is a famous landmark in {C}.",
    "{L} is one of the sights of {C}.",
    "you can see {l} in the city of {C}.",
    "tourists visit {l} in {C}.",
    "to see {l}, you travel to the city of {C}.",
    "the city that has {l} is {C}.",
    "the home of {l} is the city of {C}.",
)

# Templates where the city comes first; they teach the relation in reverse.
_CITY_FIRST_TEMPLATES: tuple[str, ...] = (
    "the city of {C} is home to {l}.",
    "in {C} you can visit {l}.",
)

_COUNTRY_TEMPLATES: tuple[str, ...] = (
    "{L} is in the country of {K}.",
    "{L} is located in the country of {K}.",
    "{L} is a famous landmark in {K}.",
    "you can see {l} in the country of {K}.",
)

_CAPITAL_TEMPLATES: tuple[str, ...] = (
    "the capital of {K} is {C}.",
    "the capital city of {K} is {C}.",
    "{C} is the capital of {K}.",
    "the government of {K} sits in {C}.",
)


def _sentence(opener: str, template: str, landmark: Landmark | None, **fields: str) -> str:
    if landmark is not None:
        fields = {**fields, "L": landmark.name if opener else landmark.subject, "l": landmark.name}
    body = template.format(**fields)
    if not opener:
        body = body[0].upper() + body[1:]
    return opener + body


def city_prompt(landmark: Landmark) -> str:
    """The probe prompt whose next token is the landmark's city."""
    return CITY_PROMPT.format(subject=landmark.subject)


def answer_words() -> list[str]:
    """Every answer word of the corpus (cities and countries), sorted."""
    words = {lm.city for lm in LANDMARKS} | {lm.country for lm in LANDMARKS}
    words |= {country for country, _ in CAPITALS} | {city for _, city in CAPITALS}
    return sorted(words)


def fact_sentences(openers: int | None = None) -> list[str]:
    """All fact sentences, each fact in every template, in a fixed order.

    ``openers`` keeps only the first that many sentence openers (the bare
    sentence is the first), which shrinks the corpus but keeps every fact and
    every pattern.
    """
    chosen = _OPENERS if openers is None else _OPENERS[:openers]
    out: list[str] = []
    for opener, template, lm in product(chosen, _CITY_TEMPLATES + _CITY_FIRST_TEMPLATES, LANDMARKS):
        out.append(_sentence(opener, template, lm, C=lm.city))
    for opener, template, lm in product(chosen, _COUNTRY_TEMPLATES, LANDMARKS):
        out.append(_sentence(opener, template, lm, K=lm.country))
    for opener, template, (country, city) in product(chosen, _CAPITAL_TEMPLATES, CAPITALS):
        out.append(_sentence(opener, template, None, K=country, C=city))
    return out


def template_count() -> int:
    """How many distinct sentence templates (opener times pattern) the corpus uses."""
    patterns = len(_CITY_TEMPLATES) + len(_CITY_FIRST_TEMPLATES) + len(_COUNTRY_TEMPLATES) + len(_CAPITAL_TEMPLATES)
    return len(_OPENERS) * patterns
