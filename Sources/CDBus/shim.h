#ifndef DESKTOPNOTIFICATIONS_CDBUS_SHIM_H
#define DESKTOPNOTIFICATIONS_CDBUS_SHIM_H
#include <dbus/dbus.h>
/* The connection layer's I/O thread waits with epoll; Glibc's Swift module does not export it. */
#include <sys/epoll.h>
#endif
