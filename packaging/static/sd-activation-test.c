/*
 * Checks sd-activation.c against sd_listen_fds(3) and sd_is_socket(3); packaging/static/libs.sh
 * builds and runs it before the installed notify is linked with them. Quiet when every check
 * holds; each failed check is printed, and the exit status is their number.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

int sd_listen_fds(int unset_environment);
int sd_is_socket(int fd, int family, int type, int listening);

static int fails = 0;

/* Prints a check that does not hold, and counts it. */
#define CHECK(expression, expected) do { \
    int got = (expression); \
    if (got != (expected)) { \
        fprintf(stderr, "sd-activation-test: %s is %d, not %d\n", #expression, got, (expected)); \
        fails++; \
    } \
} while (0)

/* Ends the test when what it sets up cannot be. */
static void need(int holds, const char *what) {
    if (!holds) {
        perror(what);
        exit(100);
    }
}

int main(void) {
    int pair[2];
    need(socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0, "socketpair");
    CHECK(sd_is_socket(pair[0], AF_UNIX, SOCK_STREAM, 0), 1);
    CHECK(sd_is_socket(pair[0], AF_UNSPEC, 0, -1), 1);
    CHECK(sd_is_socket(pair[0], AF_UNIX, SOCK_DGRAM, -1), 0);
    CHECK(sd_is_socket(pair[0], AF_INET, 0, -1), 0);
    CHECK(sd_is_socket(pair[0], AF_UNIX, SOCK_STREAM, 1), 0);

    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    need(listener >= 0 && bind(listener, (struct sockaddr *)&address, sizeof address) == 0 && listen(listener, 1) == 0,
         "a listening socket");
    CHECK(sd_is_socket(listener, AF_INET, SOCK_STREAM, 1), 1);
    CHECK(sd_is_socket(listener, AF_INET, SOCK_STREAM, 0), 0);
    CHECK(sd_is_socket(listener, AF_UNIX, SOCK_STREAM, 1), 0);

    int file = open("/dev/null", O_RDONLY);
    need(file >= 0, "/dev/null");
    CHECK(sd_is_socket(file, AF_UNSPEC, 0, -1), 0);
    CHECK(sd_is_socket(-1, AF_UNSPEC, 0, -1), -EINVAL);
    int closed = dup(file);
    need(closed >= 0 && close(closed) == 0, "a closed descriptor");
    CHECK(sd_is_socket(closed, AF_UNSPEC, 0, -1), -EBADF);

    /* Nothing passed, or passed to another process. */
    unsetenv("LISTEN_PID");
    unsetenv("LISTEN_FDS");
    CHECK(sd_listen_fds(0), 0);
    char pid[32];
    snprintf(pid, sizeof pid, "%ld", (long)getpid());
    setenv("LISTEN_PID", "1", 1);
    setenv("LISTEN_FDS", "2", 1);
    CHECK(sd_listen_fds(0), 0);
    /* A count that is not a number: a letter after it, a sign, a blank, nothing, too large. */
    setenv("LISTEN_PID", pid, 1);
    const char *not_counts[] = {"2x", "-1", " 2", "+2", "", "99999999999999999999"};
    for (size_t index = 0; index < sizeof not_counts / sizeof *not_counts; index++) {
        setenv("LISTEN_FDS", not_counts[index], 1);
        int before = fails;
        CHECK(sd_listen_fds(0), -EINVAL);
        if (fails != before) {
            fprintf(stderr, "sd-activation-test: (with LISTEN_FDS=\"%s\")\n", not_counts[index]);
        }
    }

    /* Two passed, at 3 and 4: counted, made close-on-exec, and the variables unset. */
    need(dup2(pair[0], 3) == 3 && dup2(pair[1], 4) == 4, "descriptors 3 and 4");
    need(fcntl(4, F_SETFD, 0) == 0, "descriptor 4 without FD_CLOEXEC");
    setenv("LISTEN_FDS", "2", 1);
    CHECK(sd_listen_fds(1), 2);
    CHECK(fcntl(4, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
    CHECK(getenv("LISTEN_PID") == NULL && getenv("LISTEN_FDS") == NULL, 1);

    /* More counted than are open. */
    setenv("LISTEN_PID", pid, 1);
    setenv("LISTEN_FDS", "1000", 1);
    CHECK(sd_listen_fds(0), -EBADF);
    return fails;
}
