/* builtins/objmode_rt.c — objmode blocks at run time: rt_objmode hands the
 * block's inputs and outputs to the extension, which runs the block under
 * the GIL; see objmode.c for the typer and lowerer. Warnings of compiled
 * code go to Python the same way (rt_warn), and the values of a raise
 * that are not numbers or str (rt_raise_objects).
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

static int (*raise_boxer)(const Type *args_t, void *args, const char *keywords, void **cls, const char **msg);
static void (*raise_forgetter)(const char *msg);

void rt_set_raise_boxer(int (*box)(const Type *args_t, void *args, const char *keywords, void **cls,
                                   const char **msg),
                        void (*forget)(const char *msg)) {
  raise_boxer = box;
  raise_forgetter = forget;
}

/* Whether e is a raise whose values the extension keeps (its message
 * "\x04" and their number). */
static bool keeps_values(const RtError *e) {
  return e->status == RT_ERR_RAISE && e->msg && e->msg[0] == '\x04' && raise_forgetter;
}

void rt_error_forget_raised(void) {
  RtError *e = rt_last_error();
  if (keeps_values(e)) raise_forgetter(e->msg);
}

void rt_error_forget(const RtError *copy) {
  if (keeps_values(copy)) raise_forgetter(copy->msg);
}

void rt_error_forget_unless_raised(const RtError *copy) {
  RtError *e = rt_last_error();
  if (keeps_values(copy) && !(e->status == RT_ERR_RAISE && e->msg == copy->msg)) raise_forgetter(copy->msg);
}

/* The extension boxes the arguments while compiled code still holds them
 * (the last of them the values of the keywords named, each name ended by
 * '\x1f') and keeps them, which the message names; where boxing fails,
 * its exception is raised instead. */
void rt_raise_objects(void *cls, const Type *args_t, void *args, const char *keywords) {
  void *failed = NULL;
  const char *msg = NULL;
  if (!raise_boxer) {
    rt_set_error(RT_ERR_RUNTIME, "an exception's arguments cannot be made into Python objects without the extension");
    return;
  }
  if (raise_boxer(args_t, args, keywords, &failed, &msg)) cls = failed;
  rt_raise(cls, msg);
}
