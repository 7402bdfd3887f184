/* loader.c — code from the on-disk cache loaded without LLVM: a small
 * linker for the ELF relocatable objects the JIT's TargetMachine emits.
 *
 * Those objects use the JIT's large code model: code reaches data and other
 * functions through absolute 64-bit addresses (movabs), so on x86-64 they
 * hold R_X86_64_64 relocations, and PC-relative ones in .eh_frame; on
 * AArch64 they build addresses 16 bits at a time (MOVW_UABS) and call
 * within the object by BL, a stub after the code taking a call too far
 * for one. The
 * allocated sections are laid out in one mapping, code first, then
 * read-only data, then writable data, each group on pages of its own;
 * .eh_frame is left out (compiled code raises by longjmp, nothing unwinds
 * through it). Symbols resolve to the Python objects the code names
 * (res->externs), the runtime's functions (rt_register_symbols), then the
 * process's libraries (the C and math libraries, libmvec). Then the code
 * pages become executable and the constants read-only.
 *
 * Anything it does not know (another machine, a kind of relocation, TLS,
 * a common or unresolved symbol) is a refusal that says why, and the JIT's
 * loader then gets the object; a damaged one is refused by both.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <elf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ruchey.h"

/* ---------------------------------------------------------------- symbols */

typedef struct Symbol {
  const char *name;
  void *addr;
} Symbol;

/* The runtime's symbols, sorted by name once; libmvec, opened on the first
 * object that names one of its functions. */
static struct {
  pthread_once_t once, mvec_once;
  Symbol *v;
  size_t n, cap;
  void *libmvec;
} R = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};

static void add_runtime(const char *name, void *addr, void *ctx) {
  if (R.n == R.cap) {
    size_t cap = R.cap ? 2 * R.cap : 256;
    Symbol *v = realloc(R.v, cap * sizeof *v);
    if (!v) return;  /* then its users fail to resolve */
    R.v = v;
    R.cap = cap;
  }
  R.v[R.n++] = (Symbol){name, addr};
}

static int by_name(const void *a, const void *b) { return strcmp(((const Symbol *)a)->name, ((const Symbol *)b)->name); }

static void collect_runtime(void) {
  rt_register_symbols(add_runtime, NULL);
  qsort(R.v, R.n, sizeof *R.v, by_name);
}

static void open_libmvec(void) { R.libmvec = dlopen("libmvec.so.1", RTLD_NOW | RTLD_LOCAL); }

static void *resolve(const char *name, const CompileResult *res) {
  for (int i = 0; i < res->nexterns; i++)
    if (!strcmp(res->externs[i].name, name)) return res->externs[i].addr;
  pthread_once(&R.once, collect_runtime);
  Symbol key = {name, NULL}, *found = bsearch(&key, R.v, R.n, sizeof *R.v, by_name);
  if (found) return found->addr;
  void *addr = dlsym(RTLD_DEFAULT, name);
  if (addr || strncmp(name, "_ZGV", 4)) return addr;  /* _ZGV: a vector math function */
  pthread_once(&R.mvec_once, open_libmvec);
  return R.libmvec ? dlsym(R.libmvec, name) : NULL;
}

/* ---------------------------------------------------------------- relocations */

/* Room after the code for the far jumps a relocation may need: one slot per
 * relocation that can need one, used where its target is out of reach. */
typedef struct Stubs {
  unsigned char *next, *end;
} Stubs;

#if defined(__x86_64__)
#define HOST_MACHINE EM_X86_64

/* Writes the relocated value at p (width bytes, checked by the caller):
 * false for a kind this loader does not know or a value that does not fit.
 * The large code model calls through registers: no stubs. */
static bool relocate(uint32_t type, unsigned char *p, uint64_t s, int64_t a, Stubs *stubs) {
  uint64_t v = s + (uint64_t)a, pc = (uint64_t)(uintptr_t)p;
  int64_t rel = (int64_t)(v - pc);
  switch (type) {
  case R_X86_64_NONE: return true;
  case R_X86_64_64: memcpy(p, &v, 8); return true;
  case R_X86_64_PC64: memcpy(p, &rel, 8); return true;
  case R_X86_64_PC32:
  case R_X86_64_PLT32: {
    int32_t r = (int32_t)rel;
    if (r != rel) return false;
    memcpy(p, &r, 4);
    return true;
  }
  default: return false;
  }
}

