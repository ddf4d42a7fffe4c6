import DesktopNotificationsSupport
import Foundation
import NotificationAgent
import Testing
import UserNotifications
import UserNotificationsTesting
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The agent's engines write their state off the D-Bus I/O thread that serves every app: an
/// app whose save blocks (here on a lock held on its state file) holds nobody else's calls,
/// nor its own, and its changes land once the lock goes; the agent's stop waits for them.
@Suite("The agent's state saves off the D-Bus I/O thread")
struct AgentSaveOffThreadTests {
    static let lockedID = "org.example.LockedState"
    static let honestID = "org.example.HonestState"
    /// How long a call may take while the other app's save is stuck: a bound against a hang,
    /// not a speed target (each call answers in milliseconds).
    static let bound: Duration = .seconds(10)

    let fixture: AgentServiceFixture

    init() async throws {
        fixture = try await AgentServiceFixture(prefix: "agent-save-thread")
    }

    /// The app's state file, as its engine keeps it in the agent's state folder.
    func stateFile(of appID: String) -> StateFile<EngineState> {
        EngineState.file(in: fixture.stateRoot.appendingPathComponent(appID, isDirectory: true))
    }

    /// The text of the app's state file (empty when there is none).
    func stateText(of appID: String) -> String {
        (try? String(contentsOf: stateFile(of: appID).url, encoding: .utf8)) ?? ""
    }

    /// An app connected to the agent, with a first request scheduled and saved (the file and
    /// its lock file exist).
    func connectedApp(_ appID: String) async throws -> AgentTestClient {
        let app = try await AgentTestClient.connect(fixture.testBus.bus)
        try await app.connectApp(appID)
        try await app.add(AgentTestClient.request("first", after: 3600), for: appID)
        #expect(await eventually { stateText(of: appID).contains("\"first\"") })
        return app
    }

    /// Holds the writer lock of the app's state file, as another process of the app would.
    func holdLock(of appID: String) throws -> HeldFileLock {
        try HeldFileLock(path: stateFile(of: appID).url.deletingPathExtension().appendingPathExtension("lock").path)
    }

    @Test("an app whose state file's lock is held stalls no other app's calls, nor its own; its changes are written once the lock goes")
    func lockedStateStallsNobody() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.startAgent()
        let locked = try await connectedApp(Self.lockedID)
        let honest = try await connectedApp(Self.honestID)
        // Past the spacing of the first save (a few times its duration): the next change is
        // written at once, from the call that made it, as after any quiet spell.
        try await Task.sleep(for: .milliseconds(500))
        let lock = try holdLock(of: Self.lockedID)
        defer { lock.release() }

        // The locked app's save blocks on the lock; its add is answered all the same.
        let lockedAdd = await answered(within: Self.bound) {
            try await locked.add(AgentTestClient.request("second", after: 3600), for: Self.lockedID)
        }
        #expect(lockedAdd?.succeeded == true, "the locked app's Add: \(String(describing: lockedAdd))")
        // The other app's calls answer while the lock is held.
        let honestAdd = await answered(within: Self.bound) {
            try await honest.add(AgentTestClient.request("beside", after: 3600), for: Self.honestID)
        }
        #expect(honestAdd?.succeeded == true, "the other app's Add: \(String(describing: honestAdd))")
        let honestPending = await answered(within: Self.bound) { try await honest.pending(of: Self.honestID) }
        #expect(honestPending?.success.map(Set.init) == ["first", "beside"], "\(String(describing: honestPending))")
        let honestDelivered = await answered(within: Self.bound) {
            try await honest.call("DeliveredNotifications", [.string(Self.honestID)])
        }
        #expect(honestDelivered?.succeeded == true, "the other app's DeliveredNotifications: \(String(describing: honestDelivered))")
        #expect(await eventually { stateText(of: Self.honestID).contains("\"beside\"") })
        // A change while the save waits is written by the save that follows it.
        let lockedAgain = await answered(within: Self.bound) {
            try await locked.add(AgentTestClient.request("third", after: 3600), for: Self.lockedID)
        }
        #expect(lockedAgain?.succeeded == true, "the locked app's second Add: \(String(describing: lockedAgain))")
        let lockedPending = await answered(within: Self.bound) { try await locked.pending(of: Self.lockedID) }
        #expect(lockedPending?.success.map(Set.init) == ["first", "second", "third"], "\(String(describing: lockedPending))")
        // The save did wait for the lock: nothing of it is in the file yet.
        #expect(!stateText(of: Self.lockedID).contains("\"second\""))

