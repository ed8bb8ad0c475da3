#include "CLibcurl.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>

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

#endif
