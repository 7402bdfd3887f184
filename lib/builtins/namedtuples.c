/* builtins/namedtuples.c — named tuples (collections.namedtuple and
 * typing.NamedTuple instances): a tuple type that also names its items
 * and its class (ty_named_tuple), so that everything a tuple does, a named
 * tuple does (t[i], unpacking, len, iteration, ==), and results are boxed
 * as instances of the class again. The frontend makes Point(x, y=2) an
 * N_TUPLE carrying the class; here p.x reads the item of that name.
 */
#include "builtins/builtins.h"

/* p.name: the same node made p[i], i the item of that name. */
const Type *ty_named_field(Infer *in, Node *n, const Type *t) {
  for (int i = 0; i < t->nfields; i++) {
    if (strcmp(t->names[i], n->str)) continue;
    Node *k = arena_alloc(in->f->arena, sizeof(Node));
    *k = (Node){.kind = N_INT, .line = n->line, .col = n->col, .ival = i, .str = "item"};
    n->kind = N_INDEX;
    n->rhs = k;
    n->str = NULL;
    n->bi = NULL;
    return ty_tuple_index(in, n, t);
  }
  if (ty_extension_member(in, n, t)) return ty_expr(in, n);  /* overload_attribute's (a package's value type) */
  return ty_error(in, n, "'%s' object has no attribute '%s'", t->names[t->nfields], n->str);
}
