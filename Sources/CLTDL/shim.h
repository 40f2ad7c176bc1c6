/* What the plugin loader needs from C: libltdl for loading, dlopen/dlerror for the RTLD_NOW
 * preflight that reports the real loader error (libltdl only ever says "file not found"), and
 * the ELF header layouts for the sanity check done before anything is mapped. */
#ifndef TANDEM_CLTDL_SHIM_H
#define TANDEM_CLTDL_SHIM_H

#include <dlfcn.h>
#include <elf.h>
#include <ltdl.h>

/* dlopen's flags are macros of int expressions; give Swift plainly typed values. */
static const int tandem_rtld_preflight_flags = RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE;

#endif
