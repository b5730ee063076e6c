"""An estimator's ``__init__`` and its documentation, built from its engine method's declared parameters (the
ParamSpecs ``dpclust list`` shows): their names and defaults, plus ``bounds``, ``random_state``, ``randomness`` and
(private methods) ``accountant``; the old and scikit-learn names an estimator accepts for them."""
from __future__ import annotations

import difflib
import inspect
import warnings
from typing import Any, Dict

from . import _core


def _frozen(value):
    # Vector defaults become tuples: a list default would be shared by every instance.
    return tuple(value) if isinstance(value, list) else value


_ANNOTATIONS = {"real": "float", "integer": "int", "boolean": "bool", "string": "str",
                "per-dimension vector": "float | Sequence[float]"}


def _translate_aliases(est, params: Dict[str, Any], aliases, where: str, stacklevel: int) -> None:
    """Replaces, in `params`, each accepted alias (an old or scikit-learn name) by the parameter it stands for,
    with a FutureWarning; both given is a TypeError."""
    for alias, (name, why) in aliases.items():
        if alias in params:
            if name in params:
                raise TypeError(f"{type(est).__name__}: got both {alias!r} and {name!r}: {why}")
            warnings.warn(f"{where}{alias}=...): {why} Pass {name}= instead; {alias}= will be removed.",
                          FutureWarning, stacklevel=stacklevel)
            params[name] = params.pop(alias)


def _translate_synonyms(est, params: Dict[str, Any], synonyms) -> None:
    """Replaces each scikit-learn name that means exactly what an engine parameter means (``min_samples`` for
    ``min_pts``) by that parameter, silently: not deprecated, the same thing under its familiar name."""
    for synonym, (name, why) in synonyms.items():
        if synonym in params:
            if name in params:
                raise TypeError(f"{type(est).__name__}: got both {synonym!r} and {name!r}: {why}")
            params[name] = params.pop(synonym)


def _synonym_property(synonym: str, name: str, why: str):
    return property(lambda self: getattr(self, name), lambda self, value: setattr(self, name, value),
                    doc=f"scikit-learn's name for {name}: {why}")


def _alias_property(alias: str, name: str, why: str):
    def get(self):
        warnings.warn(f"{type(self).__name__}.{alias}: {why} Read {name} instead; {alias} will be removed.",
                      FutureWarning, stacklevel=2)
        return getattr(self, name)

    def put(self, value):
        warnings.warn(f"{type(self).__name__}.{alias} = ...: {why} Set {name} instead; {alias} will be removed.",
                      FutureWarning, stacklevel=2)
        setattr(self, name, value)

    return property(get, put, doc=f"Deprecated alias of {name}: {why}")


