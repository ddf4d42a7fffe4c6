#ifndef CDISPATCHMAINQUEUE_H
#define CDISPATCHMAINQUEUE_H

/// Has libdispatch open its main queue's wake-up descriptor now, and returns it (-1 where this
/// libdispatch has none). libdispatch makes that descriptor once, the first time the main queue
/// is woken or this is called; its failure there is a trap, so `notify` calls this first, while
/// only the standard streams are open (DescriptorFloor.swift).
int dn_dispatch_make_main_queue_handle(void);

#endif
