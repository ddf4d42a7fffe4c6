import CDBus
import Dispatch

// libdbus's main-loop contract: it hands out watches (file descriptors with read/write
// interest and an enabled flag) and timeouts (intervals with an enabled flag), and says when
// dispatch is needed. Watches go to the process's one epoll thread (DescriptorLoop), level
// triggered and re-armed after each report; timeouts are dispatch timers on the connection
// queue, present only while enabled. An idle connection has no timer and no wake-up at all.

/// The libdbus watches of one file descriptor (libdbus keeps a read watch and a write watch
/// on the same socket), registered once with the ``DescriptorLoop``. Queue-confined.
final class DescriptorWatches {
    let fd: Int32
    var id: UInt64 = 0
    var watches: [OpaquePointer] = []

    init(fd: Int32) {
        self.fd = fd
    }

    /// The interests of the enabled watches.
    var interests: (readable: Bool, writable: Bool) {
        var readable = false
        var writable = false
        for watch in watches where dbus_watch_get_enabled(watch) != 0 {
            let flags = dbus_watch_get_flags(watch)
            readable = readable || flags & DBUS_WATCH_READABLE.rawValue != 0
            writable = writable || flags & DBUS_WATCH_WRITABLE.rawValue != 0
        }
        return (readable, writable)
    }
}

extension ConnectionCore {
    func addWatch(_ watch: OpaquePointer) {
        assertOnQueue()
        let fd = dbus_watch_get_unix_fd(watch)
        let descriptor: DescriptorWatches
        if let existing = descriptors[fd] {
            descriptor = existing
        } else {
            descriptor = DescriptorWatches(fd: fd)
            let id = loop.nextRegistrationID()
            descriptor.id = id
            loop.register(id: id, fd: fd, queue: queue) { [weak self] events in
                self?.descriptorReady(fd: fd, id: id, events: events)
            }
            descriptors[fd] = descriptor
        }
        descriptor.watches.append(watch)
        rearm(descriptor)
    }

    func removeWatch(_ watch: OpaquePointer) {
        assertOnQueue()
        let fd = dbus_watch_get_unix_fd(watch)
        guard let descriptor = descriptors[fd] else { return }
        descriptor.watches.removeAll { $0 == watch }
        if descriptor.watches.isEmpty {
            loop.unregister(id: descriptor.id, fd: fd)
            descriptors[fd] = nil
        } else {
            rearm(descriptor)
        }
    }

    func watchToggled(_ watch: OpaquePointer) {
        assertOnQueue()
        guard let descriptor = descriptors[dbus_watch_get_unix_fd(watch)] else { return }
        rearm(descriptor)
    }

    private func rearm(_ descriptor: DescriptorWatches) {
        let interests = descriptor.interests
        loop.arm(id: descriptor.id, fd: descriptor.fd, readable: interests.readable, writable: interests.writable)
    }

    /// One report from the loop: hand each enabled watch its conditions, then re-arm.
    private func descriptorReady(fd: Int32, id: UInt64, events: UInt32) {
        assertOnQueue()
        guard let descriptor = descriptors[fd], descriptor.id == id else { return }
        isHandlingReport = true
        for watch in descriptor.watches {
            guard descriptor.watches.contains(watch), dbus_watch_get_enabled(watch) != 0 else { continue }
            let flags = dbus_watch_get_flags(watch)
            var condition: UInt32 = 0
            if events & EPOLLIN.rawValue != 0, flags & DBUS_WATCH_READABLE.rawValue != 0 { condition |= DBUS_WATCH_READABLE.rawValue }
            if events & EPOLLOUT.rawValue != 0, flags & DBUS_WATCH_WRITABLE.rawValue != 0 { condition |= DBUS_WATCH_WRITABLE.rawValue }
            if events & EPOLLHUP.rawValue != 0 { condition |= DBUS_WATCH_HANGUP.rawValue }
            if events & EPOLLERR.rawValue != 0 { condition |= DBUS_WATCH_ERROR.rawValue }
            if condition != 0 { dbus_watch_handle(watch, condition) }
        }
        isHandlingReport = false
        if let current = descriptors[fd], current === descriptor { rearm(descriptor) }
        dispatchNow()
    }
}

