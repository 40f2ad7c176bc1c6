/* A tiny plugin the loader tests compile in many broken variants (see LoaderTests). Macros:
 *   FIXTURE_ID "x"       the plugin id it answers (default "test.fixture")
 *   FIXTURE_MIN/MAX      ABI versions it speaks (default 1.0 .. 1.0)
 *   FIXTURE_NO_ENTRY     exports a wrongly named function instead of the entry
 *   FIXTURE_UNRESOLVED   calls a function no library provides
 *   FIXTURE_INIT_FAILS   the entry reports TANDEM_E_INIT_FAILED
 *   FIXTURE_LIES_ABI     answers OK with a version outside the offer
 *   FIXTURE_NULL_TABLE   answers OK without a plugin table
 *   FIXTURE_SMALL_TABLE  answers OK with a plugin table whose struct_size lacks open_model */
#include "tandem_abi.h"
#include <string.h>

#ifndef FIXTURE_ID
#define FIXTURE_ID "test.fixture"
#endif
#ifndef FIXTURE_MIN
#define FIXTURE_MIN TANDEM_ABI_VERSION(1, 0)
#endif
#ifndef FIXTURE_MAX
#define FIXTURE_MAX TANDEM_ABI_VERSION(1, 0)
#endif

#ifdef FIXTURE_UNRESOLVED
extern int tandem_fixture_missing(void);
#endif

static tandem_status fixture_open(const tandem_kv *settings, size_t count, const tandem_model **out, tandem_error *error) {
    (void)settings; (void)count; (void)out; (void)error;
    return TANDEM_E_INIT_FAILED;
}

#ifdef FIXTURE_SMALL_TABLE
static const tandem_plugin fixture_table = {sizeof(uint32_t), fixture_open, NULL, NULL};
#else
static const tandem_plugin fixture_table = {sizeof(tandem_plugin), fixture_open, NULL, NULL};
#endif

static tandem_status set_error(tandem_error *error, tandem_status code, const char *text) {
    if (error != NULL && error->message != NULL && error->message_capacity > strlen(text)) {
        memcpy(error->message, text, strlen(text) + 1);
    }
    return code;
}

#ifdef FIXTURE_NO_ENTRY
TANDEM_EXPORT tandem_status tandem_plugin_entry_v0(const tandem_load_request *request, tandem_load_response *response, tandem_error *error)
#else
TANDEM_EXPORT tandem_status tandem_plugin_entry_v1(const tandem_load_request *request, tandem_load_response *response, tandem_error *error)
#endif
{
    (void)fixture_table; /* unused in some variants */
#ifdef FIXTURE_UNRESOLVED
    if (tandem_fixture_missing() != 0) { return TANDEM_E_UNKNOWN; }
#endif
#ifdef FIXTURE_INIT_FAILS
    (void)request; (void)response;
    return set_error(error, TANDEM_E_INIT_FAILED, "fixture: cannot reach its model folder");
#else
    uint32_t low = request->min_abi > FIXTURE_MIN ? request->min_abi : FIXTURE_MIN;
    uint32_t high = request->max_abi < FIXTURE_MAX ? request->max_abi : FIXTURE_MAX;
    if (low > high) { return set_error(error, TANDEM_E_INCOMPATIBLE, "fixture speaks only its own range"); }
#ifdef FIXTURE_LIES_ABI
    response->abi_version = TANDEM_ABI_VERSION(7, 0);
#else
    response->abi_version = high;
#endif
    response->plugin_id = FIXTURE_ID;
    response->plugin_name = "fixture";
    response->plugin_version = "0.0.1";
#ifdef FIXTURE_NULL_TABLE
    response->plugin = NULL;
#else
    response->plugin = &fixture_table;
#endif
    return TANDEM_OK;
#endif
}
