/* ir.h — the one walker over ruchey's IR, for every pass of libruchey. */
#ifndef RUCHEY_IR_H
#define RUCHEY_IR_H

#include "ruchey.h"

/* Called on a node before its children; returning false skips them (the
 * visitor then handles the subtree itself, or ignores it). */
typedef bool (*IrVisit)(Node *n, void *ctx);

/* Visits n and, unless visit declines, every node below it, children in the
 * order Python evaluates them: an assignment's value before its target, a
 * loop's iterable and target before its body and else. */
void ir_walk(Node *n, IrVisit visit, void *ctx);
void ir_walk_list(const NodeList *l, IrVisit visit, void *ctx);

/* The value of an integer constant expression: literals and frozen globals
 * combined by unary - + ~ and + - * // % ** << >> & | ^ (TPB + 1); false
 * for anything else, or where Python's int would leave int64. */
bool ir_const_int(const Node *n, int64_t *out);
/* How many times the statements of body (and what they hold) assign the
 * local variable var: plain, augmented, as a for loop's target or in a
 * tuple's; *value (value may be NULL) is the value of its last plain
 * assignment, unchanged where there is none. */
int ir_assignments(const NodeList *body, int var, Node **value);
/* Whether n is a call of the builtin named name ("len", "literal_unroll"). */
bool ir_calls_builtin(const Node *n, const char *name);
/* Whether n is a str or bytes constant ("XYZ", b"XYZ", a global frozen to one). */
bool ir_is_text_constant(const Node *n);

/* How deep the nodes of body nest, counted without recursing (a sum of
 * 30,000 terms nests 30,000 deep): what the recursive passes will need. */
int ir_depth(const NodeList *body);

#endif
