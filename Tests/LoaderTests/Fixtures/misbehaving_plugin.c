/* A plugin that breaks one ABI rule per "mode" setting, so the tests can check that the host
 * notices each one and reports it instead of trusting the plugin (see PluginBackendContractTests). */
#include "tandem_abi.h"
#include "fixture_stream.h"
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bad_model {
    tandem_model table;
    tandem_model_info info;
    char mode[32];
} bad_model;

static int wakes = 0; /* how often a waker left behind was called */

static bool mode_is(const tandem_model *self, const char *mode) {
    return strcmp(((const bad_model *)(const void *)self)->mode, mode) == 0;
}

static const tandem_model_info *bad_info(const tandem_model *self) {
    return mode_is(self, "info_null") ? NULL : &((const bad_model *)(const void *)self)->info;
}

static tandem_status bad_availability(const tandem_model *self, const char *locale, tandem_availability *out) {
    (void)self; (void)locale;
    out->reason = TANDEM_REASON_NONE;
    if (out->detail != NULL) { snprintf(out->detail, out->detail_capacity, "wakes=%d", wakes); }
    return TANDEM_OK;
}

static void *send_from_thread(void *stream) {
    send_text((const tandem_stream *)stream, "elsewhere", 9);
    return NULL;
}

static void count_wake(void *context) { (void)context; wakes++; }

static tandem_status bad_generate(const tandem_model *self, const tandem_request *request, const tandem_stream *stream,
                                  const tandem_cancel *cancel, tandem_result *result, tandem_error *error) {
    (void)request; (void)result;
    if (mode_is(self, "event_after_stop")) {
        send_text(stream, "a", 1);
        send_text(stream, "b", 1);
    } else if (mode_is(self, "empty_text")) {
        send_text(stream, "", 0);
    } else if (mode_is(self, "invalid_utf8")) {
        send_text(stream, "\xff\xfe", 2);
    } else if (mode_is(self, "other_thread")) {
        pthread_t thread;
        pthread_create(&thread, NULL, send_from_thread, (void *)stream);
        pthread_join(thread, NULL);
    } else if (mode_is(self, "positive_status")) {
        return 5;
    } else if (mode_is(self, "silent_error")) {
        return TANDEM_E_SERVER_ERROR; /* no message written */
    } else if (mode_is(self, "leave_waker")) {
        cancel->set_waker(cancel->data, count_wake, NULL); /* and never unregistered */
    }
    (void)error;
    return TANDEM_OK;
}

/* "states_huge": embeddings whose token_embeddings answers every text with "too small, room for
 * 2^40 tokens needed", far past the model's positions. */
static tandem_status bad_embed(const tandem_model *self, const tandem_str *inputs, size_t count, float *vectors,
                               size_t capacity, size_t *required, uint32_t *dims, const tandem_cancel *cancel, tandem_error *error) {
    (void)self; (void)inputs; (void)cancel; (void)error;
    *dims = 4;
    *required = count * 4;
    if (capacity < count * 4) { return TANDEM_E_BUFFER_TOO_SMALL; }
    for (size_t i = 0; i < count * 4; i++) { vectors[i] = i % 4 == 0 ? 1.0f : 0.0f; }
    return TANDEM_OK;
}

static tandem_status bad_token_embeddings(const tandem_model *self, tandem_str text, int32_t *token_ids, float *states,
                                          size_t capacity, size_t *required, uint32_t *dims, const tandem_cancel *cancel,
                                          tandem_error *error) {
    (void)self; (void)text; (void)token_ids; (void)states; (void)capacity; (void)cancel; (void)error;
    *required = (size_t)1 << 40;
    *dims = 4;
    return TANDEM_E_BUFFER_TOO_SMALL;
}

static const tandem_token_embeddings_ext bad_token_table = {sizeof(tandem_token_embeddings_ext), bad_token_embeddings};

