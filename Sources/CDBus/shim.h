#ifndef DESKTOPNOTIFICATIONS_CDBUS_SHIM_H
#define DESKTOPNOTIFICATIONS_CDBUS_SHIM_H
#include <dbus/dbus.h>
/* The connection layer's I/O thread waits with epoll, and is woken for jobs through an
   eventfd; Glibc's Swift module exports neither. */
#include <sys/epoll.h>
#include <sys/eventfd.h>
#endif
