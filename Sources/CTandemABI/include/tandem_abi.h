/*
 * tandem_abi.h: the C ABI between the Tandem host and its model backend plugins.
 *
 * This header is the whole contract. A plugin is one shared object in plugins.d/ that exports
 * exactly one function, tandem_plugin_entry_v1 (the major version lives in the name). Plain C11;
 * it also compiles as C++17. Nothing unwinds across this boundary: no C++ exceptions, no Swift
 * errors, no longjmp, no abort on bad input. Everything is reported through status codes.
 *
 * Reading guide (a plugin author needs only this file and Plugins/EchoC/echo.c):
 *   1. Versions and sized structs          5. Options for one generation
 *   2. Status codes and tandem_error        6. Conversation, tools, streaming events, result
 *   3. Host services                        7. The model object and its functions
 *   4. Availability                         8. The plugin table and the entry point
 *
 * Conventions used on every declaration below:
 *   Lifetimes  [borrowed: call]     valid only until the function it was passed to returns.
 *              [borrowed: callback] valid only until the callback it was passed to returns.
 *              [until destroy]      valid until the model's destroy() returns.
 *              [until shutdown]     valid until the plugin's shutdown() returns; the Tandem
 *                                   host never calls it (see "Host promises"), so for the
 *                                   life of the host process.
 *              [caller buffer]      pointer + capacity owned by the caller; the callee writes at
 *                                   most capacity bytes, always NUL-terminated, truncating UTF-8
 *                                   on a character boundary.
 *              No memory allocated on one side is ever freed by the other side.
 *   Threads    [any thread]         may be called from any thread, concurrently.
 *              [per model]          calls on one model never overlap unless the model declares
 *                                   TANDEM_CAP_CONCURRENT_CALLS; different models may run at once.
 *              [exclusive]          nothing else in the plugin runs at the same time.
 *              Callbacks given to a call run on the thread that made the call, strictly before
 *              the call returns, never concurrently with each other. A callback must not re-enter
 *              the same model.
 *   Strings    tandem_str is UTF-8 with an explicit size and no NUL terminator. const char * is
 *              NUL-terminated UTF-8. A NULL const char * means "not given".
 *
 * Host promises (what a plugin may rely on from the Tandem host):
 *   - A plugin is never unloaded: once tandem_plugin_entry_v1 has returned TANDEM_OK the shared
 *     object stays mapped for the life of the host process (even a rejected plugin is not
 *     closed), so code, tables and strings it handed over stay valid.
 *   - shutdown() is never called: a host process ends without calling it. It stays in the
 *     table for other hosts; a plugin must not rely on it to flush or release anything.
 *   - Every model is destroyed at most once, with nothing else in flight on it.
 *   - The host table and everything it points to live as long as the host process.
 *
 * Evolution: every struct starts with struct_size. Whoever allocates a struct sets struct_size to
 * sizeof(the struct as it knows it). A reader touches a field only when TANDEM_HAS_FIELD says the
 * writer's struct was large enough to contain it; otherwise it uses the documented default.
 * Fields are only ever appended. Constants are never renumbered; an unknown value is treated as
 * the documented "other" value.
 */
#ifndef TANDEM_ABI_H
#define TANDEM_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * 1. Versions and sized structs
 * ------------------------------------------------------------------------------------------- */

/* A version is (major << 16) | minor. The major version is in the entry symbol's name; the minor
 * version is negotiated: the host offers [min_abi, max_abi], the plugin picks one inside it. */
#define TANDEM_ABI_VERSION(major, minor) \
    ((uint32_t)((((uint32_t)(major)) << 16) | ((uint32_t)(minor) & 0xFFFFu)))
#define TANDEM_ABI_MAJOR(version) ((uint32_t)(version) >> 16)
#define TANDEM_ABI_MINOR(version) ((uint32_t)(version) & 0xFFFFu)
/* The version this header describes: 1.0 (a plain literal so Swift imports it). */
#define TANDEM_ABI_CURRENT ((uint32_t)0x00010000u)
/* Function forms of the macros above, for languages that do not import function-like macros. */
static inline uint32_t tandem_abi_version(uint32_t major, uint32_t minor) { return TANDEM_ABI_VERSION(major, minor); }
static inline uint32_t tandem_abi_major(uint32_t version) { return TANDEM_ABI_MAJOR(version); }
static inline uint32_t tandem_abi_minor(uint32_t version) { return TANDEM_ABI_MINOR(version); }
#define TANDEM_ENTRY_SYMBOL "tandem_plugin_entry_v1"

/* True when the struct *p (of type T) was written large enough to contain field f. */
#define TANDEM_HAS_FIELD(p, T, f) \
    ((p) != NULL && (size_t)(p)->struct_size >= offsetof(T, f) + sizeof(((T *)0)->f))

/* Arrays of sized structs (request.messages, request.tools, message.tool_calls) are laid out
 * struct_size bytes apart: the struct_size of their first element, which every element shares
 * and which is a multiple of 8 (the structs' alignment). A writer built against another version
 * of this header uses another stride, so index them with TANDEM_ELEMENT(array, T, i), never with
 * array[i], and check each element's fields with TANDEM_HAS_FIELD as for any sized struct. */
