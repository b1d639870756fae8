"""Benchmark kernels as plain Python: the same source is run by CPython and
compiled by plait and Numba; bench/reference/kernels.cpp holds the same
algorithms in C++."""

from __future__ import annotations

import math


def sum_of_squares(n):
    total = 0
    for i in range(n):
        total += i * i % 7
    return total


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def mandelbrot(width, height, max_iter):
    total = 0
    for py in range(height):
        y0 = py * 2.0 / height - 1.0
        for px in range(width):
            x0 = px * 3.0 / width - 2.0
            x = 0.0
            y = 0.0
            k = 0
            while k < max_iter and x * x + y * y <= 4.0:
                x, y = x * x - y * y + x0, 2.0 * x * y + y0
                k += 1
            total += k
    return total


def prime_count(n):
    count = 0
    for candidate in range(2, n):
        d = 2
        prime = True
        while d * d <= candidate:
            if candidate % d == 0:
                prime = False
                break
            d += 1
        if prime:
            count += 1
    return count


def harmonic(n):
    total = 0.0
    for i in range(1, n + 1):
        total += 1.0 / i
    return total


def gauss_legendre_pi(iterations):
    a = 1.0
    b = 1.0 / math.sqrt(2.0)
    t = 0.25
    p = 1.0
    result = 0.0
    for _ in range(iterations):
        for _ in range(1000):
            an = (a + b) / 2.0
            b = math.sqrt(a * b)
            t -= p * (a - an) * (a - an)
            a = an
            p *= 2.0
            result += (a + b) * (a + b) / (4.0 * t)
            a = 1.0
            b = 1.0 / math.sqrt(2.0)
            t = 0.25
            p = 1.0
    return result


#: name -> (function, arguments, what it stands for)
KERNELS = {
    "sum of squares (loop)": (sum_of_squares, (3_000_000,), "sum_of_squares"),
    "recursive fib(27)": (fib, (27,), "fib"),
    "mandelbrot 240x120 (scalar)": (mandelbrot, (240, 120, 200), "mandelbrot"),
    "prime count < 60000 (trial division)": (prime_count, (60_000,), "prime_count"),
    "harmonic sum (reduction)": (harmonic, (3_000_000,), "harmonic"),
    "Gauss-Legendre steps (math)": (gauss_legendre_pi, (300,), "gauss_legendre_pi"),
}
