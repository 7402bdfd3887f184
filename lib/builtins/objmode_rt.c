/* builtins/objmode_rt.c — objmode blocks at run time: rt_objmode hands the
 * block's inputs and outputs to the extension, which runs the block under
 * the GIL; see objmode.c for the typer and lowerer.
 */
#include "ruchey.h"

static int (*objmode_caller)(void *block, const Type *in_t, void *in, const Type *out_t, void *out, void **cls,
                             const char **msg);

void rt_set_objmode_caller(int (*call)(void *, const Type *, void *, const Type *, void *, void **, const char **)) {
  objmode_caller = call;
}

/* 0, or RT_ERR_RAISE with the block's exception recorded */
int32_t rt_objmode(void *block, const Type *in_t, void *in, const Type *out_t, void *out) {
  void *cls = NULL;
  const char *msg = NULL;
  if (!objmode_caller(block, in_t, in, out_t, out, &cls, &msg)) return RT_OK;
  rt_raise(cls, msg);
  return RT_ERR_RAISE;
}
