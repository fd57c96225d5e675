"""Querysets compiled once per process, run again with new values.

Django builds a queryset and compiles its SQL each time it is evaluated. For
the few queries that every move and every seat's screen runs — a table with
the counts its version is made of, its seats — that was most of their cost:
a table's snapshot spent 7 ms compiling for 1.8 ms in the database (issue 37).

A :class:`PreparedQuery` builds its queryset once per database, with marker
values where the real ones go, keeps the SQL, and runs it with the real values
after that, building the model instances the queryset would have built (its
``select_related`` objects and annotations included). The SQL is Django's own,
so it is the database's dialect and goes through the connection's wrappers
(the request's time budget, the tests' query counts).

Only for reads: a queryset that locks rows (``select_for_update``) is refused.
One lock is offered: ``share_lock=Model`` reads with that model's rows
locked for share (PostgreSQL's ``FOR SHARE OF``: others may read and share
them, none may change them until the caller's transaction ends), which
Django's querysets can't express; SQLite writes one transaction at a time
and needs none.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from django.db import connections
from django.db.models import QuerySet
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError

#: stand-ins for the values while the SQL is compiled: numbers far from any
#: primary key or count, texts no key or name holds
_MARKERS = {
    int: tuple(-7_300_000_001 - i for i in range(8)),
    str: tuple(f"~prepared~marker~{i}~" for i in range(8)),
}


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple
    #: for each value of the call, the positions of its marker in ``params``
    slots: tuple[tuple[int, ...], ...]
    model: type
    init_list: list[str]
    fields: tuple[int, int]
    populators: list
    annotations: dict[str, int]
    converters: list


class PreparedQuery:
    """``PreparedQuery(lambda table_id: Table.objects.filter(pk=table_id))``:
    called as ``query(table_id)``, the list of model instances that queryset
    would give. ``build`` takes one argument per value (``kinds``: each one's
    type, int or str) and must put each value into the SQL as a parameter (a
    filter's value, never a table or field name); every value must appear."""

    def __init__(
        self,
        build: Callable[..., QuerySet],
        kinds: tuple[type, ...] = (int,),
        *,
        share_lock: type | None = None,
    ):
        if not 1 <= len(kinds) <= 8 or not set(kinds) <= set(_MARKERS):
            raise ValueError("a prepared query takes 1 to 8 values, each an int or a str")
        self.build = build
        self.share_lock = share_lock
        self.kinds = kinds
        self.values = len(kinds)
        self._compiled: dict[str, _Compiled] = {}
        self._lock = threading.Lock()

    def __call__(self, *values, using: str = "default") -> list:
        if len(values) != self.values:
            raise TypeError(f"this query takes {self.values} value(s), not {len(values)}")
        compiled = self._compiled.get(using)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.get(using) or self._compile(using)
                self._compiled[using] = compiled
        params = list(compiled.params)
        for value, slots in zip(values, compiled.slots, strict=True):
            for slot in slots:
                params[slot] = value
        connection = connections[using]
        sql = compiled.sql
        if self.share_lock is not None and connection.vendor == "postgresql":
            if not connection.in_atomic_block:
                raise TransactionManagementError("a share lock is held by a transaction")
            table = connection.ops.quote_name(self.share_lock._meta.db_table)
            sql = f"{sql} FOR SHARE OF {table}"
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        return [self._instance(compiled, row, connection, using) for row in rows]

    def _compile(self, using: str) -> _Compiled:
        markers = [_MARKERS[kind][i] for i, kind in enumerate(self.kinds)]
        queryset = self.build(*markers)
        if queryset.query.select_for_update:
            raise ValueError("a prepared query only reads: no select_for_update")
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()  # also fills select, klass_info, annotations
        params = tuple(params)
        slots = tuple(tuple(i for i, p in enumerate(params) if p == m) for m in markers)
        if any(
            isinstance(p, str) and p not in markers and "~prepared~marker~" in p for p in params
        ):
            # e.g. a LIKE pattern made of the value: it would keep the marker
            raise ValueError("a prepared query's value must be a parameter as it is, not a pattern")
        if not all(slots):
            raise ValueError("every value of a prepared query must be a parameter of its SQL")
        klass_info, select = compiler.klass_info, compiler.select
        first, last = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        converters = compiler.get_converters([s[0] for s in select[: compiler.col_count]])
        return _Compiled(
            sql=sql,
            params=params,
            slots=slots,
            model=klass_info["model"],
            init_list=[f[0].target.attname for f in select[first:last]],
            fields=(first, last),
            populators=get_related_populators(klass_info, select, using),
            annotations=dict(compiler.annotation_col_map or {}),
            converters=list(converters.items()),
        )

    @staticmethod
    def _instance(compiled: _Compiled, row, connection, using: str):
        if compiled.converters:
            row = list(row)
            for position, (functions, expression) in compiled.converters:
                value = row[position]
                for convert in functions:
                    value = convert(value, expression, connection)
                row[position] = value
        first, last = compiled.fields
        obj = compiled.model.from_db(using, compiled.init_list, row[first:last])
        for populator in compiled.populators:
            populator.populate(row, obj)
        for name, position in compiled.annotations.items():
            setattr(obj, name, row[position])
        return obj
