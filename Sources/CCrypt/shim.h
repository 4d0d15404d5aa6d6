#ifndef EARSHOT_CCRYPT_SHIM_H
#define EARSHOT_CCRYPT_SHIM_H
// Debian's libxcrypt (libcrypt-dev, which libc6-dev already brings): the system's password hashing,
// the same yescrypt that /etc/shadow uses. Chosen over a hand-written PBKDF2: a well-kept, memory-hard
// hash, salted and tuned by the library, fast in C even in a debug build.
#include <crypt.h>
#endif
