/* MD5 (RFC 1321) of outputs, by OpenSSL (md5.c), only to fingerprint them in the determinism test. */
#ifndef STEREO_TEST_MD5_H
#define STEREO_TEST_MD5_H

#include <stddef.h>

/* Writes the 32 lowercase hex digits and a terminating NUL to hex. */
void md5Hex(const void *data, size_t length, char hex[33]);

#endif