/* "likelihood_positive", "likelihood_nan", "likelihood_no_tokens": log_likelihood answers what no
 * log-probability can be (above 0, not a number, over no token); "likelihood_short_table" offers a
 * table whose struct_size leaves out its function. */
static tandem_status bad_log_likelihood(const tandem_model *self, tandem_str context, tandem_str continuation,
                                        double *log_likelihood, uint32_t *tokens, const tandem_cancel *cancel,
                                        tandem_error *error) {
    (void)context; (void)continuation; (void)cancel; (void)error;
    *log_likelihood = mode_is(self, "likelihood_positive") ? 1.5 : mode_is(self, "likelihood_nan") ? NAN : -2.0;
    *tokens = mode_is(self, "likelihood_no_tokens") ? 0 : 3;
    return TANDEM_OK;
}

static const tandem_log_likelihood_ext bad_likelihood_table = {sizeof(tandem_log_likelihood_ext), bad_log_likelihood};
static const tandem_log_likelihood_ext short_likelihood_table = {sizeof(uint32_t), bad_log_likelihood};

static const void *bad_extension(const tandem_model *self, const char *id) {
    if (strcmp(id, TANDEM_EXT_LOG_LIKELIHOOD) == 0 && strncmp(((const bad_model *)(const void *)self)->mode, "likelihood_", 11) == 0) {
        return mode_is(self, "likelihood_short_table") ? &short_likelihood_table : &bad_likelihood_table;
    }
    return mode_is(self, "states_huge") && strcmp(id, TANDEM_EXT_TOKEN_EMBEDDINGS) == 0 ? &bad_token_table : NULL;
}

static void bad_destroy(const tandem_model *self) { free((void *)(uintptr_t)self); }

static tandem_status bad_open(const tandem_kv *settings, size_t count, const tandem_model **out, tandem_error *error) {
    (void)error;
    bad_model *model = calloc(1, sizeof *model);
    for (size_t i = 0; i < count; i++) {
        if (settings[i].key.size == 4 && memcmp(settings[i].key.data, "mode", 4) == 0 && settings[i].value.size < sizeof model->mode) {
            memcpy(model->mode, settings[i].value.data, settings[i].value.size);
        }
    }
    model->info.struct_size = sizeof model->info;
    model->info.id = "bad";
    model->info.display_name = "bad";
    model->info.kind = TANDEM_KIND_TEST;
    const bool states = strcmp(model->mode, "states_huge") == 0;
    model->info.caps = strcmp(model->mode, "embed_liar") == 0 || states ? TANDEM_CAP_EMBEDDINGS : 0;
    model->info.context_length = 512;
    model->info.embedding_dims = states ? 4 : 0;
    model->table.struct_size = sizeof model->table;
    model->table.model_data = model;
    model->table.info = bad_info;
    model->table.availability = bad_availability;
    model->table.generate = strcmp(model->mode, "missing_generate") == 0 ? NULL : bad_generate;
    model->table.embed = states ? bad_embed : NULL;
    model->table.get_extension = bad_extension;
    model->table.destroy = bad_destroy;
    if (strcmp(model->mode, "open_null") == 0) {
        free(model);
        *out = NULL;
        return TANDEM_OK;
    }
    *out = &model->table;
    return TANDEM_OK;
}

static const tandem_plugin bad_plugin = {sizeof(tandem_plugin), bad_open, NULL, NULL};

TANDEM_EXPORT tandem_status tandem_plugin_entry_v1(const tandem_load_request *request, tandem_load_response *response, tandem_error *error) {
    (void)error;
    response->abi_version = request->max_abi < TANDEM_ABI_CURRENT ? request->max_abi : TANDEM_ABI_CURRENT;
    response->plugin_id = "test.misbehaving";
    response->plugin_name = "misbehaving";
    response->plugin_version = "0";
    response->plugin = &bad_plugin;
    return TANDEM_OK;
}
