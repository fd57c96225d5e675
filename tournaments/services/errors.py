"""The error every service raises when the rules of the tournament refuse a
change: its message is translated and nothing was changed."""


class ServiceError(Exception):
    """A change the rules of the tournament refuse; the message says why."""
