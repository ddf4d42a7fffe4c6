import CDBus
import Dispatch

// libdbus's main-loop contract: it hands out watches (file descriptors with read/write
// interest and an enabled flag) and timeouts (intervals with an enabled flag), and says when
// dispatch is needed. Each enabled watch is a dispatch source on the connection queue, so an
// idle connection has no timer and no wake-up at all.

/// One libdbus watch as dispatch sources; sources exist only while libdbus enables the watch.
final class WatchSources {
    let watch: OpaquePointer
    unowned let core: ConnectionCore
    private var sources: [any DispatchSourceProtocol] = []

    init(watch: OpaquePointer, core: ConnectionCore) {
        self.watch = watch
        self.core = core
    }

    func update() {
        cancel()
        guard dbus_watch_get_enabled(watch) != 0 else { return }
        let fd = dbus_watch_get_unix_fd(watch)
        let flags = dbus_watch_get_flags(watch)
        if flags & DBUS_WATCH_READABLE.rawValue != 0 {
            let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: core.queue)
            source.setEventHandler { [unowned self] in handle(DBUS_WATCH_READABLE.rawValue) }
            sources.append(source)
        }
        if flags & DBUS_WATCH_WRITABLE.rawValue != 0 {
            let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: core.queue)
            source.setEventHandler { [unowned self] in handle(DBUS_WATCH_WRITABLE.rawValue) }
            sources.append(source)
        }
        for source in sources { source.resume() }
    }

    func cancel() {
        for source in sources { source.cancel() }
        sources = []
    }

    private func handle(_ condition: UInt32) {
        dbus_watch_handle(watch, condition)
        core.scheduleDispatch()
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

    func update() {
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

private func watchSources(_ watch: OpaquePointer?) -> WatchSources? {
    guard let watch, let data = dbus_watch_get_data(watch) else { return nil }
    return Unmanaged<WatchSources>.fromOpaque(data).takeUnretainedValue()
}

private func timeoutSource(_ timeout: OpaquePointer?) -> TimeoutSource? {
    guard let timeout, let data = dbus_timeout_get_data(timeout) else { return nil }
    return Unmanaged<TimeoutSource>.fromOpaque(data).takeUnretainedValue()
}

private let addWatch: DBusAddWatchFunction = { watch, data in
    guard let watch else { return 0 }
    let sources = WatchSources(watch: watch, core: core(data))
    dbus_watch_set_data(watch, Unmanaged.passRetained(sources).toOpaque()) { pointer in
        guard let pointer else { return }
        let sources = Unmanaged<WatchSources>.fromOpaque(pointer).takeRetainedValue()
        sources.cancel()
    }
    sources.update()
    return 1
}

private let removeWatch: DBusRemoveWatchFunction = { watch, _ in
    watchSources(watch)?.cancel()
}

private let toggleWatch: DBusWatchToggledFunction = { watch, _ in
    watchSources(watch)?.update()
}

private let addTimeout: DBusAddTimeoutFunction = { timeout, data in
    guard let timeout else { return 0 }
    let source = TimeoutSource(timeout: timeout, core: core(data))
    dbus_timeout_set_data(timeout, Unmanaged.passRetained(source).toOpaque()) { pointer in
        guard let pointer else { return }
        Unmanaged<TimeoutSource>.fromOpaque(pointer).takeRetainedValue().cancel()
    }
    source.update()
    return 1
}

private let removeTimeout: DBusRemoveTimeoutFunction = { timeout, _ in
    timeoutSource(timeout)?.cancel()
}

private let toggleTimeout: DBusTimeoutToggledFunction = { timeout, _ in
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
        guard let raw else { return }
        let data = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_exit_on_disconnect(raw, 0)
        _ = dbus_connection_add_filter(raw, filter, data, nil)
        _ = dbus_connection_set_watch_functions(raw, addWatch, removeWatch, toggleWatch, data, nil)
        _ = dbus_connection_set_timeout_functions(raw, addTimeout, removeTimeout, toggleTimeout, data, nil)
        dbus_connection_set_dispatch_status_function(raw, dispatchStatusChanged, data, nil)
        scheduleDispatch()
    }

    /// Removes everything `attachMainLoop` installed; libdbus removes each watch and timeout
    /// through the old functions, which cancels their sources.
    func detachMainLoop(from raw: OpaquePointer) {
        let data = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_remove_filter(raw, filter, data)
        dbus_connection_set_dispatch_status_function(raw, nil, nil, nil)
        _ = dbus_connection_set_watch_functions(raw, nil, nil, nil, nil, nil)
        _ = dbus_connection_set_timeout_functions(raw, nil, nil, nil, nil, nil)
    }
}
