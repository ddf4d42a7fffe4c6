// What the seed samples assume of their app, provided by the harness so the samples stay as
// written:
// - `print`: the samples report by printing. This module-level `print` shadows the standard
//   library's for every file of this target, records each line in ``Console``, and prints it.
// - `delay(_:_:)`: the post's demo helper (`DispatchQueue.main.asyncAfter`). Here it records
//   the block with its delay in ``DelayedBlocks``; a test moves the center's virtual clock by
//   that delay and then runs the block, so "later" is exact and nothing sleeps.
// - `UIAlertController.showConfirmAlertFromTopViewController(message:)`: the post's demo
//   extension on UIKit's alert controller. This stand-in records the message in ``Alerts``.
import Foundation
import Synchronization

// MARK: - Console

/// The standard library's `print`, recording each printed line in ``Console``.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let line = items.map { String(describing: $0) }.joined(separator: separator)
    Console.record(line)
    Swift.print(line, terminator: terminator)
}

/// The lines the samples printed since the last ``clear()``.
enum Console {
    private static let lines = Mutex<[String]>([])

    static func record(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    static var all: [String] {
        lines.withLock { $0 }
    }

    static func clear() {
        lines.withLock { $0.removeAll() }
    }

    /// Waits until `count` printed lines satisfy `matches`, at most `timeout`; returns them.
    @discardableResult
    static func waitForLines(
        count: Int = 1, timeout: Duration = .seconds(5), where matches: @escaping @Sendable (String) -> Bool
    ) async -> [String] {
        await waitUntil(timeout: timeout) { all.filter(matches).count >= count }
        return all.filter(matches)
    }
}

// MARK: - delay

/// The post's demo helper: runs `block` after `seconds`. Recorded here; see ``DelayedBlocks``.
func delay(_ seconds: Double, _ block: @escaping () -> Void) {
    DelayedBlocks.shared.add(seconds: seconds, block)
}

/// The blocks handed to `delay`, in order, until a test runs them.
final class DelayedBlocks: @unchecked Sendable {
    static let shared = DelayedBlocks()

    private let lock = NSLock()
    private var blocks: [(seconds: Double, block: () -> Void)] = []

    func add(seconds: Double, _ block: @escaping () -> Void) {
        lock.withLock { blocks.append((seconds, block)) }
    }

    /// The delays asked for, in order.
    var delays: [Double] {
        lock.withLock { blocks.map(\.seconds) }
    }

    /// Runs the blocks, in order, and forgets them.
    func runAll() {
        let due = lock.withLock {
            defer { blocks.removeAll() }
            return blocks.map(\.block)
        }
        for block in due { block() }
    }

    func clear() {
        lock.withLock { blocks.removeAll() }
    }
}

// MARK: - UIAlertController stand-in

/// Stands in for the post's `UIAlertController.showConfirmAlertFromTopViewController(message:)`
/// (a demo-app extension on a UIKit class): records the message instead of showing an alert,
/// and whether it came on the main thread, where UIKit requires it.
enum UIAlertController {
    static func showConfirmAlertFromTopViewController(message: String) {
        Alerts.record(message)
        if Thread.isMainThread { Alerts.recordOnMainThread(message) }
    }
}

/// The messages the samples showed in alerts since the last ``clear()``.
enum Alerts {
    private static let messages = Mutex<[String]>([])
    private static let messagesOnMainThread = Mutex<[String]>([])

    static func record(_ message: String) {
        messages.withLock { $0.append(message) }
    }

    static func recordOnMainThread(_ message: String) {
        messagesOnMainThread.withLock { $0.append(message) }
    }

    /// The messages shown from the main thread (in a program; the test runner drains the main
    /// queue from another thread).
    static var onMainThread: [String] {
        messagesOnMainThread.withLock { $0 }
    }

    static var all: [String] {
        messages.withLock { $0 }
    }

    static func clear() {
        messages.withLock { $0.removeAll() }
        messagesOnMainThread.withLock { $0.removeAll() }
    }
}

// MARK: - Waiting

/// Checks `condition` every 10 ms until it holds, at most `timeout`; returns whether it held.
@discardableResult
func waitUntil(
    timeout: Duration = .seconds(5), isolation: isolated (any Actor)? = #isolation, _ condition: () async -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return await condition()
}
