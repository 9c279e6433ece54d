"""Traces in: a deployed agent's graded runs aim the grid at what it gets wrong.

``load`` (JSONL and dict variants to trace rows), ``otel`` (OpenTelemetry GenAI spans to rows),
``failure`` (a traced call's failure named on the grid's axes), ``mining`` (flaw rows and the
counts behind the aim), ``tools`` (a tool surface drafted from calls), ``aim`` (the weighted,
focused grid), ``leakage`` (no generated ask copies a source), ``split`` (a pseudo-production
hold-out), ``report`` (what the traces will aim at), ``simulate`` (a run started from traces).
Nothing is imported here, so importing one module does not import the others.
"""