#define TANDEM_ELEMENT(array, T, i) \
    ((const T *)(const void *)((const char *)(array) + (size_t)(i) * (size_t)(array)[0].struct_size))

/* UTF-8 text with an explicit size, not NUL-terminated. {NULL, 0} is the empty string. */
typedef struct tandem_str {
    const char *data; /* [borrowed: as stated where the tandem_str appears] */
    size_t size;      /* bytes */
} tandem_str;

/* A key/value pair of text. */
typedef struct tandem_kv {
    tandem_str key;
    tandem_str value;
} tandem_kv;

/* ---------------------------------------------------------------------------------------------
 * 2. Status codes and tandem_error
 * ------------------------------------------------------------------------------------------- */

/* 0 is success; every error is negative. Never renumbered; an unknown negative value means
 * TANDEM_E_UNKNOWN. The names in quotes are the stable spelling used in configs and logs
 * (tandem_status_name below). */
typedef int32_t tandem_status;
#define TANDEM_OK                          ((tandem_status)0)
#define TANDEM_E_UNKNOWN                   ((tandem_status)-1)  /* "unknown" */
#define TANDEM_E_INCOMPATIBLE              ((tandem_status)-2)  /* "incompatible": no common ABI version */
#define TANDEM_E_INVALID_ARGUMENT          ((tandem_status)-3)  /* "invalidArgument": a value is out of range or malformed (HTTP 400) */
#define TANDEM_E_UNSUPPORTED_OPTION        ((tandem_status)-4)  /* "unsupportedOption": a set option this backend cannot honour */
#define TANDEM_E_UNAVAILABLE               ((tandem_status)-5)  /* "unavailable": availability() is not AVAILABLE */
#define TANDEM_E_CANCELLED                 ((tandem_status)-6)  /* "cancelled": the cancel token fired */
#define TANDEM_E_BUFFER_TOO_SMALL          ((tandem_status)-7)  /* "bufferTooSmall": see the *required out-parameter */
#define TANDEM_E_TIMEOUT                   ((tandem_status)-8)  /* "timeout": a deadline passed after the request was under way */
#define TANDEM_E_CONTEXT_WINDOW_EXCEEDED   ((tandem_status)-9)  /* "exceededContextWindowSize": context_limit and context_requested are set */
#define TANDEM_E_GUARDRAIL                 ((tandem_status)-10) /* "guardrail": blocked by a safety filter */
#define TANDEM_E_REFUSAL                   ((tandem_status)-11) /* "refusal": the model declined to answer */
#define TANDEM_E_RATE_LIMITED              ((tandem_status)-12) /* "rateLimited": retry_after_ms is set when known */
#define TANDEM_E_CONCURRENT_REQUESTS       ((tandem_status)-13) /* "concurrentRequests": a call is already running on this model */
#define TANDEM_E_DECODING                  ((tandem_status)-14) /* "decoding": output or a response body could not be decoded */
#define TANDEM_E_OFFLINE                   ((tandem_status)-15) /* "offline": no response byte arrived: cannot resolve, refused, unreachable, connect timeout */
#define TANDEM_E_SERVER_ERROR              ((tandem_status)-16) /* "serverError": the server answered with a failure (HTTP 5xx) */
#define TANDEM_E_TLS                       ((tandem_status)-17) /* "tls": TLS handshake or certificate verification failed; not offline */
#define TANDEM_E_AUTH                      ((tandem_status)-18) /* "auth": credentials missing or rejected (HTTP 401/403) */
#define TANDEM_E_MODEL_NOT_FOUND           ((tandem_status)-19) /* "modelNotFound": HTTP 404 or no such model file */
#define TANDEM_E_UNSUPPORTED_GUIDE         ((tandem_status)-20) /* "unsupportedGuide": a response schema construct this backend cannot enforce */
#define TANDEM_E_INIT_FAILED               ((tandem_status)-21) /* "initFailed": the plugin or model could not be set up */
#define TANDEM_E_IO                        ((tandem_status)-22) /* "io": a file could not be read or written */
#define TANDEM_E_QUOTA_EXCEEDED            ((tandem_status)-23) /* "quotaExceeded": account quota spent; retrying does not help */
#define TANDEM_E_BAD_MODEL_FILE            ((tandem_status)-24) /* "badModelFile": a model file is malformed or unsupported */
#define TANDEM_E_BACKEND_CRASHED           ((tandem_status)-25) /* "backendCrashed": the host only: the backend's child process died, or was killed for not stopping */

/* Details of a failure. The caller allocates it and sets struct_size, message and
 * message_capacity; the callee fills in what it knows. Passing NULL is allowed everywhere a
 * tandem_error * is taken. */
