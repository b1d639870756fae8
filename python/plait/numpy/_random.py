"""NumPy's legacy random streams for compiled code: the runtime's
per-thread MT19937 state (plait/Runtime/Random.h). Calling them from the
interpreter uses NumPy's own global RandomState."""

from __future__ import annotations

from typing import Any, Callable


def _intrinsic(name: str, interpreted: Callable[..., Any]) -> Callable[..., Any]:
    interpreted.__name__ = name
    interpreted._plait_intrinsic = name  # type: ignore[attr-defined]
    return interpreted


def _seed(seed: int) -> None:
    import numpy

    numpy.random.seed(seed)


def _double() -> float:
    import numpy

    return float(numpy.random.random_sample())


def _gauss() -> float:
    import numpy

    return float(numpy.random.standard_normal())


def _integer(low: int, high: int) -> int:
    import numpy

    return int(numpy.random.randint(low, high))


def _interval(maximum: int) -> int:
    import numpy

    return int(numpy.random.randint(0, maximum + 1))


random_seed = _intrinsic("random_seed", _seed)
random_double = _intrinsic("random_double", _double)
random_gauss = _intrinsic("random_gauss", _gauss)
random_integer = _intrinsic("random_integer", _integer)
random_interval = _intrinsic("random_interval", _interval)
