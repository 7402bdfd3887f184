/* unicode.h — the properties and case mappings of characters that str's
 * methods need, as the Python that built ruchey has them (unicode.c). */
#ifndef RUCHEY_UNICODE_H
#define RUCHEY_UNICODE_H

#include <stdbool.h>
#include <stdint.h>

/* the properties (uc_is) */
enum {
  UC_IS_ALPHA = 1 << 0, UC_IS_DECIMAL = 1 << 1, UC_IS_DIGIT = 1 << 2, UC_IS_NUMERIC = 1 << 3,
  UC_IS_SPACE = 1 << 4, UC_IS_LOWER = 1 << 5, UC_IS_UPPER = 1 << 6, UC_IS_TITLE = 1 << 7,
  UC_IS_CASED = 1 << 8, UC_IS_CASE_IGNORABLE = 1 << 9, UC_IS_PRINTABLE = 1 << 10,
  UC_IS_ID_START = 1 << 11, UC_IS_ID_CONTINUE = 1 << 12,
};

/* the mappings (uc_map), in the order of the database's records */
enum { UC_TO_UPPER, UC_TO_LOWER, UC_TO_TITLE, UC_TO_FOLD };

/* Whether c has every property in mask. */
bool uc_is(uint32_t c, unsigned mask);

/* c's mapping `to` into out (room for 3): how many characters it gives. */
int uc_map(uint32_t c, int to, uint32_t out[3]);

#endif
