/*
 * sd_listen_fds(3) and sd_is_socket(3), the two libsystemd functions the static libdbus
 * (libdbus-1.a) calls, written from their manual pages so that the installed notify does
 * not load libsystemd and the six libraries it brings (libgcrypt, liblzma, libzstd, liblz4,
 * libgpg-error, libcap): about a million instructions at every start.
 *
 * libdbus calls them only to listen on sockets handed over by systemd (a DBusServer at a
 * "systemd:" address), which notify never does; they follow the manual all the same.
 * Linked into the installed notify alone (packaging/static/libs.sh); every other build
 * links the shared libdbus, and with it libsystemd's own.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/* The first descriptor passed, SD_LISTEN_FDS_START. */
enum { listen_fds_start = 3 };

/* Reads a decimal number that is the whole of text, or fails: digits only (strtoul alone
 * would take leading blanks, a sign, and a minus that wraps around). */
static int read_number(const char *text, unsigned long *number) {
    if (text[0] < '0' || text[0] > '9') {
        return 0;
    }
    char *end = NULL;
    errno = 0;
    *number = strtoul(text, &end, 10);
    return errno == 0 && *end == '\0';
}

int sd_listen_fds(int unset_environment) {
    int result = 0;
    const char *pid_text = getenv("LISTEN_PID");
    const char *count_text = getenv("LISTEN_FDS");
    unsigned long pid = 0, count = 0;
    if (pid_text == NULL || count_text == NULL) {
        goto done;
    }
    if (!read_number(pid_text, &pid)) {
        result = -EINVAL;
        goto done;
    }
    /* Descriptors passed to another process (the one that exec'd this one) are not ours. */
    if (pid != (unsigned long)getpid()) {
        goto done;
    }
    if (!read_number(count_text, &count) || count > (unsigned long)(INT_MAX - listen_fds_start)) {
        result = -EINVAL;
        goto done;
    }
    for (int fd = listen_fds_start; fd < listen_fds_start + (int)count; fd++) {
        int flags = fcntl(fd, F_GETFD);
        if (flags < 0 || fcntl(fd, F_SETFD, flags | FD_CLOEXEC) < 0) {
            result = -errno;
            goto done;
        }
    }
    result = (int)count;
done:
    if (unset_environment) {
        unsetenv("LISTEN_PID");
        unsetenv("LISTEN_FDS");
        unsetenv("LISTEN_FDNAMES");
    }
    return result;
}

int sd_is_socket(int fd, int family, int type, int listening) {
    if (fd < 0 || family < 0) {
        return -EINVAL;
    }
    struct stat status;
    if (fstat(fd, &status) < 0) {
        return -errno;
    }
    if (!S_ISSOCK(status.st_mode)) {
        return 0;
    }
    if (type != 0) {
        int actual = 0;
        socklen_t length = sizeof actual;
        if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &actual, &length) < 0) {
            return -errno;
        }
        if (length != sizeof actual || actual != type) {
            return 0;
        }
    }
    if (listening >= 0) {
        int accepting = 0;
        socklen_t length = sizeof accepting;
        if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) < 0) {
            return -errno;
        }
        if (length != sizeof accepting || !accepting != !listening) {
            return 0;
        }
    }
    if (family != AF_UNSPEC) {
        struct sockaddr_storage address;
        socklen_t length = sizeof address;
        if (getsockname(fd, (struct sockaddr *)&address, &length) < 0) {
            return -errno;
        }
        if (length < sizeof address.ss_family || address.ss_family != family) {
            return 0;
        }
    }
    return 1;
}
