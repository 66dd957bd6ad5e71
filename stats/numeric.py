"""The few numeric routines the statistics need, on the math module alone.

scipy is not a dependency of Gauntlet, and the statistics need only a root finder for a
monotone function, the standard normal distribution and its quantiles.

>>> round(phi(1.959963984540054), 6)
0.975
>>> round(phi_inv(0.975), 9)
1.959963985
>>> round(find_root(lambda x: x * x - 2, 0.0, 2.0), 12)
1.414213562373
"""

from __future__ import annotations

import math
from collections.abc import Callable

__all__ = ["find_root", "phi", "phi_inv"]


def phi(x: float) -> float:
    """The standard normal cumulative distribution function.

    >>> phi(0.0)
    0.5
    """
    # erfc keeps the far lower tail accurate, where 1 + erf would cancel to 0.
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def phi_inv(p: float) -> float:
    """The standard normal quantile function (inverse of `phi`), for 0 < p < 1.

    >>> round(phi_inv(0.025), 6)
    -1.959964
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"phi_inv needs 0 < p < 1, not {p}")
    # Acklam's rational approximation (relative error 1.2e-9), then one Halley step on
    # phi, which brings it to double precision.
    a = (-3.969683028665376e01, 2.209460984245205e02, -2.759285104469687e02,
         1.383577518672690e02, -3.066479806614716e01, 2.506628277459239e00)
    b = (-5.447609879822406e01, 1.615858368580409e02, -1.556989798598866e02,
         6.680131188771972e01, -1.328068155288572e01)
    c = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e00,
         -2.549732539343734e00, 4.374664141464968e00, 2.938163982698783e00)
    d = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00,
         3.754408661907416e00)
    low = 0.02425
    if p < low:
        q = math.sqrt(-2.0 * math.log(p))
        x = ((((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
             / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0))
    elif p <= 1.0 - low:
        q = p - 0.5
        r = q * q
        x = (((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q)
             / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0))
    else:
        q = math.sqrt(-2.0 * math.log(1.0 - p))
        x = -((((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
              / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0))
    e = phi(x) - p
    u = e * math.sqrt(2.0 * math.pi) * math.exp(x * x / 2.0)
    return x - u / (1.0 + x * u / 2.0)


def find_root(f: Callable[[float], float], lo: float, hi: float, *,
              tol: float = 1e-12, max_iter: int = 200) -> float:
    """A root of `f` in [lo, hi], where f(lo) and f(hi) have opposite signs (Brent's method:
    inverse quadratic interpolation, secant and bisection).

    Raises ValueError when the signs at the ends do not differ.

    >>> find_root(lambda x: x - 1.0, 2.0, 3.0)
    Traceback (most recent call last):
    ...
    ValueError: find_root: f(2.0) and f(3.0) have the same sign
    """
    a, b = lo, hi
    fa, fb = f(a), f(b)
    if fa == 0.0:
        return a
    if fb == 0.0:
        return b
    if (fa > 0.0) == (fb > 0.0):
        raise ValueError(f"find_root: f({lo}) and f({hi}) have the same sign")
    c, fc = a, fa
    d = e = b - a
    for _ in range(max_iter):
        if (fb > 0.0) == (fc > 0.0):
            c, fc = a, fa
            d = e = b - a
        if abs(fc) < abs(fb):
            a, b, c = b, c, b
            fa, fb, fc = fb, fc, fb
        tol1 = 2.0 * 2.2e-16 * abs(b) + 0.5 * tol
        m = 0.5 * (c - b)
        if abs(m) <= tol1 or fb == 0.0:
            return b
        if abs(e) >= tol1 and abs(fa) > abs(fb):
            s = fb / fa
            if a == c:
                p = 2.0 * m * s
                q = 1.0 - s
            else:
                q = fa / fc
                r = fb / fc
                p = s * (2.0 * m * q * (q - r) - (b - a) * (r - 1.0))
                q = (q - 1.0) * (r - 1.0) * (s - 1.0)
            if p > 0.0:
                q = -q
            else:
                p = -p
            if 2.0 * p < min(3.0 * m * q - abs(tol1 * q), abs(e * q)):
                e, d = d, p / q
            else:
                d = e = m
        else:
            d = e = m
        a, fa = b, fb
        b += d if abs(d) > tol1 else math.copysign(tol1, m)
        fb = f(b)
    return b
