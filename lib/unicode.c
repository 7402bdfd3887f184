/* unicode.c — reads the character database that scripts/unicode_db.py
 * generates at build time from the building Python's own str methods, so
 * that upper(), isdigit() and their kin in compiled code answer exactly as
 * that Python's do (full mappings such as "ß".upper() == "SS" included). */
#include "unicode.h"

#include "unicode_db.h"

_Static_assert(UC_IS_ALPHA == UC_ALPHA && UC_IS_CASE_IGNORABLE == UC_CASE_IGNORABLE && UC_IS_PRINTABLE == UC_PRINTABLE &&
               UC_IS_ID_CONTINUE == UC_ID_CONTINUE,
               "unicode.h's properties follow the generated database's flags");

static const UcRecord *record(uint32_t c) {
  if (c >= 0x110000) return &uc_records[0];
  unsigned block = uc_index1[c >> UC_SHIFT];
  return &uc_records[uc_index2[(block << UC_SHIFT) + (c & ((1u << UC_SHIFT) - 1))]];
}

bool uc_is(uint32_t c, unsigned mask) { return (record(c)->flags & mask) == mask; }

int uc_map(uint32_t c, int to, uint32_t out[3]) {
  const UcRecord *r = record(c);
  if (!(r->flags & UC_LONG(to))) {
    out[0] = (uint32_t)((int64_t)c + r->map[to]);
    return 1;
  }
  const uint32_t *m = &uc_long[r->map[to]];
  for (uint32_t k = 0; k < m[0]; k++) out[k] = m[k + 1];
  return (int)m[0];
}
