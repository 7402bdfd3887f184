"""The analyses lowering reads (lib/analysis), tested alone on small
functions: which variables a read may find unassigned, how each variable of
a prange loop is shared, which loops may run with their errors deferred, and
how a CPU kernel runs its block's threads. ruchey._core._analyses types a
function for the given argument types and describes what they found."""
import math

import numpy
import pytest

from conftest import AS_NUMBA

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's own analyses")

if not AS_NUMBA:
    from ruchey import _core, cuda, prange
    from ruchey.types import float64, int64

    F64, I64, ARR, ARR2 = float64.describe(), int64.describe(), float64[::1].describe(), float64[:, ::1].describe()


def analyses(func, *args, parallel=False, kernel=False):
    """{heading: [words after it]} per line of the description; loops in order under 'loops'."""
    found = {"loops": []}
    for line in _core._analyses(func, tuple(args), parallel, kernel).splitlines():
        head, _, rest = line.partition(":")
        if head in ("loop", "deferrable loop, assigning", "loop checked by its sums", "prange parallel", "prange serial"):
            found["loops"].append((head, rest.split()))
        else:
            found[head] = rest.split()
    return found


# ---------------------------------------------------------------- unbound variables

def assigned_in_one_branch(x):
    if x > 0:
        y = 1.0
    return x + y


def assigned_first(x):
    y = 2.0 * x
    z = y + 1.0
    return z


def test_a_variable_assigned_in_one_branch_may_be_unbound():
    assert analyses(assigned_in_one_branch, F64)["maybe unbound"] == ["y"]


def test_variables_assigned_before_any_read_are_bound():
    assert analyses(assigned_first, F64)["maybe unbound"] == []


def loop_variable_after_the_loop(n):
    for i in range(n):
        pass
    return i


def test_a_loop_variable_may_be_unbound_after_a_loop_that_did_not_run():
    assert analyses(loop_variable_after_the_loop, I64)["maybe unbound"] == ["i"]


# ---------------------------------------------------------------- prange

def sum_and_max(x):
    s = 0.0
    m = -math.inf
    for i in prange(x.shape[0]):
        t = x[i] * 2.0
        s += t
        m = max(m, t)
    return s + m


def test_prange_variables_are_shared_private_or_reductions():
    head, words = analyses(sum_and_max, ARR, parallel=True)["loops"][-1]
    assert head == "prange parallel"
    assert set(words) == {"x=shared", "i=private", "t=private", "s=reduction(+)", "m=reduction(max)"}


def carried(x):
    last = 0.0
    for i in prange(x.shape[0]):
        x[i] = last
        last = x[i] + 1.0
    return last


def test_a_variable_carried_between_iterations_keeps_prange_serial():
    loops = analyses(carried, ARR, parallel=True)["loops"]
    assert loops[-1][0] == "prange serial"
    assert "last" in " ".join(loops[-1][1])


def test_without_parallel_a_prange_is_a_plain_loop():
    loops = analyses(sum_and_max, ARR)["loops"]
    assert [head for head, _ in loops] == ["loop"]


# ---------------------------------------------------------------- deferred errors