/// One libdbus timeout as a repeating dispatch timer, present only while enabled.
final class TimeoutSource {
    let timeout: OpaquePointer
    unowned let core: ConnectionCore
    private var timer: (any DispatchSourceTimer)?

    init(timeout: OpaquePointer, core: ConnectionCore) {
        self.timeout = timeout
        self.core = core
    }

    /// Follows the timeout's enabled flag and interval; libdbus calls it (through the add and
    /// toggle functions) from inside calls made on the core's queue.
    func update() {
        core.assertOnQueue()
        cancel()
        guard dbus_timeout_get_enabled(timeout) != 0 else { return }
        let interval = DispatchTimeInterval.milliseconds(Int(dbus_timeout_get_interval(timeout)))
        let timer = DispatchSource.makeTimerSource(queue: core.queue)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [unowned self] in
            dbus_timeout_handle(timeout)
            core.scheduleDispatch()
        }
        timer.resume()
        self.timer = timer
    }

    func cancel() {
        timer?.cancel()
        timer = nil
    }
}

private func core(_ data: UnsafeMutableRawPointer?) -> ConnectionCore {
    Unmanaged<ConnectionCore>.fromOpaque(data!).takeUnretainedValue()
}

private func timeoutSource(_ timeout: OpaquePointer?) -> TimeoutSource? {
    guard let timeout, let data = dbus_timeout_get_data(timeout) else { return nil }
    return Unmanaged<TimeoutSource>.fromOpaque(data).takeUnretainedValue()
}

private let addWatchFunction: DBusAddWatchFunction = { watch, data in
    guard let watch else { return 0 }
    core(data).addWatch(watch)
    return 1
}

private let removeWatchFunction: DBusRemoveWatchFunction = { watch, data in
    guard let watch else { return }
    core(data).removeWatch(watch)
}

private let toggleWatchFunction: DBusWatchToggledFunction = { watch, data in
    guard let watch else { return }
    core(data).watchToggled(watch)
}

private let addTimeoutFunction: DBusAddTimeoutFunction = { timeout, data in
    guard let timeout else { return 0 }
    let source = TimeoutSource(timeout: timeout, core: core(data))
    dbus_timeout_set_data(timeout, Unmanaged.passRetained(source).toOpaque()) { pointer in
        guard let pointer else { return }
        Unmanaged<TimeoutSource>.fromOpaque(pointer).takeRetainedValue().cancel()
    }
    source.update()
    return 1
}

private let removeTimeoutFunction: DBusRemoveTimeoutFunction = { timeout, _ in
    timeoutSource(timeout)?.cancel()
}

private let toggleTimeoutFunction: DBusTimeoutToggledFunction = { timeout, _ in
    timeoutSource(timeout)?.update()
}

private let dispatchStatusChanged: DBusDispatchStatusFunction = { _, status, data in
    if status == DBUS_DISPATCH_DATA_REMAINS { core(data).scheduleDispatch() }
}

private let filter: DBusHandleMessageFunction = { _, message, data in
    guard let message else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    return core(data).handleIncoming(message)
}

extension ConnectionCore {
    /// Installs the watch, timeout, dispatch-status and filter functions. On the queue.
    func attachMainLoop() {
        assertOnQueue()
        guard let raw else { return }
        let data = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_exit_on_disconnect(raw, 0)
        _ = dbus_connection_add_filter(raw, filter, data, nil)
        _ = dbus_connection_set_watch_functions(raw, addWatchFunction, removeWatchFunction, toggleWatchFunction, data, nil)
        _ = dbus_connection_set_timeout_functions(raw, addTimeoutFunction, removeTimeoutFunction, toggleTimeoutFunction, data, nil)
        dbus_connection_set_dispatch_status_function(raw, dispatchStatusChanged, data, nil)
        scheduleDispatch()
    }

    /// Removes everything `attachMainLoop` installed; libdbus removes each watch and timeout
    /// through the old functions, which cancels their sources. On the queue.
    func detachMainLoop(from raw: OpaquePointer) {
        assertOnQueue()
        let data = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_remove_filter(raw, filter, data)
        dbus_connection_set_dispatch_status_function(raw, nil, nil, nil)
        _ = dbus_connection_set_watch_functions(raw, nil, nil, nil, nil, nil)
        _ = dbus_connection_set_timeout_functions(raw, nil, nil, nil, nil, nil)
    }
}
