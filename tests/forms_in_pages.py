"""The forms of a rendered page as a browser sends them: each ``<form>``'s
successful controls with the values the browser holds after the HTML
standard's value sanitization — a ``type=date`` input whose value is not a
valid date string (e.g. the German ``28.11.2026``) holds the empty string,
and so for time, datetime-local and number inputs.

``forms(html)`` lists the page's forms; ``form.fields`` are the pairs the
browser would send when the form is submitted as rendered (no button's
name: the tests press a plain "Save").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

#: https://html.spec.whatwg.org/#valid-date-string and friends
_DATE = r"\d{4,}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])"
_TIME = r"([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?"
VALID = {
    "date": re.compile(_DATE),
    "time": re.compile(_TIME),
    "datetime-local": re.compile(f"{_DATE}[T ]{_TIME}"),
    "month": re.compile(r"\d{4,}-(0[1-9]|1[0-2])"),
    "week": re.compile(r"\d{4,}-W(0[1-9]|[1-4]\d|5[0-3])"),
    "number": re.compile(r"-?(\d+(\.\d+)?|\.\d+)([eE][+-]?\d+)?"),
}
#: inputs a form never sends by themselves
_NOT_SENT = {"submit", "button", "reset", "image", "file"}


def sanitized(kind: str, value: str) -> str:
    """The value a browser holds for an ``<input type=kind value=value>``."""
    if kind in VALID:
        return value if VALID[kind].fullmatch(value) else ""
    value = value.replace("\r", "").replace("\n", "")
    if kind in ("email", "url"):
        return value.strip()
    return value


@dataclass
class Form:
    action: str
    method: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    #: (name, type, rendered value) of every date/time-like input
    dated: list[tuple[str, str, str]] = field(default_factory=list)

    def data(self) -> dict[str, str | list[str]]:
        """The fields as the Django test client posts them."""
        out: dict[str, list[str]] = {}
        for name, value in self.fields:
            out.setdefault(name, []).append(value)
        return {k: v[0] if len(v) == 1 else v for k, v in out.items()}


class _Parser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.select: dict | None = None
        self.option: dict | None = None
        self.textarea: dict | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: ("" if v is None else v) for k, v in attrs}
        if tag == "form":
            self.form = Form(a.get("action", ""), a.get("method", "get").lower())
            self.forms.append(self.form)
            return
        if self.form is None or "disabled" in a:
            if tag == "select" and self.form is not None:
                self.select = {"name": None, "options": [], "multiple": False}
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text").lower()
            value = a.get("value", "")
            if kind in VALID and kind != "number":
                self.form.dated.append((name, kind, value))
            if kind in _NOT_SENT:
                return
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.form.fields.append((name, value or "on"))
                return
            self.form.fields.append((name, sanitized(kind, value)))
        elif tag == "select":
            self.select = {"name": name, "options": [], "multiple": "multiple" in a}
        elif tag == "option" and self.select is not None:
            self.option = {"value": a.get("value"), "text": "", "selected": "selected" in a}
            self.select["options"].append(self.option)
        elif tag == "textarea" and name:
            self.textarea = {"name": name, "text": ""}

    def handle_data(self, data):
        if self.option is not None:
            self.option["text"] += data
        if self.textarea is not None:
            self.textarea["text"] += data

    def handle_endtag(self, tag):
        if tag == "option":
            self.option = None
        elif tag == "select" and self.select is not None:
            select, self.select = self.select, None
            if select["name"] and select["options"]:
                chosen = [o for o in select["options"] if o["selected"]]
                if not chosen and not select["multiple"]:
                    chosen = select["options"][:1]
                for o in chosen:
                    value = o["value"] if o["value"] is not None else o["text"].strip()
                    self.form.fields.append((select["name"], value))
        elif tag == "textarea" and self.textarea is not None:
            text = self.textarea["text"]
            text = text[1:] if text.startswith("\n") else text  # the parser drops one newline
            # a browser sends a textarea's line breaks as CR LF
            text = re.sub(r"\r\n|\r|\n", "\r\n", text)
            self.form.fields.append((self.textarea["name"], text))
            self.textarea = None
        elif tag == "form":
            self.form = None


def forms(html: str) -> list[Form]:
    parser = _Parser()
    parser.feed(html)
    parser.close()
    return parser.forms
