/* The benchmark kernels in C: the speed limit the JITs are measured against.
 *
 * Built by the suite (bench/cbuild.py) with gcc -O3 -march=native into a
 * shared library and called through ctypes with NumPy arrays' data pointers.
 * Each function does what its namesake in kernels.py does, on C-contiguous
 * float64/int64 arrays; outputs are allocated by the caller (the wrappers in
 * specs.py time the allocation as well).  Only prange_reduce is threaded, with
 * OpenMP, as its Python version is parallel=True.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void arr_sum(const double *restrict x, const double *restrict y,
             double *restrict out, int64_t n) {
    for (int64_t i = 0; i < n; i++)
        out[i] = x[i] + y[i];
}

void mandelbrot(double xmin, double xmax, double ymin, double ymax,
                int64_t width, int64_t height, int64_t max_iter,
                int64_t *restrict counts) {
    double dx = (xmax - xmin) / width, dy = (ymax - ymin) / height;
    for (int64_t j = 0; j < height; j++) {
        double cy = ymin + j * dy;
        for (int64_t i = 0; i < width; i++) {
            double cx = xmin + i * dx, zx = 0.0, zy = 0.0;
            int64_t n = 0;
            while (n < max_iter && zx * zx + zy * zy <= 4.0) {
                double t = zx * zx - zy * zy + cx;
                zy = 2.0 * zx * zy + cy;
                zx = t;
                n++;
            }
            counts[j * width + i] = n;
        }
    }
}

void nbody_step(double *restrict pos, double *restrict vel,
                const double *restrict mass, double dt, double eps, int64_t n,
                double *restrict acc) {
    for (int64_t i = 0; i < n; i++) {
        double ax = 0.0, ay = 0.0, az = 0.0;
        double xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
        for (int64_t j = 0; j < n; j++) {
            double dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi,
                   dz = pos[3 * j + 2] - zi;
            double r2 = dx * dx + dy * dy + dz * dz + eps * eps;
            double inv = mass[j] / (r2 * sqrt(r2));
            ax += dx * inv;
            ay += dy * inv;
            az += dz * inv;
        }
        acc[3 * i] = ax;
        acc[3 * i + 1] = ay;
        acc[3 * i + 2] = az;
    }
    for (int64_t i = 0; i < 3 * n; i++) {
        vel[i] += dt * acc[i];
        pos[i] += dt * vel[i];
    }
}

/* Returns the buffer (a or b) that holds the result. */
int jacobi(double *restrict a, double *restrict b, int64_t ny, int64_t nx,
           int64_t sweeps) {
    for (int64_t s = 0; s < sweeps; s++) {
        for (int64_t i = 1; i < ny - 1; i++)
            for (int64_t j = 1; j < nx - 1; j++)
                b[i * nx + j] = 0.25 * (a[(i - 1) * nx + j] + a[(i + 1) * nx + j]
                                        + a[i * nx + j - 1] + a[i * nx + j + 1]);
        double *t = a;
        a = b;
        b = t;
    }
    return sweeps % 2;
}

void matmul(const double *restrict a, const double *restrict b,
            double *restrict c, int64_t n, int64_t m, int64_t p) {
    memset(c, 0, sizeof(double) * n * p);
    for (int64_t i = 0; i < n; i++)
        for (int64_t k = 0; k < m; k++) {
            double aik = a[i * m + k];
            for (int64_t j = 0; j < p; j++)
                c[i * p + j] += aik * b[k * p + j];
        }
}

void histogram(const double *restrict x, int64_t n, double lo, double hi,
               int64_t nbins, int64_t *restrict counts) {
    memset(counts, 0, sizeof(int64_t) * nbins);
    double scale = nbins / (hi - lo);
    for (int64_t i = 0; i < n; i++) {
        double v = x[i];
        if (v >= lo && v < hi)
            counts[(int64_t)((v - lo) * scale)]++;
    }
}

int64_t prime_sieve(int64_t n) {
    bool *is_prime = malloc(n + 1);
    memset(is_prime, 1, n + 1);
    is_prime[0] = is_prime[1] = false;
    for (int64_t i = 2; i * i <= n; i++)
        if (is_prime[i])
            for (int64_t j = i * i; j <= n; j += i)
                is_prime[j] = false;
    int64_t count = 0;
    for (int64_t i = 0; i <= n; i++)
        count += is_prime[i];
    free(is_prime);
    return count;
}

void prefix_sum(const double *restrict x, double *restrict out, int64_t n) {
    double total = 0.0;
    for (int64_t i = 0; i < n; i++) {
        total += x[i];
        out[i] = total;
    }
}

void pairwise_distances(const double *restrict points, int64_t n, int64_t d,
                        double *restrict dist) {
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = 0.0;
            for (int64_t k = 0; k < d; k++) {
                double t = points[i * d + k] - points[j * d + k];
                s += t * t;
            }
            dist[i * n + j] = sqrt(s);
        }
}

void black_scholes(const double *restrict price, const double *restrict strike,
                   const double *restrict t, double rate, double vol, int64_t n,
                   double *restrict call, double *restrict put) {
    for (int64_t i = 0; i < n; i++) {
        double sqrt_t = sqrt(t[i]);
        double d1 = (log(price[i] / strike[i]) + (rate + 0.5 * vol * vol) * t[i])
                    / (vol * sqrt_t);
        double d2 = d1 - vol * sqrt_t;
        double cdf1 = 0.5 * (1.0 + erf(d1 / sqrt(2.0)));
        double cdf2 = 0.5 * (1.0 + erf(d2 / sqrt(2.0)));
        double discounted = strike[i] * exp(-rate * t[i]);
        call[i] = price[i] * cdf1 - discounted * cdf2;
        put[i] = discounted * (1.0 - cdf2) - price[i] * (1.0 - cdf1);
    }
}

int64_t fib(int64_t n) {
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

double prange_reduce(const double *restrict x, int64_t n) {
    double total = 0.0;
#pragma omp parallel for reduction(+ : total)
    for (int64_t i = 0; i < n; i++)
        total += exp(-x[i] * x[i]);
    return total;
}
