#if canImport(Glibc)
import DesktopNotificationsSupport
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CDBus
import Dispatch
import Synchronization

/// One thread for the whole process that waits in `epoll_wait` on every connection's socket
/// and hands readiness to the connection's queue (synchronously, so that it runs on this
/// thread when the queue is idle).
///
/// Between reports it also runs the jobs of tasks that prefer ``DBusLoopExecutor``: a task that
/// a report resumes (a call's handler, woken by the call it serves) runs on this thread right
/// after the report, with no other thread woken.
///
/// libdbus expects level-triggered watches. Registrations here are level-triggered and
/// one-shot: a descriptor reports once, then stays quiet until its connection has handled
/// the event and re-armed it, so data left unread is reported again and nothing spins. With
/// nothing armed the thread sleeps in the kernel: an idle process makes no wake-ups.
final class DescriptorLoop: Sendable {
    typealias Handler = @Sendable (_ events: UInt32) -> Void

    private struct Registration: Sendable {
        let queue: DispatchQueue
        let handler: Handler
    }

    /// The loop once started; `nil` before, or after a start that failed.
    private static let instance = Locked<DescriptorLoop?>(nil)

    /// The running loop, started by the first connection that opens (tried again by the next
    /// one after a start that failed).
    ///
    /// - Throws: ``DBusError/connectionFailed(name:message:)`` when the process has no
    ///   descriptor or thread left for it.
    static func start() throws(DBusError) -> DescriptorLoop {
        try instance.withLock { (loop: inout DescriptorLoop?) throws(DBusError) -> DescriptorLoop in
            if let loop { return loop }
            let started = try DescriptorLoop()
            loop = started
            return started
        }
    }

    /// The running loop, `nil` before any connection opened.
    static var running: DescriptorLoop? { instance.withLock { $0 } }

    private let epoll: Int32
    private let registrations = Locked<[UInt64: Registration]>([:])
    private let nextID = Atomic<UInt64>(1)
    /// The loop's thread, once it runs (0 before).
    private let loopThread = Atomic<UInt>(0)
    /// The wake-ups asked for during the report being handled (``afterReport(_:)``); only the
    /// loop's thread adds to it and takes from it, so the lock is never contended.
    private let wakeUps = Locked<[@Sendable () -> Void]>([])
    /// True while the loop's thread hands a report to a connection's queue.
    private let inReport = Atomic<Bool>(false)
    /// The jobs of ``DBusLoopExecutor``, run between reports, and whether the loop has been
    /// woken for them (the event descriptor written) since it last looked.
    private let jobs = Locked<(queue: [UnownedJob], woken: Bool)>(([], false))
    /// Wakes the loop for jobs enqueued from other threads; registered under id 0, which no
    /// descriptor gets (``nextRegistrationID()`` starts at 1).
    private let jobSignal: Int32

