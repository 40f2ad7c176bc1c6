/* libcurl for Swift. curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which
 * Swift cannot call: these typed wrappers are the only way the Swift code reaches them. */
#ifndef TANDEM_CCURL_SHIM_H
#define TANDEM_CCURL_SHIM_H

#include <curl/curl.h>

static inline CURLcode tandem_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode tandem_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
/* Strings (copied by libcurl unless documented otherwise), slists and opaque user pointers. */
static inline CURLcode tandem_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode tandem_curl_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode tandem_curl_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}
static inline CURLcode tandem_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode tandem_curl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
