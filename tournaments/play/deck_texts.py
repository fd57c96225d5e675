"""The display texts of the built-in decks, for translation.

The decks in ``games/*/decks/*.json`` are plain JSON in English (``games/``
knows nothing of Django). Every text a player reads from them is listed here
with ``gettext_noop`` so ``makemessages`` extracts it; the presentation shows
deck texts through :func:`deck_text`. A text that has no translation — an
organizer's uploaded deck, or an invented proper name such as a Quartett star
system — comes back as written.

Colours, moons and Altruismus symbols are keys, not texts: the presentation
maps them to its own msgids (``play.base.COLOURS``, ``play.monddaemmerung.MOONS``,
``play.altruismus.SYMBOLS``).
"""

from __future__ import annotations

import math

from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_noop

#: Quartett "space": attribute labels and units, the era of year values,
#: and the words the deck format uses for values without a number
QUARTETT = (
    gettext_noop("Distance to Earth"),
    gettext_noop("light years"),
    gettext_noop("First contact"),
    gettext_noop("year"),
    gettext_noop("First mention"),
    gettext_noop("novel no."),
    gettext_noop("Number of planets"),
    gettext_noop("planets"),
    gettext_noop("Gravity"),
    gettext_noop("AD"),
    gettext_noop("not definable"),
    gettext_noop("unknown"),
)

