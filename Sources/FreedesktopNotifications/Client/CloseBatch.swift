import DBus
import DesktopNotificationsSupport

/// The `CloseNotification` calls of one ``NotificationsClient/closeNotifications(ids:)``: a
/// window of calls on their way, each reply making room for the next call, until every id has
/// been answered.
///
/// One thread at a time sends (``pump(on:timeout:)``); a reply that comes meanwhile, on the
/// connection's queue or at once on the sending thread (a connection that closed answers every
/// call at once), only asks it to look again, so the calls of a batch never nest on a stack.
final class CloseBatch: Sendable {
    private struct State {
        var next = 0
        var answered = 0
        var failures: [(id: UInt32, error: NotificationsError)] = []
        var finished: (@Sendable () -> Void)?
        var pumping = false
        var lookAgain = false
    }

    private let ids: [UInt32]
    private let window: Int
    private let state = Locked(State())

    init(ids: [UInt32], window: Int) {
        self.ids = ids
        self.window = max(window, 1)
    }

    /// The ids whose close failed, with why, in the order they were answered.
    var failures: [(id: UInt32, error: NotificationsError)] { state.withLock { $0.failures } }

    /// Sends the first calls on `connection`; `finished` runs once every id has been answered.
    func start(on connection: DBusConnection, timeout: Duration, finished: @escaping @Sendable () -> Void) {
        state.withLock { $0.finished = finished }
        pump(on: connection, timeout: timeout)
    }

    /// Sends calls while the window has room, unless another thread is sending (then that one
    /// looks again before it stops).
    private func pump(on connection: DBusConnection, timeout: Duration) {
        guard state.withLock({ state in
            if state.pumping { state.lookAgain = true }
            defer { state.pumping = true }
            return !state.pumping
        }) else { return }
        while true {
            while let index = takeRoom() { send(ids[index], on: connection, timeout: timeout) }
            let again = state.withLock { state in
                defer { state.lookAgain = false }
                if !state.lookAgain { state.pumping = false }
                return state.lookAgain
            }
            if !again { return }
        }
    }

    /// The index of the next id to send, when there is one and the window has room.
    private func takeRoom() -> Int? {
        state.withLock { state in
            guard state.next < ids.count, state.next - state.answered < window else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    private func send(_ id: UInt32, on connection: DBusConnection, timeout: Duration) {
        let message: DBusMessage
        do {
            message = try NotificationsSpec.Call.closeNotification(.init(id: id))
                .message(to: NotificationsInterface.busName, path: NotificationsInterface.path)
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
        pump(on: connection, timeout: timeout)
    }
}