typedef struct tandem_error {
    uint32_t struct_size;
    tandem_status code;         /* callee: the same value the function returns */
    char *message;              /* [caller buffer] may be NULL when message_capacity is 0 */
    size_t message_capacity;
    int32_t http_status;        /* callee: the HTTP status when a server answered, else 0 */
    int32_t os_error;           /* callee: errno or a library error code when relevant, else 0 */
    uint64_t retry_after_ms;    /* callee: RATE_LIMITED: how long to wait, 0 when unknown */
    uint64_t context_limit;     /* callee: CONTEXT_WINDOW_EXCEEDED: the model's context in tokens */
    uint64_t context_requested; /* callee: CONTEXT_WINDOW_EXCEEDED: prompt + requested tokens */
} tandem_error;

/* The stable spelling of a status code. Returns a static string. */
static inline const char *tandem_status_name(tandem_status status) {
    switch (status) {
    case TANDEM_OK: return "ok";
    case TANDEM_E_INCOMPATIBLE: return "incompatible";
    case TANDEM_E_INVALID_ARGUMENT: return "invalidArgument";
    case TANDEM_E_UNSUPPORTED_OPTION: return "unsupportedOption";
    case TANDEM_E_UNAVAILABLE: return "unavailable";
    case TANDEM_E_CANCELLED: return "cancelled";
    case TANDEM_E_BUFFER_TOO_SMALL: return "bufferTooSmall";
    case TANDEM_E_TIMEOUT: return "timeout";
    case TANDEM_E_CONTEXT_WINDOW_EXCEEDED: return "exceededContextWindowSize";
    case TANDEM_E_GUARDRAIL: return "guardrail";
    case TANDEM_E_REFUSAL: return "refusal";
    case TANDEM_E_RATE_LIMITED: return "rateLimited";
    case TANDEM_E_CONCURRENT_REQUESTS: return "concurrentRequests";
    case TANDEM_E_DECODING: return "decoding";
    case TANDEM_E_OFFLINE: return "offline";
    case TANDEM_E_SERVER_ERROR: return "serverError";
    case TANDEM_E_TLS: return "tls";
    case TANDEM_E_AUTH: return "auth";
    case TANDEM_E_MODEL_NOT_FOUND: return "modelNotFound";
    case TANDEM_E_UNSUPPORTED_GUIDE: return "unsupportedGuide";
    case TANDEM_E_INIT_FAILED: return "initFailed";
    case TANDEM_E_IO: return "io";
    case TANDEM_E_QUOTA_EXCEEDED: return "quotaExceeded";
    case TANDEM_E_BAD_MODEL_FILE: return "badModelFile";
    case TANDEM_E_BACKEND_CRASHED: return "backendCrashed";
    default: return "unknown";
    }
}

/* ---------------------------------------------------------------------------------------------
 * 3. Host services
 * ------------------------------------------------------------------------------------------- */

typedef int32_t tandem_log_level;
#define TANDEM_LOG_DEBUG ((tandem_log_level)0)
#define TANDEM_LOG_INFO  ((tandem_log_level)1)
#define TANDEM_LOG_WARN  ((tandem_log_level)2)
#define TANDEM_LOG_ERROR ((tandem_log_level)3)

/* Services the host offers to a plugin. [until shutdown]. Plugins must check TANDEM_HAS_FIELD
 * and NULL before calling an optional function. */
typedef struct tandem_host {
    uint32_t struct_size;
    void *host_data; /* opaque; pass back to every function below */
    /* [any thread] message: [borrowed: call]. Never pass secrets. */
    void (*log)(void *host_data, tandem_log_level level, const char *message);
    /* Optional (may be NULL). [any thread] Looks up a secret (e.g. an API key) by name.
     * name: [borrowed: call]; an environment variable name ("GEMINI_API_KEY": its value, or when
     * it is unset the contents of the file named by GEMINI_API_KEY_FILE) or an absolute key-file
     * path. Key files must belong to the host's user (or root) and be private to it (chmod 600);
     * one trailing newline is dropped. The host logs only names, never values.
     * Writes the secret NUL-terminated into value[0..capacity) and sets *required to its length
     * + 1. Returns TANDEM_OK, TANDEM_E_BUFFER_TOO_SMALL (value untouched), or TANDEM_E_AUTH when
     * there is no such secret. */
    tandem_status (*get_secret)(void *host_data, const char *name, char *value, size_t capacity,
                                size_t *required);
    /* Optional (may be NULL; absent from older hosts' tables). [until shutdown] Absolute path of
     * the folder holding the configuration file of the host that loaded this plugin, without a
     * trailing slash (except "/"); NULL when that configuration did not come from a file.
     * A plugin resolves a relative path in its settings (a model file, a CA bundle, a key file)
     * against this folder, as the user who wrote the config expects, and against its working
     * directory when the field is NULL or the host's table is too small to contain it. Absolute
     * paths are used as given; "~" is not expanded. A plugin file is loaded once per process, so
     * this is the folder of the first configuration that loaded it. */
    const char *config_directory;
} tandem_host;

/* ---------------------------------------------------------------------------------------------
 * 4. Availability
 * ------------------------------------------------------------------------------------------- */