/* the bytes a relocation writes (0 for one relocate() refuses) */
static size_t relocation_width(uint32_t type) {
  return type == R_X86_64_64 || type == R_X86_64_PC64 ? 8 : type == R_X86_64_PC32 || type == R_X86_64_PLT32 ? 4 : 0;
}

static size_t stub_bytes(uint32_t type) { return 0; }

#elif defined(__aarch64__)
#define HOST_MACHINE EM_AARCH64

/* The JIT's large code model reaches data and other functions through
 * absolute addresses built 16 bits at a time (MOVZ/MOVK, the MOVW_UABS
 * kinds); calls within the object are BL (CALL26, +-128 MiB), as are
 * calls LLVM makes to functions of its own choosing (memcpy). The small
 * code model's page-relative pairs (ADRP with ADD or a load) are known
 * too. A branch whose target is out of reach goes through a stub. */

/* The instruction at p with bits [lo, lo + n) set to field. */
static void patch(unsigned char *p, unsigned lo, unsigned n, uint32_t field) {
  uint32_t insn, mask = (n == 32 ? ~0u : (1u << n) - 1) << lo;
  memcpy(&insn, p, 4);
  insn = (insn & ~mask) | ((field << lo) & mask);
  memcpy(p, &insn, 4);
}

static bool fits(int64_t v, unsigned bits) { return v >= -((int64_t)1 << (bits - 1)) && v < ((int64_t)1 << (bits - 1)); }

/* ADR and ADRP: a 21-bit immediate split in two fields. */
static void patch_adr(unsigned char *p, int64_t imm) {
  patch(p, 29, 2, (uint32_t)imm & 3);
  patch(p, 5, 19, (uint32_t)(imm >> 2) & 0x7ffff);
}

/* A far jump to v (LDR x16, the address below; BR x16; the address):
 * x16 is the register AArch64's calling convention leaves to veneers. */
static unsigned char *stub_to(Stubs *stubs, uint64_t v) {
  static const uint32_t code[2] = {0x58000050, 0xd61f0200};
  if (!stubs->next || stubs->end - stubs->next < 16) return NULL;
  unsigned char *at = stubs->next;
  memcpy(at, code, 8);
  memcpy(at + 8, &v, 8);
  stubs->next += 16;
  return at;
}

static bool branch26(unsigned char *p, uint64_t v, Stubs *stubs) {
  int64_t rel = (int64_t)(v - (uint64_t)(uintptr_t)p);
  if (!fits(rel, 28) || rel % 4) {
    unsigned char *stub = stub_to(stubs, v);
    if (!stub) return false;
    rel = stub - p;
    if (!fits(rel, 28)) return false;
  }
  patch(p, 0, 26, (uint32_t)(rel >> 2));
  return true;
}

/* The low 12 bits of v scaled by the access size (1 << shift), for a
 * load or store that adds them to a page's address: v must be aligned. */
static bool low12(unsigned char *p, uint64_t v, unsigned shift) {
  if (v & ((1u << shift) - 1)) return false;
  patch(p, 10, 12, (uint32_t)(v & 0xfff) >> shift);
  return true;
}

