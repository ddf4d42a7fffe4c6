import DesktopNotificationsSupport
/// The engine's weak reference to its host, made before the host exists (the center makes its
/// engine in its initializer, before it can hand itself over) and filled in once it does.
final class EngineHostReference: Sendable {
    private struct Slot: @unchecked Sendable {
        weak var host: (any EngineHost)?
    }

    private let slot = Locked(Slot())

    var host: (any EngineHost)? {
        get { slot.withLock { $0.host } }
        set { slot.withLock { $0.host = newValue } }
    }
}