#: Terra Trumpf "tiere": set names, categories and the animals
TERRA_TRUMPF = (
    gettext_noop("Land & Fresh Water"),
    gettext_noop("Sea & Air"),
    # Land & Fresh Water
    gettext_noop("Big cats"),
    gettext_noop("Marsh Lion"),
    gettext_noop("Cloud Tiger"),
    gettext_noop("Ash Leopard"),
    gettext_noop("Reed Lynx"),
    gettext_noop("Dune Cheetah"),
    gettext_noop("Bears"),
    gettext_noop("Fjord Bear"),
    gettext_noop("Honey Bear"),
    gettext_noop("Glacier Bear"),
    gettext_noop("Bamboo Bear"),
    gettext_noop("Cave Bear"),
    gettext_noop("Canines"),
    gettext_noop("Tundra Wolf"),
    gettext_noop("Sand Fox"),
    gettext_noop("Ridge Jackal"),
    gettext_noop("Steppe Dhole"),
    gettext_noop("Mist Coyote"),
    gettext_noop("Hoofed animals"),
    gettext_noop("Crown Elk"),
    gettext_noop("Striped Okapi"),
    gettext_noop("Cliff Ibex"),
    gettext_noop("Plains Bison"),
    gettext_noop("Dwarf Tapir"),
    gettext_noop("Primates"),
    gettext_noop("Lantern Lemur"),
    gettext_noop("Silver Gorilla"),
    gettext_noop("Copper Gibbon"),
    gettext_noop("Tufted Capuchin"),
    gettext_noop("Night Loris"),
    gettext_noop("Rodents"),
    gettext_noop("Giant Dormouse"),
    gettext_noop("River Beaver"),
    gettext_noop("Spotted Agouti"),
    gettext_noop("Quill Porcupine"),
    gettext_noop("Jumping Jerboa"),
    gettext_noop("Reptiles"),
    gettext_noop("Thorn Monitor"),
    gettext_noop("Delta Crocodile"),
    gettext_noop("Shell Tortoise"),
    gettext_noop("Sun Iguana"),
    gettext_noop("Ghost Gecko"),
    gettext_noop("Amphibians"),
    gettext_noop("Fire Salamander"),
    gettext_noop("Glass Frog"),
    gettext_noop("Horned Toad"),
    gettext_noop("Cave Olm"),
    gettext_noop("Tree Newt"),
    gettext_noop("Marsupials"),
    gettext_noop("Red Kangaroo"),
    gettext_noop("Sleepy Koala"),
    gettext_noop("Gum Wombat"),
    gettext_noop("Sugar Glider"),
    gettext_noop("Quoll Runner"),
    gettext_noop("Freshwater fish"),
    gettext_noop("Iron Pike"),
    gettext_noop("Gold Carp"),
    gettext_noop("Moon Catfish"),
    gettext_noop("Stripe Perch"),
    gettext_noop("River Sturgeon"),
    # Sea & Air
    gettext_noop("Birds of prey"),
    gettext_noop("Storm Eagle"),
    gettext_noop("Dusk Owl"),
    gettext_noop("Sky Falcon"),
    gettext_noop("Bone Vulture"),
    gettext_noop("Red Kite"),
    gettext_noop("Songbirds"),
    gettext_noop("Frost Finch"),
    gettext_noop("Bell Thrush"),
    gettext_noop("Lark Minor"),
    gettext_noop("Reed Warbler"),
    gettext_noop("Blue Robin"),
    gettext_noop("Seabirds"),
    gettext_noop("Grey Albatross"),
    gettext_noop("Puffin Royal"),
    gettext_noop("Crested Penguin"),
    gettext_noop("Tern Swift"),
    gettext_noop("Cape Gannet"),
    gettext_noop("Sharks"),
    gettext_noop("Hammer Shark"),
    gettext_noop("Lantern Shark"),
    gettext_noop("Reef Shark"),
    gettext_noop("Whale Shark"),
    gettext_noop("Angel Shark"),
    gettext_noop("Whales & dolphins"),
    gettext_noop("Blue Whale"),
    gettext_noop("Pilot Whale"),
    gettext_noop("Spinner Dolphin"),
    gettext_noop("Narwhal"),
    gettext_noop("Beluga"),
    gettext_noop("Cephalopods"),
    gettext_noop("Giant Squid"),
    gettext_noop("Mimic Octopus"),
    gettext_noop("Pearl Nautilus"),
    gettext_noop("Flame Cuttlefish"),
    gettext_noop("Glass Squid"),
    gettext_noop("Two-winged flies"),
    gettext_noop("Hover Fly"),
    gettext_noop("Crane Fly"),
    gettext_noop("Robber Fly"),
    gettext_noop("Bee Fly"),
    gettext_noop("Moth Fly"),
    gettext_noop("Beetles"),
    gettext_noop("Stag Beetle"),
    gettext_noop("Jewel Beetle"),
    gettext_noop("Dung Beetle"),
    gettext_noop("Tiger Beetle"),
    gettext_noop("Rhino Beetle"),
    gettext_noop("Butterflies"),
    gettext_noop("Morpho Blue"),
    gettext_noop("Swallowtail"),
    gettext_noop("Atlas Moth"),
    gettext_noop("Comma"),
    gettext_noop("Birdwing"),
    gettext_noop("Reef dwellers"),
    gettext_noop("Clown Fish"),
    gettext_noop("Sea Star"),
    gettext_noop("Moray Eel"),
    gettext_noop("Parrot Fish"),
    gettext_noop("Sea Horse"),
)

#: deck names offered when a tournament is set up
DECK_NAMES = (
    gettext_noop("space"),
    gettext_noop("standard"),
    gettext_noop("Standard"),
)

DECK_TEXTS = frozenset(QUARTETT + TERRA_TRUMPF + DECK_NAMES)


def deck_text(text) -> str:
    """``text`` from a deck as the reader's language has it; unchanged when
    there is no translation (an uploaded deck's own words)."""
    if text is None:
        return ""
    text = str(text)
    return gettext(text) if text else text


def as_number(value):
    """A deck's number (``12``, ``0.8``, or the string ``"0,8"``/``"0.8"``)
    as int or float; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value = float(value.strip().replace(",", "."))
        except ValueError:
            return None
    if isinstance(value, float) and not math.isfinite(value):
        return None  # "inf", "nan": words, not numbers
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value if isinstance(value, (int, float)) else None


def number_text(value, *, grouping: bool = True) -> str:
    """A number as the reader's language writes it: "1,9" and "250.000" in
    German, "1.9" and "250,000" in English (Django's formats of the active
    language); a year keeps its digits together (``grouping=False``)."""
    return number_format(value, use_l10n=True, force_grouping=grouping)
