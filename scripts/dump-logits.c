// Writes llama.cpp's logits at every position of a prompt, for the random-weight architecture
// references (scripts/make-architecture-reference.sh builds and runs it; the tests only read
// what it wrote). The prompt is decoded in one llama_decode call with the settings of
// Tests/Reference/gemma3-270m: context 4096 (capped at the model's), batch 2048, micro-batch
// 512, 2 threads, flash attention auto, f16 K/V cache, full-size sliding-window cache.
// Usage: dump-logits MODEL.gguf OUT.f32 ID,ID,...   (OUT: positions × vocabulary float32, LE)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llama.h"

int main(int argc, char ** argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s MODEL.gguf OUT.f32 ID,ID,...\n", argv[0]);
        return 2;
    }
    int n = 1;
    for (const char * c = argv[3]; *c; c++) n += *c == ',';
    llama_token * ids = malloc(sizeof(llama_token) * n);
    char * rest = argv[3];
    for (int i = 0; i < n; i++) ids[i] = (llama_token) strtol(rest, &rest, 10), rest += *rest == ',';

    llama_backend_init();
    struct llama_model * model = llama_model_load_from_file(argv[1], llama_model_default_params());
    if (!model) { fprintf(stderr, "cannot load %s\n", argv[1]); return 1; }
    struct llama_context_params cp = llama_context_default_params();
    cp.n_ctx = 4096 < llama_model_n_ctx_train(model) ? 4096 : llama_model_n_ctx_train(model);
    cp.n_batch = 2048;
    cp.n_ubatch = 512;
    cp.n_seq_max = 1;
    cp.n_threads = cp.n_threads_batch = 2;
    cp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_AUTO;
    cp.type_k = cp.type_v = GGML_TYPE_F16;
    cp.swa_full = true;
    struct llama_context * ctx = llama_init_from_model(model, cp);
    if (!ctx) { fprintf(stderr, "cannot create a context\n"); return 1; }

    struct llama_batch batch = llama_batch_init(n, 0, 1);
    for (int i = 0; i < n; i++) {
        batch.token[i] = ids[i];
        batch.pos[i] = i;
        batch.n_seq_id[i] = 1;
        batch.seq_id[i][0] = 0;
        batch.logits[i] = 1;
    }
    batch.n_tokens = n;
    if (llama_decode(ctx, batch) != 0) { fprintf(stderr, "llama_decode failed\n"); return 1; }

    const int vocab = llama_vocab_n_tokens(llama_model_get_vocab(model));
    FILE * out = fopen(argv[2], "wb");
    if (!out) { fprintf(stderr, "cannot write %s\n", argv[2]); return 1; }
    for (int i = 0; i < n; i++) fwrite(llama_get_logits_ith(ctx, i), sizeof(float), vocab, out);
    fclose(out);

    llama_batch_free(batch);
    llama_free(ctx);
    llama_model_free(model);
    llama_backend_free();
    free(ids);
    return 0;
}
