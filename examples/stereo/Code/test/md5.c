/* MD5 of the outputs, from OpenSSL's libcrypto (EVP): the test fingerprints with a well-kept implementation, not
   the cacheflow runtime's (this program runs the actors without cacheflow). */
#include "md5.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>

void md5Hex(const void *data, size_t length, char hex[33]) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (!EVP_Digest(data, length, digest, &size, EVP_md5(), NULL) || size != 16) {
        fprintf(stderr, "md5: OpenSSL's EVP_Digest failed\n");
        exit(2);
    }
    for (unsigned int i = 0; i < size; i++) {
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
    }
}