def roots_into_new_array(x):
    out = numpy.empty(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = math.sqrt(x[i])
    return out


def roots_into_argument(x, out):
    for i in range(x.shape[0]):
        out[i] = math.sqrt(x[i])


def dear_reduction(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += math.exp(x[i])
    return s


def cheap_reduction(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += math.sqrt(x[i])
    return s


def no_checks(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * 2.0
    return s


def integer_division(x, k):
    s = 0
    for i in range(x.shape[0]):
        s += i // k
    return s


@pytest.mark.parametrize("func, args, deferrable, assigned", [
    (roots_into_new_array, (ARR,), True, []),
    (dear_reduction, (ARR,), True, ["s"]),
], ids=["writes-own-array", "dear-math-reduction"])
def test_loops_whose_errors_can_wait(func, args, deferrable, assigned):
    [(head, words)] = analyses(func, *args)["loops"]
    assert head == "deferrable loop, assigning" and words == assigned


@pytest.mark.parametrize("func, args", [
    (roots_into_argument, (ARR, ARR)),
    (cheap_reduction, (ARR,)),
    (no_checks, (ARR,)),
    (integer_division, (ARR, I64)),
], ids=["writes-an-argument", "cheap-check-reduction", "nothing-to-defer", "integer-division-traps"])
def test_loops_run_with_their_checks(func, args):
    assert analyses(func, *args)["loops"] == [("loop", [])]


def squared_distance(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += (x[i] - y[i]) ** 2
    return s


def squares_and_cubes(x, y):
    s = 0.0
    t = 1.0
    for i in range(x.shape[0]):
        d = x[i] - y[i]
        s += d ** 2
        t -= 2.0 * d ** 3.0 + x[i] * y[i]
    return s + t


def power_kept_in_a_variable(x):
    s = 0.0
    for i in range(x.shape[0]):
        q = x[i] ** 2  # q could hold inf where the sum does not see it
        s += 1.0
    return s + q


def sum_assigned_anew(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] ** 2
        s = 0.0 * s
    return s


def fractional_power(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += abs(x[i]) ** 2.5
    return s


def power_through_a_call(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += math.exp(-x[i] ** 2)  # exp(-inf) is 0: a finite sum
    return s


def power_divided(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += 1.0 / x[i] ** 2
    return s


@pytest.mark.parametrize("func, args, sums", [
    (squared_distance, (ARR, ARR), ["s"]),
    (squares_and_cubes, (ARR, ARR), ["s", "t"]),
], ids=["squared-distance", "two-sums"])
def test_loops_checked_by_their_sums(func, args, sums):
    [(head, words)] = analyses(func, *args)["loops"]
    assert head == "loop checked by its sums" and words == sums


@pytest.mark.parametrize("func", [power_kept_in_a_variable, sum_assigned_anew, fractional_power,
                                  power_through_a_call, power_divided],
                         ids=["power-in-a-variable", "sum-assigned", "fractional-power", "power-in-a-call",
                              "power-divided"])
def test_loops_whose_powers_a_sum_may_not_show_keep_their_checks(func):
    [(head, _)] = analyses(func, ARR)["loops"]
    assert head != "loop checked by its sums"


# A function whose rerun from its start changes nothing a first run left
# may leave at a failed deferred check for its checked version to raise.

def log_rows_into_new_array(x):
    n = len(x)
    out = numpy.zeros((2, n))
    for i in range(n):
        out[0, i] = math.log(x[i])
        out[1, i] = abs(x[i]) ** 0.5
    return out


def draws_then_logs(x):
    r = numpy.random.random()
    s = 0.0
    for i in range(x.shape[0]):
        s += math.log(x[i]) * r
    return s


def changes_argument_in_place(x):
    x -= 1.0
    s = 0.0
    for i in range(x.shape[0]):
        s += math.log(x[i])
    return s


def writes_a_ufunc_out(x, out):
    numpy.sqrt(x, out=out)
    s = 0.0
    for i in range(x.shape[0]):
        s += math.log(x[i])
    return s


def writes_a_dot_out_by_position(a, out):
    numpy.dot(a, a, out)
    s = 0.0
    for i in range(a.shape[0]):
        s += math.log(a[i, i])
    return s


def catches(x):
    s = 0.0
    try:
        for i in range(x.shape[0]):
            s += math.log(x[i])
    except ValueError:
        s = -1.0
    return s


def calls_compiled(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += math.log(x[i])
    return s + helper_exp(s)


if not AS_NUMBA:
    from ruchey import njit
    helper_exp = njit(lambda v: math.exp(v))


@pytest.mark.parametrize("func, args, reruns", [
    (roots_into_new_array, (ARR,), True),
    (dear_reduction, (ARR,), True),
    (log_rows_into_new_array, (ARR,), True),
    (roots_into_argument, (ARR, ARR), False),
    (draws_then_logs, (ARR,), False),
    (changes_argument_in_place, (ARR,), False),
    (writes_a_ufunc_out, (ARR, ARR), False),
    (writes_a_dot_out_by_position, (ARR2, ARR2), False),
], ids=["writes-own-array", "reduction", "own-2d-array", "writes-an-argument", "draws-random-numbers",
        "changes-an-argument-in-place", "ufunc-out-argument", "dot-out-by-position"])
def test_functions_that_may_rerun_whole(func, args, reruns):
    assert analyses(func, *args)["reruns whole"] == ["yes" if reruns else "no"]


def test_functions_that_catch_or_call_compiled_code_rerun_their_loops_alone():
    assert analyses(catches, ARR)["reruns whole"] == ["no"]
    assert analyses(calls_compiled, ARR)["reruns whole"] == ["no"]
    assert analyses(dear_reduction, ARR, parallel=True)["reruns whole"] == ["no"]


# ---------------------------------------------------------------- CPU kernels

def plain_kernel(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] *= 2.0


def block_sum(a, out):
    buf = cuda.shared.array(64, numpy.float64)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * cuda.blockDim.x
    buf[t] = a[base + t]
    cuda.syncthreads()
    w = 32
    while w > 0:
        if t < w:
            buf[t] += buf[t + w]
        cuda.syncthreads()
        w //= 2
    if t == 0:
        out[cuda.blockIdx.x] = buf[0]


def barrier_in_a_branch(a):
    t = cuda.threadIdx.x
    if a[t] > 0.0:
        cuda.syncthreads()
    a[t] = 1.0


def test_a_kernel_without_barriers_is_one_loop_over_its_threads():
    assert analyses(plain_kernel, ARR, kernel=True)["kernel"] == ["loop"]


def test_a_kernel_with_uniform_barriers_is_split_at_them():
    found = analyses(block_sum, ARR, ARR, kernel=True)
    assert found["kernel"] == ["fission"]
    # the loop counter and the block's base are the same in every thread of
    # a block (one slot per block); the thread index is not, and is
    # recomputed per thread rather than stored per thread
    assert {"w", "base"} <= set(found["uniform"]) and "t" not in found["uniform"]
    assert found["recomputed"] == ["t"]


def test_a_barrier_under_a_thread_dependent_condition_makes_fibers():
    assert analyses(barrier_in_a_branch, ARR, kernel=True)["kernel"] == ["fibers"]


def grid_stride_loops(a, out):
    v = 0.0
    for i in range(cuda.grid(1), a.shape[0], cuda.gridsize(1)):  # each thread its own range
        v += a[i]
    for j in range(cuda.threadIdx.x, a.shape[0], cuda.blockDim.x):  # the block's stride
        if a[j] < 0.0:
            continue
        out[j] = a[j]
    for k in range(a.shape[0]):  # the same range in every thread
        v += a[k]
    for m in range(cuda.grid(1), a.shape[0], cuda.gridsize(1)):  # an atomic's order shows
        cuda.atomic.add(out, 0, a[m])
    n = cuda.grid(1)
    for p in range(n, a.shape[0], 7):  # the body changes what the start reads
        n += 1
    for q in range(cuda.grid(1), a.shape[0], cuda.grid(1) + 1):  # a step of its own
        v += a[q]
    cuda.syncthreads()
    out[cuda.grid(1)] = v


def test_loops_over_a_range_of_each_threads_own_run_in_step():
    assert analyses(grid_stride_loops, ARR, ARR, kernel=True)["in step"] == ["i", "j"]
