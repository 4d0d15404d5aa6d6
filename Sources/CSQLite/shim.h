#ifndef EARSHOT_CSQLITE_SHIM_H
#define EARSHOT_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a function-pointer macro Swift cannot import: SQLite copies the bytes.
static inline sqlite3_destructor_type earshot_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
