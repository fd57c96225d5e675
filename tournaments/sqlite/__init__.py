"""The embedded default's database: Django's SQLite backend, made to take the
web server's threads, the Celery worker and beat writing the same file at once.
``settings.DATABASES`` selects it (``ENGINE "tournaments.sqlite"``) with its options: the WAL journal, transactions that
take the write lock up front (``transaction_mode`` IMMEDIATE), a busy timeout.
:mod:`.base` waits out a lock its connection pragmas meet; :mod:`.retry` runs
a unit of work again when a lock was refused all the same."""