        lock.release()
        #expect(await eventually {
            let text = stateText(of: Self.lockedID)
            return text.contains("\"second\"") && text.contains("\"third\"")
        }, "the locked app's changes were not written once the lock went: \(stateText(of: Self.lockedID))")
        await agent.stop()
    }

    @Test("an app whose record's lock is held before its first Connect stalls no other app; its Connect is answered, with the record on disk, once the lock goes")
    func lockedRecordStallsNobody() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.startAgent()
        // The app's folder and its record's lock file, locked before the app ever connects (as
        // another process of the user could): the agent's first write of the record waits.
        let folder = fixture.stateRoot.appendingPathComponent(Self.lockedID, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let lockPath = folder.appendingPathComponent("agent.lock").path
        #expect(FileManager.default.createFile(atPath: lockPath, contents: nil, attributes: [.posixPermissions: 0o600]))
        let lock = try HeldFileLock(path: lockPath)
        defer { lock.release() }

        let locked = try await AgentTestClient.connect(fixture.testBus.bus)
        // Answered only once the lock goes, after the other app's calls: its wait is bounded by
        // the test's own bounds, not by the connection's default of 5 s, which a loaded machine
        // can spend on those calls alone.
        let lockedConnect = Task { try await locked.connectApp(Self.lockedID, timeout: Self.bound * 4) }
        // Its Connect waits for the record...
        try await Task.sleep(for: .milliseconds(300))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("agent.json").path))
        // ...and holds no other app: another connects, adds and lists meanwhile.
        let honest = try await AgentTestClient.connect(fixture.testBus.bus)
        let honestConnect = await answered(within: Self.bound) { try await honest.connectApp(Self.honestID) }
        #expect(honestConnect?.succeeded == true, "the other app's Connect: \(String(describing: honestConnect))")
        let honestAdd = await answered(within: Self.bound) {
            try await honest.add(AgentTestClient.request("beside", after: 3600), for: Self.honestID)
        }
        #expect(honestAdd?.succeeded == true, "the other app's Add: \(String(describing: honestAdd))")
        let honestPending = await answered(within: Self.bound) { try await honest.pending(of: Self.honestID) }
        #expect(honestPending?.success == ["beside"], "\(String(describing: honestPending))")

        lock.release()
        try await lockedConnect.value
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("agent.json").path))
        await agent.stop()
    }

    @Test("the agent's stop waits for a save stuck on its lock and writes the changes made after it")
    func stopWritesWhatIsLeft() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.startAgent()
        let locked = try await connectedApp(Self.lockedID)
        try await Task.sleep(for: .milliseconds(500))
        let lock = try holdLock(of: Self.lockedID)
        defer { lock.release() }
        for identifier in ["second", "third"] {
            let added = await answered(within: Self.bound) {
                try await locked.add(AgentTestClient.request(identifier, after: 3600), for: Self.lockedID)
            }
            #expect(added?.succeeded == true, "Add \(identifier): \(String(describing: added))")
        }

        let stopped = Locked(false)
        let stopping = Task {
            await agent.stop()
            stopped.withLock { $0 = true }
        }
        // The stop is under way (it gives the name back first, then writes every app's state);
        // given time to end, it does not while the save waits for the lock.
        #expect(await eventually { (try? await fixture.testBus.ownerPID(of: AgentInterface.busName)) == .some(nil) })
        try await Task.sleep(for: .milliseconds(500))
        #expect(!stopped.withLock { $0 }, "the agent stopped while its app's save still waited for the lock")
        #expect(!stateText(of: Self.lockedID).contains("\"second\""))
        lock.release()
        await stopping.value
        // Written by the time the stop returned: the save under way and the one after it.
        let text = stateText(of: Self.lockedID)
        #expect(text.contains("\"second\"") && text.contains("\"third\""), "\(text)")
    }
}

/// Runs `call` in a task of its own and gives its outcome, or `nil` when it has not ended
/// within `limit` (it goes on; its outcome is dropped).
private func answered<Value: Sendable>(
    within limit: Duration, _ call: @escaping @Sendable () async throws -> Value
) async -> Result<Value, any Error>? {
    let outcome = Locked<Result<Value, any Error>?>(nil)
    Task {
        do {
            let value = try await call()
            outcome.withLock { $0 = .success(value) }
        } catch {
            outcome.withLock { $0 = .failure(error) }
        }
    }
    _ = await eventually(timeout: limit) { outcome.withLock { $0 } != nil }
    return outcome.withLock { $0 }
}

extension Result {
    /// Whether the call succeeded.
    fileprivate var succeeded: Bool {
        if case .success = self { return true }
        return false
    }

    /// What the call gave, when it succeeded.
    fileprivate var success: Success? { try? get() }
}

/// An exclusive `flock` on a file, as a writer of a state file takes it, until ``release()``.
final class HeldFileLock: Sendable {
    private let descriptor = Locked<Int32>(-1)

    /// Takes the lock on `path` (waiting for no one: the test's agent holds it only while a
    /// save runs, and every save is done).
    init(path: String) throws {
        let opened = open(path, O_RDWR | O_CLOEXEC)
        guard opened >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard flock(opened, LOCK_EX) == 0 else {
            let code = errno
            close(opened)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        descriptor.withLock { $0 = opened }
    }

    deinit { release() }

    /// Lets the lock go (once).
    func release() {
        descriptor.withLock { descriptor in
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }
}