/* Why a model cannot serve now. Names in quotes are the stable spelling (tandem_reason_name). */
typedef int32_t tandem_reason;
#define TANDEM_REASON_NONE                ((tandem_reason)0) /* "available" */
#define TANDEM_REASON_DEVICE_NOT_ELIGIBLE ((tandem_reason)1) /* "deviceNotEligible": CPU features, memory */
#define TANDEM_REASON_NOT_ENABLED         ((tandem_reason)2) /* "notEnabled": turned off in config */
#define TANDEM_REASON_MODEL_NOT_READY     ((tandem_reason)3) /* "modelNotReady": weights missing, downloading, verifying, loading */
#define TANDEM_REASON_UNSUPPORTED_LOCALE  ((tandem_reason)4) /* "unsupportedLocale" */
#define TANDEM_REASON_NOT_CONFIGURED      ((tandem_reason)5) /* "notConfigured": no credentials, no endpoint */
#define TANDEM_REASON_OFFLINE             ((tandem_reason)6) /* "offline": no network route */
#define TANDEM_REASON_UNKNOWN             ((tandem_reason)7) /* "unknown"; also any value not listed here */
/* "rateLimited": the server refused a request for its rate limit and said how long to wait; until
 * that delay has passed. The detail names the time left. Hosts older than this reason read it as
 * "unknown". */
#define TANDEM_REASON_RATE_LIMITED        ((tandem_reason)8)

static inline const char *tandem_reason_name(tandem_reason reason) {
    switch (reason) {
    case TANDEM_REASON_NONE: return "available";
    case TANDEM_REASON_DEVICE_NOT_ELIGIBLE: return "deviceNotEligible";
    case TANDEM_REASON_NOT_ENABLED: return "notEnabled";
    case TANDEM_REASON_MODEL_NOT_READY: return "modelNotReady";
    case TANDEM_REASON_UNSUPPORTED_LOCALE: return "unsupportedLocale";
    case TANDEM_REASON_NOT_CONFIGURED: return "notConfigured";
    case TANDEM_REASON_OFFLINE: return "offline";
    case TANDEM_REASON_RATE_LIMITED: return "rateLimited";
    default: return "unknown";
    }
}

/* Filled by availability(). The caller allocates it and sets struct_size, detail and
 * detail_capacity. */
typedef struct tandem_availability {
    uint32_t struct_size;
    tandem_reason reason; /* TANDEM_REASON_NONE means available */
    char *detail;         /* [caller buffer] human-readable detail; may be NULL with capacity 0 */
    size_t detail_capacity;
    double progress;      /* MODEL_NOT_READY: fraction 0..1 of a download or verification under
                             way; negative when unknown or not applicable */
} tandem_availability;

/* ---------------------------------------------------------------------------------------------
 * 5. Options for one generation
 * ------------------------------------------------------------------------------------------- */

/* Bits of tandem_options.present: a field is meaningful only when its bit is set. Unset fields
 * take the backend's default. A backend that cannot honour a set field returns
 * TANDEM_E_UNSUPPORTED_OPTION (or TANDEM_E_UNSUPPORTED_GUIDE for the schema) naming it. */
typedef uint32_t tandem_option_bits;
#define TANDEM_OPT_SAMPLING        ((tandem_option_bits)0x001u)
#define TANDEM_OPT_TEMPERATURE     ((tandem_option_bits)0x002u)
#define TANDEM_OPT_TOP_P           ((tandem_option_bits)0x004u)
#define TANDEM_OPT_TOP_K           ((tandem_option_bits)0x008u)
#define TANDEM_OPT_SEED            ((tandem_option_bits)0x010u)
#define TANDEM_OPT_MAX_TOKENS      ((tandem_option_bits)0x020u)
#define TANDEM_OPT_STOP            ((tandem_option_bits)0x040u)
#define TANDEM_OPT_THINKING_LEVEL  ((tandem_option_bits)0x080u)
#define TANDEM_OPT_THINKING_BUDGET ((tandem_option_bits)0x100u)
#define TANDEM_OPT_RESPONSE_SCHEMA ((tandem_option_bits)0x200u)

typedef int32_t tandem_sampling;
#define TANDEM_SAMPLING_GREEDY ((tandem_sampling)0) /* always the most likely token */
#define TANDEM_SAMPLING_TOP_K  ((tandem_sampling)1) /* sample among the top_k most likely */
#define TANDEM_SAMPLING_TOP_P  ((tandem_sampling)2) /* sample within cumulative probability top_p */

typedef int32_t tandem_thinking_level;
#define TANDEM_THINKING_MINIMAL ((tandem_thinking_level)0)
#define TANDEM_THINKING_LOW     ((tandem_thinking_level)1)
#define TANDEM_THINKING_MEDIUM  ((tandem_thinking_level)2)
#define TANDEM_THINKING_HIGH    ((tandem_thinking_level)3)

