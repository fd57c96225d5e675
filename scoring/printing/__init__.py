"""Printing (the app ``scoring.printing``, label ``printing``): every printed
document and the print jobs that render the large ones.

The drawing is pure — ``sheets``, ``lists``, ``certificates``, ``slips``,
``season``, ``marks``, ``fit``, ``fonts`` and ``qr``: plain dicts in, PDF
bytes out with ReportLab, no Django import, so the views, a Celery task and
``manage.py print`` all call the same functions. Every text is DejaVu Sans
(``fonts.py``); labels are English and pass through the optional
``gettext`` argument. The Django side: ``documents`` (each document's data
loaded from the database and drawn), ``models`` (a print job), ``tasks``
(a job rendered by the worker, and the sweep), ``selectors``, ``views`` and
``urls``.
"""
