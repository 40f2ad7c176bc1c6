/*
 * echo.c: a complete Tandem backend plugin in plain C11, and the file to start from when you
 * write your own. It needs nothing but the ABI header and libc: no Swift runtime.
 *
 *   cc -shared -fPIC -std=c11 -Wall -Wextra -Werror -pedantic -fvisibility=hidden \
 *      -I Sources/CTandemABI/include -o libTandemEchoC.so Plugins/EchoC/echo.c
 *
 * `make plugins` builds it and installs it as plugins.d/tandem.echo-c.so.
 *
 * What the model does: it answers with the last user message (optionally after a configured
 * prefix), streamed word by word. It honours max_tokens and stop sequences, cancellation, a
 * stop from the stream callback, and reports usage. It also embeds texts (hashed character
 * trigrams) and counts tokens, so it exercises every part of the ABI a plugin may implement.
 *
 * Rules this file follows, which every plugin must (see tandem_abi.h):
 *   - Read a field of a host struct only when TANDEM_HAS_FIELD says the host wrote it; write a
 *     field of a host struct only when TANDEM_HAS_FIELD says it is there.
 *   - Never crash on bad input: return TANDEM_E_INVALID_ARGUMENT with a message naming it.
 *   - Never write past a caller buffer's capacity; always NUL-terminate it.
 *   - Call the stream callback only on the calling thread, before generate() returns.
 *   - Only the entry function is exported (-fvisibility=hidden + TANDEM_EXPORT).
 */
#include "tandem_abi.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ECHO_PLUGIN_ID "tandem.echo-c"
#define ECHO_MODEL_ID "echo-c"
#define ECHO_VERSION "1.0.0"
#define ECHO_EMBEDDING_DIMS 16u
#define ECHO_CONTEXT_LENGTH 4096u

/* ---------------------------------------------------------------------------------------------
 * Small helpers: errors, UTF-8, words
 * ------------------------------------------------------------------------------------------- */

/* The longest prefix of text[0..length) of at most limit bytes that ends on a UTF-8 character
 * boundary. */
static size_t utf8_prefix(const char *text, size_t length, size_t limit) {
    if (length <= limit) {
        return length;
    }
    /* Step back over continuation bytes (10xxxxxx) so no character is cut in half. */
    while (limit > 0 && ((unsigned char)text[limit] & 0xC0u) == 0x80u) {
        limit--;
    }
    return limit;
}

/* text[0..length) without a partial UTF-8 character at its end. */
static size_t utf8_whole(const char *text, size_t length) {
    size_t start = length; /* where the last character begins */
    while (start > 0 && ((unsigned char)text[start - 1] & 0xC0u) == 0x80u) {
        start--;
    }
    if (start == 0) {
        return length;
    }
    unsigned char lead = (unsigned char)text[start - 1];
    size_t need = lead >= 0xF0u ? 4 : lead >= 0xE0u ? 3 : lead >= 0xC0u ? 2 : 1;
    return length - (start - 1) >= need ? length : start - 1;
}

/* Copies text into a caller buffer, truncated on a UTF-8 character boundary, NUL-terminated. */
static void copy_to_buffer(char *buffer, size_t capacity, const char *text, size_t length) {
    if (buffer == NULL || capacity == 0) {
        return;
    }
    length = utf8_prefix(text, length, capacity - 1);
    memcpy(buffer, text, length);
    buffer[length] = '\0';
}

/* Fills *error (which may be NULL) and returns code, so failures read `return fail(...)`. */
static tandem_status fail(tandem_error *error, tandem_status code, const char *format, ...) {
    if (error != NULL) {
        char text[512];
        va_list args;
        va_start(args, format);
        int written = vsnprintf(text, sizeof text, format, args);
        va_end(args);
        size_t length = written < 0 ? 0 : (size_t)written;
        if (length >= sizeof text) { /* vsnprintf cut on a byte: drop a half character */
            length = utf8_whole(text, sizeof text - 1);
        }
        if (TANDEM_HAS_FIELD(error, tandem_error, code)) {
            error->code = code;
        }
        if (TANDEM_HAS_FIELD(error, tandem_error, message_capacity)) {
            copy_to_buffer(error->message, error->message_capacity, text, length);
        }
    }
    return code;
}

