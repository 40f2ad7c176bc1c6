/* CSQLite: the system SQLite (libsqlite3-dev) plus what Swift cannot import from its header. */
#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast macro, which Swift does not import: SQLite copies the bound value. */
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