static bool relocate(uint32_t type, unsigned char *p, uint64_t s, int64_t a, Stubs *stubs) {
  uint64_t v = s + (uint64_t)a, pc = (uint64_t)(uintptr_t)p;
  int64_t rel = (int64_t)(v - pc), pages = (int64_t)((v >> 12) - (pc >> 12));
  switch (type) {
  case R_AARCH64_NONE: case 256: return true;  /* 256: the ABI's other number for none */
  case R_AARCH64_ABS64: memcpy(p, &v, 8); return true;
  case R_AARCH64_PREL64: memcpy(p, &rel, 8); return true;
  case R_AARCH64_PREL32: {
    int32_t r = (int32_t)rel;
    if (r != rel) return false;
    memcpy(p, &r, 4);
    return true;
  }
  case R_AARCH64_MOVW_UABS_G0_NC: patch(p, 5, 16, (uint32_t)v & 0xffff); return true;
  case R_AARCH64_MOVW_UABS_G1_NC: patch(p, 5, 16, (uint32_t)(v >> 16) & 0xffff); return true;
  case R_AARCH64_MOVW_UABS_G2_NC: patch(p, 5, 16, (uint32_t)(v >> 32) & 0xffff); return true;
  case R_AARCH64_MOVW_UABS_G3: patch(p, 5, 16, (uint32_t)(v >> 48)); return true;
  case R_AARCH64_ADR_PREL_LO21:
    if (!fits(rel, 21)) return false;
    patch_adr(p, rel);
    return true;
  case R_AARCH64_ADR_PREL_PG_HI21:
    if (!fits(pages, 21)) return false;
    patch_adr(p, pages);
    return true;
  case R_AARCH64_ADR_PREL_PG_HI21_NC: patch_adr(p, pages); return true;
  case R_AARCH64_ADD_ABS_LO12_NC: return low12(p, v, 0);
  case R_AARCH64_LDST8_ABS_LO12_NC: return low12(p, v, 0);
  case R_AARCH64_LDST16_ABS_LO12_NC: return low12(p, v, 1);
  case R_AARCH64_LDST32_ABS_LO12_NC: return low12(p, v, 2);
  case R_AARCH64_LDST64_ABS_LO12_NC: return low12(p, v, 3);
  case R_AARCH64_LDST128_ABS_LO12_NC: return low12(p, v, 4);
  case R_AARCH64_LD_PREL_LO19:
    if (!fits(rel, 21) || rel % 4) return false;
    patch(p, 5, 19, (uint32_t)(rel >> 2));
    return true;
  case R_AARCH64_CALL26: case R_AARCH64_JUMP26: return branch26(p, v, stubs);
  default: return false;
  }
}

/* The kinds relocate() knows: the bytes each writes, the stub it may need. */
static const struct {
  uint32_t type;
  unsigned char width, stub;
} kinds[] = {
  {R_AARCH64_ABS64, 8, 0}, {R_AARCH64_PREL64, 8, 0}, {R_AARCH64_PREL32, 4, 0},
  {R_AARCH64_MOVW_UABS_G0_NC, 4, 0}, {R_AARCH64_MOVW_UABS_G1_NC, 4, 0}, {R_AARCH64_MOVW_UABS_G2_NC, 4, 0},
  {R_AARCH64_MOVW_UABS_G3, 4, 0}, {R_AARCH64_ADR_PREL_LO21, 4, 0}, {R_AARCH64_ADR_PREL_PG_HI21, 4, 0},
  {R_AARCH64_ADR_PREL_PG_HI21_NC, 4, 0}, {R_AARCH64_ADD_ABS_LO12_NC, 4, 0}, {R_AARCH64_LDST8_ABS_LO12_NC, 4, 0},
  {R_AARCH64_LDST16_ABS_LO12_NC, 4, 0}, {R_AARCH64_LDST32_ABS_LO12_NC, 4, 0},
  {R_AARCH64_LDST64_ABS_LO12_NC, 4, 0}, {R_AARCH64_LDST128_ABS_LO12_NC, 4, 0}, {R_AARCH64_LD_PREL_LO19, 4, 0},
  {R_AARCH64_CALL26, 4, 16}, {R_AARCH64_JUMP26, 4, 16},
};

static int kind_index(uint32_t type) {
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (kinds[i].type == type) return (int)i;
  return -1;
}

static size_t relocation_width(uint32_t type) {
  int k = kind_index(type);
  return k < 0 ? 0 : kinds[k].width;
}

static size_t stub_bytes(uint32_t type) {
  int k = kind_index(type);
  return k < 0 ? 0 : kinds[k].stub;
}

#else
#define HOST_MACHINE EM_NONE  /* no object is loaded here: the JIT's loader does it */
static bool relocate(uint32_t type, unsigned char *p, uint64_t s, int64_t a, Stubs *stubs) { return false; }
static size_t relocation_width(uint32_t type) { return 0; }
static size_t stub_bytes(uint32_t type) { return 0; }
#endif

/* ---------------------------------------------------------------- the object */

enum { GROUP_CODE, GROUP_CONST, GROUP_DATA, NGROUPS };

/* An object file being loaded: the file, its section headers, where each
 * loaded section went (NULL: not loaded). */
typedef struct Object {
  const unsigned char *file;
  size_t size;
  const Elf64_Shdr *sh;
  int nsh;
  unsigned char **at;
  size_t group_size[NGROUPS], group_offset[NGROUPS];
  unsigned char *map;
  size_t map_size;
  Stubs stubs;
  Diag *d;
  bool damaged;  /* refused as damaged, not as unknown */
} Object;

