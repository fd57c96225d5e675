"""The one error of the seating package: a code, its parameters, an English text.

The web side translates the code (with the parameters); it never reads the
English text, which is for the command line and for logs.
"""

from __future__ import annotations


class SeatingError(ValueError):
    """A request the seating cannot serve.

    Codes: ``bad_request`` (params ``detail``: what is wrong, in English, for
    developers calling the package), ``too_few_players`` (``players``,
    ``minimum``), ``impossible_sizes`` (``players``, ``sizes``, ``byes``),
    ``team_too_large`` (``team``, ``players``, ``largest``), ``not_seated``
    (``player``), ``already_seated`` (``player``).
    """

    def __init__(self, code: str, message: str, **params):
        super().__init__(message)
        self.code = code
        self.params = params

    def as_dict(self) -> dict:
        return {"code": self.code, "params": self.params, "message": str(self)}


def bad_request(detail: str) -> SeatingError:
    return SeatingError("bad_request", detail, detail=detail)
