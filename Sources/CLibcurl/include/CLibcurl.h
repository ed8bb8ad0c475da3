// The few libcurl entry points the SDK uses directly (OpenAIRuntime/Transport/Curl/CurlUpload.swift, CurlPool.swift: requests on Linux),
// loaded at run time from the libcurl.so.4 that FoundationNetworking itself links, so building the
// SDK needs no libcurl development package. Linux only; elsewhere every function reports failure.
//
// The option and info numbers are libcurl's ABI (curl/curl.h, stable since 7.x).
#ifndef CLIBCURL_H
#define CLIBCURL_H

#include <stddef.h>
#include <stdint.h>

typedef void CLibcurlHandle;
typedef struct CLibcurlList CLibcurlList;

typedef size_t (*CLibcurlDataCallback)(char *buffer, size_t size, size_t count, void *context);
typedef int (*CLibcurlProgressCallback)(void *context, int64_t downloadTotal, int64_t downloadNow,
                                        int64_t uploadTotal, int64_t uploadNow);

enum {
    CLibcurlOptionWriteData = 10001,
    CLibcurlOptionURL = 10002,
    CLibcurlOptionReadData = 10009,
    CLibcurlOptionErrorBuffer = 10010,
    CLibcurlOptionHTTPHeader = 10023,
    CLibcurlOptionHeaderData = 10029,
    CLibcurlOptionCustomRequest = 10036,
    CLibcurlOptionProgressData = 10057,
    CLibcurlOptionWriteFunction = 20011,
    CLibcurlOptionReadFunction = 20012,
    CLibcurlOptionHeaderFunction = 20079,
    CLibcurlOptionProgressFunction = 20219,
    CLibcurlOptionLowSpeedLimit = 19,
    CLibcurlOptionLowSpeedTime = 20,
    CLibcurlOptionNoProgress = 43,
    CLibcurlOptionPost = 47,
    CLibcurlOptionHTTPVersion = 84,
    CLibcurlOptionNoSignal = 99,
    CLibcurlOptionTimeoutMilliseconds = 155,
    CLibcurlOptionConnectTimeoutMilliseconds = 156,
    CLibcurlOptionUploadBufferSize = 280,
    CLibcurlOptionPostFieldSizeLarge = 30120,
    CLibcurlOptionHTTPGet = 80,
    CLibcurlOptionNoBody = 44,
    CLibcurlOptionMaxConnects = 71,
    CLibcurlOptionCookieFile = 10031,
    CLibcurlOptionShare = 10100,
    CLibcurlOptionAcceptEncoding = 10102,
    CLibcurlOptionCopyPostFields = 10165,
};

enum {
    CLibcurlInfoResponseCode = 0x200002,
    CLibcurlHTTPVersion1_1 = 2,
    CLibcurlErrorBufferSize = 256,
    CLibcurlReadAbort = 0x10000000,
};

enum {
    CLibcurlOK = 0,
    CLibcurlCouldNotConnect = 7,
    CLibcurlWriteError = 23,
    CLibcurlReadError = 26,
    CLibcurlTimedOut = 28,
    CLibcurlAbortedByCallback = 42,
};

/// Finds the libcurl.so.4 already loaded (by FoundationNetworking) and calls curl_global_init once;
/// 1 when libcurl is usable, else 0.
int clibcurl_load(void);

CLibcurlHandle *clibcurl_easy_init(void);
void clibcurl_easy_cleanup(CLibcurlHandle *handle);
int clibcurl_easy_perform(CLibcurlHandle *handle);
int clibcurl_setopt_long(CLibcurlHandle *handle, int option, long value);
int clibcurl_setopt_pointer(CLibcurlHandle *handle, int option, const void *value);
int clibcurl_setopt_offset(CLibcurlHandle *handle, int option, int64_t value);
int clibcurl_setopt_data_callback(CLibcurlHandle *handle, int option, CLibcurlDataCallback callback);
int clibcurl_setopt_progress_callback(CLibcurlHandle *handle, CLibcurlProgressCallback callback);
int clibcurl_getinfo_long(CLibcurlHandle *handle, int info, long *value);
CLibcurlList *clibcurl_slist_append(CLibcurlList *list, const char *string);
void clibcurl_slist_free_all(CLibcurlList *list);
const char *clibcurl_easy_strerror(int code);
/// Resets a handle's options; its connections, DNS cache and share stay (curl_easy_reset).
void clibcurl_easy_reset(CLibcurlHandle *handle);

/// What several handles of one transport share (curl_share_init): the DNS cache, TLS sessions and, when
/// `cookies` is 1, the cookie store, under a mutex of the share's own (handles run on several threads).
/// NULL when libcurl is not usable.
typedef struct CLibcurlShare CLibcurlShare;
CLibcurlShare *clibcurl_share_create(int cookies);
/// Call after the cleanup of every handle that used the share.
void clibcurl_share_destroy(CLibcurlShare *share);
/// Sets CURLOPT_SHARE, and for a share with cookies turns the cookie engine on (CURLOPT_COOKIEFILE ""); 0 on success.
int clibcurl_setopt_share(CLibcurlHandle *handle, CLibcurlShare *share);

/// The sockets of one transfer, so that another thread can end it at once: `shutdown(2)` on each
/// socket libcurl has open makes its wait for data return, and the transfer fails. libcurl
/// reports each socket it opens (CURLOPT_SOCKOPTFUNCTION) and closes it through the guard
/// (CURLOPT_CLOSESOCKETFUNCTION), under the guard's lock, so a number the guard holds is never
/// one the process has reused for another file.
typedef struct CLibcurlSocketGuard CLibcurlSocketGuard;

CLibcurlSocketGuard *clibcurl_socket_guard_create(void);
/// Call after `clibcurl_easy_cleanup` (which closes the transfer's sockets through the guard).
void clibcurl_socket_guard_destroy(CLibcurlSocketGuard *guard);
/// Sets the socket callbacks of `handle` to `guard`; 0 on success.
int clibcurl_setopt_socket_guard(CLibcurlHandle *handle, CLibcurlSocketGuard *guard);
/// Shuts down every socket of the transfer, and any it opens later.
void clibcurl_socket_guard_shutdown(CLibcurlSocketGuard *guard);

#endif