/* Code this loader mapped (CompileResult.code). */
typedef struct LoadedCode {
  RtCode base;
  void *map;
  size_t size;
} LoadedCode;

static void release_loaded(RtCode *code) {
  LoadedCode *c = (LoadedCode *)code;
  munmap(c->map, c->size);
  free(c);
}

static bool refuse(Object *o, const char *why, const char *detail) {
  o->d->kind = DIAG_INTERNAL;
  snprintf(o->d->msg, sizeof o->d->msg, "cached code not loaded: %s%s", why, detail);
  return false;
}

static bool damaged(Object *o, const char *why, const char *detail) {
  o->damaged = true;
  return refuse(o, why, detail);
}

static bool within(const Object *o, uint64_t offset, uint64_t size) {
  return offset <= o->size && size <= o->size - offset;
}

/* The string at offset in a string table; "" where the file is damaged. */
static const char *string_at(const Object *o, const Elf64_Shdr *table, uint64_t offset) {
  if (table->sh_type != SHT_STRTAB || offset >= table->sh_size) return "";
  const char *s = (const char *)o->file + table->sh_offset + offset;
  return memchr(s, 0, table->sh_size - offset) ? s : "";
}

static const char *section_name(const Object *o, const Elf64_Shdr *s) {
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)o->file;
  if (eh->e_shstrndx >= o->nsh) return "";
  return string_at(o, &o->sh[eh->e_shstrndx], s->sh_name);
}

/* Which group a section goes to; -1 if it is not loaded. */
static int group_of(const Object *o, const Elf64_Shdr *s) {
  if (!(s->sh_flags & SHF_ALLOC) || (s->sh_type != SHT_PROGBITS && s->sh_type != SHT_NOBITS)) return -1;
  if (!strcmp(section_name(o, s), ".eh_frame")) return -1;
  return s->sh_flags & SHF_EXECINSTR ? GROUP_CODE : s->sh_flags & SHF_WRITE ? GROUP_DATA : GROUP_CONST;
}

static size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

/* The stub bytes the relocations of loaded sections may need; 0 for
 * relocations apply_relocations will find damaged. */
static size_t stubs_needed(const Object *o) {
  size_t bytes = 0;
  for (int i = 0; i < o->nsh; i++) {
    const Elf64_Shdr *s = &o->sh[i];
    if (s->sh_type != SHT_RELA || s->sh_info >= (Elf64_Word)o->nsh || group_of(o, &o->sh[s->sh_info]) < 0 ||
        s->sh_entsize != sizeof(Elf64_Rela) || s->sh_offset % 8)
      continue;
    const Elf64_Rela *r = (const Elf64_Rela *)(o->file + s->sh_offset);
    for (size_t k = 0; k < s->sh_size / sizeof *r; k++) bytes += stub_bytes(ELF64_R_TYPE(r[k].r_info));
  }
  return bytes;
}

static bool read_header(Object *o) {
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)o->file;
  if (o->size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
      eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_type != ET_REL)
    return damaged(o, "not an ELF relocatable object", "");
  if (eh->e_machine != HOST_MACHINE) return refuse(o, "not an object this loader knows", "");
  if (eh->e_shentsize != sizeof(Elf64_Shdr) || !eh->e_shnum ||
      !within(o, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)) || eh->e_shoff % 8)
    return damaged(o, "damaged section headers", "");
  o->sh = (const Elf64_Shdr *)(o->file + eh->e_shoff);
  o->nsh = eh->e_shnum;
  for (int i = 0; i < o->nsh; i++) {
    const Elf64_Shdr *s = &o->sh[i];
    if (s->sh_type != SHT_NOBITS && s->sh_type != SHT_NULL && !within(o, s->sh_offset, s->sh_size))
      return damaged(o, "a section past the end of the file", "");
  }
  for (int i = 0; i < o->nsh; i++) {  /* the names readable now */
    const Elf64_Shdr *s = &o->sh[i];
    bool loaded_kind = s->sh_type == SHT_PROGBITS || s->sh_type == SHT_NOBITS || !strcmp(section_name(o, s), ".eh_frame");
    if (s->sh_type == SHT_REL || (s->sh_flags & SHF_TLS) || ((s->sh_flags & SHF_ALLOC) && !loaded_kind))
      return refuse(o, "a section of a kind not known: ", section_name(o, s));  /* constructors, TLS */
  }
  return true;
}

