#include "CLibcurl.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

typedef int (*SetoptFunction)(void *, int, ...);
typedef int (*GetinfoFunction)(void *, int, ...);

static struct {
    int loaded;
    int (*global_init)(long);
    void *(*easy_init)(void);
    void (*easy_cleanup)(void *);
    int (*easy_perform)(void *);
    SetoptFunction setopt;
    GetinfoFunction getinfo;
    void *(*slist_append)(void *, const char *);
    void (*slist_free_all)(void *);
    const char *(*easy_strerror)(int);
    void (*easy_reset)(void *);
    void *(*share_init)(void);
    SetoptFunction share_setopt;
    int (*share_cleanup)(void *);
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    // Only the copy FoundationNetworking already loaded: never a second libcurl in the process.
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_NOLOAD);
    if (library == NULL) return;
    curl.global_init = (int (*)(long))dlsym(library, "curl_global_init");
    curl.easy_init = (void *(*)(void))dlsym(library, "curl_easy_init");
    curl.easy_cleanup = (void (*)(void *))dlsym(library, "curl_easy_cleanup");
    curl.easy_perform = (int (*)(void *))dlsym(library, "curl_easy_perform");
    curl.setopt = (SetoptFunction)dlsym(library, "curl_easy_setopt");
    curl.getinfo = (GetinfoFunction)dlsym(library, "curl_easy_getinfo");
    curl.slist_append = (void *(*)(void *, const char *))dlsym(library, "curl_slist_append");
    curl.slist_free_all = (void (*)(void *))dlsym(library, "curl_slist_free_all");
    curl.easy_strerror = (const char *(*)(int))dlsym(library, "curl_easy_strerror");
    curl.easy_reset = (void (*)(void *))dlsym(library, "curl_easy_reset");
    curl.share_init = (void *(*)(void))dlsym(library, "curl_share_init");
    curl.share_setopt = (SetoptFunction)dlsym(library, "curl_share_setopt");
    curl.share_cleanup = (int (*)(void *))dlsym(library, "curl_share_cleanup");
    if (!curl.global_init || !curl.easy_init || !curl.easy_cleanup || !curl.easy_perform || !curl.setopt ||
        !curl.getinfo || !curl.slist_append || !curl.slist_free_all || !curl.easy_strerror || !curl.easy_reset ||
        !curl.share_init || !curl.share_setopt || !curl.share_cleanup) {
        return;
    }
    // CURL_GLOBAL_ALL; reference-counted, so FoundationNetworking's own call is unaffected.
    if (curl.global_init(3) != 0) return;
    curl.loaded = 1;
}

int clibcurl_load(void) {
    pthread_once(&once, load);
    return curl.loaded;
}

CLibcurlHandle *clibcurl_easy_init(void) { return clibcurl_load() ? curl.easy_init() : NULL; }
void clibcurl_easy_cleanup(CLibcurlHandle *handle) { if (handle) curl.easy_cleanup(handle); }
int clibcurl_easy_perform(CLibcurlHandle *handle) { return curl.easy_perform(handle); }
int clibcurl_setopt_long(CLibcurlHandle *handle, int option, long value) { return curl.setopt(handle, option, value); }
int clibcurl_setopt_pointer(CLibcurlHandle *handle, int option, const void *value) {
    return curl.setopt(handle, option, value);
}
int clibcurl_setopt_offset(CLibcurlHandle *handle, int option, int64_t value) {
    return curl.setopt(handle, option, value);
}
int clibcurl_setopt_data_callback(CLibcurlHandle *handle, int option, CLibcurlDataCallback callback) {
    return curl.setopt(handle, option, callback);
}
int clibcurl_setopt_progress_callback(CLibcurlHandle *handle, CLibcurlProgressCallback callback) {
    return curl.setopt(handle, CLibcurlOptionProgressFunction, callback);
}
int clibcurl_getinfo_long(CLibcurlHandle *handle, int info, long *value) { return curl.getinfo(handle, info, value); }
CLibcurlList *clibcurl_slist_append(CLibcurlList *list, const char *string) {
    return (CLibcurlList *)curl.slist_append(list, string);
}
void clibcurl_slist_free_all(CLibcurlList *list) { if (list) curl.slist_free_all(list); }
const char *clibcurl_easy_strerror(int code) { return curl.easy_strerror(code); }
void clibcurl_easy_reset(CLibcurlHandle *handle) { if (handle) curl.easy_reset(handle); }

// curl/curl.h: CURLSHOPT_* and CURL_LOCK_DATA_*.
enum { CLibcurlShareOptionShare = 1, CLibcurlShareOptionLockFunction = 3, CLibcurlShareOptionUnlockFunction = 4,
       CLibcurlShareOptionUserData = 5 };
