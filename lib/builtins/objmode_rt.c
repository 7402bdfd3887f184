/* builtins/objmode_rt.c — objmode blocks at run time: rt_objmode hands the
 * block's inputs and outputs to the extension, which runs the block under
 * the GIL; see objmode.c for the typer and lowerer. Warnings of compiled
 * code go to Python the same way (rt_warn).
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

static int (*warning_caller)(const char *category, const char *msg, void **cls, const char **text);

void rt_set_warning_caller(int (*warn)(const char *category, const char *msg, void **cls, const char **text)) {
  warning_caller = warn;
}

int32_t rt_warn(const char *category, const char *msg) {
  void *cls = NULL;
  const char *text = NULL;
  if (!warning_caller || !warning_caller(category, msg, &cls, &text)) return RT_OK;
  rt_raise(cls, text);
  return RT_ERR_RAISE;
}