typedef struct tandem_options {
    uint32_t struct_size;
    tandem_option_bits present;
    tandem_sampling sampling;     /* TANDEM_OPT_SAMPLING */
    float temperature;            /* TANDEM_OPT_TEMPERATURE: >= 0 */
    float top_p;                  /* TANDEM_OPT_TOP_P: in (0, 1] */
    uint32_t top_k;               /* TANDEM_OPT_TOP_K: >= 1 */
    uint64_t seed;                /* TANDEM_OPT_SEED: same seed, same request -> same output */
    uint32_t max_tokens;          /* TANDEM_OPT_MAX_TOKENS: >= 1, response tokens */
    const tandem_str *stop;       /* TANDEM_OPT_STOP: [borrowed: call] stop sequences; the matched
                                     sequence is not part of the output */
    size_t stop_count;
    tandem_thinking_level thinking_level; /* TANDEM_OPT_THINKING_LEVEL */
    int32_t thinking_budget;      /* TANDEM_OPT_THINKING_BUDGET: tokens; -1 = dynamic, 0 = off */
    tandem_str response_schema;   /* TANDEM_OPT_RESPONSE_SCHEMA: [borrowed: call] JSON Schema text;
                                     the response must be one JSON document valid against it */
    const tandem_kv *extras;      /* [borrowed: call] backend-specific knobs with namespaced keys
                                     ("llama.threads", "cloud.region"); unknown keys are ignored */
    size_t extra_count;
} tandem_options;

/* ---------------------------------------------------------------------------------------------
 * 6. Conversation, tools, streaming events, result
 * ------------------------------------------------------------------------------------------- */

typedef int32_t tandem_role;
#define TANDEM_ROLE_SYSTEM    ((tandem_role)0)
#define TANDEM_ROLE_USER      ((tandem_role)1)
#define TANDEM_ROLE_ASSISTANT ((tandem_role)2)
#define TANDEM_ROLE_TOOL      ((tandem_role)3) /* the output of a tool call, answering call_id */

/* A function call made by the model. In a request: part of an earlier assistant turn. In an
 * event: [borrowed: callback]. */
typedef struct tandem_tool_call {
    uint32_t struct_size;
    tandem_str id;             /* the backend's call id; may be empty */
    tandem_str name;           /* the declared tool's name */
    tandem_str arguments_json; /* one JSON object */
    tandem_str signature;      /* opaque provider data (e.g. a thought signature) that must be
                                  sent back verbatim with this call; may be empty */
} tandem_tool_call;

typedef struct tandem_message {
    uint32_t struct_size;
    tandem_role role;
    tandem_str content;                 /* text; for ROLE_TOOL the tool's output */
    const tandem_tool_call *tool_calls; /* ROLE_ASSISTANT: calls the model made in this turn;
                                           index with TANDEM_ELEMENT */
    size_t tool_call_count;
    tandem_str call_id;                 /* ROLE_TOOL: the id of the call this answers */
    tandem_str tool_name;               /* ROLE_TOOL: the name of the tool that ran */
} tandem_message;

/* A tool the model may call. */
typedef struct tandem_tool {
    uint32_t struct_size;
    tandem_str name;
    tandem_str description;
    tandem_str parameters_schema; /* JSON Schema text of the arguments object */
} tandem_tool;

/* Everything a generation reads. [borrowed: call], including every pointer inside. */
typedef struct tandem_request {
    uint32_t struct_size;
    const tandem_message *messages; /* oldest first; at least one; index with TANDEM_ELEMENT */
    size_t message_count;
    const tandem_tool *tools;       /* may be NULL with tool_count 0; index with TANDEM_ELEMENT */
    size_t tool_count;
    const tandem_options *options;  /* may be NULL: all defaults */
    const char *locale;             /* BCP 47 ("en", "de-CH"); may be NULL */
} tandem_request;

typedef struct tandem_usage {
    uint32_t struct_size;
    uint32_t prompt_tokens;
    uint32_t output_tokens;   /* response tokens, thinking excluded */
    uint32_t thinking_tokens; /* counted but never shown as text */
} tandem_usage;

typedef int32_t tandem_event_kind;
#define TANDEM_EVENT_TEXT      ((tandem_event_kind)0) /* text: the next piece of the answer */
#define TANDEM_EVENT_TOOL_CALL ((tandem_event_kind)1) /* tool_call: one complete call */
#define TANDEM_EVENT_USAGE     ((tandem_event_kind)2) /* usage: counts so far; informational */
/* TANDEM_EVENT_USAGE is informational: a plugin may send it at any point, and the Tandem host
 * reads the totals from tandem_result.usage only (it drops these events, so they never reach
 * a stream's snapshots). A plugin must still fill the result's usage. */

/* One streamed event. Everything in it is [borrowed: callback]. */
typedef struct tandem_event {
    uint32_t struct_size;
    tandem_event_kind kind;
    tandem_str text;                   /* TEXT: always whole UTF-8 characters, never empty */
    const tandem_tool_call *tool_call; /* TOOL_CALL */
    const tandem_usage *usage;         /* USAGE */
} tandem_event;

typedef int32_t tandem_flow;
#define TANDEM_CONTINUE ((tandem_flow)0)
#define TANDEM_STOP     ((tandem_flow)1) /* end the generation now; not an error */