/* Places each loaded section in its group, aligned; then maps them all. */
static bool lay_out(Object *o) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  for (int i = 0; i < o->nsh; i++) {
    const Elf64_Shdr *s = &o->sh[i];
    int g = group_of(o, s);
    if (g < 0) continue;
    size_t align = s->sh_addralign ? s->sh_addralign : 1;
    if (align & (align - 1) || align > page) return refuse(o, "a section aligned beyond a page: ", section_name(o, s));
    if (s->sh_size > ((size_t)1 << 30)) return damaged(o, "a section of more than a gigabyte: ", section_name(o, s));
    o->group_size[g] = round_up(o->group_size[g], align) + s->sh_size;
  }
  size_t stubs = stubs_needed(o), stubs_offset = 0;  /* in the code group, after the code */
  if (stubs) {
    stubs_offset = round_up(o->group_size[GROUP_CODE], 16);
    o->group_size[GROUP_CODE] = stubs_offset + stubs;
  }
  for (int g = 0; g < NGROUPS; g++) {
    o->group_offset[g] = o->map_size;
    o->map_size += round_up(o->group_size[g], page);
  }
  if (!o->map_size) return damaged(o, "no code", "");
  void *map = mmap(NULL, o->map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) return refuse(o, "no memory for the code", "");
  o->map = map;
  if (stubs) {
    o->stubs.next = o->map + o->group_offset[GROUP_CODE] + stubs_offset;
    o->stubs.end = o->stubs.next + stubs;
  }
  size_t used[NGROUPS] = {0};
  for (int i = 0; i < o->nsh; i++) {
    const Elf64_Shdr *s = &o->sh[i];
    int g = group_of(o, s);
    if (g < 0) continue;  /* an empty one too: symbols may mark its place */
    used[g] = round_up(used[g], s->sh_addralign ? s->sh_addralign : 1);
    o->at[i] = o->map + o->group_offset[g] + used[g];
    if (s->sh_type == SHT_PROGBITS) memcpy(o->at[i], o->file + s->sh_offset, s->sh_size);
    used[g] += s->sh_size;
  }
  return true;
}

static const Elf64_Shdr *symbol_table(const Object *o, int *index) {
  for (int i = 0; i < o->nsh; i++)
    if (o->sh[i].sh_type == SHT_SYMTAB) {
      *index = i;
      return &o->sh[i];
    }
  return NULL;
}

/* A symbol's address: in a loaded section, absolute, or resolved by name. */
static bool symbol_address(Object *o, const Elf64_Shdr *strtab, const Elf64_Sym *sym, const CompileResult *res,
                           uint64_t *addr) {
  const char *name = string_at(o, strtab, sym->st_name);
  if (ELF64_ST_TYPE(sym->st_info) == STT_TLS || sym->st_shndx == SHN_COMMON)
    return refuse(o, "a symbol of a kind not known: ", name);
  if (sym->st_shndx == SHN_ABS) {
    *addr = sym->st_value;
    return true;
  }
  if (sym->st_shndx == SHN_UNDEF) {
    void *found = resolve(name, res);
    *addr = (uint64_t)(uintptr_t)found;
    return found || refuse(o, "an unknown symbol: ", name);
  }
  if (sym->st_shndx >= o->nsh || !o->at[sym->st_shndx] || sym->st_value > o->sh[sym->st_shndx].sh_size)
    return damaged(o, "a symbol in a section not loaded: ", name);
  *addr = (uint64_t)(uintptr_t)o->at[sym->st_shndx] + sym->st_value;
  return true;
}

