"""The engine's bindings without their arguments in error messages.

pybind11 answers a call whose arguments match no signature with a TypeError that ends "Invoked with: " and the
repr of every argument: the points, labels or counts a user passed, printed in the error (and from there in
logs and a trial's failure). An error text is not a release, so every function and method of ``dpclust._core``
a user can call is wrapped here: that TypeError is replaced by one that names the function, the expected
signature, the arguments given by name and type, what is missing, unexpected or of the wrong type -- and no
value. Errors raised while a call runs (the engine's messages) pass unchanged: they name parameters, never
data, and are marked so for a mechanism's failure text (_mechanism.describe_failure).
"""
import functools
import re

_INVOKED = "Invoked with:"
_NUMBER_TYPES = {"float": (int, float), "int": (int,), "bool": (bool,), "str": (str,)}


def _split_top(text):
    """`text` split at the commas outside brackets and quotes."""
    parts, depth, quote, start = [], 0, None, 0
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:].strip())
    return parts


def _parameters(signature):
    """[(name, type, has_default, keyword_only)] of a pybind11 signature "(a: int, *, b: str = '') -> ..."."""
    inside = signature[signature.index("(") + 1:]
    depth = 1
    for i, ch in enumerate(inside):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            inside = inside[:i]
            break
    params, keyword_only = [], False
    for part in _split_top(inside):
        if part == "*":
            keyword_only = True
            continue
        if part.startswith("*"):
            continue  # *args / **kwargs: anything goes
        name, _, rest = part.partition(":")
        kind, _, default = rest.partition("=")
        params.append((name.strip(), kind.strip(), bool(default.strip()), keyword_only))
    return params


def _kind_ok(expected, value):
    types = _NUMBER_TYPES.get(expected)
    if types is None:
        return True  # an object, an array, a dict: the function reads it and says what is wrong
    if expected in ("float", "int") and type(value).__module__ == "numpy":
        return hasattr(value, "__index__") if expected == "int" else hasattr(value, "__float__")
    return isinstance(value, types) and not (expected in ("float", "int") and isinstance(value, bool))


def _type_name(value):
    return type(value).__name__


def _without_values(text, qualname, args, kwargs, bound):
    """The message of pybind11's argument error for this call, with no argument's value."""
    head = text.split(_INVOKED, 1)[0]
    signatures = re.findall(r"^\s*\d+\.\s*(\(.*\)(?: -> .*)?)\s*$", head, flags=re.M)
    name = qualname.rsplit(".", 1)[-1]
    given = list(args[1:] if bound else args)
    # The engine's functions have one signature each: the first says what was expected.
    params = _parameters(signatures[0]) if signatures else []
    if bound and params and params[0][0] == "self":
        params = params[1:]
    names = [p[0] for p in params]
    positional = [p[0] for p in params if not p[3]]
    problems = []
    if signatures and len(given) > len(positional):
        problems.append(f"{len(given)} positional arguments for {len(positional)} ({', '.join(positional) or 'none'}); "
                        "pass the others by name")
    by_name = dict(zip(positional, given))
    for key in kwargs:
        if signatures and key not in names:
            problems.append(f"unexpected argument {key!r}")
        elif key in by_name:
            problems.append(f"{key!r} given twice")
    by_name.update({k: v for k, v in kwargs.items() if k in names})
    missing = [p[0] for p in params if not p[2] and p[0] not in by_name]
    if missing:
        problems.append("missing " + ", ".join(missing))
    for pname, kind, _, _ in params:
        if pname in by_name and not _kind_ok(kind, by_name[pname]):
            problems.append(f"{pname} must be {kind}, got {_type_name(by_name[pname])}")
    shown = [f"{p}: {_type_name(v)}" for p, v in zip(positional, given)]
    shown += [f"arg {i}: {_type_name(v)}" for i, v in enumerate(given[len(positional):], start=len(positional))]
    shown += [f"{k}: {_type_name(v)}" for k, v in kwargs.items()]
    # py::handle is any object: an array, a list, a number ("handle" would puzzle a reader).
    expected = "; ".join(name + re.sub(r"^\(self: [^,)]*(, )?", "(", s).replace(": handle", ": object")
                         for s in signatures) or f"{name}(...)"
    return (f"{qualname}(): {'; '.join(problems) or 'arguments that match no signature'}. Expected {expected}. "
            f"Given: {', '.join(shown) or 'no arguments'} (types only: an error message never prints the values, "
            "which can be data).")


def _raised_by_the_engine(error):
    """True when the exception was raised in C++ (its traceback holds no Python frame but this module's): the
    engine's messages name parameters and positions, never data. An exception of Python code the engine called
    back (an object's __array__, a mechanism) has that code's frames and keeps its own status."""
    tb = error.__traceback__
    return tb is not None and tb.tb_next is None


def _wrap(fn, qualname, bound):
    @functools.wraps(fn)
    def call(*args, **kwargs):
        from ._mechanism import mark_safe  # noqa: PLC0415 - _mechanism imports numpy, which _core needs anyway
        try:
            return fn(*args, **kwargs)
        except TypeError as error:
            if _INVOKED not in str(error):
                if _raised_by_the_engine(error):
                    mark_safe(error)
                raise
            message = _without_values(str(error), qualname, args, kwargs, bound)
        except Exception as error:
            if _raised_by_the_engine(error):
                mark_safe(error)
            raise
        raise mark_safe(TypeError(message)) from None  # not chained: the original text holds the values

    call.__wrapped_binding__ = fn
    return call


def _is_binding(obj):
    return type(obj).__name__ == "builtin_function_or_method"


def install(core):
    """Wraps every function of the module and every method of its classes (once)."""
    if getattr(core, "_arguments_hidden_in_errors", False):
        return
    for name in dir(core):
        obj = getattr(core, name)
        if _is_binding(obj):
            setattr(core, name, _wrap(obj, name, bound=False))
        elif isinstance(obj, type) and obj.__module__ == core.__name__:
            for attr, member in list(vars(obj).items()):
                if attr.startswith("__") and attr != "__init__":
                    continue
                if type(member).__name__ == "instancemethod":
                    setattr(obj, attr, _wrap(getattr(obj, attr), f"{name}.{attr}", bound=True))
    core._arguments_hidden_in_errors = True