enum { CLibcurlLockCookie = 2, CLibcurlLockDNS = 3, CLibcurlLockSSLSession = 4 };

// A mutex per kind of shared data (curl_lock_data: 0 to 7 in libcurl 7.x and 8.x; any other shares the first).
#define CLIBCURL_LOCKS 8

struct CLibcurlShare {
    void *share;
    int cookies;
    pthread_mutex_t locks[CLIBCURL_LOCKS];
};

static pthread_mutex_t *share_mutex(void *context, int data) {
    return &((CLibcurlShare *)context)->locks[data >= 0 && data < CLIBCURL_LOCKS ? data : 0];
}

static void share_lock(void *handle, int data, int access, void *context) {
    (void)handle; (void)access;
    pthread_mutex_lock(share_mutex(context, data));
}

static void share_unlock(void *handle, int data, void *context) {
    (void)handle;
    pthread_mutex_unlock(share_mutex(context, data));
}

CLibcurlShare *clibcurl_share_create(int cookies) {
    if (!clibcurl_load()) return NULL;
    CLibcurlShare *share = calloc(1, sizeof(CLibcurlShare));
    if (share == NULL) return NULL;
    share->share = curl.share_init();
    if (share->share == NULL) {
        free(share);
        return NULL;
    }
    for (int index = 0; index < CLIBCURL_LOCKS; index++) pthread_mutex_init(&share->locks[index], NULL);
    share->cookies = cookies;
    void (*lock)(void *, int, int, void *) = share_lock;
    void (*unlock)(void *, int, void *) = share_unlock;
    int failed = curl.share_setopt(share->share, CLibcurlShareOptionLockFunction, lock) != 0 ||
                 curl.share_setopt(share->share, CLibcurlShareOptionUnlockFunction, unlock) != 0 ||
                 curl.share_setopt(share->share, CLibcurlShareOptionUserData, share) != 0 ||
                 curl.share_setopt(share->share, CLibcurlShareOptionShare, (long)CLibcurlLockDNS) != 0 ||
                 curl.share_setopt(share->share, CLibcurlShareOptionShare, (long)CLibcurlLockSSLSession) != 0 ||
                 (cookies && curl.share_setopt(share->share, CLibcurlShareOptionShare, (long)CLibcurlLockCookie) != 0);
    if (failed) {
        curl.share_cleanup(share->share);
        for (int index = 0; index < CLIBCURL_LOCKS; index++) pthread_mutex_destroy(&share->locks[index]);
        free(share);
        return NULL;
    }
    return share;
}

void clibcurl_share_destroy(CLibcurlShare *share) {
    if (share == NULL) return;
    curl.share_cleanup(share->share);
    for (int index = 0; index < CLIBCURL_LOCKS; index++) pthread_mutex_destroy(&share->locks[index]);
    free(share);
}

int clibcurl_setopt_share(CLibcurlHandle *handle, CLibcurlShare *share) {
    if (share == NULL) return -1;
    if (curl.setopt(handle, CLibcurlOptionShare, share->share) != 0) return -1;
    return share->cookies ? curl.setopt(handle, CLibcurlOptionCookieFile, "") : 0;
}

// At most this many sockets at once: libcurl opens one per address family it tries (happy
// eyeballs), and a transfer here holds one connection.
#define CLIBCURL_GUARDED_SOCKETS 8

struct CLibcurlSocketGuard {
    pthread_mutex_t lock;
    int stopped;
    int sockets[CLIBCURL_GUARDED_SOCKETS];
};

enum { CLibcurlOptionSockoptFunction = 20148, CLibcurlOptionSockoptData = 10149,
       CLibcurlOptionCloseSocketFunction = 20208, CLibcurlOptionCloseSocketData = 10209 };

CLibcurlSocketGuard *clibcurl_socket_guard_create(void) {
    CLibcurlSocketGuard *guard = calloc(1, sizeof(CLibcurlSocketGuard));
    if (guard == NULL) return NULL;
    pthread_mutex_init(&guard->lock, NULL);
    for (int index = 0; index < CLIBCURL_GUARDED_SOCKETS; index++) guard->sockets[index] = -1;
    return guard;
}

void clibcurl_socket_guard_destroy(CLibcurlSocketGuard *guard) {
    if (guard == NULL) return;
    pthread_mutex_destroy(&guard->lock);
    free(guard);
}

