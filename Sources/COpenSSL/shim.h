// OpenSSL 3 from Debian's libssl-dev (pkg-config openssl). Install: apt-get install libssl-dev
// Used by OpenAIRealtime on Linux only: TLS for wss://, SHA-1 for Sec-WebSocket-Accept (RFC 6455 4.2.2)
// and RAND_bytes for frame masking keys (RFC 6455 5.3, 10.3).
#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

// Function-like macros are not imported by Swift; these wrap the ones OpenAIRealtime needs.

static inline long copenssl_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}

static inline long copenssl_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return SSL_CTX_set_min_proto_version(ctx, version);
}

static inline long copenssl_SSL_set_mode(SSL *ssl, long mode) {
    return SSL_set_mode(ssl, mode);
}

static inline int copenssl_TLS1_2_VERSION(void) { return TLS1_2_VERSION; }

#endif
