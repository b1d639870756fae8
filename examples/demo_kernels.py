"""Kernels for the demo (plain Python; plait compiles them from this source)."""

import math

from plait import prange


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


def integrate_sin(a, b, steps):
    h = (b - a) / steps
    total = 0.0
    for i in range(steps):
        total += math.sin(a + (i + 0.5) * h)
    return total * h


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def mandelbrot_rows(width, height, max_iterations, out):
    # prange: the rows are independent; with parallel=True they run on
    # plait's thread pool.
    for row in prange(height):
        ci = -1.2 + 2.4 * row / height
        for col in range(width):
            cr = -2.0 + 3.0 * col / width
            zr = 0.0
            zi = 0.0
            k = 0
            while k < max_iterations and zr * zr + zi * zi < 4.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                k += 1
            out[row, col] = k
    return out.sum()
