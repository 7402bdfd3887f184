; Functions shaped as ruchey's compiled code (int entry(ptr ret, ptr args),
; args[0] pointing at a double), for test_loader_cross.py: compiled by llc
; for another processor and loaded there by lib/loader.c through harness.c.
; Each one needs a different kind of relocation: constants, data and calls
; within the object, a table of addresses, offsets between symbols, a jump
; table, the C library and a function too far away for a direct call.

@table = internal global [4 x double] [double 1.0, double 2.5, double 3.25, double 4.0]
@counter = internal global i64 0
@calls = internal constant [3 x ptr] [ptr @twice, ptr @sin, ptr @rt_far]
@offsets = internal constant [2 x i32] [
  i32 trunc (i64 sub (i64 ptrtoint (ptr getelementptr (i8, ptr @table, i64 8) to i64), i64 ptrtoint (ptr @offsets to i64)) to i32),
  i32 trunc (i64 sub (i64 ptrtoint (ptr getelementptr (i8, ptr @table, i64 24) to i64), i64 ptrtoint (ptr getelementptr (i8, ptr @offsets, i64 4) to i64)) to i32)]

declare double @sin(double)
declare double @rt_far(double)  ; the harness's, mapped far from the code

define internal double @twice(double %x) noinline {
  %r = fmul double %x, 2.0
  ret double %r
}

define internal double @far_tail(double %x) noinline {
  %r = tail call double @rt_far(double %x)  ; a jump (JUMP26), not a call
  ret double %r
}

define internal i64 @fact(i64 %n) noinline {
  %small = icmp sle i64 %n, 1
  br i1 %small, label %one, label %more
one:
  ret i64 1
more:
  %m = sub i64 %n, 1
  %f = call i64 @fact(i64 %m)
  %r = mul i64 %n, %f
  ret i64 %r
}

define internal double @arg(ptr %args) {
  %a = load ptr, ptr %args
  %x = load double, ptr %a
  ret double %x
}

; 3.1 x^2 - 2.7 x + 0.123
define i32 @poly(ptr %ret, ptr %args) {
  %x = call double @arg(ptr %args)
  %a = fmul double %x, 3.1
  %b = fmul double %a, %x
  %c = fmul double %x, 2.7
  %d = fsub double %b, %c
  %e = fadd double %d, 0.123
  store double %e, ptr %ret
  ret i32 0
}

; fact(int(x))
define i32 @factorial(ptr %ret, ptr %args) {
  %x = call double @arg(ptr %args)
  %n = fptosi double %x to i64
  %f = call i64 @fact(i64 %n)
  %r = sitofp i64 %f to double
  store double %r, ptr %ret
  ret i32 0
}

; sin(x) + 2 * x (rt_far, called and jumped to) * 2 + twice(x) + calls[i % 3](x), i = int(x)
define i32 @calls_out(ptr %ret, ptr %args) {
  %x = call double @arg(ptr %args)
  %s = call double @sin(double %x)
  %f = call double @rt_far(double %x)
  %i = fptosi double %x to i64
  %k = urem i64 %i, 3
  %p = getelementptr [3 x ptr], ptr @calls, i64 0, i64 %k
  %fp = load ptr, ptr %p
  %t = call double %fp(double %x)
  %w = call double @twice(double %x)
  %g = call double @far_tail(double %x)
  %h = fadd double %s, %g
  %u = fadd double %h, %f
  %v = fadd double %u, %w
  %r = fadd double %v, %t
  store double %r, ptr %ret
  ret i32 0
}

; table[i % 4] * {1, 10, 100, 1000, 7, 70, 700}[i % 7] + table[1] + table[3]
; (the last two through offsets) + table[0], which grows by one each call
define i32 @data(ptr %ret, ptr %args) {
  %x = call double @arg(ptr %args)
  %i = fptosi double %x to i64
  %j = and i64 %i, 3
  %p = getelementptr [4 x double], ptr @table, i64 0, i64 %j
  %t = load double, ptr %p
  %c = urem i64 %i, 7
  switch i64 %c, label %d6 [i64 0, label %d0
                            i64 1, label %d1
                            i64 2, label %d2
                            i64 3, label %d3
                            i64 4, label %d4
                            i64 5, label %d5]
d0: br label %done
d1: br label %done
d2: br label %done
d3: br label %done
d4: br label %done
d5: br label %done
d6: br label %done
done:
  %m = phi double [1.0, %d0], [10.0, %d1], [100.0, %d2], [1000.0, %d3], [7.0, %d4], [70.0, %d5], [700.0, %d6]
  %v = fmul double %t, %m
  %o0 = load i32, ptr @offsets
  %o0x = sext i32 %o0 to i64
  %q0 = getelementptr i8, ptr @offsets, i64 %o0x
  %w0 = load double, ptr %q0
  %o1p = getelementptr i32, ptr @offsets, i64 1
  %o1 = load i32, ptr %o1p
  %o1x = sext i32 %o1 to i64
  %q1 = getelementptr i8, ptr %o1p, i64 %o1x
  %w1 = load double, ptr %q1
  %v1 = fadd double %v, %w0
  %v2 = fadd double %v1, %w1
  %t0 = load double, ptr @table
  %t1 = fadd double %t0, 1.0
  store double %t1, ptr @table
  %n = load i64, ptr @counter
  %n1 = add i64 %n, 1
  store i64 %n1, ptr @counter
  %v3 = fadd double %v2, %t0
  store double %v3, ptr %ret
  ret i32 0
}
