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
    if (!curl.global_init || !curl.easy_init || !curl.easy_cleanup || !curl.easy_perform || !curl.setopt ||
        !curl.getinfo || !curl.slist_append || !curl.slist_free_all || !curl.easy_strerror) {
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
CLibcurlSocketGuard *clibcurl_socket_guard_create(void) { return NULL; }
void clibcurl_socket_guard_destroy(CLibcurlSocketGuard *guard) { (void)guard; }
int clibcurl_setopt_socket_guard(CLibcurlHandle *handle, CLibcurlSocketGuard *guard) { (void)handle; (void)guard; return -1; }
void clibcurl_socket_guard_shutdown(CLibcurlSocketGuard *guard) { (void)guard; }

#endif