/* Where events go. Every answer, streamed or not, arrives only through these events. */
typedef struct tandem_stream {
    uint32_t struct_size;
    void *user_data;
    /* Called on generate()'s thread, before generate() returns. event: [borrowed: callback]. */
    tandem_flow (*on_event)(void *user_data, const tandem_event *event);
} tandem_stream;

/* Host-owned cancellation. [borrowed: call]. */
typedef struct tandem_cancel {
    uint32_t struct_size;
    void *data;
    /* [any thread] cheap; poll at least once per token, per network read, per prefill chunk. */
    bool (*is_cancelled)(void *data);
    /* [any thread] Optional to use. Registers wake(ctx), which the host calls at most once, from
     * any thread, when cancellation happens (immediately if it already has). Pass wake = NULL to
     * unregister; a plugin that registered must unregister before its call returns. Once the
     * unregistering call returns, wake is not running and will not run, so ctx may be freed.
     * wake must be quick (signal a condition, write to a pipe) and must not call set_waker. */
    void (*set_waker)(void *data, void (*wake)(void *ctx), void *ctx);
} tandem_cancel;

typedef int32_t tandem_finish;
#define TANDEM_FINISH_STOP          ((tandem_finish)0) /* natural end (end of turn / text) */
#define TANDEM_FINISH_MAX_TOKENS    ((tandem_finish)1) /* max_tokens reached */
#define TANDEM_FINISH_STOP_SEQUENCE ((tandem_finish)2) /* a stop sequence matched */
#define TANDEM_FINISH_CALLBACK      ((tandem_finish)3) /* on_event returned TANDEM_STOP */
#define TANDEM_FINISH_TOOL_CALLS    ((tandem_finish)4) /* the model asked for tool calls */
#define TANDEM_FINISH_CANCELLED     ((tandem_finish)5) /* the cancel token fired */
#define TANDEM_FINISH_ERROR         ((tandem_finish)6) /* the call returned an error */

/* Filled by generate(). The caller allocates it and sets struct_size, model_version and
 * model_version_capacity. */
typedef struct tandem_result {
    uint32_t struct_size;
    tandem_finish finish;
    char *model_version;           /* [caller buffer] the serving model's own version string:
                                      the cloud's reported version, a local file's derived id */
    size_t model_version_capacity;
    uint32_t prompt_tokens;
    uint32_t output_tokens;
    uint32_t thinking_tokens;
} tandem_result;

/* ---------------------------------------------------------------------------------------------
 * 7. The model object
 * ------------------------------------------------------------------------------------------- */

typedef uint64_t tandem_caps;
#define TANDEM_CAP_STREAMING        ((tandem_caps)0x01u) /* events arrive as they are produced */
#define TANDEM_CAP_GUIDED_JSON      ((tandem_caps)0x02u) /* honours response_schema */
#define TANDEM_CAP_TOOLS            ((tandem_caps)0x04u) /* honours tools */
#define TANDEM_CAP_EMBEDDINGS       ((tandem_caps)0x08u) /* embed() works */
#define TANDEM_CAP_TOKEN_COUNTING   ((tandem_caps)0x10u) /* count_tokens() works */
#define TANDEM_CAP_CONCURRENT_CALLS ((tandem_caps)0x20u) /* calls on one model may overlap */
#define TANDEM_CAP_THINKING         ((tandem_caps)0x40u) /* honours thinking level / budget */
#define TANDEM_CAP_DETERMINISTIC    ((tandem_caps)0x80u) /* same seed and request, same output */
/* An embedding model: generate() always fails with TANDEM_E_UNSUPPORTED_OPTION. A routing mode
 * (prefer-local, ...) passes it over when it looks for the one backend of a kind. */
#define TANDEM_CAP_EMBEDDINGS_ONLY  ((tandem_caps)0x100u)

typedef int32_t tandem_kind;
#define TANDEM_KIND_LOCAL ((tandem_kind)0) /* runs on this machine */
#define TANDEM_KIND_CLOUD ((tandem_kind)1) /* calls a remote service */
#define TANDEM_KIND_TEST  ((tandem_kind)2) /* a test double standing for neither side */

/* Identity of an opened model. Returned by info(); [until destroy], strings included. */
typedef struct tandem_model_info {
    uint32_t struct_size;
    const char *id;           /* stable id of this model, e.g. "smollm2-135m-instruct-q4_1" */
    const char *display_name;
    tandem_kind kind;
    tandem_caps caps;
    uint32_t context_length;  /* tokens; 0 when unknown */
    uint32_t embedding_dims;  /* 0 when embeddings are not supported */
} tandem_model_info;

typedef struct tandem_model tandem_model;

/* A model opened by tandem_plugin.open_model(). Plugin-owned; the host never looks inside
 * model_data. Every function receives the model itself as self. */
struct tandem_model {
    uint32_t struct_size;
    void *model_data;

    /* [any thread] Never NULL. */
    const tandem_model_info *(*info)(const tandem_model *self);

    /* [any thread] Cheap: never a network round trip, never loads weights. locale: BCP 47 or
     * NULL for "any". Returns TANDEM_OK after filling *out, whatever the reason. */
    tandem_status (*availability)(const tandem_model *self, const char *locale,
                                  tandem_availability *out);