// libcurl's CURLOPT_SOCKOPTFUNCTION: a socket was opened and not yet connected.
static int guard_opened(void *context, int socket, int purpose) {
    (void)purpose;
    CLibcurlSocketGuard *guard = context;
    int result = 0;
    pthread_mutex_lock(&guard->lock);
    if (guard->stopped) {
        result = 1;  // CURL_SOCKOPT_ERROR: the transfer was ended before it connected.
    } else {
        int kept = 0;
        for (int index = 0; index < CLIBCURL_GUARDED_SOCKETS && !kept; index++) {
            if (guard->sockets[index] == -1) {
                guard->sockets[index] = socket;
                kept = 1;
            }
        }
        if (!kept) result = 1;  // More sockets than a transfer here opens: refuse rather than lose one.
    }
    pthread_mutex_unlock(&guard->lock);
    return result;
}

// libcurl's CURLOPT_CLOSESOCKETFUNCTION: closes the socket under the lock.
static int guard_close(void *context, int socket) {
    CLibcurlSocketGuard *guard = context;
    pthread_mutex_lock(&guard->lock);
    for (int index = 0; index < CLIBCURL_GUARDED_SOCKETS; index++) {
        if (guard->sockets[index] == socket) guard->sockets[index] = -1;
    }
    int result = close(socket);
    pthread_mutex_unlock(&guard->lock);
    return result;
}

int clibcurl_setopt_socket_guard(CLibcurlHandle *handle, CLibcurlSocketGuard *guard) {
    if (guard == NULL) return -1;
    int (*opened)(void *, int, int) = guard_opened;
    int (*closing)(void *, int) = guard_close;
    if (curl.setopt(handle, CLibcurlOptionSockoptFunction, opened) != 0) return -1;
    if (curl.setopt(handle, CLibcurlOptionSockoptData, guard) != 0) return -1;
    if (curl.setopt(handle, CLibcurlOptionCloseSocketFunction, closing) != 0) return -1;
    return curl.setopt(handle, CLibcurlOptionCloseSocketData, guard);
}

void clibcurl_socket_guard_shutdown(CLibcurlSocketGuard *guard) {
    if (guard == NULL) return;
    pthread_mutex_lock(&guard->lock);
    guard->stopped = 1;
    for (int index = 0; index < CLIBCURL_GUARDED_SOCKETS; index++) {
        if (guard->sockets[index] != -1) shutdown(guard->sockets[index], SHUT_RDWR);
    }
    pthread_mutex_unlock(&guard->lock);
}

#else

int clibcurl_load(void) { return 0; }
CLibcurlHandle *clibcurl_easy_init(void) { return NULL; }
void clibcurl_easy_cleanup(CLibcurlHandle *handle) { (void)handle; }
int clibcurl_easy_perform(CLibcurlHandle *handle) { (void)handle; return -1; }
int clibcurl_setopt_long(CLibcurlHandle *handle, int option, long value) { (void)handle; (void)option; (void)value; return -1; }
int clibcurl_setopt_pointer(CLibcurlHandle *handle, int option, const void *value) { (void)handle; (void)option; (void)value; return -1; }
int clibcurl_setopt_offset(CLibcurlHandle *handle, int option, int64_t value) { (void)handle; (void)option; (void)value; return -1; }
int clibcurl_setopt_data_callback(CLibcurlHandle *handle, int option, CLibcurlDataCallback callback) { (void)handle; (void)option; (void)callback; return -1; }
int clibcurl_setopt_progress_callback(CLibcurlHandle *handle, CLibcurlProgressCallback callback) { (void)handle; (void)callback; return -1; }
int clibcurl_getinfo_long(CLibcurlHandle *handle, int info, long *value) { (void)handle; (void)info; (void)value; return -1; }
CLibcurlList *clibcurl_slist_append(CLibcurlList *list, const char *string) { (void)list; (void)string; return NULL; }
void clibcurl_slist_free_all(CLibcurlList *list) { (void)list; }
const char *clibcurl_easy_strerror(int code) { (void)code; return "libcurl is not available"; }
void clibcurl_easy_reset(CLibcurlHandle *handle) { (void)handle; }
CLibcurlShare *clibcurl_share_create(int cookies) { (void)cookies; return NULL; }
void clibcurl_share_destroy(CLibcurlShare *share) { (void)share; }
int clibcurl_setopt_share(CLibcurlHandle *handle, CLibcurlShare *share) { (void)handle; (void)share; return -1; }
CLibcurlSocketGuard *clibcurl_socket_guard_create(void) { return NULL; }
void clibcurl_socket_guard_destroy(CLibcurlSocketGuard *guard) { (void)guard; }
int clibcurl_setopt_socket_guard(CLibcurlHandle *handle, CLibcurlSocketGuard *guard) { (void)handle; (void)guard; return -1; }
void clibcurl_socket_guard_shutdown(CLibcurlSocketGuard *guard) { (void)guard; }

#endif
