/* A plugin (id test.crashing) that takes its process down on demand, for the isolation tests
 * (Tests/TandemTests/IsolationTests.swift). Built with -DCRASH_IN_ENTRY it dies in its entry.
 * Settings: "kind" (local, cloud: the model's kind), "crash" (where generate goes wrong):
 *   segfault       writes through NULL
 *   abort          abort()
 *   exit           exit(0) mid-call
 *   hang           sleeps for ever, ignoring the cancel token
 *   stderr         writes 1 MiB of lines to stderr, then "last words", then abort()
 *   stderr_answer  writes 1 MiB of lines to stderr, then answers normally
 *   garbage        sends a text event whose pointer is garbage
 *   open           open_model itself writes through NULL
 * Without "crash", generate streams "fine answer" and succeeds. The model also offers
 * tandem.log_likelihood/1, whose function goes wrong the same way ("segfault", "abort", "exit",
 * "hang") and otherwise answers -1.5 over 2 tokens. */
#include "tandem_abi.h"
#include "fixture_stream.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct crashing_model {
    tandem_model table;
    tandem_model_info info;
    char crash[32];
} crashing_model;

static const char *crash_of(const tandem_model *self) { return ((const crashing_model *)(const void *)self)->crash; }

static const tandem_model_info *crashing_info(const tandem_model *self) { return &((const crashing_model *)(const void *)self)->info; }

static tandem_status crashing_availability(const tandem_model *self, const char *locale, tandem_availability *out) {
    (void)self; (void)locale;
    out->reason = TANDEM_REASON_NONE;
    return TANDEM_OK;
}

static void write_noise(void) {
    char line[80];
    for (int i = 0; i < 16384; i++) { /* 16384 lines of 64 bytes: 1 MiB */
        snprintf(line, sizeof line, "noise line %05d ..............................................\n", i);
        fputs(line, stderr);
    }
}

static int *volatile nowhere = NULL;

/* The ways every call goes wrong ("segfault", "abort", "exit", "hang"); abort() says `last_words`
 * on stderr first. Returns for any other setting. */
static void go_wrong(const char *crash, const char *last_words) {
    if (strcmp(crash, "segfault") == 0) {
        *nowhere = 1;
    } else if (strcmp(crash, "abort") == 0) {
        fputs(last_words, stderr);
        abort();
    } else if (strcmp(crash, "exit") == 0) {
        exit(0);
    } else if (strcmp(crash, "hang") == 0) {
        for (;;) { sleep(1); }
    }
}

static tandem_status crashing_generate(const tandem_model *self, const tandem_request *request, const tandem_stream *stream,
                                       const tandem_cancel *cancel, tandem_result *result, tandem_error *error) {
    (void)request; (void)cancel; (void)error;
    const char *crash = crash_of(self);
    go_wrong(crash, "about to abort\n");
    if (strcmp(crash, "stderr") == 0 || strcmp(crash, "stderr_answer") == 0) {
        write_noise();
        if (strcmp(crash, "stderr") == 0) {
            fputs("last words\n", stderr);
            fflush(stderr);
            abort();
        }
    } else if (strcmp(crash, "garbage") == 0) {
        send_text(stream, (const char *)(uintptr_t)0x10, 4096);
    }
    if (send_text(stream, "fine", 4) == TANDEM_CONTINUE) { send_text(stream, " answer", 7); }
    if (result != NULL) {
        result->finish = TANDEM_FINISH_STOP;
        result->output_tokens = 2;
    }
    return TANDEM_OK;
}

static tandem_status crashing_log_likelihood(const tandem_model *self, tandem_str context, tandem_str continuation,
                                             double *log_likelihood, uint32_t *tokens, const tandem_cancel *cancel,
                                             tandem_error *error) {
    (void)context; (void)continuation; (void)cancel; (void)error;
    go_wrong(crash_of(self), "about to abort while scoring\n");
    *log_likelihood = -1.5;
    *tokens = 2;
    return TANDEM_OK;
}

static const tandem_log_likelihood_ext crashing_likelihood_table = {sizeof(tandem_log_likelihood_ext), crashing_log_likelihood};

static const void *crashing_extension(const tandem_model *self, const char *id) {
    (void)self;
    return strcmp(id, TANDEM_EXT_LOG_LIKELIHOOD) == 0 ? &crashing_likelihood_table : NULL;
}

static void crashing_destroy(const tandem_model *self) { free((void *)(uintptr_t)self); }

static bool key_is(const tandem_kv *pair, const char *key) {
    return pair->key.size == strlen(key) && memcmp(pair->key.data, key, pair->key.size) == 0;
}

static tandem_status crashing_open(const tandem_kv *settings, size_t count, const tandem_model **out, tandem_error *error) {
    (void)error;
    crashing_model *model = calloc(1, sizeof *model);
    model->info.kind = TANDEM_KIND_LOCAL;
    for (size_t i = 0; i < count; i++) {
        if (key_is(&settings[i], "crash") && settings[i].value.size < sizeof model->crash) {
            memcpy(model->crash, settings[i].value.data, settings[i].value.size);
        } else if (key_is(&settings[i], "kind") && settings[i].value.size == 5 && memcmp(settings[i].value.data, "cloud", 5) == 0) {
            model->info.kind = TANDEM_KIND_CLOUD;
        }
    }
    if (strcmp(model->crash, "open") == 0) {
        fputs("opening the model goes wrong\n", stderr);
        *nowhere = 1;
    }
    model->info.struct_size = sizeof model->info;
    model->info.id = "crashing";
    model->info.display_name = "crashing";
    model->info.caps = TANDEM_CAP_STREAMING;
    model->table.struct_size = sizeof model->table;
    model->table.model_data = model;
    model->table.info = crashing_info;
    model->table.availability = crashing_availability;
    model->table.generate = crashing_generate;
    model->table.get_extension = crashing_extension;
    model->table.destroy = crashing_destroy;
    *out = &model->table;
    return TANDEM_OK;
}

static const tandem_plugin crashing_plugin = {sizeof(tandem_plugin), crashing_open, NULL, NULL};

TANDEM_EXPORT tandem_status tandem_plugin_entry_v1(const tandem_load_request *request, tandem_load_response *response, tandem_error *error) {
    (void)error;
#ifdef CRASH_IN_ENTRY
    fputs("the entry goes wrong\n", stderr);
    *nowhere = 1;
#endif
    response->abi_version = request->max_abi < TANDEM_ABI_CURRENT ? request->max_abi : TANDEM_ABI_CURRENT;
    response->plugin_id = "test.crashing";
    response->plugin_name = "crashing";
    response->plugin_version = "0";
    response->plugin = &crashing_plugin;
    return TANDEM_OK;
}
