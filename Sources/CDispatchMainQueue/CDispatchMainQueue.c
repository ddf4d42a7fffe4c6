#include "CDispatchMainQueue.h"

#if defined(__linux__)
// libdispatch's entry point for CoreFoundation's run loop (swift-corelibs-libdispatch,
// src/queue.c), exported by libdispatch.so and by the static libdispatch.a alike; no public
// header declares it. On Linux a run-loop handle is an int (an eventfd).
extern int _dispatch_get_main_queue_handle_4CF(void);

int dn_dispatch_make_main_queue_handle(void) {
    return _dispatch_get_main_queue_handle_4CF();
}
#else
int dn_dispatch_make_main_queue_handle(void) {
    return -1;
}
#endif
