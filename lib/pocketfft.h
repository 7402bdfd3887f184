/* pocketfft.h — what lib/pocketfft.c (NumPy 1.26's pocketfft C) gives
 * lib/builtins/fft_rt.c: a plan per length, and the transforms of one
 * line of doubles in place, each result times fct. A complex line is n
 * (re, im) pairs; a real one n doubles, its forward transform packed as
 * pocketfft packs it: r0, r1, i1, r2, i2, ... The transforms return 0, or
 * -1 where memory ran out; the plans NULL. */
#ifndef RUCHEY_POCKETFFT_H
#define RUCHEY_POCKETFFT_H

#include <stddef.h>

typedef struct cfft_plan_i *cfft_plan;
typedef struct rfft_plan_i *rfft_plan;

cfft_plan make_cfft_plan(size_t length);
void destroy_cfft_plan(cfft_plan plan);
int cfft_forward(cfft_plan plan, double c[], double fct);
int cfft_backward(cfft_plan plan, double c[], double fct);
rfft_plan make_rfft_plan(size_t length);
void destroy_rfft_plan(rfft_plan plan);
int rfft_forward(rfft_plan plan, double c[], double fct);
int rfft_backward(rfft_plan plan, double c[], double fct);

#endif
