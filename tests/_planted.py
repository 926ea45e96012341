"""Planted faults for the validation tests: an object with some attributes replaced or removed."""

#: The value that makes :func:`altered` delete the attribute (``None`` is a value some
#: attributes take, and a test may plant it).
DROP = object()


def altered(obj, **changes):
    """``obj`` with each attribute named in ``changes`` set to its value, or deleted where the
    value is :data:`DROP`; changed in place and returned."""
    for key, value in changes.items():
        if value is DROP:
            delattr(obj, key)
        else:
            setattr(obj, key, value)
    return obj
