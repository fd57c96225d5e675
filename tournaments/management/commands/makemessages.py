"""``makemessages`` that also extracts the plural texts the pure modules mark
with ``ngettext_noop`` (``tournaments/seating/reasons.py``)."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=ngettext_noop:1,2"]
