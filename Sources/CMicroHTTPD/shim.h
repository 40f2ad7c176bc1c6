/* libmicrohttpd for Swift. MHD_start_daemon, MHD_get_connection_info and MHD_get_daemon_info are
 * variadic, which Swift cannot call: these typed wrappers are the only way the Swift code reaches
 * them. The server runs one thread per connection (blocking handlers are allowed there) and binds
 * the numeric address it is given, never a name that would need a resolver. */
#ifndef TANDEM_CMICROHTTPD_SHIM_H
#define TANDEM_CMICROHTTPD_SHIM_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* The enum values Swift imports under other names (closed enums lose their prefix), and the
 * poll flag glibc shows only with _GNU_SOURCE. */
static const enum MHD_Result TANDEM_MHD_YES = MHD_YES;
static const enum MHD_Result TANDEM_MHD_NO = MHD_NO;
static const short TANDEM_POLLRDHUP = 0x2000;

/* Copies `size` bytes of `data` into a new response. */
static inline struct MHD_Response *tandem_mhd_response_copying(size_t size, const void *data) {
    return MHD_create_response_from_buffer(size, (void *)data, MHD_RESPMEM_MUST_COPY);
}

/* Calls `iterator` for every request header. */
static inline int tandem_mhd_request_headers(struct MHD_Connection *connection, MHD_KeyValueIterator iterator, void *context) {
    return MHD_get_connection_values(connection, MHD_HEADER_KIND, iterator, context);
}

/* Limits the daemon enforces itself. */
struct tandem_mhd_limits {
    unsigned connection_limit;       /* open connections at once; more are refused at accept */
    unsigned idle_timeout_seconds;   /* a connection with no traffic for this long is closed */
    size_t connection_memory;        /* per-connection buffer for the request head */
};

/* Starts a daemon on `address` (an IPv4 or IPv6 literal) and `port` (0: any free port).
 * Returns NULL when the address is not a literal (`*bad_address` set to 1) or the daemon could
 * not start (address in use, no permission: errno says which). */
static inline struct MHD_Daemon *tandem_mhd_start(
    const char *address, uint16_t port, struct tandem_mhd_limits limits,
    MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context, int *bad_address)
{
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    struct sockaddr *bind_address;
    /* ITC lets MHD_quiesce_daemon stop accepting while connections finish. */
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ITC;
    *bad_address = 0;
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    if (inet_pton(AF_INET, address, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(port);
        bind_address = (struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, address, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(port);
        bind_address = (struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
    } else {
        *bad_address = 1;
        return NULL;
    }
    struct MHD_OptionItem options[] = {
        {MHD_OPTION_SOCK_ADDR, 0, bind_address},
        {MHD_OPTION_CONNECTION_LIMIT, (intptr_t)limits.connection_limit, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)limits.idle_timeout_seconds, NULL},
        {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)limits.connection_memory, NULL},
        {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_context},
        {MHD_OPTION_END, 0, NULL},
    };
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/* The port the daemon listens on (useful after starting on port 0); 0 when unknown. */
static inline uint16_t tandem_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/* The connection's socket, or -1. */
static inline int tandem_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

#endif
