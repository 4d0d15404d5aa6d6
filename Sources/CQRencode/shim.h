#ifndef EARSHOT_CQRENCODE_SHIM_H
#define EARSHOT_CQRENCODE_SHIM_H
// Debian's libqrencode (libqrencode-dev): QR code symbols for the pairing URL.
#include <qrencode.h>
#endif