    private init() throws(DBusError) {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw Self.failure("epoll_create1") }
        jobSignal = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard jobSignal >= 0 else {
            let error = Self.failure("eventfd")
            close(epoll)
            throw error
        }
        var signalEvent = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: 0))
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, jobSignal, &signalEvent) == 0 else {
            let error = Self.failure("epoll_ctl")
            close(jobSignal)
            close(epoll)
            throw error
        }
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            Unmanaged<DescriptorLoop>.fromOpaque(context!).takeUnretainedValue().run()
        }, context)
        guard started == 0 else {
            Unmanaged<DescriptorLoop>.fromOpaque(context).release()
            close(jobSignal)
            close(epoll)
            throw .connectionFailed(
                name: "org.freedesktop.DBus.Error.Failed", message: "the D-Bus I/O thread could not start: \(String(cString: strerror(started)))")
        }
        pthread_detach(thread)
    }

    /// Why the loop could not start: `call` failed with `errno`.
    private static func failure(_ call: String) -> DBusError {
        .connectionFailed(
            name: "org.freedesktop.DBus.Error.Failed", message: "the D-Bus I/O thread could not start: \(call): \(String(cString: strerror(errno)))")
    }

    /// A fresh registration id.
    func nextRegistrationID() -> UInt64 {
        nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// Registers `fd` under `id` with nothing armed; `handler` runs on `queue` for each report.
    func register(id: UInt64, fd: Int32, queue: DispatchQueue, handler: @escaping Handler) {
        registrations.withLock { $0[id] = Registration(queue: queue, handler: handler) }
        var event = epoll_event(events: EPOLLONESHOT.rawValue, data: epoll_data_t(u64: id))
        _ = epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event)
    }

    /// Arms `fd` for one report of readability and/or writability (hang-ups and errors are
    /// always reported).
    func arm(id: UInt64, fd: Int32, readable: Bool, writable: Bool) {
        var mask = EPOLLONESHOT.rawValue
        if readable { mask |= EPOLLIN.rawValue }
        if writable { mask |= EPOLLOUT.rawValue }
        var event = epoll_event(events: mask, data: epoll_data_t(u64: id))
        _ = epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event)
    }

    /// Forgets `fd`; a report already on its way to the queue is dropped there.
    func unregister(id: UInt64, fd: Int32) {
        registrations.withLock { _ = $0.removeValue(forKey: id) }
        var event = epoll_event()
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &event)
    }

    /// Runs `wakeUp` once the report being handled on this thread has left its connection's
    /// queue; at once when called from any other thread, or from this one outside a report.
    ///
    /// For waking another thread from inside a report (resuming a task that waits for a reply):
    /// woken inside it, that thread would often reach the connection's queue while the report
    /// still holds it, and wait there for it, a thread switch each way.
    static func afterReport(_ wakeUp: @escaping @Sendable () -> Void) {
        guard let loop = running, loop.isLoopThread, loop.inReport.load(ordering: .relaxed) else { return wakeUp() }
        loop.wakeUps.withLock { $0.append(wakeUp) }
    }

    /// Whether the caller runs on the loop's thread.
    var isLoopThread: Bool { UInt(pthread_self()) == loopThread.load(ordering: .relaxed) }

    /// Queues `job` to run on the loop's thread after the report under way, or at once when
    /// the loop waits.
    func enqueue(_ job: UnownedJob) {
        let onLoop = isLoopThread
        let wake = jobs.withLock { jobs in
            jobs.queue.append(job)
            guard !onLoop, !jobs.woken else { return false }
            jobs.woken = true
            return true
        }
        guard wake else { return }
        var one: UInt64 = 1
        _ = write(jobSignal, &one, MemoryLayout<UInt64>.size)
    }

    /// Runs the jobs queued so far (not the ones they queue); returns whether more wait.
    private func runJobs() -> Bool {
        let batch = jobs.withLock { jobs in
            jobs.woken = false
            defer { jobs.queue.removeAll(keepingCapacity: true) }
            return jobs.queue
        }
        let executor = DBusLoopExecutor.shared.asUnownedTaskExecutor()
        for job in batch { job.runSynchronously(on: executor) }
        return jobs.withLock { !$0.queue.isEmpty }
    }

    private func run() -> Never {
        loopThread.store(UInt(pthread_self()), ordering: .relaxed)
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        var ready: [@Sendable () -> Void] = []
        // With jobs still waiting after a round of them, the loop only looks at the
        // descriptors (a zero timeout) before the next round: jobs that queue more jobs do not
        // keep reports waiting.
        var jobsWaiting = false
        while true {
            let count = epoll_wait(epoll, &events, Int32(events.count), jobsWaiting ? 0 : -1)
            for index in 0..<max(Int(count), 0) {
                let id = events[index].data.u64
                let mask = events[index].events
                if id == 0 {
                    var value: UInt64 = 0
                    _ = read(jobSignal, &value, MemoryLayout<UInt64>.size)
                    continue
                }
                guard let registration = registrations.withLock({ $0[id] }) else { continue }
                // Synchronously: on an idle connection queue the report is handled on this
                // thread, so a reply reaches its waiter without another thread switch.
                inReport.store(true, ordering: .relaxed)
                registration.queue.sync { registration.handler(mask) }
                inReport.store(false, ordering: .relaxed)
                // Outside the queue: whoever is woken finds it free.
                wakeUps.withLock { swap(&ready, &$0) }
                for wakeUp in ready { wakeUp() }
                ready.removeAll(keepingCapacity: true)
            }
            jobsWaiting = runJobs()
        }
    }
}

/// Runs a task's jobs on the process's D-Bus I/O thread, between the reports it hands to
/// connections: for a task that serves calls one after the other and spends its time waiting
/// for the bus, each call it is resumed for runs on the thread that read it, with no other
/// thread woken. A task that prefers it must not block: while its job runs, no connection in
/// the process reads or writes.
package final class DBusLoopExecutor: TaskExecutor {
    /// The one loop executor of the process.
    package static let shared = DBusLoopExecutor()

    private init() {}

    /// Whether the caller runs on the D-Bus I/O thread (a job of this executor, or a report).
    package static var isCurrentThread: Bool { DescriptorLoop.running?.isLoopThread ?? false }

    /// Queues `job` for the I/O thread; before any connection started it (or when it could not
    /// start), the job runs on a global queue instead, as the task would without a preference.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        guard let loop = DescriptorLoop.running else {
            return DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
        loop.enqueue(job)
    }
}