/* True when bytes[0..size) is well-formed UTF-8 (no overlongs, no surrogates, <= U+10FFFF). */
static bool is_valid_utf8(const char *bytes, size_t size) {
    const unsigned char *s = (const unsigned char *)bytes;
    size_t i = 0;
    while (i < size) {
        unsigned char c = s[i];
        size_t extra;
        unsigned long point;
        if (c < 0x80u) { i++; continue; }
        else if (c >= 0xC2u && c <= 0xDFu) { extra = 1; point = c & 0x1Fu; }
        else if (c >= 0xE0u && c <= 0xEFu) { extra = 2; point = c & 0x0Fu; }
        else if (c >= 0xF0u && c <= 0xF4u) { extra = 3; point = c & 0x07u; }
        else { return false; }
        if (size - i <= extra) { return false; }
        for (size_t k = 1; k <= extra; k++) {
            if ((s[i + k] & 0xC0u) != 0x80u) { return false; }
            point = (point << 6) | (s[i + k] & 0x3Fu);
        }
        if ((extra == 2 && point < 0x800u) || (extra == 3 && point < 0x10000u) || point > 0x10FFFFu ||
            (point >= 0xD800u && point <= 0xDFFFu)) {
            return false;
        }
        i += extra + 1;
    }
    return true;
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

/* Length of the word piece starting at text[0]: leading whitespace, then non-whitespace. The
 * pieces of a text concatenate back to it exactly; trailing whitespace joins the last piece.
 * Splitting only at ASCII whitespace never cuts a UTF-8 character. */
static size_t next_piece(const char *text, size_t size) {
    size_t i = 0;
    while (i < size && is_space(text[i])) { i++; }
    while (i < size && !is_space(text[i])) { i++; }
    size_t rest = i;
    while (rest < size && is_space(text[rest])) { rest++; }
    return rest == size ? size : i;
}

static uint32_t count_pieces(const char *text, size_t size) {
    uint32_t count = 0;
    for (size_t at = 0; at < size; at += next_piece(text + at, size - at)) { count++; }
    return count;
}

static bool is_cancelled(const tandem_cancel *cancel) {
    return cancel != NULL && TANDEM_HAS_FIELD(cancel, tandem_cancel, is_cancelled) && cancel->is_cancelled != NULL &&
           cancel->is_cancelled(cancel->data);
}

/* ---------------------------------------------------------------------------------------------
 * Host services, kept from the entry call until shutdown
 * ------------------------------------------------------------------------------------------- */

static const tandem_host *echo_host = NULL;

static void echo_log(tandem_log_level level, const char *message) {
    if (echo_host != NULL && TANDEM_HAS_FIELD(echo_host, tandem_host, log) && echo_host->log != NULL) {
        echo_host->log(echo_host->host_data, level, message);
    }
}

/* ---------------------------------------------------------------------------------------------
 * The model
 * ------------------------------------------------------------------------------------------- */

/* The plugin's model object. `table` comes first so a `const tandem_model *` handed to the host
 * is also a pointer to the whole echo_model. */
typedef struct echo_model {
    tandem_model table;
    tandem_model_info info;
    char *prefix;        /* the "prefix" setting, NUL-terminated; "" when not set */
    size_t prefix_size;
    atomic_flag busy;    /* set while a per-model call runs: overlapping calls are refused */
} echo_model;

static echo_model *self_of(const tandem_model *self) { return (echo_model *)(uintptr_t)self; }

static const tandem_model_info *echo_info(const tandem_model *self) { return &self_of(self)->info; }

static tandem_status echo_availability(const tandem_model *self, const char *locale, tandem_availability *out) {
    (void)self;
    (void)locale; /* echoing works in every language */
    if (out == NULL) {
        return TANDEM_E_INVALID_ARGUMENT;
    }
    if (TANDEM_HAS_FIELD(out, tandem_availability, reason)) { out->reason = TANDEM_REASON_NONE; }
    if (TANDEM_HAS_FIELD(out, tandem_availability, detail_capacity)) { copy_to_buffer(out->detail, out->detail_capacity, "", 0); }
    if (TANDEM_HAS_FIELD(out, tandem_availability, progress)) { out->progress = -1.0; }
    return TANDEM_OK;
}

/* Checks the request and finds the last user message. */
static tandem_status read_request(const tandem_request *request, tandem_str *user_text, uint32_t *prompt_tokens,
                                  tandem_error *error) {
    if (request == NULL || !TANDEM_HAS_FIELD(request, tandem_request, message_count)) {
        return fail(error, TANDEM_E_INVALID_ARGUMENT, "request is NULL or its struct_size is too small");
    }
    if (request->message_count == 0 || request->messages == NULL) {
        return fail(error, TANDEM_E_INVALID_ARGUMENT, "request has no messages");
    }
    *prompt_tokens = 0;
    user_text->data = NULL;
    user_text->size = 0;
    /* Elements are struct_size apart (the host may be built against another header version). */
    const uint32_t stride = request->messages[0].struct_size;
    if (stride % _Alignof(tandem_message) != 0) {
        return fail(error, TANDEM_E_INVALID_ARGUMENT, "messages[0].struct_size %u is not a multiple of %zu", (unsigned)stride,
                    (size_t)_Alignof(tandem_message));
    }
    for (size_t i = 0; i < request->message_count; i++) {
        const tandem_message *message = TANDEM_ELEMENT(request->messages, tandem_message, i);
        if (message->struct_size != stride) {
            return fail(error, TANDEM_E_INVALID_ARGUMENT, "messages[%zu].struct_size %u differs from the array's %u", i,
                        (unsigned)message->struct_size, (unsigned)stride);
        }
        if (!TANDEM_HAS_FIELD(message, tandem_message, content)) {
            return fail(error, TANDEM_E_INVALID_ARGUMENT, "messages[%zu].struct_size %u is too small", i, (unsigned)stride);
        }
        if (message->role < TANDEM_ROLE_SYSTEM || message->role > TANDEM_ROLE_TOOL) {
            return fail(error, TANDEM_E_INVALID_ARGUMENT, "messages[%zu].role %d is unknown", i, (int)message->role);
        }
        if ((message->content.data == NULL && message->content.size > 0) ||
            !is_valid_utf8(message->content.data, message->content.size)) {
            return fail(error, TANDEM_E_INVALID_ARGUMENT, "messages[%zu].content is not valid UTF-8", i);
        }
        *prompt_tokens += count_pieces(message->content.data, message->content.size);
        if (message->role == TANDEM_ROLE_USER) {
            *user_text = message->content;
        }
    }
    if (TANDEM_HAS_FIELD(request, tandem_request, tool_count) && request->tool_count > 0) {
        return fail(error, TANDEM_E_UNSUPPORTED_OPTION, "the echo model does not call tools");
    }
    return TANDEM_OK;
}

/* The options this model honours; everything it cannot honour is refused by name. */
typedef struct echo_options {
    uint32_t max_tokens; /* 0: no limit */
    const tandem_str *stop;
    size_t stop_count;
} echo_options;

static tandem_status read_options(const tandem_request *request, echo_options *out, tandem_error *error) {
    memset(out, 0, sizeof *out);
    if (!TANDEM_HAS_FIELD(request, tandem_request, options) || request->options == NULL) {
        return TANDEM_OK; /* all defaults */
    }
    const tandem_options *o = request->options;
    if (!TANDEM_HAS_FIELD(o, tandem_options, present)) {
        return fail(error, TANDEM_E_INVALID_ARGUMENT, "options.struct_size %u is too small", (unsigned)o->struct_size);
    }
    /* Sampling, temperature, top-p, top-k and seed are accepted: an echo is the same under any
     * of them. Thinking and schemas cannot be honoured, so they are refused. */
    if ((o->present & (TANDEM_OPT_THINKING_LEVEL | TANDEM_OPT_THINKING_BUDGET)) != 0) {
        return fail(error, TANDEM_E_UNSUPPORTED_OPTION, "the echo model does not support thinking");
    }
    if ((o->present & TANDEM_OPT_RESPONSE_SCHEMA) != 0 && TANDEM_HAS_FIELD(o, tandem_options, response_schema)) {
        return fail(error, TANDEM_E_UNSUPPORTED_GUIDE, "the echo model cannot follow a response schema");
    }
    if ((o->present & TANDEM_OPT_MAX_TOKENS) != 0 && TANDEM_HAS_FIELD(o, tandem_options, max_tokens)) {
        if (o->max_tokens == 0) {
            return fail(error, TANDEM_E_INVALID_ARGUMENT, "options.max_tokens must be >= 1");
        }
        out->max_tokens = o->max_tokens;
    }
    if ((o->present & TANDEM_OPT_STOP) != 0 && TANDEM_HAS_FIELD(o, tandem_options, stop_count) && o->stop_count > 0) {
        if (o->stop == NULL) {
            return fail(error, TANDEM_E_INVALID_ARGUMENT, "options.stop is NULL with stop_count %zu", o->stop_count);
        }
        for (size_t i = 0; i < o->stop_count; i++) {
            if (o->stop[i].size == 0 || o->stop[i].data == NULL) {
                return fail(error, TANDEM_E_INVALID_ARGUMENT, "options.stop[%zu] is empty", i);
            }
        }
        out->stop = o->stop;
        out->stop_count = o->stop_count;
    }
    return TANDEM_OK;
}

/* Length of the answer up to the earliest stop sequence; *matched says whether one was found. */
static size_t cut_at_stop(const char *text, size_t size, const echo_options *options, bool *matched) {
    *matched = false;
    size_t cut = size;
    for (size_t s = 0; s < options->stop_count; s++) {
        const tandem_str stop = options->stop[s];
        for (size_t at = 0; at + stop.size <= size && at < cut; at++) {
            if (memcmp(text + at, stop.data, stop.size) == 0) {
                cut = at;
                *matched = true;
                break;
            }
        }
    }
    return cut;
}

/* Sends one event; returns false when the host asked to stop. A NULL stream discards output. */
static bool emit(const tandem_stream *stream, const tandem_event *event) {
    if (stream == NULL || !TANDEM_HAS_FIELD(stream, tandem_stream, on_event) || stream->on_event == NULL) {
        return true;
    }
    return stream->on_event(stream->user_data, event) == TANDEM_CONTINUE;
}

static void write_result(tandem_result *result, tandem_finish finish, uint32_t prompt_tokens, uint32_t output_tokens) {
    if (result == NULL) { return; }
    if (TANDEM_HAS_FIELD(result, tandem_result, finish)) { result->finish = finish; }
    if (TANDEM_HAS_FIELD(result, tandem_result, model_version_capacity)) {
        const char *version = ECHO_MODEL_ID "-" ECHO_VERSION;
        copy_to_buffer(result->model_version, result->model_version_capacity, version, strlen(version));
    }
    if (TANDEM_HAS_FIELD(result, tandem_result, prompt_tokens)) { result->prompt_tokens = prompt_tokens; }
    if (TANDEM_HAS_FIELD(result, tandem_result, output_tokens)) { result->output_tokens = output_tokens; }
    if (TANDEM_HAS_FIELD(result, tandem_result, thinking_tokens)) { result->thinking_tokens = 0; }
}

/* The generation proper, run while the busy flag is held. */
static tandem_status run_generate(echo_model *model, const tandem_request *request, const tandem_stream *stream,
                                  const tandem_cancel *cancel, tandem_result *result, tandem_error *error) {
    tandem_str user_text;
    uint32_t prompt_tokens = 0;
    echo_options options;
    tandem_status status = read_request(request, &user_text, &prompt_tokens, error);
    if (status == TANDEM_OK) { status = read_options(request, &options, error); }
    if (status != TANDEM_OK) {
        write_result(result, TANDEM_FINISH_ERROR, 0, 0);
        return status;
    }
    if ((uint64_t)prompt_tokens + options.max_tokens > ECHO_CONTEXT_LENGTH) {
        write_result(result, TANDEM_FINISH_ERROR, prompt_tokens, 0);
        if (error != NULL && TANDEM_HAS_FIELD(error, tandem_error, context_requested)) {
            error->context_limit = ECHO_CONTEXT_LENGTH;
            error->context_requested = (uint64_t)prompt_tokens + options.max_tokens;
        }
        return fail(error, TANDEM_E_CONTEXT_WINDOW_EXCEEDED, "%u prompt tokens + %u requested exceed the context of %u",
                    (unsigned)prompt_tokens, (unsigned)options.max_tokens, ECHO_CONTEXT_LENGTH);
    }

    /* The answer is prefix + the user's text, cut at the earliest stop sequence. */
    size_t size = model->prefix_size + user_text.size;
    char *answer = malloc(size + 1);
    if (answer == NULL) {
        write_result(result, TANDEM_FINISH_ERROR, prompt_tokens, 0);
        return fail(error, TANDEM_E_UNKNOWN, "out of memory for %zu bytes", size);
    }
    memcpy(answer, model->prefix, model->prefix_size);
    if (user_text.size > 0) { memcpy(answer + model->prefix_size, user_text.data, user_text.size); }
    bool stopped_by_sequence;
    size = cut_at_stop(answer, size, &options, &stopped_by_sequence);

    tandem_finish finish = stopped_by_sequence ? TANDEM_FINISH_STOP_SEQUENCE : TANDEM_FINISH_STOP;
    uint32_t produced = 0;
    status = TANDEM_OK;
    for (size_t at = 0; at < size;) {
        if (is_cancelled(cancel)) { /* polled once per token, as the ABI asks */
            finish = TANDEM_FINISH_CANCELLED;
            status = fail(error, TANDEM_E_CANCELLED, "cancelled after %u tokens", (unsigned)produced);
            break;
        }
        if (options.max_tokens != 0 && produced == options.max_tokens) {
            finish = TANDEM_FINISH_MAX_TOKENS;
            break;
        }
        size_t piece = next_piece(answer + at, size - at);
        tandem_event event = {0};
        event.struct_size = sizeof event;
        event.kind = TANDEM_EVENT_TEXT;
        event.text.data = answer + at;
        event.text.size = piece;
        at += piece;
        produced++;
        if (!emit(stream, &event)) {
            finish = TANDEM_FINISH_CALLBACK;
            break;
        }
    }
    free(answer);

    if (status == TANDEM_OK && finish != TANDEM_FINISH_CALLBACK) {
        tandem_usage usage = {0};
        usage.struct_size = sizeof usage;
        usage.prompt_tokens = prompt_tokens;
        usage.output_tokens = produced;
        tandem_event event = {0};
        event.struct_size = sizeof event;
        event.kind = TANDEM_EVENT_USAGE;
        event.usage = &usage;
        if (!emit(stream, &event)) { finish = TANDEM_FINISH_CALLBACK; }
    }
    write_result(result, status == TANDEM_OK ? finish : TANDEM_FINISH_CANCELLED, prompt_tokens, produced);
    return status;
}

static tandem_status echo_generate(const tandem_model *self, const tandem_request *request, const tandem_stream *stream,
                                   const tandem_cancel *cancel, tandem_result *result, tandem_error *error) {
    echo_model *model = self_of(self);
    /* This model does not declare TANDEM_CAP_CONCURRENT_CALLS: refuse overlap, never race. */
    if (atomic_flag_test_and_set(&model->busy)) {
        write_result(result, TANDEM_FINISH_ERROR, 0, 0);
        return fail(error, TANDEM_E_CONCURRENT_REQUESTS, "the echo model is already running a request");
    }
    tandem_status status;
    if (is_cancelled(cancel)) {
        write_result(result, TANDEM_FINISH_CANCELLED, 0, 0);
        status = fail(error, TANDEM_E_CANCELLED, "cancelled before the generation started");
    } else {
        status = run_generate(model, request, stream, cancel, result, error);
    }
    atomic_flag_clear(&model->busy);
    return status;
}

/* One embedding: hashed character trigrams (FNV-1a over bytes, ASCII lower-cased) into
 * ECHO_EMBEDDING_DIMS buckets with a hashed sign, then L2-normalised. */
static void embed_one(tandem_str text, float *vector) {
    memset(vector, 0, ECHO_EMBEDDING_DIMS * sizeof *vector);
    /* Two start markers and one end marker, so even the empty text has a trigram. */
    size_t length = text.size + 3;
    for (size_t start = 0; start + 3 <= length; start++) {
        uint64_t hash = 0xcbf29ce484222325u;
        for (size_t k = start; k < start + 3; k++) {
            unsigned char byte;
            if (k < 2) { byte = 2; }
            else if (k - 2 < text.size) {
                byte = (unsigned char)text.data[k - 2];
                if (byte >= 'A' && byte <= 'Z') { byte = (unsigned char)(byte - 'A' + 'a'); }
            } else { byte = 3; }
            hash ^= byte;
            hash *= 0x100000001b3u;
        }
        vector[hash % ECHO_EMBEDDING_DIMS] += (hash >> 63) == 0 ? 1.0f : -1.0f;
    }
    double norm = 0;
    for (uint32_t d = 0; d < ECHO_EMBEDDING_DIMS; d++) { norm += (double)vector[d] * vector[d]; }
    if (norm == 0) {
        vector[0] = 1.0f; /* every trigram cancelled out: a fixed unit vector rather than zeros */
        return;
    }
    /* Square root by Newton's method keeps this file free of libm. */
    double root = norm;
    for (int i = 0; i < 40; i++) { root = 0.5 * (root + norm / root); }
    for (uint32_t d = 0; d < ECHO_EMBEDDING_DIMS; d++) { vector[d] = (float)(vector[d] / root); }
}

static tandem_status echo_embed(const tandem_model *self, const tandem_str *inputs, size_t count, float *vectors,
                                size_t capacity, size_t *required, uint32_t *dims, const tandem_cancel *cancel,
                                tandem_error *error) {
    echo_model *model = self_of(self);
    if (required == NULL || dims == NULL) {
        return fail(error, TANDEM_E_INVALID_ARGUMENT, "required and dims must not be NULL");
    }
    if (count > 0 && inputs == NULL) {
        return fail(error, TANDEM_E_INVALID_ARGUMENT, "inputs is NULL with count %zu", count);
    }
    /* The two-call idiom: say how much room is needed; write nothing unless all of it is there. */
    *dims = ECHO_EMBEDDING_DIMS;
    *required = count * ECHO_EMBEDDING_DIMS;
    if (capacity < *required || (count > 0 && vectors == NULL)) {
        return fail(error, TANDEM_E_BUFFER_TOO_SMALL, "need %zu floats, capacity is %zu", *required, capacity);
    }
    for (size_t i = 0; i < count; i++) {
        if ((inputs[i].data == NULL && inputs[i].size > 0) || !is_valid_utf8(inputs[i].data, inputs[i].size)) {
            return fail(error, TANDEM_E_INVALID_ARGUMENT, "inputs[%zu] is not valid UTF-8", i);
        }
    }
    if (atomic_flag_test_and_set(&model->busy)) {
        return fail(error, TANDEM_E_CONCURRENT_REQUESTS, "the echo model is already running a request");
    }
    tandem_status status = TANDEM_OK;
    for (size_t i = 0; i < count; i++) {
        if (is_cancelled(cancel)) {
            status = fail(error, TANDEM_E_CANCELLED, "cancelled after %zu embeddings", i);
            break;
        }
        embed_one(inputs[i], vectors + i * ECHO_EMBEDDING_DIMS);
    }
    atomic_flag_clear(&model->busy);
    return status;
}

static tandem_status echo_count_tokens(const tandem_model *self, const tandem_request *request, uint32_t *tokens,
                                       tandem_error *error) {
    (void)self;
    if (tokens == NULL) {
        return fail(error, TANDEM_E_INVALID_ARGUMENT, "tokens must not be NULL");
    }
    tandem_str user_text;
    return read_request(request, &user_text, tokens, error);
}

static void echo_destroy(const tandem_model *self) {
    if (self == NULL) { return; }
    echo_model *model = self_of(self);
    free(model->prefix);
    free(model);
}

/* ---------------------------------------------------------------------------------------------
 * The plugin table
 * ------------------------------------------------------------------------------------------- */

static bool str_equals(tandem_str s, const char *text) {
    return s.size == strlen(text) && (s.size == 0 || memcmp(s.data, text, s.size) == 0);
}

/* Settings: "prefix" (text put before the echo). Any other key is an error naming it. */
static tandem_status echo_open_model(const tandem_kv *settings, size_t setting_count, const tandem_model **out_model,
                                     tandem_error *error) {
    if (out_model == NULL) {
        return fail(error, TANDEM_E_INVALID_ARGUMENT, "out_model must not be NULL");
    }
    *out_model = NULL;
    if (setting_count > 0 && settings == NULL) {
        return fail(error, TANDEM_E_INVALID_ARGUMENT, "settings is NULL with setting_count %zu", setting_count);
    }
    tandem_str prefix = {NULL, 0};
    for (size_t i = 0; i < setting_count; i++) {
        if (!is_valid_utf8(settings[i].key.data, settings[i].key.size) ||
            !is_valid_utf8(settings[i].value.data, settings[i].value.size)) {
            return fail(error, TANDEM_E_INVALID_ARGUMENT, "setting #%zu is not valid UTF-8", i);
        }
        if (str_equals(settings[i].key, "prefix")) {
            prefix = settings[i].value;
        } else {
            const tandem_str key = settings[i].key;
            return fail(error, TANDEM_E_INVALID_ARGUMENT, "unknown setting \"%.*s\" (the echo model accepts: prefix)",
                        (int)utf8_prefix(key.data, key.size, 64), key.data != NULL ? key.data : "");
        }
    }

    echo_model *model = calloc(1, sizeof *model);
    char *prefix_copy = malloc(prefix.size + 1);
    if (model == NULL || prefix_copy == NULL) {
        free(model);
        free(prefix_copy);
        return fail(error, TANDEM_E_INIT_FAILED, "out of memory");
    }
    if (prefix.size > 0) { memcpy(prefix_copy, prefix.data, prefix.size); }
    prefix_copy[prefix.size] = '\0';
    model->prefix = prefix_copy;
    model->prefix_size = prefix.size;
    atomic_flag_clear(&model->busy);

    model->info.struct_size = sizeof model->info;
    model->info.id = ECHO_MODEL_ID;
    model->info.display_name = "Echo (plain C example)";
    model->info.kind = TANDEM_KIND_TEST;
    model->info.caps = TANDEM_CAP_STREAMING | TANDEM_CAP_EMBEDDINGS | TANDEM_CAP_TOKEN_COUNTING | TANDEM_CAP_DETERMINISTIC;
    model->info.context_length = ECHO_CONTEXT_LENGTH;
    model->info.embedding_dims = ECHO_EMBEDDING_DIMS;

    model->table.struct_size = sizeof model->table;
    model->table.model_data = model;
    model->table.info = echo_info;
    model->table.availability = echo_availability;
    model->table.generate = echo_generate;
    model->table.embed = echo_embed;
    model->table.count_tokens = echo_count_tokens;
    model->table.get_extension = NULL; /* no extensions */
    model->table.destroy = echo_destroy;

    *out_model = &model->table;
    echo_log(TANDEM_LOG_DEBUG, "opened an echo model");
    return TANDEM_OK;
}

static const tandem_plugin echo_plugin = {
    sizeof(tandem_plugin),
    echo_open_model,
    NULL, /* get_extension: none */
    NULL, /* shutdown: nothing to release */
};

/* ---------------------------------------------------------------------------------------------
 * The entry point: version negotiation
 * ------------------------------------------------------------------------------------------- */

/* The ABI versions this file implements. A plugin built against a newer header raises max. */
#define ECHO_ABI_MIN TANDEM_ABI_VERSION(1, 0)
#define ECHO_ABI_MAX TANDEM_ABI_CURRENT

TANDEM_EXPORT tandem_status tandem_plugin_entry_v1(const tandem_load_request *request, tandem_load_response *response,
                                                   tandem_error *error) {
    if (request == NULL || response == NULL || !TANDEM_HAS_FIELD(request, tandem_load_request, max_abi) ||
        !TANDEM_HAS_FIELD(response, tandem_load_response, plugin)) {
        return fail(error, TANDEM_E_INVALID_ARGUMENT, "load request or response is NULL or too small");
    }
    /* Pick the newest version both sides speak: the overlap of [min_abi, max_abi] and ours. */
    uint32_t low = request->min_abi > ECHO_ABI_MIN ? request->min_abi : ECHO_ABI_MIN;
    uint32_t high = request->max_abi < ECHO_ABI_MAX ? request->max_abi : ECHO_ABI_MAX;
    if (request->min_abi > request->max_abi || low > high) {
        return fail(error, TANDEM_E_INCOMPATIBLE, "host offers ABI %u.%u-%u.%u, " ECHO_PLUGIN_ID " speaks %u.%u-%u.%u",
                    (unsigned)TANDEM_ABI_MAJOR(request->min_abi), (unsigned)TANDEM_ABI_MINOR(request->min_abi),
                    (unsigned)TANDEM_ABI_MAJOR(request->max_abi), (unsigned)TANDEM_ABI_MINOR(request->max_abi),
                    (unsigned)TANDEM_ABI_MAJOR(ECHO_ABI_MIN), (unsigned)TANDEM_ABI_MINOR(ECHO_ABI_MIN),
                    (unsigned)TANDEM_ABI_MAJOR(ECHO_ABI_MAX), (unsigned)TANDEM_ABI_MINOR(ECHO_ABI_MAX));
    }
    /* The first host table is kept: it lives as long as the process, and the entry may be called
     * again (conformance checks probe negotiation) while models run on other threads. */
    if (echo_host == NULL && TANDEM_HAS_FIELD(request, tandem_load_request, host) && request->host != NULL) {
        echo_host = request->host;
        /* Echo has no path settings; a plugin that has them resolves relative ones against the
         * config file's folder, or the working directory when the host gives none. */
        const char *folder = TANDEM_HAS_FIELD(echo_host, tandem_host, config_directory) ? echo_host->config_directory : NULL;
        char line[4200];
        snprintf(line, sizeof line, "relative paths resolve against %s%s", folder != NULL ? "the config folder " : "the working directory",
                 folder != NULL ? folder : "");
        echo_log(TANDEM_LOG_DEBUG, line);
    }
    response->abi_version = high;
    response->plugin_id = ECHO_PLUGIN_ID;
    response->plugin_name = "Echo (plain C example)";
    response->plugin_version = ECHO_VERSION;
    response->plugin = &echo_plugin;
    return TANDEM_OK;
}
