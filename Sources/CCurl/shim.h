// libcurl for Swift: curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot
// call, so each argument type gets a typed wrapper here. Everything curl-specific that Swift
// needs from C goes through this header.
#ifndef REEL_CCURL_SHIM_H
#define REEL_CCURL_SHIM_H

#include <curl/curl.h>
#include <stdint.h>

typedef size_t (*reel_curl_data_cb)(char *ptr, size_t size, size_t nmemb, void *userdata);
typedef int (*reel_curl_progress_cb)(void *userdata, curl_off_t dltotal, curl_off_t dlnow,
                                     curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode reel_curl_set_long(CURL *c, CURLoption o, long v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode reel_curl_set_string(CURL *c, CURLoption o, const char *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode reel_curl_set_pointer(CURL *c, CURLoption o, void *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode reel_curl_set_data_callback(CURL *c, CURLoption o, reel_curl_data_cb cb) { return curl_easy_setopt(c, o, cb); }
static inline CURLcode reel_curl_set_progress_callback(CURL *c, reel_curl_progress_cb cb) {
    return curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, cb);
}
static inline CURLcode reel_curl_set_slist(CURL *c, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(c, o, v); }

static inline long reel_curl_response_code(CURL *c) {
    long code = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    return code;
}
static inline const char *reel_curl_redirect_url(CURL *c) {
    char *url = NULL;
    curl_easy_getinfo(c, CURLINFO_REDIRECT_URL, &url);
    return url;
}

// The abort value a write callback returns to stop a transfer.
static inline size_t reel_curl_abort_write(void) { return 0; }
#endif