    /* [per model] Runs one generation. Events go to stream (may be NULL: the output is then
     * discarded, which is only useful to measure). cancel may be NULL. result may be NULL.
     * Returns TANDEM_OK when the generation ended normally (result->finish says how), or an
     * error, with details in *error when error is not NULL. */
    tandem_status (*generate)(const tandem_model *self, const tandem_request *request,
                              const tandem_stream *stream, const tandem_cancel *cancel,
                              tandem_result *result, tandem_error *error);

    /* [per model] Optional (NULL unless TANDEM_CAP_EMBEDDINGS). Embeds count texts into vectors,
     * row after row, each *dims floats. capacity is the number of floats vectors can hold; when
     * it is too small (zero included), nothing is written, *required is set to count * dims and
     * TANDEM_E_BUFFER_TOO_SMALL is returned. inputs: [borrowed: call]. dims and required must not
     * be NULL; cancel may be NULL. */
    tandem_status (*embed)(const tandem_model *self, const tandem_str *inputs, size_t count,
                           float *vectors, size_t capacity, size_t *required, uint32_t *dims,
                           const tandem_cancel *cancel, tandem_error *error);

    /* [per model] Optional (NULL unless TANDEM_CAP_TOKEN_COUNTING). Counts the prompt tokens the
     * request would use. */
    tandem_status (*count_tokens)(const tandem_model *self, const tandem_request *request,
                                  uint32_t *tokens, tandem_error *error);

    /* [any thread] Optional (see "Extensions" in section 8). Returns the extension table for id,
     * [until destroy], or NULL when the id is unknown. id: [borrowed: call]. */
    const void *(*get_extension)(const tandem_model *self, const char *id);

    /* Nothing else may be in flight on this model. Frees it; self is invalid afterwards. */
    void (*destroy)(const tandem_model *self);
};

/* ---------------------------------------------------------------------------------------------
 * 8. The plugin table and the entry point
 * ------------------------------------------------------------------------------------------- */

/* Static table of a loaded plugin. [until shutdown]. */
typedef struct tandem_plugin {
    uint32_t struct_size;
    /* [any thread] Opens one model from its settings: the backend's "settings" object of the
     * config, flattened to text pairs (strings as they are, numbers and booleans as JSON text,
     * arrays and objects as JSON text). settings: [borrowed: call]. Unknown keys are an error
     * (TANDEM_E_INVALID_ARGUMENT naming the key), so typos do not pass silently. On success
     * *out_model is valid until its destroy(). */
    tandem_status (*open_model)(const tandem_kv *settings, size_t setting_count,
                                const tandem_model **out_model, tandem_error *error);
    /* [any thread] Optional (see "Extensions" below; ABI 1 defines none at this level, and the
     * Tandem host never calls it). Plugin-level extension table for id, [until shutdown], or NULL
     * when the id is unknown. id: [borrowed: call]. */
    const void *(*get_extension)(const char *id);
    /* [exclusive] Optional. Called at most once, after every model was destroyed. The Tandem
     * host never calls it (see "Host promises" at the top). */
    void (*shutdown)(void);
} tandem_plugin;

/* Extensions. A model or a plugin may offer more than this header's tables through
 * get_extension. An extension is named by a macro TANDEM_EXT_<NAME> whose value is a versioned id
 * string "tandem.<name>/<major>"; it is declared in this header with its table, whose first field
 * is struct_size (read the table's fields with TANDEM_HAS_FIELD, as any sized struct). Ids outside
 * the "tandem." prefix are free for private use ("org.example.thing/1"). Whatever the id, a plugin
 * returns NULL for every id it does not implement, and the conformance suite
 * (Tests/ConformanceTests) checks that an unknown id gets NULL from both functions. The Tandem
 * host asks a model's get_extension for TANDEM_EXT_TOKEN_EMBEDDINGS and TANDEM_EXT_LOG_LIKELIHOOD
 * (below), once per opened model; it never calls the plugin-level get_extension. ABI 1 defines no
 * plugin-level extension. */

/* The per-token states of a sentence encoder: what embed() pools into one vector, before pooling.
 * The Tandem host's novelty gate aligns two lines token by token with them
 * (Sources/QuoteLibrary/README.md, "Novelty"). Offered only by a model with TANDEM_CAP_EMBEDDINGS. */
#define TANDEM_EXT_TOKEN_EMBEDDINGS "tandem.token_embeddings/1"

