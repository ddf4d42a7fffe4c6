import DBus
import DesktopNotificationsSupport

/// The `CloseNotification` calls of one ``NotificationsClient/closeNotifications(ids:)``: a
/// window of calls on their way, each reply starting the next call, until every id has been
/// answered.
final class CloseBatch: Sendable {
    private struct State {
        var next = 0
        var answered = 0
        var failures: [(id: UInt32, error: NotificationsError)] = []
        var finished: (@Sendable () -> Void)?
    }

    private let ids: [UInt32]
    private let state = Locked(State())

    init(ids: [UInt32]) {
        self.ids = ids
    }

    /// The ids whose close failed, with why, in the order they were answered.
    var failures: [(id: UInt32, error: NotificationsError)] { state.withLock { $0.failures } }

    /// Sends the first `window` calls on `connection`; `finished` runs once every id has been
    /// answered.
    func start(on connection: DBusConnection, timeout: Duration, window: Int, finished: @escaping @Sendable () -> Void) {
        state.withLock { $0.finished = finished }
        for _ in 0..<min(max(window, 1), ids.count) { sendNext(on: connection, timeout: timeout) }
    }

    private func sendNext(on connection: DBusConnection, timeout: Duration) {
        guard let index = state.withLock({ state -> Int? in
            guard state.next < ids.count else { return nil }
            defer { state.next += 1 }
            return state.next
        }) else { return }
        let id = ids[index]
        let message: DBusMessage
        do {
            message = try DBusMessage.methodCall(
                destination: NotificationsInterface.busName, path: NotificationsInterface.path,
                interface: NotificationsInterface.name, member: NotificationsSpec.Method.closeNotification.rawValue,
                body: [.uint32(id)])
        } catch {
            return answered(id, .failure(NotificationsError.from(error)), on: connection, timeout: timeout)
        }
        connection.startCall(message, timeout: timeout) { [self] result in
            answered(id, result.map { _ in () }.mapError { NotificationsError.from($0) }, on: connection, timeout: timeout)
        }
    }

    private func answered(_ id: UInt32, _ result: Result<Void, NotificationsError>, on connection: DBusConnection, timeout: Duration) {
        let finished = state.withLock { state -> (@Sendable () -> Void)? in
            if case .failure(let error) = result { state.failures.append((id, error)) }
            state.answered += 1
            guard state.answered == ids.count else { return nil }
            defer { state.finished = nil }
            return state.finished
        }
        if let finished { return finished() }
        sendNext(on: connection, timeout: timeout)
    }
}
