"""A spy for arguments no value can show (thread counts, locality orders).

Such an argument changes only speed or memory, so a test cannot see it in a result; it can see
that the caller's choice reaches the object that uses it.
"""


def record_calls(monkeypatch, module, name, *keys):
    """Replace ``module.name`` by a wrapper that records, per call, the keyword arguments
    ``keys`` (``"default"`` when not passed) and then calls the original. Returns the list the
    calls are appended to (tuples in the order of ``keys``)."""
    real = getattr(module, name)
    calls = []

    def spy(*args, **kwargs):
        calls.append(tuple(kwargs.get(k, "default") for k in keys))
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return calls
