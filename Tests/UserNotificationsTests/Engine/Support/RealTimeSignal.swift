import Dispatch
import Foundation

/// Blocks until `signal()` is called or `seconds` pass; for the few tests on real time.
final class RealTimeSignal: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    func signal() {
        semaphore.signal()
    }

    /// Whether the signal came within `seconds`.
    func wait(seconds: Double) -> Bool {
        semaphore.wait(timeout: .now() + seconds) == .success
    }
}
