"""Schemathesis hooks of test/api/schemathesis.int.test.ts.

One rule of the API lies across two parameters and so cannot be written in OpenAPI: on
/competitions and /competitions.ics, a `dateTo` before `dateFrom` answers 400 (both parameter
descriptions say so). The fuzzer draws each parameter on its own, so a case it calls valid may
break that rule, and the server would be right to refuse it.

Only cases generated as valid (positive mode) that hold both dates in the wrong order are
touched: the two dates are swapped, which keeps the range the fuzzer drew and makes the case
valid by the documented rule. Every other case, every check and every response are left as
they are: no failure is filtered, so a server that refused a valid range would still fail.

On /changes, a valid `wait` holds the request up to that many seconds when no change comes (a
long poll): a run of many cases cannot wait that long each, so valid cases there ask for no
wait. Invalid `wait` values are still drawn (negative mode) and must answer 400. A cursor
(`after`, `Last-Event-ID`) is issued by the server: one the fuzzer makes up names a read model
the API does not serve, and answers 410 as documented; valid cases there carry a cursor of the
served read model instead (the test passes it in SCHEMATHESIS_CHANGES_CURSOR).
"""

import os

import schemathesis
from schemathesis.generation import GenerationMode


@schemathesis.hook
def map_case(context, case):
    meta = case.meta
    if meta is None or meta.generation.mode != GenerationMode.POSITIVE:
        return case
    query = case.query
    if not isinstance(query, dict):
        return case
    if case.path == "/changes":
        if "wait" in query:
            query["wait"] = 0
        cursor = os.environ["SCHEMATHESIS_CHANGES_CURSOR"]
        if "after" in query:
            query["after"] = cursor
        if isinstance(case.headers, dict) and "Last-Event-ID" in case.headers:
            case.headers["Last-Event-ID"] = cursor
    date_from = query.get("dateFrom")
    date_to = query.get("dateTo")
    # YYYY-MM-DD compares as text in calendar order, as the server compares them.
    if isinstance(date_from, str) and isinstance(date_to, str) and date_to < date_from:
        query["dateFrom"], query["dateTo"] = date_to, date_from
    return case