def _install_init(cls):
    """Gives cls an __init__ whose keyword-only parameters are its method's ParamSpecs (a parameter the CLI
    requires takes its public default from ``cls._public_defaults``), then bounds, random_state,
    randomness and (private methods) accountant; and a numpydoc ``Parameters`` section from the same specs."""
    info = _core.method_info(cls._method)
    public = dict(getattr(cls, "_public_defaults", {}))
    renamed = dict(getattr(cls, "_renamed", {}))          # engine name -> Python name
    positional = tuple(getattr(cls, "_positional", ()))   # Python names also taken by position, in order
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    lines = []
    specs = sorted(info["params"], key=lambda p: (renamed.get(p["name"], p["name"]) not in positional,
                                                  positional.index(renamed.get(p["name"], p["name"]))
                                                  if renamed.get(p["name"], p["name"]) in positional else 0))
    for p in specs:
        name = renamed.get(p["name"], p["name"])
        annotation = _ANNOTATIONS.get(p["type"], "Any")
        if p["required"]:
            default, source = public.pop(p["name"], (None, None))
            note = (f"\n    Default: {source} (a config for the `dpclust` command must set it"
                    + (f", as `{p['name']}`" if name != p["name"] else "") + ")." if source else "")
        else:
            default, note = _frozen(p["default"]), ""
        kind = inspect.Parameter.POSITIONAL_OR_KEYWORD if name in positional else inspect.Parameter.KEYWORD_ONLY
        params.append(inspect.Parameter(name, kind, default=default, annotation=annotation))
        lines.append(f"{name} : {p['type']}, default={'required' if default is None and p['required'] else repr(default)}\n"
                     f"    {p['description']}; {p['allowed']}.{note}")
    if public:  # a public default for a parameter that is not a required spec: a stale table
        raise RuntimeError(f"{cls.__name__}._public_defaults names {sorted(public)}, not required parameters of {info['name']}")
    params.append(inspect.Parameter("bounds", inspect.Parameter.KEYWORD_ONLY, default=None, annotation="Bounds"))
    params.append(inspect.Parameter("random_state", inspect.Parameter.KEYWORD_ONLY, default=None, annotation="RandomState"))
    params.append(inspect.Parameter("randomness", inspect.Parameter.KEYWORD_ONLY, default=None, annotation="str | None"))
    if info["private"]:  # a non-private method spends nothing private: no accountant to charge
        params.append(inspect.Parameter("accountant", inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation="BudgetAccountant | None"))
    lines.append("bounds : (lower, upper), [[lo, hi], ...] per feature, 'data' or None, default=None\n"
                 "    the public domain, each side a number or one value per feature"
                 + ("; None or 'data' takes it from the data (PrivacyLeakWarning, non_private_)" if info["private"]
                    else "; None or 'data' takes it from the data") + ".")
    lines.append("random_state : int, numpy Generator or RandomState, or None, default=None\n"
                 "    the trial seed: an int s gives the numbers of a config trial with seed s (`seeds: [s]`); "
                 "None: secure randomness (no seed). A seeded fit is reproducible and so not a private release "
                 "(NotPrivateReleaseWarning).")
    lines.append("randomness : 'seeded', 'secure' or None, default=None\n"
                 "    None follows random_state (None: secure, else seeded). secure: noise from the OS CSPRNG, not "
                 "reproducible, the only mode whose release can be private; seeded: reproducible, not a secure release.")
    if info["private"]:
        lines.append("accountant : dpclust.BudgetAccountant or None, default=None\n"
                     "    charged the fit's epsilon (and delta) on every fit; a fit past its budget raises BudgetError before "
                     "running and spends nothing. None: the default accountant (BudgetAccountant.set_default) when one "
                     "is set, else no accountant.")
    signature = inspect.Signature(params)
    names = [p.name for p in params[1:]]
    aliases = dict(getattr(cls, "_aliases", {}))
    synonyms = dict(getattr(cls, "_synonyms", {}))

    def __init__(self, *args, **kwargs):
        if len(args) > len(positional):
            raise TypeError(f"{type(self).__name__}() takes {len(positional)} positional argument"
                            f"{'' if len(positional) == 1 else 's'} ({', '.join(positional) or 'none'}) but {len(args)} "
                            "were given; pass the others by name")
        for name, value in zip(positional, args):
            if name in kwargs:
                raise TypeError(f"{type(self).__name__}() got multiple values for argument {name!r}")
            kwargs[name] = value
        _translate_aliases(self, kwargs, aliases, f"{type(self).__name__}(", stacklevel=3)
        _translate_synonyms(self, kwargs, synonyms)
        for name in names:
            setattr(self, name, kwargs.pop(name, signature.parameters[name].default))
        if kwargs:
            name = next(iter(kwargs))
            close = difflib.get_close_matches(name, names, n=1)
            raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument {name!r}"
                            + (f"; did you mean {close[0]!r}?" if close else ""))

    __init__.__signature__ = signature
    __init__.__qualname__ = f"{cls.__name__}.__init__"
    __init__.__doc__ = f"Stores the parameters (scikit-learn's convention); ``fit`` checks them. See ``help({cls.__name__})``."
    cls.__init__ = __init__
    cls._spec_names = tuple(p["name"] for p in info["params"])
    cls._py_names = {p["name"]: renamed.get(p["name"], p["name"]) for p in info["params"]}
    for alias, (name, why) in aliases.items():  # est.k reads and writes est.n_clusters, with the same warning
        setattr(cls, alias, _alias_property(alias, name, why))
    for synonym, (name, why) in synonyms.items():  # est.min_samples reads and writes est.min_pts
        setattr(cls, synonym, _synonym_property(synonym, name, why))
    cls._info = info
    privacy = (f"    Privacy: {info['privacy_notion']}; every fit charges ``accountant`` its ledger's epsilon (and delta).\n"
               if info["private"] else "    Privacy: none (not differentially private); every fit warns NotPrivateReleaseWarning.\n")
    cls.__doc__ = (cls.__doc__ or "") + (
        f"\n\n    Engine method ``{info['name']}``: {info['summary']}\n    Reference: {info['reference']}\n{privacy}\n"
        "    Parameters\n    ----------\n" + "\n".join("    " + line.replace("\n", "\n    ") for line in lines) + "\n")
    return cls