static bool apply_relocations(Object *o, const Elf64_Shdr *rela, const CompileResult *res) {
  int symtab_index;
  const Elf64_Shdr *symtab = symbol_table(o, &symtab_index), *target = &o->sh[rela->sh_info];
  if (!symtab || rela->sh_link != (Elf64_Word)symtab_index || symtab->sh_link >= (Elf64_Word)o->nsh ||
      rela->sh_entsize != sizeof(Elf64_Rela) || symtab->sh_entsize != sizeof(Elf64_Sym) || rela->sh_offset % 8 ||
      symtab->sh_offset % 8)
    return damaged(o, "damaged relocations", "");
  const Elf64_Shdr *strtab = &o->sh[symtab->sh_link];
  const Elf64_Rela *r = (const Elf64_Rela *)(o->file + rela->sh_offset);
  const Elf64_Sym *syms = (const Elf64_Sym *)(o->file + symtab->sh_offset);
  size_t n = rela->sh_size / sizeof *r, nsyms = symtab->sh_size / sizeof *syms;
  for (size_t i = 0; i < n; i++) {
    uint32_t type = ELF64_R_TYPE(r[i].r_info);
    size_t sym = ELF64_R_SYM(r[i].r_info), width = relocation_width(type);
    uint64_t s = 0;
    if (sym >= nsyms || r[i].r_offset > target->sh_size || width > target->sh_size - r[i].r_offset)
      return damaged(o, "damaged relocations", "");
    if (sym && !symbol_address(o, strtab, &syms[sym], res, &s)) return false;
    if (!relocate(type, o->at[rela->sh_info] + r[i].r_offset, s, r[i].r_addend, &o->stubs)) {
      char kind[32];
      snprintf(kind, sizeof kind, "%u", type);
      return refuse(o, "a relocation not known or out of range, of kind ", kind);
    }
  }
  return true;
}

static bool relocate_all(Object *o, const CompileResult *res) {
  for (int i = 0; i < o->nsh; i++) {
    const Elf64_Shdr *s = &o->sh[i];
    if (s->sh_type != SHT_RELA) continue;
    if (s->sh_info >= (Elf64_Word)o->nsh) return damaged(o, "damaged relocations", "");
    if (o->at[s->sh_info] && !apply_relocations(o, s, res)) return false;
  }
  return true;
}

static void *entry_address(Object *o, const char *symbol) {
  int index;
  const Elf64_Shdr *symtab = symbol_table(o, &index);
  if (!symtab || symtab->sh_link >= (Elf64_Word)o->nsh) return NULL;
  const Elf64_Shdr *strtab = &o->sh[symtab->sh_link];
  const Elf64_Sym *syms = (const Elf64_Sym *)(o->file + symtab->sh_offset);
  for (size_t i = 0; i < symtab->sh_size / sizeof *syms; i++) {
    const Elf64_Sym *s = &syms[i];
    if (ELF64_ST_TYPE(s->st_info) == STT_FUNC && s->st_shndx < o->nsh && o->at[s->st_shndx] &&
        s->st_value < o->sh[s->st_shndx].sh_size && !strcmp(string_at(o, strtab, s->st_name), symbol))
      return o->at[s->st_shndx] + s->st_value;
  }
  return NULL;
}

/* Code executable and read-only, constants read-only. */
static bool protect(Object *o) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  static const int prot[NGROUPS] = {PROT_READ | PROT_EXEC, PROT_READ, PROT_READ | PROT_WRITE};
  for (int g = 0; g < NGROUPS; g++) {
    size_t size = round_up(o->group_size[g], page);
    if (size && mprotect(o->map + o->group_offset[g], size, prot[g])) return refuse(o, "code cannot be made executable", "");
  }
  unsigned char *code = o->map + o->group_offset[GROUP_CODE];
  __builtin___clear_cache((char *)code, (char *)code + o->group_size[GROUP_CODE]);
  return true;
}

RtLoad rt_load_object(const void *object, size_t size, const char *symbol, CompileResult *res, Diag *d) {
  Object o = {.file = object, .size = size, .d = d};
  if ((uintptr_t)object % 8) {  /* the headers are read in place */
    refuse(&o, "an object not aligned in memory", "");
    return RT_LOAD_NOT_KNOWN;
  }
  bool ok = read_header(&o);
  o.at = ok ? calloc((size_t)o.nsh, sizeof *o.at) : NULL;
  LoadedCode *code = o.at ? malloc(sizeof *code) : NULL;
  ok = ok && (code || refuse(&o, "no memory for the code", "")) && lay_out(&o) && relocate_all(&o, res);
  void *entry = ok ? entry_address(&o, symbol) : NULL;
  ok = ok && (entry || damaged(&o, "no entry point named ", symbol)) && protect(&o);
  free(o.at);
  if (!ok) {
    if (o.map) munmap(o.map, o.map_size);
    free(code);
    return o.damaged ? RT_LOAD_DAMAGED : RT_LOAD_NOT_KNOWN;
  }
  *code = (LoadedCode){{release_loaded}, o.map, o.map_size};
  res->entry = (int (*)(void *, void **))entry;
  res->code = code;
  return RT_LOADED;
}