/* The table get_extension(self, TANDEM_EXT_TOKEN_EMBEDDINGS) returns: [until destroy]. */
typedef struct tandem_token_embeddings_ext {
    uint32_t struct_size;
    /* [per model] (the same turn as embed: a call on the model) The tokens of one text and the
     * encoder's last hidden state of each, from the same encoder pass embed() runs on that text:
     * the states are not normalised, not centred and not pooled.
     * Only the text's own tokens are returned: the start and end markers and any prefix the backend
     * puts before every text (tandem.llama's embedding_prefix) are run through the encoder, as
     * embed() runs them, but left out of the answer. A text the backend cuts to the model's
     * positions returns the tokens that were kept. The empty text has no tokens (*required 0).
     * token_ids[i] is the backend's vocabulary id of token i, so that two texts' tokens can be
     * compared by identity; states holds row i at states[i * *dims .. (i + 1) * *dims).
     * capacity is the number of tokens both buffers can hold (token_ids: capacity int32_t,
     * states: capacity * *dims floats). The buffer-too-small convention is embed()'s: when capacity
     * is smaller than the text's token count (zero included), nothing is written, *required is set
     * to that count, *dims to the width, and TANDEM_E_BUFFER_TOO_SMALL is returned; the count is
     * known from tokenising alone, without an encoder pass. On TANDEM_OK *required is the number of
     * tokens written. text: [borrowed: call]. required and dims must not be NULL; token_ids and
     * states may be NULL when capacity is 0; cancel may be NULL. */
    tandem_status (*token_embeddings)(const tandem_model *self, tandem_str text, int32_t *token_ids,
                                      float *states, size_t capacity, size_t *required, uint32_t *dims,
                                      const tandem_cancel *cancel, tandem_error *error);
} tandem_token_embeddings_ext;

/* How likely a language model finds a given text after another: the quote pipeline's likelihood
 * judge compares one line's likelihood after two lists of examples, and asks how likely its final
 * mark is after the rest of it (Sources/QuoteLibrary/README.md, "Judge"). Offered only by a model
 * that generates text from raw text. */
#define TANDEM_EXT_LOG_LIKELIHOOD "tandem.log_likelihood/1"

/* The table get_extension(self, TANDEM_EXT_LOG_LIKELIHOOD) returns: [until destroy]. */
typedef struct tandem_log_likelihood_ext {
    uint32_t struct_size;
    /* [per model] (a call on the model, like generate) The natural log of the probability the model
     * gives `continuation` right after `context`: the sum, over the continuation's tokens, of the
     * log-probability of each token given every token before it. No chat template is applied: the
     * model reads context then continuation as one raw text, tokenised as one text (with the
     * model's start marker when it adds one; control-token spellings in either text are plain
     * text). The continuation's tokens are those after the longest token prefix the joined text
     * shares with the context tokenised alone, so a token that spans the join counts to the
     * continuation; *tokens is their number. The context may be empty only for a model that
     * starts every text with a marker. On TANDEM_OK, *log_likelihood <= 0 and *tokens >= 1.
     * An empty continuation, or text that is not UTF-8, is TANDEM_E_INVALID_ARGUMENT; a joined
     * text longer than the model's context is TANDEM_E_CONTEXT_WINDOW_EXCEEDED. The plugin may
     * keep a context's state between calls, so a caller that scores many texts after the same
     * few contexts pays for each context once. context, continuation: [borrowed: call].
     * log_likelihood and tokens must not be NULL; cancel may be NULL. */
    tandem_status (*log_likelihood)(const tandem_model *self, tandem_str context, tandem_str continuation,
                                    double *log_likelihood, uint32_t *tokens,
                                    const tandem_cancel *cancel, tandem_error *error);
} tandem_log_likelihood_ext;

/* What the host offers. */
typedef struct tandem_load_request {
    uint32_t struct_size;
    uint32_t min_abi;          /* oldest version the host speaks */
    uint32_t max_abi;          /* newest version the host speaks */
    const tandem_host *host;   /* [until shutdown] */
    const char *plugin_path;   /* [borrowed: call] absolute path of this shared object */
} tandem_load_request;

/* What the plugin answers. The host allocates it, zeroed, with struct_size set. */
typedef struct tandem_load_response {
    uint32_t struct_size;
    uint32_t abi_version;          /* chosen within [min_abi, max_abi] */
    const char *plugin_id;         /* [until shutdown] stable reverse-DNS-like id, e.g. "tandem.fake";
                                      [A-Za-z0-9._-], at most 64 bytes */
    const char *plugin_name;       /* [until shutdown] display name */
    const char *plugin_version;    /* [until shutdown] the plugin's own version, e.g. "1.0.0" */
    const tandem_plugin *plugin;   /* [until shutdown] */
} tandem_load_response;

/* The only symbol a plugin exports. [exclusive]: called once, at load, before anything else.
 * Returns TANDEM_OK after filling *response, or TANDEM_E_INCOMPATIBLE when no version in the
 * offered range is supported, or TANDEM_E_INIT_FAILED; details in *error (may be NULL).
 * The conformance suite calls it again with other offers and struct sizes: answer each call on
 * its own, and keep the host table of the first successful call (it lives as long as the host). */
typedef tandem_status (*tandem_plugin_entry_fn)(const tandem_load_request *request,
                                                tandem_load_response *response,
                                                tandem_error *error);

#if defined(__GNUC__) || defined(__clang__)
#define TANDEM_EXPORT __attribute__((visibility("default")))
#else
#define TANDEM_EXPORT
#endif

#ifdef __cplusplus
}
#endif

#endif /* TANDEM_ABI_H */
