/* class_conn.c - the class protocol's client end (see class_conn.h). */
#include "class_conn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "i18n.h"

bool class_code_valid(const char *code)
{
    size_t length = strlen(code);
    if (length == 0 || length > CLASS_CODE_MAX)
        return false;
    for (size_t i = 0; i < length; i++)
        if (!((code[i] >= 'a' && code[i] <= 'z') || (code[i] >= '0' && code[i] <= '9') || code[i] == '-'))
            return false;
    return true;
}

bool class_socket_path(const char *dir, const char *code, char *folder, size_t folder_size, char *socket_path,
                       size_t socket_size, char *err, size_t err_size)
{
    if (!dir || !*dir)
        dir = getenv("CLOTHSIM_CLASS_DIR");
    int n = dir && *dir ? snprintf(folder, folder_size, "%s", dir)
                        : snprintf(folder, folder_size, "/tmp/clothsim-class-%s", code);
    struct sockaddr_un address;
    size_t room = sizeof address.sun_path < socket_size ? sizeof address.sun_path : socket_size;
    int m = n < 0 || (size_t)n >= folder_size ? -1 : snprintf(socket_path, room, "%s/class-%s.sock", folder, code);
    if (m < 0 || (size_t)m >= room) {
        snprintf(err, err_size, _("%.200s: the folder's path is too long for a socket (at most %zu bytes in all)"),
                 folder, sizeof address.sun_path - 1);
        return false;
    }
    return true;
}

int class_split(char *line, char **words)
{
    int count = 0;
    char *p = line;
    while (*p) {
        if (count == CLASS_WORDS_MAX || *p == ' ')
            return -1;
        words[count++] = p;
        char *space = strchr(p, ' ');
        if (!space)
            break;
        *space = '\0';
        p = space + 1;
        if (!*p)
            return -1; /* a trailing space: an empty word */
    }
    return count;
}

size_t class_text_encode(const char *text, size_t length, char *out, size_t out_size)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t used = 0, taken = 0;
    for (; taken < length; taken++) {
        unsigned char byte = (unsigned char)text[taken];
        bool plain = byte > ' ' && byte <= '~' && byte != '%';
        if (used + (plain ? 1 : 3) >= out_size)
            break;
        if (plain)
            out[used++] = (char)byte;
        else {
            out[used++] = '%';
            out[used++] = hex[byte >> 4];
            out[used++] = hex[byte & 15];
        }
    }
    if (out_size)
        out[used] = '\0';
    return taken;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

bool class_text_decode(char *text)
{
    char *to = text;
    for (const char *from = text; *from; from++) {
        if (*from != '%') {
            *to++ = *from;
            continue;
        }
        int high = hex_digit(from[1]), low = high < 0 ? -1 : hex_digit(from[2]);
        if (low < 0 || (high == 0 && low == 0))
            return false;
        *to++ = (char)(high * 16 + low);
        from += 2;
    }
    *to = '\0';
    return true;
}

bool class_conn_open(ClassConn *conn, const char *socket_path, char *err, size_t err_size)
{
    conn->in_length = 0;
    conn->eof = false;
    conn->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (conn->fd < 0) {
        snprintf(err, err_size, _("cannot make a socket: %s"), strerror(errno));
        return false;
    }
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    snprintf(address.sun_path, sizeof address.sun_path, "%s", socket_path);
    if (connect(conn->fd, (struct sockaddr *)&address, sizeof address) != 0) {
        int e = errno;
        if (e == ENOENT || e == ECONNREFUSED)
            snprintf(err, err_size, _("%.200s: no class is running there (%s)"), socket_path, strerror(e));
        else
            snprintf(err, err_size, _("%.200s: cannot connect: %s"), socket_path, strerror(e));
        close(conn->fd);
        conn->fd = -1;
        return false;
    }
    fcntl(conn->fd, F_SETFL, fcntl(conn->fd, F_GETFL) | O_NONBLOCK);
    return true;
}

void class_conn_close(ClassConn *conn)
{
    if (conn->fd >= 0)
        close(conn->fd);
    conn->fd = -1;
}

bool class_conn_send(ClassConn *conn, const char *format, ...)
{
    if (conn->fd < 0)
        return false;
    char line[CLASS_LINE_MAX + 1];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(line, sizeof line - 1, format, args);
    va_end(args);
    if (n < 0 || n > CLASS_LINE_MAX - 1)
        return false;
    line[n++] = '\n';
    for (int sent = 0; sent < n;) {
        ssize_t w = send(conn->fd, line + sent, (size_t)(n - sent), MSG_NOSIGNAL);
        if (w > 0) {
            sent += (int)w;
        } else if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd fd = {.fd = conn->fd, .events = POLLOUT};
            if (poll(&fd, 1, 2000) <= 0)
                return false;
        } else if (w < 0 && errno == EINTR) {
            continue;
        } else {
            return false;
        }
    }
    return true;
}

bool class_conn_read(ClassConn *conn)
{
    if (conn->fd < 0)
        return conn->in_length > 0;
    while (conn->in_length < sizeof conn->in) {
        ssize_t r = read(conn->fd, conn->in + conn->in_length, sizeof conn->in - conn->in_length);
        if (r > 0) {
            conn->in_length += (size_t)r;
        } else if (r == 0) {
            conn->eof = true;
            break;
        } else if (errno == EINTR) {
            continue;
        } else {
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                conn->eof = true;
            break;
        }
    }
    return !conn->eof || conn->in_length > 0;
}

bool class_conn_line(ClassConn *conn, char *line, size_t line_size)
{
    char *newline = memchr(conn->in, '\n', conn->in_length);
    if (!newline) {
        if (conn->in_length == sizeof conn->in)
            conn->in_length = 0; /* a server never sends a line this long */
        return false;
    }
    size_t length = (size_t)(newline - conn->in);
    snprintf(line, line_size, "%.*s", (int)length, conn->in);
    memmove(conn->in, newline + 1, conn->in_length - length - 1);
    conn->in_length -= length + 1;
    return true;
}

bool class_conn_wait_line(ClassConn *conn, char *line, size_t line_size, int timeout_ms)
{
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        if (class_conn_line(conn, line, line_size))
            return true;
        if (!class_conn_read(conn) || conn->eof) {
            if (class_conn_line(conn, line, line_size))
                return true;
            return false;
        }
        if (class_conn_line(conn, line, line_size))
            return true;
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long spent = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
        if (spent >= timeout_ms)
            return false;
        struct pollfd fd = {.fd = conn->fd, .events = POLLIN};
        poll(&fd, 1, (int)(timeout_ms - spent));
    }
}
