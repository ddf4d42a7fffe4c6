import DBus
import Foundation
import FreedesktopNotifications
import UserNotifications
import UserNotificationsTesting

/// Chooses where the examples' notifications go: the desktop's notification server when
/// the session bus has one, else a terminal presenter on a private bus this process starts.
public enum DemoPresenter {
    /// How long an example waits for an answer (`DEMO_TIMEOUT` seconds, default 120).
    public static let timeoutSeconds = Int(ProcessInfo.processInfo.environment["DEMO_TIMEOUT"] ?? "") ?? 120

    private static let kept = KeptAlive()

    /// Stops what ``prepare(appID:name:)`` started for the terminal (the private bus, by its
    /// PID) and exits with `status`. A process that just ends would leave its bus daemon
    /// running: statics are not deinitialised at exit.
    public static func exit(_ status: Int32) async -> Never {
        await kept.stop()
        Foundation.exit(status)
    }

    /// Configures `UNUserNotificationCenter.current()`; `true` when the terminal is used.
    public static func prepare(appID: String, name: String) async throws -> Bool {
        let identity = ApplicationIdentity(id: appID, displayName: name, icon: "dialog-information")
        if ProcessInfo.processInfo.environment["DEMO_TERMINAL"] == nil,
           (try? await NotificationsClient(bus: .session, callTimeout: .seconds(2)).isServerAvailable()) == true {
            UNUserNotificationCenter.configure(identity: identity, bus: .session, persistent: false)
            return false
        }
        print("No notification server on the session bus: showing notifications in this terminal.")
        let bus = try await TestBus()
        let connection = try await DBusConnection.connect(to: .address(bus.address))
        let server = try await TerminalPresenter().start(on: connection)
        kept.keep(bus, connection, server)
        kept.stopOnInterrupt(bus)
        UNUserNotificationCenter.configure(identity: identity, bus: .address(bus.address), persistent: false)
        return true
    }
}

/// Holds the private bus and the presenter for the life of the process, and stops the bus
/// when the example ends or is interrupted.
final class KeptAlive: @unchecked Sendable {
    private var objects: [AnyObject] = []
    private var buses: [TestBus] = []
    private var interrupts: [any DispatchSourceSignal] = []
    private let lock = NSLock()

    func keep(_ objects: AnyObject...) {
        lock.lock()
        self.objects.append(contentsOf: objects)
        lock.unlock()
    }

    /// Control-C, SIGTERM or a hang-up stop `bus` before the process ends (status 128 + the
    /// signal).
    func stopOnInterrupt(_ bus: TestBus) {
        let sources = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                Task {
                    await bus.stop()
                    Foundation.exit(128 + number)
                }
            }
            source.resume()
            return source
        }
        lock.lock()
        buses.append(bus)
        interrupts.append(contentsOf: sources)
        lock.unlock()
    }

    /// Stops every kept bus.
    func stop() async {
        let buses: [TestBus] = lock.withLock {
            defer { self.buses = [] }
            return self.buses
        }
        for bus in buses { await bus.stop() }
    }
}
