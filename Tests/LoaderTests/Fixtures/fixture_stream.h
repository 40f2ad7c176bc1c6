/* Sending one text event, shared by the test plugins in this folder. */
#ifndef FIXTURE_STREAM_H
#define FIXTURE_STREAM_H
#include "tandem_abi.h"

static tandem_flow send_text(const tandem_stream *stream, const char *text, size_t size) {
    tandem_event event = {0};
    event.struct_size = sizeof event;
    event.kind = TANDEM_EVENT_TEXT;
    event.text.data = text;
    event.text.size = size;
    return stream->on_event(stream->user_data, &event);
}

#endif
