"""Parameters written as expressions of n in sweep configs: ``p = "3*log(n)/n"``.

An expression is parsed with :mod:`ast` and evaluated by walking a whitelist — numbers, the name
``n``, ``+ - * / // % **``, unary ``-``, and the calls ``log, log2, log10, sqrt, exp, ceil,
floor, round, min, max, abs`` — so a config can never run code (``__import__``, attributes,
subscripts, other names are refused by name). One ``[[grid]]`` block then covers every n, and a
record keeps its expressions (``exprs``) beside the values they gave, so the summary draws one
line per expression.
"""

from __future__ import annotations

import ast
import math
import operator

#: The functions an expression may call.
FUNCTIONS = {"log": math.log, "log2": math.log2, "log10": math.log10, "sqrt": math.sqrt,
             "exp": math.exp, "ceil": math.ceil, "floor": math.floor, "round": round,
             "min": min, "max": max, "abs": abs}
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
           ast.Pow: operator.pow}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos}
#: Longest expression accepted, and the largest exponent (``n ** 1e9`` would hang).
MAX_LENGTH = 200
MAX_POWER = 64


def parse(text, name="expression"):
    """The checked syntax tree of ``text``; ValueError naming ``name`` and the refused part."""
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a string expression of n, got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise ValueError(f"{name} = {text!r}: longer than {MAX_LENGTH} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise ValueError(f"{name} = {text!r} is not an arithmetic expression of n: "
                         f"{exc.msg}") from None
    for node in ast.walk(tree):
        _check_node(node, text, name)
    return tree


def _check_node(node, text, name):
    ok = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Call, ast.Load, *_BINARY, *_UNARY)
    if isinstance(node, ok):
        if isinstance(node, ast.Call) and (not isinstance(node.func, ast.Name)
                                           or node.func.id not in FUNCTIONS or node.keywords):
            raise ValueError(f"{name} = {text!r}: only the calls {sorted(FUNCTIONS)} with "
                             f"plain arguments are allowed, got {ast.unparse(node.func)}(...)")
        return
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not \
            isinstance(node.value, bool):
        return
    if isinstance(node, ast.Name) and (node.id == "n" or node.id in FUNCTIONS):
        return
    what = ast.unparse(node) if hasattr(node, "lineno") else type(node).__name__
    raise ValueError(f"{name} = {text!r}: {what!r} is not allowed; an expression may use n, "
                     f"numbers, + - * / // % **, and {', '.join(sorted(FUNCTIONS))}")


def _eval(node, n):
    if isinstance(node, ast.Expression):
        return _eval(node.body, n)
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id != "n":
            raise ValueError(f"{node.id} is a function: call it, e.g. {node.id}(n)")
        return n
    if isinstance(node, ast.UnaryOp):
        return _UNARY[type(node.op)](_eval(node.operand, n))
    if isinstance(node, ast.BinOp):
        left, right = _eval(node.left, n), _eval(node.right, n)
        if isinstance(node.op, ast.Pow) and abs(right) > MAX_POWER:
            raise ValueError(f"exponent {right} is above {MAX_POWER}")
        return _BINARY[type(node.op)](left, right)
    return FUNCTIONS[node.func.id](*(_eval(a, n) for a in node.args))


def evaluate(text, n, name="expression"):
    """The value of expression ``text`` at ``n`` (a finite int or float).

    Examples
    --------
    >>> from ngc_ref_theory.sweep.expressions import evaluate
    >>> evaluate("ceil(log(n))", 1000)
    7
    >>> round(evaluate("3*log(n)/n", 1000), 5)
    0.02072
    """
    tree = parse(text, name)
    try:
        value = _eval(tree, n)
    except (ArithmeticError, ValueError, TypeError) as exc:
        raise ValueError(f"{name} = {text!r} at n={n}: {exc}") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{name} = {text!r} at n={n} gives {value!r}, not a finite number")
    return value


def as_kind(value, kind, name, text, n):
    """An evaluated expression as the parameter's kind: an int parameter needs an integral
    value (use ``ceil``, ``floor`` or ``round``)."""
    if kind is int:
        if float(value) != int(value):
            raise ValueError(f"{name} = {text!r} at n={n} gives {value!r}; {name} is an integer: "
                             "wrap the expression in ceil(), floor() or round()")
        return int(value)
    return float(value) if kind is float else value


def substitute(params, kinds, where):
    """``(params, exprs)``: every string given for a numeric parameter (``kinds[name]`` is int
    or float) and every string in ``graph_params`` evaluated at the cell's ``n``; ``exprs`` maps
    each such name (``graph_params.p`` for a graph parameter) to its expression."""
    exprs = {}
    todo = [k for k, v in params.items() if isinstance(v, str) and kinds.get(k) in (int, float)]
    gp = params.get("graph_params")
    gtodo = [k for k, v in gp.items() if isinstance(v, str)] if isinstance(gp, dict) else []
    if not todo and not gtodo:
        return params, exprs
    n = params.get("n")
    if isinstance(n, bool) or not isinstance(n, int):
        first = (todo or [f"graph_params.{gtodo[0]}"])[0]
        raise ValueError(f"{where}: {first} is an expression of n, but the cell's n is "
                         f"{n!r}: give n as an integer")
    out = dict(params)
    for k in todo:
        text = out[k]
        try:
            value = evaluate(text, n, k)
        except ValueError as exc:
            raise ValueError(f"{where}: {k} must be a real number or an expression of n; "
                             f"{exc}") from None
        out[k] = as_kind(value, kinds[k], k, text, n)
        exprs[k] = text
    if gtodo:
        out["graph_params"] = dict(gp)
        for k in gtodo:
            text = gp[k]
            name = f"graph_params.{k}"
            value = evaluate(text, n, f"{where}: {name}")
            # ceil/floor/round/min of ints give an int (a degree, a block count); else a float.
            out["graph_params"][k] = value if isinstance(value, int) else float(value)
            exprs[name] = text
    return out, exprs

